"""The centre of the window: the question box and the workspace's conversation.

The conversation is a ``QTextBrowser`` rebuilt from :class:`desktop.render.Entry`
objects; its links (``cite:``, ``doc:``, ``toggle:``, ``aswritten:``, ``alldocs:``) are turned into signals.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocumentFragment
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.elide import ElidedLabel, distinguishing_starts, elide_distinct
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
        closest_clicked(int, int): entry index, 0-based index in ``Answer.documents`` of a document that
            did not match a question about the collection (its closest passage is opened, marked weak).
        passages_requested(int): entry index whose question should be answered with passages.
        copy_requested(), export_markdown_requested(), export_pdf_requested().
        all_documents_requested(int): entry index whose question should be searched again in
            the whole workspace (its answer searched only the documents the question named).
        scope_cleared(): the scope chip's clear button (search the whole workspace again).
        as_written_requested(int): entry index whose question should be searched as written
            (undo of a follow-up rewrite).
        new_conversation_requested(): the user starts a new conversation.
    """

    ask_requested = Signal(str)
    stop_requested = Signal()
    citation_clicked = Signal(int, int)
    document_clicked = Signal(int, int)
    closest_clicked = Signal(int, int)
    passages_requested = Signal(int)
    copy_requested = Signal()
    export_markdown_requested = Signal()
    export_pdf_requested = Signal()
    as_written_requested = Signal(int)
    new_conversation_requested = Signal()
    scope_cleared = Signal()
    all_documents_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[Entry] = []
        self.live: Entry | None = None  # a model answer being written (its verified sentences so far)
        self._live_pos: int | None = None  # where the live block starts in the document
        self.context_from = 0  # entries before this index are earlier conversations
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        # The workspace's name, elided: a long name must not widen the column.
        self.title_label = ElidedLabel("", mode=Qt.TextElideMode.ElideRight)
        font = self.title_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.title_label.setFont(font)

        self.answer_view = QTextBrowser()
        self.answer_view.setOpenLinks(False)
        self.answer_view.setOpenExternalLinks(False)
        self.answer_view.anchorClicked.connect(self._on_anchor)

        tools = QHBoxLayout()
        self.new_conversation_button = QPushButton()
        self.new_conversation_button.clicked.connect(self.new_conversation_requested)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_requested)
        # One "Export" button with a menu (Markdown, PDF): the row stays narrow enough for the
        # column's minimum width on a 1280-px screen with the side panel open.
        self.export_button = QToolButton()
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        export_menu = QMenu(self.export_button)
        # A Signal object is not callable in PySide6 (6.11: "native Qt signal instance … is not
        # callable" on click): the menu actions emit through the bound ``emit``.
        self.export_md_action = export_menu.addAction("")
        self.export_md_action.triggered.connect(self.export_markdown_requested.emit)
        self.export_pdf_action = export_menu.addAction("")
        self.export_pdf_action.triggered.connect(self.export_pdf_requested.emit)
        self.export_button.setMenu(export_menu)
        tools.addWidget(self.title_label, 1)
        for b in (self.new_conversation_button, self.copy_button, self.export_button):
            tools.addWidget(b)

        # One elided line (full text in its tooltip): a long error ("Could not answer: …") as a plain
        # label widened the column and squeezed the documents list to "Arc…" (issue #24).
        self.stage_label = ElidedLabel("", mode=Qt.TextElideMode.ElideRight)
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumHeight(6)
        self.busy_bar.setTextVisible(False)
        self.busy_bar.hide()

        # The scope chip: the documents selected in the Documents list, which the next question
        # is searched in (hidden when none is selected), with a button to clear it.
        self.scope_row = QWidget()
        chip = QHBoxLayout(self.scope_row)
        chip.setContentsMargins(0, 0, 0, 0)
        self.scope_label = ElidedLabel("", mode=Qt.TextElideMode.ElideMiddle)
        self.scope_label.setStyleSheet("QLabel { background: #e8eefc; border-radius: 8px; padding: 2px 8px; }")
        self.scope_clear_button = QToolButton()
        self.scope_clear_button.clicked.connect(self.scope_cleared)
        chip.addWidget(self.scope_label, 1)
        chip.addWidget(self.scope_clear_button)
        self.scope_row.hide()
        self._scope_names: list[str] = []

        row = QHBoxLayout()
        self.question_edit = QuestionEdit()
        self.question_edit.submitted.connect(self._ask)
        buttons = QVBoxLayout()
        self.ask_button = QPushButton()
        self.ask_button.clicked.connect(self._ask)
        self.stop_button = QPushButton()
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
        layout.addWidget(self.scope_row)
        layout.addLayout(row)
        self.retranslate()
        self.set_entries([])

    def retranslate(self) -> None:
        """Set every fixed text in the current language (also on ``LanguageChange``)."""
        self.answer_view.setAccessibleName(self.tr("Conversation"))
        self.new_conversation_button.setText(self.tr("New conversation"))
        self.new_conversation_button.setToolTip(self.tr(
            "Start a new conversation: the next question is not read as a follow-up of the earlier ones "
            "(Ctrl+Shift+N)"))
        self.copy_button.setText(self.tr("Copy answer"))
        self.copy_button.setToolTip(self.tr("Copy the last answer with its citations"))
        self.export_button.setText(self.tr("Export"))
        self.export_button.setToolTip(self.tr("Export the conversation as Markdown or PDF"))
        self.export_md_action.setText(self.tr("Export Markdown…"))
        self.export_pdf_action.setText(self.tr("Export PDF…"))
        for b in (self.new_conversation_button, self.copy_button, self.export_button):
            b.setAccessibleName(b.text().rstrip("…"))
        self.stage_label.setAccessibleName(self.tr("Answering state"))
        self.question_edit.setPlaceholderText(
            self.tr("Ask a question about this workspace's documents (Ctrl+L). Enter asks, Ctrl+Enter adds a line.")
        )
        self.question_edit.setAccessibleName(self.tr("Question"))
        self.ask_button.setText(self.tr("Ask"))
        self.ask_button.setAccessibleName(self.tr("Ask"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setAccessibleName(self.tr("Stop answering"))
        self.scope_clear_button.setText(self.tr("Search all documents"))
        self.scope_clear_button.setToolTip(self.tr("Clear the selection: the next question searches the whole workspace"))
        self.scope_label.setAccessibleName(self.tr("Documents the next question searches"))
        self.set_scope(self._scope_names)

    # --- state ----------------------------------------------------------------

    def set_scope(self, names: list[str]) -> None:
        """Show the scope chip for the documents ``names`` (the next question searches only them),
        or hide it when ``names`` is empty (the whole workspace)."""
        self._scope_names = list(names)
        self.scope_row.setVisible(bool(names))
        self._render_scope()

    def _render_scope(self) -> None:
        """Fit every chosen document's name into the chip: each gets an equal share of the width and
        keeps the characters that tell it apart (:func:`desktop.elide.elide_distinct`). Eliding the
        joined names in the middle cut "a.pdf, b.pdf" down to one of them (issue #24)."""
        names = self._scope_names
        if not names:
            return
        if len(names) == 1:
            head = self.tr("Asking about: {names}")
        else:
            head = self.tr("Asking about %n documents: {names}", "", len(names))
        fm = self.scope_label.fontMetrics()
        room = self.scope_label.contentsRect().width() - 20  # the chip's padding
        if room <= 40:  # not laid out yet: size from the column
            room = max(200, self.width() - self.scope_clear_button.sizeHint().width() - 40)
        room -= fm.horizontalAdvance(head.replace("{names}", ""))
        sep = ", "
        each = max(fm.horizontalAdvance("…" * 4), (room - fm.horizontalAdvance(sep) * (len(names) - 1)) / len(names))
        starts = distinguishing_starts(names)
        shown = [elide_distinct(n, starts.get(n, 0), each, fm.horizontalAdvance) for n in names]
        self.scope_label.set_fitted(head.format(names=sep.join(names)), head.format(names=sep.join(shown)))
        self.scope_label.setToolTip("\n".join(names))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Re-fit the scope chip's names to the new width."""
        super().resizeEvent(event)
        self._render_scope()

    def set_busy(self, busy: bool, text: str = "") -> None:
        """Show (or clear) the answering state; Stop is enabled while busy."""
        self.busy_bar.setVisible(busy)
        self.stop_button.setEnabled(busy)
        self.stage_label.setText(text)

    def _html(self) -> str:
        divider = ("<p style='color:gray; text-align:center; margin-top:14px'>— "
                   + html.escape(self.tr("New conversation")) + " —</p>")
        parts = []
        for i, e in enumerate(self.entries):
            if i == self.context_from and i > 0:
                parts.append(divider)
            parts.append(entry_html(i, e))
        if self.entries and self.context_from == len(self.entries):
            parts.append(divider)  # just started: the next question opens it
        if self.live is not None:
            parts.append(entry_html(len(self.entries), self.live))
        return "".join(parts)

    def set_entries(self, entries: list[Entry], scroll_to: int | None = None, context_from: int | None = None) -> None:
        """Show ``entries`` (oldest first); scrolls to entry ``scroll_to`` or to the end.

        ``context_from``: index of the first entry of the current conversation (a divider
        is drawn before it); ``None`` keeps the last value when it still fits.
        """
        self.entries = entries
        if context_from is not None:
            self.context_from = context_from
        self.context_from = min(self.context_from, len(entries))
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
        for b in (self.copy_button, self.export_button):
            b.setEnabled(has)
        self.scroll_to_entry(scroll_to if scroll_to is not None else len(entries) - 1)

    def scroll_to_entry(self, index: int) -> None:
        """Show entry ``index`` from its top (its question, scope line and banner), not the
        conversation's end, which left a long answer's question off screen (issue #24). Without
        entries, or when a new conversation was just started (its divider is last), the end."""
        bar = self.answer_view.verticalScrollBar()
        if 0 <= index < len(self.entries) and not (index == len(self.entries) - 1
                                                    and self.context_from == len(self.entries) and index > 0):
            self.answer_view.scrollToAnchor(f"entry-{index}")
        else:
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
        elif scheme == "closest" and len(nums) == 2:
            self.closest_clicked.emit(nums[0], nums[1])
        elif scheme == "passages" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.passages_requested.emit(nums[0])
        elif scheme == "toggle" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.entries[nums[0]].expanded = not self.entries[nums[0]].expanded
            self.refresh()
        elif scheme == "alldocs" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.all_documents_requested.emit(nums[0])
        elif scheme == "aswritten" and len(nums) == 1 and 0 <= nums[0] < len(self.entries):
            self.as_written_requested.emit(nums[0])

    def changeEvent(self, event: QEvent) -> None:
        """Re-translate and re-render in the new language when the UI language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self.entries:
                self.refresh()
            else:
                self.set_entries([])
        super().changeEvent(event)
