"""Folder watching: debounced batches of changed document paths, for background re-indexing.

File-system events come from watchdog's ``Observer`` (inotify on Linux,
FSEvents on macOS, ReadDirectoryChangesW on Windows). Editors and copy tools
produce bursts (create, several modifies, rename of a temporary file), so events
are collected and released as one batch once the folders have been quiet for
``quiet_s`` seconds, or at the latest ``max_wait_s`` seconds after the first
event of the batch (so a folder that never stops changing is still re-indexed).
What to do with a batch is the caller's business: the window runs an
incremental :meth:`core.store.Workspace.index` of the watched folders, which
touches only what changed.

Core stays free of Qt: the caller pulls batches with :meth:`FolderWatcher.changes`
from a worker thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from core.ingest import SUPPORTED_SUFFIXES


def _relevant(path: str, is_directory: bool) -> bool:
    p = Path(path)
    if any(part.startswith(".") for part in p.parts[-2:]) or p.name.startswith("~$"):
        return False  # hidden files and Office lock files, as iter_files skips them
    return is_directory or p.suffix.lower() in SUPPORTED_SUFFIXES


class FolderWatcher:
    """Watch folders recursively and hand out debounced batches of changed paths.

    A batch is a set of absolute paths: files created, modified, deleted or moved
    (both the old and the new path), and folders deleted or moved (their files
    changed too). Only supported document types count; hidden files do not.

    Args:
        folders: folders to watch recursively (must exist).
        quiet_s: seconds without a new event that close a batch.
        max_wait_s: seconds after a batch's first event at which it closes anyway.

    Raises:
        FileNotFoundError: a folder does not exist (raised by :meth:`start`).

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(self, folders: Iterable[str | Path], quiet_s: float = 2.0, max_wait_s: float = 30.0) -> None:
        self.folders = [Path(f).expanduser().resolve() for f in folders]
        self.quiet_s = quiet_s
        self.max_wait_s = max_wait_s
        self._observer = None
        self._cond = threading.Condition()
        self._pending: set[Path] = set()
        self._first = 0.0
        self._last = 0.0
        self._stopped = False

    # watchdog calls this from its emitter thread
    def _on_event(self, event: FileSystemEvent) -> None:
        if event.event_type in {"opened", "closed_no_write"}:
            return
        if event.is_directory and event.event_type not in {"deleted", "moved"}:
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        hits = {Path(str(p)) for p in paths if p and _relevant(str(p), event.is_directory)}
        if not hits:
            return
        now = time.monotonic()
        with self._cond:
            if not self._pending:
                self._first = now
            self._pending |= hits
            self._last = now
            self._cond.notify_all()

    def start(self) -> FolderWatcher:
        """Start watching (returns ``self``)."""
        handler = FileSystemEventHandler()
        handler.on_any_event = self._on_event  # type: ignore[method-assign]
        observer = Observer()
        for folder in self.folders:
            if not folder.is_dir():
                raise FileNotFoundError(f"{folder}: not a folder")
            observer.schedule(handler, str(folder), recursive=True)
        observer.daemon = True
        observer.start()
        self._observer = observer
        return self

    def stop(self) -> None:
        """Stop watching; a blocked :meth:`changes` returns ``None``."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None

    def __enter__(self) -> FolderWatcher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def changes(self, timeout: float | None = None) -> set[Path] | None:
        """Block until a debounced batch is ready and return it; ``None`` on timeout or after :meth:`stop`.

        Args:
            timeout: seconds to wait for a batch; ``None`` waits until one is ready or the watcher stops.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._stopped:
                now = time.monotonic()
                if self._pending:
                    ready_at = min(self._last + self.quiet_s, self._first + self.max_wait_s)
                    if now >= ready_at:
                        batch, self._pending = self._pending, set()
                        return batch
                    wait = ready_at - now
                else:
                    wait = None
                if deadline is not None:
                    if now >= deadline:
                        return None
                    wait = deadline - now if wait is None else min(wait, deadline - now)
                self._cond.wait(wait)
            return None

    def __iter__(self) -> Iterator[set[Path]]:
        """Batches until :meth:`stop` is called."""
        while (batch := self.changes()) is not None:
            yield batch
