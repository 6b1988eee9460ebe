"""A weak passage opened in the page viewer does not read as a checked citation (issue #20, tryout
2026-12-02): real offscreen window, real index, passages answers (no model).

Found by the tryout: after "No passage clearly answers the question", clicking a weak passage's chip
showed it in the side panel exactly like a verified citation — panel title "Citation", the quote in
the yellow box of a verified quote, nothing saying it was not an answer."""

from __future__ import annotations

import core  # noqa: F401
from core.settings import Settings
from desktop.citation_panel import QUOTE_STYLE, WEAK_QUOTE_STYLE
from tests.desktop.test_answer_flow import TIMEOUT_MS, _window


def test_a_weak_passage_in_the_side_panel_is_marked_as_not_an_answer(qtbot, tmp_path) -> None:
    from PySide6.QtWidgets import QApplication

    from desktop.i18n import install_translator
    window = _window(qtbot, tmp_path, Settings(backend="passages"), shown=True)
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
