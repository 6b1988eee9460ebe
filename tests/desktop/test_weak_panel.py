"""A weak passage opened in the page viewer does not read as a checked citation (issue #20, tryout
2026-12-02): real offscreen window, real index, passages answers (no model).

Found by the tryout: after "No passage clearly answers the question", clicking a weak passage's chip
showed it in the side panel exactly like a verified citation — panel title "Citation", the quote in
the yellow box of a verified quote, nothing saying it was not an answer."""

from __future__ import annotations

import core  # noqa: F401
from core.settings import Settings
from desktop.citation_panel import QUOTE_STYLE, WEAK_QUOTE_STYLE

TIMEOUT_MS = 240_000
LEASE = ("The Tenant shall pay the monthly rent of 1,200 euros on the first business day of each month. "
         "The lease runs for a term of three (3) years from 1 March 2024. "
         "Either party may terminate the lease with ninety (90) days written notice.\n")


def test_a_weak_passage_in_the_side_panel_is_marked_as_not_an_answer(qtbot, tmp_path) -> None:
    from PySide6.QtWidgets import QApplication

    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow

    folder = tmp_path / "lease"
    folder.mkdir()
    (folder / "lease.txt").write_text(LEASE, encoding="utf-8")
    window = MainWindow(Settings(backend="passages"), workspace="lease")
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "lease", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(folder))
    panel = window.side_panel

    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("When is the monthly rent paid?")
    assert blocker.args[0].status == "answered"
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    assert panel.windowTitle() == "Citation" and not panel.weak_label.isVisible()
    assert panel.quote_label.styleSheet() == QUOTE_STYLE

    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("Who won the 1998 World Cup?")
    abstained = blocker.args[0]
    assert abstained.status == "abstained" and abstained.claims == [] and abstained.abstention.candidates
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    assert panel.citation.quote == abstained.abstention.candidates[0].text  # its place, shown as before
    assert panel.windowTitle() == "Closest passage — not an answer"
    assert panel.weak_label.isVisible() and "not a citation" in panel.weak_label.text()
    assert panel.quote_label.styleSheet() == WEAK_QUOTE_STYLE

    app = QApplication.instance()
    try:  # the notice follows the language like every other text
        install_translator(app, "es")
        qtbot.waitUntil(lambda: panel.windowTitle() == "Pasaje más cercano — no es una respuesta", timeout=5000)
        assert panel.weak_label.text().startswith("Pasaje débil, no es una cita")
    finally:
        install_translator(app, "en")
    qtbot.waitUntil(lambda: panel.windowTitle() == "Closest passage — not an answer", timeout=5000)

    # back to the first answer's citation: a verified citation again, no weak marks left over
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.answers.open_entry_citation(0, 1)
    assert panel.windowTitle() == "Citation" and not panel.weak_label.isVisible()
    assert panel.quote_label.styleSheet() == QUOTE_STYLE
