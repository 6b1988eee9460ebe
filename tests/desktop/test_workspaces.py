"""Workspaces panel flows: create, rename, delete with stores, remove folder, cancel indexing, history and stale marks."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import core  # noqa: F401
from core.settings import Settings
from core.store import list_workspaces, workspaces_root
from tests.conftest import ScriptedBackend, cite_first

REPO = Path(__file__).resolve().parents[2]
SAMPLE_DOCS = REPO / "resources" / "sample" / "docs"
ARTIFACTS = REPO / "tests" / "artifacts"
TIMEOUT_MS = 120_000
LEASE = "The lease term is twelve months starting on the first of March 2024. Rent is due monthly.\n" * 4


_cite_first = cite_first("The lease lasts twelve months.")


@pytest.fixture
def window(qtbot):
    from desktop.main_window import MainWindow

    w = MainWindow(Settings(), workspace="alpha", backend=ScriptedBackend(_cite_first))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.workspace_name == "alpha", timeout=120_000)
    errors: list[str] = []
    w.error_occurred.connect(errors.append)
    w.errors = errors
    return w


def _names(window) -> list[str]:
    lst = window.workspaces_panel.workspace_list
    return [lst.item(i).text() for i in range(lst.count())]


def test_create_rename_delete(qtbot, window, tmp_path):
    with qtbot.waitSignal(window.workspaces_changed, timeout=120_000):
        window.create_workspace("Client B")
    qtbot.waitUntil(lambda: window.workspace_name == "Client B", timeout=120_000)
    assert _names(window) == ["Client B", "alpha"]

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    with qtbot.waitSignal(window.workspaces_changed, timeout=120_000):
        window.rename_workspace("Client B", "Client C")
    qtbot.waitUntil(lambda: window.workspace_name == "Client C" and window.documents_view.topLevelItemCount() == 1,
                    timeout=120_000)
    assert _names(window) == ["Client C", "alpha"]
    assert window.documents_view.topLevelItem(0).text(0) == "docs/lease.txt"

    # an invalid name is refused with a clear message, nothing moves
    with qtbot.waitSignal(window.error_occurred, timeout=120_000) as blocker:
        window.rename_workspace("Client C", "a/b")
    assert "cannot hold" in blocker.args[0]
    assert "Client C" in list_workspaces()

    with qtbot.waitSignal(window.workspaces_changed, timeout=120_000):
        window.delete_workspace("Client C")
    assert _names(window) == ["alpha"] and window.workspace_name == "alpha"
    assert not (workspaces_root() / "Client C").exists()  # its stores are gone
    assert (docs / "lease.txt").exists()  # the user's documents are not touched

    with qtbot.waitSignal(window.workspaces_changed, timeout=120_000):
        window.delete_workspace("alpha")
    assert window.centre.currentWidget() is window.welcome  # no workspace left: first-run view
    assert not window.errors or window.errors == [blocker.args[0]]


def test_a_listing_taken_during_deletion_does_not_bring_the_workspace_back(qtbot, window):
    """CI failure: the folder watcher listed 'alpha' while its deletion ran; the window
    selected it again and showed the conversation instead of the first-run view."""
    controller = window.workspaces
    controller.delete("alpha")
    controller._on_workspaces(["alpha"], None)  # the listing a watcher event took before the folder went
    assert window.workspace_name is None
    assert window.centre.currentWidget() is window.welcome
    qtbot.waitUntil(lambda: not (workspaces_root() / "alpha").exists(), timeout=120_000)
    qtbot.waitUntil(lambda: controller.names == [] and not controller._deleting, timeout=120_000)
    assert window.centre.currentWidget() is window.welcome


def test_remove_folder(qtbot, window, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "one.txt").write_text(LEASE, encoding="utf-8")
    (b / "two.txt").write_text(LEASE.replace("lease", "loan"), encoding="utf-8")
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing([str(a), str(b)])
    qtbot.waitUntil(lambda: window.documents_view.topLevelItemCount() == 2 and window.workspaces_panel.settled(),
                    timeout=120_000)
    assert window.workspaces_panel.folders_view.count() == 2
    with qtbot.waitSignal(window.workspace_loaded, timeout=120_000):
        window.remove_folder(str(a.resolve()))
    qtbot.waitUntil(lambda: window.documents_view.topLevelItemCount() == 1, timeout=120_000)
    assert window.documents_view.topLevelItem(0).text(0) == "b/two.txt"
    assert window.workspaces_panel.folders_view.count() == 1
    assert not window.errors


def test_cancel_indexing_keeps_window_usable(qtbot, window, tmp_path):
    docs = tmp_path / "many"
    docs.mkdir()
    for i in range(40):
        (docs / f"note{i:02d}.txt").write_text(f"Note {i}. " + LEASE, encoding="utf-8")
    progressed = threading.Event()
    window.workspaces_panel.progress_bar.valueChanged.connect(lambda v: v >= 100 and progressed.set())
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS) as blocker:
        window.start_indexing(str(docs))
        assert window.cancel_button.isEnabled()
        qtbot.waitUntil(progressed.is_set, timeout=TIMEOUT_MS)
        assert window.progress_bar.maximum() == 1000  # determinate: the share of the run's pages read
        assert window.progress_bar.format().endswith("of 40 files")
        assert "many/note" in window.current_file_label.text()  # "Reading many/note03.txt"
        # the rest of the window works meanwhile
        window.create_workspace("other")
        qtbot.waitUntil(lambda: window.workspace_name == "other", timeout=120_000)  # created and selected
        window.select_workspace("alpha")
        window.cancel_indexing()
    report = blocker.args[0]
    assert report.cancelled and report.documents < 40
    qtbot.waitUntil(lambda: not window.cancel_button.isEnabled(), timeout=120_000)
    assert "Cancelled" in window.current_file_label.text()


def test_history_reopen_and_stale_citation(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    window = MainWindow(Settings(), workspace="matter", backend=ScriptedBackend(_cite_first))
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.workspace_name == "matter", timeout=120_000)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    window.ask("How long is the lease?")
    qtbot.waitUntil(lambda: window.history_view.count() == 1, timeout=TIMEOUT_MS)
    window.close()

    # a new window (a new session) reopens the question with its citation
    window = MainWindow(Settings(), workspace="matter", backend=ScriptedBackend(_cite_first))
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.history_loaded, timeout=TIMEOUT_MS):
        pass
    assert window.history_view.count() == 1
    assert "How long is the lease?" in window.answer_view.toPlainText()
    assert "changed since" not in window.answer_view.toPlainText()
    window.open_history_entry(window.conversation.entries[0].history_id)
    assert len(window.citations) == 1 and window.citations[0].doc_id == "docs/lease.txt"

    # the cited text changes and is re-indexed: the citation is marked stale
    (docs / "lease.txt").write_text(LEASE.replace("twelve", "eighteen"), encoding="utf-8")
    os.utime(docs / "lease.txt", (1, 1))
    with qtbot.waitSignal(window.history_loaded, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    assert "changed since this answer" in window.answer_view.toPlainText()
    assert "document changed" in window.history_view.item(0).text()

    # the side panel shows the text with the span highlighted (non-PDF)
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    panel = window.side_panel
    assert panel.stack.currentWidget() is panel.text_view
    cursor = panel.text_view.textCursor()
    assert cursor.position() == window.citations[0].start

    # delete one, then all
    window.ask("How long is the lease?")
    qtbot.waitUntil(lambda: window.history_view.count() == 2, timeout=TIMEOUT_MS)
    first = window.conversation.entries[0].history_id
    with qtbot.waitSignal(window.history_loaded, timeout=120_000):
        window.delete_history_entry(first)
    assert window.history_view.count() == 1
    with qtbot.waitSignal(window.history_loaded, timeout=120_000):
        window.clear_history()
    assert window.history_view.count() == 0 and window.conversation.entries == []


def test_export_markdown_and_pdf(qtbot, window, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS):
        window.ask("How long is the lease?")
    md, pdf = tmp_path / "out.md", tmp_path / "out.pdf"
    with qtbot.waitSignal(window.exported, timeout=120_000):
        window.export_conversation(str(md))
    text = md.read_text(encoding="utf-8")
    assert "## How long is the lease?" in text and "The lease lasts twelve months. [1]" in text
    assert "docs/lease.txt, page 1" in text
    with qtbot.waitSignal(window.exported, timeout=120_000):
        window.export_conversation(str(pdf))
    import pymupdf

    with pymupdf.open(pdf) as doc:
        pdf_text = "".join(p.get_text() for p in doc)
    assert "How long is the lease?" in pdf_text and "docs/lease.txt" in pdf_text


def test_two_clients_folders_of_one_name_are_told_apart(qtbot) -> None:
    """Tryout 5, finding 10 (case B51): ``garcia/Contratos`` and ``lopez/Contratos`` in one
    workspace showed as "Contratos" twice in the folders list; a lawyer must see whose is whose."""
    from core.index_types import FileError
    from desktop.workspaces_panel import WorkspacesPanel

    panel = WorkspacesPanel()
    qtbot.addWidget(panel)
    garcia, lopez, other = "/m/garcia/Contratos", "/m/lopez/Contratos", "/m/lopez/Facturas"
    panel.set_snapshot({"folders": [garcia, lopez], "documents": [], "failures": [
        FileError(path=lopez + "/Contrato.pdf", reason="truncated file")], "chunks": 0}, {"folders": [other]})
    view = panel.folders_view
    assert [view.item(i).text() for i in range(view.count())] == [
        "garcia/Contratos", "lopez/Contratos", "Facturas (being added)"]
    assert [view.item(i).toolTip() for i in range(view.count())] == [garcia, lopez, other]
    # a file that failed is named with the same label, not as if it were García's
    assert panel.documents_view.topLevelItem(0).text(0) == "lopez/Contratos/Contrato.pdf"

    # a workspace whose first "Contratos" kept its plain label (core.store.docids): a warning about one
    # of its indexed files is named by that label, so it is not listed a second time
    panel.set_snapshot({"folders": [garcia, lopez], "chunks": 3,
                        "labels": {garcia: "Contratos", lopez: "lopez/Contratos"},
                        "documents": [{"doc_id": "Contratos/Contrato.pdf", "path": garcia + "/Contrato.pdf",
                                       "status": "active", "pages": 2, "chunks": 3}],
                        "failures": [FileError(path=garcia + "/Contrato.pdf", reason="no text layer", page=2)]})
    docs = panel.documents_view
    assert [docs.topLevelItem(i).text(0) for i in range(docs.topLevelItemCount())] == ["Contratos/Contrato.pdf"]


def test_a_link_left_alone_on_purpose_is_not_listed_as_failed(qtbot) -> None:
    """Tryout 5, finding 13 (case B50): links indexing does not follow (outside the folder, loops,
    broken) were listed as "failed" in red; they are "not followed", greyed, with the reason."""
    from core.index_types import FileError
    from core.ingest.walk import LINK_OUTSIDE
    from desktop.workspaces_panel import WorkspacesPanel

    panel = WorkspacesPanel()
    qtbot.addWidget(panel)
    folder = "/m/ClienteA"
    panel.set_snapshot({"folders": [folder], "documents": [], "chunks": 0, "failures": [
        FileError(path=folder + "/enlace_ClienteB", reason=LINK_OUTSIDE),
        FileError(path=folder + "/roto.pdf", reason="damaged or truncated PDF (no text could be recovered)")]})
    link, broken = (panel.documents_view.topLevelItem(i) for i in range(2))
    assert (link.text(0), link.text(2)) == ("ClienteA/enlace_ClienteB", "not followed")
    assert link.toolTip(2) == LINK_OUTSIDE
    assert link.foreground(2).color() != Qt.GlobalColor.darkRed and broken.text(2) == "failed"
    assert broken.foreground(2).color() == Qt.GlobalColor.darkRed
    assert "failed: 1" in panel.summary_label.text() and "not followed: 1" in panel.summary_label.text()
