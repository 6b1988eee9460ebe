"""What a clause-type grid cell shows and whether it is "not found", chosen by 5-fold CV grouped by contract (issue #25).

    python bench/grid_places.py --index-dir DIR --out places.json   # per-candidate evidence of every dev cell
    python bench/grid_choose.py places.json [--report grid.json] [--features form_margin,...]

``--report``: a grid report (bench/grid.py cuad --json) whose cells' ``covered`` (the product's own
places, core.grid_cells.cell_passages, cover a gold quote) replaces the place key below when counting
gold shown: the product keeps its places (held out, the place key gained 2 of 77 over the passages'
order and the product's places already cover 64 of 77), only the decision is chosen.

Per fold (the contracts shuffled with seed 0, every fifth in a fold, as bench/grid.py weak-ratio), on the
four training folds only:

1. the place key's weights (``order + a·form_margin + b·head_margin + c/(1 + rank)``, grid below) that put
   a gold clause among the cell's :data:`core.grid_cells.CELL_PASSAGES` distinct places most often;
2. ``k``, the retrieved chunks whose spans give the form evidence (``fm`` = the best ``form_margin`` of
   a span of the first ``k`` chunks), among :data:`KS`;
3. a logistic regression (scikit-learn, class_weight balanced, C=1, standardised) of "the clause is
   present" on ``fm`` and ``near`` (best span score / the passages answer's threshold), over every
   cell (answered ones too);
4. the decision threshold on its log-odds (grid :data:`THRESHOLDS`) maximising
   ``min(gold shown / 0.85, absent not found / 0.8)``: the issue's two targets, each as the share of
   its target reached, so neither figure is bought with the other.

Then scored on the held-out fold. Prints the held-out figures, the per-fold choices, and the
parameters the product takes (core.grid_choose): the mean of the fold models' coefficients in raw
units, the mean threshold, the most chosen ``k`` and place weights.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

PLACE_GRID = list(itertools.product([0.0, 0.5, 1.0, 2.0], [0.0, 0.25, 0.5, 1.0], [0.0, 0.1, 0.3, 0.6, 1.0]))
KS = (10,)
THRESHOLDS = [round(x, 2) for x in np.arange(-1.5, 1.01, 0.25)]
TARGET_GOLD, TARGET_ABSENT = 0.85, 0.80


def key_of(w):
    a, b, c = w
    return lambda k: k["order"] + a * k["form_margin"] + b * k["head_margin"] + c / (1 + k["rank"])


def shown(cell: dict, w, n: int = 3) -> list[dict]:
    """The cell's places under weights ``w``: best candidate first, one per chunk."""
    out, seen = [], set()
    for k in sorted(cell["candidates"], key=key_of(w), reverse=True):
        if k["chunk_id"] in seen:
            continue
        seen.add(k["chunk_id"])
        out.append(k)
        if len(out) >= n:
            break
    return out


#: case_id -> whether the product's own places (core.grid_cells.cell_passages) cover a gold quote, from a
#: grid report (``--report``, bench/grid.py cuad --json); empty: the place key of PLACE_GRID decides.
PRODUCT_COVERED: dict[str, bool] = {}


def covered(cell: dict, w) -> bool:
    if PRODUCT_COVERED:
        return PRODUCT_COVERED[cell["case_id"]]
    return any(k["covered"] for k in shown(cell, w))


#: Cell features of the model: the best value over the candidate spans of the first k chunks of each
#: span feature, then ``near``. ``--features`` compares other span features (held out, same folds).
SPAN_FEATURES = ["form_margin"]


def feats(cell: dict, k: int) -> list[float]:
    near = (cell["best"] or 0.0) / cell["threshold"] if cell["threshold"] and cell["threshold"] > 0 else 0.0
    out = [cell["product_form_margin"] if f == "form_margin" and cell.get("product_form_margin") is not None
           and k >= 10 else  # the product's own value where places.json has it (grid_places.py, grid2)
           max((c[f] for c in cell["candidates"] if c["rank"] < k), default=-1.0) for f in SPAN_FEATURES]
    return out + [near]


def figures(cells, w, z: dict, t: float) -> tuple[int, int, int, int]:
    g = a = n = b = 0
    for c in cells:
        keep = z[c["case_id"]] >= t
        if c["must_abstain"]:
            b += 1
            n += not keep
        else:
            a += 1
            g += keep and covered(c, w)
    return g, a, n, b


def objective(g, a, n, b) -> float:
    return min(g / a / TARGET_GOLD, n / b / TARGET_ABSENT) if a and b else 0.0


def fit(train, k):
    x = np.array([feats(c, k) for c in train])
    y = np.array([0 if c["must_abstain"] else 1 for c in train])
    mu, sd = x.mean(0), x.std(0) + 1e-9
    m = LogisticRegression(class_weight="balanced", C=1.0).fit((x - mu) / sd, y)
    w = m.coef_[0] / sd
    b0 = float(m.intercept_[0] - (m.coef_[0] * mu / sd).sum())
    return b0, w


def score(cells, k, coef) -> dict:
    b0, w = coef
    return {c["case_id"]: b0 + float(np.dot(w, feats(c, k))) for c in cells}


def main() -> None:
    if "--features" in sys.argv:  # e.g. --features form_margin,cos_wording
        SPAN_FEATURES[:] = sys.argv[sys.argv.index("--features") + 1].split(",")
    if "--report" in sys.argv:  # the product's places instead of the place key
        report = json.loads(Path(sys.argv[sys.argv.index("--report") + 1]).read_text(encoding="utf-8"))
        PRODUCT_COVERED.update({c["case_id"]: bool(c["covered"]) for c in report["cells"]})
    cells = [c for c in json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")) if c["candidates"]]
    docs = sorted({c["doc_id"] for c in cells})
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]
    held: dict[str, float] = {}
    held_t: dict[str, float] = {}
    held_w: dict[str, tuple] = {}
    choices = []
    for fold in folds:
        train = [c for c in cells if c["doc_id"] not in fold]
        test = [c for c in cells if c["doc_id"] in fold]
        pos = [c for c in train if not c["must_abstain"]]
        w = max(PLACE_GRID, key=lambda w: (sum(covered(c, w) for c in pos), -sum(w)))
        best = None
        for k in KS:
            coef = fit(train, k)
            z = score(train, k, coef)
            for t in THRESHOLDS:
                val = (objective(*figures(train, w, z, t)), -abs(t), -k)
                if best is None or val > best[0]:
                    best = (val, k, coef, t)
        _, k, coef, t = best
        choices.append((w, k, coef, t))
        for c in test:
            held[c["case_id"]] = score([c], k, coef)[c["case_id"]]
            held_t[c["case_id"]] = t
            held_w[c["case_id"]] = w
    g = sum(held[c["case_id"]] >= held_t[c["case_id"]] and covered(c, held_w[c["case_id"]])
            for c in cells if not c["must_abstain"])
    a = sum(not c["must_abstain"] for c in cells)
    n = sum(held[c["case_id"]] < held_t[c["case_id"]] for c in cells if c["must_abstain"])
    b = sum(c["must_abstain"] for c in cells)
    cov = sum(covered(c, held_w[c["case_id"]]) for c in cells if not c["must_abstain"])
    base = sum(covered(c, (0.0, 0.0, 0.0)) for c in cells if not c["must_abstain"])
    print(f"{len(cells)} cells ({a} with a gold clause, {b} absent); features {SPAN_FEATURES} + near")
    print(f"held out: gold among the shown places {cov}/{a} (place key by the passages' order alone: {base}/{a})")
    print(f"held out: gold shown (not 'not found' and covered) {g}/{a} = {g / a:.3f}; "
          f"absent 'not found' {n}/{b} = {n / b:.3f}")
    for i, (w, k, coef, t) in enumerate(choices, 1):
        print(f"fold {i}: place weights {w}, k {k}, coef ({coef[0]:.3f}, {np.round(coef[1], 3).tolist()}), threshold {t}")
    ks = Counter(k for _, k, _, _ in choices)
    k_final = ks.most_common(1)[0][0]
    ws = Counter(w for w, _, _, _ in choices)
    mb = float(np.mean([c[2][0] for c in choices]))
    mw = np.mean([c[2][1] for c in choices], axis=0)
    print(f"product: place weights {ws.most_common(1)[0][0]} (chosen {ws.most_common(1)[0][1]}/5), k {k_final} "
          f"({ks[k_final]}/5), coef ({mb:.3f}, {np.round(mw, 3).tolist()}), "
          f"threshold {statistics.mean(t for *_, t in choices):.3f}")


if __name__ == "__main__":
    main()
