"""Issue #12 in the window: a question that names a document says where it searched, with one
click to search the whole workspace; documents selected in the Documents list are the next
question's scope, shown as a chip beside the question box and cleared with one click."""

from __future__ import annotations

from PySide6.QtCore import QUrl

from core.settings import Settings
from tests.conftest import ScriptedBackend, ask_in_window, cite_first

TIMEOUT_MS = 180_000
ACME = ("ACME SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Acme Industrial Holdings and "
        "Kestrel Foods.\n\n1. Term. The supplier may terminate this Agreement on ninety days' written notice.\n"
        "2. Price. The price of each pallet is 310 euros.\n")
BOREALIS = ("BOREALIS SERVICES AGREEMENT\n\nThis Services Agreement is made between Borealis Logistics and "
            "Kestrel Foods.\n\n1. Term. Either party may terminate this Agreement on thirty days' written notice.\n"
            "2. Fees. The monthly fee is 2,400 euros.\n")


def test_named_and_selected_scopes_are_shown_and_undone_in_one_click(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    docs = tmp_path / "contracts"
    docs.mkdir()
    (docs / "acme_supply_agreement.txt").write_text(ACME, encoding="utf-8")
    (docs / "borealis_services_agreement.txt").write_text(BOREALIS, encoding="utf-8")
    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="scope",
                        backend=ScriptedBackend(cite_first("The contract says so.")))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "scope", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    qtbot.waitUntil(lambda: window.documents_view.topLevelItemCount() == 2 and window.workspaces_panel.settled(),
                    timeout=TIMEOUT_MS)

    # a question naming one contract is searched inside it, and the answer says so
    named = ask_in_window(qtbot, window, "In the Acme supply agreement, on how many days' notice may the supplier terminate?")
    assert named.trace.scope.method == "named"
    assert named.trace.scope.doc_ids == ["contracts/acme_supply_agreement.txt"]
    html = window.answer_view.toHtml()
    assert "Searching in: contracts/acme_supply_agreement.txt" in html and "alldocs:0" in html
    assert all(cit.doc_id == "contracts/acme_supply_agreement.txt" for c in named.claims for cit in c.citations)

    # one click searches the whole workspace instead; the new answer takes the entry's place
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.conversation._on_anchor(QUrl("alldocs:0"))
    everywhere = blocker.args[0]
    assert everywhere.trace.scope.doc_ids == [] and everywhere.trace.scope.method == ""
    assert len(window.conversation.entries) == 1
    assert "Searching in:" not in window.answer_view.toHtml()

    # documents selected in the list are the next question's scope, shown as a chip
    view = window.documents_view
    borealis = next(view.topLevelItem(i) for i in range(2)
                    if view.topLevelItem(i).text(0) == "contracts/borealis_services_agreement.txt")
    borealis.setSelected(True)
    assert window.conversation.scope_row.isVisibleTo(window)
    assert "contracts/borealis_services_agreement.txt" in window.conversation.scope_label.text()
    chosen = ask_in_window(qtbot, window, "What is the notice period for termination?")
    assert chosen.trace.scope.method == "explicit"
    assert chosen.trace.scope.doc_ids == ["contracts/borealis_services_agreement.txt"]
    assert "Searched in the documents you chose" in window.answer_view.toHtml()

    # the selection survives a refresh of the list (a commit landing elsewhere)
    window.workspaces.refresh()
    qtbot.waitUntil(lambda: window.workspaces_panel.settled() and not window.workspaces._refreshing, timeout=TIMEOUT_MS)
    assert window.scope.doc_ids == ["contracts/borealis_services_agreement.txt"]

    # two selected documents: the chip counts them (Qt's plural forms)
    for i in range(2):
        view.topLevelItem(i).setSelected(True)
    assert window.conversation.scope_label.text().startswith("Asking about 2 documents: ")
    assert sorted(window.scope.doc_ids) == ["contracts/acme_supply_agreement.txt",
                                            "contracts/borealis_services_agreement.txt"]

    # clearing the chip searches everything again
    window.conversation.scope_clear_button.click()
    assert not window.conversation.scope_row.isVisibleTo(window) and window.scope.for_question() is None
    assert view.selectedItems() == []
