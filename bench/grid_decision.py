"""The grid's "weak" / "not found" decision by 5-fold cross-validation grouped by contract (issue #25).

    python bench/grid_decision.py REPORT.json      # REPORT: verbatim eval CASES --grid --json REPORT.json

For the abstained cells of the report (passages answer under its threshold), compares held out:

* ``ratio`` — today's rule: weak when the best span's closeness (score / threshold) >= a ratio,
  the ratio maximising balanced accuracy on the four training folds (bench/grid.py weak-ratio);
* ``logistic[FEATURES]`` — a logistic regression (scikit-learn, class_weight balanced, C=1 on
  standardised features) of "the clause is present" on the document-relative evidence of
  :func:`core.grid_decision.evidence`, fitted on four folds, weak when P >= 0.5 on the fifth.

Folds: the contracts shuffled with seed 0, every fifth in a fold (as bench/grid.py weak-ratio).
Prints each variant's held-out figures (gold in the cell, answered or weak; absent "not found"),
each feature's ROC AUC (in-sample, descriptive only), and the mean of the fold models'
coefficients in raw feature units (what core.grid_decision.COEF holds).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.grid_decision import FEATURES, MODEL_FEATURES, evidence  # noqa: E402

GRID = [round(0.5 + 0.02 * i, 2) for i in range(31)]
FALLBACK_RATIO = 0.85  # settings.grid_weak_ratio


def _vec(c: dict, feats) -> list[float]:
    return [float(c["evidence"].get(f, 0.0)) for f in feats]


def figures(cells: list[dict], weak: dict[int, bool]) -> tuple[int, int, int, int]:
    """(gold shown, answerable, absent not found, absent) with ``weak[i]`` deciding abstained cell i."""
    gold = ans = nf = ab = 0
    for i, c in enumerate(cells):
        is_weak = c["status"] != "answered" and weak.get(i, False)
        if c["must_abstain"]:
            ab += 1
            nf += c["status"] != "answered" and not is_weak
        else:
            ans += 1
            gold += (c["status"] == "answered" and c["hit"]) or (is_weak and c["covered"])
    return gold, ans, nf, ab


def balanced(cells, weak) -> float:
    g, a, n, b = figures(cells, weak)
    return (g / a + n / b) / 2


def main() -> None:
    cells = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["cells"]
    for c in cells:  # recomputed from the stored place scores (the report may predate a feature)
        if c.get("place_scores"):
            c["evidence"] = evidence(c["closeness"], c["place_scores"], c["evidence"].get("form"))
    docs = sorted({c["doc_id"] for c in cells})
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]
    abst = [i for i, c in enumerate(cells) if c["status"] != "answered" and c.get("evidence")
            and all(f in c["evidence"] for f in MODEL_FEATURES)]
    print(f"{len(cells)} cells, {len(abst)} abstained with evidence "
          f"({sum(cells[i]['must_abstain'] for i in abst)} absent clauses)")
    y_all = np.array([0 if cells[i]["must_abstain"] else 1 for i in abst])
    for f in FEATURES:
        x = np.array([cells[i]["evidence"][f] for i in abst])
        print(f"  ROC AUC present vs absent, {f}: {roc_auc_score(y_all, x):.3f} (in-sample, descriptive)")

    # the ratio rule, held out
    held: dict[int, bool] = {}
    ratios = []
    for fold in folds:
        train = [c for c in cells if c["doc_id"] not in fold]
        tr_idx = [i for i, c in enumerate(cells) if c["doc_id"] not in fold]

        def rule(r, idx=tr_idx):
            return {j: (cells[i]["closeness"] or 0.0) >= r for j, i in enumerate(idx)}
        r = max(GRID, key=lambda x: (balanced(train, rule(x)), -abs(x - 0.9)))
        ratios.append(r)
        for i, c in enumerate(cells):
            if c["doc_id"] in fold:
                held[i] = (c["closeness"] or 0.0) >= r
    g, a, n, b = figures(cells, held)
    print(f"ratio (per fold {ratios}): gold in cell {g}/{a} = {g / a:.3f}, absent not found {n}/{b} = {n / b:.3f}")

    variants = [("near",), ("form",), ("near", "lead"), ("near", "gap"), ("near", "first"), MODEL_FEATURES,
                ("near", "form", "lead"), FEATURES]
    for feats in variants:
        held = {}
        coefs = []
        for fold in folds:
            tr = [i for i in abst if cells[i]["doc_id"] not in fold]
            x = np.array([_vec(cells[i], feats) for i in tr])
            y = np.array([0 if cells[i]["must_abstain"] else 1 for i in tr])
            mu, sd = x.mean(0), x.std(0) + 1e-9
            m = LogisticRegression(class_weight="balanced", C=1.0).fit((x - mu) / sd, y)
            w = m.coef_[0] / sd
            b0 = float(m.intercept_[0] - (m.coef_[0] * mu / sd).sum())
            coefs.append((b0, w))
            for i in abst:
                if cells[i]["doc_id"] in fold:
                    z = b0 + float(np.dot(w, _vec(cells[i], feats)))
                    held[i] = z >= 0
        for i, c in enumerate(cells):  # no form (free question): the product falls back on the ratio
            if c["status"] != "answered" and i not in held:
                held[i] = (c["closeness"] or 0.0) >= FALLBACK_RATIO
        g, a, n, b = figures(cells, held)
        mb = np.mean([c[0] for c in coefs])
        mw = np.mean([c[1] for c in coefs], axis=0)
        ins = {i: mb + float(np.dot(mw, _vec(cells[i], feats))) >= 0 for i in abst}
        gi, _, ni, _ = figures(cells, ins)
        print(f"logistic{list(feats)}: gold in cell {g}/{a} = {g / a:.3f}, absent not found {n}/{b} = {n / b:.3f}; "
              f"mean coef intercept {mb:.3f}, weights {np.round(mw, 3).tolist()}")
        print(f"    the mean model on every cell (in-sample): gold in cell {gi}/{a}, absent not found {ni}/{b}")
    answered_too(cells, folds)


def answered_too(cells: list[dict], folds: list[set]) -> None:
    """Variant: the model (MODEL_FEATURES, fitted on every passages cell) also turns an *answered*
    passages cell 'not found' when P(present) < 0.5 (abstained cells: weak when >= 0.5)."""
    idx = [i for i, c in enumerate(cells) if c.get("evidence") and all(f in c["evidence"] for f in MODEL_FEATURES)]
    if not any(cells[i]["status"] == "answered" for i in idx):
        print("answered cells carry no evidence in this report: variant skipped")
        return
    decided: dict[int, bool] = {}  # True = shown (answered kept / weak), False = not found
    for fold in folds:
        tr = [i for i in idx if cells[i]["doc_id"] not in fold]
        x = np.array([_vec(cells[i], MODEL_FEATURES) for i in tr])
        y = np.array([0 if cells[i]["must_abstain"] else 1 for i in tr])
        mu, sd = x.mean(0), x.std(0) + 1e-9
        m = LogisticRegression(class_weight="balanced", C=1.0).fit((x - mu) / sd, y)
        for i in idx:
            if cells[i]["doc_id"] in fold:
                decided[i] = bool(m.predict(((np.array(_vec(cells[i], MODEL_FEATURES)) - mu) / sd)[None])[0])
    gold = ans = nf = ab = 0
    for i, c in enumerate(cells):
        shown = decided.get(i, c["status"] != "not_found")
        if c["must_abstain"]:
            ab += 1
            nf += not shown
        else:
            ans += 1
            gold += shown and (c["hit"] if c["status"] == "answered" else c["covered"])
    print(f"answered cells decided too (held out): gold in cell {gold}/{ans} = {gold / ans:.3f}, "
          f"absent not found {nf}/{ab} = {nf / ab:.3f}")


if __name__ == "__main__":
    main()
