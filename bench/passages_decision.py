"""Issue #20, third pass: the passages answer's answer/abstain decision from several pieces of evidence.

Reads the records of ``bench/passages_natural.py`` (``--out records.json``: every case of cuad_natural
``-nat``/``-es``/``-para``, the CUAD template cases, XQuAD-es with Spanish and English questions, B46, and
the lab, each with its scored spans and the retriever's evidence) and compares, held out, the decision of
the app before this pass (the best span's calibrated score against the settings' four thresholds) with a
logistic regression over the evidence of :func:`core.passage_decision.features` (scikit-learn, fitted
here — scikit-learn comes installed with sentence-transformers, as for bench/support.py; the app carries
only the weights, so it is no dependency of the app).

The app's configuration (``core.passage_decision``): ``--features score,wording,synonyms --per-group
--cleaned-only --same-language-only`` — the model decides only for questions that name their document, ask
for a clause type and are answered in their own language; the others keep the settings' thresholds.

Cross-validation: 5 folds grouped by document (a CUAD contract's four phrasings and an XQuAD article's two
languages in one fold), 10 partitions; B46 and the lab are never fitted on (judged with every fold's model:
they must stay right). In each fold the model is fitted on the training cases (label: the case is
answerable), and its cut is chosen on the training cases by the objective (``--objective``):

* ``no-more-false`` (default): the lowest cut whose false answers on the training part's must-abstain
  cases are no more than the settings' thresholds give there — as many answers as the false answers
  of before allow;
* ``balanced``: the cut of best balanced accuracy (answerable answered, must-abstain abstained).

Held out, each case is judged once with the model of the fold that held it out (first partition);
passage hit = a gold quote covered by a shown passage or its clause, only when answered (a weak passage
of an abstention never counts as a hit).

Floor (``--floor``, 2026-12-02, engineer "decision"): the model's per-question threshold has no lower bound
(a span worded like the clause type asked for brings it under 0, so a passage scoring 0.2–0.4 was shown as
THE answer when the clause type was misread: bench/README.md "Decision floor"). In each fold the floor is the
highest value of a 0.01 grid under which no answerable case the fold's model answers on the training part
falls (a floor that costs the training part no answer); held out, a case the model answers is still abstained
when its best span scores under its fold's floor. ``--final`` prints the floor chosen on every case.

Usage::

    python bench/passages_decision.py records.json [lab.json] [--objective no-more-false] [--floor] [--final]

``--final`` fits on every CUAD/XQuAD case and prints the weights for ``core.passage_decision``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import passages_natural as pn  # noqa: E402

FOLDS = 5
REPEATS = 10
USE: list[int] = []
"""Indices of :data:`core.passage_decision.FEATURES` the model reads (``--features``; all by default)."""
PER_GROUP = False
FLOOR = False
"""``--floor``: a floor under the model's threshold, chosen per fold (module docstring)."""
CLEANED_ONLY = False
SAME_ONLY = False
"""``--same-language-only`` (with ``--cleaned-only``): questions whose best span is in another language keep
the settings' thresholds too."""
"""``--cleaned-only``: the model decides only for questions scored without their document's names (fitted on
those); the others keep the settings' thresholds (:func:`baseline_answered`)."""
"""``--per-group``: one cut per group (cross-language x cleaned), each keeping its group's false answers."""


def decided(record: dict) -> bool:
    """Whether the model decides this record (``--cleaned-only``: the question names its document and asks for
    a clause type the vocabulary recognises; the others keep the settings' thresholds)."""
    if not CLEANED_ONLY:
        return True
    cross = pn.group_of(record, ("cleaned", "cross"))[1]
    return record["cleaned"] and bool(record.get("clause_types")) and not (SAME_ONLY and cross)


def group(record: dict) -> tuple[str, str]:
    """The fold unit: a CUAD contract (all four phrasings), an XQuAD article (both languages)."""
    return record["corpus"].split("_")[0], record["doc"]


VARIANT: set[str] = set()
"""``--variant`` (tried 2026-12-02, engineer "decision"; bench/README.md "Decision floor"): ``top-wording``: the
wording feature is the cosine of the best-scoring span (the one the decision rests on) with the clause type's
wording, not the best of any span; ``near-wording``: the best of the spans within 0.1 of the best score;
``no-redacted``: spans holding a redaction mark (``[***]``) are no evidence; ``clause-confidence``: two more
features, the cleaned question's cosine with the recognised clause type's nearest ask phrase
(:func:`core.clauses.semantic_scores`) and its margin over the next type's."""
_REDACTED = None
_CONF: dict[str, tuple[float, float]] = {}


def _confidence(record: dict) -> tuple[float, float]:
    """(cosine with the recognised type's nearest ask phrase, margin over the best other type) of the question
    without its document's names; embedded once per question."""
    if record["query"] not in _CONF:
        from core.clauses import semantic_scores
        from core.store import get_embedder

        sims = {c.id: v for c, v in semantic_scores(get_embedder().get_query_embedding(record["query"]))}
        mine = max((sims.get(t, -1.0) for t in record.get("clause_types") or []), default=0.0)
        other = max((v for t, v in sims.items() if t not in (record.get("clause_types") or [])), default=0.0)
        _CONF[record["query"]] = (mine, mine - other)
    return _CONF[record["query"]]


def feats(record: dict) -> list[float]:
    """The decision's evidence for one record (:func:`core.passage_decision.features`; ``--variant``)."""
    import re

    from core.passage_decision import SpanEvidence, features

    global _REDACTED
    records = record["spans"]
    if "no-redacted" in VARIANT:
        _REDACTED = _REDACTED or re.compile(r"\[\s*\*+\s*\]|\*{3,}|\[\s*redacted\s*\]", re.I)
        records = [s for s in records if not _REDACTED.search(s["text"])]
    spans = [SpanEvidence(cos=s["cos"], terms=s["terms"], syn=s.get("syn"), cos_wording=s.get("cos_w", 0.0))
             for s in records]
    f = features(spans)
    if spans and VARIANT & {"top-wording", "near-wording"}:
        top = max(spans, key=lambda s: s.score())
        near = [s for s in spans if s.score() >= top.score() - (0.1 if "near-wording" in VARIANT else 0.0)]
        f[1] = max(s.cos_wording for s in near)
    f = [f[i] for i in USE] if USE else f
    return f + list(_confidence(record)) if "clause-confidence" in VARIANT else f


def baseline_answered(record: dict) -> bool:
    """The decision before this pass: the best span's score against the settings' threshold of its group."""
    g = pn.group_of(record, ("cleaned", "cross"))
    return pn.bp.best(record, 0.5) >= pn._setting(g, ("cleaned", "cross"))


def hits(record: dict, answered: bool, settings) -> tuple[int, int, int]:
    """(gold quotes hit with their clause, hit sentence alone, shown only as weak) at this decision."""
    js = pn.judge(record, -1e9 if answered else 1e9, 0.5, settings)
    assert js["answered"] == answered or not record["spans"]
    if not record["spans"]:
        return 0, 0, 0
    return sum(js["clause"]), sum(js["sentence"]), sum(js["weak"])


def fit(X, y):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000)).fit(X, y)


def gkey(record: dict) -> tuple:
    return pn.group_of(record, ("cleaned", "cross")) if PER_GROUP else ()


def choose_cuts(p: list[float], records: list[dict], objective: str) -> dict:
    """One cut per group (:func:`gkey`) chosen on that group's training cases."""
    out = {}
    for g in sorted({gkey(r) for r in records}):
        idx = [i for i, r in enumerate(records) if gkey(r) == g]
        out[g] = choose_cut([p[i] for i in idx], [records[i] for i in idx], objective)
    return out


def choose_cut(p: list[float], records: list[dict], objective: str) -> float:
    """The probability cut on training cases (see the module docstring)."""
    can = [i for i, r in enumerate(records) if not r["must_abstain"]]
    must = [i for i, r in enumerate(records) if r["must_abstain"]]
    grid = sorted(set(round(x, 3) for x in p)) + [1.01]
    if objective == "balanced":
        def bal(c):
            return (sum(p[i] >= c for i in can) / max(1, len(can)) + sum(p[i] < c for i in must) / max(1, len(must)))
        return max(grid, key=lambda c: (bal(c), c))
    allowed = sum(baseline_answered(records[i]) for i in must)
    ok = [c for c in grid if sum(p[i] >= c for i in must) <= allowed]
    return min(ok)


def choose_floor(p: list[float], records: list[dict], cuts: dict) -> float:
    """The highest floor (0.01 grid, 0–1) under which no answerable training case the model answers falls: a
    floor costing the training part no answer (``-1`` without ``--floor``)."""
    if not FLOOR:
        return -1.0
    answered = [pn.bp.best(r, 0.5) for pr, r in zip(p, records)
                if not r["must_abstain"] and r["spans"] and pr >= cuts.get(gkey(r), 0.5)]
    low = min(answered, default=0.0)
    return max((round(x * 0.01, 2) for x in range(0, 101) if x * 0.01 <= low), default=0.0)


def evaluate(records: list[dict], checks: list[dict], objective: str) -> None:
    import numpy as np
    from core.settings import Settings

    settings = Settings()
    all_records = records
    if CLEANED_ONLY:
        records = [r for r in records if decided(r)]
    X = np.array([feats(r) for r in records])
    y = np.array([0 if r["must_abstain"] else 1 for r in records])
    Xc = np.array([feats(r) for r in checks]) if checks else None
    groups = sorted({group(r) for r in records})
    held: dict[int, bool] = {}
    held_p: dict[int, float] = {}
    check_votes: list[list[bool]] = [[] for _ in checks]
    cuts, coefs, floors = [], [], []
    for rep in range(REPEATS):
        order = list(groups)
        random.Random(rep).shuffle(order)
        fold_of = {g: i % FOLDS for i, g in enumerate(order)}
        for f in range(FOLDS):
            tr = [i for i, r in enumerate(records) if fold_of[group(r)] != f]
            te = [i for i, r in enumerate(records) if fold_of[group(r)] == f]
            model = fit(X[tr], y[tr])
            p_tr = model.predict_proba(X[tr])[:, 1]
            cut = choose_cuts(list(p_tr), [records[i] for i in tr], objective)
            floor = choose_floor(list(p_tr), [records[i] for i in tr], cut)
            floors.append(floor)
            cuts.append(statistics.mean(cut.values()))
            coefs.append(model[-1].coef_[0] / model[0].scale_)
            if rep == 0:
                p_te = model.predict_proba(X[te])[:, 1]
                for i, p in zip(te, p_te):
                    held[i] = bool(p >= cut.get(gkey(records[i]), 0.5)) and pn.bp.best(records[i], 0.5) >= floor
                    held_p[i] = float(p) - cut.get(gkey(records[i]), 0.5)
            if checks:
                pc = model.predict_proba(Xc)[:, 1]
                for j, p in enumerate(pc):
                    check_votes[j].append(bool(p >= cut.get(gkey(checks[j]), 0.5)
                                               and pn.bp.best(checks[j], 0.5) >= floor) if decided(checks[j])
                                          else baseline_answered(checks[j]))
    print(f"objective {objective}; cut {statistics.mean(cuts):.3f} ± {statistics.pstdev(cuts):.3f}"
          + (f"; floor {statistics.mean(floors):.3f} ± {statistics.pstdev(floors):.3f} "
             f"({min(floors):.2f}–{max(floors):.2f})" if FLOOR else ""))
    from core.passage_decision import FEATURES
    names = ([FEATURES[i] for i in USE] if USE else list(FEATURES)) + (
        ["type_cos", "type_margin"] if "clause-confidence" in VARIANT else [])
    mean = np.mean(coefs, axis=0)
    sd = np.std(coefs, axis=0)
    print("weights (raw units) mean ± sd over folds: " + ", ".join(
        f"{n} {m:+.2f}±{s:.2f}" for n, m, s in zip(names, mean, sd)))
    print("\n| set | false abst. before → after | false answers before → after | hit with clause before → after "
          "| sentence before → after | gold only weak before → after |")
    print("|---|---|---|---|---|---|")
    held_of = {id(records[i]): v for i, v in held.items()}
    _auc(records, held_p)
    corpora = list(dict.fromkeys(r["corpus"] for r in all_records))
    for corpus in corpora:
        rs = [r for r in all_records if r["corpus"] == corpus]
        _row(corpus, rs, [baseline_answered(r) for r in rs],
             [held_of.get(id(r), baseline_answered(r)) for r in rs], settings)
    if checks:
        for corpus in dict.fromkeys(r["corpus"] for r in checks):
            idx = [j for j, r in enumerate(checks) if r["corpus"] == corpus]
            after = [sum(check_votes[j]) * 2 > len(check_votes[j]) for j in idx]
            _row(corpus + " (every fold's model, majority)", [checks[j] for j in idx],
                 [baseline_answered(checks[j]) for j in idx], after, settings)
            for j in idx:
                r = checks[j]
                n = sum(check_votes[j])
                if (n and r["must_abstain"]) or (n < len(check_votes[j]) and not r["must_abstain"]):
                    print(f"  {r['case_id']} must_abstain={r['must_abstain']}: answered by {n}/{len(check_votes[j])} folds")


def _auc(records: list[dict], held_p: dict[int, float]) -> None:
    """Held-out ROC AUC (answerable vs must-abstain) of the best span's score and of the model, per corpus."""
    from sklearn.metrics import roc_auc_score

    print("held-out ROC AUC, answerable vs must-abstain (score / model):", end="")
    for corpus in dict.fromkeys(r["corpus"] for r in records):
        idx = [i for i, r in enumerate(records) if r["corpus"] == corpus]
        y = [0 if records[i]["must_abstain"] else 1 for i in idx]
        if len(set(y)) < 2:
            continue
        a0 = roc_auc_score(y, [pn.bp.best(records[i], 0.5) for i in idx])
        a1 = roc_auc_score(y, [held_p[i] for i in idx])
        print(f" {corpus} {a0:.2f} / {a1:.2f};", end="")
    print()


def _row(name: str, recs: list[dict], before: list[bool], after: list[bool], settings) -> None:
    can = [k for k, r in enumerate(recs) if not r["must_abstain"] and r["gold"]]
    must = [k for k, r in enumerate(recs) if r["must_abstain"]]
    q = sum(len(recs[k]["gold"]) for k in can)
    out = []
    for dec in (before, after):
        h = [hits(recs[k], dec[k], settings) for k in can]
        out.append((sum(not dec[k] for k in can), sum(dec[k] for k in must), sum(x[0] for x in h),
                    sum(x[1] for x in h), sum(x[2] for x in h)))
    (fa0, fn0, c0, s0, w0), (fa1, fn1, c1, s1, w1) = out
    print(f"| {name} | {fa0} → {fa1} /{len(can)} | {fn0} → {fn1} /{len(must)} | {_r(c0, q)} → **{_r(c1, q)}** "
          f"| {_r(s0, q)} → {_r(s1, q)} | {w0} → {w1} |")


def _r(n: int, d: int) -> str:
    return f"{n / d:.2f}" if d else "–"


def shipped(records: list[dict], checks: list[dict]) -> None:
    """The app as shipped (``core.passage_decision``'s weights, fitted on every case: in-sample) beside the
    settings' thresholds, same records; questions not naming their document keep the thresholds."""
    from core import passage_decision as pd
    from core.settings import Settings

    settings = Settings()

    def answered(r: dict) -> bool:
        if not decided(r) or not r["spans"]:
            return baseline_answered(r)
        return pn.bp.best(r, 0.5) >= pd.threshold(feats(r), floor=pd.FLOOR if FLOOR else float("-inf"))

    print("\nthe app as shipped (weights of core.passage_decision, in-sample):\n")
    print("| set | false abst. before → after | false answers before → after | hit with clause before → after "
          "| sentence before → after | gold only weak before → after |")
    print("|---|---|---|---|---|---|")
    every = records + checks
    for corpus in dict.fromkeys(r["corpus"] for r in every):
        rs = [r for r in every if r["corpus"] == corpus]
        _row(corpus, rs, [baseline_answered(r) for r in rs], [answered(r) for r in rs], settings)


def final(records: list[dict], objective: str) -> None:
    """Fit on every CUAD/XQuAD case (those the model decides) and print the weights and per-group biases."""
    import math

    import numpy as np
    from core.passage_decision import FEATURES

    if CLEANED_ONLY:
        records = [r for r in records if decided(r)]
    names = [FEATURES[i] for i in USE] if USE else FEATURES
    X = np.array([feats(r) for r in records])
    y = np.array([0 if r["must_abstain"] else 1 for r in records])
    model = fit(X, y)
    p = model.predict_proba(X)[:, 1]
    cuts = choose_cuts(list(p), records, objective)
    w = model[-1].coef_[0] / model[0].scale_
    b = model[-1].intercept_[0] - float(np.sum(model[-1].coef_[0] * model[0].mean_ / model[0].scale_))
    print("final fit on every case the model decides:")
    print("WEIGHTS = {" + ", ".join(f'"{n}": {v:.4f}' for n, v in zip(names, w)) + "}")
    for g, cut in cuts.items():
        c = min(max(cut, 1e-6), 1 - 1e-6)
        print(f"group {g}: cut p={cut:.3f}, BIAS = {b - math.log(c / (1 - c)):.4f} (intercept {b:.4f})")
    if FLOOR:
        print(f"FLOOR = {choose_floor(list(p), records, cuts):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("checks", type=Path, nargs="?")
    parser.add_argument("--objective", default="no-more-false", choices=("no-more-false", "balanced"))
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--features", help="comma-separated names of core.passage_decision.FEATURES")
    parser.add_argument("--per-group", action="store_true")
    parser.add_argument("--floor", action="store_true")
    parser.add_argument("--variant", default="", help="comma-separated: top-wording, near-wording, no-redacted, "
                        "clause-confidence (VARIANT)")
    parser.add_argument("--cleaned-only", action="store_true")
    parser.add_argument("--same-language-only", action="store_true")
    args = parser.parse_args()
    from core.passage_decision import FEATURES

    global PER_GROUP, FLOOR
    PER_GROUP = args.per_group
    FLOOR = args.floor
    VARIANT.update(v for v in args.variant.split(",") if v)
    global CLEANED_ONLY
    CLEANED_ONLY = args.cleaned_only
    global SAME_ONLY
    SAME_ONLY = args.same_language_only
    if args.features:
        USE[:] = [FEATURES.index(n) for n in args.features.split(",")]
    records = [r for r in json.loads(args.records.read_text()) if r["variant"] == "after"]
    checks = [r for r in records if r["corpus"] in ("b46", "lab")]
    records = [r for r in records if r["corpus"] not in ("b46", "lab")]
    if args.checks:
        checks += [r for r in json.loads(args.checks.read_text()) if r["variant"] == "after"]
    evaluate(records, checks, args.objective)
    if args.final:
        final(records, args.objective)
    if not VARIANT:  # the shipped weights read the shipped features
        shipped(records, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
