"""Folder watching for the window: one watcher per workspace, batches become incremental index runs.

A controller in napari's sense: it holds the state of one concern (which
workspaces are watched, which watcher is running) and talks to the window's
other controllers through the window; it owns no widget.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject

from core.errors import IndexError_
from core.watch import FolderWatcher
from desktop.hosts import WatchHost
from desktop.workers import GeneratorWorker


log = logging.getLogger(__name__)


def watch_batches(watcher: FolderWatcher, cancel: Callable[[], bool], poll_s: float = 0.5):
    """Yield the watcher's debounced batches of changed paths until ``cancel()`` (checked every ``poll_s`` s).

    Runs in a pool thread (a :class:`GeneratorWorker`); starts and stops ``watcher``.
    The first item is an empty set, yielded once the folders are being watched.
    """
    with watcher:
        yield set()
        while not cancel():
            batch = watcher.changes(timeout=poll_s)
            if batch:
                yield batch


class _DaemonThreads:
    """A "pool" for :meth:`Jobs.start` that runs each runnable in its own daemon thread.

    For the long-lived folder watchers only: a ``QThreadPool`` child of the window
    waits in its destructor for its runnables, so a watcher still running when the
    window is deleted without a close event (never shown, or deleted directly)
    blocked the GUI thread forever (seen in tests). A daemon thread never blocks
    destruction or exit; the watcher stops at its next poll once cancelled, or at
    its next report once the window is gone (:meth:`Jobs.start` cancels a worker
    whose report finds no receiver).
    """

    def start(self, runnable) -> None:
        threading.Thread(target=runnable.run, name="verbatim-folder-watch", daemon=True).start()


class WatchController(QObject):
    """Watches every workspace's folders while the ``watch_folders`` setting is on.

    A batch of changed files queues one incremental index run (unless a queued one has
    not started yet: it will see them); when a watcher starts, one catch-up run picks up
    what changed while Verbatim was closed. ``window.WATCH_QUIET_S`` is the debounce.
    """

    def __init__(self, window: WatchHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QObject
        self.w = window
        self.pool = _DaemonThreads()
        self._watches: dict[str, tuple[list[str], GeneratorWorker]] = {}
        self.known_folders: dict[str, list[str]] = {}
        self._live: set[str] = set()  # workspaces whose watcher reported it is running
        self.current: set[str] = set()  # workspaces indexed (or caught up) this session

    @property
    def watched(self) -> dict[str, list[str]]:
        """Workspaces whose folders are being watched, with those folders."""
        return {name: folders for name, (folders, worker) in self._watches.items() if not worker.is_cancelled}

    def is_watching(self, name: str) -> bool:
        """True once the watcher of workspace ``name`` runs (file events from then on are seen)."""
        return name in self._live and name in self.watched

    def watch_all(self, names: list[str]) -> None:
        """Start watching every listed workspace's folders, not only the ones opened this session.

        Each workspace's folder list is read in the read pool; a workspace that
        cannot be opened (indexed with other settings, deleted meanwhile) is left
        unwatched silently here — selecting it reports the problem.
        """
        if not self.w.settings.watch_folders:
            return
        for name in names:
            if name in self.known_folders:
                continue

            def known(folders: list[str], name: str = name) -> None:
                if name not in self.known_folders:  # a refresh may have filled it meanwhile
                    self.known_folders[name] = folders
                    self.update(name)

            self.w.jobs.call(lambda name=name: self.w.workspaces.get(name).folders(), known,
                             lambda exc, name=name: log.info("not watching %s: %s", name, exc))

    def set_folders(self, name: str, folders: list[str]) -> None:
        """The folders of workspace ``name`` as its manifest lists them now (watch them)."""
        self.known_folders[name] = list(folders)
        self.update(name)

    def update(self, name: str) -> None:
        """Watch the known folders of workspace ``name`` when the ``watch_folders`` setting is on.

        Restarts the watcher when the folder set changed; stops it when the
        setting is off or the workspace has no folders. The watcher runs in a
        daemon thread; its batches arrive in :meth:`_on_changes`.
        """
        wanted = sorted(self.known_folders.get(name, [])) if self.w.settings.watch_folders else []
        current = self._watches.get(name)
        if current is not None and current[0] == wanted and not current[1].is_cancelled:
            return
        self.stop(name)
        if not wanted:
            return
        quiet_s = self.w.WATCH_QUIET_S

        def factory(cancel):
            # Folders that vanished are skipped here; indexing then reports them.
            watcher = FolderWatcher([f for f in wanted if Path(f).is_dir()], quiet_s=quiet_s)
            return watch_batches(watcher, cancel)

        worker = GeneratorWorker(factory)
        self._watches[name] = (wanted, worker)
        self.w.jobs.start(worker, self.pool,
                          on_progress=lambda batch: self._on_changes(name, worker, batch),
                          on_error=lambda exc: self._on_error(name, worker, exc))

    def update_all(self) -> None:
        """Apply the ``watch_folders`` setting to every workspace seen this session."""
        for name in list(self.known_folders):
            self.update(name)

    def stop(self, name: str) -> None:
        """Stop watching workspace ``name`` (renamed, deleted, or no folders left)."""
        self._live.discard(name)
        entry = self._watches.pop(name, None)
        if entry is not None:
            entry[1].cancel()

    def forget(self, name: str) -> None:
        """Stop watching ``name`` and forget its folders (renamed or deleted)."""
        self.stop(name)
        self.known_folders.pop(name, None)

    def _on_changes(self, name: str, worker: GeneratorWorker, batch: set) -> None:
        entry = self._watches.get(name)
        if entry is None or entry[1] is not worker or worker.is_cancelled:
            return  # a batch from a watcher stopped meanwhile
        indexing = self.w.indexing
        if not batch:
            self._live.add(name)  # the watcher's "running" report
            if name not in self.current and not indexing.busy(name):
                # Files added, changed or deleted while Verbatim was closed raise no event: one
                # incremental run catches up (unchanged files are skipped by size and mtime;
                # 0.0 s of index work on the sample when nothing changed).
                self.current.add(name)
                indexing.start_run(name, entry[0], indexing.index_factory(name, entry[0]),
                                   self.tr("Checking for changes made while Verbatim was closed…"), watch=True)
            return
        self.w.folders_changed.emit(name, set(batch))
        if indexing.has_queued_watch_run(name):
            return  # a queued re-index has not started yet: it will see these changes too
        folders = entry[0]
        message = self.tr("%n file(s) changed: updating the index…", "", len(batch))
        indexing.start_run(name, folders, indexing.index_factory(name, folders), message, watch=True)

    def _on_error(self, name: str, worker: GeneratorWorker, exc: Exception) -> None:
        entry = self._watches.get(name)
        if entry is not None and entry[1] is worker:
            del self._watches[name]
        self.w.on_error(IndexError_(self.tr("Folder watching stopped for {name}: {error}").format(name=name, error=exc)))
