"""The review grid in the window (issue #25): opened from the File menu on the selected documents,
cells fill in while the run goes on (off the GUI thread), a click opens the cell's page with its
quote, reviewer's marks are kept, Cancel keeps the cells done and Run continues from them."""

from __future__ import annotations

from core.grid import GridColumn, GridStore
from core.settings import Settings

TIMEOUT_MS = 300_000
ACME = ("ACME SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Acme Industrial Holdings and "
        "Kestrel Foods.\n\n1. Term. The supplier may terminate this Agreement on ninety days' written notice.\n\n"
        "2. Governing Law. This Agreement shall be governed by the laws of the State of Delaware.\n")
BOREALIS = ("BOREALIS SERVICES AGREEMENT\n\nThis Services Agreement is made between Borealis Logistics and "
            "Kestrel Foods.\n\n1. Term. Either party may terminate this Agreement on thirty days' written notice.\n\n"
            "2. Fees. The monthly fee is 2,400 euros.\n")


def test_grid_fills_opens_pages_keeps_marks_and_resumes(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    docs = tmp_path / "contracts"
    docs.mkdir()
    (docs / "acme_supply_agreement.txt").write_text(ACME, encoding="utf-8")
    (docs / "borealis_services_agreement.txt").write_text(BOREALIS, encoding="utf-8")
    window = MainWindow(Settings(backend="passages"), workspace="grid")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "grid", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    qtbot.waitUntil(lambda: window.documents_view.topLevelItemCount() == 2 and window.workspaces_panel.settled(),
                    timeout=TIMEOUT_MS)

    window.open_grid()
    grid = window.grid_dialog
    assert grid.windowTitle() == "Review grid — grid"
    assert grid.template.count() == 2 and len(grid.columns) == 12  # the commercial template by default
    grid.columns = [GridColumn(id="law", question="Which law governs the agreement?", clause="governing_law")]
    grid._layout_table()
    opened: list = []
    grid.open_citation = opened.append

    grid.start()
    assert grid.worker is not None and not grid.run_button.isEnabled()
    qtbot.waitUntil(lambda: grid.worker is None, timeout=TIMEOUT_MS)
    assert grid.table.rowCount() == 2 and grid.progress.value() == 2
    row = grid.rows.index("contracts/acme_supply_agreement.txt")
    item = grid.table.item(row, 0)
    assert "State of Delaware" in item.text() and "answered" in item.toolTip()
    other = grid.table.item(grid.rows.index("contracts/borealis_services_agreement.txt"), 0)
    assert "answered" not in other.toolTip().split("\n")[0]
    # Borealis has no governing-law clause: "not found", and the cell says what was searched
    nf = grid.cells[("contracts/borealis_services_agreement.txt", "law")]
    assert nf.status == "not_found" and nf.searched_passages >= 1
    assert "governing law" in nf.searched_labels["en"] and "ley aplicable" in nf.searched_labels["es"]
    n = nf.searched_passages
    assert (f"Searched: the wording of {', '.join(nf.searched_labels['en'])} clauses and the question, in {n} "
            f"passage{'s' if n != 1 else ''} of this document") in other.toolTip().split("\n")

    grid._cell_clicked(row, 0)
    assert opened and opened[0].doc_id == "contracts/acme_supply_agreement.txt"
    assert "State of Delaware" in opened[0].quote

    cell = grid.cells[("contracts/acme_supply_agreement.txt", "law")]
    grid.annotate(cell, reviewed=True, note="seen")
    qtbot.waitUntil(lambda: grid.cells[("contracts/acme_supply_agreement.txt", "law")].reviewed, timeout=TIMEOUT_MS)
    stored = GridStore(grid.workspace_dir).cells(grid.grid_name)
    assert stored[("contracts/acme_supply_agreement.txt", "law")].note == "seen"

    # a second run reuses the stored cells (computed_at unchanged) and keeps the marks
    before = {k: c.computed_at for k, c in grid.cells.items()}
    grid.start()
    qtbot.waitUntil(lambda: grid.worker is None, timeout=TIMEOUT_MS)
    assert {k: c.computed_at for k, c in grid.cells.items()} == before
    assert "reviewed" in grid.table.item(grid.rows.index("contracts/acme_supply_agreement.txt"), 0).toolTip()

    out = tmp_path / "grid.csv"
    grid.export(out)
    # the file is written off the GUI thread; the status line says so when the export has finished
    # (waiting for the file alone raced with that message on a loaded machine)
    qtbot.waitUntil(lambda: str(out) in grid.status.text(), timeout=TIMEOUT_MS)
    assert "State of Delaware" in out.read_text(encoding="utf-8-sig")


def test_a_long_document_name_does_not_take_half_the_grid(qtbot, tmp_path):
    """Tryout 5, finding 13: a long file name as a row's header took half the window; it is elided in the
    middle at ROW_NAME_MAX_PX (the column headers: tests/desktop/test_grid_headers.py)."""
    from core.engine import LocalEngine
    from desktop.grid_view import ROW_NAME_MAX_PX, GridDialog

    dialog = GridDialog(None, engine=LocalEngine(), jobs=None, settings=Settings(), workspace="w",
                        workspace_dir=tmp_path, doc_ids=[], open_citation=lambda c: None)
    qtbot.addWidget(dialog)
    dialog.rows = ["Matter/WESTERN COPPER - NON-COMPETITION AGREEMENT WITH A VERY LONG NAME AND MORE.txt"]
    dialog._layout_table()
    dialog.show()
    assert ROW_NAME_MAX_PX == 280
    assert dialog.table.verticalHeader().width() <= 280  # a long file name does not take half the window
