"""A question about the whole collection in the window (core.collection; tryout 2, Q3): every
document searched on its own, the matching one's passage as the answer, the others listed as
searched and not matching — in English and in Spanish. Real offscreen window, real index of three
CUAD contracts (tests/data/corpora/cuad/txt), passages answers (no model)."""

from __future__ import annotations

import shutil

import core  # noqa: F401
from core.settings import Settings
from tests.conftest import CORPORA

TIMEOUT_MS = 300_000
MJ = "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.txt"
HOLIDAY = "HOLIDAYRVSUPERSTORESINC_04_15_2002-EX-10.13-ENDORSEMENT AGREEMENT.txt"
FLOTEK = "FLOTEKINDUSTRIESINCCN_05_09_2019-EX-10.1-SUPPLY AGREEMENT.txt"


def test_which_of_these_agreements_is_answered_document_by_document(qtbot, tmp_path) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtWidgets import QApplication

    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow

    folder = tmp_path / "contracts"
    folder.mkdir()
    for name in (MJ, HOLIDAY, FLOTEK):
        shutil.copy(CORPORA / "cuad" / "txt" / name, folder / name)
    window = MainWindow(Settings(backend="passages"), workspace="contracts")
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "contracts", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(folder))

    stages: list[str] = []
    original = window.conversation.set_busy

    def set_busy(busy: bool, text: str = "") -> None:  # what the busy bar says, in order
        stages.append(text)
        original(busy, text)

    window.conversation.set_busy = set_busy
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("Which of these agreements are governed by Florida law?")
    answer = blocker.args[0]
    assert [f.doc_id.endswith(MJ) for f in answer.documents if f.matches] == [True]
    assert answer.claims and "Florida" in answer.claims[0].citations[0].quote
    assert "Searching each document on its own (3 of 3)…" in stages
    html = window.answer_view.toHtml()
    assert "Each of the 3 documents was searched on its own; passages that match: 1." in html
    assert "Searched, no matching passage" in html and "closest, not an answer" in html
    assert HOLIDAY in html and "California" in html  # its own governing-law clause, shown as the closest
    text = window.answer_view.toPlainText()
    assert text.index("Documents that match") < text.index("laws of The State of Florida")

    # Holiday RV's own clause opens on its page, marked as not an answer (never as a citation)
    holiday = next(i for i, f in enumerate(answer.documents) if f.doc_id.endswith(HOLIDAY))
    assert f"closest:0:{holiday}" in html
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.conversation._on_anchor(QUrl(f"closest:0:{holiday}"))
    panel = window.side_panel
    assert panel.citation.doc_id.endswith(HOLIDAY) and "California" in panel.citation.quote
    assert panel.windowTitle() == "Closest passage — not an answer" and panel.weak_label.isVisible()

    app = QApplication.instance()
    try:
        install_translator(app, "es")
        qtbot.waitUntil(lambda: "Se buscó en cada uno de los 3 documentos por separado" in window.answer_view.toHtml(),
                        timeout=10_000)
        assert "Buscados, sin pasaje que coincida" in window.answer_view.toHtml()
    finally:
        install_translator(app, "en")
