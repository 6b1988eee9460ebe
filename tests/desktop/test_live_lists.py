"""Issue #16: the workspace and document lists show the truth at every moment, the time left
says "estimating…" until it means something, and long names never move the layout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.settings import Settings
from core.types import Abstention, Answer, Citation, Trace
from tests.conftest import CASES, CORPORA, GatedEngine

TIMEOUT_MS = 180_000
LONG_NAME = ("HealthcareIntegratedTechnologiesInc_20190812_8-K_EX-10.1_11776966_EX-10.1_"
             "Reseller_and_Distribution_Agreement_with_all_Schedules_and_Amendments.pdf")

_CREATE_WHILE_LOADING = r"""
import json, sys, threading
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
import core
from core.engine import Engine
from core.settings import Settings
from desktop.main_window import MainWindow

class LoadingEngine(Engine):
    '''An engine that is still loading its libraries (issue #16's user waited 52 s for "ready").'''
    def start(self):
        pass
    def wait_ready(self, timeout=None):
        threading.Event().wait(timeout)
        return False

w = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), engine=LoadingEngine())
w.show()
errors = []
w.error_occurred.connect(errors.append)
QTimer.singleShot(200, lambda: w.create_workspace("Contracts"))
def check():
    lst = w.workspaces_panel.workspace_list
    names = [lst.item(i).text() for i in range(lst.count())]
    if w.workspace_name == "Contracts" or errors:
        print(json.dumps({"names": names, "engine": w.engine_label.text(), "errors": errors,
                          "heavy": sorted(m for m in ("lancedb", "pyarrow", "torch", "llama_index")
                                          if m in sys.modules)}), flush=True)
        app.quit()
timer = QTimer()
timer.timeout.connect(check)
timer.start(50)
QTimer.singleShot(120_000, app.quit)
app.exec()
"""


def test_a_workspace_created_while_the_engine_loads_is_listed_at_once(tmp_path):
    """Creating writes the manifest in the window's process (no LanceDB, no recovery) and never waits
    for the engine; before, the name appeared only once the engine was ready, and a second try said
    "A workspace named 'Contracts' already exists"."""
    env = dict(os.environ, VERBATIM_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", _CREATE_WHILE_LOADING], cwd=Path(__file__).resolve().parents[2],
                          env=env, capture_output=True, text=True, timeout=300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = json.loads(lines[-1])
    assert out["errors"] == [] and out["names"] == ["Contracts"]
    assert out["engine"] == "Engine: loading…"  # listed while the engine still loads
    assert out["heavy"] == []  # the window's process opened no vector store to create it


def test_a_workspace_made_elsewhere_appears_without_any_action(qtbot):
    from core.workspace_ops import create_workspace, delete_workspace
    from desktop.main_window import MainWindow

    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="here")
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.workspace_name == "here", timeout=TIMEOUT_MS)
    create_workspace("made-by-the-cli")  # as `verbatim index … -w made-by-the-cli` in a terminal would

    def names():
        lst = window.workspaces_panel.workspace_list
        return [lst.item(i).text() for i in range(lst.count())]

    qtbot.waitUntil(lambda: names() == ["here", "made-by-the-cli"], timeout=TIMEOUT_MS)
    assert window.workspace_name == "here"  # the selection stays
    delete_workspace("made-by-the-cli")
    qtbot.waitUntil(lambda: names() == ["here"], timeout=TIMEOUT_MS)




def _rows(window) -> dict[str, str]:
    from desktop.workspaces_panel import ROLE_STATUS

    view = window.documents_view
    return {view.topLevelItem(i).text(0): view.topLevelItem(i).data(0, ROLE_STATUS)
            for i in range(view.topLevelItemCount())}


def test_documents_appear_as_each_commit_lands_with_their_state(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    docs = tmp_path / "contracts"
    docs.mkdir()
    clause = "The Supplier shall deliver the Products within thirty days of each purchase order. " * 60
    for i, company in enumerate(("ALCOSTORESINC", "ALCOSTORESLLC", "BICYCLETHERAPEUTICSPLC")):
        (docs / f"{company}_12_14_2005-EX-10.{i}-SUPPLY AND DISTRIBUTION AGREEMENT.txt").write_text(
            f"Agreement {i}. " + clause, encoding="utf-8")
    shutil.copy(CASES / "B25_visible_injection.md", docs / "notes.md")
    (docs / "broken.pdf").write_bytes(b"not a pdf at all")
    engine = GatedEngine()
    window = MainWindow(Settings(index_commit_chunks=1, ollama_host="http://127.0.0.1:9"), workspace="live",
                        engine=engine)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "live", timeout=TIMEOUT_MS)
    width = window.width()
    window.start_indexing(str(docs))
    # Before the engine takes the run: every file to read is listed as queued, and the folder too.
    qtbot.waitUntil(lambda: len(_rows(window)) == 5, timeout=TIMEOUT_MS)
    assert set(_rows(window).values()) == {"queued"}
    folders = window.workspaces_panel.folders_view
    assert folders.count() == 1 and folders.item(0).text() == "contracts (being added)"
    assert "0 documents" in window.workspaces_panel.summary_label.text()
    assert "queued: 5" in window.workspaces_panel.summary_label.text()

    seen: list[dict[str, str]] = []
    etas: list[str] = []
    window.workspace_loaded.connect(lambda _name: seen.append(_rows(window)))
    window.progress_bar.valueChanged.connect(lambda _v: etas.append(window.eta_label.text()))
    reports = []
    window.indexing_finished.connect(reports.append)
    engine.gate.set()
    qtbot.waitUntil(lambda: bool(reports), timeout=TIMEOUT_MS)
    final = {"contracts/ALCOSTORESINC_12_14_2005-EX-10.0-SUPPLY AND DISTRIBUTION AGREEMENT.txt": "active",
             "contracts/ALCOSTORESLLC_12_14_2005-EX-10.1-SUPPLY AND DISTRIBUTION AGREEMENT.txt": "active",
             "contracts/BICYCLETHERAPEUTICSPLC_12_14_2005-EX-10.2-SUPPLY AND DISTRIBUTION AGREEMENT.txt": "active",
             "contracts/broken.pdf": "failed", "contracts/notes.md": "quarantined"}
    qtbot.waitUntil(lambda: _rows(window) == final, timeout=TIMEOUT_MS)
    # Mid-run, committed documents were listed with their state beside the ones still waiting.
    assert any("active" in s.values() and {"queued", "indexing"} & set(s.values()) for s in seen), seen
    assert folders.item(0).text() == "contracts"
    assert etas and etas[0] == "estimating…", etas  # never a guess from the first file
    assert window.width() == width  # long names in the progress rows did not widen the window


def test_long_names_elide_keeping_what_tells_them_apart(qapp):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QFontMetrics

    from desktop.elide import distinguishing_starts, elide_distinct

    names = ["contracts/" + p.name for p in sorted((CORPORA / "cuad" / "pdf").iterdir())]
    names += ["contracts/THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT (2).PDF",
              "contracts/THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT (3).PDF",
              "contracts/ALCOSTORESLLC_01_02_2006-EX-10.27-AGENCY AGREEMENT.PDF"]  # starts and ends alike
    fm = QFontMetrics(QFont())
    width = fm.horizontalAdvance("contracts/BICYCLETHERAPEUTICSPLC")
    starts = distinguishing_starts(names)
    ours = [elide_distinct(n, starts[n], width, fm.horizontalAdvance) for n in names]
    assert all(fm.horizontalAdvance(t) <= width for t in ours)
    assert len(set(ours)) == len(names), ours  # every row can still be told apart
    assert ours[names.index("contracts/THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT (3).PDF")] \
        .startswith("…")  # the shared prefix goes, the difference stays
    middle = [fm.elidedText(n, Qt.TextElideMode.ElideMiddle, width) for n in names]
    assert len(set(middle)) < len(names)  # what the list did before (issue #16)


def test_opening_a_long_named_document_leaves_the_answer_column_alone(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    folder = tmp_path / "contracts"
    folder.mkdir()
    pdf = folder / LONG_NAME
    shutil.copy(CORPORA / "pdfs" / "NIST.FIPS.199.pdf", pdf)
    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="layout")
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "layout", timeout=TIMEOUT_MS)
    for i in range(12):  # a conversation long enough to scroll
        window.show_answer(Answer(
            question=f"Question {i} about the reseller agreement?", workspace="layout", status="abstained",
            abstention=Abstention(message="The model found no answer in the passages consulted.",
                                  query=f"Question {i}", consulted=[]),
            trace=Trace(backend="scripted", model="scripted")))
    qtbot.wait(200)
    bar = window.answer_view.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum() // 2)
    before = (window.width(), window.answer_view.width(), window.side_panel.width(), bar.value())

    cited = Citation(chunk_id=f"contracts/{LONG_NAME}#p2-c0", doc_id=f"contracts/{LONG_NAME}", path=str(pdf), page=2,
                     quote="security categories", match="exact", score=100, start=0, end=19)
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.side_panel.show_citation(cited, 1, 3)
    qtbot.wait(200)
    after = (window.width(), window.answer_view.width(), window.side_panel.width(), bar.value())
    assert after == before
    header = window.side_panel.page_label
    assert header.text() == f"[1] {LONG_NAME} — page 2 (1/3)"  # whole in the tooltip and to screen readers
    shown = header.shown_text()
    assert shown.endswith(" — page 2 (1/3)") and "…" in shown  # the file name is elided, the page is not
    assert header.height() < 2 * header.fontMetrics().height() + 8  # one line, not four
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.side_panel.show_document(str(pdf), 1, f"contracts/{LONG_NAME}")
    qtbot.wait(200)
    assert (window.width(), window.answer_view.width(), window.side_panel.width(), bar.value()) == before
