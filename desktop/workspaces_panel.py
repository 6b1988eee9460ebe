"""The left panel: workspaces, the selected one's folders, documents, history, indexing progress.

A view only: it shows what :class:`desktop.main_window.MainWindow` gives it and
emits signals for every user action; the window runs the work off the GUI thread.
Every text is set in :meth:`WorkspacesPanel.retranslate`, so a language change
applies at once (Qt sends ``LanguageChange``; the window re-shows its state).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.history import HistoryEntry
from core.ingest.walk import LINK_BROKEN, LINK_LOOP, LINK_OUTSIDE
from core.store.docids import assign_labels
from core.progress import format_duration  # noqa: F401 - re-exported (callers import it from here)
from desktop.elide import DistinctNameDelegate, ElidedLabel, distinguishing_starts
from desktop.style import mute
from desktop.texts import answer_status_text, doc_status_text

ROLE_ID = Qt.ItemDataRole.UserRole
ROLE_STATUS = Qt.ItemDataRole.UserRole + 1  # a document row's status (active, superseded, quarantined)
# Progress bar steps: the bar shows the share of the run's pages read (embedding inside a large file moves it).
PROGRESS_STEPS = 1000
# Documents states shown while a run is under way, beside the manifest's.
PENDING_STATES = ("queued", "indexing")
# Reasons of the links indexing leaves alone on purpose (listed greyed as "not followed", not "failed").
LINKS_NOT_FOLLOWED = (LINK_OUTSIDE, LINK_LOOP, LINK_BROKEN)


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
        self._snap: dict | None = None
        self._pending: dict = {}
        self._history: tuple[list[HistoryEntry], dict[int, set[str]]] = ([], {})
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        self.head_label = QLabel()
        font = self.head_label.font()
        font.setBold(True)
        self.head_label.setFont(font)
        self.workspace_list = QListWidget()
        self.workspace_list.setMaximumHeight(130)
        self.workspace_list.currentItemChanged.connect(self._on_current)
        buttons = QHBoxLayout()
        self.new_button = QPushButton()
        self.new_button.clicked.connect(self.new_requested)
        self.rename_button = QPushButton()
        self.rename_button.clicked.connect(lambda: self._emit_current(self.rename_requested))
        self.delete_button = QPushButton()
        self.delete_button.clicked.connect(lambda: self._emit_current(self.delete_requested))
        for b in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(b)

        self.summary_label = QLabel("")
        self.summary_label.setWordWrap(True)
        mute(self.summary_label)

        # folders
        self.folders_label = QLabel()
        self.folders_view = QListWidget()
        self.folders_view.setMaximumHeight(90)
        self.folders_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # "garcia/…/Contratos": both ends tell
        folder_buttons = QHBoxLayout()
        self.add_folder_button = QPushButton()
        self.add_folder_button.clicked.connect(self.add_folder_requested)
        self.remove_folder_button = QPushButton()
        self.remove_folder_button.clicked.connect(self._remove_folder)
        folder_buttons.addWidget(self.add_folder_button)
        folder_buttons.addWidget(self.remove_folder_button)

        # documents and history
        self.documents_view = QTreeWidget()
        self.documents_view.setRootIsDecorated(False)
        self.documents_view.setUniformRowHeights(True)
        # Names keep the characters that tell them apart (desktop.elide), not Qt's middle elision.
        self.name_delegate = DistinctNameDelegate(self.documents_view)
        self.documents_view.setItemDelegateForColumn(0, self.name_delegate)
        # Several documents can be selected: the selection is the next question's scope (desktop.scope_controller).
        self.documents_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.documents_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.documents_view.customContextMenuRequested.connect(self._document_menu)
        header = self.documents_view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.history_view = QListWidget()
        self.history_view.setWordWrap(True)
        self.history_view.itemActivated.connect(self._open_history)
        self.history_view.itemClicked.connect(self._open_history)
        history_buttons = QHBoxLayout()
        self.history_delete_button = QPushButton()
        self.history_delete_button.clicked.connect(self._delete_history)
        self.history_clear_button = QPushButton()
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
        self.tabs.addTab(self.documents_view, "")
        self.tabs.addTab(history_tab, "")

        # indexing progress: one line each, elided — a long file name never widens the panel
        self.progress_title = ElidedLabel("", mode=Qt.TextElideMode.ElideRight)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        # Wraps (a run's summary takes two lines) but never asks for width: names in it are
        # shortened by the indexing controller (desktop.elide.short_name).
        self.current_file_label = QLabel("")
        self.current_file_label.setWordWrap(True)
        self.current_file_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.current_file_label.setMinimumWidth(1)
        self.eta_label = ElidedLabel("", mode=Qt.TextElideMode.ElideRight)
        self.cancel_button = QPushButton()
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_bar, 1)
        progress_row.addWidget(self.cancel_button)
        self.progress_bar.hide()
        self.cancel_button.hide()
        self.eta_label.hide()
        self._progress: tuple = ("", 0.0, 0, 0, "", "", False)

        layout.addWidget(self.head_label)
        layout.addWidget(self.workspace_list)
        layout.addLayout(buttons)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.folders_label)
        layout.addWidget(self.folders_view)
        layout.addLayout(folder_buttons)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.progress_title)
        layout.addWidget(self.current_file_label)
        layout.addWidget(self.eta_label)
        layout.addLayout(progress_row)
        self.folders_view.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.history_view.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.retranslate()
        self._update_buttons()

    def retranslate(self) -> None:
        """Set every fixed text in the current language (also on ``LanguageChange``)."""
        self.head_label.setText(self.tr("Workspaces"))
        self.workspace_list.setAccessibleName(self.tr("Workspaces"))
        self.new_button.setText(self.tr("New…"))
        self.rename_button.setText(self.tr("Rename…"))
        self.delete_button.setText(self.tr("Delete…"))
        for b, name in ((self.new_button, self.tr("New workspace")), (self.rename_button, self.tr("Rename workspace")),
                        (self.delete_button, self.tr("Delete workspace"))):
            b.setAccessibleName(name)
        self.folders_label.setText(self.tr("Folders"))
        self.folders_view.setAccessibleName(self.tr("Folders"))
        self.add_folder_button.setText(self.tr("Add folder…"))
        self.add_folder_button.setToolTip(self.tr("Index a folder (or drop folders onto the window)"))
        self.remove_folder_button.setText(self.tr("Remove folder"))
        self.documents_view.setAccessibleName(self.tr("Documents"))
        self.documents_view.setHeaderLabels([self.tr("Document"), self.tr("Pages"), self.tr("Status")])
        self.history_view.setAccessibleName(self.tr("Question history"))
        self.history_delete_button.setText(self.tr("Delete"))
        self.history_delete_button.setAccessibleName(self.tr("Delete this question from the history"))
        self.history_clear_button.setText(self.tr("Delete all…"))
        self.history_clear_button.setAccessibleName(self.tr("Delete the whole history"))
        self.tabs.setTabText(0, self.tr("Documents"))
        self.tabs.setTabText(1, self.tr("History"))
        self.progress_bar.setAccessibleName(self.tr("Indexing progress"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setAccessibleName(self.tr("Cancel indexing"))
        if self._snap is not None:
            self.set_snapshot(self._snap, self._pending)
        self.set_history(*self._history)
        self.set_progress(*self._progress)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Re-translate when the UI language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

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
        item = self.folders_view.currentItem()
        self.remove_folder_button.setEnabled(has and item is not None and bool(item.data(ROLE_ID)))
        self.history_delete_button.setEnabled(self.history_view.currentItem() is not None)
        self.history_clear_button.setEnabled(self.history_view.count() > 0)

    # --- details --------------------------------------------------------------

    def set_snapshot(self, snap: dict, pending: dict | None = None) -> None:
        """Show a workspace snapshot and the indexing run's files not committed yet.

        ``snap``: ``folders``, ``documents`` (dicts), ``failures``, ``chunks``, ``last_indexed``.
        ``pending``: :meth:`desktop.indexing_controller.IndexingController.pending_view`
        (``queued``, ``indexing``, ``visited``, ``folders``) or ``None``.
        """
        self._snap, self._pending = snap, pending or {}
        self._show_folders()
        self._show_documents()

    def set_pending(self, pending: dict) -> None:
        """Show the run's queued and indexing files against the last snapshot (no manifest read)."""
        self._pending = pending or {}
        if self._snap is not None:
            self._show_folders()
            self._show_documents()

    def _show_folders(self) -> None:
        snap, pending = self._snap, self._pending
        selected = self.folders_view.currentItem().data(ROLE_ID) if self.folders_view.currentItem() else None
        self.folders_view.clear()
        recorded = list(snap.get("folders", []))
        folders = recorded + [f for f in pending.get("folders", []) if f not in recorded]
        # Two clients' folders named alike ("garcia/Contratos", "lopez/Contratos") showed as
        # "Contratos" twice (tryout 5, finding 10): every folder sharing its name with another is
        # named with the parents that tell it apart, as core labels such folders for document ids.
        names = assign_labels([], folders, qualify_shared=True)
        for folder, label in zip(folders, names):
            waiting = folder not in recorded
            item = QListWidgetItem(self.tr("{name} (being added)").format(name=label) if waiting else label)
            item.setToolTip(folder)
            item.setData(ROLE_ID, None if waiting else folder)
            self.folders_view.addItem(item)
            if folder == selected:
                self.folders_view.setCurrentItem(item)

    def _show_documents(self) -> None:
        snap, pending = self._snap, self._pending
        view = self.documents_view
        current = view.currentItem().data(0, ROLE_ID) if view.currentItem() else None
        selected = {it.data(0, ROLE_ID) for it in view.selectedItems()}  # kept across the refresh (the scope)
        scroll = view.verticalScrollBar().value()
        view.setUpdatesEnabled(False)
        view.clear()
        folders = snap.get("folders", []) + [f for f in pending.get("folders", []) if f not in snap.get("folders", [])]
        queued = list(pending.get("queued", []))
        indexing = pending.get("indexing", "")
        waiting = set(queued) | ({indexing} if indexing else set())
        counts: dict[str, int] = {}
        names: list[str] = []
        listed: set[str] = set()

        def add(item: QTreeWidgetItem, doc_id: str, status: str) -> None:
            counts[status] = counts.get(status, 0) + 1
            names.append(doc_id)
            listed.add(doc_id)
            item.setData(0, ROLE_ID, doc_id)
            item.setData(0, ROLE_STATUS, status)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            view.addTopLevelItem(item)
            if doc_id == current:
                view.setCurrentItem(item, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
            if doc_id in selected:
                item.setSelected(True)

        for doc in snap.get("documents", []):
            doc_id = doc["doc_id"]
            status = doc.get("status", "active")
            shown = ("indexing" if doc_id == indexing else "queued") if doc_id in waiting else status
            label = doc_status_text(shown)
            reason = doc.get("reason") or doc.get("status_reason") or ""  # Workspace.documents() says "reason"
            item = QTreeWidgetItem([doc_id, str(doc.get("pages", "")), label])
            tip = f"{doc_id}\n{doc.get('path', '')}\n" + self.tr("%n chunk(s)", "", int(doc.get("chunks", 0) or 0))
            if reason and shown == status:
                tip += f"\n{label}: {reason}"
                item.setText(2, f"{label}: {reason}" if len(reason) < 40 else label)
            item.setToolTip(0, tip)
            item.setToolTip(2, tip)
            add(item, doc_id, shown)
        for f in snap.get("failures", []):
            doc_id = _doc_name(f.path, folders, snap.get("labels"))
            if doc_id in listed:
                continue
            ocr = "OCR" in f.reason
            # A link left alone on purpose (B50: it leads outside the folder) is not a failure: it
            # showed as "failed" in red, which alarms (tryout 5, finding 13). Its reason says why.
            kept_out = f.reason in LINKS_NOT_FOLLOWED
            status = ("indexing" if doc_id == indexing else "queued") if doc_id in waiting else (
                "not_followed" if kept_out else "needs_ocr" if ocr else "failed")
            where = " " + self.tr("(page {page})").format(page=f.page) if f.page else ""
            # Named like the indexed documents (folder/relative path), status short: the reason
            # made the column too wide to read in a narrow panel (tester, session 3).
            item = QTreeWidgetItem([doc_id, "", doc_status_text(status)])
            item.setToolTip(0, f"{doc_id}\n{f.path}\n{f.reason}{where}")
            item.setToolTip(2, f"{f.reason}{where}")
            if status in ("failed", "needs_ocr"):
                item.setForeground(2, Qt.GlobalColor.darkRed if not ocr else Qt.GlobalColor.darkYellow)
            elif status == "not_followed":
                mute_item(item)
            add(item, doc_id, status)
        # Files of the run that the manifest does not hold yet: read, being read, or waiting.
        extra = ([indexing] if indexing else []) + sorted(pending.get("visited", set())) + queued
        for doc_id in extra:
            if doc_id in listed:
                continue
            status = "queued" if doc_id in queued else "indexing"
            item = QTreeWidgetItem([doc_id, "", doc_status_text(status)])
            item.setToolTip(0, doc_id)
            mute_item(item)
            add(item, doc_id, status)
        self.name_delegate.starts = distinguishing_starts(names)
        view.verticalScrollBar().setValue(scroll)
        view.setUpdatesEnabled(True)
        self._show_summary(counts)
        self._update_buttons()

    def settled(self) -> bool:
        """True when no listed document is queued or being indexed (the list shows the manifest alone)."""
        view = self.documents_view
        return all(view.topLevelItem(i).data(0, ROLE_STATUS) not in PENDING_STATES
                   for i in range(view.topLevelItemCount()))

    def _show_summary(self, counts: dict[str, int]) -> None:
        snap = self._snap
        n_docs = len(snap.get("documents", []))
        parts = [self.tr("%n document(s)", "", n_docs)]
        for status in ("queued", "indexing", "superseded", "quarantined", "failed", "needs_ocr", "not_followed"):
            if counts.get(status):
                parts.append(f"{doc_status_text(status).rstrip('…')}: {counts[status]}")  # no plural to get wrong
        parts.append(self.tr("%n chunk(s)", "", int(snap.get("chunks", 0) or 0)))
        last = snap.get("last_indexed")
        parts.append(
            self.tr("last indexed {when}").format(when=time.strftime("%Y-%m-%d %H:%M", time.localtime(last)))
            if last else self.tr("never indexed")
        )
        self.summary_label.setText(" · ".join(parts))

    def set_history(self, entries: list[HistoryEntry], stale: dict[int, set[str]]) -> None:
        """List ``entries`` newest first; entries with stale citations are marked."""
        self._history = (entries, stale)
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
        if item is not None and item.data(ROLE_ID):
            self.remove_folder_requested.emit(item.data(ROLE_ID))

    def document_menu(self, item: QTreeWidgetItem | None) -> QMenu | None:
        """The status menu of a document row, or ``None`` (failed, queued or indexing files have none).

        Offers only the changes that apply: a quarantined document gets "Release
        from quarantine" (core records the release for its content hash), the
        others "Mark as active"/"Mark as superseded…"/"Quarantine…" minus their own.
        Each action emits :attr:`status_requested`.
        """
        doc_id = item.data(0, ROLE_ID) if item is not None else None
        current = item.data(0, ROLE_STATUS) if item is not None else None
        if not doc_id or current not in ("active", "superseded", "quarantined"):
            return None
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

    def progress_state(self) -> tuple:
        """The arguments of the last :meth:`set_progress` call."""
        return self._progress

    def set_progress(self, title: str, fraction: float, files_done: int, files_total: int, current: str,
                     eta: str, running: bool) -> None:
        """Show indexing progress: ``fraction`` (0..1) of the work, ``files_done`` of ``files_total``.

        ``files_total`` 0 with ``running`` shows a busy bar; ``eta`` is the time-left text
        ("estimating…", "about 3 min left") or ``""``.
        """
        self._progress = (title, fraction, files_done, files_total, current, eta, running)
        self.progress_title.setText(title)
        if files_total > 0:
            self.progress_bar.setRange(0, PROGRESS_STEPS)
            self.progress_bar.setValue(round(min(1.0, max(0.0, fraction)) * PROGRESS_STEPS))
            self.progress_bar.setFormat(self.tr("{done} of {total} files").format(done=files_done, total=files_total))
        elif running:
            self.progress_bar.setRange(0, 0)
        self.current_file_label.setText(current)
        self.eta_label.setText(eta)
        self.cancel_button.setEnabled(running)
        self.progress_bar.setVisible(running)
        self.cancel_button.setVisible(running)
        self.eta_label.setVisible(running and bool(eta))


def mute_item(item: QTreeWidgetItem) -> None:
    """Grey the status of a row the manifest does not hold yet."""
    from PySide6.QtGui import QPalette

    item.setForeground(2, QApplication.palette().color(QPalette.ColorRole.PlaceholderText))


def _doc_name(path: str, folders: list[str], labels: dict[str, str] | None = None) -> str:
    """``path`` as the documents list names files, as its document id is made: its folder's label
    (``labels``: the manifest's, :func:`core.store.docids.read_ranked_folders`; else the folder's name
    with the parents that tell it apart from a folder of the same name), then the path inside it."""
    p = Path(path)
    named = dict(zip(folders, assign_labels([], folders, qualify_shared=True)))
    named.update(labels or {})
    for folder in sorted(folders, key=len, reverse=True):
        root = Path(folder)
        if p.is_relative_to(root):
            return f"{named.get(folder, root.name)}/{p.relative_to(root).as_posix()}"
    return p.name
