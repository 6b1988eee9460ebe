"""The passages answer's answer/abstain decision for a question that names its document (issue #20, third pass).

Before this module the decision was always the best span's calibrated score (``Span.score``: cosine +
term weight · term coverage) against one of four thresholds (:func:`core.passage_gate.min_score`). Measured on
cuad_natural and CUAD (bench/README.md, "Issue #20, third pass"), the score alone separates answerable
questions from questions whose clause is absent poorly: held-out ROC AUC 0.75 (``-nat``), 0.61 (``-para``),
0.64 (template). When the question names its document (retrieval searched inside it and the spans were
scored without the naming words: ``cleaned``, :func:`core.passages.scoring_query`), asks for a clause type
the clause vocabulary recognises (``trace.clause_types``) and its best span is in the question's language,
the decision here is a logistic model (a linear rule) over evidence the product already computes:

* ``score``: the best span's calibrated score (as before);
* ``wording``: the best cosine of a span with the wording of the clause type asked for
  (:func:`core.passages.clause_wording`) — a contract that holds the clause has a sentence worded like it;
* ``synonyms``: the best term coverage of a span counting the bilingual vocabulary's same-language synonyms
  (:meth:`core.passage_terms.QuestionTerms.synonym_coverage`).

Held out (5-fold cross-validation grouped by contract, a contract's four phrasings in one fold, 10
partitions) its ROC AUC is 0.80 / 0.73 / 0.81 on those sets (``bench/passages_decision.py``). The weights
(:data:`WEIGHTS`, :data:`BIAS`) were then fitted by logistic regression (scikit-learn, in the benchmark, not
at run time) on every such case of cuad_natural (``-nat``, ``-para``), the CUAD template cases and XQuAD-es,
label "the case is answerable", with the cut whose must-abstain cases answered are no more than the
settings' threshold answered there. B46 and the lab were never fitted on.

Other questions keep the settings' thresholds: questions not naming a document, or naming no clause type
(the dev sets hold too few must-abstain ones for a model: one fitted there answered every such question),
and questions answered across languages (a model there moved B46's English questions over the Spanish
lease, and the lab's LAB-12, across their thresholds, which they sit within 0.03 of, and lowered
XQuAD-es's English questions held out).

Because ``score`` enters the model linearly with a positive weight, the decision is still "the best
span's score against a threshold": the threshold of one question (:func:`threshold`) is where its logit
crosses zero, given the rest of its evidence; ``trace.passage_threshold`` keeps that meaning. The score's
weight is small beside the wording's (a span worded like the clause asked for is most of the evidence), so
that threshold moves far with the wording: from below 0 (answered whatever the score) to above 1 — hence
:data:`FLOOR`, under which no question is answered whatever its wording (issue #20, tryout 2: a misread
clause type made passages scoring 0.2–0.4 an answer).

Where this model decides, an answer is also checked for the *form* of the asked clause (:data:`FORM_MIN_MARGIN`,
:func:`form_rejects`): a passage about a neighbouring clause scores like an answer on the question's topic words.

An answered result shows more passages than the one it rests on; :func:`below_bar` says which of them score
under its threshold, so the window and the CLI mark them as weaker instead of presenting them as matches.
"""

from __future__ import annotations

from dataclasses import dataclass

FEATURES = ("score", "wording", "synonyms")
"""The evidence, in the order of :func:`features`."""

TERM_WEIGHT = 0.5
"""The term weight of the calibrated score (``Settings.passages_term_weight``'s default)."""

WEIGHTS: dict[str, float] = {"score": 0.9071, "wording": 9.8963, "synonyms": 1.8560}
"""Logistic-regression weights per feature (raw units), fitted by ``bench/passages_decision.py records.json
--features score,wording,synonyms --per-group --cleaned-only --same-language-only --final`` (2026-12-02;
over the 50 cross-validation folds: score 0.94 ± 0.62, wording 9.88 ± 0.91, synonyms 1.84 ± 0.34)."""

BIAS = -5.2888
"""The intercept (−5.3969) minus the logit of the chosen probability cut (0.473): answer when the logit ≥ 0
(over the folds the cut was 0.471 ± 0.051)."""


FLOOR = 0.36
"""The lowest threshold the model may give (the best span's calibrated score, ``Span.score``). Without it
the threshold went as low as −3.8 (issue #20, tryout 2): a span worded like the clause type asked for
makes the logit positive whatever the score, so when the clause type was misread (an assignment question
read as post-termination services) passages scoring 0.2–0.4 were shown as the answer. Chosen by
``bench/passages_decision.py --floor`` (5-fold cross-validation grouped by contract, 10 partitions: in each
fold the highest floor under which no answerable training case the model answers falls; 0.363 ± 0.009 over
the 50 folds, 0.36 on every case). It costs the dev sets one answer held out (cuad_natural ``-nat``);
bench/README.md "Decision floor"."""


@dataclass(frozen=True)
class SpanEvidence:
    """What the decision reads of one scored span (:class:`core.passages.Span`, or a benchmark record).

    ``cos``: cosine with the question (or its gloss); ``terms``: term coverage (0..1); ``syn``: term
    coverage with same-language synonyms (``None``: as ``terms``); ``cos_wording``: cosine with the clause
    type's wording (0 when the question names none)."""

    cos: float
    terms: float
    syn: float | None = None
    cos_wording: float = 0.0

    def score(self, term_weight: float = TERM_WEIGHT) -> float:
        return self.cos + term_weight * self.terms


def applies(*, cleaned: bool, clause_type: bool, cross: bool) -> bool:
    """Whether the model decides: the question names its document (``cleaned``), asks for a clause type
    the vocabulary recognises and its best span is in its language (module docstring)."""
    return cleaned and clause_type and not cross


def features(spans: list[SpanEvidence], *, term_weight: float = TERM_WEIGHT) -> list[float]:
    """The evidence vector of one question, in :data:`FEATURES` order; score −1 without spans.

    Args:
        spans: the question's scored spans (any order), ``cos_wording`` against the clause type asked for.
    """
    if not spans:
        return [-1.0, 0.0, 0.0]
    top = max(spans, key=lambda s: s.score(term_weight))
    return [
        top.score(term_weight),
        max(s.cos_wording for s in spans),
        max((s.terms if s.syn is None else s.syn) for s in spans),
    ]


def logit(values: list[float]) -> float:
    """The model's logit for an evidence vector (:func:`features`): answer when ≥ 0."""
    return BIAS + sum(WEIGHTS[n] * v for n, v in zip(FEATURES, values))


def threshold(values: list[float], floor: float = FLOOR) -> float:
    """The best span's score at which this question's logit is zero, the rest of its evidence fixed, and
    never under ``floor`` (:data:`FLOOR`): the question is answered when its best score reaches it
    (``WEIGHTS["score"] > 0``)."""
    return max(floor, values[0] - logit(values) / WEIGHTS["score"])


FORM_MIN_MARGIN = -0.02
"""An answered passages result whose question the model decides (:func:`applies`) is turned into an abstention
(its passages shown as weak) when no sentence or adjacent pair of its retrieved chunks reads more like the asked
clause type's contract wording than like another type's by more than this (:func:`core.clause_form.form_margin`
under it; the review grid's evidence, :mod:`core.grid_decision`). A contract without the clause still has
sentences *about* its topic that score like an answer against the question (a term clause for "does it renew?",
an appointment for "who owns the IP?"); they read like a neighbouring clause type. Chosen by
``bench/passages_form_cv.py --features fm_all --raw --objective budget --budget 0.02`` (5-fold cross-validation
grouped by contract over cuad_natural ``-nat``/``-para`` and the CUAD template cases, 10 partitions: in each
fold the highest margin, on a 0.005 grid, whose answered gold quotes lost stay within 2 % of the training
part's shown gold quotes). The folds chose -0.02 (33 of 50), -0.015 (9), -0.01 (8). Held out, false answers
17 → 11 / 16 → 11 / 21 → 14 of 32, passage hit 0.816 → 0.795 / 0.728 → 0.709 / 0.806 → 0.796 (``-nat`` /
``-para`` / template); bench/README.md "Abstaining when the clause's form is not there"."""


def form_rejects(margin: float | None) -> bool:
    """Whether the clause-form margin (:func:`core.clause_form.form_margin`, ``None``: not read) turns an answer
    into an abstention (:data:`FORM_MIN_MARGIN`)."""
    return margin is not None and margin < FORM_MIN_MARGIN


BELOW_NOTE = ("Passages marked \u201cweaker\u201d score under what an answer needs: read them as the closest text, "
              "not as matches.")
"""The line above the passages of an answered passages result when some score under its threshold (window, CLI,
Markdown); those passages keep their place (the shown order, :attr:`core.passages.Span.order`, reads more
evidence than the score) and are each marked "weaker"."""


def below_bar(scores: list[float | None], threshold: float | None) -> list[bool]:
    """Per passage of an ANSWERED passages result (``Claim.passage_score``, in shown order): whether it
    scores under the answer's threshold (``Trace.passage_threshold``), so it is shown as weaker, not as a
    match. The answer was decided on its best span; the next spans are shown by their order, whatever their
    score (tryout 2: 0.95 then 0.36 / 0.20 all labelled "matching"). ``None`` score or threshold: not
    below (a result without the scores, e.g. an answer stored before they existed)."""
    if threshold is None:
        return [False] * len(scores)
    # scores are stored rounded to 4 decimals: a span exactly at the threshold stays a match
    return [s is not None and s + 5e-5 < threshold for s in scores]
