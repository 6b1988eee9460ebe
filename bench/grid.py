"""Review grid figures (issue #25): CUAD cells scored, and a grid of N documents × the template's questions timed.

    python bench/grid.py cuad --index-dir DIR            # every (contract, category) of the CUAD cases as a cell
    python bench/grid.py scale --docs 100 [--work DIR]  # N contracts (CUAD texts, copied and renamed) × 12 questions

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
    score = evaluate_grid(load_cases(SHARED / "cases.jsonl"), load_workspaces(SHARED / "workspaces.toml"),
                          settings=settings, index_dir=Path(args.index_dir), backend=make_backend(settings, args.backend))
    print(f"CUAD grid, backend {args.backend}:")
    print(*score.lines(), sep="\n")


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
    print(f"indexed {args.docs} documents in {time.perf_counter() - t:.0f} s")
    columns = templates("en")["commercial"].columns[: args.questions]
    stamps: list[float] = []
    start = time.perf_counter()
    cells = run(run_grid(ws, columns, grid="bench", settings=settings, backend=make_backend(settings, args.backend),
                         on_cell=lambda c: stamps.append(time.perf_counter()), recompute=True))
    total = time.perf_counter() - start
    per = [b - a for a, b in zip([start] + stamps[:-1], stamps)]
    by = {s: sum(c.status == s for c in cells) for s in ("answered", "weak", "not_found")}
    print(f"{args.docs} documents × {len(columns)} questions = {len(cells)} cells, backend {args.backend}")
    print(f"first cell after {stamps[0] - start:.1f} s; whole grid {total:.0f} s; median {statistics.median(per):.2f} s a cell")
    print(f"statuses: {by}")
    t = time.perf_counter()
    run(run_grid(ws, columns, grid="bench", settings=settings, backend=make_backend(settings, args.backend)))
    print(f"reopening the finished grid (every cell stored): {time.perf_counter() - t:.2f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cuad")
    c.add_argument("--index-dir", required=True)
    c.add_argument("--backend", default="passages", choices=["passages", "embedded"])
    s = sub.add_parser("scale")
    s.add_argument("--docs", type=int, default=100)
    s.add_argument("--questions", type=int, default=10)
    s.add_argument("--work")
    s.add_argument("--backend", default="passages", choices=["passages", "embedded"])
    args = p.parse_args()
    cuad(args) if args.what == "cuad" else scale(args)


if __name__ == "__main__":
    main()
