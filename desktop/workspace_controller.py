"""Workspaces and their documents for the window: the list, create/rename/delete, folders, statuses.

The list shows what is on disk at every moment, whatever the engine is doing:

* creating a workspace writes its folder and SQLite manifest here, in a read-pool
  thread (:func:`core.workspace_ops.create_workspace`, no LanceDB, no recovery), and
  the name is listed as soon as that returns — it never waits for the engine to
  load (issue #16: a workspace created while the engine loaded appeared 52 s later);
* a ``QFileSystemWatcher`` on the workspaces folder reloads the list when a
  workspace appears or disappears by other hands (``verbatim index`` in a terminal);
* the selected workspace's documents are re-read from its manifest after every
  commit of an indexing run (the indexing controller asks), and the files the run
  still has to read are listed as queued or indexing in between.

Every read runs in the read pool (SQLite only: the window's process never opens the
vector store, see :class:`core.store.Workspace`'s ``recover``).
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Slot
from PySide6.QtWidgets import QInputDialog, QMessageBox

from core.engine import remove_folder_op
from core.store.docids import read_ranked_folders
from core.errors import IndexError_, WorkspaceNotFoundError
from core.store import Workspace, list_workspaces, workspaces_root
from core.workspace_ops import create_workspace, delete_workspace, last_indexed_at, rename_workspace, workspace_dir
from desktop.hosts import WorkspaceHost



class Gone(IndexError_):
    """The workspace was deleted or renamed while a background read was queued; ignored quietly."""

    def __init__(self, name: str) -> None:
        super().__init__(f"No workspace named {name!r}.")


class WorkspaceController(QObject):
    """The workspace list and the selected workspace's folders, documents and statuses."""

    def __init__(self, window: WorkspaceHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QObject
        self.w = window
        self._open: dict[str, Workspace] = {}
        self._lock = threading.Lock()
        self._opening: dict[str, threading.Lock] = {}  # per-workspace open/create lock
        self.names: list[str] = []
        # Workspaces whose deletion is running: a listing taken meanwhile still sees their
        # folder, and must neither list nor select them again.
        self._deleting: set[str] = set()
        self._snapshot: dict | None = None
        self._refreshing = False
        self._refresh_again = False
        self._root_watcher = QFileSystemWatcher(self)
        self._root_watcher.directoryChanged.connect(self._on_root_changed)
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(1500)  # a folder whose manifest was not written yet: look again
        self._reload_timer.timeout.connect(self.reload)
        self.w.jobs.call(lambda: str(workspaces_root()), lambda root: self._root_watcher.addPath(root))

    # --- opening (worker threads only: SQLite I/O) ---------------------------------

    def get(self, name: str, create: bool = False) -> Workspace:
        """The open workspace ``name``, opened on first use. Worker threads only (SQLite I/O).

        Raises:
            Gone: it does not exist on disk and ``create`` is False (a late read must
                never resurrect a workspace the user just deleted).
        """
        with self._lock:
            ws = self._open.get(name)
            opening = self._opening.setdefault(name, threading.Lock())
        if ws is not None:
            return ws
        # One opening per workspace at a time: two threads creating the same new workspace
        # raced (one read a half-written manifest; the sample's first run lost its selection).
        with opening:
            with self._lock:
                ws = self._open.get(name)
            if ws is not None:
                return ws
            if not create and not (workspace_dir(name) / "manifest.sqlite").exists():
                raise Gone(name)
            try:
                # Manifest reads only: recovery belongs to the engine, which writes and searches.
                opened = Workspace(name, self.w.settings, create=create, recover=False)
            except WorkspaceNotFoundError:
                raise Gone(name) from None
            with self._lock:
                return self._open.setdefault(name, opened)

    def is_open(self, name: str) -> bool:
        """True when ``name`` was opened (its manifest read) since it was last forgotten."""
        with self._lock:
            return name in self._open

    def forget(self, name: str) -> None:
        """Drop the open workspace ``name`` (renamed, deleted, rebuilt): the next read reopens it."""
        with self._lock:
            self._open.pop(name, None)

    def apply_settings(self, settings) -> None:
        """Use ``settings`` for every open workspace."""
        with self._lock:
            for ws in self._open.values():
                ws.settings = settings

    def read(self, name: str, fn):
        """Run a read of workspace ``name``; a failure because it was deleted meanwhile becomes :class:`Gone`."""
        try:
            return fn()
        except Exception:
            if not (workspace_dir(name) / "manifest.sqlite").exists():
                raise Gone(name) from None
            raise

    # --- the list ------------------------------------------------------------------

    def reload(self, select: str | None = None) -> None:
        """List workspaces in the background (creating ``select`` if missing) and select one."""

        def work():
            if select and select not in list_workspaces():
                self.get(select, create=True)
            return list_workspaces()

        self.w.jobs.call(work, lambda names: self._on_workspaces(names, select), self.w.on_error)

    @Slot(str)
    def _on_root_changed(self, _path: str) -> None:
        self.reload()
        self._reload_timer.start()

    def _on_workspaces(self, names: list[str], select: str | None) -> None:
        w = self.w
        names = [n for n in names if n not in self._deleting]
        if select is None and names == self.names and w.workspace_name in names:
            return  # a file-system event that changed nothing listed
        self.names = list(names)
        current = select if select in names else (w.workspace_name if w.workspace_name in names else None)
        if current is None and names:
            current = names[0]
        w.workspaces_panel.set_workspaces(names, current)
        w.workspaces_changed.emit(names)
        w.watching.watch_all(names)
        if current is None:
            w.workspace_name = None
            w.setWindowTitle("Verbatim")
            w.show_welcome()
            return
        w.centre.setCurrentWidget(w.conversation)
        if current != w.workspace_name or select:
            w.select_workspace(current)

    # --- the selected workspace ------------------------------------------------------

    def refresh(self) -> None:
        """Reload the selected workspace's folders, documents and counts in the background.

        One read at a time: a refresh asked while one is in flight (commits landing quickly)
        runs once more when it returns, so the list always ends at the manifest's last state.
        """
        name = self.w.workspace_name
        if name is None:
            return
        if self._refreshing:
            self._refresh_again = True
            return
        self._refreshing = True

        def snapshot():
            ws = self.get(name)
            return {"name": name, "folders": ws.folders(), "documents": ws.documents(), "failures": ws.failures(),
                    "chunks": ws.chunk_count(), "last_indexed": last_indexed_at(name),
                    "labels": dict(read_ranked_folders(ws.dir))}  # folder → the label its document ids use

        def failed(exc: Exception) -> None:
            self._refreshed()
            self.w.on_error(exc)

        self.w.jobs.call(lambda: self.read(name, snapshot), lambda snap: (self._refreshed(), self._on_snapshot(snap)),
                         failed)

    def _refreshed(self) -> None:
        self._refreshing = False
        if self._refresh_again:
            self._refresh_again = False
            self.refresh()

    def _on_snapshot(self, snap: dict) -> None:
        w = self.w
        if snap["name"] != w.workspace_name:
            return
        self._snapshot = snap
        w.workspaces_panel.set_snapshot(snap, w.indexing.pending_view(snap["name"]))
        w.watching.set_folders(snap["name"], snap["folders"])
        w.chunks_label.setText(self.tr("Chunks: %n", "", snap["chunks"]))
        if snap["chunks"]:
            w.answers.warm(snap["name"])  # the engine reads its indexes before the first question
        w.workspace_loaded.emit(snap["name"])

    def show_pending(self, name: str) -> None:
        """Show the indexing run's queued and indexing files of ``name`` without re-reading the manifest."""
        if name == self.w.workspace_name and self._snapshot is not None and self._snapshot["name"] == name:
            self.w.workspaces_panel.set_pending(self.w.indexing.pending_view(name))

    def retranslate(self) -> None:
        """Re-show the snapshot in the current language."""
        if self._snapshot is not None and self._snapshot["name"] == self.w.workspace_name:
            self._on_snapshot(self._snapshot)

    # --- create, rename, delete --------------------------------------------------------

    def new_dialog(self) -> None:
        """Ask for a name and create the workspace."""
        name, ok = QInputDialog.getText(self.w, self.tr("New workspace"),
                                        self.tr("Name (for example the client or matter):"))
        if ok and name.strip():
            self.create(name)

    def create(self, name: str) -> None:
        """Create workspace ``name`` (folder and manifest, in a read-pool thread) and select it.

        Never waits for the engine: :func:`core.workspace_ops.create_workspace` writes the
        SQLite manifest only. The name is listed as soon as it exists on disk.
        """
        self.w.jobs.call(lambda: (create_workspace(name), name.strip())[1], lambda n: self.reload(select=n),
                         self.w.on_error)

    def rename_dialog(self, old: str) -> None:
        new, ok = QInputDialog.getText(self.w, self.tr("Rename workspace"), self.tr("New name:"), text=old)
        if ok and new.strip() and new.strip() != old:
            self.rename(old, new)

    def rename(self, old: str, new: str) -> None:
        """Rename workspace ``old`` to ``new`` (refused while it is indexing or answering)."""
        w = self.w
        if w.busy_on(old):
            w.on_error(IndexError_(self.tr("Wait for indexing or answering to finish before renaming.")))
            return
        self.forget(old)
        w.history.forget(old)
        w.watching.forget(old)
        was_current = old in w.watching.current

        def renamed(n: str) -> None:
            if was_current:
                w.watching.current.add(n)  # same index under a new name: no catch-up run needed
            self.reload(select=n)

        w.jobs.call(lambda: rename_workspace(old, new).name, renamed, w.on_error, pool=w.index_pool)

    def delete_dialog(self, name: str) -> None:
        answer = QMessageBox.warning(
            self.w, self.tr("Delete workspace"),
            self.tr("Delete workspace “{name}”? Its index and question history are removed; "
                    "your documents stay where they are.").format(name=name),
            QMessageBox.StandardButton.Delete | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Delete:
            self.delete(name)

    def delete(self, name: str) -> None:
        """Delete workspace ``name`` and its stores (no confirmation; the dialog asks)."""
        w = self.w
        w.indexing.cancel_workspace(name)
        self.forget(name)
        w.history.forget(name)
        w.watching.forget(name)
        if w.workspace_name == name:
            w.workspace_name = None
        self._deleting.add(name)

        def done(_=None) -> None:
            self._deleting.discard(name)
            self.reload()

        def failed(exc: Exception) -> None:
            done()
            w.on_error(exc)

        w.jobs.call(lambda: delete_workspace(name), done, failed, pool=w.index_pool)

    # --- folders and document statuses -----------------------------------------------------

    def remove_folder(self, folder: str) -> None:
        """Remove ``folder`` and its documents from the selected workspace (index lane, in the engine)."""
        w = self.w
        name = w.workspace_name
        if name is None:
            return
        settings, engine = w.settings, w.engine
        w.jobs.call(lambda: engine.call(remove_folder_op, name, folder, settings),
                    lambda _: self.refresh(), w.on_error, pool=w.index_pool)

    def status_dialog(self, doc_id: str, status: str) -> None:
        reason = ""
        if status != "active":
            reason, ok = QInputDialog.getText(self.w, self.tr("Reason"), self.tr("Why (shown beside the document):"))
            if not ok:
                return
        self.set_document_status(doc_id, status, reason)

    def set_document_status(self, doc_id: str, status: str, reason: str = "") -> None:
        """Set a document's status through ``Workspace.set_status`` (index lane)."""
        w = self.w
        name = w.workspace_name
        if name is None:
            return
        w.jobs.call(lambda: self.get(name).set_status(doc_id, status, reason),
                    lambda _: self.refresh(), w.on_error, pool=w.index_pool)
