"""The GUI thread keeps turning while the window indexes and answers.

No timing asserts (house rule: speed goes to ``bench/gui_latency.py``, which
prints the longest gap). What cannot be flaky on a loaded machine: a timer on
the GUI thread keeps firing *between* the progress reports of one indexing run
and between asking and the answer — if the work ran in the GUI thread (or held
it until the end), no tick could land in between, however slow the machine.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from pathlib import Path

import pymupdf
from PySide6.QtCore import QTimer

from core.selftest import SELFTEST_SETTINGS
from core.settings import Settings
from tests.desktop.test_window import ScriptedBackend

TIMEOUT_MS = 300_000


class _ThreadRecordingBackend(ScriptedBackend):
    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        self.thread = threading.get_ident()
        return super().chat_json(messages, schema, num_ctx=num_ctx, max_tokens=max_tokens)


def _make_pdfs(folder: Path, n: int = 3) -> None:
    folder.mkdir(parents=True)
    for i in range(n):
        doc = pymupdf.open()
        for p in range(3):
            page = doc.new_page()
            text = (f"Document {i}, page {p + 1}. The lessee shall pay the monthly rent of {1000 + i} euros "
                    "on the first working day of each month by bank transfer to the account of the lessor. ") * 6
            page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=10)
        doc.save(folder / f"contract-{i}.pdf")
        doc.close()


def test_timer_ticks_between_progress_reports_and_while_answering(qtbot, tmp_path, monkeypatch):
    from desktop.main_window import MainWindow

    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    _make_pdfs(docs)
    backend = _ThreadRecordingBackend()
    window = MainWindow(Settings(), workspace="resp", backend=backend)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "resp", timeout=TIMEOUT_MS)

    events: list[str] = []  # "tick" and "progress" in the order the GUI thread saw them
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: events.append("tick"))
    on_progress = window.indexing.on_progress  # looked up per report, so wrapping the bound method sees each

    def progress(run, event):
        events.append("progress")
        on_progress(run, event)

    monkeypatch.setattr(window.indexing, "on_progress", progress)
    reports = []
    window.indexing_finished.connect(reports.append)
    timer.start()
    window.start_indexing(str(docs))
    qtbot.waitUntil(lambda: bool(reports), timeout=TIMEOUT_MS)
    assert reports[0].documents == 3 and not reports[0].failures
    progress_at = [i for i, e in enumerate(events) if e == "progress"]
    assert len(progress_at) >= 2, events
    between = events[progress_at[0]:progress_at[-1]].count("tick")
    assert between >= 1, "no GUI-thread tick between the first and last progress report: the GUI thread was blocked"

    answers = []
    window.answer_ready.connect(answers.append)
    events.clear()
    window.ask("When is the monthly rent paid?")
    qtbot.waitUntil(lambda: bool(answers), timeout=TIMEOUT_MS)
    timer.stop()
    assert events.count("tick") >= 1, "the GUI thread did not turn while answering"
    assert backend.thread != threading.get_ident(), "the generator ran on the GUI thread"
    assert answers[0].status in ("answered", "partial")


def test_window_indexes_and_answers_through_the_engine_process(qtbot, tmp_path, monkeypatch):
    """What ``verbatim-desktop`` runs: a real engine process, the real embedded model; the window closes it."""
    from core.engine import Engine
    from desktop.main_window import MainWindow

    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home"))  # before the engine spawns: it inherits it
    docs = tmp_path / "docs"
    _make_pdfs(docs, n=2)
    engine = Engine()
    window = MainWindow(Settings(**SELFTEST_SETTINGS), workspace="proc", engine=engine)  # short embedded turn
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.engine_label.text() == "Engine: ready", timeout=TIMEOUT_MS)
    engine_pid = engine.pid
    assert engine_pid is not None and engine_pid != os.getpid()
    assert str(engine_pid) in window.engine_label.toolTip()

    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    reports, answers, errors = [], [], []
    window.indexing_finished.connect(reports.append)
    window.answer_ready.connect(answers.append)
    window.error_occurred.connect(errors.append)
    window.start_indexing(str(docs))
    qtbot.waitUntil(lambda: bool(reports) or bool(errors), timeout=TIMEOUT_MS)
    assert not errors, errors
    assert reports[0].documents == 2 and not reports[0].failures
    qtbot.waitUntil(lambda: window.workspaces_panel.documents_view.topLevelItemCount() >= 2,
                    timeout=TIMEOUT_MS)  # read in this process, written by the engine

    window.ask("When is the monthly rent paid?")
    qtbot.waitUntil(lambda: bool(answers) or bool(errors), timeout=TIMEOUT_MS)
    timer.stop()
    assert not errors, errors
    assert answers[0].trace.backend == "embedded" and answers[0].workspace == "proc"
    assert ticks, "the GUI thread never turned"
    assert engine.pid == engine_pid  # one engine served the whole session

    window.close()
    assert engine.pid is None  # closing the window ends the engine process


def test_engine_warm_up_loads_the_heavy_libraries_and_freezes_startup_objects():
    from core.engine import WARM_UP_STEPS, warm_up

    timings = warm_up()
    assert set(timings) == {name for name, _ in WARM_UP_STEPS} | {"total"}
    for module in ("pymupdf", "lancedb", "torch", "sentence_transformers"):
        assert module in sys.modules, module
    assert gc.get_freeze_count() > 100_000  # torch & co. now sit in the permanent generation
    assert timings["total"] >= max(v for k, v in timings.items() if k != "total")


_LIGHT_WINDOW = r"""
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication([])
import core
from core.engine import Engine
from core.settings import Settings
from desktop.main_window import MainWindow
engine = Engine(warm_up=False)
from core.selftest import SELFTEST_SETTINGS
w = MainWindow(Settings(**SELFTEST_SETTINGS, ollama_host="http://127.0.0.1:9"), workspace="light", engine=engine)
w.show()
out = {"errors": []}
w.error_occurred.connect(out["errors"].append)
w.indexing_finished.connect(lambda r: (out.__setitem__("documents", r.documents), w.ask("When is the rent paid?")))
def answered(a):
    out["status"] = a.status
    if a.claims:
        w.open_citation(1)
        w.page_rendered.connect(done)
    else:
        done()
def done():
    out["heavy"] = sorted(m for m in ("torch", "transformers", "sentence_transformers", "lancedb", "pyarrow",
                                      "llama_cpp", "llama_index") if m in sys.modules)
    print(json.dumps(out), flush=True)
    w.close()
    app.quit()
w.answer_ready.connect(answered)
w.error_occurred.connect(lambda m: done())
w.start_indexing(sys.argv[1])
app.exec()
"""


def test_the_window_process_never_loads_the_heavy_libraries(tmp_path):
    """Index, ask, open a citation: torch, LanceDB, llama.cpp & co. load only in the engine process.

    Guards the reason the engine exists (GIL holds of seconds in the window): a
    window-side read that opened the vector store, or an import moved to module
    level, would bring them back here.
    """
    import json
    import subprocess

    docs = tmp_path / "docs"
    _make_pdfs(docs, n=1)
    env = dict(os.environ, VERBATIM_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", _LIGHT_WINDOW, str(docs)], cwd=Path(__file__).resolve().parents[2],
                          env=env, capture_output=True, text=True, timeout=TIMEOUT_MS // 1000 * 2)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = json.loads(lines[-1])
    assert out["errors"] == [] and out["documents"] == 1 and out["status"] in ("answered", "partial", "abstained")
    assert out["heavy"] == [], out
