"""Choose between index variants (e.g. chunk overlaps) by cross-validation over contracts.

Input: for every variant, a folder of ``verbatim eval --retrieval-only -k 6 --json`` reports, one per
set, named ``<set>.json`` (``nat``, ``es``, ``para``, ``txt``, ``pdf``: the CUAD sets; others are
printed but not used for the choice). Each variant's reports come from its own index folder, built with
the variant's settings (e.g. ``VERBATIM_CHUNK_OVERLAP_TOKENS=96`` for the indexing and the eval).

Choice: 5-fold cross-validation over CUAD's contracts (every phrasing and format of one contract's
cases in the same fold, shuffled with seed 0 as in ``bench/ranking.py``), choosing on 4/5 of the
contracts by mean recall@6 over the CUAD sets and measuring on the other 1/5; the held-out recall is
pooled over folds.

Usage: ``python bench/chunk_overlap.py NAME=DIR [NAME=DIR ...]``
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path

CUAD_SETS = ("txt", "nat", "es", "para", "pdf")


def load(folder: Path) -> dict[str, dict[tuple[str, str], list[int]]]:
    """``{set: {(contract file stem, case id): [hits, gold quotes]}}`` at k from one variant's reports."""
    out: dict[str, dict[tuple[str, str], list[int]]] = {}
    for rep_path in sorted(folder.glob("*.json")):
        rep = json.loads(rep_path.read_text())
        cases = {json.loads(x)["case_id"]: json.loads(x) for x in open(rep["cases_file"], encoding="utf-8")}
        per = {}
        for c in rep["cases"]:
            case = cases[c["case_id"]]
            if not case["gold_quotes"]:
                continue
            doc = Path(case["expected_docs"][0]).stem.lower()
            per[(doc, c["case_id"])] = [sum(bool(x) for x in c["gold_retrieved_top_k"]), len(case["gold_quotes"])]
        out[rep_path.stem] = per
    return out


def recall(per: dict, docs: set[str] | None = None) -> tuple[int, int]:
    h = sum(v[0] for (d, _), v in per.items() if docs is None or d in docs)
    n = sum(v[1] for (d, _), v in per.items() if docs is None or d in docs)
    return h, n


def main(argv: list[str]) -> None:
    variants = {a.split("=", 1)[0]: load(Path(a.split("=", 1)[1])) for a in argv}
    names = list(variants)
    sets = sorted({s for v in variants.values() for s in v}, key=lambda s: (s not in CUAD_SETS, s))
    print("| set | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for s in sets:
        cells = []
        for v in names:
            h, n = recall(variants[v].get(s, {}))
            cells.append(f"{h / max(n, 1):.3f} ({h}/{n})")
        print(f"| {s} | " + " | ".join(cells) + " |")
    cv_sets = [s for s in CUAD_SETS if all(s in variants[v] for v in names)]
    docs = sorted({d for v in names for s in cv_sets for (d, _) in variants[v][s]})
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]

    def score(v: str, doc_set: set[str]) -> float:
        return statistics.mean(
            (lambda hn: hn[0] / max(hn[1], 1))(recall(variants[v][s], doc_set)) for s in cv_sets
        )

    pooled = {s: [0, 0] for s in cv_sets}
    print(f"\n5-fold CV over {len(docs)} contracts, sets {', '.join(cv_sets)}; chosen per fold:")
    for fold in folds:
        train = set(docs) - fold
        best = max(names, key=lambda v: (round(score(v, train), 6), -names.index(v)))
        print(f"  train {score(best, train):.3f} -> {best}")
        for s in cv_sets:
            h, n = recall(variants[best][s], fold)
            pooled[s][0] += h
            pooled[s][1] += n
    print("held out, pooled: " + ", ".join(f"{s} {h / max(n, 1):.3f}" for s, (h, n) in pooled.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
