"""Start-up time to an interactive window, and memory at rest.

Starts ``python -m desktop.app`` in a fresh process several times against one
data folder holding a small indexed workspace; the app prints nothing, so the
child is a tiny driver that imports the window, shows it, and reports when the
event loop first runs (the window is interactive) plus its resident memory after
2 s at rest. "Cold" is the first start after the OS page cache was not primed by
this bench (best effort: the first of the runs); "warm" is the median of the rest.

Usage: ``QT_QPA_PLATFORM=offscreen python bench/window_startup.py [--runs 5]``
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
from core.settings import Settings
from desktop.main_window import MainWindow
w = MainWindow(Settings(ollama_host="http://127.0.0.1:9"))
w.show()
out = {}
def interactive():
    out["interactive_s"] = time.perf_counter() - t0
    QTimer.singleShot(2000, at_rest)
def at_rest():
    try:  # Linux: current resident set; elsewhere the peak from getrusage
        kb = int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS")).split()[1])
    except OSError:
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["rss_mb"] = kb / 1024
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
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               VERBATIM_HOME=tempfile.mkdtemp(prefix="verbatim-startup-"))
    subprocess.run([sys.executable, "-m", "core", "index", "-q", "--workspace", "w",
                    str(ROOT / "resources" / "sample" / "docs")],
                   cwd=ROOT, env=env, check=False, capture_output=True)
    results = []
    for _ in range(args.runs):
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300, check=True)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        results.append(json.loads(line[-1]))
    cold, warm = results[0], results[1:] or results
    print(f"window start-up, {args.runs} runs, {os.cpu_count()} CPUs (interactive = first event-loop turn)")
    print(f"cold: {cold['interactive_s']:.2f} s   warm median: "
          f"{statistics.median(r['interactive_s'] for r in warm):.2f} s   "
          "runs: " + ", ".join(f"{r['interactive_s']:.2f}" for r in results))
    print(f"memory at rest (RSS, 2 s after start): median {statistics.median(r['rss_mb'] for r in results):.0f} MB; "
          f"workspace listed: {all(r['workspace_loaded'] for r in results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
