"""Issue #20, selection pass: which spans the passages answer shows.

* ``select_spans`` counts the clauses shown, not the spans: a second sentence of a clause already shown is
  one more highlight of it and takes no slot, so another clause — often the one that answers — is shown too;
* the order weighs the cosine with the clause type's wording at :data:`core.passages.WORDING_WEIGHT` (1.0,
  chosen by cross-validation over documents, ``bench/passages_select.py``).

Real components: the bundled embedding model, the clause vocabulary of resources/, the clause bounds of
:mod:`core.passage_context`.
"""

from __future__ import annotations

from core.passage_context import attach_contexts
from core.passages import Span, clause_wording, score_spans, select_spans
from core.types import Chunk

CAP = ("IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR CONSEQUENTIAL DAMAGES. IN NO EVENT SHALL EITHER PARTY'S "
       "TOTAL LIABILITY EXCEED THE FEES PAID IN THE TWELVE MONTHS BEFORE THE CLAIM.\n\n"
       "12. Notices. Notices shall be in writing.")
INDEMNITY = "Each party shall indemnify the other against third-party claims arising from its breach."
INSURANCE = "The Supplier shall maintain product liability insurance of at least $1,000,000 per occurrence."
TERMINATION = "Either party may terminate this Agreement upon thirty days written notice to the other party."


def _chunk(text: str, n: int) -> Chunk:
    return Chunk(chunk_id=f"doc#p1-c{n}", doc_id="doc", path="/doc.txt", page=1, start=1000 * n,
                 end=1000 * n + len(text), text=text, lang="en")


def _spans() -> tuple[Span, Span, Span, Span]:
    cap = _chunk(CAP, 0)
    first = CAP.index(" IN NO EVENT SHALL EITHER PARTY'S")
    exclusion = Span(cap, 0, first, score=0.9, cosine=0.6, terms=0.6, order=1.0)
    limit = Span(cap, first + 1, CAP.index("\n\n"), score=0.85, cosine=0.55, terms=0.6, order=0.95)
    indemnity = Span(_chunk(INDEMNITY, 1), 0, len(INDEMNITY), score=0.8, cosine=0.5, terms=0.6, order=0.9)
    insurance = Span(_chunk(INSURANCE, 2), 0, len(INSURANCE), score=0.7, cosine=0.4, terms=0.6, order=0.8)
    return exclusion, limit, indemnity, insurance


def test_a_second_sentence_of_a_shown_clause_takes_no_slot() -> None:
    """Two clauses may be shown: the liability clause with both of its sentences highlighted, and the
    indemnity clause. Counting spans, the second sentence of the liability clause took the second slot
    and the indemnity clause was not shown at all."""
    exclusion, limit, indemnity, insurance = _spans()
    spans = [insurance, indemnity, limit, exclusion]
    assert select_spans(spans, max_total=2) == [exclusion, limit, indemnity]
    assert select_spans(spans, max_total=2, clauses=False) == [exclusion, limit]
    # the clause count is a limit: the third clause is left out; per chunk still bounds the spans
    assert insurance not in select_spans(spans, max_total=2)
    assert select_spans(spans, max_total=2, per_chunk=1) == [exclusion, indemnity]
    assert select_spans(spans, max_total=3) == [exclusion, limit, indemnity, insurance]


def test_the_sentences_of_one_clause_are_shown_as_one_clause_with_both_highlighted() -> None:
    """What the answer view gets: one context for the liability clause holding both sentences."""
    exclusion, limit, indemnity, _ = _spans()

    class Claim:  # the two fields attach_contexts reads and writes (core.types.Claim's)
        def __init__(self, text: str) -> None:
            self.text, self.context = text, None

    claims = [Claim(s.text) for s in select_spans([exclusion, limit, indemnity], max_total=2)]
    attach_contexts(claims, {s.text: (s.chunk, s.start, s.end) for s in (exclusion, limit, indemnity)})
    assert claims[0].context is claims[1].context
    assert len(claims[0].context.highlights) == 2
    assert "TOTAL LIABILITY EXCEED" in claims[0].context.text
    assert claims[2].context.text == INDEMNITY


def test_a_question_in_the_users_words_shows_the_clause_worded_as_contracts_word_it_first() -> None:
    """"walk away from the deal early" shares words with a sentence about a buyer walking away (higher
    cosine and term coverage) and none with the termination clause; the clause type's wording, at its
    default weight, puts the termination clause first (at the former 0.5 the buyer's sentence came first)."""
    chunks = [_chunk(TERMINATION, 0),
              _chunk("If the buyer walks away from the deal early, the deposit is forfeited.", 1),
              _chunk("Neither party may leave the deal early without paying the break fee set out in Schedule 2.", 2)]
    spans = score_spans("Can we walk away from the deal early?", chunks, None, candidates_per_chunk=None,
                        cache=False, wording=clause_wording(["termination_for_convenience"]))
    by_chunk = {s.chunk.chunk_id: s for s in spans}
    term, buyer = by_chunk["doc#p1-c0"], by_chunk["doc#p1-c1"]
    assert buyer.score > term.score  # the decision's score prefers the buyer's sentence ...
    assert select_spans(spans, max_total=1) == [term]  # ... the order shows the termination clause first
