"""Whether a passage reads like the clause type a question about the collection asks for (issue #20 item 1).

A list question that names nothing but a clause type ("Which of these agreements contain an arbitration clause?")
lists a document with one passage, so that passage itself must be the clause (:func:`core.collection.listed_passage`).
What "reads like the clause" means is the review grid's clause-form evidence (:mod:`core.grid_places`: the form
margin, nearest-neighbour classification of a span over the contract wording of
``resources/clauses/clause_types.toml``), here for each passage rather than for a cell's best sentence.
"""

from __future__ import annotations

from core.types import Answer, Chunk

LIST_FORM_MARGIN = 0.0
"""Form margin (:func:`span_form_margins`, a difference of cosines) that the passage a document is listed with
must reach: at least as close to the asked type's wording as to any other type's. Chosen by 5-fold
cross-validation grouped by contract (3 CUAD contracts a fold) on the 12 CUAD presence questions of
``bench/data/collection_presence.json`` (64 labelled document/question pairs): in each fold the strictest cut of
-0.10 … 0.20 (step 0.01) that lists as many of the training contracts' present documents as the rule before (the
cell answered); fold cuts 0.02, -0.01, 0.01, -0.01, -0.01, on all of them 0.00 (``python bench/collection_lists.py
choose``; bench/README.md, "Lists of documents for questions that name only a clause type", 2026-12-02 afternoon).
The tryout's "Entire Agreement" passages score -0.13 … -0.25 for an arbitration question."""


def span_form_margins(texts: list[str], clause_ids: list[str]) -> list[float] | None:
    """Per text of ``texts`` (a passage's span), how much more it reads like the contract wording of one of
    ``clause_ids`` (the question's clause types, ``Trace.clause_types``) than like any other type's:
    :func:`core.clause_form.span_margins` (the grid's ``form_margin`` for one span rather than a cell's best;
    -2 … 2). ``None`` without a clause type, or when the asked types have no wording or every type is asked."""
    from core.clause_form import span_margins
    from core.passages import SCORING_THREADS

    if not clause_ids:
        return None
    return span_margins(texts, clause_ids, SCORING_THREADS)


def form_span(answer: Answer, workspace) -> tuple[Chunk, int, int, float] | None:
    """The span of a scoped passages ``answer``'s retrieved chunks that reads most like its question's clause
    type (``answer.trace.clause_types``), as ``(chunk, start, end, margin)`` (chunk offsets, characters;
    ``margin`` its :func:`span_form_margins`): over :func:`core.clause_form.chunk_spans` (the spans whose best
    margin is the grid cell's :func:`core.grid_places.clause_form_margin`), the first of the highest in retrieval
    order. ``None`` without a clause type or a retrieved sentence."""
    from core.clause_form import chunk_spans

    types = list(answer.trace.clause_types)
    if not types or not answer.trace.context:
        return None
    chunks = workspace.get_chunks(answer.trace.context)
    spans = chunk_spans([chunks[c] for c in answer.trace.context if c in chunks])
    margins = span_form_margins([c.text[s:e] for c, s, e in spans], types) if spans else None
    if not margins:
        return None
    best = max(range(len(spans)), key=lambda i: (margins[i], -i))
    return (*spans[best], margins[best])
