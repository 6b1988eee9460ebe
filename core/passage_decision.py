"""The passages answer's answer/abstain decision for a question that names its document (issue #20, third pass).

Before this module the decision was always the best span's calibrated score (``Span.score``: cosine +
term weight · term coverage) against one of four thresholds (:func:`core.passages.min_score`). Measured on
cuad_natural and CUAD (bench/README.md, "Issue #20, third pass"), the score alone separates answerable
questions from questions whose clause is absent poorly: held-out ROC AUC 0.73 (``-nat``), 0.62 (``-para``),
0.64 (template). When the question names its document (retrieval searched inside it and the spans were
scored without the naming words: ``cleaned``, :func:`core.passages.scoring_query`) the decision here is a
logistic model (a linear rule) over evidence the product already computes:

* ``score``: the best span's calibrated score (as before);
* ``cross``: the best span is in another language than the question;
* ``clause_type``: the question asks for a clause type the clause vocabulary recognises
  (``trace.clause_types``), and ``wording``: the best cosine of a span with that clause type's wording
  (:func:`core.passages.clause_wording`) — a contract that holds the clause has a sentence worded like it;
* ``synonyms``: the best term coverage of a span counting the bilingual vocabulary's same-language synonyms
  (:meth:`core.passage_terms.QuestionTerms.synonym_coverage`).

Held out (5-fold cross-validation grouped by contract, a contract's four phrasings in one fold) its ROC AUC is
0.86 / 0.72 / 0.82 on those sets (``bench/passages_decision.py``). The weights (:data:`WEIGHTS`) were then
fitted by logistic regression (scikit-learn, in the benchmark, not at run time) on every such case of
cuad_natural (``-nat``, ``-es``, ``-para``), the CUAD template cases and XQuAD-es (Spanish and English
questions), label "the case is answerable"; the cut of each language group (:data:`BIAS`) is the lowest
whose must-abstain cases answered are no more than the settings' thresholds answered there. B46 and the
lab were never fitted on.

Other questions (not naming a document) keep the settings' thresholds: the dev sets hold too few of them
with a clause type for the model to be fitted there, and the lab's and B46's cases sit within 0.02–0.03 of
those thresholds on both sides (a model fitted on XQuAD moved them across).

Because ``score`` enters the model linearly with a positive weight, the decision is still "the best
span's score against a threshold": the threshold of one question (:func:`threshold`) is where its logit
crosses zero, given the rest of its evidence; ``trace.passage_threshold`` keeps that meaning (it may be
low, even negative, when a span is worded like the clause the question asks for).
"""

from __future__ import annotations

from dataclasses import dataclass

FEATURES = ("score", "cross", "clause_type", "wording", "synonyms")
"""The evidence, in the order of :func:`features`."""

TERM_WEIGHT = 0.5
"""The term weight of the calibrated score (``Settings.passages_term_weight``'s default)."""

WEIGHTS: dict[str, float] = {"score": 1.7138, "cross": 0.3561, "clause_type": -5.0446, "wording": 7.1712,
                              "synonyms": 1.2526}
"""Logistic-regression weights per feature (raw units), fitted by ``bench/passages_decision.py --final
--features score,cross,clause_type,wording,synonyms --per-group --cleaned-only`` (2026-12-02; over the 50
cross-validation folds: score 1.75 ± 0.56, cross 0.35 ± 0.12, clause_type −4.92 ± 0.40, wording 7.02 ± 0.96,
synonyms 1.25 ± 0.35)."""

BIAS: dict[bool, float] = {False: 0.5707, True: 1.4556}
"""Per language group (``cross``: the best span in another language than the question), the intercept minus
the logit of the group's probability cut (0.535 same language, 0.322 across languages): answer when the
logit ≥ 0."""


@dataclass(frozen=True)
class SpanEvidence:
    """What the decision reads of one scored span (:class:`core.passages.Span`, or a benchmark record).

    ``cos``: cosine with the question (or its gloss); ``terms``: term coverage (0..1); ``syn``: term
    coverage with same-language synonyms (``None``: as ``terms``); ``cos_wording``: cosine with the clause
    type's wording (0 when the question names none); ``rank``: its chunk's 0-based position among the
    delivered chunks; ``cross``: in another language than the question."""

    cos: float
    terms: float
    syn: float | None = None
    cos_wording: float = 0.0
    rank: int = 0
    cross: bool = False

    def score(self, term_weight: float = TERM_WEIGHT) -> float:
        return self.cos + term_weight * self.terms


def features(spans: list[SpanEvidence], *, clause_type: bool, term_weight: float = TERM_WEIGHT) -> list[float]:
    """The evidence vector of one question, in :data:`FEATURES` order; score −1 without spans.

    Args:
        spans: the question's scored spans (any order).
        clause_type: the question asks for a clause type the vocabulary recognises (``trace.clause_types``).
    """
    if not spans:
        return [-1.0, 0.0, float(clause_type), 0.0, 0.0]
    top = max(spans, key=lambda s: s.score(term_weight))
    return [
        top.score(term_weight),
        float(top.cross),
        float(clause_type),
        max(s.cos_wording for s in spans) if clause_type else 0.0,
        max((s.terms if s.syn is None else s.syn) for s in spans),
    ]


def logit(values: list[float]) -> float:
    """The model's logit for an evidence vector (:func:`features`): answer when ≥ 0."""
    return BIAS[bool(values[1])] + sum(WEIGHTS[n] * v for n, v in zip(FEATURES, values))


def threshold(values: list[float]) -> float:
    """The best span's score at which this question's logit is zero, the rest of its evidence fixed: the
    question is answered when its best score reaches it (``WEIGHTS["score"] > 0``)."""
    return values[0] - logit(values) / WEIGHTS["score"]
