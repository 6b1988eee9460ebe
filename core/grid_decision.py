"""Evidence for a review-grid cell's "weak" / "not found" decision, relative to its own document.

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
  retriever's first chunk holds the best span: retriever and span scoring agree; negative else).

:func:`present_probability` combines them with a logistic model whose coefficients
(:data:`COEF`) are the means of the five fold models of a 5-fold cross-validation grouped by CUAD
contract (never fitted on the whole dev set at once): ``python bench/grid.py decision REPORT.json``
(bench/README.md, "Review grid: the embedded model and a document-relative 'not found'",
2026-12-02).
"""

from __future__ import annotations

import math
import statistics

#: Features of :func:`evidence`, in the order of :data:`COEF`'s weights.
FEATURES = ("near", "lead", "gap", "first")

#: (intercept, weights of FEATURES) of the logistic model; ``None`` weights = the model is not used
#: and the grid falls back to ``grid_weak_ratio`` on ``near`` alone.
COEF: tuple[float, tuple[float, ...]] | None = None


def evidence(near: float | None, place_scores: list[float]) -> dict[str, float]:
    """The cell's document-relative evidence.

    Args:
        near: :func:`core.grid.closeness` of the answer (``None``: not a passages answer → 0).
        place_scores: each retrieved chunk's best span score (:func:`core.grid_cells.place_passages`),
            in retrieval order. Fewer than two → ``lead``, ``gap`` and ``first`` are 0.

    Returns:
        ``{"near", "lead", "gap", "first"}`` floats (score units; ``near`` a ratio).
    """
    ordered = [float(s) for s in place_scores]
    scores = sorted(ordered, reverse=True)
    two = len(scores) >= 2
    lead = scores[0] - statistics.median(scores) if two else 0.0
    gap = scores[0] - scores[1] if two else 0.0
    first = ordered[0] - scores[0] if two else 0.0
    return {"near": float(near or 0.0), "lead": round(lead, 4), "gap": round(gap, 4), "first": round(first, 4)}


def present_probability(ev: dict[str, float], coef=None) -> float | None:
    """P(the clause is present) from :func:`evidence` by the logistic model ``coef`` (default :data:`COEF`);
    ``None`` when there is no model or a feature is missing."""
    coef = COEF if coef is None else coef
    if coef is None or any(f not in ev for f in FEATURES):
        return None
    b0, w = coef
    z = b0 + sum(wi * ev[f] for wi, f in zip(w, FEATURES))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
