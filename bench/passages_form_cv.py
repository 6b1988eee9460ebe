"""Issue #20, abstain pass, phase 2: replay a "the clause's form is not there → abstain" rule over the
records of ``bench/passages_form.py collect``, with its parameters chosen by cross-validation grouped by
contract (a contract's every phrasing — ``-nat``, ``-para``, template — in one fold).

The rule only ever turns an *answered* passages result into an abstention (its passages then shown as weak);
it applies where :func:`core.passage_decision.applies` does (the question names its document, asks for a
clause type the vocabulary recognises, its best span is in its language). Per such case the evidence is
read from the candidate spans of the retrieved chunks (:func:`core.grid_places.place_candidates`):

* ``fm_all``: the best ``form_margin`` of any span (the grid's :func:`core.grid_decision.form_margin`);
* ``fm_top``: the ``form_margin`` of the best-scoring span (the span the answer rests on);
* ``fm_near``: the best ``form_margin`` of the spans within 0.1 of the best score;
* ``near``: best score / threshold.

Per fold a logistic model (scikit-learn, balanced classes, C=1) of "answerable" on the training part's
applicable answered cases, then the cut on its probability (0.05 … 0.95) by the objective (``--objective``):

* ``budget``: the highest cut under which the answered gold quotes lost stay within ``--budget`` (share
  of the training part's shown gold quotes);
* ``balanced``: the cut maximising (false answers removed / must-abstain answered) − (gold quotes lost /
  gold quotes shown) on the training part.

Held out: each case judged by the model of the fold that held its contract out; 10 partitions, figures
averaged (min–max). Usage::

    python bench/passages_form_cv.py REC_nat.jsonl REC_para.jsonl REC_txt.jsonl --cases-root DIR \
        --features fm_all --raw [--objective budget --budget 0.02] [--auc] [--fixed fm_all:0]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

import numpy as np

CUTS = [round(0.05 * i, 2) for i in range(1, 20)]
RAW_CUTS = [round(-0.1 + 0.005 * i, 3) for i in range(31)]  # -0.1 … 0.05 (a form margin's units)


def load(paths: list[str], cases_root: Path) -> list[dict]:
    """Records joined with their case's contract (``source.doc``) and CUAD category."""
    src = {}
    for f in [cases_root / "cuad_natural" / f"cases_{v}.jsonl" for v in ("nat", "es", "para")] + [
            cases_root / "cuad" / "cases.jsonl"]:
        if f.exists():
            for line in f.read_text(encoding="utf-8").splitlines():
                c = json.loads(line)
                src[c["case_id"]] = c.get("source", {})
    out = []
    for p in paths:
        name = Path(p).stem.replace("rec_", "")
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            r["set"] = name
            s = src.get(r["case_id"], {})
            r["doc"] = s.get("doc") or (r["scope"][0] if r["scope"] else r["case_id"])
            r["category"] = s.get("category", "")
            out.append(r)
    return out


def features(r: dict) -> dict[str, float] | None:
    """The case's evidence, ``None`` where the rule does not apply (see the module doc)."""
    if r["status"] != "answered" or not r.get("clause_types") or not r.get("cleaned") or r.get("cross"):
        return None
    spans = r.get("spans") or []
    if not spans:
        return None
    best = max(s["score"] for s in spans)
    top = max(spans, key=lambda s: s["score"])
    near_spans = [s for s in spans if s["score"] >= best - 0.1]
    shown = [s for s in spans if any(s["text"] in t or t in s["text"] for t in r.get("shown", []))]
    thr = r.get("threshold") or 1.0
    return {
        "fm_all": max(s["form_margin"] for s in spans),
        "fm_top": top["form_margin"],
        "fm_near": max(s["form_margin"] for s in near_spans),
        "fm_shown": max((s["form_margin"] for s in shown), default=min(s["form_margin"] for s in spans)),
        "form_all": max(s["form"] for s in spans),
        "head_all": max(s["head_margin"] for s in spans),
        "near": (r["best"] or best) / thr if thr > 0 else 1.0,
        "score": r["best"] or best,
    }


def evaluate_flip(recs: list[dict], flip: set[str]) -> dict[str, dict[str, int]]:
    """Per set: false answers, false abstentions, gold quotes shown (passage hit counts) with ``flip`` abstained."""
    out: dict[str, dict[str, int]] = {}
    for r in recs:
        o = out.setdefault(r["set"], {"fa": 0, "ma": 0, "fab": 0, "ans": 0, "hit": 0, "gold": 0})
        answered = r["status"] == "answered" and r["case_id"] not in flip
        if r["must_abstain"]:
            o["ma"] += 1
            o["fa"] += answered
        else:
            o["ans"] += 1
            o["fab"] += not answered
            o["gold"] += r["n_gold"]
            if answered:
                o["hit"] += sum(bool(x) for x in r["gold_shown"])
    return out


def fit(X: np.ndarray, y: np.ndarray):
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    sc = StandardScaler().fit(X)
    m = LogisticRegression(class_weight="balanced", C=1.0).fit(sc.transform(X), y)
    return sc, m


def choose_cut(p: np.ndarray, y: np.ndarray, hits: np.ndarray, total_hits: int, total_fa: int,
               objective: str, budget: float, grid=CUTS) -> float:
    # budget: no cut within it → -inf (nothing turned into an abstention)
    best_cut, best_val = (float("-inf") if objective == "budget" else grid[0]), -1e9
    for cut in grid:
        drop = p < cut
        removed = int((drop & (y == 0)).sum())
        lost = int(hits[drop].sum())
        if objective == "budget":
            if lost <= budget * max(total_hits, 1) and cut > best_cut:
                best_cut = cut
        else:
            val = removed / max(total_fa, 1) - lost / max(total_hits, 1)
            if val > best_val + 1e-12:
                best_val, best_cut = val, cut
    return best_cut


def fixed(recs: list[dict], feat: str, value: float) -> None:
    """An a-priori rule, nothing fitted: abstain when ``feat`` < ``value`` (e.g. ``fm_all:0`` — no retrieved span
    reads more like the asked type's wording than like any other type's)."""
    flip = {r["case_id"] for r in recs if (f := features(r)) is not None and f[feat] < value}
    base, after = evaluate_flip(recs, set()), evaluate_flip(recs, flip)
    print(f"fixed rule {feat} < {value} (nothing fitted)")
    print("| set | false answers | false abstentions | passage hit |")
    print("|---|---|---|---|")
    for s in sorted(base):
        b, a = base[s], after[s]
        print(f"| {s} | {b['fa']} → {a['fa']} of {b['ma']} | {b['fab']} → {a['fab']} of {b['ans']} | "
              f"{b['hit'] / b['gold']:.3f} → {a['hit'] / b['gold']:.3f} ({b['hit']} → {a['hit']} of {b['gold']}) |")


def run(recs: list[dict], feats: list[str], objective: str, budget: float, folds: int = 5, repeats: int = 10,
        seed: int = 0, raw: bool = False) -> None:
    app = [(r, f) for r in recs if (f := features(r)) is not None]
    print(f"applicable answered cases: {len(app)} of {len(recs)} "
          f"(must-abstain {sum(r['must_abstain'] for r, _ in app)})")
    docs = sorted({r["doc"] for r in recs})
    base = evaluate_flip(recs, set())
    per_rep = []
    cuts = []
    coefs = []
    for rep in range(repeats):
        rng = random.Random(seed + rep)
        order = docs[:]
        rng.shuffle(order)
        fold_of = {d: i % folds for i, d in enumerate(order)}
        flip: set[str] = set()
        for k in range(folds):
            tr = [(r, f) for r, f in app if fold_of[r["doc"]] != k]
            te = [(r, f) for r, f in app if fold_of[r["doc"]] == k]
            X = np.array([[f[n] for n in feats] for _, f in tr])
            y = np.array([0 if r["must_abstain"] else 1 for r, _ in tr])
            if len(set(y)) < 2:
                continue
            if raw:  # one feature, its own units: the rule "feature < cut" (cut on RAW_CUTS)
                sc, m = None, None
                p = X[:, 0]
            else:
                sc, m = fit(X, y)
                p = m.predict_proba(sc.transform(X))[:, 1]
            hits = np.array([sum(bool(x) for x in r["gold_shown"]) for r, _ in tr])
            tr_recs = [r for r in recs if fold_of[r["doc"]] != k]
            total_hits = sum(sum(bool(x) for x in r["gold_shown"]) for r in tr_recs
                             if r["status"] == "answered" and not r["must_abstain"])
            total_fa = sum(r["must_abstain"] and r["status"] == "answered" for r in tr_recs)
            cut = choose_cut(p, y, hits, total_hits, total_fa, objective, budget, RAW_CUTS if raw else CUTS)
            cuts.append(cut)
            coefs.append(m.coef_[0] / sc.scale_ if m is not None else np.array([1.0]))
            if te:
                Xt = np.array([[f[n] for n in feats] for _, f in te])
                pt = Xt[:, 0] if raw else m.predict_proba(sc.transform(Xt))[:, 1]
                flip |= {r["case_id"] for (r, _), q in zip(te, pt) if q < cut}
        per_rep.append(evaluate_flip(recs, flip))
    fin = [c for c in cuts if c != float("-inf")] or [float("nan")]
    print(f"features {feats}, objective {objective}" + (f" budget {budget}" if objective == "budget" else "")
          + f"; cut over folds {float(np.mean(fin)):.3f} ± {float(np.std(fin)):.3f}"
          + f" ({len(cuts) - len(fin)} of {len(cuts)} folds: none within the budget); "
          f"weights (raw units) {np.round(np.mean(coefs, axis=0), 2).tolist()}")
    print("| set | false answers before → held out | false abstentions before → held out | passage hit before → held out |")
    print("|---|---|---|---|")
    for s in sorted(base):
        b = base[s]

        def agg(key):
            vals = [pr[s][key] for pr in per_rep]
            return statistics.mean(vals), min(vals), max(vals)

        fa, fab, hit = agg("fa"), agg("fab"), agg("hit")
        print(f"| {s} | {b['fa']} → {fa[0]:.1f} ({fa[1]}–{fa[2]}) of {b['ma']} | {b['fab']} → {fab[0]:.1f} "
              f"({fab[1]}–{fab[2]}) of {b['ans']} | {b['hit'] / b['gold']:.3f} → {hit[0] / b['gold']:.3f} "
              f"({hit[1]}–{hit[2]} of {b['gold']}) |")


def auc_table(recs: list[dict]) -> None:
    from sklearn.metrics import roc_auc_score

    app = [(r, f) for r in recs if (f := features(r)) is not None]
    y = [0 if r["must_abstain"] else 1 for r, _ in app]
    print("ROC AUC answerable vs must-abstain among applicable answered cases (in-sample, descriptive):")
    for n in app[0][1]:
        print(f"  {n}: {roc_auc_score(y, [f[n] for _, f in app]):.3f}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("records", nargs="+")
    p.add_argument("--cases-root", required=True)
    p.add_argument("--features", default="fm_all,near")
    p.add_argument("--objective", default="budget", choices=["budget", "balanced"])
    p.add_argument("--budget", type=float, default=0.02)
    p.add_argument("--auc", action="store_true")
    p.add_argument("--raw", action="store_true", help="one feature: cut on its own values (RAW_CUTS), no model")
    p.add_argument("--fixed", help="FEATURE:VALUE, an a-priori rule instead of the CV")
    args = p.parse_args()
    recs = load(args.records, Path(args.cases_root))
    if args.auc:
        auc_table(recs)
    if args.fixed:
        feat, value = args.fixed.split(":")
        fixed(recs, feat, float(value))
        return
    run(recs, args.features.split(","), args.objective, args.budget, raw=args.raw)


if __name__ == "__main__":
    main()
