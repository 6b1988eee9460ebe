"""The centre of the window: the question box and the workspace's conversation.

The conversation is a ``QTextBrowser`` rebuilt from :class:`desktop.render.Entry`
objects; its links (``cite:``, ``doc:``, ``toggle:``) are turned into signals.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocumentFragment
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.render import Entry, entry_html


class QuestionEdit(QPlainTextEdit):
    """A few-line question box: Enter asks, Ctrl+Enter (or Shift+Enter) inserts a newline.

    Signals:
        submitted(): Enter was pressed.
    """

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        line = self.fontMetrics().lineSpacing()
        self.setFixedHeight(int(line * 3.2) + 12)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter submits; with Ctrl or Shift it inserts a line break."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            if mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
                self.insertPlainText("\n")
            else:
                self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def text(self) -> str:
        """The question text."""
        return self.toPlainText()

    def setText(self, text: str) -> None:
        """Replace the question text."""
        self.setPlainText(text)


class ConversationView(QWidget):
    """Question box, Ask/Stop, the answering state, and the conversation of one workspace.

    Signals:
        ask_requested(str): the user asked a question.
        stop_requested(): the user pressed Stop.
        citation_clicked(int, int): entry index, 1-based chip number.
        document_clicked(int, int): entry index, 0-based consulted-document index.
        passages_requested(int): entry index whose question should be answered with passages.
        copy_requested(), export_markdown_requested(), export_pdf_requested().
    """

    ask_requested = Signal(str)
    stop_requested = Signal()
    citation_clicked = Signal(int, int)
    document_clicked = Signal(int, int)
    passages_requested = Signal(int)
    copy_requested = Signal()
    export_markdown_requested = Signal()
    export_pdf_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[Entry] = []
        self.live: Entry | None = None  # a model answer being written (its verified sentences so far)
        self._live_pos: int | None = None  # where the live block starts in the document
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        self.title_label = QLabel("")
        font = self.title_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.title_label.setFont(font)

        self.answer_view = QTextBrowser()
        self.answer_view.setOpenLinks(False)
        self.answer_view.setOpenExternalLinks(False)
        self.answer_view.setAccessibleName(self.tr("Conversation"))
        self.answer_view.anchorClicked.connect(self._on_anchor)

        tools = QHBoxLayout()
        self.copy_button = QPushButton(self.tr("Copy answer"))
        self.copy_button.setToolTip(self.tr("Copy the last answer with its citations"))
        self.copy_button.clicked.connect(self.copy_requested)
        self.export_md_button = QPushButton(self.tr("Export Markdown…"))
        self.export_md_button.clicked.connect(self.export_markdown_requested)
        self.export_pdf_button = QPushButton(self.tr("Export PDF…"))
        self.export_pdf_button.clicked.connect(self.export_pdf_requested)
        tools.addWidget(self.title_label, 1)
        for b in (self.copy_button, self.export_md_button, self.export_pdf_button):
            b.setAccessibleName(b.text().rstrip("…"))
            tools.addWidget(b)

        self.stage_label = QLabel("")
        self.stage_label.setAccessibleName(self.tr("Answering state"))
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumHeight(6)
        self.busy_bar.setTextVisible(False)
        self.busy_bar.hide()

        row = QHBoxLayout()
        self.question_edit = QuestionEdit()
        self.question_edit.setPlaceholderText(
            self.tr("Ask a question about this workspace's documents (Ctrl+L). Enter asks, Ctrl+Enter adds a line.")
        )
        self.question_edit.setAccessibleName(self.tr("Question"))
        self.question_edit.submitted.connect(self._ask)
        buttons = QVBoxLayout()
        self.ask_button = QPushButton(self.tr("Ask"))
        self.ask_button.setAccessibleName(self.tr("Ask"))
        self.ask_button.clicked.connect(self._ask)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setAccessibleName(self.tr("Stop answering"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_requested)
        buttons.addWidget(self.ask_button)
        buttons.addWidget(self.stop_button)
        row.addWidget(self.question_edit, 1)
        row.addLayout(buttons)

        layout.addLayout(tools)
        layout.addWidget(self.answer_view, 1)
        layout.addWidget(self.busy_bar)
        layout.addWidget(self.stage_label)
        layout.addLayout(row)
        self.set_entries([])

    # --- state ----------------------------------------------------------------

    def set_busy(self, busy: bool, text: str = "") -> None:
        """Show (or clear) the answering state; Stop is enabled while busy."""
        self.busy_bar.setVisible(busy)
        self.stop_button.setEnabled(busy)
        self.stage_label.setText(text)

    def _html(self) -> str:
        shown = self.entries + ([self.live] if self.live is not None else [])
        return "".join(entry_html(i, e) for i, e in enumerate(shown))

    def set_entries(self, entries: list[Entry], scroll_to: int | None = None) -> None:
        """Show ``entries`` (oldest first); scrolls to entry ``scroll_to`` or to the end."""
        self.entries = entries
        if not entries and self.live is None:
            self.answer_view.setHtml(
                "<p style='color:gray'>" + self.tr(
                    "Answers appear here. Every sentence carries numbered citations; "
                    "click one to see the quoted passage on its page.") + "</p>"
            )
        else:
            self.answer_view.setHtml(self._html())
        self._live_pos = None
        has = bool(entries)
        for b in (self.copy_button, self.export_md_button, self.export_pdf_button):
            b.setEnabled(has)
        if scroll_to is not None and 0 <= scroll_to < len(entries):
            self.answer_view.scrollToAnchor(f"entry-{scroll_to}")
        else:
            bar = self.answer_view.verticalScrollBar()
            bar.setValue(bar.maximum())

    def add_entry(self, entry: Entry) -> int:
        """Append ``entry``; returns its index."""
        self.set_entries(self.entries + [entry], scroll_to=len(self.entries))
        return len(self.entries) - 1

    def refresh(self) -> None:
        """Re-render the entries, keeping the scroll position."""
        bar = self.answer_view.verticalScrollBar()
        pos = bar.value()
        self.answer_view.setHtml(self._html())
        self._live_pos = None
        bar.setValue(pos)

    def set_live(self, entry: Entry | None) -> None:
        """Show ``entry`` after the conversation as the answer being written (``None`` removes it);
        scrolls to the end so the newest verified sentence is in view.

        Only the live block is replaced (a text cursor from where it starts to the end of the
        document), so each streamed sentence costs the layout of that block, not of the whole
        conversation (25-95 ms for six entries on a loaded machine).
        """
        doc = self.answer_view.document()
        valid = self._live_pos is not None and self._live_pos < doc.characterCount()
        if entry is None:
            if self.live is not None and valid:  # cut the live block away
                cursor = QTextCursor(doc)
                cursor.setPosition(self._live_pos)
                cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
            elif self.live is not None:
                self.live = None
                self.set_entries(self.entries)
            self.live, self._live_pos = None, None
            return
        if not valid:
            if self.live is not None or not self.entries:
                self.live = None
                self.set_entries(self.entries)  # the conversation alone (a stale live block dropped)
            if not self.entries:
                self.answer_view.clear()  # no "answers appear here" above the first answer
            end = QTextCursor(doc)
            end.movePosition(QTextCursor.MoveOperation.End)
            self._live_pos = end.position()
        self.live = entry
        cursor = QTextCursor(doc)
        cursor.setPosition(self._live_pos)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        # The fragment's first block merges into the block at the cursor (the last entry's rule):
        # a tiny empty paragraph takes that place, so the question keeps its own format.
        head = "<p style='margin:0px; font-size:1pt'>&nbsp;</p>" if self.entries else ""
        cursor.insertFragment(QTextDocumentFragment.fromHtml(head + entry_html(len(self.entries), entry)))
        bar = self.answer_view.verticalScrollBar()
        bar.setValue(bar.maximum())

    # --- slots ----------------------------------------------------------------

    def _ask(self) -> None:
        question = self.question_edit.text().strip()
        if question:
            self.ask_requested.emit(question)

    @Slot(QUrl)
    def _on_anchor(self, url: QUrl) -> None:
        scheme, parts = url.scheme(), url.path().split(":")
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            return
        if scheme == "cite" and len(nums) == 2:
            self.citation_clicked.emit(nums[0], nums[1])
        elif scheme == "doc" and len(nums) == 2:
            self.document_clicked.emit(nums[0], nums[1])
        elif scheme == "passages" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.passages_requested.emit(nums[0])
        elif scheme == "toggle" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.entries[nums[0]].expanded = not self.entries[nums[0]].expanded
            self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        """Re-render in the new language when the UI language changes."""
        if event.type() == QEvent.Type.LanguageChange and self.entries:
            self.refresh()
        super().changeEvent(event)
