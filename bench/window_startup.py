"""Start-up time to an interactive window, engine readiness, and memory at rest.

Starts a fresh process several times against one data folder holding a small
indexed workspace. The child does what ``python -m desktop`` does — QApplication,
the window with its engine — and reports when the event loop first ran with the
window shown (interactive), when the engine finished loading the search libraries
and the embedding model (``engine``: the status bar says "Engine: ready"), and the
resident memory of the window's process and of the engine process 2 s after
that (at rest). Variants:

* ``engine`` — ``python -m desktop``: indexing and answering in a separate engine
  process (:mod:`core.engine`) that warms up while the window is usable;
* ``in-process`` — ``python -m desktop --in-process``: everything in the window's
  process; the libraries load on first use (no engine figure).

"Cold" is the first start of each variant: with ``--cold`` (Linux, root) the OS
page cache is dropped before it (``sync; echo 3 > /proc/sys/vm/drop_caches``), so
every library is read from disk; without, it is only the first start since the
bench began. "Warm" is the median of the other starts.

Usage: ``QT_QPA_PLATFORM=offscreen python bench/window_startup.py [--runs 4] [--variants engine,in-process] [--cold]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import time, sys, os, json
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QTimer
app = QApplication([])
import core
from core.engine import Engine, LocalEngine
from core.settings import Settings
from desktop.main_window import MainWindow
out = {}
engine = Engine() if sys.argv[2] == "engine" else LocalEngine()
w = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), engine=engine)
w.show()

def rss_mb(pid="self"):
    try:  # Linux: current resident set; elsewhere the peak from getrusage (this process only)
        kb = int(next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")).split()[1])
    except (OSError, StopIteration):
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss if pid == "self" else 0
    return kb / 1024

def interactive():
    out["interactive_s"] = time.perf_counter() - t0
    QTimer.singleShot(50, wait_engine)

def wait_engine():
    if "Engine: ready" in w.engine_label.text() or isinstance(engine, LocalEngine):
        out["engine_ready_s"] = time.perf_counter() - t0 if engine.pid else None
        QTimer.singleShot(2000, at_rest)
    else:
        QTimer.singleShot(50, wait_engine)

def at_rest():
    out["rss_mb"] = rss_mb()
    out["engine_rss_mb"] = rss_mb(engine.pid) if engine.pid else 0.0
    out["torch_in_window"] = "torch" in sys.modules
    out["workspace_loaded"] = w.workspace_name is not None
    print(json.dumps(out), flush=True)
    w.close()
    app.quit()
QTimer.singleShot(0, interactive)
app.exec()
"""


def main() -> int:
    """Run the child ``--runs`` times and print cold/warm start-up and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--variants", default="engine,in-process")
    parser.add_argument("--cold", action="store_true", help="drop the OS page cache before each variant's first start")
    args = parser.parse_args()
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               VERBATIM_HOME=tempfile.mkdtemp(prefix="verbatim-startup-"))
    subprocess.run([sys.executable, "-m", "core", "index", "-q", "--workspace", "w",
                    str(ROOT / "resources" / "sample" / "docs")],
                   cwd=ROOT, env=env, check=False, capture_output=True)
    variants = args.variants.split(",")
    results: dict[str, list[dict]] = {v: [] for v in variants}
    cold_note = "first start since the bench began, page cache not dropped"
    for run in range(args.runs):
        for v in variants:
            if run == 0 and args.cold:
                try:
                    os.sync()
                    Path("/proc/sys/vm/drop_caches").write_text("3\n")
                    cold_note = "page cache dropped before it"
                except OSError as exc:
                    cold_note = f"page cache NOT dropped ({exc.strerror})"
            proc = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), v], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=600, check=True)
            line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            results[v].append(json.loads(line[-1]))
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["n/a"]
    print(f"window start-up, {args.runs} starts per variant, {os.cpu_count()} CPUs, load average {' '.join(load)} "
          "(interactive = first event-loop turn with the window shown; cold = " + cold_note + ")")
    for v in variants:
        rs = results[v]
        cold, warm = rs[0], rs[1:] or rs
        line = (f"{v:10} interactive: cold {cold['interactive_s']:.2f} s, warm median "
                f"{statistics.median(r['interactive_s'] for r in warm):.2f} s (runs: "
                + ", ".join(f"{r['interactive_s']:.2f}" for r in rs) + ")")
        if cold.get("engine_ready_s"):
            line += (f"; engine ready: cold {cold['engine_ready_s']:.1f} s, warm median "
                     f"{statistics.median(r['engine_ready_s'] for r in warm):.1f} s")
        line += (f"; memory at rest (RSS): window {statistics.median(r['rss_mb'] for r in rs):.0f} MB"
                 + (f", engine {statistics.median(r['engine_rss_mb'] for r in rs):.0f} MB"
                    if cold.get("engine_rss_mb") else "")
                 + f"; torch loaded in the window's process: {any(r['torch_in_window'] for r in rs)}"
                 f"; workspace listed: {all(r['workspace_loaded'] for r in rs)}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
