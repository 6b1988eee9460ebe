"""Immutable BM25 segments: term-frequency postings of a set of chunks, memory-mapped.

A segment stores *raw* statistics — per term its postings (row, term frequency),
per row its length in tokens, chunk id and document — and no score. Scores are
computed at query time from the statistics of all live rows of all segments
(:mod:`core.store.bm25`), so adding or removing documents changes nothing
stored for the others and the ranking equals a full rebuild's.

Why not bm25s (used before): it stores precomputed scores, whose IDF and average
length belong to the whole corpus, so any change meant re-tokenizing and
re-indexing every chunk (76–82 s to add one file to a 119k-chunk workspace,
issue #15); it has no incremental update. tantivy counts deleted documents in
its statistics until a merge, so its ranking would drift from a rebuild's.

**Terms** are identified by a 64-bit BLAKE2b hash of the token (no vocabulary to
load or merge). Two tokens collide with probability about n²/2⁶⁵ (3·10⁻⁸ for a
million distinct tokens); a collision only merges their postings.

Files of segment ``<name>`` in ``<workspace>/bm25/<name>/`` (``.npy``, opened
with ``mmap_mode="r"``, so opening costs no reading and little memory):
``terms`` (uint64, sorted), ``indptr`` (int64, len(terms)+1), ``rows`` (int32),
``tf`` (uint16, capped at 65535), ``dl`` (int32, tokens per row), ``ids`` and
``ids_off`` (UTF-8 chunk ids, concatenated, with offsets), ``docs``/``docs_off``
(document ids) and ``doc_rows`` (int64, first row of each document; a
document's rows are contiguous). Deleted rows are listed in tombstone files
``deleted-<random>.npy`` next to them (sorted int32), named in the index state.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from core.textproc import tokenize

#: Token standing for a chunk with no token, as bm25s indexed it (so its length is 1).
EMPTY_TOKEN = "\u2205"
#: Entries per range when segments are merged (bounds the merge's memory, ~30 B each).
MERGE_RANGE_ENTRIES = 1_000_000
_FILES = ("terms", "indptr", "rows", "tf", "dl", "ids", "ids_off", "docs", "docs_off", "doc_rows")

_hash_cache: dict[str, int] = {}
_hash_lock = threading.Lock()


def term_hashes(tokens: Sequence[str]) -> np.ndarray:
    """64-bit BLAKE2b hashes of ``tokens`` (uint64 array, same order)."""
    out = np.empty(len(tokens), dtype=np.uint64)
    cache = _hash_cache
    for i, tok in enumerate(tokens):
        h = cache.get(tok)
        if h is None:
            h = int.from_bytes(hashlib.blake2b(tok.encode("utf-8"), digest_size=8).digest(), "little")
            with _hash_lock:
                if len(cache) > 200_000:  # bound the cache's memory (~30 MB)
                    cache.clear()
                cache[tok] = h
        out[i] = h
    return out


def _pack_strings(values: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    data = [v.encode("utf-8") for v in values]
    off = np.zeros(len(data) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in data], out=off[1:])
    return np.frombuffer(b"".join(data), dtype=np.uint8), off


class SegmentArrays:
    """A segment's arrays in memory (see the module docstring for each one)."""

    def __init__(self, terms, indptr, rows, tf, dl, ids: Sequence[str], docs: Sequence[str], doc_rows) -> None:
        self.terms, self.indptr, self.rows, self.tf, self.dl = terms, indptr, rows, tf, dl
        self.ids, self.docs, self.doc_rows = ids, docs, doc_rows

    def write(self, folder: Path) -> None:
        """Write into ``folder`` (created) atomically: a ``.tmp`` folder renamed at the end."""
        tmp = folder.with_name(folder.name + ".tmp")
        tmp.mkdir(parents=True)
        ids, ids_off = _pack_strings(self.ids)
        docs, docs_off = _pack_strings(self.docs)
        arrays = dict(terms=self.terms, indptr=self.indptr, rows=self.rows, tf=self.tf, dl=self.dl, ids=ids,
                      ids_off=ids_off, docs=docs, docs_off=docs_off, doc_rows=self.doc_rows)
        for key, arr in arrays.items():
            np.save(tmp / f"{key}.npy", np.ascontiguousarray(arr))
        os.replace(tmp, folder)


def build_segment(rows: Sequence[tuple[str, str, str, str]]) -> SegmentArrays:
    """A segment of ``rows`` = ``(chunk_id, doc_id, text, lang)``, each document's rows together.

    ``text`` is what BM25 indexes (the context line, a line break, the chunk
    text); it is tokenized by :func:`core.textproc.tokenize` in the row's language.
    """
    n = len(rows)
    dl = np.empty(n, dtype=np.int32)
    index: dict[str, int] = {}
    # each row's tokens become term numbers at once: 4 bytes a token held, not a str object
    # (50,000 rows of token lists held 300 MB, issue #15)
    inverse_parts: list[np.ndarray] = []
    for i, (_, _, text, lang) in enumerate(rows):
        toks = tokenize(text, lang) or [EMPTY_TOKEN]
        dl[i] = len(toks)
        inverse_parts.append(np.fromiter((index.setdefault(t, len(index)) for t in toks), dtype=np.int32,
                                         count=len(toks)))
    inverse = np.concatenate(inverse_parts) if inverse_parts else np.empty(0, np.int32)
    hashes = term_hashes(list(index))[inverse]
    row_of = np.repeat(np.arange(n, dtype=np.int32), dl)
    order = np.lexsort((row_of, hashes))
    h, r = hashes[order], row_of[order]
    if len(h):
        new_pair = np.ones(len(h), dtype=bool)
        new_pair[1:] = (h[1:] != h[:-1]) | (r[1:] != r[:-1])
        starts = np.flatnonzero(new_pair)
        tf = np.diff(np.append(starts, len(h))).clip(max=65535).astype(np.uint16)
        ph, pr = h[starts], r[starts]
        new_term = np.ones(len(ph), dtype=bool)
        new_term[1:] = ph[1:] != ph[:-1]
        tstarts = np.flatnonzero(new_term)
        terms = ph[tstarts]
        indptr = np.append(tstarts, len(ph)).astype(np.int64)
    else:
        terms, indptr = np.empty(0, np.uint64), np.zeros(1, np.int64)
        pr, tf = np.empty(0, np.int32), np.empty(0, np.uint16)
    docs: list[str] = []
    doc_rows: list[int] = []
    for i, (_, doc_id, _, _) in enumerate(rows):
        if not docs or docs[-1] != doc_id:
            docs.append(doc_id)
            doc_rows.append(i)
    doc_rows.append(n)
    return SegmentArrays(terms, indptr, pr.astype(np.int32), tf, dl, [r[0] for r in rows], docs,
                         np.array(doc_rows, dtype=np.int64))


class Segment:
    """A segment on disk, memory-mapped. Immutable; shared by every reader of the process.

    Attributes:
        n: rows (chunks) in the segment, live or deleted.
        doc_range: document id → ``(first row, end row)``.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = folder.name
        arr = {k: np.load(folder / f"{k}.npy", mmap_mode="r") for k in _FILES}
        self.terms, self.indptr, self.rows, self.tf, self.dl = (arr[k] for k in ("terms", "indptr", "rows", "tf", "dl"))
        self.ids_blob, self.ids_off = arr["ids"], arr["ids_off"]
        self.n = len(self.dl)
        docs, docs_off, doc_rows = bytes(arr["docs"]), np.asarray(arr["docs_off"]), np.asarray(arr["doc_rows"])
        self.doc_range = {
            docs[docs_off[i]:docs_off[i + 1]].decode("utf-8"): (int(doc_rows[i]), int(doc_rows[i + 1]))
            for i in range(len(docs_off) - 1)
        }
        self.dl_sum = int(np.asarray(self.dl, dtype=np.int64).sum())

    def chunk_id(self, row: int) -> str:
        """The chunk id of ``row``."""
        return bytes(self.ids_blob[self.ids_off[row]:self.ids_off[row + 1]]).decode("utf-8")

    def chunk_ids(self, rows: Iterable[int] | None = None) -> list[str]:
        """Chunk ids of ``rows`` (all rows when ``None``)."""
        if rows is None:
            blob = bytes(self.ids_blob)
            off = self.ids_off
            return [blob[off[i]:off[i + 1]].decode("utf-8") for i in range(self.n)]
        return [self.chunk_id(int(r)) for r in rows]

    def postings(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, tf)`` of ``term`` (a hash), rows ascending; empty arrays when absent."""
        i = int(np.searchsorted(self.terms, np.uint64(term)))
        if i < len(self.terms) and int(self.terms[i]) == term:
            a, b = int(self.indptr[i]), int(self.indptr[i + 1])
            return self.rows[a:b], self.tf[a:b]
        return _EMPTY_ROWS, _EMPTY_TF


_EMPTY_ROWS = np.empty(0, dtype=np.int32)
_EMPTY_TF = np.empty(0, dtype=np.uint16)

_cache: OrderedDict[str, Segment] = OrderedDict()
_cache_lock = threading.Lock()


def open_segment(folder: Path) -> Segment:
    """The segment in ``folder``, from a per-process cache (segments never change on disk).

    Raises:
        FileNotFoundError: the segment was deleted (a newer state was recorded).
    """
    key = str(folder)
    with _cache_lock:
        seg = _cache.get(key)
        if seg is not None:
            _cache.move_to_end(key)
            return seg
    seg = Segment(folder)
    with _cache_lock:
        _cache[key] = seg
        while len(_cache) > 256:
            _cache.popitem(last=False)
    return seg


def forget_segments(root: Path, keep: Iterable[str]) -> None:
    """Drop cached segments under ``root`` other than ``keep`` (their files are about to be deleted).

    On Windows a memory-mapped file cannot be deleted; elsewhere this only frees
    the maps sooner. A reader still holding one keeps it until it lets go.
    """
    keep = set(keep)
    with _cache_lock:
        for key in [k for k in _cache if Path(k).parent == root and Path(k).name not in keep]:
            del _cache[key]


def load_deleted(path: Path | None) -> np.ndarray:
    """Deleted rows from a tombstone file (sorted int32); none when ``path`` is ``None``."""
    return np.load(path) if path is not None else _EMPTY_ROWS


def _read(arr: np.ndarray, a: int, b: int) -> np.ndarray:
    """``arr[a:b]`` of a memory-mapped ``.npy`` array, read from its file (``np.memmap.filename``
    and ``.offset``) rather than through the map: pages read through a map stay in the process's
    resident memory until it is unmapped (1 GB at the end of a 1M-chunk index, issue #15)."""
    if isinstance(arr, np.memmap) and arr.filename and b > a:
        return np.fromfile(arr.filename, dtype=arr.dtype, count=b - a, offset=arr.offset + a * arr.itemsize)
    return np.asarray(arr[a:b])


class _NpyWriter:
    """A 1-D ``.npy`` file of ``n`` items of ``dtype`` written by appending slices in order
    (its header first, ``numpy.lib.format``), so what is written never sits in this process's
    memory the way a writable memory map's pages do."""

    def __init__(self, path: Path, dtype, n: int) -> None:
        self.dtype, self.n, self.written = np.dtype(dtype), n, 0
        self.file = open(path, "wb")  # noqa: SIM115 - closed by close()
        np.lib.format.write_array_header_1_0(
            self.file, {"descr": np.lib.format.dtype_to_descr(self.dtype), "fortran_order": False, "shape": (n,)})

    def append(self, values: np.ndarray) -> None:
        np.ascontiguousarray(values, dtype=self.dtype).tofile(self.file)
        self.written += len(values)

    def close(self) -> None:
        self.file.close()
        if self.written != self.n:
            raise ValueError(f"{self.file.name}: {self.written} items written, {self.n} declared")


def merge_segments(parts: list[tuple[Segment, np.ndarray]], folder: Path) -> int:
    """Write one segment holding the live rows of ``parts`` = ``[(segment, deleted rows)]``, in order.

    Streams the postings by ranges of term hashes (:data:`MERGE_RANGE_ENTRIES`),
    so memory stays bounded whatever the sizes. Rows keep their order (segment
    by segment), so each document's rows stay contiguous. Returns the rows written.
    """
    tmp = folder.with_name(folder.name + ".tmp")
    tmp.mkdir(parents=True)
    lives, remaps, offsets = [], [], []
    total_rows = 0
    for seg, deleted in parts:
        live = np.ones(seg.n, dtype=bool)
        live[deleted] = False
        remap = np.cumsum(live, dtype=np.int64) - 1 + total_rows
        lives.append(live)
        remaps.append(remap.astype(np.int32))
        offsets.append(total_rows)
        total_rows += int(live.sum())
    # per-row arrays and documents
    np.save(tmp / "dl.npy", np.concatenate([np.asarray(seg.dl)[live] for (seg, _), live in zip(parts, lives)])
            if parts else np.empty(0, np.int32))
    id_parts, off_parts, docs, doc_rows = [], [np.zeros(1, np.int64)], [], []
    base = 0
    for (seg, _), live, remap in zip(parts, lives, remaps):
        for doc, (a, b) in sorted(seg.doc_range.items(), key=lambda kv: kv[1]):
            if b <= a or not live[a]:
                continue  # a document's rows are deleted together
            docs.append(doc)
            doc_rows.append(int(remap[a]))
            lo, hi = int(seg.ids_off[a]), int(seg.ids_off[b])
            id_parts.append(np.asarray(seg.ids_blob[lo:hi]))
            off_parts.append(np.asarray(seg.ids_off[a + 1:b + 1]) - lo + base)
            base += hi - lo
    doc_rows.append(total_rows)
    np.save(tmp / "ids.npy", np.concatenate(id_parts) if id_parts else np.empty(0, np.uint8))
    np.save(tmp / "ids_off.npy", np.concatenate(off_parts))
    blob, off_arr = _pack_strings(docs)
    np.save(tmp / "docs.npy", blob)
    np.save(tmp / "docs_off.npy", off_arr)
    np.save(tmp / "doc_rows.npy", np.array(doc_rows, dtype=np.int64))
    # postings, streamed by hash range
    total_entries = sum(len(seg.rows) for seg, _ in parts)
    n_ranges = max(1, -(-total_entries // MERGE_RANGE_ENTRIES))
    bounds = [(2**64 * i) // n_ranges for i in range(n_ranges + 1)]
    live_entries = 0
    for (seg, _), live in zip(parts, lives):
        for a in range(0, len(seg.rows), MERGE_RANGE_ENTRIES):
            live_entries += int(np.count_nonzero(live[_read(seg.rows, a, min(a + MERGE_RANGE_ENTRIES, len(seg.rows)))]))
    out_rows = _NpyWriter(tmp / "rows.npy", np.int32, live_entries)
    out_tf = _NpyWriter(tmp / "tf.npy", np.uint16, live_entries)
    all_terms: list[np.ndarray] = []
    all_counts: list[np.ndarray] = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        hs, rs, ts = [], [], []
        for (seg, _), live, remap in zip(parts, lives, remaps):
            a = int(np.searchsorted(seg.terms, np.uint64(lo)))
            b = len(seg.terms) if hi >= 2**64 else int(np.searchsorted(seg.terms, np.uint64(hi)))
            if a >= b:
                continue
            ea, eb = int(seg.indptr[a]), int(seg.indptr[b])
            rows = _read(seg.rows, ea, eb)
            keep = live[rows]
            counts = np.diff(np.asarray(seg.indptr[a:b + 1]))
            hs.append(np.repeat(np.asarray(seg.terms[a:b]), counts)[keep])
            rs.append(remap[rows[keep]])
            ts.append(_read(seg.tf, ea, eb)[keep])
        if not hs:
            continue
        h = np.concatenate(hs)
        order = np.argsort(h, kind="stable")  # segment order, then posting order, within a term
        h = h[order]
        m = len(h)
        out_rows.append(np.concatenate(rs)[order])
        out_tf.append(np.concatenate(ts)[order])
        if m:
            new_term = np.ones(m, dtype=bool)
            new_term[1:] = h[1:] != h[:-1]
            starts = np.flatnonzero(new_term)
            all_terms.append(h[starts])
            all_counts.append(np.diff(np.append(starts, m)))
    out_rows.close()
    out_tf.close()
    terms = np.concatenate(all_terms) if all_terms else np.empty(0, np.uint64)
    indptr = np.zeros(len(terms) + 1, dtype=np.int64)
    if all_counts:
        np.cumsum(np.concatenate(all_counts), out=indptr[1:])
    np.save(tmp / "terms.npy", terms)
    np.save(tmp / "indptr.npy", indptr)
    os.replace(tmp, folder)
    return total_rows


def new_segment_name() -> str:
    """A fresh segment folder name."""
    return f"s{uuid.uuid4().hex[:12]}"


def remove_tree(path: Path) -> None:
    """Delete a file or folder; what cannot be deleted now (gone, or mapped by a reader on
    Windows) is left for the next sweep."""
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass
