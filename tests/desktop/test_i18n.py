"""Spanish UI: the compiled translation loads and the window's labels and core texts switch language."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.settings import Settings
from core.types import Abstention, Answer, RejectReason

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"


@pytest.fixture
def spanish(qapp):
    from desktop.i18n import install_translator

    assert install_translator(qapp, "es") == "es"
    yield
    install_translator(qapp, "en")


def test_spanish_window(qtbot, spanish):
    from desktop.main_window import MainWindow
    from desktop.texts import reason_text, stage_text

    window = MainWindow(Settings(backend="passages"), workspace="caso")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "caso", timeout=120_000)
    # the status bar names the backend in plain words, translated
    qtbot.waitUntil(lambda: window.backend_label.text() != "Modelo: —", timeout=120_000)
    assert window.backend_label.text() == "Responder con: pasajes (sin modelo)"
    assert window.conversation.ask_button.text() == "Preguntar"
    assert window.workspaces_panel.tabs.tabText(0) == "Documentos"
    assert window.side_panel.windowTitle() == "Cita"
    assert stage_text("verifying") == "Verificando cada cita…"
    assert reason_text(RejectReason.quote_not_found) == "la cita no aparece en el pasaje citado"
    assert reason_text("some_future_reason") == "sin verificar (some future reason)"  # unknown values degrade
    window.show_answer(Answer(
        question="¿Quién ganó el Mundial de 1998?", workspace="caso", status="abstained",
        abstention=Abstention(message="Los documentos consultados no responden a esta pregunta.",
                              query="¿Quién ganó el Mundial de 1998?", consulted=[]),
    ))
    text = window.answer_view.toPlainText()
    assert "Se buscó" in text and "Ningún documento coincidió con la pregunta." in text
    qtbot.waitUntil(lambda: "Fragmentos" in window.chunks_label.text(), timeout=120_000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    window.resize(1440, 900)
    assert window.grab().save(str(ARTIFACTS / "spanish.png"))


def test_language_setting_resolves(qapp):
    from desktop.i18n import install_translator, resolve_language

    assert resolve_language("es") == "es" and resolve_language("en") == "en"
    assert resolve_language("system") in {"en", "es"}
    assert install_translator(qapp, "en") == "en"
    assert QApplication.translate("ConversationView", "Ask") == "Ask"


def test_core_abstention_messages_shown_in_spanish(spanish):
    """Every fixed message core.pipeline abstains with is translated (the Spanish screenshot
    showed "The model found no answer in the passages consulted." in a Spanish window)."""
    import ast

    import core.pipeline
    from desktop.render import Entry, entry_html
    from desktop.texts import ABSTENTION_MESSAGES, abstention_text

    tree = ast.parse(Path(core.pipeline.__file__).read_text(encoding="utf-8"))
    messages = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "abstain" and node.args:
            if isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                messages.add(node.args[0].value)
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "message" for t in node.targets):
            messages |= {n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    from core.passages import NO_PASSAGE_MESSAGE

    messages.add(NO_PASSAGE_MESSAGE)  # the passages answer's abstention (core.passages)
    assert len(messages) >= 10
    assert messages <= set(ABSTENTION_MESSAGES), messages - set(ABSTENTION_MESSAGES)
    assert all(abstention_text(m) != m for m in messages)
    assert abstention_text("Un mensaje de otro origen.") == "Un mensaje de otro origen."

    answer = Answer(question="Who won the 1998 World Cup?", workspace="w", status="abstained",
                    abstention=Abstention(message="The model found no answer in the passages consulted.",
                                          query="Who won the 1998 World Cup?", consulted=[]))
    assert "El modelo no encontró respuesta en los pasajes consultados." in entry_html(0, Entry(answer=answer))
