"""The review grid's column headers (tryout 5, finding 13): a short readable name per column, cut on the right
only, in English and Spanish, with the full question as the header's tooltip."""

from __future__ import annotations

from core.grid import GridColumn
from core.settings import Settings


def _dialog(qtbot, tmp_path, lang: str):
    from desktop.grid_view import GridDialog

    dialog = GridDialog(None, engine=None, jobs=None, settings=Settings(ui_language=lang), workspace="w",
                        workspace_dir=tmp_path, doc_ids=None, open_citation=lambda c: None)
    qtbot.addWidget(dialog)
    return dialog


def _headers(dialog) -> list[tuple[str, str]]:
    t = dialog.table
    return [(t.horizontalHeaderItem(c).text(), t.horizontalHeaderItem(c).toolTip()) for c in range(t.columnCount())]


def test_template_columns_have_short_headers_in_english_and_spanish(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    en = _headers(_dialog(qtbot, tmp_path, "en"))
    assert en[0] == ("Term", "What is the term of the agreement and when does it expire?")
    assert en[2] == ("Termination for convenience",
                     "Can a party terminate the agreement for convenience, and with what notice?")
    assert en[5] == ("Governing law", "Which law governs the agreement?")
    es_dialog = _dialog(qtbot, tmp_path, "es")
    es = _headers(es_dialog)
    assert es[5] == ("Ley aplicable", "¿Qué ley rige el contrato?")
    assert es[8] == ("No competencia", "¿Hay una obligación de no competencia?")
    # every header fits its column (nothing cut), and a header too long would be cut on the right, not centred
    header = es_dialog.table.horizontalHeader()
    for c, (text, _tip) in enumerate(es):
        assert header.fontMetrics().horizontalAdvance(text) <= es_dialog.table.columnWidth(c), text
    assert header.defaultAlignment() & Qt.AlignmentFlag.AlignLeft


def test_free_question_header_uses_the_clause_name_else_the_question(qtbot, tmp_path):
    dialog = _dialog(qtbot, tmp_path, "es")
    dialog.columns = [GridColumn(id="q1", question="¿Qué ley rige?", clause="governing_law"),
                      GridColumn(id="q2", question="¿Cuál es la renta mensual?")]
    dialog._layout_table()
    assert _headers(dialog) == [("Ley aplicable", "¿Qué ley rige?"),
                                ("¿Cuál es la renta mensual?", "¿Cuál es la renta mensual?")]


def test_a_corrected_cell_says_its_quote_is_the_machines(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication

    from core.grid import GridCell
    from desktop.i18n import install_translator

    cell = GridCell(doc_id="wc.txt", column_id="governing_law", question="Which law governs the agreement?",
                    status="answered", text="Further Assurances 4.6", quote="Further Assurances 4.6", page=3,
                    correction="British Columbia (cl. 4.8)", note="seen in the signed copy")
    app = QApplication.instance()
    try:
        for lang, lines in (("en", ["Corrected by the reviewer: British Columbia (cl. 4.8)",
                                    "The machine's answer quoted:", "“Further Assurances 4.6” — p. 3"]),
                            ("es", ["Corregido por el revisor: British Columbia (cl. 4.8)",
                                    "La respuesta de la máquina citó:", "“Further Assurances 4.6” — pág. 3"])):
            install_translator(app, lang)
            dialog = _dialog(qtbot, tmp_path, lang)
            dialog.rows, dialog.cells = ["wc.txt"], {("wc.txt", "governing_law"): cell}
            dialog._layout_table()
            item = dialog.table.item(0, 5)
            assert item.text() == "British Columbia (cl. 4.8)"
            tip = item.toolTip().split("\n")
            start = tip.index(lines[0])
            assert tip[start:start + 3] == lines and tip[-1] == "seen in the signed copy"
    finally:
        install_translator(app, "en")
