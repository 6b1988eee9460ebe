"""Start-up time to an interactive window, and memory at rest.

Starts a fresh process several times against one data folder holding a small
indexed workspace. The child does what ``python -m desktop`` does — QApplication,
then (variant ``warmup``, the default of the app) the splash screen while
:mod:`desktop.warmup` loads the search libraries, then the window — and reports
when the splash was first shown, when the event loop first ran with the window
shown (interactive), and its resident memory 2 s later (at rest). Variant
``lazy`` is ``python -m desktop --no-warmup``: the window comes first and the
libraries load on first use. "Cold" is the first start of each variant after
this bench began (best effort: the OS page cache is not flushed); "warm" is the
median of the other starts.

Usage: ``QT_QPA_PLATFORM=offscreen python bench/window_startup.py [--runs 4] [--variants warmup,lazy]``
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
out = {}
if sys.argv[2] == "warmup":
    from desktop import warmup
    def first_message(message, i, n):
        out.setdefault("splash_s", time.perf_counter() - t0)
    # the splash's own report hook; timing only the first message = the splash is on screen
    _orig = warmup.warm_up
    warmup.warm_up = lambda report=None: _orig(lambda m, i, n: (first_message(m, i, n), report and report(m, i, n)))
    warmup.warm_up_with_splash(app)
from desktop.main_window import MainWindow
w = MainWindow(Settings(ollama_host="http://127.0.0.1:9"))
w.show()
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
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--variants", default="warmup,lazy")
    args = parser.parse_args()
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               VERBATIM_HOME=tempfile.mkdtemp(prefix="verbatim-startup-"))
    subprocess.run([sys.executable, "-m", "core", "index", "-q", "--workspace", "w",
                    str(ROOT / "resources" / "sample" / "docs")],
                   cwd=ROOT, env=env, check=False, capture_output=True)
    variants = args.variants.split(",")
    results: dict[str, list[dict]] = {v: [] for v in variants}
    for _ in range(args.runs):
        for v in variants:
            proc = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), v], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=600, check=True)
            line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            results[v].append(json.loads(line[-1]))
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["n/a"]
    print(f"window start-up, {args.runs} starts per variant, {os.cpu_count()} CPUs, load average {' '.join(load)} "
          "(interactive = first event-loop turn with the window shown)")
    for v in variants:
        rs = results[v]
        cold, warm = rs[0], rs[1:] or rs
        splash = ""
        if "splash_s" in cold:
            splash = f"; splash on screen after {statistics.median(r['splash_s'] for r in rs):.2f} s (median)"
        print(f"{v:7} cold {cold['interactive_s']:.2f} s, warm median "
              f"{statistics.median(r['interactive_s'] for r in warm):.2f} s (runs: "
              + ", ".join(f"{r['interactive_s']:.2f}" for r in rs) + f"){splash}; memory at rest (RSS, 2 s after): "
              f"median {statistics.median(r['rss_mb'] for r in rs):.0f} MB; workspace listed: "
              f"{all(r['workspace_loaded'] for r in rs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
