"""Small-to-big for the passages answer: sentences are scored, the clause they sit in is shown.

A passage scored alone is often the sentence before the one that decides ("… SHALL NOT BE
LIABLE FOR CONSEQUENTIAL DAMAGES." shown, "IN NO EVENT SHALL … TOTAL LIABILITY EXCEED …" the
next sentence, issue #20). The passages answer therefore delivers, with each scored span, the
clause around it (:func:`clause_context`), its best sentences highlighted
(:class:`core.types.PassageContext`). The span stays the citation (what the page viewer
highlights and the verifier checks); the clause is what the answer view shows around it.

"Small-to-big" / parent-document retrieval is the field's name for scoring small units and
returning the larger one that holds them (e.g. LlamaIndex's ``SentenceWindowNodeParser`` and
auto-merging retriever); the clause boundaries here are ours: a paragraph (text between blank
lines) of the chunk, bounded to :data:`MAX_CONTEXT_CHARS` by whole sentences, and always the
sentence that follows the span when the chunk holds it.
"""

from __future__ import annotations

import re

from core.clause_heads import clause_starts
from core.sentences import sentence_spans
from core.types import Chunk, PassageContext, WeakPassage

MAX_CONTEXT_CHARS = 1200
"""Longest clause shown around a passage, characters (about a chunk's length, 256 word pieces,
so a clause is never longer than what retrieval delivered). Fixed a priori, not tuned."""

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\u00a0]*\n")


def _paragraph(text: str, start: int, end: int) -> tuple[int, int]:
    """``[p0, p1)``: the paragraph(s) of ``text`` holding ``text[start:end]`` (blank-line separated)."""
    p0 = 0
    for m in _PARAGRAPH_BREAK.finditer(text, 0, start):
        p0 = m.end()
    m = _PARAGRAPH_BREAK.search(text, end)
    p1 = m.start() if m else len(text)
    return p0, max(p1, end)


def _within_clause(sentences: list[tuple[int, int]], opens: list[bool], start: int, end: int, p0: int,
                   p1: int) -> tuple[int, int]:
    """``[p0, p1)`` narrowed to the clause of the span ``[start, end)``: from the last sentence at or before ``start``
    that opens a clause, up to the first one after ``end`` that does (``opens``: the sentences'
    :func:`core.clause_heads.clause_starts`)."""
    for (s, _), new in zip(sentences, opens):
        if new and p0 < s <= start:
            p0 = s
        elif new and s >= end:
            p1 = min(p1, s)
            break
    return p0, max(p1, end)


def clause_bounds(chunk: Chunk, start: int, end: int, sentences: list[tuple[int, int]] | None = None,
                  max_chars: int = MAX_CONTEXT_CHARS) -> tuple[int, int]:
    """The clause around ``chunk.text[start:end]``: ``(c0, c1)`` chunk offsets, characters.

    * the paragraph holding the span when it is at most ``max_chars`` long;
    * otherwise the span plus whole sentences of that paragraph around it, the next one first,
      then the previous one, alternately, while the clause stays within ``max_chars``;
    * then, if the clause ends where the span ends and the chunk goes on, the next sentence is
      added (it may be in the next paragraph: a cap after an exclusion) when the clause stays
      within ``max_chars``;
    * never across the start of another numbered or titled clause (:func:`core.clause_heads.clause_starts`):
      "10. Governing Law …" and "11. No Assignment …" in one paragraph are two clauses.

    Args:
        sentences: the chunk's sentences as ``(start, end)`` chunk offsets
            (:func:`core.passages.sentence_spans`); computed when ``None``.

    Returns:
        ``(c0, c1)`` with ``c0 <= start`` and ``c1 >= end``; the span itself when nothing fits.
    """
    text = chunk.text
    if sentences is None:
        sentences = sentence_spans(text, chunk.lang)
    opens = clause_starts(text, sentences)  # each flag reads only the sentences before it
    p0, p1 = _within_clause(sentences, opens, start, end, *_paragraph(text, start, end))
    c0, c1 = start, end
    if p1 - p0 <= max_chars:
        c0, c1 = min(p0, start), max(p1, end)
    else:
        after = [s for s in sentences if s[0] >= end and s[1] <= p1]
        before = [s for s in reversed(sentences) if s[1] <= start and s[0] >= p0]
        while after or before:
            grew = False
            if after and after[0][1] - c0 <= max_chars:
                c1 = after.pop(0)[1]
                grew = True
            else:
                after = []
            if before and c1 - before[0][0] <= max_chars:
                c0 = before.pop(0)[0]
                grew = True
            else:
                before = []
            if not grew:
                break
    if c1 == end:
        k = next((k for k, s in enumerate(sentences) if s[0] >= c1), None)
        nxt = sentences[k] if k is not None else None
        if nxt is not None and nxt[1] - c0 <= max_chars and not opens[k]:
            c1 = nxt[1]
    return c0, c1


def clause_context(chunk: Chunk, spans: list[tuple[int, int]], sentences: list[tuple[int, int]] | None = None,
                   max_chars: int = MAX_CONTEXT_CHARS) -> PassageContext:
    """The :class:`~core.types.PassageContext` of one or more spans of the same chunk (chunk offsets):
    the union of their clauses (:func:`clause_bounds`), the spans as its highlights."""
    bounds = [clause_bounds(chunk, s, e, sentences, max_chars) for s, e in spans]
    c0, c1 = min(b[0] for b in bounds), max(b[1] for b in bounds)
    first = chunk.page_spans(c0, c1)
    return PassageContext(
        chunk_id=chunk.chunk_id, text=chunk.text[c0:c1], start=c0, end=c1,
        page=first[0].page if first else chunk.page,
        highlights=sorted((s - c0, e - c0) for s, e in spans),
    )


def verify_source_spans(places: list[tuple[Chunk, int, int]], delivered: dict[str, Chunk], settings) -> tuple[list, list]:
    """Each ``chunk.text[start:end]`` of ``places`` as a passage claim quoting itself where it stands, checked by
    :func:`core.verify.verify_claims` against ``delivered`` (chunk id → chunk) with ``settings``' verifier options
    (as :func:`core.passages.passages_answer` and :func:`core.collection.collection_answer` show passages).

    Returns ``(claims, rejected)``: the claims (``places`` order) whose every citation matched exactly; one that
    matched only after normalization (cannot happen for source text) is never shown as exact: its claim is left
    out and the citation added to ``rejected``. ``model_construct``: a passage may be longer than a model's quote
    is allowed to be (300 characters)."""
    from core.ingest import span_rects_cached
    from core.types import MatchKind, ModelAnswer, ModelCitation, ModelClaim, Rejected, RejectReason
    from core.verify import verify_claims

    proposal = ModelAnswer.model_construct(
        answer_found=True, complete_answer=True, conflicting_evidence=False, missing="",
        claims=[ModelClaim.model_construct(text=chunk.text[s:e], citations=[
            ModelCitation.model_construct(chunk_id=chunk.chunk_id, quote=chunk.text[s:e])]) for chunk, s, e in places])
    claims, rejected = verify_claims(
        proposal, delivered, min_quote_chars=settings.min_quote_chars, fuzzy_threshold=settings.fuzzy_threshold,
        rects=span_rects_cached(), check_facts=settings.check_facts)
    for claim in claims:
        for cit in claim.citations:
            if cit.match != MatchKind.exact:
                rejected.append(Rejected(claim=claim.text, chunk_id=cit.chunk_id, reason=RejectReason.quote_not_found,
                                         detail="matched only after normalization"))
    return [c for c in claims if all(cit.match == MatchKind.exact for cit in c.citations)], rejected


HIGHLIGHT_MARKS = (("⟦", "⟧"), ("⟪", "⟫"), ("【", "】"), ("⦃", "⦄"), ("»", "«"))
"""Marker pairs the CLI may put around a clause's highlighted sentences, first preferred: brackets that contracts
do not use (OCR'd text holds « and », tryout 3: "1I629«7J"), so a marker is never read as document text."""


def highlight_marks(texts: list[str]) -> tuple[str, str]:
    """The first pair of :data:`HIGHLIGHT_MARKS` none of whose characters occurs in any of ``texts`` (the clauses
    one answer prints), so the marks are unambiguous; the first pair when every pair occurs somewhere."""
    for left, right in HIGHLIGHT_MARKS:
        if not any(left in t or right in t for t in texts):
            return left, right
    return HIGHLIGHT_MARKS[0]


def marked_text(context: PassageContext, left: str = "»", right: str = "«") -> str:
    """The clause with its highlighted sentences between ``left`` and ``right`` (CLI, Markdown),
    whitespace runs shown as one space."""
    out, pos = [], 0
    for s, e in context.highlights:
        s, e = max(s, pos), max(e, pos)
        out += [context.text[pos:s], left, context.text[s:e], right]
        pos = e
    out.append(context.text[pos:])
    return " ".join("".join(out).split())


def attach_contexts(claims: list, spans: dict[str, tuple[Chunk, int, int]]) -> None:
    """Give each passage claim (:class:`core.types.Claim`) its clause, in place.

    Args:
        claims: the verified passage claims (each claim's text is its span's text).
        spans: claim text → ``(chunk, start, end)``, the span in chunk offsets.

    Spans of one chunk whose clauses overlap share one context that highlights all of them (the
    answer view shows such a clause once, with each passage's chip).
    """
    groups: dict[str, list[tuple[Chunk, int, int, tuple[int, int], object]]] = {}
    sentences: dict[str, list[tuple[int, int]]] = {}
    for claim in claims:
        if claim.text not in spans:
            continue
        chunk, s, e = spans[claim.text]
        if chunk.chunk_id not in sentences:
            sentences[chunk.chunk_id] = sentence_spans(chunk.text, chunk.lang)
        bounds = clause_bounds(chunk, s, e, sentences[chunk.chunk_id])
        groups.setdefault(chunk.chunk_id, []).append((chunk, s, e, bounds, claim))
    for cid, items in groups.items():
        merged: list[list] = []  # [c1, chunk, [(s, e)], [claims]]
        for chunk, s, e, (c0, c1), claim in sorted(items, key=lambda it: it[3]):
            if merged and c0 < merged[-1][0]:
                merged[-1][0] = max(merged[-1][0], c1)
                merged[-1][2].append((s, e))
                merged[-1][3].append(claim)
            else:
                merged.append([c1, chunk, [(s, e)], [claim]])
        for _, chunk, where, owners in merged:
            context = clause_context(chunk, where, sentences[cid])
            for claim in owners:
                claim.context = context


def weak_passage(claim) -> WeakPassage:
    """A verified passage claim (:class:`core.types.Claim`, one citation) whose answer fell under the
    score threshold, as a weak passage of the abstention (:attr:`core.types.Abstention.candidates`)."""
    cit = claim.citations[0]
    return WeakPassage(chunk_id=cit.chunk_id, doc_id=cit.doc_id, path=cit.path, page=cit.page, text=cit.quote,
                       start=cit.start, end=cit.end, rects=list(cit.rects), continued=list(cit.continued),
                       score=claim.passage_score if claim.passage_score is not None else 0.0,
                       page_label=cit.page_label, location=cit.location, modality=cit.modality,
                       context=claim.context)


def in_delivered(manifest, spans: dict[str, tuple[Chunk, int, int]]) -> dict[str, tuple[Chunk, int, int]]:
    """``spans`` (text → (stored chunk, start, end), chunk offsets, characters) moved into their chunks
    as delivered with small-to-big continuations (:func:`core.small_to_big.deliver`: the rest of a
    sentence cut at a chunk end, from the neighbouring chunk, bounded), so the clause shown around a
    span that :func:`attach_contexts` computes may run past the stored chunk's end or start.

    Spans are scored on the stored chunks (scores, threshold and the answer/abstain decision do not
    change); only the clause can grow. A chunk whose delivered text does not hold its stored text
    unchanged (cannot happen by construction) keeps its stored offsets.

    Raises what :meth:`core.store.manifest.Manifest.connect` raises when the index cannot be opened."""
    from core.small_to_big import deliver

    stored = {c.chunk_id: c for c, _, _ in spans.values()}
    whole = {c.chunk_id: c for c in deliver(manifest, list(stored.values()))}
    out: dict[str, tuple[Chunk, int, int]] = {}
    for text, (chunk, s, e) in spans.items():
        ext = whole.get(chunk.chunk_id, chunk)
        off = ext.text.find(chunk.text) if ext is not chunk else 0
        out[text] = (ext, s + off, e + off) if off >= 0 else (chunk, s, e)
    return out


def same_clause_groups(contexts: list) -> list[list[int]]:
    """Indices of passages grouped by the clause they are shown in, first occurrence order.

    ``contexts``: each passage's :class:`core.types.PassageContext` or None. Passages of one chunk
    whose clauses overlap share one context highlighting all of them (:func:`attach_contexts`); printing it once per passage showed the same clause twice (tryout,
    2026-12-02). A passage without a context is its own group."""
    groups: dict[object, list[int]] = {}
    for i, ctx in enumerate(contexts):
        key = (ctx.chunk_id, ctx.start, ctx.end) if ctx is not None else ("", i, i)
        groups.setdefault(key, []).append(i)
    return list(groups.values())
