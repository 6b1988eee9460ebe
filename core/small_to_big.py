"""Small-to-big delivery: a delivered chunk carries the rest of a sentence cut at its boundary.

Retrieval scores chunks; a clause the question asks about can start in one chunk and end in the next
(issue #20 item 2). Each delivered chunk whose last sentence runs on into the next chunk of the same
document (store order ``ord``) gets that sentence's rest appended, and one whose start is inside a
sentence gets that sentence's beginning from the previous chunk prepended — each side at most
:data:`CONTINUATION_CHARS` characters. The extended chunk keeps its id and stays a true piece of the
document: its ``segments`` are page-text spans (merged with the chunk's own span where contiguous, a new
segment across a page break), so a quote taken from the added text verifies against the source
(:func:`core.verify.verify_claims` matches ``chunk.text``) and maps back to pages for highlighting
(:meth:`core.types.Chunk.page_spans`).

Measured in ``bench/small_to_big.py`` (``bench/README.md``, 2026-12-02): bound chosen by 5-fold
cross-validation grouped by CUAD contract among 0/200/400/600/1000 characters.
"""
from __future__ import annotations

import os
import re
from typing import Callable

from core.prompts import render_chunk
from core.store.manifest import Manifest
from core.types import SEGMENT_SEP, Chunk, Segment

CONTINUATION_CHARS = int(os.environ.get("VERBATIM_CONTINUATION_CHARS", "600"))
"""Most characters added on each side of a delivered chunk (chosen by CV over contracts, see module doc);
``VERBATIM_CONTINUATION_CHARS=0`` turns small-to-big delivery off (benchmarks' "before")."""

_END = re.compile(r"[.!?][\"'”’)\]]?(?=\s+[\"“(A-ZÁÉÍÓÚÑ0-9]|\s*$)")
_ENDS = re.compile(r"[.!?][\"'”’)\]]?\s*$")
_STARTS = re.compile(r"[.!?][\"'”’)\]]?\s+")


def _overlap(a: str, b: str) -> int:
    """Length of the longest suffix of ``a`` that is a prefix of ``b`` (the chunker's overlap, characters)."""
    for k in range(min(len(a), len(b)), 0, -1):
        if a.endswith(b[:k]):
            return k
    return 0


def _pieces(chunk: Chunk, start: int, end: int) -> list[tuple[Segment, str]]:
    """``chunk.text[start:end]`` as (page-text span, its text) pairs, split at the chunk's segment breaks."""
    out, pos = [], 0
    for seg in chunk.spans():
        length = seg.end - seg.start
        a, b = max(start, pos), min(end, pos + length)
        if a < b:
            out.append((Segment(page=seg.page, start=seg.start + a - pos, end=seg.start + b - pos, label=seg.label),
                        chunk.text[a:b]))
        pos += length + len(SEGMENT_SEP)
    return out


def _join(parts: list[tuple[Segment, str]]) -> tuple[list[Segment], str]:
    """Contiguous spans of one page merged; others joined by :data:`SEGMENT_SEP` (the Chunk invariant)."""
    segs: list[Segment] = []
    texts: list[str] = []
    for seg, text in parts:
        if segs and segs[-1].page == seg.page and segs[-1].end == seg.start:
            segs[-1] = Segment(page=seg.page, start=segs[-1].start, end=seg.end, label=segs[-1].label)
            texts[-1] += text
        else:
            segs.append(seg)
            texts.append(text)
    return segs, SEGMENT_SEP.join(texts)


def extend_chunk(chunk: Chunk, prev: Chunk | None, nxt: Chunk | None, bound: int = CONTINUATION_CHARS) -> Chunk:
    """``chunk`` with the bounded rest of the sentences cut at its ends (see module doc).

    Args:
        chunk: a delivered chunk. prev / nxt: the chunks before / after it in the same document (store
            order), ``None`` at a document's ends. bound: most characters added on each side; 0 = none.
    Returns:
        the same chunk when nothing runs over; otherwise a copy with the same id whose ``text`` and
        ``segments`` (and first-segment ``page/start/end``) cover the added page text.
    """
    if bound <= 0:
        return chunk
    before: list[tuple[Segment, str]] = []
    after: list[tuple[Segment, str]] = []
    if nxt is not None and nxt.doc_id == chunk.doc_id and not _ENDS.search(chunk.text):
        o = _overlap(chunk.text, nxt.text)
        rest = nxt.text[o:]
        m = _END.search(rest)
        after = _pieces(nxt, o, o + min(m.end() if m else len(rest), bound))
    if prev is not None and prev.doc_id == chunk.doc_id:
        head_len = len(prev.text) - _overlap(prev.text, chunk.text)
        head = prev.text[:head_len]
        if head.strip() and not _ENDS.search(head):
            starts = [m.end() for m in _STARTS.finditer(head) if head_len - m.end() <= bound]
            cut = max(starts) if starts else head_len - bound
            before = _pieces(prev, max(cut, 0), head_len)
    if not before and not after:
        return chunk
    segs, text = _join(before + _pieces(chunk, 0, len(chunk.text)) + after)
    first = segs[0]
    return chunk.model_copy(update={
        "text": text, "page": first.page, "start": first.start, "end": first.end,
        "page_label": first.label or chunk.page_label, "segments": segs if len(segs) > 1 else [],
    })


def neighbours(manifest: Manifest, chunk_ids: list[str]) -> dict[str, tuple[Chunk | None, Chunk | None]]:
    """Chunk id → (previous, next) chunk of the same document in store order (``None`` at its ends)."""
    if not chunk_ids:
        return {}
    with manifest.connect() as db:
        marks = ",".join("?" * len(chunk_ids))
        rows = db.execute(f"SELECT chunk_id, doc_id, ord FROM chunks WHERE chunk_id IN ({marks})", chunk_ids).fetchall()
        wanted: dict[str, tuple[str | None, str | None]] = {}
        for cid, doc, o in rows:
            near = dict(db.execute("SELECT ord, chunk_id FROM chunks WHERE doc_id = ? AND ord IN (?, ?)",
                                   (doc, o - 1, o + 1)).fetchall())
            wanted[cid] = (near.get(o - 1), near.get(o + 1))
    found = manifest.get_chunks([x for pair in wanted.values() for x in pair if x])
    return {cid: (found.get(p) if p else None, found.get(n) if n else None) for cid, (p, n) in wanted.items()}


def deliver(manifest: Manifest, chunks: list[Chunk], bound: int = CONTINUATION_CHARS,
            fits: Callable[[Chunk, Chunk], bool] | None = None) -> list[Chunk]:
    """``chunks`` in the same order, each extended by :func:`extend_chunk`.

    ``fits(old, new)``: called in rank order; a chunk whose extension it refuses stays as it was (the
    caller's token budget: an extension never pushes another chunk out). Raises what the manifest
    raises (:class:`core.errors.IndexError_` when the file cannot be opened)."""
    if bound <= 0 or not chunks:
        return list(chunks)
    near = neighbours(manifest, [c.chunk_id for c in chunks])
    out = []
    for c in chunks:
        prev, nxt = near.get(c.chunk_id, (None, None))
        new = extend_chunk(c, prev, nxt, bound)
        out.append(new if new is c or fits is None or fits(c, new) else c)
    return out


def deliver_in_budget(
    manifest: Manifest, chunks: list[Chunk], count_tokens: Callable[[str], int], prompt_tokens: int,
    budget_tokens: int, bound: int = CONTINUATION_CHARS,
) -> tuple[list[Chunk], int]:
    """:func:`deliver` inside a prompt's token budget: ``chunks`` already fit in ``prompt_tokens`` (tokens, as
    counted by ``count_tokens`` over :func:`core.prompts.render_chunk`); each extension is kept, in rank
    order, only while the prompt stays within ``budget_tokens``. Returns (chunks, prompt tokens)."""
    used = [prompt_tokens]

    def fits(old: Chunk, new: Chunk) -> bool:
        extra = count_tokens(render_chunk(new)) - count_tokens(render_chunk(old))
        if used[0] + extra > budget_tokens:
            return False
        used[0] += extra
        return True

    return deliver(manifest, chunks, bound, fits), used[0]
