"""Issue #20, cross-language: which evidence decides a question asked in another language than its documents.

Reads two record files of ``bench/passages_natural.py`` (``--out``): ``SAME`` with the same-language sets
(cuad_natural ``-nat``/``-para``, the CUAD template cases, XQuAD-es with Spanish questions) and ``CROSS`` with
the cross-language ones (cuad_natural ``-es``: Spanish questions over English contracts; XQuAD-es with the
English questions over the Spanish articles; B46 and the lab, never fitted on). Two questions:

1. **The evidence model across languages, held out by contract.** :mod:`core.passage_decision` was fitted on
   same-language questions that name their document and ask for a clause type. ``core.passages`` lets it decide
   a cross-language question too when the best span is in English (:data:`core.passages.WORDING_LANG`: the
   span's cosine with the clause type's wording then compares two English texts). Here the model is refitted
   as ``bench/passages_decision.py --features score,wording,synonyms --per-group --cleaned-only
   --same-language-only --floor`` does, in 5 folds grouped by contract (10 partitions), on the same-language
   cases of the training contracts only, and judges the ``-es`` cases of the held-out contracts (cut and floor
   of the fold's same-language group). Before: the settings' cross-language thresholds.
2. **The cross-language threshold, fitted on one set and judged on the other.** For questions scored without
   their document's names (``cleaned``, the only kind both sets hold), the threshold chosen by
   ``bench/passages.py``'s objective (``budget``) on every case of one set, by 5-fold CV grouped by document on
   that set, and its held-out result on the other set — against the setting
   (``passages_min_score_cross_scoped``).

Passage hit here is the replay's (``passages_natural.judge``: spans counted, not clauses; the app's own
``verbatim eval`` gives the figures in bench/README.md).

Usage::

    python bench/passages_crossdecision.py SAME.json CROSS.json
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import passages_decision as pdx  # noqa: E402
import passages_natural as pn  # noqa: E402

SAME_GROUP = (True, False)
"""The (cleaned, cross) group whose cut and floor the app applies (core.passage_decision.BIAS)."""


def _top(record: dict) -> dict | None:
    return max(record["spans"], key=lambda s: s["cos"] + 0.5 * s["terms"], default=None)


def english_span(record: dict) -> bool:
    """The best span is in English: every cuad_natural contract is; B46's supply agreement and NDA; the
    lab's master services agreement."""
    top = _top(record)
    if top is None:
        return False
    if record["corpus"] == "cuad_es":
        return True
    return any(k in top["doc"] for k in ("Supply_Agreement", "Mutual_NDA", "contrato-marco-servicios"))


def gated(record: dict) -> bool:
    """Whether the app's gate hands a cross-language record to the model (names its document, a clause type,
    best span in English)."""
    return (record["cleaned"] and bool(record.get("clause_types")) and pn.group_of(record, ("cleaned", "cross"))[1]
            and english_span(record))


def fold_models(same: list[dict]):
    """Per partition and fold: (held-out groups, model, cut, floor), fitted as the app's model was."""
    import numpy as np

    pdx.CLEANED_ONLY, pdx.SAME_ONLY, pdx.PER_GROUP, pdx.FLOOR = True, True, True, True
    recs = [r for r in same if pdx.decided(r)]
    X = np.array([pdx.feats(r) for r in recs])
    y = np.array([0 if r["must_abstain"] else 1 for r in recs])
    groups = sorted({pdx.group(r) for r in recs})
    for rep in range(pdx.REPEATS):
        order = list(groups)
        random.Random(rep).shuffle(order)
        fold_of = {g: i % pdx.FOLDS for i, g in enumerate(order)}
        for f in range(pdx.FOLDS):
            tr = [i for i, r in enumerate(recs) if fold_of[pdx.group(r)] != f]
            model = pdx.fit(X[tr], y[tr])
            p = list(model.predict_proba(X[tr])[:, 1])
            cuts = pdx.choose_cuts(p, [recs[i] for i in tr], "no-more-false")
            floor = pdx.choose_floor(p, [recs[i] for i in tr], cuts)
            yield rep, {g for g in groups if fold_of[g] == f}, model, cuts[SAME_GROUP], floor


def held_out_model(same: list[dict], cross: list[dict]) -> None:
    from core.settings import Settings

    settings = Settings()
    held: dict[int, bool] = {}
    votes: dict[int, list[bool]] = {}
    for rep, test_groups, model, cut, floor in fold_models(same):
        for r in cross:
            if not gated(r):
                continue
            p = float(model.predict_proba([pdx.feats(r)])[0, 1])
            ok = p >= cut and pn.bp.best(r, 0.5) >= floor
            if r["corpus"] in ("b46", "lab"):
                votes.setdefault(id(r), []).append(ok)
            elif rep == 0 and ("cuad", r["doc"]) in test_groups:
                held[id(r)] = ok
    print("## 1. The same-language evidence model deciding cross-language questions whose best span is English\n")
    print("(held out: each -es case judged by the fold whose training contracts exclude its contract; B46 and the lab "
          "by every fold's model, majority)\n")
    print("| set | cases the gate hands to the model | false abst. before → after | false answers before → after "
          "| hit with clause before → after | sentence before → after | gold only weak before → after |")
    print("|---|---|---|---|---|---|---|")
    for corpus in dict.fromkeys(r["corpus"] for r in cross):
        rs = [r for r in cross if r["corpus"] == corpus]
        after = []
        for r in rs:
            if id(r) in held:
                after.append(held[id(r)])
            elif id(r) in votes:
                after.append(sum(votes[id(r)]) * 2 > len(votes[id(r)]))
            else:
                after.append(pdx.baseline_answered(r))
        pdx._row(f"{corpus} | {sum(gated(r) for r in rs)}", rs, [pdx.baseline_answered(r) for r in rs], after, settings)


def _cleaned_cross(records: list[dict]) -> list[dict]:
    return [r for r in records if r["cleaned"] and pn.group_of(r, ("cleaned", "cross"))[1]]


def transfer_threshold(cross: list[dict]) -> None:
    from core.settings import Settings

    settings = Settings()
    grid = [round(x * 0.01, 2) for x in range(0, 151)]
    sets = {c: _cleaned_cross([r for r in cross if r["corpus"] == c]) for c in ("cuad_es", "xquad_en")}
    print("\n## 2. The cross-language threshold for questions scored without their document's names, "
          "chosen on one set and judged on the other\n")
    print(f"setting passages_min_score_cross_scoped = {settings.passages_min_score_cross_scoped}\n")
    print("| chosen on | threshold over 50 folds (grouped by document) | judged on | false abst. | false answers "
          "| hit with clause | at the setting: false abst. / false answers / hit |")
    print("|---|---|---|---|---|---|---|")
    for src, dst in (("cuad_es", "xquad_en"), ("xquad_en", "cuad_es")):
        train = sets[src]
        docs = sorted({r["doc"] for r in train})
        ts = []
        for rep in range(pdx.REPEATS):
            order = list(docs)
            random.Random(rep).shuffle(order)
            fold_of = {d: i % pdx.FOLDS for i, d in enumerate(order)}
            for f in range(pdx.FOLDS):
                ts.append(pn.bp._pick([r for r in train if fold_of[r["doc"]] != f], 0.5, grid, "budget"))
        t = statistics.mean(ts)
        cells = []
        for thr in (t, settings.passages_min_score_cross_scoped):
            rs = sets[dst]
            can = [r for r in rs if not r["must_abstain"] and r["gold"]]
            must = [r for r in rs if r["must_abstain"]]
            js = {id(r): pn.judge(r, thr, 0.5, settings) for r in rs}
            q = sum(len(r["gold"]) for r in can)
            cells.append((sum(not js[id(r)]["answered"] for r in can), len(can),
                          sum(js[id(r)]["answered"] for r in must), len(must),
                          sum(sum(js[id(r)]["clause"]) for r in can), q))
        (fa, nc, fn, nm, h, q), (fa0, _, fn0, _, h0, _) = cells
        print(f"| {src} ({len(train)}) | {t:.3f} ± {statistics.pstdev(ts):.3f} | {dst} ({len(sets[dst])}) "
              f"| {fa}/{nc} | {fn}/{nm} | {h / q:.2f} | {fa0} / {fn0} / {h0 / q:.2f} |")


def main() -> int:
    same = [r for r in json.loads(Path(sys.argv[1]).read_text()) if r["variant"] == "after"]
    cross = [r for r in json.loads(Path(sys.argv[2]).read_text()) if r["variant"] == "after"]
    held_out_model(same, cross)
    transfer_threshold(cross)
    return 0


if __name__ == "__main__":
    sys.exit(main())
