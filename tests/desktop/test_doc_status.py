"""Document status from the documents list, end to end: quarantine/supersede with a reason, release, and retrieval obeys."""

from __future__ import annotations


import pytest

from core.settings import Settings
from tests.conftest import ScriptedBackend, cite_first

TIMEOUT_MS = 180_000
LEASE = "The lease term is twelve months starting on the first of March 2024. Rent is due monthly.\n" * 4
NOTICE = "Either party may terminate the lease with ninety days written notice to the other party.\n" * 4


_cite_first = cite_first("The lease says so.")


def _rows(window) -> dict[str, tuple[str, object]]:
    view = window.workspaces_panel.documents_view
    return {view.topLevelItem(i).text(0): (view.topLevelItem(i).text(2), view.topLevelItem(i))
            for i in range(view.topLevelItemCount())}


def _menu_texts(window, doc_id: str) -> dict[str, object]:
    menu = window.workspaces_panel.document_menu(_rows(window)[doc_id][1])
    return {a.text(): a for a in menu.actions()}


@pytest.fixture
def indexed(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog
    from desktop.main_window import MainWindow

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    (docs / "notice.txt").write_text(NOTICE, encoding="utf-8")
    backend = ScriptedBackend(_cite_first)
    window = MainWindow(Settings(watch_folders=False), workspace="matter", backend=backend)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "matter", timeout=TIMEOUT_MS)
    reports = []
    window.indexing_finished.connect(reports.append)
    window.start_indexing(str(docs))
    qtbot.waitUntil(lambda: bool(reports), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(_rows(window)) == 2 and window.workspaces_panel.settled(), timeout=TIMEOUT_MS)
    asked: list[tuple[str, str]] = []
    replies: list[tuple[str, bool]] = []

    def get_text(parent, title, label, *args, **kwargs):
        asked.append((title, label))
        return replies.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    return window, backend, asked, replies


def test_quarantine_with_reason_hides_the_document_then_release(qtbot, indexed):
    window, backend, asked, replies = indexed
    lease = next(d for d in _rows(window) if d.endswith("lease.txt"))
    actions = _menu_texts(window, lease)
    assert set(actions) == {"Mark as superseded…", "Quarantine…"}  # no "active" on an active document

    replies.append(("suspicious instructions found by the reviewer", True))
    actions["Quarantine…"].trigger()
    qtbot.waitUntil(lambda: "quarantined" in _rows(window)[lease][0], timeout=TIMEOUT_MS)
    assert "suspicious instructions" in _rows(window)[lease][0] + _rows(window)[lease][1].toolTip(2)
    assert len(asked) == 1
    assert "quarantined: 1" in window.workspaces_panel.summary_label.text()

    answers = []
    window.answer_ready.connect(answers.append)
    window.ask("How long is the lease term?")
    qtbot.waitUntil(lambda: bool(answers), timeout=TIMEOUT_MS)
    delivered = " ".join(m["content"] for m in backend.calls[-1] if m["role"] == "user")
    assert "lease.txt#" not in delivered and "notice.txt#" in delivered  # quarantined content never reaches the model

    actions = _menu_texts(window, lease)
    assert set(actions) == {"Release from quarantine", "Mark as superseded…"}
    actions["Release from quarantine"].trigger()  # no reason asked for a release
    qtbot.waitUntil(lambda: _rows(window)[lease][0] == "indexed", timeout=TIMEOUT_MS)
    assert len(asked) == 1
    window.ask("How long is the lease term, again?")
    qtbot.waitUntil(lambda: len(answers) == 2, timeout=TIMEOUT_MS)
    delivered = " ".join(m["content"] for m in backend.calls[-1] if m["role"] == "user")
    assert "lease.txt#" in delivered


def test_supersede_with_reason_and_cancelled_reason_changes_nothing(qtbot, indexed):
    window, backend, asked, replies = indexed
    notice = next(d for d in _rows(window) if d.endswith("notice.txt"))
    replies.append(("", False))  # the user cancels the reason dialog
    _menu_texts(window, notice)["Mark as superseded…"].trigger()
    qtbot.wait(300)
    window.refresh_workspace()
    loaded = []
    window.workspace_loaded.connect(loaded.append)
    qtbot.waitUntil(lambda: bool(loaded), timeout=TIMEOUT_MS)
    assert _rows(window)[notice][0] == "indexed"

    replies.append(("replaced by the 2025 notice", True))
    _menu_texts(window, notice)["Mark as superseded…"].trigger()
    qtbot.waitUntil(lambda: "superseded" in _rows(window)[notice][0], timeout=TIMEOUT_MS)
    assert "replaced by the 2025 notice" in _rows(window)[notice][0]
    assert set(_menu_texts(window, notice)) == {"Mark as active", "Quarantine…"}
    _menu_texts(window, notice)["Mark as active"].trigger()
    qtbot.waitUntil(lambda: _rows(window)[notice][0] == "indexed", timeout=TIMEOUT_MS)
    assert len(asked) == 2
