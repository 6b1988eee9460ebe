"""The review grid in the window over a large workspace: first cell visible, cells per second, GUI-thread gaps.

    QT_QPA_PLATFORM=offscreen python bench/grid_gui.py --home DIR --workspace grid-bench [--seconds 120]

``DIR`` is a Verbatim data folder holding an indexed workspace (``bench/grid.py scale --work W``
leaves one in ``W/home``). The real window (:class:`desktop.main_window.MainWindow`, engine
process) opens File → Review grid… on every document with the first ``--questions`` columns of
the "Commercial contract review" template and runs it for ``--seconds``, then cancels (cells
done are kept). A 10 ms ``QTimer`` on the GUI thread records the gaps between its ticks, as in
``bench/gui_latency.py``. Prints: seconds from Run to the first cell shown in the table, cells
shown, and the longest / 99th-percentile gap in ms.

``--warm``: press Run only once the engine has read the workspace ahead (the window does that
when a workspace is shown: :func:`core.engine.warm_workspace_op`, which loads the embedding model
and the indexes), as for a user who opened the app and then starts a grid; prints how long that
took. ``--fresh``: delete the workspace's stored grids (``grid.sqlite``) first, so every cell is
computed and "first cell shown" is the first *computed* cell. Use it on a copy of the data folder.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--home", required=True)
    p.add_argument("--workspace", default="grid-bench")
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--questions", type=int, default=10)
    p.add_argument("--warm", action="store_true", help="press Run once the engine has read the workspace ahead")
    p.add_argument("--fresh", action="store_true", help="delete the stored grids first (every cell computed)")
    args = p.parse_args()
    os.environ["VERBATIM_HOME"] = str(Path(args.home).resolve())
    if args.fresh:
        from core.grid import GRID_FILE

        for stored in Path(args.home).resolve().glob(f"workspaces/{args.workspace}/{GRID_FILE}*"):
            stored.unlink()  # the grid file and its SQLite journal, if any
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from core.grid import templates
    from core.settings import Settings
    from desktop.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow(Settings(backend="passages"), workspace=args.workspace)
    window.show()

    def wait(cond, limit: float) -> bool:
        end = time.monotonic() + limit
        while not cond() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)
        return cond()

    assert wait(lambda: window.workspace_name == args.workspace, 300), "workspace not opened"
    wait(lambda: window.documents_view.topLevelItemCount() > 0, 300)
    if args.warm:
        t_warm = time.monotonic()
        ok = wait(lambda: args.workspace in window.answers.warm_seconds, 300)
        print(f"engine warm: {ok}, {time.monotonic() - t_warm:.1f} s waited after the documents were listed "
              f"(read ahead in the engine: {window.answers.warm_seconds.get(args.workspace, float('nan')):.1f} s)",
              flush=True)
    t_open = time.monotonic()
    window.open_grid()
    grid = window.grid_dialog
    grid.columns = list(templates("en")["commercial"].columns[: args.questions])
    grid._layout_table()
    print(f"grid window opened in {time.monotonic() - t_open:.2f} s", flush=True)
    gaps: list[float] = []
    last = [time.monotonic()]

    def tick() -> None:
        now = time.monotonic()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)
    shown = lambda: sum(1 for r in range(grid.table.rowCount()) for c in range(grid.table.columnCount())  # noqa: E731
                        if grid.table.item(r, c) is not None)
    t0 = time.monotonic()
    grid.start()
    first = None
    end = t0 + args.seconds
    while time.monotonic() < end:
        app.processEvents()
        if first is None and grid.table.rowCount() and shown():
            first = time.monotonic() - t0
            print(f"first cell shown {first:.2f} s after Run", flush=True)
        if grid.worker is None:
            break
        time.sleep(0.005)
    n = shown()
    elapsed = time.monotonic() - t0
    grid.cancel()
    wait(lambda: grid.worker is None, 120)
    timer.stop()
    gaps.sort()
    p99 = gaps[int(0.99 * (len(gaps) - 1))] if gaps else 0.0
    print(f"{n} cells shown in {elapsed:.0f} s ({n / elapsed:.2f} cells/s); GUI-thread gap: longest {max(gaps):.0f} ms, "
          f"p99 {p99:.0f} ms, median {statistics.median(gaps):.0f} ms over {len(gaps)} ticks", flush=True)
    window.close()


if __name__ == "__main__":
    main()
