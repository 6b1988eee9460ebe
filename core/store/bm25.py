"""A workspace's BM25 keyword index: segments updated in proportion to each change.

**Scores.** Okapi BM25, Lucene variant, with bm25s' defaults (k1 = 1.5,
b = 0.75): ``idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))``, ``score(t, d) =
idf(t) · tf / (tf + k1 · (1 − b + b · |d| / avgdl))`` summed over the query's
distinct tokens (Kamphuis et al., "Which BM25 do you mean?", ECIR 2020). ``N``,
``df`` and ``avgdl`` are computed at query time over the *live* rows of every
segment (of the scope's documents only, when a question is scoped to some),
so the ranking of an index updated commit by commit equals a full rebuild's
(ties broken by chunk id).

**Updates.** Each commit lists the documents it wrote, moved or removed in the
manifest's ``doc_changes`` table; :meth:`Bm25Index.update` marks their old rows
deleted (tombstones) and adds one new segment with their current chunks, so a
small change costs in proportion to itself. Segments merge like a binary
counter (the tail merges once it is as large as the segment before it), so each
row is rewritten O(log n) times and a workspace holds O(log n) segments.

**State.** ``meta.bm25_state`` (JSON) names the segments, each with its
tombstone file, and the manifest generation they reflect (also in
``bm25_generation``). New files are written first, then the state is recorded,
then unreferenced files are deleted (:meth:`Bm25Index.sweep`), so a reader
always finds the recorded state complete.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.errors import DamagedIndexError
from core.store.bm25_segment import (
    Segment,
    forget_segments,
    build_segment,
    load_deleted,
    merge_segments,
    new_segment_name,
    open_segment,
    remove_tree,
    term_hashes,
)
from core.store.crash import crash_point
from core.store.manifest import Manifest, get_meta, set_meta
from core.textproc import tokenize_query

log = logging.getLogger(__name__)

K1 = 1.5
B = 0.75
FOLDER = "bm25"
STATE_KEY = "bm25_state"
#: Rows per segment when an index is built from scratch (bounds the build's memory).
BUILD_ROWS = 50_000
#: More segments than this are merged whatever their sizes.
MAX_SEGMENTS = 24

_BM25_TEXT = "COALESCE(m.context || char(10), '') || c.text"


#: Opened states shared by every Workspace of the process (the engine opens one per question):
#: (segments folder, recorded state) → view, its statistics and masks computed once.
_views: OrderedDict[tuple[str, str], "_View"] = OrderedDict()
_views_lock = threading.Lock()


def is_bm25_folder(name: str) -> bool:
    """Whether a workspace entry belongs to a BM25 index (current, old-format or temporary)."""
    return name == FOLDER or name.startswith(("bm25-", "bm25."))


@dataclass
class _Part:
    """One segment of a state, with its deleted rows."""

    seg: Segment
    deleted: np.ndarray  # sorted rows
    deleted_file: str

    def __post_init__(self) -> None:
        self.n_live = self.seg.n - len(self.deleted)
        self.live = None
        if len(self.deleted):
            self.live = np.ones(self.seg.n, dtype=bool)
            self.live[self.deleted] = False
        dl = np.asarray(self.seg.dl, dtype=np.int64)
        self.dl_live = int(dl.sum()) - int(dl[self.deleted].sum()) if len(self.deleted) else self.seg.dl_sum

    def live_count(self, rows: np.ndarray) -> int:
        """How many of ``rows`` (a posting, ascending) are live."""
        if self.live is None:
            return len(rows)
        if len(self.deleted) * 16 < len(rows):
            idx = np.searchsorted(rows, self.deleted)
            ok = idx < len(rows)
            return len(rows) - int(np.count_nonzero(np.asarray(rows)[idx[ok]] == self.deleted[ok]))
        return int(np.count_nonzero(self.live[rows]))

    def is_live(self, row: int) -> bool:
        return self.live is None or bool(self.live[row])


class _View:
    """A recorded state opened for search: global statistics, documents, cached masks."""

    def __init__(self, parts: list[_Part], generation: int) -> None:
        self.parts = parts
        self.generation = generation
        self.n = sum(p.n_live for p in parts)
        self.avgdl = sum(p.dl_live for p in parts) / self.n if self.n else 0.0
        self.docs: dict[str, tuple[int, int, int]] = {}
        for pi, part in enumerate(parts):
            for doc, (a, b) in part.seg.doc_range.items():
                if b > a and part.is_live(a):
                    self.docs[doc] = (pi, a, b)
        self._norm: list[np.ndarray | None] = [None] * len(parts)
        self._masks: dict[frozenset[str], list[np.ndarray | None]] = {}
        self._lock = threading.Lock()

    def norm(self, pi: int) -> np.ndarray:
        """``k1 · (1 − b + b · |d| / avgdl)`` per row of part ``pi`` (computed once per state)."""
        norm = self._norm[pi]
        if norm is None:
            dl = np.asarray(self.parts[pi].seg.dl, dtype=np.float64)
            norm = K1 * (1.0 - B + B * dl / self.avgdl)
            self._norm[pi] = norm
        return norm

    def weights(self, exclude: frozenset[str]) -> list[np.ndarray | None]:
        """Per part: 1.0 for live rows outside ``exclude``, 0.0 else (``None``: all 1.0). Cached per set."""
        with self._lock:
            masks = self._masks.get(exclude)
        if masks is not None:
            return masks
        masks = []
        for pi, part in enumerate(self.parts):
            ranges = [(a, b) for d in exclude if (loc := self.docs.get(d)) and loc[0] == pi for _, a, b in [loc]]
            if part.live is None and not ranges:
                masks.append(None)
                continue
            w = part.live.astype(np.float64) if part.live is not None else np.ones(part.seg.n)
            for a, b in ranges:
                w[a:b] = 0.0
            masks.append(w)
        with self._lock:
            if len(self._masks) > 8:
                self._masks.clear()
            self._masks[exclude] = masks
        return masks

    def search(self, query: str, k: int, exclude: set[str], only: set[str] | None) -> list[tuple[str, float]]:
        if self.n == 0 or k <= 0:
            return []
        tokens = tokenize_query(query)
        if not tokens:
            return []
        postings: list[tuple[float, list[tuple[int, np.ndarray, np.ndarray]]]] = []
        for h in term_hashes(tokens).tolist():
            found, df = [], 0
            for pi, part in enumerate(self.parts):
                rows, tf = part.seg.postings(h)
                if len(rows):
                    found.append((pi, rows, tf))
                    df += part.live_count(rows)
            if df:
                postings.append((math.log(1.0 + (self.n - df + 0.5) / (df + 0.5)), found))
        if not postings:
            return []
        if only is not None:
            ranges = [loc for d in only if d not in exclude and (loc := self.docs.get(d))]
            return self._top(self._score_ranges(postings, ranges), k)
        weights = self.weights(frozenset(exclude))
        found_scores = []
        for pi, part in enumerate(self.parts):
            rows = [r for _, plist in postings for p, r, _ in plist if p == pi]
            if not rows:
                continue
            contrib = [idf * self._tfc(pi, r, tf) for idf, plist in postings for p, r, tf in plist if p == pi]
            scores = np.bincount(np.concatenate(rows), weights=np.concatenate(contrib), minlength=part.seg.n)
            if weights[pi] is not None:
                scores *= weights[pi]
            hit = np.flatnonzero(scores > 0)
            found_scores.append((pi, hit, scores[hit]))
        return self._top(found_scores, k)

    def _tfc(self, pi: int, rows: np.ndarray, tf: np.ndarray) -> np.ndarray:
        tf = np.asarray(tf, dtype=np.float64)
        return tf / (tf + self.norm(pi)[rows])

    def _score_ranges(self, postings, ranges: list[tuple[int, int, int]]):
        """Scores of the rows in ``ranges`` only (a question's document scope), the scope searched as
        a collection of its own: ``N``, ``df`` and ``avgdl`` are the scope's.

        Why not the workspace's statistics: inside one contract, the words every clause repeats
        (the parties' names, "Agreement", its defined terms) are rare in the workspace, so global
        IDF ranks the chunks that repeat them — cover page, signature and notice blocks — above
        the clause asked about. Estimating IDF from the collection actually searched is BM25's
        own definition (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and
        Beyond", FnTIR 2009, §3.2). Measured on CUAD (``bench/retrieval_real.py``, bench/README.md).
        Rows of a document are all live or all deleted, so a range's rows are its live rows.
        """
        n = sum(b - a for _, a, b in ranges)
        if not n:
            return []
        dl_sum = sum(float(np.sum(np.asarray(self.parts[pi].seg.dl[a:b], dtype=np.float64))) for pi, a, b in ranges)
        norm_scale = K1 * B * n / dl_sum if dl_sum else 0.0
        local = []
        for _, plist in postings:
            cut, df = [], 0
            for p, rows, tf in plist:
                for pi, a, b in ranges:
                    if p == pi:
                        lo, hi = np.searchsorted(rows, [a, b])
                        if hi > lo:
                            cut.append((pi, a, np.asarray(rows[lo:hi]), tf[lo:hi]))
                            df += int(hi - lo)
            if df:
                local.append((math.log(1.0 + (n - df + 0.5) / (df + 0.5)), cut))
        out = []
        for pi, a, b in ranges:
            rows_l, contrib_l = [], []
            dl = np.asarray(self.parts[pi].seg.dl[a:b], dtype=np.float64)
            norm = K1 * (1.0 - B) + norm_scale * dl
            for idf, cut in local:
                for p, a2, r, tf in cut:
                    if p == pi and a2 == a:
                        tf = np.asarray(tf, dtype=np.float64)
                        rows_l.append(r - a)
                        contrib_l.append(idf * tf / (tf + norm[r - a]))
            if rows_l:
                scores = np.bincount(np.concatenate(rows_l), weights=np.concatenate(contrib_l), minlength=b - a)
                hit = np.flatnonzero(scores > 0)
                out.append((pi, hit + a, scores[hit]))
        return out

    def _top(self, found, k: int) -> list[tuple[str, float]]:
        """The ``k`` best ``(part, rows, scores)`` hits, by score then chunk id."""
        if not found:
            return []
        scores = np.concatenate([s for _, _, s in found])
        if not len(scores):
            return []
        cut = np.partition(scores, len(scores) - k)[len(scores) - k] if len(scores) > k else 0.0
        hits = []
        for pi, rows, s in found:
            keep = s >= cut
            seg = self.parts[pi].seg
            hits += [(-float(sc), seg.chunk_id(int(r))) for r, sc in zip(rows[keep], s[keep])]
        hits.sort()
        return [(cid, -neg) for neg, cid in hits[:k]]

    def ids(self) -> list[str]:
        out: list[str] = []
        for part in self.parts:
            ids = part.seg.chunk_ids()
            out += ids if part.live is None else [c for c, ok in zip(ids, part.live) if ok]
        return out


class Bm25Index:
    """The BM25 index of one workspace; safe for many reader threads and one writer.

    Args:
        folder: the workspace folder (segments live in ``folder/bm25``).
        manifest: the workspace's manifest (chunks, ``doc_changes``, the recorded state).
    """

    def __init__(self, folder: Path, manifest: Manifest) -> None:
        self.folder = folder
        self.root = folder / FOLDER
        self.manifest = manifest
        self._view: _View | None = None
        self._view_key = ""
        self._lock = threading.Lock()

    # --- reading ----------------------------------------------------------------

    @staticmethod
    def _state(meta: dict[str, str]) -> dict | None:
        raw = meta.get(STATE_KEY)
        return json.loads(raw) if raw else None

    def _open(self, state: dict) -> _View:
        """The recorded ``state`` opened.

        Raises:
            FileNotFoundError: a segment was deleted (a newer state was recorded meanwhile).
            DamagedIndexError: a segment file is truncated or not what it should be (names it).
        """
        parts = []
        for s in state["segments"]:
            folder = self.root / s["name"]
            try:
                seg = open_segment(folder)
                deleted = load_deleted(folder / s["deleted"] if s["deleted"] else None)
                parts.append(_Part(seg, deleted, s["deleted"]))
            except FileNotFoundError:
                raise
            except (ValueError, OSError, EOFError, IndexError, KeyError) as exc:
                # np.load of a truncated or overwritten .npy: "mmap length is greater than file size", ...
                raise DamagedIndexError(self.manifest.name, "bm25", str(folder), f"{type(exc).__name__}: {exc}") from exc
        try:
            return _View(parts, int(state["generation"]))
        except (ValueError, IndexError, UnicodeDecodeError) as exc:
            raise DamagedIndexError(self.manifest.name, "bm25", str(self.root), f"{type(exc).__name__}: {exc}") from exc

    def check(self) -> bool:
        """Open the recorded state; on damage, rebuild it from the manifest (the caller holds the writer
        lock). The BM25 index is derived data: rebuilding it loses nothing and embeds nothing.

        Returns:
            True when it was damaged and has been rebuilt.
        """
        try:
            self.view()  # opened once per process and state (cached), so a run start costs nothing more
            return False
        except DamagedIndexError as exc:
            log.warning("%s: rebuilding it from the manifest", exc)
        self.rebuild()
        return True

    def view(self) -> _View | None:
        """The recorded state, opened (re-opened only when the recorded state changed)."""
        for _attempt in range(3):  # the writer may sweep files between the read and the open
            raw = self.manifest.meta().get(STATE_KEY, "")
            with self._lock:
                if raw == self._view_key and (self._view is not None or not raw):
                    return self._view
            if not raw:
                return None
            key = (str(self.root), raw)
            with _views_lock:
                view = _views.get(key)
            if view is None:
                try:
                    view = self._open(json.loads(raw))
                except FileNotFoundError:
                    continue
                with _views_lock:
                    _views[key] = view
                    while len(_views) > 8:
                        _views.popitem(last=False)
            with self._lock:
                self._view, self._view_key = view, raw
            return view
        return None

    def document_frequencies(self, tokens: list[str]) -> tuple[dict[str, int], int]:
        """How many indexed chunks contain each of ``tokens``, and how many chunks are indexed.

        Live rows of every segment (the statistics BM25 scores with). Tokens no
        chunk contains count 0. ``({}, 0)`` for an empty index.
        """
        view = self.view()
        if view is None or not view.n:
            return {}, 0
        out = {}
        for tok, h in zip(tokens, term_hashes(tokens).tolist()):
            out[tok] = sum(part.live_count(part.seg.postings(h)[0]) for part in view.parts)
        return out, view.n

    def search(self, query: str, k: int, exclude_docs: set[str], only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids ranked by BM25 for ``query``, best first, score ties by chunk id; zero scores dropped.

        ``exclude_docs`` — and, when ``only_docs`` is given (the question's
        document scope), every document outside it — are removed before ranking
        (pre-filter). Without a scope, the statistics (N, df, avgdl) are the
        workspace's live rows minus nothing (exclusion only zeroes scores); with
        one, the scope is searched as a collection of its own: N, df and avgdl
        are the scope's (:meth:`_View._score_ranges` says why).
        """
        if only_docs is not None and not only_docs:
            return []
        view = self.view()
        if view is None:
            return self._legacy_search(query, k, exclude_docs, only_docs)
        return [cid for cid, _ in view.search(query, k, exclude_docs, only_docs)]

    def search_scored(self, query: str, k: int, exclude_docs: set[str] = frozenset(),
                      only_docs: set[str] | None = None) -> list[tuple[str, float]]:
        """:meth:`search` with each chunk's BM25 score: ``[(chunk_id, score)]``, best first."""
        if only_docs is not None and not only_docs:
            return []
        view = self.view()
        return view.search(query, k, set(exclude_docs), only_docs) if view is not None else []

    def ids(self) -> list[str]:
        """Chunk ids of the live rows of the recorded state (duplicates kept)."""
        view = self.view()
        return view.ids() if view is not None else []

    def _legacy_search(self, query: str, k: int, exclude: set[str], only: set[str] | None) -> list[str]:
        """Search an index of the format before segments (a bm25s folder), until a writer converts it.

        Readers never convert (that is recovery, under the writer lock); this
        keeps ``ask`` answering from a workspace indexed by an older version.
        """
        import bm25s

        name = self.manifest.meta().get("bm25_dir", "")
        path = self.folder / name
        if not name or not (path / "ids.json").exists():
            return []
        try:
            ids = json.loads((path / "ids.json").read_text(encoding="utf-8"))
            retriever = bm25s.BM25.load(str(path)) if ids else None
        except FileNotFoundError:
            return []
        tokens = [t for t in tokenize_query(query) if retriever is not None and t in retriever.vocab_dict]
        if not tokens:
            return []
        mask = np.array([0.0 if (d := c.split("#", 1)[0]) in exclude or (only is not None and d not in only) else 1.0
                         for c in ids])
        docs, scores = retriever.retrieve([tokens], k=min(k, len(ids)), show_progress=False, weight_mask=mask,
                                          n_threads=1)
        return [ids[int(d)] for d, s in zip(docs[0], scores[0]) if s > 0]

    def is_current(self, meta: dict[str, str]) -> bool:
        """Whether the recorded state reflects the manifest's generation (O(1): no file is read)."""
        state = self._state(meta)
        return state is not None and str(state.get("generation")) == meta.get("generation", "0")

    # --- writing (the caller holds the workspace's writer lock) ---------------------

    def update(self) -> None:
        """Bring the index to the manifest's generation, in proportion to what changed since the recorded one.

        Falls back to :meth:`rebuild` when there is no usable recorded state
        (new workspace, old format, files missing).
        """
        with self.manifest.connect() as db:
            meta = get_meta(db)
            state = self._state(meta)
            generation = int(meta.get("generation", "0"))
            if state is None:
                changed = None
            else:
                changed = [r[0] for r in db.execute(
                    "SELECT DISTINCT doc_id FROM doc_changes WHERE generation > ?", (int(state["generation"]),))]
        if state is None:
            self.rebuild()
            return
        if int(state["generation"]) == generation and not changed:
            return
        try:
            view = self._open(state)
        except (FileNotFoundError, DamagedIndexError):
            log.warning("BM25 index of %s incomplete or damaged: rebuilding", self.folder.name)
            self.rebuild()
            return
        deleted: dict[int, list[np.ndarray]] = {}
        for doc in changed:
            loc = view.docs.get(doc)
            if loc is not None:
                deleted.setdefault(loc[0], []).append(np.arange(loc[1], loc[2], dtype=np.int32))
        parts = []
        for pi, part in enumerate(view.parts):
            if pi in deleted:
                rows = np.unique(np.concatenate([part.deleted, *deleted[pi]])).astype(np.int32)
                name = f"deleted-{uuid.uuid4().hex[:8]}.npy"
                np.save(self.root / part.seg.name / name, rows)
                parts.append(_Part(part.seg, rows, name))
            else:
                parts.append(part)
        for seg_name in self._build_segments(changed):
            parts.append(_Part(open_segment(self.root / seg_name), np.empty(0, np.int32), ""))
        parts = self._merge_tail(parts)
        crash_point("bm25_written")
        self._record(parts, generation)

    def rebuild(self) -> None:
        """Build the index from every chunk of the manifest (streamed in segments of :data:`BUILD_ROWS`)."""
        with self.manifest.connect() as db:
            generation = int(get_meta(db).get("generation", "0"))
        parts = [_Part(open_segment(self.root / n), np.empty(0, np.int32), "") for n in self._build_segments(None)]
        if len(parts) > 1:
            parts = [self._merge(parts)]
        crash_point("bm25_written")
        self._record(parts, generation)

    def _build_segments(self, docs: list[str] | None) -> list[str]:
        """Segments of the manifest's current chunks of ``docs`` (all when ``None``); their names."""
        self.root.mkdir(exist_ok=True)
        names: list[str] = []
        batch: list[tuple[str, str, str, str]] = []

        def flush() -> None:
            if batch:
                name = new_segment_name()
                build_segment(batch).write(self.root / name)
                names.append(name)
                batch.clear()

        with self.manifest.connect() as db:
            if docs is None:
                queries = [(f"SELECT c.chunk_id, c.doc_id, {_BM25_TEXT}, c.lang FROM chunks c LEFT JOIN chunk_meta m "
                            "ON m.chunk_id = c.chunk_id ORDER BY c.doc_id, c.ord", [])]
            else:
                docs = sorted(docs)
                queries = [(f"SELECT c.chunk_id, c.doc_id, {_BM25_TEXT}, c.lang FROM chunks c LEFT JOIN chunk_meta m "
                            f"ON m.chunk_id = c.chunk_id WHERE c.doc_id IN ({','.join('?' * len(part))}) "
                            "ORDER BY c.doc_id, c.ord", part) for part in (docs[i:i + 500] for i in range(0, len(docs), 500))]
            for sql, args in queries:
                for row in db.execute(sql, args):
                    if len(batch) >= BUILD_ROWS and batch[-1][1] != row[1]:
                        flush()  # a document never spans two segments
                    batch.append(row)
        flush()
        return names

    def _merge(self, parts: list[_Part]) -> _Part:
        name = new_segment_name()
        merge_segments([(p.seg, p.deleted) for p in parts], self.root / name)
        return _Part(open_segment(self.root / name), np.empty(0, np.int32), "")

    def _merge_tail(self, parts: list[_Part]) -> list[_Part]:
        """Binary-counter merge: the tail merges while the segment before it is no larger (or mostly deleted)."""
        parts = [p for p in parts if p.n_live > 0 or len(parts) == 1]
        if len(parts) < 2:
            return parts
        j, tail = len(parts) - 1, parts[-1].n_live
        while j > 0 and (parts[j - 1].n_live <= tail or parts[j - 1].n_live < parts[j - 1].seg.n // 2
                         or j >= MAX_SEGMENTS):
            j -= 1
            tail += parts[j].n_live
        if j == len(parts) - 1:
            return parts
        return parts[:j] + [self._merge(parts[j:])]

    def _record(self, parts: list[_Part], generation: int) -> None:
        state = {"format": 1, "generation": generation,
                 "segments": [{"name": p.seg.name, "rows": p.seg.n, "deleted": p.deleted_file} for p in parts]}
        with self.manifest.connect() as db:
            set_meta(db, **{STATE_KEY: json.dumps(state), "bm25_generation": generation})
            db.execute("DELETE FROM doc_changes WHERE generation <= ?", (generation,))
        crash_point("bm25_recorded")
        self.sweep()

    def sweep(self) -> None:
        """Delete BM25 files the recorded state does not name (old segments, tombstones, old formats)."""
        state = self._state(self.manifest.meta())
        keep = {s["name"]: s["deleted"] for s in state["segments"]} if state else {}
        forget_segments(self.root, keep)  # close this process's maps of what is deleted next
        for path in self.folder.iterdir():
            if is_bm25_folder(path.name) and path.name != FOLDER:
                remove_tree(path)  # bm25s folders of the format before segments
        if not self.root.is_dir():
            return
        for path in self.root.iterdir():
            if path.name not in keep:
                remove_tree(path)
                continue
            for f in path.iterdir():
                if f.name.startswith("deleted-") and f.name != keep[path.name]:
                    remove_tree(f)
