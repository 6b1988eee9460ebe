"""What a review-grid cell shows: its best passage in its clause, then the best passages of other places.

A passages answer (:mod:`core.passages`) orders its spans by their score against the question.
Inside one contract that score often prefers a sentence that repeats the question's words over
the clause that answers it; the retriever's order (BM25 ∥ dense ∥ the clause type's wording,
fused by RRF, :mod:`core.retrieval`) put the gold clause's chunk first more often than span
scoring put its sentence first (CUAD dev cells, issue #25: gold in the first retrieved chunk 50
of 77, in the best-scored span's clause 38 of 77; bench/README.md, "Review grid, 2026-12-02").
A cell therefore shows, in this order and from distinct places (no two passages of one clause,
even when two overlapping chunks deliver it: :data:`SAME_PLACE_SHARE`):

1. the answer's best passage (or, under the threshold, its closest one), in its clause;
2. for each of the next retrieved chunks, in retrieval order, that chunk's best span in its
   clause (small-to-big, :func:`core.passage_context.clause_bounds`): best-scoring for a free
   question, best by the answer's order with the clause type's wording for a clause-type cell
   (:func:`place_passages`);

up to :data:`CELL_PASSAGES` places. The spans are source text (``chunk.text[start:end]`` of a
chunk of the cell's own document), never rewritten; they are display, not citations: a cell's
status (answered, weak, not found) is decided apart (:func:`core.grid.cell_from_answer`), and a
"not found" cell shows none of them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.types import Answer, Chunk, PassageContext

CELL_PASSAGES = 3
"""Places a cell shows at most (its best passage and two more). Fixed a priori, like the weak
passages of an abstention (:data:`core.passages.WEAK_MAX`), not tuned on the dev cells."""


class ShownPassage(BaseModel):
    """One passage a grid cell shows: a source span of the cell's document, in its clause.

    ``start``/``end`` are chunk offsets (characters) of the span in chunk ``chunk_id``;
    ``page`` is 1-based (where the span begins).
    """

    chunk_id: str
    text: str = Field(description="The span (a sentence or two), source text.")
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    page: int = Field(1, ge=1)
    page_label: str = ""
    score: float | None = Field(None, description="Span score against the question (core.passages), if scored.")
    source: str = Field("answer", description="'answer' (the answer's own passage) or 'place' (best span of a "
                        "further retrieved chunk).")
    context: PassageContext | None = Field(None, description="The clause around the span (what is shown).")

    @property
    def shown_text(self) -> str:
        """What the cell shows: the clause when there is one, else the span."""
        return self.context.text if self.context is not None else self.text


def rested_on(answer: Answer) -> list:
    """``answer.claims`` at or over its threshold, in the answer's order (the passages it rests on; not those it
    marks "weaker", :func:`core.passage_decision.below_bar`). Claims without a score (model answers): all."""
    from core.passage_decision import below_bar

    below = below_bar([getattr(c, "passage_score", None) for c in answer.claims], answer.trace.passage_threshold)
    return [c for c, b in zip(answer.claims, below) if not b]


def rested_first(answer: Answer) -> list:
    """``answer.claims`` with those at or over its threshold first (:func:`rested_on`), each group in the answer's
    order: an answered passages result orders its passages by more than the score, and may list first one it marks
    "weaker"; a cell shows first a passage the answer rests on (review 2026-12-02). Claims without a score (model
    answers) keep their order."""
    over = rested_on(answer)
    kept = {id(c) for c in over}
    return over + [c for c in answer.claims if id(c) not in kept]


def _answer_passages(answer: Answer) -> list[ShownPassage]:
    """The answer's own passages, one it rests on first (:func:`rested_first`): verified claims' first
    citations, else the weak candidates."""
    out: list[ShownPassage] = []
    for claim in rested_first(answer):
        if not claim.citations:
            continue
        cit = claim.citations[0]
        ctx = getattr(claim, "context", None)
        out.append(ShownPassage(chunk_id=cit.chunk_id, text=cit.quote, start=ctx.start if ctx else 0,
                                end=ctx.end if ctx else 0, page=cit.page, page_label=cit.page_label,
                                score=getattr(claim, "passage_score", None), context=ctx))
    if not out and answer.abstention is not None:
        for w in answer.abstention.candidates:
            ctx = w.context
            out.append(ShownPassage(chunk_id=w.chunk_id, text=w.text, start=ctx.start if ctx else 0,
                                    end=ctx.end if ctx else 0, page=w.page, page_label=w.page_label,
                                    score=w.score, context=ctx))
    return out


SAME_PLACE_SHARE = 0.5
"""Two shown passages of different chunks are one place when their shown texts share one common run of at
least this share of the shorter text. Chunks overlap (the chunker repeats a chunk's last sentences at the
start of the next), so one clause is often delivered by two chunks and cut differently by each; before
this rule such a clause took two of a cell's three places (8 of the 109 CUAD dev cells, bench/README.md,
2026-12-02 afternoon). One half: a clause cut by a chunk end keeps at least half of itself in practice;
two different clauses share no run that long. Fixed a priori, not tuned."""


def _same_text(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` share one common run of at least :data:`SAME_PLACE_SHARE` of the shorter's
    words (whitespace-separated, compared exactly: both are source text). ``difflib`` (standard library)
    finds the run; on words it takes ~0.2 ms for two clauses (~13 ms on characters)."""
    import difflib

    x, y = a.split(), b.split()
    if not x or not y:
        return False
    m = difflib.SequenceMatcher(None, x, y, autojunk=False).find_longest_match(0, len(x), 0, len(y))
    return m.size >= SAME_PLACE_SHARE * min(len(x), len(y))


def _overlaps(a: ShownPassage, b: ShownPassage) -> bool:
    """Same place: one chunk and overlapping clauses, or the same span text anywhere, or (chunks overlap)
    shown texts that are mostly one run of source text (:func:`_same_text`)."""
    if a.text.strip() == b.text.strip():
        return True
    if a.chunk_id == b.chunk_id and a.context is not None and b.context is not None:
        return a.context.start < b.context.end and b.context.start < a.context.end
    return _same_text(a.shown_text, b.shown_text)


def place_passages(question: str, chunks: list[Chunk], workspace, settings,
                   clause_types: list[str] | None = None) -> list[ShownPassage]:
    """Per chunk of ``chunks`` (retrieval order), its best span in its clause.

    Spans are scored as the passages answer scores them (:func:`core.passages.score_spans`, the
    same settings; sentence vectors come from its session cache, so this costs little after the
    answer). Without ``clause_types`` (a free question) a chunk's best span is its best-scoring one
    among the :attr:`Settings.passages_candidates_per_chunk` sentences sharing most of the question's
    terms. With ``clause_types`` (``Trace.clause_types``: the cell asks about a clause type) every
    sentence and adjacent pair is a candidate and the best is the highest :attr:`core.passages.Span.order`,
    which adds the span's closeness to the types' contract wording: the clause often shares none of the
    question's terms ("9. Term and Renewal. The term of this Agreement shall be one (1) year …" for "What
    is the expiration date?"), so the term preselection left it out of its own chunk's place (CUAD dev
    cells, bench/README.md, 2026-12-02 afternoon). Every sentence of those chunks is embedded anyway for
    the cell's clause-form evidence (:func:`core.grid_places.clause_form_margin`), through the same cache.
    A chunk with no span is left out.
    """
    from core.passage_context import clause_context
    from core.passages import SCORING_THREADS, clause_wording, score_spans

    wording = clause_wording(list(clause_types or []))
    spans = score_spans(question, chunks, workspace, term_weight=settings.passages_term_weight,
                        candidates_per_chunk=None if wording else (settings.passages_candidates_per_chunk or None),
                        threads=SCORING_THREADS, wording=wording or None, headings=False)
    best: dict[str, object] = {}
    for sp in spans:
        cur = best.get(sp.chunk.chunk_id)
        if cur is None or (sp.order_key > cur.order_key if wording else sp.score > cur.score):
            best[sp.chunk.chunk_id] = sp
    out = []
    for chunk in chunks:
        sp = best.get(chunk.chunk_id)
        if sp is None:
            continue
        ctx = clause_context(chunk, [(sp.start, sp.end)])
        pages = chunk.page_spans(sp.start, sp.end)
        page = pages[0].page if pages else chunk.page
        out.append(ShownPassage(chunk_id=chunk.chunk_id, text=sp.text, start=sp.start, end=sp.end, page=page,
                                page_label=pages[0].label if pages else chunk.page_label, score=round(sp.score, 4), source="place",
                                context=ctx))
    return out


def _ends_at_heading(p: ShownPassage, workspace) -> bool:
    """True when passage ``p`` ends at a heading line that is also the end of its chunk: the heading names a
    clause the chunk does not hold, and its words, not the passage's, made it the best match (tryout 5: "4.6 …
    4.7 … / Governing Law and Attornment" for governing law, clause 4.8 in the next chunk). Such a passage is
    shown after the first place (:func:`place_passages`, no heading spans), not first."""
    from core.sentences import ends_in_label

    if not ends_in_label(p.text):
        return False
    chunk = workspace.get_chunks([p.chunk_id]).get(p.chunk_id)
    return chunk is not None and chunk.text.rstrip().endswith(p.text.rstrip())


def cell_passages(answer: Answer, workspace=None, settings=None, question: str | None = None,
                  limit: int = CELL_PASSAGES, place_scores: list[float] | None = None,
                  clause_types: list[str] | None = None) -> list[ShownPassage]:
    """The passages a cell shows (at most ``limit``, distinct places), best first.

    The answer's own passages come first (one it rests on always, :func:`rested_first`); the remaining places are the best
    spans of the retrieved chunks in retrieval order (``answer.trace.context``, read from
    ``workspace``), skipping a place already shown. With ``workspace=None`` (or a model answer,
    whose passages are its verified quotes) only the answer's own passages are used.
    ``place_scores``, when given, receives the best span score of every retrieved chunk scored
    (all of them, not only the places shown: :func:`core.grid_decision.evidence` reads it).
    ``clause_types``: the clause types the cell asks about (:func:`place_passages`); ``None`` = the
    answer's ``trace.clause_types``.
    """
    own = _answer_passages(answer)
    # an answer passage ending at its chunk's last heading comes second (it may still
    # hold the clause, before the heading: a dropped one lost 1 of 77 dev golds, bench/README.md, grid2)
    late = own[:1] if workspace is not None and answer.kind == "passages" and own and \
        _ends_at_heading(own[0], workspace) else []
    # the answer's next passage takes its place, else the first place
    shown: list[ShownPassage] = [p for p in own[1:] if not _ends_at_heading(p, workspace)][:1] if late else own[:1]
    if workspace is not None and settings is not None and answer.kind == "passages" and answer.trace.context:
        chunks = workspace.get_chunks(answer.trace.context)
        ranked = [chunks[c] for c in answer.trace.context if c in chunks]
        extra = (place_passages(question or answer.question, ranked, workspace, settings,
                               clause_types=list(answer.trace.clause_types if clause_types is None else clause_types))
                 if ranked else [])
        if place_scores is not None:
            place_scores.extend(p.score for p in extra if p.score is not None)
    else:
        extra = own[1:]
    for p in extra:
        if late and shown:
            shown, late = shown + [q for q in late if not any(_overlaps(q, s) for s in shown)], []
        if len(shown) >= limit:
            break
        if not any(_overlaps(p, s) for s in shown):
            shown.append(p)
    if late and len(shown) < limit:
        shown += [q for q in late if not any(_overlaps(q, s) for s in shown)]
    return shown
