"""What the commit protocol and an indexing run need of a workspace (:class:`WorkspaceHandle`).

A structural type (``typing.Protocol``) that :class:`core.store.workspace.Workspace`
satisfies, so :mod:`core.store.commit` and :mod:`core.store.indexing` name the
workspace they work on without importing the module that imports them (no
import cycle, type-only imports included).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from core.settings import Settings
    from core.store.bm25 import Bm25Index
    from core.store.manifest import Manifest
    from core.store.vectors import VectorTable
    from core.types import Chunk


class WorkspaceHandle(Protocol):
    """One open workspace as its writer sees it (attributes of :class:`core.store.Workspace`).

    ``run_changes``/``run_chunks``: documents changed and chunks committed by
    the current run (reset by :func:`core.store.commit.finish_run`).
    """

    name: str
    dir: Path
    settings: Settings
    manifest: Manifest
    vectors: VectorTable
    bm25: Bm25Index
    run_changes: set[str]
    run_chunks: int
    _write_lock: threading.Lock

    def _writer(self, wait_s: float = 0) -> AbstractContextManager[None]: ...

    def writer_busy(self) -> str | None: ...

    def chunk_count(self) -> int: ...

    def get_chunks(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]: ...
