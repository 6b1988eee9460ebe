"""GUI-thread latency while the window indexes and answers.

A 10 ms ``QTimer`` on the GUI thread records the gap between its ticks while
the window (1) sits idle, (2) indexes a corpus (the real embedding model) and
(3) answers a question with the embedded llama.cpp model (the self-test's short
turn), then opens the first
citation if the answer kept one (everything real). The longest gap is how long
the window was unresponsive. Prints, per variant and phase, the median over runs
of the longest gap and of the 99th-percentile gap, in milliseconds.

Each run is a fresh process (the first indexing of a session is the one that
used to freeze), so variants compare in one invocation:

* ``engine`` — what ``python -m desktop`` does: indexing and answering in the
  engine process (:mod:`core.engine`), started with the window; indexing begins
  at once, while the engine is still loading its libraries.
* ``in-process`` — ``--in-process``: the same work in the window's process, the
  libraries loading on first use, in a pool thread.
* ``in-process-warm`` — the window's process loaded the libraries before the
  window was created (:func:`core.engine.warm_up`, incl. ``gc.freeze()``): the
  previous release's splash-screen start-up.

Corpora: ``small`` (default; the NIST PDF plus the first 10 pages of the BOE PDF,
~30 s a run) or ``sample`` (both sample PDFs in full, minutes a run on a loaded machine).

Usage: ``QT_QPA_PLATFORM=offscreen python bench/gui_latency.py [--runs 3] [--variants engine,in-process]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")



class _Gaps:
    def __init__(self, timer_ms: int = 10) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(timer_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    def start(self) -> None:
        self.gaps.clear()
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        return list(self.gaps)


def _wait(app, cond, timeout_s: float) -> None:
    """Run the event loop until ``cond()``; sleeps between events (a polling loop would take a core)."""
    from PySide6.QtCore import QEventLoop, QTimer

    end = time.monotonic() + timeout_s
    wake = QTimer()  # at least one event every 50 ms, so the blocking wait below returns to check cond
    wake.start(50)
    try:
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError("phase did not finish")
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        wake.stop()


def small_corpus() -> Path:
    """A temporary folder with the NIST sample PDF and the first 10 pages of the BOE sample PDF."""
    import pymupdf

    from core.paths import sample_corpus_dir

    out = Path(tempfile.mkdtemp(prefix="verbatim-bench-corpus-"))
    src = sample_corpus_dir()
    (out / "NIST.FIPS.199.pdf").write_bytes((src / "NIST.FIPS.199.pdf").read_bytes())
    with pymupdf.open(src / "BOE-A-1978-31229-consolidado.pdf") as boe, pymupdf.open() as part:
        part.insert_pdf(boe, from_page=0, to_page=9)
        part.save(out / "BOE-first-10-pages.pdf")
    return out


def one_run(app, corpus: Path, engine) -> dict[str, list[float]]:
    """One idle + index + ask cycle in a fresh data folder; returns the tick gaps per phase."""
    import core  # noqa: F401
    from core.settings import Settings
    from desktop.main_window import MainWindow

    from core.selftest import SELFTEST_SETTINGS

    # The self-test's short embedded turn (top_k 1, 256 tokens): the gaps do not depend on the
    # answer's length, and llama.cpp's 2 threads slow down many times on a busy 2-core machine.
    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9", **SELFTEST_SETTINGS), workspace="bench",
                        engine=engine)
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.workspace_name == "bench", 30)
    gaps = _Gaps()
    out: dict[str, list[float]] = {}

    gaps.start()
    _wait(app, lambda: False if gaps.gaps and len(gaps.gaps) < 100 else bool(gaps.gaps), 30)
    out["idle"] = gaps.stop()

    reports = []
    window.indexing_finished.connect(reports.append)
    gaps.start()
    window.start_indexing(str(corpus))
    _wait(app, lambda: bool(reports), 900)
    out["index"] = gaps.stop()

    answers, pages = [], []
    window.answer_ready.connect(answers.append)
    window.page_rendered.connect(lambda: pages.append(1))
    gaps.start()
    window.ask("What are the security objectives?")
    _wait(app, lambda: bool(answers), 600)
    if answers[0].claims:
        window.open_citation(1)
        _wait(app, lambda: bool(pages), 60)
    out["ask"] = gaps.stop()
    out["cited"] = [float(len(answers[0].claims))]
    window.close()
    return out


def child(variant: str, corpus: str) -> int:
    """Run one cycle in this process under ``variant``; print its gaps as one JSON line."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-bench-")  # before the engine spawns
    from core.engine import Engine, LocalEngine, warm_up

    warm_s = 0.0
    if variant == "in-process-warm":
        warm_s = warm_up()["total"]
    engine = Engine() if variant == "engine" else LocalEngine()
    gaps = one_run(app, Path(corpus), engine)
    print(json.dumps({"variant": variant, "warmup_s": warm_s, "gaps": gaps}), flush=True)
    return 0


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "n/a"


def main() -> int:
    """Run the bench (``--runs`` fresh processes per variant, interleaved) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", default="engine,in-process")
    parser.add_argument("--corpus", choices=["small", "sample"], default="small")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--corpus-dir", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.corpus_dir)
    from core.paths import sample_corpus_dir

    corpus = small_corpus() if args.corpus == "small" else sample_corpus_dir()
    variants = args.variants.split(",")
    results: dict[str, list[dict]] = {v: [] for v in variants}
    loads = [_load()]
    for _ in range(args.runs):
        for v in variants:  # interleaved, so machine load drifts hit every variant alike
            proc = subprocess.run([sys.executable, __file__, "--child", v, "--corpus-dir", str(corpus)],
                                  capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
            line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            if proc.returncode or not line:
                print(proc.stderr[-3000:], file=sys.stderr)
                return 1
            results[v].append(json.loads(line[-1]))
            loads.append(_load())
    print(f"GUI-thread tick gaps (10 ms timer), corpus {args.corpus}, {args.runs} fresh processes per variant, "
          f"{os.cpu_count()} CPUs, load average before/after runs: {loads[0]} / {loads[-1]}; median over runs")
    print(f"{'variant':16} {'phase':6} {'ticks':>6} {'longest gap ms':>15} {'p99 gap ms':>11}  per run (longest)")
    for v in variants:
        runs = [r["gaps"] for r in results[v]]
        for phase in ("idle", "index", "ask"):
            longest = [max(r[phase]) for r in runs]
            p99 = [statistics.quantiles(r[phase], n=100)[98] if len(r[phase]) > 2 else max(r[phase]) for r in runs]
            ticks = statistics.median(len(r[phase]) for r in runs)
            print(f"{v:16} {phase:6} {ticks:6.0f} {statistics.median(longest):15.1f} {statistics.median(p99):11.1f}  "
                  + ", ".join(f"{x:.0f}" for x in longest))
        if v == "in-process-warm":
            print(f"{v:16} warm-up before the window: median {statistics.median(r['warmup_s'] for r in results[v]):.1f} s")
        print(f"{v:16} claims kept by the embedded model per run: "
              + ", ".join(f"{r['gaps']['cited'][0]:.0f}" for r in results[v]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
