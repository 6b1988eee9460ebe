"""The :class:`Workspace` facade: one workspace's manifest, BM25 index and vectors."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import threading
from collections.abc import Generator, Iterable
from contextlib import contextmanager, suppress
from pathlib import Path

from filelock import FileLock, Timeout

from core.errors import DamagedIndexError, IndexError_, WorkspaceBusyError, WorkspaceNotFoundError
from core.paths import data_dir
from core.settings import Settings
from core.store.bm25 import Bm25Index, is_bm25_folder
from core.store.commit import DocumentWrite, commit_batch, finish_run, needs_recovery, recover
from core.store.docids import register_folders
from core.store.embedding import get_embedder
from core.store.indexing import CancelCheck, index_run, partial_documents
from core.store.locking import WRITER_WAIT_S, clear_holder, read_holder, write_holder
from core.store.manifest import DocStatus, Manifest, reset_manifest
from core.store.vectors import VectorTable
from core.types import Chunk, FileError, IndexReport, PartialDocument, ProgressEvent

log = logging.getLogger(__name__)


def workspaces_root() -> Path:
    """Folder holding one sub-folder per workspace."""
    root = data_dir() / "workspaces"
    root.mkdir(parents=True, exist_ok=True)
    return root


def list_workspaces() -> list[str]:
    """Names of the workspaces that exist on disk, sorted."""
    return sorted(p.name for p in workspaces_root().iterdir() if (p / "manifest.sqlite").exists())


def _check_name(name: str) -> None:
    if not name or any(c in name for c in "/\\:") or name in {".", ".."}:
        raise IndexError_(f"invalid workspace name {name!r}")


def _set_aside_damaged_manifest(folder: Path, name: str, exc: sqlite3.DatabaseError) -> None:
    """A rebuild over a damaged manifest: the damaged file is kept (renamed ``manifest.damaged-<time>.sqlite``,
    nothing deleted), a new one is made with the folders that could still be read from it."""
    import time

    db_path = folder / "manifest.sqlite"
    folders: list[str] = []
    with suppress(sqlite3.Error):
        conn = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            folders = [r[0] for r in conn.execute("SELECT path FROM folders ORDER BY rowid")]
        finally:
            conn.close()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for suffix in ("", "-wal", "-shm"):
        src = folder / f"manifest.sqlite{suffix}"
        if src.exists():
            os.replace(src, folder / f"manifest.damaged-{stamp}.sqlite{suffix}")
    log.warning("workspace %s: damaged manifest (%s) set aside as manifest.damaged-%s.sqlite; %d folder(s) kept",
                name, exc, stamp, len(folders))
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        with conn:
            from core.store.manifest import migrate

            migrate(conn)
            register_folders(conn, [Path(f) for f in folders])
    finally:
        conn.close()


class Workspace:
    """One workspace's index. Safe to use from one writer thread and many reader threads.

    The manifest (:mod:`core.store.manifest`) is the source of truth; the BM25
    index (:mod:`core.store.bm25`) and the vectors (:mod:`core.store.vectors`)
    are kept equal to it across crashes by the commit protocol and recovery of
    :mod:`core.store.commit`. Indexing (:meth:`index`) embeds documents into a
    pending batch; every ``settings.index_commit_chunks`` chunks, before a
    document that would push the batch past that size (so a big document starts
    its own batch), and at the end of a run or on cancel, the batch is committed
    (a document that fits in one batch is never split; a larger one is committed in
    parts of a batch each, :mod:`core.store.indexing`). A killed run keeps the
    documents and parts it committed; the next run skips the documents (size and
    mtime match) and goes on inside a partially indexed one.

    **Opening** reads the manifest's ``meta`` only; recovery (under the
    inter-process ``writer.lock``, skipped if another process holds it) runs on
    open only when :func:`core.store.commit.needs_recovery` finds something to
    recover (an unfinished commit, derived data behind the manifest), and at the
    start of each indexing run. Searches read LanceDB at the version the
    manifest records and the recorded BM25 state, so a reader sees the last
    commit whatever a crashed or running writer left.

    **Settings fingerprint** (:func:`core.store.index_fingerprint`): opening an
    index built with another embedding model, other chunking settings or another
    schema raises :class:`IndexMismatchError`; :meth:`reset` empties it for a rebuild.

    Layout of ``<data>/workspaces/<name>/``: ``manifest.sqlite``, ``bm25/``, ``lance/``
    and ``writer.lock`` (held while indexing or recovering).

    Args:
        name: workspace name (letters, digits, ``-``, ``_``, ``.``; becomes a folder name).
        settings: pipeline settings (chunking, retrieval sizes, commit batch size).
        root: folder holding the workspace folder (default: :func:`workspaces_root`).
        create: create the workspace if missing (CLI indexing); False to open only
            an existing one (the window's reads), never re-creating its files.
        recover: recover on open when something was left unfinished (the
            default: writers, the CLI's ``index``). Readers pass False (the
            window, ``ask``, ``eval``): the open then never takes the writer lock
            nor loads LanceDB, and searches still see only committed data.

    Raises:
        IndexError_: invalid name or an index that cannot be opened.
        IndexMismatchError: the index was built with other settings (see above).
        WorkspaceNotFoundError: ``create`` is False and the workspace has no manifest.
    """

    def __init__(self, name: str, settings: Settings | None = None, root: Path | None = None, *,
                 create: bool = True, recover: bool = True) -> None:
        _check_name(name)
        self.name = name
        self.settings = settings or Settings()
        # root: the evaluator keeps its own folder so it never touches the user's workspaces.
        self.dir = (Path(root) if root is not None else workspaces_root()) / name
        self._db_path = self.dir / "manifest.sqlite"
        self._create = create
        if create:
            self.dir.mkdir(parents=True, exist_ok=True)
        elif not self._db_path.exists():
            # A reader racing a delete or rename must not bring back an empty workspace.
            raise WorkspaceNotFoundError(name, str(self.dir))
        self.manifest = Manifest(self._db_path, name, create)
        self.vectors = VectorTable(self.dir / "lance")
        self.bm25 = Bm25Index(self.dir, self.manifest)
        self._write_lock = threading.Lock()
        self._file_lock = FileLock(str(self.dir / "writer.lock"), thread_local=False)
        self._status_cache: tuple[tuple[str, str], set[str], set[str]] | None = None
        #: Documents changed and chunks committed by the current run (commit.finish_run).
        self.run_changes: set[str] = set()
        self.run_chunks = 0
        self.manifest.check_fingerprint(self.settings, self._drop_vector_folder)
        if recover and needs_recovery(self, self.manifest.meta()):
            self._recover()

    def _drop_vector_folder(self) -> None:
        self.vectors.close()
        shutil.rmtree(self.dir / "lance", ignore_errors=True)

    # --- reads ----------------------------------------------------------------

    def fingerprint(self) -> dict[str, object]:
        """The settings fingerprint recorded in the index (see :func:`core.store.index_fingerprint`)."""
        import json

        return json.loads(self.manifest.meta().get("fingerprint", "{}"))

    def folders(self) -> list[str]:
        """Folders this workspace indexes (absolute paths)."""
        return self.manifest.folders()

    def documents(self) -> list[dict]:
        """Indexed documents: ``doc_id, path, pages, status, reason, lang, chunks, chunks_total`` each.

        ``status`` is ``active``, ``superseded`` or ``quarantined``; ``reason`` says why
        (for a quarantine by the detector, the matched passage), ``""`` when none; for an
        active document a stopped run left partially indexed, "partially indexed: N of M
        chunks". ``chunks_total``: the whole document's chunk count when it is partially
        indexed (``chunks`` of them committed and searchable), else ``None``.
        """
        return self.manifest.documents()

    def partial_documents(self) -> list[PartialDocument]:
        """Documents a stopped run left partially indexed (committed in parts, not to their end), by doc id.

        Their committed chunks are searchable; the next indexing run of their folder goes on from
        there (unchanged file) or starts them over (changed file): :mod:`core.store.indexing`.
        """
        return partial_documents(self)

    def failures(self) -> list[FileError]:
        """Files that could not be indexed in the last run that saw them."""
        return self.manifest.failures()

    def chunk_count(self) -> int:
        """Number of chunks in the workspace."""
        return self.manifest.chunk_count()

    def get_chunks(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]:
        """Chunks by id (unknown ids are absent from the result)."""
        return self.manifest.get_chunks(chunk_ids)

    def doc_profiles(self):
        """Every document's profile and normalized-text hash (:func:`core.store.profiles.read_profiles`):
        ``({doc_id: core.docrefs.DocProfile}, {doc_id: sha256 hex})``."""
        from core.store.profiles import read_profiles

        return read_profiles(self.manifest)

    def eligible_doc_ids(self) -> set[str]:
        """Documents whose chunks may reach the model (status ``active``); computed once per index state."""
        return set(self._statuses()[0])

    def ineligible_doc_ids(self) -> set[str]:
        """Documents excluded from retrieval (superseded, quarantined); computed once per index state."""
        return set(self._statuses()[1])

    def _statuses(self) -> tuple[set[str], set[str]]:
        """``(eligible, ineligible)`` document ids, cached until a commit or a status change."""
        meta = self.manifest.meta()
        key = (meta.get("generation", "0"), meta.get("status_generation", "0"))
        cached = self._status_cache
        if cached is None or cached[0] != key:
            cached = (key, self.manifest.doc_ids_with_status(active=True),
                      self.manifest.doc_ids_with_status(active=False))
            self._status_cache = cached
        return cached[1], cached[2]

    def set_status(self, doc_id: str, status: DocStatus, reason: str = "") -> None:
        """Set a document's status (``active``, ``superseded``, ``quarantined``) and reason.

        Setting ``active`` on a quarantined document is a *release*: it is recorded
        with the document's content hash, so re-indexing unchanged content keeps it
        active; changed content is screened again. Takes effect on the next query.

        Raises:
            IndexError_: unknown status, or no document ``doc_id`` in this workspace.
        """
        self.manifest.set_status(doc_id, status, reason)

    def stored_chunk_ids(self) -> dict[str, list[str]]:
        """Chunk ids as each store holds them, sorted, duplicates kept: ``manifest``, ``vectors``, ``bm25``.

        After any commit or recovery the three lists are equal (the crash-safety
        invariant, checked by the tests).
        """
        return {"manifest": sorted(self.manifest.chunk_ids()), "vectors": sorted(self.vectors.ids()),
                "bm25": sorted(self.bm25.ids())}

    # --- search ---------------------------------------------------------------

    def bm25_search(self, query: str, k: int, exclude_docs: set[str],
                    only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids ranked by BM25 for ``query``, best first (zero-score hits dropped).

        Excluded documents — and, when ``only_docs`` is given (the question's
        document scope), every document outside it — are filtered before
        ranking (pre-filter). An empty ``only_docs`` set finds nothing.
        """
        return self.bm25.search(query, k, exclude_docs, only_docs)

    def document_frequencies(self, tokens: list[str]) -> tuple[dict[str, int], int]:
        """Chunks of the BM25 index containing each of ``tokens`` (BM25 tokens, :func:`core.textproc.tokenize`)
        and the number of chunks indexed (for IDF weights, :mod:`core.passages`)."""
        return self.bm25.document_frequencies(tokens)

    def dense_search(self, query: str, k: int, exclude_docs: set[str],
                     only_docs: set[str] | None = None, *, vector: list[float] | None = None) -> list[str]:
        """Chunk ids nearest to ``query`` by cosine similarity, best first.

        ``exclude_docs`` are filtered inside the LanceDB query (pre-filter), so
        they cannot take places in the top ``k``; ``only_docs``, when given (the
        question's document scope), restricts the search to those documents the
        same way. An empty ``only_docs`` set finds nothing. ``vector``: the query's
        embedding when the caller already has it (``query`` is then not embedded).
        """
        version = self.manifest.meta().get("lance_version")
        if not version or not self.vectors.exists() or (only_docs is not None and not only_docs):
            return []
        vec = vector if vector is not None else get_embedder().get_query_embedding(query)
        try:
            return self.vectors.search(vec, k, exclude_docs, only_docs, int(version))
        except (RuntimeError, OSError, ValueError):
            # A writer recorded a newer version and deleted the one read: read the new one.
            version = self.manifest.meta().get("lance_version")
            try:
                return self.vectors.search(vec, k, exclude_docs, only_docs, int(version)) if version else []
            except (RuntimeError, OSError, ValueError) as exc:
                # The recorded version itself cannot be read: a data file truncated, removed or overwritten.
                raise DamagedIndexError(self.name, "vectors", str(self.dir / "lance"), str(exc)[:300]) from exc

    def rebuild_bm25(self) -> None:
        """Bring the BM25 index up to the manifest (in proportion to what changed since it was built).

        The caller holds the writer lock (it follows a commit).
        """
        self.bm25.update()

    # --- writes ---------------------------------------------------------------

    def index(
        self, folders: list[str | Path], cancel: CancelCheck | None = None
    ) -> Generator[ProgressEvent, None, IndexReport]:
        """Index ``folders`` incrementally; a generator of progress returning the report.

        Unchanged files (same size and mtime, or same sha256) are skipped with no
        embedding work; changed files replace exactly their own chunks; files gone
        from disk are removed; a new file whose bytes equal a file gone in the same
        run (moved or renamed) takes over its chunks and vectors without
        embedding (``report.renamed``). A file that fails keeps its previously
        indexed chunks and is listed in ``report.failures`` with the reason.
        Work is committed in atomic batches (class docstring), so a crash loses
        at most one batch and the next run resumes.

        Args:
            folders: folders to index recursively (added to the workspace).
            cancel: polled between files and embedding batches; when it returns
                True, work embedded so far is committed, the run stops and the
                report says ``cancelled``.

        Raises:
            IndexError_: a folder does not exist, or another process is indexing
                this workspace.
        """
        return (yield from index_run(self, folders, cancel))

    def commit_documents(self, writes: list[DocumentWrite], removals: Iterable[str] = ()) -> None:
        """Commit prepared documents (chunks + vectors) and removals atomically, for any writer.

        The entry point for writers that prepare documents outside :meth:`index`
        (e.g. a cluster that parsed, chunked, screened and embedded them): each
        :class:`DocumentWrite` replaces its document's chunks and vectors, each id
        in ``removals`` is deleted; then derived data (BM25) is brought up to date.
        Call it once per batch; the batch is the unit of atomicity.

        Raises:
            IndexError_: another process is writing this workspace.
        """
        with self._write_lock, self._writer(wait_s=WRITER_WAIT_S):
            recover(self)
            try:
                commit_batch(self, list(writes), sorted(set(removals)))
            finally:
                finish_run(self)

    def remove_documents(self, doc_ids: Iterable[str]) -> None:
        """Remove documents (chunks, vectors, per-document rows) in one atomic commit.

        Raises:
            IndexError_: another process is writing this workspace.
        """
        self.commit_documents([], doc_ids)

    # Kept for callers written before the split (core.workspace_ops).
    def _commit(self, writes: list[DocumentWrite], removals: list[str]) -> None:
        commit_batch(self, writes, removals)

    def writer_busy(self) -> str | None:
        """``None`` when no other process holds the writer lock now, else a sentence saying who does
        and that this writer waits (for the one that waits: a progress event, the CLI's stderr)."""
        if self._write_lock.locked():
            return f"workspace '{self.name}' is being written by another task of this program; waiting for it"
        try:
            self._file_lock.acquire(timeout=0)
        except Timeout:
            holder = read_holder(self.dir)
            who = f" ({holder})" if holder else ""
            return (f"workspace '{self.name}' is being written by another process{who}; waiting for it "
                    f"(at most {WRITER_WAIT_S:.0f} s) — searches still answer from its last commit")
        self._file_lock.release()
        return None

    @contextmanager
    def _writer(self, wait_s: float = 0) -> Generator[None, None, None]:
        """Hold the inter-process writer lock, or raise if another process holds it after ``wait_s`` seconds.

        While held, ``writer.json`` in the workspace folder says who holds it (pid, program,
        since when), so the one that waits or gives up can be told.

        Raises:
            WorkspaceBusyError: still held by another process after ``wait_s`` seconds.
            WorkspaceNotFoundError: the workspace was deleted or renamed since it was opened.
        """
        try:
            self._file_lock.acquire(timeout=wait_s)
        except Timeout as exc:
            raise WorkspaceBusyError(self.name, read_holder(self.dir), wait_s) from exc
        if not self._create and not self._db_path.exists():
            # Deleted or renamed since it was opened. The lock file (and py-filelock creates
            # its parent folder) must not bring the folder back: undo, and say so.
            self._file_lock.release()
            with suppress(OSError):
                os.remove(self._file_lock.lock_file)
            with suppress(OSError):
                self.dir.rmdir()  # only if empty: never removes anything else
            raise WorkspaceNotFoundError(self.name, str(self.dir))
        try:
            write_holder(self.dir)
            yield
        finally:
            clear_holder(self.dir)
            self._file_lock.release()

    def _recover(self) -> None:
        try:
            with self._writer():
                recover(self)
        except WorkspaceNotFoundError:
            raise
        except IndexError_:
            # Another process is writing: it recovers; readers here see its last
            # commit (retrieval drops ids the manifest does not know).
            log.info("workspace %s: writer active elsewhere, recovery skipped", self.name)

    def delete(self) -> None:
        """Remove the workspace's stores from disk."""
        self.vectors.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @classmethod
    def reset(cls, name: str, settings: Settings | None = None) -> Workspace:
        """Empty a workspace's index, keeping its folder list, and open it under ``settings``.

        The way out of :class:`IndexMismatchError`: the caller then re-indexes
        :meth:`folders` (``verbatim index --rebuild``). Vectors are deleted first,
        then the manifest in one transaction; a crash in between leaves the old
        fingerprint, so the next open asks for the rebuild again.

        Raises:
            IndexError_: invalid name, or another process is indexing the workspace.
        """
        _check_name(name)
        folder = workspaces_root() / name
        folder.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(folder / "writer.lock"), thread_local=False)
        try:
            lock.acquire(timeout=0)
        except Timeout as exc:
            raise IndexError_(f"workspace '{name}' is being indexed by another process") from exc
        try:
            shutil.rmtree(folder / "lance", ignore_errors=True)
            for path in folder.iterdir():
                if is_bm25_folder(path.name):
                    shutil.rmtree(path, ignore_errors=True)
            try:
                reset_manifest(folder / "manifest.sqlite")
            except sqlite3.DatabaseError as exc:
                _set_aside_damaged_manifest(folder, name, exc)
        finally:
            lock.release()
        return cls(name, settings)
