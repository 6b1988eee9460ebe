"""Issue #20, order pass: in what order the passages answer shows the passages it chose.

The SAME chosen set (``core.passages.select_spans`` as the app: clauses counted, two spans per chunk,
``Span.order`` with the fused score; the best-scoring span put in when none of the chosen reaches the
answer's bar) is displayed in different orders, so passage hit cannot move; what moves is where the gold
clause comes among the shown passages. A shown passage is a clause (spans of one clause are one passage
with several highlights, ``core.passage_context.attach_contexts``), placed where its first span is.

Figures per case (answered cases with gold quotes; abstentions with gold separately, their weak passages):
``hit@1`` — a gold quote's clause is the first passage; ``MRR`` — mean of 1 / position of the first passage
holding a gold clause (0 when none is shown); ``shown`` — a gold clause among the passages (the same for
every order, a check).

The orders are one family, ``key = order + alpha * score + beta * [score >= threshold] + gamma * fused``
(``fused``: the span's chunk's fused score over the best chunk's, the term ``order`` already holds 1.5 times),
sorted descending: (a) today's ``order`` is (0, 0, 0); (b) "passages at or above the bar first, each group by
``order``" is (0, 100, 0); (c) "by score" is (1000, 0, 0); (d) the grid between them, with gamma −1.5 (the
order without the retriever's term: the set is chosen with it, the display by the span's own evidence) to 100
(the retriever's chunk order first); (d5) "the span the answer rests on (the best score) first, the others
by ``order``" adds 100 to that span's key (``top``, named orders only). Chosen by 5-fold cross-validation
grouped by document (the folds of ``bench/passages_select.py``: a CUAD contract's four phrasings and an
XQuAD article's two languages in one fold, 10 partitions), objective the summed reciprocal rank, ties to
today's order. Reads the records of ``passages_select.py collect``; no model, no index.

Usage::

    python bench/passages_order.py --records <records of bench/passages_select.py collect>
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from passages_select import LIMIT, WEAK, _overlap, _same_clause, order_key, select  # noqa: E402

APP = (0.0, 0.25, 0.0, "base", 1.5)  # core.passages: RANK_WEIGHT, WORDING_WEIGHT, window, query, FUSED_WEIGHT
ALPHAS = (0.0, 0.25, 0.5, 1.0, 2.0, 1000.0)
BETAS = (0.0, 0.1, 0.25, 0.5, 1.0, 100.0)
GAMMAS = (-1.5, -0.75, 0.0, 1.5, 100.0)
TODAY = (0.0, 0.0, 0.0, 0.0)
NAMED = {"(a) order (today)": TODAY, "(b) at/above bar first, then order": (0.0, 100.0, 0.0, 0.0),
         "(c) by score": (1000.0, 0.0, 0.0, 0.0), "(d1) order + score": (1.0, 0.0, 0.0, 0.0),
         "(d2) bar first, each group by score": (1000.0, 100.0, 0.0, 0.0),
         "(d3) order without the fused term": (0.0, 0.0, -1.5, 0.0),
         "(d4) retriever's chunk order, then order": (0.0, 0.0, 100.0, 0.0),
         "(d5) best-scoring span first, then order": (0.0, 0.0, 0.0, 100.0)}


def chosen(r: dict) -> list[dict]:
    """The app's shown spans of one record, in today's order (``core.passages.passages_answer``)."""
    key = order_key(APP[0], APP[1], APP[2], APP[3], APP[4])
    if not r["answered"]:
        return select(r["spans"], key, WEAK, 2, False)
    out = select(r["spans"], key, LIMIT, 2, "count")
    if out and not any(s["score"] >= r["threshold"] for s in out):
        top = max(r["spans"], key=lambda s: s["score"])
        out = [top] + [s for s in out if not _overlap(s, top)][:LIMIT - 1]
    return out


def passages(spans: list[dict], clauses: bool) -> list[list[dict]]:
    """The shown passages: spans of one clause together, at their first span's place (answers only)."""
    groups: list[list[dict]] = []
    for s in spans:
        g = next((g for g in groups if clauses and any(_same_clause(s, x) for x in g)), None)
        if g is None:
            groups.append([s])
        else:
            g.append(s)
    return groups


def display(r: dict, spans: list[dict], alpha: float, beta: float, gamma: float = 0.0, top: float = 0.0) -> list[dict]:
    """``spans`` sorted by ``order + alpha * score + beta * [score >= threshold] + gamma * fused
    + top * [the best-scoring of spans]``, stable."""
    thr = r["threshold"]
    best = max(spans, key=lambda s: s["score"], default=None)

    def key(s: dict) -> float:
        return s["_order"] + alpha * s["score"] + beta * (s["score"] >= thr) + gamma * s["fz"] + top * (s is best)
    return sorted(spans, key=lambda s: -key(s))


def rr(r: dict, spans: list[dict]) -> float:
    """1 / position of the first shown passage that holds a gold quote's clause; 0 when none."""
    for k, g in enumerate(passages(spans, r["answered"]), 1):
        if any(any(s["hit_ctx"][i] for s in g) for i in range(len(r["gold"]))):
            return 1.0 / k
    return 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=Path, required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--named", action="store_true", help="choose among the named orders only, not the grid")
    args = ap.parse_args()
    records = json.loads(args.records.read_text())
    key = order_key(APP[0], APP[1], APP[2], APP[3], APP[4])
    for r in records:
        top = max(r["fused"], default=0.0)
        for s in r["spans"]:
            s["fz"] = r["fused"][s["rank"]] / top if top > 0 and s["rank"] < len(r["fused"]) else 0.0
            s["_order"] = key(s)
    can = [r for r in records if not r["must_abstain"] and r["gold"]]
    corpora = list(dict.fromkeys(r["corpus"] for r in records))
    shown = {id(r): chosen(r) for r in can}
    combos = list(NAMED.values()) if args.named else list(itertools.product(ALPHAS, BETAS, GAMMAS, (0.0,)))
    table = {c: {id(r): rr(r, display(r, shown[id(r)], *c)) for r in can} for c in dict.fromkeys(combos + list(NAMED.values()))}

    # how often today's order shows a passage under the bar ("weaker") before one at or above it
    ans = [r for r in records if r["answered"]]
    before = first = 0
    for r in ans:
        above = [s["score"] >= r["threshold"] for s in chosen(r)]
        before += any(not a and any(above[k + 1:]) for k, a in enumerate(above))
        first += bool(above) and not above[0]
    print(f"answered results: {len(ans)}; a weaker passage before a match: {before}; passage 1 weaker: {first}")

    def group(r: dict) -> tuple[str, str]:
        return r["corpus"].split("_")[0], r["doc"]

    for answered, title in ((True, "answered"), (False, "abstained (weak passages)")):
        rs = [r for r in can if r["answered"] == answered]
        print(f"\n## {title}: cases with gold quotes, in-sample per order (hit@1 / MRR; gold clause shown)\n")
        print("| set | cases | gold shown | " + " | ".join(NAMED) + " |")
        print("|---|---|---|" + "---|" * len(NAMED))
        for corpus in corpora + ["all"]:
            sub = [r for r in rs if corpus in ("all", r["corpus"])]
            if not sub:
                continue
            cells = []
            for c in NAMED.values():
                v = [table[c][id(r)] for r in sub]
                cells.append(f"{sum(x == 1.0 for x in v)} / {sum(v) / len(sub):.3f}")
            print(f"| {corpus} | {len(sub)} | {sum(table[TODAY][id(r)] > 0 for r in sub)} | " + " | ".join(cells) + " |")

        docs = sorted({group(r) for r in can})
        held: dict[str, list[float]] = {}
        base: dict[str, list[float]] = {}
        picked: Counter = Counter()
        for rep in range(args.repeats):
            order = list(docs)
            random.Random(rep).shuffle(order)
            fold = {d: i % args.folds for i, d in enumerate(order)}
            for f in range(args.folds):
                train = [r for r in rs if fold[group(r)] != f]
                best = max(combos, key=lambda c: (round(sum(table[c][id(r)] for r in train), 9), c == TODAY,
                                                  -combos.index(c)))
                picked[best] += 1
                for r in rs:
                    if fold[group(r)] == f:
                        held.setdefault(r["corpus"], []).append(table[best][id(r)])
                        base.setdefault(r["corpus"], []).append(table[TODAY][id(r)])
        print(f"\nchosen (alpha, beta, gamma, top) over {args.folds}-fold CV x {args.repeats} partitions: "
              + ", ".join(f"{c} x{n}" for c, n in picked.most_common(6)))
        print("\n| set | held-out hit@1 today -> chosen | held-out MRR today -> chosen |")
        print("|---|---|---|")
        for corpus in corpora + ["all"]:
            h = [x for k, v in held.items() if corpus in ("all", k) for x in v]
            b = [x for k, v in base.items() if corpus in ("all", k) for x in v]
            if not h:
                continue
            n = args.repeats
            print(f"| {corpus} | {sum(x == 1.0 for x in b) / n:.1f} -> {sum(x == 1.0 for x in h) / n:.1f} "
                  f"(of {len(h) // n}) | {sum(b) / len(b):.3f} -> {sum(h) / len(h):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
