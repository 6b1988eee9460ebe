"""Issue #20, third pass: the answer/abstain decision of a passages answer for a question that names its
document reads more evidence than the best span's score (core.passage_decision): the clause type the
question asks for and whether a span is worded like it, the same-language synonyms, the language.

Real components: the bundled embedding model and the clause vocabulary of resources/.
"""

from __future__ import annotations

import pytest

from core import passage_decision as pd
from core.passages import clause_wording, decision_threshold, min_score, score_spans
from core.settings import Settings
from core.types import Chunk

TERMINATION = "Either party may terminate this Agreement upon thirty days written notice to the other party."
UNRELATED = "The deal closes on the effective date stated above."
QUESTION = "Can we walk away from the deal early?"


def _chunk(text: str, n: int = 0, lang: str = "en") -> Chunk:
    return Chunk(chunk_id=f"doc#p1-c{n}", doc_id="doc", path="/doc.txt", page=1, start=1000 * n,
                 end=1000 * n + len(text), text=text, lang=lang)


def _spans(*texts: str):
    return score_spans(QUESTION, [_chunk(t, i) for i, t in enumerate(texts)], None, candidates_per_chunk=None,
                       cache=False, wording=clause_wording(["termination_for_convenience"]))


def test_the_threshold_is_where_the_logit_crosses_zero() -> None:
    """A best span scoring exactly the question's threshold sits on the model's boundary; one above it
    answers, one below abstains — the decision is still "best score against a threshold"."""
    values = [0.55, 0.0, 1.0, 0.6, 0.4]
    t = pd.threshold(values)
    assert pd.logit([t, *values[1:]]) == pytest.approx(0.0, abs=1e-9)
    assert pd.logit([t + 0.01, *values[1:]]) > 0 > pd.logit([t - 0.01, *values[1:]])
    assert pd.WEIGHTS["score"] > 0


def test_a_span_worded_like_the_clause_asked_for_lowers_the_threshold() -> None:
    """Same best score and synonyms: the contract with a sentence worded like a termination clause is
    answered at a lower score than one whose closest sentence is worded like nothing of the kind."""
    worded = pd.threshold([0.5, 0.0, 1.0, 0.7, 0.4])
    unlike = pd.threshold([0.5, 0.0, 1.0, 0.4, 0.4])
    assert worded < unlike - 0.5  # 0.3 of wording cosine is worth WEIGHTS["wording"] * 0.3 / WEIGHTS["score"]
    # and more synonyms of the question in a span lower it too
    assert pd.threshold([0.5, 0.0, 1.0, 0.5, 0.8]) < pd.threshold([0.5, 0.0, 1.0, 0.5, 0.3])


def test_the_features_of_real_spans() -> None:
    """The evidence read from score_spans' spans: the best span by score, the best wording cosine (only
    when the question asks for a clause type), the best synonym coverage."""
    spans = _spans(UNRELATED, TERMINATION)
    evidence = [pd.SpanEvidence(cos=s.cosine, terms=s.terms, syn=s.synonyms, cos_wording=s.cos_wording)
                for s in spans]
    values = pd.features(evidence, clause_type=True)
    assert values[0] == pytest.approx(max(s.score for s in spans))
    assert values[1:3] == [0.0, 1.0]
    assert values[3] == pytest.approx(max(s.cos_wording for s in spans))
    assert values[4] == pytest.approx(max(s.synonyms for s in spans))
    assert pd.features(evidence, clause_type=False)[3] == 0.0
    assert pd.features([], clause_type=True)[0] == -1.0


def test_only_a_question_that_names_its_document_is_decided_by_the_evidence() -> None:
    """decision_threshold: the model for a question scored without its document's names (cleaned), the
    settings' thresholds otherwise or when the setting says 'score'."""
    spans = _spans(UNRELATED, TERMINATION)
    settings = Settings()
    assert decision_threshold(settings, spans, cleaned=False, question=QUESTION, clause_type=True) == \
        min_score(settings, cleaned=False)
    scored = Settings(passages_decision="score")
    assert decision_threshold(scored, spans, cleaned=True, question=QUESTION, clause_type=True) == \
        min_score(scored, cleaned=True)
    evidence = decision_threshold(settings, spans, cleaned=True, question=QUESTION, clause_type=True)
    assert evidence != min_score(settings, cleaned=True)
    # the termination sentence is worded like the clause asked for: its contract is answered at this score
    assert max(s.score for s in spans) >= evidence
    # without it, the same question about a contract with no such sentence needs a higher score
    assert decision_threshold(settings, _spans(UNRELATED), cleaned=True, question=QUESTION,
                              clause_type=True) > evidence
    assert decision_threshold(settings, [], cleaned=True, question=QUESTION, clause_type=True) == \
        min_score(settings, cleaned=True)


def test_a_span_in_another_language_uses_its_own_group() -> None:
    """The best span in another language than the question: the cross-language group's bias."""
    same = pd.threshold([0.5, 0.0, 1.0, 0.5, 0.4])
    cross = pd.threshold([0.5, 1.0, 1.0, 0.5, 0.4])
    expected = (pd.BIAS[True] + pd.WEIGHTS["cross"] - pd.BIAS[False]) / pd.WEIGHTS["score"]
    assert same - cross == pytest.approx(expected)
