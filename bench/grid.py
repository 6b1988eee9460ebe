"""Review grid figures (issue #25): CUAD cells scored, and a grid of N documents × the template's questions timed.

    python bench/grid.py cuad --index-dir DIR            # every (contract, category) of the CUAD cases as a cell
    python bench/grid.py cuad --index-dir DIR --backend embedded --contracts 0   # one contract's cells
    python bench/grid.py scale --docs 100 [--work DIR] [--budget S]  # N contracts (CUAD texts, copied
                                                        # and renamed) × the template's first 10 questions; stop
                                                        # after S seconds and extrapolate (said so)
    python bench/grid.py weak-ratio REPORT.json          # grid_weak_ratio by 5-fold CV grouped by contract

Prints: gold clause in the cell / absent clause "not found" (counts beside each ratio), and for
`scale` the seconds to the first computed cell, the whole grid, and seconds per cell (median).
The passages backend answers (no model); `--backend embedded` uses the bundled demo model.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "eval" / "corpora" / "cuad"


def cuad(args) -> None:
    from core.evaluate import load_cases
    from core.generate import make_backend
    from core.grid_eval import evaluate_grid
    from core.settings import Settings
    from core.workspaces import load_workspaces

    settings = Settings()
    cases = load_cases(SHARED / "cases.jsonl")
    if args.contracts:  # a subset: the contracts at these positions, in the cases file's order
        order = list(dict.fromkeys((c.source or {}).get("doc") for c in cases))
        keep = {order[int(i)] for i in args.contracts.split(",")}
        cases = [c for c in cases if (c.source or {}).get("doc") in keep]
        print("contracts: " + "; ".join(sorted(keep)), flush=True)
    start = time.perf_counter()
    score = evaluate_grid(cases, load_workspaces(SHARED / "workspaces.toml"),
                          settings=settings, index_dir=Path(args.index_dir), backend=make_backend(settings, args.backend))
    n = len(score.cells)
    print(f"CUAD grid, backend {args.backend}: {n} cells in {time.perf_counter() - start:.0f} s")
    print(*score.lines(), sep="\n")
    if args.json:
        Path(args.json).write_text(score.model_dump_json(indent=2), encoding="utf-8")


def choose_weak_ratio(args) -> None:
    """5-fold cross-validation over contracts of ``grid_weak_ratio`` on an ``eval --grid --json`` report.

    A cell is right when an answerable clause is answered, or shown as weak with its gold inside,
    and when an absent clause is neither answered nor shown as weak (so "not found"). The ratio
    maximising the balanced accuracy (mean of the two rates) on four folds is scored on the fifth.
    """
    import json
    import random

    cells = json.loads(Path(args.report).read_text(encoding="utf-8"))["cells"]
    grid = [round(0.5 + 0.02 * i, 2) for i in range(31)]

    def right(c: dict, r: float) -> bool:
        near = c["closeness"] if c["closeness"] is not None else 0.0
        weak = c["status"] != "answered" and near >= r
        if c["must_abstain"]:
            return c["status"] != "answered" and not weak
        return c["status"] == "answered" and c["covered"] or weak and c["covered"]

    def balanced(cs: list[dict], r: float) -> float:
        pos = [c for c in cs if not c["must_abstain"]]
        neg = [c for c in cs if c["must_abstain"]]
        rates = [sum(right(c, r) for c in g) / len(g) for g in (pos, neg) if g]
        return sum(rates) / len(rates)

    docs = sorted({c["doc_id"] for c in cells})
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]
    for n, fold in enumerate(folds, 1):  # which contracts each fold holds out (grouped by document)
        print(f"fold {n}: " + "; ".join(sorted(d.rsplit('/', 1)[-1][:28] for d in fold)))
    chosen, held = [], []
    for fold in folds:
        train = [c for c in cells if c["doc_id"] not in fold]
        r = max(grid, key=lambda x: (balanced(train, x), -abs(x - 0.9)))
        chosen.append(r)
        held += [(c, r) for c in cells if c["doc_id"] in fold]
    pos = [(c, r) for c, r in held if not c["must_abstain"]]
    neg = [(c, r) for c, r in held if c["must_abstain"]]
    print(f"ratios chosen per fold: {chosen} (mean {sum(chosen) / len(chosen):.2f})")
    print(f"held out: answerable right {sum(right(c, r) for c, r in pos)}/{len(pos)}, "
          f"absent 'not found' {sum(right(c, r) for c, r in neg)}/{len(neg)}")
    for r in (0.7, 0.8, 0.9, 1.0):
        p = [c for c in cells if not c["must_abstain"]]
        n = [c for c in cells if c["must_abstain"]]
        print(f"  in-sample at {r}: answerable right {sum(right(c, r) for c in p)}/{len(p)}, "
              f"absent not found {sum(right(c, r) for c in n)}/{len(n)}")


def scale(args) -> None:
    import os

    work = Path(args.work or tempfile.mkdtemp(prefix="grid-bench-"))
    os.environ["VERBATIM_HOME"] = str(work / "home")
    from core.generate import make_backend
    from core.grid import run_grid, templates
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    folder = work / "contracts"
    if not folder.exists():
        folder.mkdir(parents=True)
        texts = sorted((SHARED / "txt").glob("*.txt"))
        for i in range(args.docs):
            src = texts[i % len(texts)]
            shutil.copy(src, folder / f"{i:03d}_{src.name}")
    settings = Settings()
    ws = Workspace("grid-bench", settings)
    t = time.perf_counter()
    run(index_folders(ws, [folder]))
    print(f"indexed {args.docs} documents in {time.perf_counter() - t:.0f} s (0 s: already indexed)", flush=True)
    columns = templates("en")["commercial"].columns[: args.questions]
    stamps: list[float] = []
    done_cells: list = []
    start = time.perf_counter()
    n_docs = len([d for d in ws.documents() if d.get("status", "active") == "active"])
    total_cells = n_docs * len(columns)

    def on_cell(c) -> None:
        stamps.append(time.perf_counter())
        done_cells.append(c)
        if len(stamps) == 1:
            print(f"first cell after {stamps[0] - start:.1f} s", flush=True)
        elif len(stamps) % 50 == 0:
            print(f"  {len(stamps)}/{total_cells} cells after {stamps[-1] - start:.0f} s", flush=True)

    budget = args.budget or float("inf")
    from core.errors import Cancelled
    try:
        run(run_grid(ws, columns, grid="bench", settings=settings, backend=make_backend(settings, args.backend),
                     on_cell=on_cell, recompute=True, cancel=lambda: time.perf_counter() - start > budget))
        stopped = False
    except Cancelled:
        stopped = True
    total = time.perf_counter() - start
    per = [b - a for a, b in zip([start] + stamps[:-1], stamps)]
    by = {s: sum(c.status == s for c in done_cells) for s in ("answered", "weak", "not_found")}
    print(f"{n_docs} documents × {len(columns)} questions = {total_cells} cells, backend {args.backend}")
    if stopped:  # the time budget ran out: what was measured, and the rest at the measured rate
        rate = len(stamps) / total
        print(f"stopped at the {budget:.0f} s budget: {len(stamps)} cells in {total:.0f} s "
              f"(median {statistics.median(per):.2f} s a cell); whole grid at this rate ≈ {total_cells / rate:.0f} s "
              f"(extrapolated)")
    else:
        print(f"first cell after {stamps[0] - start:.1f} s; whole grid {total:.0f} s; "
              f"median {statistics.median(per):.2f} s a cell")
    print(f"statuses: {by}", flush=True)
    if stopped:
        return
    t = time.perf_counter()
    run(run_grid(ws, columns, grid="bench", settings=settings, backend=make_backend(settings, args.backend)))
    print(f"reopening the finished grid (every cell stored): {time.perf_counter() - t:.2f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cuad")
    c.add_argument("--index-dir", required=True)
    c.add_argument("--backend", default="passages", choices=["passages", "embedded"])
    c.add_argument("--contracts", help="comma-separated positions (0-based) of contracts in the cases file's order, "
                   "e.g. 0,1 (the embedded model takes minutes a cell)")
    c.add_argument("--json", help="write the report (per-cell details) here")
    s = sub.add_parser("scale")
    s.add_argument("--docs", type=int, default=100)
    s.add_argument("--questions", type=int, default=10)
    s.add_argument("--work")
    s.add_argument("--budget", type=float, help="stop the grid after this many seconds and extrapolate the rest")
    s.add_argument("--backend", default="passages", choices=["passages", "embedded"])
    w = sub.add_parser("weak-ratio", help="choose grid_weak_ratio by 5-fold CV over contracts")
    w.add_argument("report", help="the --json report of `verbatim eval CASES --grid`")
    args = p.parse_args()
    {"cuad": cuad, "scale": scale, "weak-ratio": choose_weak_ratio}[args.what](args)


if __name__ == "__main__":
    main()
