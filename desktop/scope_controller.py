"""The question's document scope in the window: the documents selected in the Documents list.

Issue #12 ("Explicit scope"): select one or more documents and ask about them. The selection
is shown as a chip beside the question box (:class:`desktop.conversation.ConversationView`
``set_scope``), cleared with one click, and passed to core as ``scope`` (doc ids) with the
next question; core records it in ``Answer.trace.scope`` (method ``explicit``), and the
answer says where it searched. Switching workspace clears it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtWidgets import QTreeWidget

from desktop.conversation import ConversationView
from desktop.workspaces_panel import ROLE_ID, ROLE_STATUS

#: Statuses of rows a question can be scoped to (queued, indexing or failed rows hold no chunks).
SCOPABLE = ("active", "superseded", "quarantined")


class ScopeController(QObject):
    """Keeps the scope chip equal to the Documents list's selection; :attr:`doc_ids` for the next question."""

    def __init__(self, documents_view: QTreeWidget, conversation: ConversationView,
                 workspace_loaded: SignalInstance, parent: QObject | None = None) -> None:
        """Narrow interface (napari-style): the documents list it reads, the conversation whose chip
        it sets, and the signal that a workspace's documents were shown — not the whole window,
        so this module does not import :mod:`desktop.main_window` (issue #24, import cycles)."""
        super().__init__(parent)
        self.documents_view = documents_view
        self.conversation = conversation
        self.doc_ids: list[str] = []
        self.names: list[str] = []
        documents_view.itemSelectionChanged.connect(self._on_selection)
        conversation.scope_cleared.connect(self.clear)
        workspace_loaded.connect(lambda _name: self._on_selection())

    def _on_selection(self) -> None:
        rows = [it for it in self.documents_view.selectedItems()
                if it.data(0, ROLE_ID) and it.data(0, ROLE_STATUS) in SCOPABLE]
        self.doc_ids = [it.data(0, ROLE_ID) for it in rows]
        self.names = [it.text(0) for it in rows]
        self.conversation.set_scope(self.names)

    def clear(self) -> None:
        """Search the whole workspace again: the selection and the chip are cleared."""
        self.documents_view.clearSelection()
        self._on_selection()

    def for_question(self) -> list[str] | None:
        """The ``scope`` argument for :func:`core.pipeline.answer_question`: doc ids, or ``None`` (no choice)."""
        return list(self.doc_ids) or None
