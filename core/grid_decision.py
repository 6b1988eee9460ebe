"""Evidence for a review-grid cell's "answered" / "weak" / "not found" decision.

**Clause-type columns (since 2026-12-02, grid3):** every passages cell whose question names a clause
type, answered by the passages answer or not, is decided by :func:`present_log_odds` of
:func:`form_margin` (does some span of the retrieved chunks read like the asked type's contract wording
more than like any other type's, :mod:`core.grid_places`) and ``near``: under :data:`FORM_THRESHOLD`
it is "not found" even when the passages answer answered (9 of the 32 absent CUAD dev clauses were
answered by its threshold). The rest of this docstring describes the earlier evidence, still kept
with each cell; the model below decides only an abstained cell whose clause evidence is missing
(no retrieved span), and a free question keeps the closeness ratio (``grid_weak_ratio``).

A cell whose passages answer abstained (:mod:`core.passages`) is either *weak* (its closest
passages shown, marked as not an answer) or *not found*. The best span's score over the answer's
threshold alone (:func:`core.grid.closeness`) separates present from absent CUAD clauses poorly
(ROC AUC 0.68, issue #25): a contract always has sentences *about* the clause family asked, and
the absolute score of its best one depends on how the contract is written. What a present clause
adds is a passage that stands out **from the rest of the same document**: the retriever delivers
a cell's chunks from its one contract, and each chunk's best span is scored against the question
(:func:`core.grid_cells.place_passages`); when the clause is there, one place scores clearly above
the document's other retrieved places.

:func:`evidence` measures that (all in the passages answer's score units, no new model call):

* ``near`` — the best span's score over the threshold it missed (:func:`core.grid.closeness`);
* ``lead`` — the best place's score minus the median of the retrieved places' best scores;
* ``gap`` — the best place's score minus the second best's;
* ``first`` — the first retrieved chunk's best span score minus the best place's (0 when the
  retriever's first chunk holds the best span: retriever and span scoring agree; negative else);
* ``form`` (:func:`clause_form`, only when the question names a clause type) — whether a shown
  passage *has the form of that clause type*: the highest cosine between a shown span and the
  type's contract wording (``resources/clauses/clause_types.toml``, phrases written from drafting
  practice, not from the evaluation answers). A contract without a renewal clause still has
  sentences *about* its term that score like one against the question; they do not read like
  "this Agreement shall automatically renew for successive periods".

Measured on the CUAD dev cells (abstained passages cells, ROC AUC present vs absent clause,
in-sample, descriptive): near 0.74, form 0.83, lead 0.62, first 0.53, gap 0.50. Only ``near`` and
``form`` enter the model (:data:`MODEL_FEATURES`); the others are kept with the cell for analysis.

:func:`present_probability` combines them with a logistic model whose coefficients
(:data:`COEF`) are the means of the five fold models of a 5-fold cross-validation grouped by CUAD
contract (never fitted on the whole dev set at once): ``python bench/grid.py decision REPORT.json``
(bench/README.md, "Review grid: the embedded model and a document-relative 'not found'",
2026-12-02).
"""

from __future__ import annotations

import math
import statistics
from functools import lru_cache

#: Features of :func:`evidence` (``form`` only with a clause type).
FEATURES = ("near", "lead", "gap", "first", "form")
#: Features the logistic model reads, in the order of :data:`COEF`'s weights.
MODEL_FEATURES = ("near", "form")

#: (intercept, weights of MODEL_FEATURES) of the logistic model of "the clause is present": the mean
#: of the five fold models (scikit-learn LogisticRegression, class_weight balanced, C=1 on
#: standardised features, converted to raw units) of a 5-fold CV grouped by CUAD contract on the
#: 66 abstained passages cells of the dev grid (2026-12-02, bench/grid_decision.py). Held out:
#: gold clause in the cell 57/77 (ratio rule 50/77), absent clause "not found" 18/32 (16/32).
#: Weak when P >= 0.5, i.e. 4.722 near + 10.477 form >= 8.941. ``None`` = the ratio rule only.
COEF: tuple[float, tuple[float, ...]] | None = (-8.941, (4.722, 10.477))


def evidence(near: float | None, place_scores: list[float], form: float | None = None) -> dict[str, float]:
    """The cell's document-relative evidence.

    Args:
        near: :func:`core.grid.closeness` of the answer (``None``: not a passages answer → 0).
        place_scores: each retrieved chunk's best span score (:func:`core.grid_cells.place_passages`),
            in retrieval order. Fewer than two → ``lead``, ``gap`` and ``first`` are 0.

        form: :func:`clause_form` (``None``: the question names no clause type; left out).

    Returns:
        ``{"near", "lead", "gap", "first"[, "form"]}`` floats (score units; ``near`` a ratio,
        ``form`` a cosine).
    """
    ordered = [float(s) for s in place_scores]
    scores = sorted(ordered, reverse=True)
    two = len(scores) >= 2
    lead = scores[0] - statistics.median(scores) if two else 0.0
    gap = scores[0] - scores[1] if two else 0.0
    first = ordered[0] - scores[0] if two else 0.0
    out = {"near": float(near or 0.0), "lead": round(lead, 4), "gap": round(gap, 4), "first": round(first, 4)}
    if form is not None:
        out["form"] = round(float(form), 4)
    return out


@lru_cache(maxsize=256)
def _wording_vectors(clause_id: str):
    """L2-normalised vectors of a clause type's contract wording (``None``: unknown type or no wording):
    its rows of :func:`core.clause_form.wording_matrix`, so each phrase is embedded once per process."""
    from core.clause_form import wording_matrix

    owners, mat = wording_matrix()
    rows = [i for i, owner in enumerate(owners) if owner == clause_id]
    return mat[rows] if rows else None


def clause_form(clause_ids: list[str], spans: list[str]) -> float | None:
    """The highest cosine (MiniLM, the index's embedding model) between one of ``spans`` (the cell's
    shown span texts) and a contract wording phrase of one of ``clause_ids`` (the clause types the
    question asked about, ``Trace.clause_types``); ``None`` without a type with wording or a span.
    One batch embedding of the spans (at most :data:`core.grid_cells.CELL_PASSAGES`); each type's
    wording vectors are computed once per process."""
    import numpy as np

    from core.store import get_embedder

    mats = [m for m in (_wording_vectors(c) for c in dict.fromkeys(clause_ids)) if m is not None]
    spans = [s for s in spans if s.strip()]
    if not mats or not spans:
        return None
    p = np.asarray(get_embedder().get_text_embedding_batch(spans), dtype=np.float32)
    p /= np.maximum(np.linalg.norm(p, axis=1, keepdims=True), 1e-9)
    return float(max((p @ m.T).max() for m in mats))


def present_probability(ev: dict[str, float], coef=None) -> float | None:
    """P(the clause is present) from :func:`evidence` by the logistic model ``coef`` (default :data:`COEF`);
    ``None`` when there is no model or a feature is missing."""
    coef = COEF if coef is None else coef
    if coef is None or any(f not in ev for f in MODEL_FEATURES):
        return None
    b0, w = coef
    z = b0 + sum(wi * ev[f] for wi, f in zip(w, MODEL_FEATURES))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


# --- every passages cell of a clause-type column: the clause's form in the retrieved chunks ----------

#: (intercept, weights of (form_margin, near)) of the logistic model of "the clause is present" for a
#: passages cell whose question names a clause type, answered by the passages answer or not: the mean of
#: the five fold models of a 5-fold CV grouped by CUAD contract on the 109 dev cells (scikit-learn
#: LogisticRegression, class_weight balanced, C=1 on standardised features, converted to raw units;
#: bench/grid_choose.py, bench/README.md "Review grid: a grid-own 'not found' from the clause's form",
#: 2026-12-02). ``form_margin`` is :func:`form_margin`; ``near`` :func:`core.grid.closeness` (0 when None).
FORM_COEF: tuple[float, tuple[float, float]] = (-1.577, (17.033, 0.93))
#: The cell shows its passages (answered or weak) when the model's log-odds is at least this, else it is
#: "not found". Chosen in every fold (5/5) as the value of -1.5 … 1 (step 0.25) maximising
#: min(gold shown / 0.85, absent "not found" / 0.8) on the training folds: the issue's two targets,
#: each as the share reached, so neither figure is bought with the other.
FORM_THRESHOLD = -0.25


def form_margin(candidates) -> float | None:
    """The best ``form_margin`` (:mod:`core.grid_places`) of the candidate spans of a cell's retrieved
    chunks: how much more some span of them reads like the asked clause type's wording than like any
    other type's (a difference of cosines, -2 … 2). ``None`` without candidates or without a clause type (all 0)."""
    vals = [c.features.get("form_margin", 0.0) for c in candidates]
    if not vals or all(c.features.get("form", 0.0) == 0.0 for c in candidates):
        return None
    return float(max(vals))


def present_log_odds(form_margin_: float, near: float | None, coef=None) -> float:
    """Log-odds of "the clause is present" by :data:`FORM_COEF` (or ``coef``) from :func:`form_margin`
    and the passages answer's closeness (``None`` → 0); compared with :data:`FORM_THRESHOLD`."""
    b0, (w_form, w_near) = FORM_COEF if coef is None else coef
    return b0 + w_form * float(form_margin_) + w_near * float(near or 0.0)

