"""Issue #20, second pass: the order of the shown passages uses evidence the abstention decision does
not — the retriever's rank of the span's chunk, the clause type's wording, same-language synonyms of
the bilingual vocabulary — while the decision keeps the calibrated score.

Real components: the bundled embedding model and the vocabulary files of resources/.
"""

from __future__ import annotations

from core.passage_terms import QuestionTerms
from core.passages import Span, clause_wording, score_spans, select_spans
from core.textproc import tokenize
from core.types import Chunk

TERMINATION = "Either party may terminate this Agreement upon thirty days written notice to the other party."
UNRELATED = "The deal closes on the effective date stated above."


def _chunk(text: str, n: int = 0, lang: str = "en") -> Chunk:
    return Chunk(chunk_id=f"doc#p1-c{n}", doc_id="doc", path="/doc.txt", page=1, start=1000 * n,
                 end=1000 * n + len(text), text=text, lang=lang)


def test_a_paraphrase_covers_the_clause_through_its_synonyms_in_the_same_language() -> None:
    """"walk away" names the termination concept of the vocabulary: the termination sentence holds
    more of the question with synonyms than word for word; a sentence without it holds the same."""
    terms = QuestionTerms("Can either party walk away from the deal early?", None, lexicon=False, cognates=False)
    tokens = set(tokenize(TERMINATION, "en"))
    plain, synonyms = terms.coverage(tokens, "en"), terms.synonym_coverage(tokens, "en")
    assert synonyms > plain > 0
    assert synonyms <= 1.0
    other = set(tokenize(UNRELATED, "en"))
    assert terms.synonym_coverage(other, "en") == terms.coverage(other, "en")


def test_synonym_coverage_across_languages_is_the_cross_language_coverage() -> None:
    terms = QuestionTerms("¿Puede una parte resolver el contrato?", None)
    tokens = set(tokenize(TERMINATION, "en")) | set(tokenize(TERMINATION, "es"))
    assert terms.synonym_coverage(tokens, "en") == terms.coverage(tokens, "en")


def test_the_clause_wording_of_the_types_the_question_asks_about() -> None:
    wording = clause_wording(["termination_for_convenience", "no_such_type"])
    assert len(wording) == 1
    assert "terminate" in wording[0]
    assert clause_wording([]) == []


def test_of_two_equal_sentences_the_one_in_the_chunk_ranked_first_is_shown_first() -> None:
    """The same sentence in the first and in the fourth delivered chunk: equal scores (the decision
    cannot tell them apart), the retriever's rank orders them."""
    chunks = [_chunk(TERMINATION, 0), _chunk(UNRELATED, 1), _chunk(UNRELATED + " ", 2), _chunk(TERMINATION, 3)]
    spans = score_spans("Can the agreement be terminated on notice?", chunks, None, rank_weight=0.2,
                        candidates_per_chunk=None, cache=False)
    first = [s for s in spans if s.chunk.chunk_id == "doc#p1-c0"][0]
    fourth = [s for s in spans if s.chunk.chunk_id == "doc#p1-c3"][0]
    assert abs(first.score - fourth.score) < 1e-6
    assert (first.rank, fourth.rank) == (0, 3)
    assert abs((first.order - fourth.order) - (0.2 / 1 - 0.2 / 4)) < 1e-5
    shown = select_spans(spans, max_total=1, per_chunk=1)
    assert shown[0].chunk.chunk_id == "doc#p1-c0"


def test_the_clause_wording_raises_the_sentence_that_uses_it() -> None:
    """Asked in the user's words ("walk away"), the sentence worded as contracts word a termination
    for convenience gets the higher cosine with the clause type's wording, and the order adds it."""
    chunks = [_chunk(UNRELATED, 0), _chunk(TERMINATION, 1)]
    spans = score_spans("Can we walk away from the deal early?", chunks, None, candidates_per_chunk=None, cache=False,
                        wording=clause_wording(["termination_for_convenience"]), wording_weight=0.5, rank_weight=0.0,
                        synonyms=True)
    by_chunk = {s.chunk.chunk_id: s for s in spans}
    term, other = by_chunk["doc#p1-c1"], by_chunk["doc#p1-c0"]
    assert term.cos_wording > other.cos_wording + 0.2
    for s in (term, other):
        assert abs(s.order - (s.cosine + 0.5 * s.synonyms + 0.5 * s.cos_wording)) < 1e-5
    assert select_spans(spans, max_total=1)[0] is term


def test_the_order_ranks_the_shown_spans_and_the_score_still_bounds_them() -> None:
    """select_spans sorts by order; a span under min_score is never shown, whatever its order."""
    c0, c1 = _chunk(TERMINATION, 0), _chunk(UNRELATED, 1)
    high_score = Span(c0, 0, 20, score=0.9, cosine=0.6, terms=0.6, order=0.5)
    high_order = Span(c1, 0, 20, score=0.8, cosine=0.5, terms=0.6, order=1.2)
    low = Span(c1, 21, 40, score=0.1, cosine=0.0, terms=0.2, order=3.0)
    assert select_spans([high_score, high_order, low], max_total=3, min_score=0.5) == [high_order, high_score]
    plain = Span(c0, 0, 20, score=0.9, cosine=0.6, terms=0.6)
    assert plain.order_key == 0.9
