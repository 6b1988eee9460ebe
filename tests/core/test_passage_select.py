"""Issue #20, selection pass: which spans the passages answer shows.

* ``select_spans`` counts the clauses shown, not the spans: a second sentence of a clause already shown is
  one more highlight of it and takes no slot, so another clause — often the one that answers — is shown too;
* the order adds the retriever's fused score of the span's chunk over the best chunk's
  (:data:`core.passages.FUSED_WEIGHT`, chosen by cross-validation over documents, ``bench/passages_select.py``).

Real components: the bundled embedding model, the clause vocabulary of resources/, the clause bounds of
:mod:`core.passage_context`.
"""

from __future__ import annotations

from core.passage_context import attach_contexts
from core.passages import Span, score_spans, select_spans
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


def test_the_chunk_the_retriever_clearly_preferred_is_shown_first_not_a_sentence_echoing_the_question() -> None:
    """A sentence that repeats the question's words outscores the clause that answers it; the retriever, which
    read the whole chunks, scored the clause's chunk twice as high, and the order shows the clause first. When
    the retriever found both chunks about equal, the span scores decide. The decision's score never moves."""
    echo = "Can either party terminate the agreement early? See the schedule of fees."
    chunks = [_chunk(TERMINATION, 0), _chunk(echo, 1)]
    question = "Can either party terminate the agreement early?"

    def shown(fused):
        spans = score_spans(question, chunks, None, candidates_per_chunk=None, cache=False, fused=fused)
        by_chunk = {s.chunk.chunk_id: s for s in spans}
        assert by_chunk["doc#p1-c1"].score > by_chunk["doc#p1-c0"].score + 0.2  # the echo scores higher
        return select_spans(spans, max_total=1)[0].chunk.chunk_id

    assert shown([0.033, 0.016]) == "doc#p1-c0"   # RRF: the clause's chunk clearly first
    assert shown([0.0328, 0.0323]) == "doc#p1-c1"  # about equal: the span scores decide
    assert shown(None) == "doc#p1-c1"              # no fused scores given: the order before this pass
