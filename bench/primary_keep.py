"""Choose ``settings.primary_keep`` (core.retrieval.keep_primary_hits) by leave-one-contract-out cross-validation.

Input: one folder per candidate value, each holding the ``--retrieval-only -k 6 --json`` reports of the dev sets
(``nat es para txt pdf xq xqen``.json, and ``nat-all es-all para-all``.json when every folder has them), made with ``VERBATIM_PRIMARY_KEEP=<n>`` on the same index copy. A case's
group is its document (``source.doc``, else its first expected document): every phrasing of one contract (CUAD
template, -nat, -es, -para, PDF) and every question of one XQuAD article is held out together. For each group the
value is chosen on the other groups by pooled recall@6 over all sets (ties: the smaller value, the smaller change),
and that value's result on the held-out group is counted. Prints, per set, recall@6 of each value (all cases) and
held out, and how often each value was chosen.

Usage: ``python bench/primary_keep.py CASES_ROOT DIR0:0 DIR1:1 DIR2:2`` (CASES_ROOT: the shared eval corpora folder).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

SETS = {  # set -> case file, relative to the corpora folder ("bench:" = this repository's bench/data)
    "nat": "cuad_natural/cases_nat.jsonl", "es": "cuad_natural/cases_es.jsonl", "para": "cuad_natural/cases_para.jsonl",
    "txt": "cuad/cases.jsonl", "pdf": "bench:cuad_pdf_cases.jsonl", "xq": "xquad_es/cases.jsonl",
    "xqen": "bench:xquad_en_cases.jsonl",
    # the same CUAD questions over the whole 15-contract workspace (VERBATIM_RESOLVE_REFERENCES=false, k = 6):
    # a folder where the question does not name its contract, as in tryout 5
    "nat-all": "cuad_natural/cases_nat.jsonl", "es-all": "cuad_natural/cases_es.jsonl",
    "para-all": "cuad_natural/cases_para.jsonl",
}


def _groups(root: Path, name: str) -> dict[str, str]:
    rel = SETS[name]
    path = Path(__file__).parent / "data" / rel[6:] if rel.startswith("bench:") else root / rel
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            case = json.loads(line)
            src = case.get("source") or {}
            doc = src.get("doc") or (case.get("expected_docs") or [case["case_id"]])[0]
            out[case["case_id"]] = f"{'xq' if name.startswith('xq') else 'cuad'}:{Path(doc).stem}"
    return out


def main(argv: list[str]) -> None:
    root = Path(argv[0])
    runs = [(Path(a.split(":")[0]), int(a.split(":")[1])) for a in argv[1:]]
    values = [v for _, v in runs]
    # hits[(set, case)][value] = (gold quotes found in the top 6, gold quotes)
    hits: dict[tuple[str, str], dict[int, tuple[int, int]]] = defaultdict(dict)
    group: dict[tuple[str, str], str] = {}
    sets = [n for n in SETS if all((folder / f"{n}.json").exists() for folder, _ in runs)]
    for name in sets:
        g = _groups(root, name)
        for folder, v in runs:
            report = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
            for c in report["cases"]:
                top = c.get("gold_retrieved_top_k") or []
                hits[(name, c["case_id"])][v] = (sum(map(bool, top)), len(top))
                group[(name, c["case_id"])] = g.get(c["case_id"], c["case_id"])
    groups = sorted(set(group.values()))
    chosen: Counter = Counter()
    held: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for held_out in groups:
        train = [k for k in hits if group[k] != held_out]
        best = max(values, key=lambda v: (sum(hits[k][v][0] for k in train), -v))
        chosen[best] += 1
        for k in hits:
            if group[k] == held_out:
                found, total = hits[k][best]
                held[k[0]][0] += found
                held[k[0]][1] += total
    print(f"{len(groups)} groups (contracts, articles); value chosen: {dict(sorted(chosen.items()))}")
    print("| set | " + " | ".join(f"recall@6 n={v}" for v in values) + " | held out |")
    print("|---|" + "---|" * (len(values) + 1))
    for name in sets:
        keys = [k for k in hits if k[0] == name]
        cells = []
        for v in values:
            f, t = sum(hits[k][v][0] for k in keys), sum(hits[k][v][1] for k in keys)
            cells.append(f"{f / t:.3f} ({f}/{t})" if t else "-")
        f, t = held[name]
        print(f"| {name} | " + " | ".join(cells) + f" | {f / t:.3f} ({f}/{t}) |" if t else " | - |")


if __name__ == "__main__":
    main(sys.argv[1:])
