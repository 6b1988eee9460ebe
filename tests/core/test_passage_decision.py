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
    values = [0.55, 0.5, 0.4]
    t = pd.threshold(values, floor=float("-inf"))  # the model's own line, without the floor
    assert pd.logit([t, *values[1:]]) == pytest.approx(0.0, abs=1e-9)
    assert pd.logit([t + 0.01, *values[1:]]) > 0 > pd.logit([t - 0.01, *values[1:]])
    assert pd.WEIGHTS["score"] > 0


def test_a_span_worded_like_the_clause_asked_for_lowers_the_threshold() -> None:
    """Same best score and synonyms: the contract with a sentence worded like the clause asked for is
    answered at a lower score than one whose closest sentence is worded like nothing of the kind; more of
    the question's synonyms in a span lower it too."""
    def line(values):
        return pd.threshold(values, floor=float("-inf"))

    worded = line([0.5, 0.6, 0.4])
    unlike = line([0.5, 0.4, 0.4])
    assert worded < unlike - 1.0  # 0.2 of wording cosine is worth WEIGHTS["wording"] * 0.2 / WEIGHTS["score"]
    assert line([0.5, 0.5, 0.8]) < line([0.5, 0.5, 0.3])
    # the app's threshold is the same line, never under the floor
    assert pd.threshold([0.5, 0.6, 0.4]) == max(pd.FLOOR, worded)


def test_the_features_of_real_spans() -> None:
    """The evidence read from score_spans' spans: the best span's score, the best wording cosine, the
    best synonym coverage."""
    spans = _spans(UNRELATED, TERMINATION)
    evidence = [pd.SpanEvidence(cos=s.cosine, terms=s.terms, syn=s.synonyms, cos_wording=s.cos_wording)
                for s in spans]
    values = pd.features(evidence)
    assert values[0] == pytest.approx(max(s.score for s in spans))
    assert values[1] == pytest.approx(max(s.cos_wording for s in spans))
    assert values[2] == pytest.approx(max(s.synonyms for s in spans))
    assert pd.features([]) == [-1.0, 0.0, 0.0]


def test_only_a_named_document_a_clause_type_and_one_language_are_decided_by_the_evidence() -> None:
    """decision_threshold: the model for a question scored without its document's names (cleaned) that asks
    for a clause type, in the language of its best span or with an English best span; the settings' thresholds
    otherwise, or when the setting says 'score'."""
    spans = _spans(UNRELATED, TERMINATION)
    settings = Settings()
    evidence = decision_threshold(settings, spans, cleaned=True, question=QUESTION, clause_type=True)
    assert evidence != min_score(settings, cleaned=True)
    for cleaned, clause_type in ((False, True), (True, False)):
        assert decision_threshold(settings, spans, cleaned=cleaned, question=QUESTION, clause_type=clause_type) \
            == min_score(settings, cleaned=cleaned)
    scored = Settings(passages_decision="score")
    assert decision_threshold(scored, spans, cleaned=True, question=QUESTION, clause_type=True) == \
        min_score(scored, cleaned=True)
    # a Spanish question over the English clause: its best span is in the wording's language, the model decides
    # (issue #20, engineer "xlang"); an English question over a Spanish clause keeps the cross-language threshold
    spanish = "¿Podemos resolver el contrato antes de tiempo?"
    assert decision_threshold(settings, spans, cleaned=True, question=spanish, clause_type=True) == evidence
    clausula = "Cualquiera de las partes podrá resolver este contrato con un preaviso de treinta días."
    in_spanish = score_spans(QUESTION, [_chunk(clausula, 0, "es")], None, candidates_per_chunk=None, cache=False,
                             wording=clause_wording(["termination_for_convenience"]))
    assert decision_threshold(settings, in_spanish, cleaned=True, question=QUESTION, clause_type=True) == \
        min_score(settings, cleaned=True, cross=True)
    assert decision_threshold(settings, [], cleaned=True, question=QUESTION, clause_type=True) == \
        min_score(settings, cleaned=True)


def test_a_contract_with_the_clause_is_answered_and_one_without_it_is_not() -> None:
    """Asked in the user's words ("walk away"), the contract holding a termination sentence reaches its
    threshold; one whose only sentence is about closing the deal does not (it abstains, its closest
    passage shown as weak), although that sentence shares the question's word "deal"."""
    settings = Settings()
    holding = _spans(UNRELATED, TERMINATION)
    t = decision_threshold(settings, holding, cleaned=True, question=QUESTION, clause_type=True)
    assert max(s.score for s in holding) >= t
    lacking = _spans(UNRELATED)
    t2 = decision_threshold(settings, lacking, cleaned=True, question=QUESTION, clause_type=True)
    assert max(s.score for s in lacking) < t2


# --- the floor (issue #20, tryout 2) ---------------------------------------------------------------

AFTER_TERMINATION = ("Following the expiration or termination of this Agreement, the Company shall continue to "
                     "provide transition services for a period of six months.")
ASSIGNMENT = "Can the endorser hand the contract over to someone else?"


def test_a_misread_clause_type_cannot_answer_with_a_passage_under_the_floor() -> None:
    """An assignment question read as post-termination services (tryout 2, Q8): the contract's sentence about
    transition services after termination is worded like the type read, so without a floor the model's
    threshold fell under 0 and a passage scoring ~0.2 was shown as THE answer. With the floor it abstains
    (its closest passage shown as weak)."""
    spans = score_spans(ASSIGNMENT, [_chunk(AFTER_TERMINATION)], None, candidates_per_chunk=None, cache=False,
                        wording=clause_wording(["post_termination_services"]))
    evidence = [pd.SpanEvidence(cos=s.cosine, terms=s.terms, syn=s.synonyms, cos_wording=s.cos_wording)
                for s in spans]
    values = pd.features(evidence)
    best = max(s.score for s in spans)
    assert pd.threshold(values, floor=float("-inf")) < best < pd.FLOOR  # answered before the floor
    t = decision_threshold(Settings(), spans, cleaned=True, question=ASSIGNMENT, clause_type=True)
    assert t == pd.FLOOR and best < t


def test_the_floor_never_raises_a_threshold_above_it() -> None:
    """A question whose evidence already asks more than the floor keeps its own threshold."""
    values = [0.5, 0.4, 0.4]
    assert pd.threshold(values) == pd.threshold(values, floor=float("-inf")) > pd.FLOOR


def test_passages_under_the_answer_threshold_are_below_the_bar() -> None:
    """below_bar: in an answered result, a passage under its threshold (0.36, 0.20 beside a 0.95 answer) is
    labelled weaker; one at the threshold (stored rounded to 4 decimals) is a match; no threshold: none."""
    assert pd.below_bar([0.95, 0.36, 0.2, None], 0.5) == [False, True, True, False]
    assert pd.below_bar([round(0.612345, 4)], 0.612345) == [False]
    assert pd.below_bar([0.1, 0.2], None) == [False, False]
