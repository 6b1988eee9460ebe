"""The first-run view: the three steps, the sample corpus, and which model will answer."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.settings import Settings


class WelcomeView(QWidget):
    """Shown when there is no workspace yet (and from Help → Getting started).

    Signals:
        sample_requested(): index the bundled sample documents into workspace ``sample``.
        new_requested(): create a workspace.
    """

    sample_requested = Signal()
    new_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ollama: tuple[bool | None, Settings | None] = (None, None)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(40, 30, 40, 30)
        self.title_label = QLabel()
        font = self.title_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        self.title_label.setFont(font)
        self.intro_label = QLabel()
        self.intro_label.setWordWrap(True)
        self.steps_label = QLabel()
        self.steps_label.setWordWrap(True)
        self.steps_label.setTextFormat(Qt.TextFormat.RichText)
        buttons = QHBoxLayout()
        self.sample_button = QPushButton()
        self.sample_button.clicked.connect(self.sample_requested)
        self.new_button = QPushButton()
        self.new_button.clicked.connect(self.new_requested)
        buttons.addWidget(self.sample_button)
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setTextFormat(Qt.TextFormat.RichText)
        self.model_label.setOpenExternalLinks(False)
        self.model_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title_label)
        layout.addSpacing(8)
        layout.addWidget(self.intro_label)
        layout.addWidget(self.steps_label)
        layout.addLayout(buttons)
        layout.addSpacing(16)
        layout.addWidget(self.model_label)
        layout.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text in the current language (also on ``LanguageChange``)."""
        self.title_label.setText(self.tr("Welcome to Verbatim"))
        self.intro_label.setText(self.tr(
            "Ask questions about your own documents, fully offline. Every sentence of an answer "
            "is proven by a quote that Verbatim found, character for character, in your files; "
            "when the documents do not say it, Verbatim says so instead of guessing."))
        self.steps_label.setText(
            "<ol style='margin-left:-20px'>"
            f"<li><b>{html.escape(self.tr('Create a workspace'))}</b> — "
            f"{html.escape(self.tr('one per client, matter or project; answers never mix workspaces.'))}</li>"
            f"<li><b>{html.escape(self.tr('Add folders'))}</b> — "
            f"{html.escape(self.tr('PDF and text files are read and indexed on this computer.'))}</li>"
            f"<li><b>{html.escape(self.tr('Ask'))}</b> — "
            f"{html.escape(self.tr('click a citation number to see the quoted passage highlighted on its page.'))}</li>"
            "</ol>"
        )
        self.sample_button.setText(self.tr("Try the sample documents"))
        self.sample_button.setAccessibleName(self.tr("Try the sample documents"))
        self.new_button.setText(self.tr("Create a workspace…"))
        self.new_button.setAccessibleName(self.tr("Create a workspace"))
        found, settings = self._ollama
        if settings is None:
            self.model_label.setText(self.tr("Looking for Ollama…"))
        else:
            self.set_ollama(found, settings)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Re-translate when the UI language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_ollama(self, found: bool | None, settings: Settings) -> None:
        """Say whether Ollama answered and which model will answer questions."""
        self._ollama = (found, settings)
        esc = html.escape
        if found is None:
            self.model_label.setText(esc(self.tr("Looking for Ollama…")))
        elif found and settings.backend != "embedded":
            self.model_label.setText(
                f"<b>{esc(self.tr('Ollama found'))}</b> ({esc(settings.ollama_host)}). "
                + esc(self.tr("Answers come from the model “{model}” if it is installed there.")
                      .format(model=settings.ollama_model))
            )
        elif settings.backend == "embedded":
            self.model_label.setText(
                f"<b>{esc(self.tr('Ollama not found'))}</b> ({esc(settings.ollama_host)}). "
                + esc(self.tr("Answers come from the small embedded demo model, which is slow and often abstains. "
                              "For real use install Ollama from ollama.com, then run:"))
                + f"<br><code>ollama pull {esc(settings.ollama_model)}</code>"
            )
        else:
            self.model_label.setText(
                f"<b>{esc(self.tr('Ollama not found'))}</b> ({esc(settings.ollama_host)}). "
                + esc(self.tr("Answers are the passages of your documents that match the question, each one "
                              "highlighted on its page; no model writes anything. For answers written by a model, "
                              "install Ollama from ollama.com, then run:"))
                + f"<br><code>ollama pull {esc(settings.ollama_model)}</code>"
            )


# Strings used inside f-strings or through a helper, listed for pyside6-lupdate
# (it reads only literal tr()/translate() calls outside f-strings).
_LUPDATE = (
    QT_TRANSLATE_NOOP("WelcomeView", "Create a workspace"),
    QT_TRANSLATE_NOOP("WelcomeView", "one per client, matter or project; answers never mix workspaces."),
    QT_TRANSLATE_NOOP("WelcomeView", "Add folders"),
    QT_TRANSLATE_NOOP("WelcomeView", "PDF and text files are read and indexed on this computer."),
    QT_TRANSLATE_NOOP("WelcomeView", "Ask"),
    QT_TRANSLATE_NOOP("WelcomeView", "click a citation number to see the quoted passage highlighted on its page."),
    QT_TRANSLATE_NOOP("WelcomeView", "Ollama found"),
    QT_TRANSLATE_NOOP("WelcomeView", "Ollama not found"),
)
