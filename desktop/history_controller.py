"""The window's conversations and the workspaces' stored histories.

Owns each workspace's conversation (the entries shown, and where its current conversation
starts after "New conversation") and the History list's actions (open, delete, clear). It
reads and writes :class:`core.history.History` (SQLite) in the read pool only; the GUI thread
formats what comes back. It is given the window as a :class:`desktop.hosts.HistoryHost`, never
the window class itself (issue #24: no controller imports :mod:`desktop.main_window`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from core.history import History, manifest_sha256
from desktop.hosts import HistoryHost
from desktop.render import Entry


class HistoryController(QObject):
    """Every workspace's conversation in this window, and its stored history.

    Args:
        window: what it drives (:class:`desktop.hosts.HistoryHost`); also its QObject parent.

    Attributes:
        conversations: ``{workspace: [Entry, ...]}`` — every entry shown this session, oldest first.
        context_from: ``{workspace: index}`` of the first entry of the current conversation (0-based).
    """

    def __init__(self, window: HistoryHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QObject
        self.w = window
        self.conversations: dict[str, list[Entry]] = {}
        self.context_from: dict[str, int] = {}

    def show(self, name: str) -> bool:
        """Show workspace ``name``'s conversation; returns False when it has none yet (load it)."""
        entries = self.conversations.get(name)
        self.w.conversation.set_entries(entries or [], context_from=self.context_from.get(name, 0))
        return entries is not None

    def forget(self, name: str) -> None:
        """Drop the conversation kept for workspace ``name`` (renamed or deleted)."""
        self.conversations.pop(name, None)
        self.context_from.pop(name, None)

    def context_entries(self, name: str) -> list[Entry]:
        """The entries of workspace ``name``'s current conversation (since the last "New conversation"):
        the context a follow-up question is read in."""
        entries = self.conversations.get(name, [])
        return entries[self.context_from.get(name, 0):]

    def new_conversation(self) -> None:
        """Start a new conversation in the selected workspace: earlier questions give no context to the
        next ones (they stay on screen, above a divider, and in the history). Recorded in the
        workspace's history (:meth:`core.history.History.start_new_conversation`), as ``verbatim ask --new`` does."""
        w = self.w
        name = w.workspace_name
        if name is None:
            return
        entries = self.conversations.setdefault(name, [])
        self.context_from[name] = len(entries)
        w.conversation.set_entries(entries, context_from=len(entries))
        w.statusBar().showMessage(self.tr("New conversation: the next question is read on its own."), 6000)
        w.jobs.call(lambda: History(w.get_workspace(name).dir).start_new_conversation(), lambda _: None, w.on_error)

    def load(self, name: str) -> None:
        """Read workspace ``name``'s stored history (read pool) and show it; emits ``history_loaded``."""
        w = self.w

        def work():
            ws_dir = w.get_workspace(name).dir
            history = History(ws_dir)
            entries = history.entries()
            current = manifest_sha256(ws_dir)
            return name, entries, {e.id: e.stale_doc_ids(current) for e in entries}, history.conversation_start()

        w.jobs.call(lambda: w.read(name, work), self._on_history, w.on_error)

    @Slot(object)
    def _on_history(self, result) -> None:
        w = self.w
        name, entries, stale, start = result
        # The current entry by identity, not by position: another process (`verbatim ask`, a second
        # window) may have added rows to this history since it was read, and the entry at the same
        # index is then an older one (tryout 2, "Window, seen once").
        shown = self.w.conversation.entries if name == w.workspace_name else []
        cur = w.answers.current_entry if name == w.workspace_name else None
        current = shown[cur] if cur is not None and 0 <= cur < len(shown) else None
        session = [e for e in self.conversations.get(name, []) if e.history_id is None]
        # The current conversation starts after the last "New conversation" (here or `verbatim ask --new`).
        self.context_from[name] = sum(1 for h in entries if h.id <= start)
        expanded = {e.history_id for e in self.conversations.get(name, []) if e.expanded}
        conv = [Entry(answer=h.answer, history_id=h.id, asked_at=h.asked_at, stale=stale.get(h.id, set()),
                      expanded=h.id in expanded) for h in entries]
        self.conversations[name] = conv + session
        if name == w.workspace_name:
            w.workspaces_panel.set_history(entries, stale)
            keep = _index_of(self.conversations[name], current)
            # Stay at the current entry's top (after an answer: its question), not the end.
            w.conversation.set_entries(self.conversations[name], context_from=self.context_from[name],
                                       scroll_to=keep)
            if keep is not None:
                w.answers.set_current_entry(keep)
            elif self.conversations[name]:
                w.answers.set_current_entry(len(self.conversations[name]) - 1)
        w.history_loaded.emit(name)

    def open_entry(self, history_id: int) -> None:
        """Scroll the conversation to a stored question and make it current."""
        for i, e in enumerate(self.w.conversation.entries):
            if e.history_id == history_id:
                self.w.answers.set_current_entry(i)
                self.w.conversation.answer_view.scrollToAnchor(f"entry-{i}")
                return

    def delete_entry(self, history_id: int) -> None:
        """Delete one stored question and its answer."""
        w = self.w
        name = w.workspace_name
        if name is None:
            return
        w.jobs.call(lambda: History(w.get_workspace(name).dir).delete(history_id), lambda _: self.load(name),
                    w.on_error)

    def clear_dialog(self, parent: QWidget) -> None:
        """Ask before deleting the selected workspace's whole history."""
        answer = QMessageBox.question(
            parent, self.tr("Delete history"), self.tr("Delete every question and answer of this workspace's history?"),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.clear()

    def clear(self) -> None:
        """Delete the selected workspace's whole history."""
        w = self.w
        name = w.workspace_name
        if name is None:
            return
        self.conversations.pop(name, None)
        w.jobs.call(lambda: History(w.get_workspace(name).dir).clear(), lambda _: self.load(name), w.on_error)


def _index_of(entries: list[Entry], entry: Entry | None) -> int | None:
    """Index in ``entries`` of the entry that stands for ``entry``: the same stored row (its history
    id), or the same unstored entry (the object itself); ``None`` when it is not there."""
    if entry is None:
        return None
    for i, e in enumerate(entries):
        if e is entry or (entry.history_id is not None and e.history_id == entry.history_id):
            return i
    return None
