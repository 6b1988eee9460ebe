"""The left panel: workspaces, the selected one's folders, documents, history, indexing progress.

A view only: it shows what :class:`desktop.main_window.MainWindow` gives it and
emits signals for every user action; the window runs the work off the GUI thread.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.history import HistoryEntry
from desktop.style import mute
from desktop.texts import answer_status_text, doc_status_text

ROLE_ID = Qt.ItemDataRole.UserRole
ROLE_STATUS = Qt.ItemDataRole.UserRole + 1  # a document row's status (active, superseded, quarantined)
# Progress bar steps per file, so embedding progress inside one large file moves the bar.
PROGRESS_STEPS = 100


def format_duration(seconds: float) -> str:
    """``1 h 02 min``, ``3 min 05 s`` or ``12 s``."""
    s = round(max(0.0, seconds))
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


class WorkspacesPanel(QWidget):
    """Workspace list and the selected workspace's details.

    Signals:
        workspace_selected(str), new_requested(), rename_requested(str), delete_requested(str),
        add_folder_requested(), remove_folder_requested(str), cancel_requested(),
        history_open(int), history_delete(int), history_clear(),
        status_requested(str, str): doc_id, new status (``active``, ``superseded``, ``quarantined``).
    """

    workspace_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str)
    delete_requested = Signal(str)
    add_folder_requested = Signal()
    remove_folder_requested = Signal(str)
    cancel_requested = Signal()
    history_open = Signal(int)
    history_delete = Signal(int)
    history_clear = Signal()
    status_requested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        head = QLabel(self.tr("Workspaces"))
        font = head.font()
        font.setBold(True)
        head.setFont(font)
        self.workspace_list = QListWidget()
        self.workspace_list.setAccessibleName(self.tr("Workspaces"))
        self.workspace_list.setMaximumHeight(130)
        self.workspace_list.currentItemChanged.connect(self._on_current)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New…"))
        self.new_button.clicked.connect(self.new_requested)
        self.rename_button = QPushButton(self.tr("Rename…"))
        self.rename_button.clicked.connect(lambda: self._emit_current(self.rename_requested))
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.delete_button.clicked.connect(lambda: self._emit_current(self.delete_requested))
        for b, name in ((self.new_button, self.tr("New workspace")), (self.rename_button, self.tr("Rename workspace")),
                        (self.delete_button, self.tr("Delete workspace"))):
            b.setAccessibleName(name)
            buttons.addWidget(b)

        self.summary_label = QLabel("")
        self.summary_label.setWordWrap(True)
        mute(self.summary_label)

        # folders
        self.folders_view = QListWidget()
        self.folders_view.setAccessibleName(self.tr("Folders"))
        self.folders_view.setMaximumHeight(90)
        folder_buttons = QHBoxLayout()
        self.add_folder_button = QPushButton(self.tr("Add folder…"))
        self.add_folder_button.setToolTip(self.tr("Index a folder (or drop folders onto the window)"))
        self.add_folder_button.clicked.connect(self.add_folder_requested)
        self.remove_folder_button = QPushButton(self.tr("Remove folder"))
        self.remove_folder_button.clicked.connect(self._remove_folder)
        folder_buttons.addWidget(self.add_folder_button)
        folder_buttons.addWidget(self.remove_folder_button)

        # documents and history
        self.documents_view = QTreeWidget()
        self.documents_view.setAccessibleName(self.tr("Documents"))
        self.documents_view.setHeaderLabels([self.tr("Document"), self.tr("Pages"), self.tr("Status")])
        self.documents_view.setRootIsDecorated(False)
        # Long names lose their middle, not the end: "docs/BOE-A-19…consolidado.pdf" keeps the file name's end.
        self.documents_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.documents_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.documents_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.documents_view.customContextMenuRequested.connect(self._document_menu)
        header = self.documents_view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.history_view = QListWidget()
        self.history_view.setAccessibleName(self.tr("Question history"))
        self.history_view.setWordWrap(True)
        self.history_view.itemActivated.connect(self._open_history)
        self.history_view.itemClicked.connect(self._open_history)
        history_buttons = QHBoxLayout()
        self.history_delete_button = QPushButton(self.tr("Delete"))
        self.history_delete_button.setAccessibleName(self.tr("Delete this question from the history"))
        self.history_delete_button.clicked.connect(self._delete_history)
        self.history_clear_button = QPushButton(self.tr("Delete all…"))
        self.history_clear_button.setAccessibleName(self.tr("Delete the whole history"))
        self.history_clear_button.clicked.connect(self.history_clear)
        history_buttons.addStretch(1)
        history_buttons.addWidget(self.history_delete_button)
        history_buttons.addWidget(self.history_clear_button)
        history_tab = QWidget()
        hl = QVBoxLayout(history_tab)
        hl.setContentsMargins(0, 0, 0, 0)
        hl.addWidget(self.history_view, 1)
        hl.addLayout(history_buttons)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.documents_view, self.tr("Documents"))
        self.tabs.addTab(history_tab, self.tr("History"))

        # indexing progress
        self.progress_title = QLabel("")
        self.progress_bar = QProgressBar()
        self.progress_bar.setAccessibleName(self.tr("Indexing progress"))
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.current_file_label = QLabel("")
        self.current_file_label.setWordWrap(True)
        self.eta_label = QLabel("")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setAccessibleName(self.tr("Cancel indexing"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_bar, 1)
        progress_row.addWidget(self.cancel_button)
        self.progress_bar.hide()
        self.cancel_button.hide()
        self.eta_label.hide()

        layout.addWidget(head)
        layout.addWidget(self.workspace_list)
        layout.addLayout(buttons)
        layout.addWidget(self.summary_label)
        layout.addWidget(QLabel(self.tr("Folders")))
        layout.addWidget(self.folders_view)
        layout.addLayout(folder_buttons)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.progress_title)
        layout.addWidget(self.current_file_label)
        layout.addWidget(self.eta_label)
        layout.addLayout(progress_row)
        self.folders_view.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.history_view.currentItemChanged.connect(lambda *_: self._update_buttons())
        self._update_buttons()

    # --- workspaces -----------------------------------------------------------

    def current_workspace(self) -> str | None:
        """Name of the selected workspace."""
        item = self.workspace_list.currentItem()
        return item.text() if item is not None else None

    def set_workspaces(self, names: list[str], current: str | None) -> None:
        """Show ``names`` and select ``current`` (without emitting ``workspace_selected``)."""
        self.workspace_list.blockSignals(True)
        self.workspace_list.clear()
        for name in names:
            self.workspace_list.addItem(name)
        for i in range(self.workspace_list.count()):
            if self.workspace_list.item(i).text() == current:
                self.workspace_list.setCurrentRow(i)
        self.workspace_list.blockSignals(False)
        self._update_buttons()

    def _on_current(self, item: QListWidgetItem | None, _prev) -> None:
        self._update_buttons()
        if item is not None:
            self.workspace_selected.emit(item.text())

    def _emit_current(self, signal) -> None:
        name = self.current_workspace()
        if name:
            signal.emit(name)

    def _update_buttons(self) -> None:
        has = self.current_workspace() is not None
        for b in (self.rename_button, self.delete_button, self.add_folder_button):
            b.setEnabled(has)
        self.remove_folder_button.setEnabled(has and self.folders_view.currentItem() is not None)
        self.history_delete_button.setEnabled(self.history_view.currentItem() is not None)
        self.history_clear_button.setEnabled(self.history_view.count() > 0)

    # --- details --------------------------------------------------------------

    def set_snapshot(self, snap: dict) -> None:
        """Show a workspace snapshot: ``folders``, ``documents`` (dicts), ``failures``, ``chunks``, ``last_indexed``."""
        self.folders_view.clear()
        for folder in snap.get("folders", []):
            item = QListWidgetItem(Path(folder).name or folder)
            item.setToolTip(folder)
            item.setData(ROLE_ID, folder)
            self.folders_view.addItem(item)
        self.documents_view.clear()
        counts: dict[str, int] = {}
        for doc in snap.get("documents", []):
            status = doc.get("status", "active")
            counts[status] = counts.get(status, 0) + 1
            label = doc_status_text(status)
            reason = doc.get("reason") or doc.get("status_reason") or ""  # Workspace.documents() says "reason"
            item = QTreeWidgetItem([doc["doc_id"], str(doc.get("pages", "")), label])
            tip = f"{doc.get('path', '')}\n{doc.get('chunks', 0)} chunks, {doc.get('lang', '')}"
            if reason:
                tip += f"\n{label}: {reason}"
                item.setText(2, f"{label}: {reason}" if len(reason) < 40 else label)
            item.setToolTip(0, tip)
            item.setToolTip(2, tip)
            item.setData(0, ROLE_ID, doc["doc_id"])
            item.setData(0, ROLE_STATUS, status)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            self.documents_view.addTopLevelItem(item)
        for f in snap.get("failures", []):
            ocr = "OCR" in f.reason
            status = "needs_ocr" if ocr else "failed"
            counts[status] = counts.get(status, 0) + 1
            where = f" (page {f.page})" if f.page else ""
            # Named like the indexed documents (folder/relative path), status short: the reason
            # made the column too wide to read in a narrow panel (tester, session 3).
            item = QTreeWidgetItem([_doc_name(f.path, snap.get("folders", [])), "", doc_status_text(status)])
            item.setToolTip(0, f"{f.path}\n{f.reason}{where}")
            item.setToolTip(2, f"{f.reason}{where}")
            item.setForeground(2, Qt.GlobalColor.darkRed if not ocr else Qt.GlobalColor.darkYellow)
            self.documents_view.addTopLevelItem(item)
        parts = [self.tr("{n} documents").format(n=len(snap.get("documents", [])))]
        for status in ("superseded", "quarantined", "failed", "needs_ocr"):
            if counts.get(status):
                parts.append(f"{doc_status_text(status)}: {counts[status]}")  # no plural to get wrong
        parts.append(self.tr("{n} chunks").format(n=snap.get("chunks", 0)))
        last = snap.get("last_indexed")
        parts.append(
            self.tr("last indexed {when}").format(when=time.strftime("%Y-%m-%d %H:%M", time.localtime(last)))
            if last else self.tr("never indexed")
        )
        self.summary_label.setText(" · ".join(parts))
        self._update_buttons()

    def set_history(self, entries: list[HistoryEntry], stale: dict[int, set[str]]) -> None:
        """List ``entries`` newest first; entries with stale citations are marked."""
        self.history_view.clear()
        for e in reversed(entries):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.asked_at))
            mark = "  ⚠ " + self.tr("document changed") if stale.get(e.id) else ""
            item = QListWidgetItem(f"{e.question}\n{when} · {answer_status_text(e.answer.status)}{mark}")
            item.setData(ROLE_ID, e.id)
            self.history_view.addItem(item)
        self._update_buttons()

    def _open_history(self, item: QListWidgetItem) -> None:
        self.history_open.emit(int(item.data(ROLE_ID)))
        self._update_buttons()

    def _delete_history(self) -> None:
        item = self.history_view.currentItem()
        if item is not None:
            self.history_delete.emit(int(item.data(ROLE_ID)))

    def _remove_folder(self) -> None:
        item = self.folders_view.currentItem()
        if item is not None:
            self.remove_folder_requested.emit(item.data(ROLE_ID))

    def document_menu(self, item: QTreeWidgetItem | None) -> QMenu | None:
        """The status menu of a document row, or ``None`` (failed files have none).

        Offers only the changes that apply: a quarantined document gets "Release
        from quarantine" (core records the release for its content hash), the
        others "Mark as active"/"Mark as superseded…"/"Quarantine…" minus their own.
        Each action emits :attr:`status_requested`.
        """
        doc_id = item.data(0, ROLE_ID) if item is not None else None
        if not doc_id:
            return None
        current = item.data(0, ROLE_STATUS) or "active"
        menu = QMenu(self)
        entries = [
            ("active", self.tr("Release from quarantine") if current == "quarantined" else self.tr("Mark as active")),
            ("superseded", self.tr("Mark as superseded…")),
            ("quarantined", self.tr("Quarantine…")),
        ]
        for status, text in entries:
            if status != current:
                menu.addAction(text, lambda s=status: self.status_requested.emit(doc_id, s))
        return menu

    def _document_menu(self, pos) -> None:
        menu = self.document_menu(self.documents_view.itemAt(pos))
        if menu is not None:
            menu.exec(self.documents_view.viewport().mapToGlobal(pos))

    # --- progress -------------------------------------------------------------

    def set_progress(self, title: str, done: float, total: int, current: str, eta_s: float | None, running: bool) -> None:
        """Show indexing progress: ``done`` files (fractional within the current file) of ``total``.

        ``total`` 0 with ``running`` shows a busy bar; the ETA is in seconds.
        """
        self.progress_title.setText(title)
        if total > 0:
            self.progress_bar.setRange(0, total * PROGRESS_STEPS)
            self.progress_bar.setValue(round(done * PROGRESS_STEPS))
            self.progress_bar.setFormat(self.tr("{done} of {total} files").format(done=int(done), total=total))
        elif running:
            self.progress_bar.setRange(0, 0)
        self.current_file_label.setText(current)
        self.eta_label.setText(self.tr("about {t} left").format(t=format_duration(eta_s)) if eta_s is not None else "")
        self.cancel_button.setEnabled(running)
        self.progress_bar.setVisible(running)
        self.cancel_button.setVisible(running)
        self.eta_label.setVisible(running and eta_s is not None)


def _doc_name(path: str, folders: list[str]) -> str:
    """``path`` as the documents list names files: its folder's name, then the path inside it."""
    p = Path(path)
    for folder in sorted(folders, key=len, reverse=True):
        root = Path(folder)
        if p.is_relative_to(root):
            return f"{root.name}/{p.relative_to(root).as_posix()}"
    return p.name
