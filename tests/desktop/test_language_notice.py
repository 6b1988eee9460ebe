"""Issue #20, 3(c): the window says when the question's language is not the documents' and nothing
bridges the two (no Ollama translation, the bundled English-only embedding model), in the UI's
language. Real offscreen window, real index, real passages answer (no model)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import core  # noqa: F401
from core.settings import Settings
from tests.desktop.test_answer_flow import TIMEOUT_MS, _window

EN_NOTICE = "Your question is in Spanish and the documents are in English"
ES_NOTICE = "La pregunta está en español y los documentos en inglés"


def _text(window) -> str:
    return " ".join(window.answer_view.toPlainText().split())


def test_a_spanish_question_over_english_documents_is_flagged_in_both_ui_languages(qtbot, tmp_path) -> None:
    from desktop.i18n import install_translator

    window = _window(qtbot, tmp_path, Settings(backend="passages"))
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("¿Cuándo se paga la renta mensual del arrendamiento?")
    language = blocker.args[0].trace.language
    assert language.question == "es" and language.documents[:1] == ["en"] and language.differs
    assert language.bridged_by == "" and language.notice  # core's own verdict: nothing bridged it
    assert EN_NOTICE in _text(window)
    assert EN_NOTICE in window.copy_answer()  # the copied Markdown carries it too
    try:
        install_translator(QApplication.instance(), "es")
        qtbot.waitUntil(lambda: ES_NOTICE in _text(window), timeout=10_000)
        assert EN_NOTICE not in _text(window)
    finally:
        install_translator(QApplication.instance(), "en")
    # A question in the documents' language says nothing about languages.
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("When is the monthly rent paid?")
    assert not blocker.args[0].trace.language.differs
    assert _text(window).count(EN_NOTICE) == 1  # only under the Spanish question


def test_no_notice_when_the_languages_differ_but_a_translation_bridged_them(qapp) -> None:
    from core.types import Answer, LanguageInfo
    from desktop.render import Entry, entry_html, language_text

    answer = Answer(question="¿Quién paga?", workspace="w", status="abstained")
    answer.trace.language = LanguageInfo(question="es", documents=["en"], differs=True, bridged_by="translation",
                                         translation="Who pays?")
    assert language_text(answer) == "" and "Spanish" not in entry_html(0, Entry(answer=answer))
    answer.trace.language = LanguageInfo(question="es", documents=["en"], differs=True, notice="core's notice")
    assert language_text(answer).startswith(EN_NOTICE)


def test_the_fallback_reason_in_the_status_bar_follows_a_language_switch(qtbot) -> None:
    """Issue #24: "Automatic: answered with passages …" stayed English in the Spanish window
    (seen in bench/screenshots/i24_language_notice_es_*.png)."""
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow

    window = MainWindow(Settings(backend="auto", ollama_host="http://127.0.0.1:9"))
    qtbot.addWidget(window)
    app = QApplication.instance()
    install_translator(app, "en")
    window.status._on_fallback_explained(None)  # what the network check reports when it gets no diagnosis
    english = window.statusBar().currentMessage()
    assert english.startswith("Automatic") and window.backend_label.toolTip() == english
    try:
        install_translator(app, "es")
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() not in ("", english), timeout=10_000)
        spanish = window.statusBar().currentMessage()
        assert "Automatic:" not in spanish and window.backend_label.toolTip() == spanish
    finally:
        install_translator(app, "en")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == english, timeout=10_000)
