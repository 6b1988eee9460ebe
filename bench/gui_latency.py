"""GUI-thread latency while the window indexes and answers.

A 10 ms ``QTimer`` on the GUI thread records the gap between its ticks while
the window (1) sits idle, (2) indexes the bundled sample corpus (two PDFs, the
real embedding model) and (3) answers a question with a scripted generator
(retrieval, verification and rendering the cited page are real). The longest
gap is how long the window was unresponsive. Prints, per phase, the median over
runs of the longest gap and of the 99th-percentile gap, in milliseconds.

Usage: ``QT_QPA_PLATFORM=offscreen python bench/gui_latency.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_CHUNK = re.compile(r'<chunk id="([^"]+)">\n(.*?)\n</chunk>', re.DOTALL)


class _Scripted:
    """Cites 60 characters of the first delivered chunk (no model: the bench measures the window)."""

    name = model = "scripted"
    context_window = 4096

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        from core.generate import GenerationResult

        cid, text = _CHUNK.findall(messages[-1]["content"])[0]
        self.thread = threading.get_ident()
        return GenerationResult(text=json.dumps({
            "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
            "claims": [{"text": "A sentence.", "citations": [{"chunk_id": cid, "quote": text[:60]}]}],
        }), prompt_tokens=0)


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
    from PySide6.QtCore import QEventLoop

    end = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("phase did not finish")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def one_run(app) -> dict[str, list[float]]:
    """One idle + index + ask cycle in a fresh data folder; returns the tick gaps per phase."""
    import core  # noqa: F401
    from core.paths import sample_corpus_dir
    from core.settings import Settings
    from desktop.main_window import MainWindow

    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-bench-")
    backend = _Scripted()
    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="bench", backend=backend)
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
    window.start_indexing(str(sample_corpus_dir()))
    _wait(app, lambda: bool(reports), 900)
    out["index"] = gaps.stop()

    answers, pages = [], []
    window.answer_ready.connect(answers.append)
    window.page_rendered.connect(lambda: pages.append(1))
    gaps.start()
    window.ask("What are the security objectives?")
    _wait(app, lambda: bool(answers), 300)
    window.open_citation(1)
    _wait(app, lambda: bool(pages), 60)
    out["ask"] = gaps.stop()
    assert backend.thread != threading.get_ident(), "the generator ran on the GUI thread"
    window.close()
    return out


def main() -> int:
    """Run the bench and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    runs = [one_run(app) for _ in range(args.runs)]
    print(f"GUI-thread tick gaps (10 ms timer), {args.runs} runs, {os.cpu_count()} CPUs; median over runs")
    print(f"{'phase':8} {'ticks':>7} {'longest gap ms':>15} {'p99 gap ms':>11}  per run (longest)")
    for phase in ("idle", "index", "ask"):
        longest = [max(r[phase]) for r in runs]
        p99 = [statistics.quantiles(r[phase], n=100)[98] if len(r[phase]) > 2 else max(r[phase]) for r in runs]
        ticks = statistics.median(len(r[phase]) for r in runs)
        print(f"{phase:8} {ticks:7.0f} {statistics.median(longest):15.1f} {statistics.median(p99):11.1f}  "
              + ", ".join(f"{x:.0f}" for x in longest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
