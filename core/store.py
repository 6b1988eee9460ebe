"""A workspace's on-disk index: SQLite manifest, bm25s keyword index, LanceDB vectors.

Layout of ``<data>/workspaces/<name>/``::

    manifest.sqlite   documents (path, size, mtime, sha256, status), chunks (ids, text,
                      page offsets), failures (path, reason, page), folders, and ``meta``
                      (settings fingerprint, commit generation, LanceDB table version,
                      current BM25 folder) — the source of truth
    bm25-<gen>/       bm25s index over every chunk of manifest generation ``<gen>``,
                      rebuilt from the manifest (no embedding work); the current one
                      is named in ``meta``
    lance/            LanceDB table of chunk embeddings, through llama-index's
                      LanceDBVectorStore; rows carry ``doc_id`` for deletes and
                      pre-filtering
    writer.lock       inter-process lock held while indexing or recovering

Workspaces never share a store: each has its own folder. The commit protocol
that keeps the three stores equal across crashes is in :class:`Workspace`.

Why LanceDB: embedded, on disk, opens lazily (no full load into RAM, unlike
llama-index's JSON SimpleVectorStore: 229 s and 5.2 GB at 100k chunks, DESIGN.md),
supports SQL ``where`` pre-filters and deletes, and versions every write
(``table.version`` / ``restore``), which the crash recovery relies on.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sqlite3
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from filelock import FileLock, Timeout

import core.chunking
from core.chunking import chunk_pages
from core.errors import Cancelled, IndexError_, IndexMismatchError, IngestError, WorkspaceNotFoundError
from core.ingest import file_sha256, iter_files, parse_file
from core.paths import EMBEDDING_MODEL_NAME, data_dir, embedding_model_dir
from core.settings import Settings
from core.textproc import detect_language, tokenize, tokenize_query
from core.types import Chunk, FileError, IndexReport, ProgressEvent

log = logging.getLogger(__name__)

#: Version of the on-disk layout and commit protocol. 2: versioned ``bm25-<gen>``
#: folders, LanceDB version and settings fingerprint recorded in ``meta``.
INDEX_SCHEMA_VERSION = 2
EMBED_BATCH = 32
#: LanceDB's docs: "run optimize if you have added or modified 100,000 or more
#: records or run more than 20 data modification operations" (Table.optimize).
OPTIMIZE_EVERY_WRITES = 20
#: Test-only crash hook, see :func:`_crash_point`.
KILL_AT_ENV = "VERBATIM_TEST_KILL_AT"
_LANCE_TABLE = "chunks"

CancelCheck = Callable[[], bool]

# The LanceDB wrapper logs a warning whenever a workspace has no vectors yet.
logging.getLogger("llama_index.vector_stores.lancedb.base").setLevel(logging.ERROR)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folders (path TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, path TEXT NOT NULL, folder TEXT NOT NULL, size INTEGER NOT NULL,
    mtime REAL NOT NULL, sha256 TEXT NOT NULL, kind TEXT NOT NULL, lang TEXT NOT NULL,
    pages INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'active', indexed_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, page INTEGER NOT NULL, start INTEGER NOT NULL,
    "end" INTEGER NOT NULL, text TEXT NOT NULL, lang TEXT NOT NULL, modality TEXT NOT NULL, ord INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id);
CREATE TABLE IF NOT EXISTS chunk_meta (
    chunk_id TEXT PRIMARY KEY, context TEXT NOT NULL, page_label TEXT NOT NULL, location TEXT NOT NULL,
    ocr_confidence REAL
);
CREATE TABLE IF NOT EXISTS failures (path TEXT PRIMARY KEY, folder TEXT NOT NULL, reason TEXT NOT NULL, page INTEGER);
"""


# --- embedding model (one per process) -----------------------------------------

_embedder = None
_embedder_lock = threading.Lock()


def get_embedder():
    """The process-wide llama-index ``HuggingFaceEmbedding`` over the local all-MiniLM-L6-v2.

    384-dimensional, L2-normalized vectors; inputs longer than the model's 256
    word-piece window are truncated by sentence-transformers.

    Raises:
        ModelUnavailableError: the embedding model package is missing.
    """
    global _embedder
    with _embedder_lock:
        if _embedder is None:
            import transformers
            from llama_index.embeddings.huggingface import HuggingFaceEmbedding

            transformers.utils.logging.disable_progress_bar()  # no bars on the user's stderr

            _embedder = HuggingFaceEmbedding(
                model_name=str(embedding_model_dir()),
                device="cpu",
                normalize=True,
                embed_batch_size=EMBED_BATCH,
                show_progress_bar=False,
            )
        return _embedder


def embedding_model_id() -> str:
    """Name of the embedding model in use: the ``VERBATIM_EMBEDDING_MODEL`` folder's name, else the packaged one.

    Cheap (no model load, no extraction), so opening a workspace can compare it.
    """
    override = os.environ.get("VERBATIM_EMBEDDING_MODEL")
    return Path(override).name if override else EMBEDDING_MODEL_NAME


def index_fingerprint(settings: Settings) -> dict[str, object]:
    """What an index's chunks and vectors depend on; an index opens only under an equal one.

    Keys: ``schema_version`` (:data:`INDEX_SCHEMA_VERSION`), ``embedding_model``
    (:func:`embedding_model_id`), ``chunker_version`` (``core.chunking.CHUNKER_VERSION``
    when the chunker defines one) and ``chunking.<field>`` for every settings
    field named ``chunk*`` (sizes and overlap, whatever unit they use).
    """
    fp: dict[str, object] = {"schema_version": INDEX_SCHEMA_VERSION, "embedding_model": embedding_model_id()}
    chunker_version = getattr(core.chunking, "CHUNKER_VERSION", None)
    if chunker_version is not None:
        fp["chunker_version"] = chunker_version
    for key, value in sorted(settings.model_dump().items()):
        if key.startswith("chunk"):
            fp[f"chunking.{key}"] = value
    return fp


_kill_counts: Counter[str] = Counter()


def _crash_point(name: str) -> None:
    """Test-only hook: SIGKILL this process at a named step of the commit protocol.

    ``VERBATIM_TEST_KILL_AT=<point>[:<n>]`` kills the process the ``n``-th time
    (default 1) it reaches ``point``. Points, in protocol order: ``after_delete``
    (old vectors of a batch deleted), ``after_vectors`` (new vectors added, manifest
    not committed), ``after_manifest`` (manifest committed, BM25 stale),
    ``bm25_written`` (new BM25 folder complete, not recorded), ``bm25_recorded``
    (recorded, old folders not swept), ``after_optimize`` (LanceDB compacted,
    new version not recorded). Only tests/core/test_index_atomic.py sets it;
    unset, this costs one environment lookup per commit.
    """
    spec = os.environ.get(KILL_AT_ENV)
    if not spec:
        return
    point, _, nth = spec.partition(":")
    if point != name:
        return
    _kill_counts[name] += 1
    if _kill_counts[name] >= int(nth or 1):
        sys.stdout.flush()
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _check_name(name: str) -> None:
    if not name or any(c in name for c in "/\\:") or name in {".", ".."}:
        raise IndexError_(f"invalid workspace name {name!r}")


DocStatus = Literal["active", "superseded", "quarantined"]
DOC_STATUSES: tuple[str, ...] = ("active", "superseded", "quarantined")


def _add_status_columns(db: sqlite3.Connection) -> None:
    """Additive migration: ``documents.status_reason`` and the ``releases`` table.

    ``releases`` remembers, per document, the content hash the user released
    from quarantine, so the release survives re-indexing of unchanged content.
    """
    cols = {r[1] for r in db.execute("PRAGMA table_info(documents)")}
    if "status_reason" not in cols:
        db.execute("ALTER TABLE documents ADD COLUMN status_reason TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE TABLE IF NOT EXISTS releases (doc_id TEXT PRIMARY KEY, sha256 TEXT NOT NULL)")


def workspaces_root() -> Path:
    """Folder holding one sub-folder per workspace."""
    root = data_dir() / "workspaces"
    root.mkdir(parents=True, exist_ok=True)
    return root


def list_workspaces() -> list[str]:
    """Names of the workspaces that exist on disk, sorted."""
    return sorted(p.name for p in workspaces_root().iterdir() if (p / "manifest.sqlite").exists())


@dataclass
class _DocWrite:
    """One document's new state, embedded but not yet committed."""

    doc_id: str
    path: Path
    root: Path
    size: int
    mtime: float
    sha256: str
    kind: str
    lang: str
    pages: int
    chunks: list[Chunk] = field(default_factory=list)
    vectors: list[list[float]] = field(default_factory=list)
    renamed_from: str | None = None  # set: manifest rows are moved from this doc_id, not re-inserted
    screened: tuple[str, str] | None = None  # (status, reason) set by the quarantine screen, or keep


class Workspace:
    """One workspace's index. Safe to use from one writer thread and many reader threads.

    **Commit protocol** (crash safety). The manifest is the source of truth; its
    ``meta`` table records ``generation`` (bumped by every commit that changes
    chunks), ``lance_version`` (the LanceDB table version that holds exactly the
    manifest's vectors), ``bm25_dir``/``bm25_generation`` (the BM25 folder built
    from that generation) and the settings ``fingerprint``. Indexing embeds
    documents into a pending batch; every ``settings.index_commit_chunks`` chunks,
    before a document that would push the batch past that size (so a big
    document starts its own batch), and at the end of a run or on cancel, the
    batch is committed (a document is never split across batches):

    1. LanceDB: delete the batch's documents' old vectors, add the new ones
       (each a LanceDB version; Lance commits each version atomically).
    2. SQLite, one transaction: documents, chunks, ``generation + 1`` and
       ``lance_version = table.version``. This is the commit point.
    3. At the end of the run: the BM25 index is built into a new folder
       ``bm25-<generation>-<random>``, then recorded in ``meta``, then older
       BM25 folders are deleted; every 20 LanceDB writes the table is compacted
       (``optimize``) and the new version recorded.

    **Recovery** runs when a workspace is opened and before each indexing run,
    under the inter-process ``writer.lock`` (skipped if another process holds it):
    a LanceDB table newer than ``lance_version`` is restored to it (``restore``),
    a table with no recorded version is dropped, a stale or missing BM25 folder
    is rebuilt from the manifest, leftover BM25 folders are deleted. If the
    recorded version no longer exists (cleaned up), vectors whose ids the
    manifest lacks are deleted and documents whose vectors are missing are
    dropped from the manifest, so the next run re-embeds them.

    So a SIGKILL at any moment leaves the index at its last commit: manifest,
    vectors and BM25 hold the same chunk ids, from the same version of each
    file; the next run skips committed files (size and mtime match) and resumes.
    The unit of atomicity is the batch, not the run: a killed run keeps the
    documents it committed. Not covered: power loss (BM25 files are not
    fsynced; SQLite and Lance keep their own guarantees).

    **Settings fingerprint** (:func:`index_fingerprint`): opening an index built
    with another embedding model, other chunking settings or another schema
    raises :class:`IndexMismatchError`; :meth:`reset` empties it for a rebuild.

    Args:
        name: workspace name (letters, digits, ``-``, ``_``, ``.``; becomes a folder name).
        settings: pipeline settings (chunking, retrieval sizes, commit batch size).
        root: folder holding the workspace folder (default: :func:`workspaces_root`).
        create: create the workspace if missing (CLI indexing); False to open only
            an existing one (the window's reads), never re-creating its files.
        recover: run recovery on open (the default). The window's process passes
            False: it only reads the manifest (SQLite, always consistent), while
            indexing and answering — which recover first — run in the engine
            process; so the window never loads LanceDB (pyarrow, ~200 MB) and never
            takes the writer lock.

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
        self._bm25 = None
        self._bm25_ids: list[str] = []
        self._bm25_lock = threading.Lock()
        self._vector_store = None
        self._write_lock = threading.Lock()
        self._file_lock = FileLock(str(self.dir / "writer.lock"), thread_local=False)
        self._check_fingerprint()
        if recover:
            self._recover()

    # --- manifest -------------------------------------------------------------

    @contextmanager
    def _db(self) -> Generator[sqlite3.Connection, None, None]:
        try:
            # mode=rw: a workspace opened for use never re-creates a manifest deleted under it.
            mode = "rwc" if self._create else "rw"
            conn = sqlite3.connect(f"{self._db_path.absolute().as_uri()}?mode={mode}", uri=True, timeout=30)
        except sqlite3.Error as exc:
            raise IndexError_(f"{self._db_path}: cannot open the manifest ({exc})") from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            with conn:
                yield conn
        finally:
            conn.close()

    @staticmethod
    def _meta(db: sqlite3.Connection) -> dict[str, str]:
        return dict(db.execute("SELECT key, value FROM meta").fetchall())

    @staticmethod
    def _set_meta(db: sqlite3.Connection, **values: object) -> None:
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])

    def _check_fingerprint(self) -> None:
        # Two openers of a new workspace (the window's reader and indexer threads, or the
        # window and the CLI) race on creating the schema: SQLite answers "database is
        # locked" (switching to WAL, upgrading a read transaction) or "duplicate column"
        # (both migrate). Those are transient; the schema statements are idempotent, so
        # the check is retried. Measured before: 12 of 30 concurrent creations failed.
        for attempt in range(40):
            try:
                self._check_fingerprint_once()
                return
            except IndexError_ as exc:
                cause = exc.__cause__
                transient = isinstance(cause, sqlite3.OperationalError) and any(
                    m in str(cause) for m in ("locked", "duplicate column", "already exists", "busy"))
                if not transient or attempt == 39:
                    raise
                time.sleep(0.02 * (attempt + 1))

    def _check_fingerprint_once(self) -> None:
        current = index_fingerprint(self.settings)
        try:
            with self._db() as db:
                db.executescript(_SCHEMA)
                _add_status_columns(db)
                meta = self._meta(db)
                has_docs = db.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is not None
                stored = json.loads(meta["fingerprint"]) if "fingerprint" in meta else None
                if stored is None and has_docs:  # written before fingerprints existed
                    stored = {"schema_version": int(meta.get("schema_version", "1"))}
                if has_docs and stored != current:
                    keys = sorted(set(stored) | set(current))
                    raise IndexMismatchError(
                        self.name, {k: (stored.get(k), current.get(k)) for k in keys if stored.get(k) != current.get(k)}
                    )
                if stored != current:
                    if stored is not None:
                        # No document, so nothing is lost: drop the empty vector table too, whose
                        # vector width belongs to the old embedding model.
                        shutil.rmtree(self.dir / "lance", ignore_errors=True)
                        db.execute("DELETE FROM meta WHERE key = 'lance_version'")
                    self._set_meta(db, fingerprint=json.dumps(current, sort_keys=True),
                                   schema_version=INDEX_SCHEMA_VERSION)
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"{self._db_path}: the manifest is damaged ({exc})") from exc

    def fingerprint(self) -> dict[str, object]:
        """The settings fingerprint recorded in the index (see :func:`index_fingerprint`)."""
        with self._db() as db:
            return json.loads(self._meta(db).get("fingerprint", "{}"))

    def folders(self) -> list[str]:
        """Folders this workspace indexes (absolute paths)."""
        with self._db() as db:
            return [r[0] for r in db.execute("SELECT path FROM folders ORDER BY path")]

    def documents(self) -> list[dict]:
        """Indexed documents: ``doc_id, path, pages, status, reason, lang, chunks`` each.

        ``status`` is ``active``, ``superseded`` or ``quarantined``; ``reason`` says why
        (for a quarantine by the detector, the matched passage), ``""`` when none.
        """
        with self._db() as db:
            rows = db.execute(
                "SELECT d.doc_id, d.path, d.pages, d.status, d.status_reason, d.lang, COUNT(c.chunk_id) "
                "FROM documents d LEFT JOIN chunks c ON c.doc_id = d.doc_id GROUP BY d.doc_id ORDER BY d.doc_id"
            ).fetchall()
        keys = ("doc_id", "path", "pages", "status", "reason", "lang", "chunks")
        return [dict(zip(keys, r)) for r in rows]

    def failures(self) -> list[FileError]:
        """Files that could not be indexed in the last run that saw them."""
        with self._db() as db:
            rows = db.execute("SELECT path, reason, page FROM failures ORDER BY path").fetchall()
        return [FileError(path=p, reason=r, page=pg) for p, r, pg in rows]

    def chunk_count(self) -> int:
        """Number of chunks in the workspace."""
        with self._db() as db:
            return db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def get_chunks(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]:
        """Chunks by id (unknown ids are absent from the result)."""
        ids = list(dict.fromkeys(chunk_ids))
        out: dict[str, Chunk] = {}
        with self._db() as db:
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                q = (
                    'SELECT c.chunk_id, c.doc_id, d.path, c.page, c.start, c."end", c.text, c.lang, c.modality, '
                    "COALESCE(m.context, ''), COALESCE(m.page_label, ''), COALESCE(m.location, ''), m.ocr_confidence "
                    "FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                    "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id WHERE c.chunk_id IN "
                    f"({','.join('?' * len(part))})"
                )
                for row in db.execute(q, part):
                    out[row[0]] = Chunk(
                        chunk_id=row[0], doc_id=row[1], path=row[2], page=row[3], start=row[4], end=row[5],
                        text=row[6], lang=row[7], modality=row[8],
                        context=row[9], page_label=row[10], location=row[11], ocr_confidence=row[12],
                    )
        return out

    def eligible_doc_ids(self) -> set[str]:
        """Documents whose chunks may reach the model (status ``active``)."""
        with self._db() as db:
            return {r[0] for r in db.execute("SELECT doc_id FROM documents WHERE status = 'active'")}

    def ineligible_doc_ids(self) -> set[str]:
        """Documents excluded from retrieval (superseded, quarantined)."""
        with self._db() as db:
            return {r[0] for r in db.execute("SELECT doc_id FROM documents WHERE status != 'active'")}

    def set_status(self, doc_id: str, status: DocStatus, reason: str = "") -> None:
        """Set a document's status (``active``, ``superseded``, ``quarantined``) and reason.

        Setting ``active`` on a quarantined document is a *release*: it is recorded
        with the document's content hash, so re-indexing unchanged content keeps it
        active; changed content is screened again. Takes effect on the next query.

        Raises:
            IndexError_: unknown status, or no document ``doc_id`` in this workspace.
        """
        if status not in DOC_STATUSES:
            raise IndexError_(f"invalid status {status!r} (expected one of {', '.join(DOC_STATUSES)})")
        with self._db() as db:
            row = db.execute("SELECT status, sha256 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            if row is None:
                raise IndexError_(f"workspace {self.name!r} has no document {doc_id!r}")
            db.execute("UPDATE documents SET status = ?, status_reason = ? WHERE doc_id = ?", (status, reason, doc_id))
            if status == "active" and row[0] == "quarantined":
                db.execute("INSERT OR REPLACE INTO releases VALUES (?, ?)", (doc_id, row[1]))
            elif status == "quarantined":
                db.execute("DELETE FROM releases WHERE doc_id = ?", (doc_id,))

    def _screened_status(self, doc_id: str, parsed) -> tuple[str, str] | None:
        """Status to store for newly parsed content: quarantine unless released for this hash.

        Returns ``(status, reason)`` to set, or ``None`` to keep the stored status.
        """
        from core.quarantine import DETECTOR_PREFIX, screen_document

        with self._db() as db:
            row = db.execute("SELECT status, status_reason FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            released = db.execute(
                "SELECT 1 FROM releases WHERE doc_id = ? AND sha256 = ?", (doc_id, parsed.sha256)
            ).fetchone()
        findings = screen_document(parsed)
        if findings and not released:
            return "quarantined", findings[0].reason()
        if not findings and row is not None and row[0] == "quarantined" and row[1].startswith(DETECTOR_PREFIX):
            return "active", ""  # the content that was flagged is gone
        return None

    def stored_chunk_ids(self) -> dict[str, list[str]]:
        """Chunk ids as each store holds them, sorted, duplicates kept: ``manifest``, ``vectors``, ``bm25``.

        After any commit or recovery the three lists are equal (the crash-safety
        invariant, checked by the tests).
        """
        with self._db() as db:
            manifest = sorted(r[0] for r in db.execute("SELECT chunk_id FROM chunks"))
        with self._bm25_lock:
            self._load_bm25()
            bm25 = sorted(self._bm25_ids)
        return {"manifest": manifest, "vectors": sorted(self._vector_ids()), "bm25": bm25}

    # --- vector store ---------------------------------------------------------

    def _vectors(self):
        if self._vector_store is None:
            from llama_index.vector_stores.lancedb import LanceDBVectorStore

            # mode="create": never overwrite an existing table on open.
            self._vector_store = LanceDBVectorStore(
                uri=str(self.dir / "lance"), table_name=_LANCE_TABLE, mode="create"
            )
        return self._vector_store

    def _table(self):
        """The LanceDB table, or ``None`` before the first vectors are written."""
        return self._vectors()._table  # noqa: SLF001 - no public "has table" accessor

    def _vector_ids(self) -> list[str]:
        table = self._table()
        if table is None:
            return []
        # lancedb's own scan (no limit = every row), not ``table.to_lance()``: that needs
        # the separate ``pylance`` package (215 MB in the installer) for a plain read.
        return table.search().select(["id"]).limit(None).to_arrow().column("id").to_pylist()

    def _read_vectors(self, doc_id: str) -> dict[str, list[float]]:
        """Stored vectors of one document: chunk id → vector."""
        table = self._table()
        if table is None:
            return {}
        rows = (
            table.search().where(f"doc_id = {_sql_str(doc_id)}").select(["id", "vector"]).limit(None).to_arrow()
        )
        return dict(zip(rows.column("id").to_pylist(), rows.column("vector").to_pylist()))

    def _delete_vectors(self, doc_ids: Iterable[str]) -> None:
        table = self._table()
        ids = sorted(set(doc_ids))
        # LanceDBVectorStore.delete() quotes the value with double quotes, which
        # Lance SQL reads as an identifier; delete through its table instead.
        if table is not None:
            for i in range(0, len(ids), 200):
                table.delete("doc_id IN (" + ",".join(_sql_str(d) for d in ids[i : i + 200]) + ")")

    def _add_vectors(self, chunks: list[Chunk], vectors: list[list[float]]) -> None:
        from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

        nodes = []
        for chunk, vec in zip(chunks, vectors, strict=True):
            node = TextNode(
                id_=chunk.chunk_id,
                text=chunk.text,
                metadata={"doc_id": chunk.doc_id, "page": chunk.page},
                embedding=vec,
            )
            node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=chunk.doc_id)
            nodes.append(node)
        self._vectors().add(nodes)

    def dense_search(self, query: str, k: int, exclude_docs: set[str],
                     only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids nearest to ``query`` by cosine similarity, best first.

        ``exclude_docs`` are filtered inside the LanceDB query (pre-filter), so
        they cannot take places in the top ``k``; ``only_docs``, when given (the
        question's document scope), restricts the search to those documents the
        same way. An empty ``only_docs`` set finds nothing.
        """
        from llama_index.core.vector_stores.types import VectorStoreQuery

        store = self._vectors()
        if store._table is None:  # noqa: SLF001
            return []
        vec = get_embedder().get_query_embedding(query)
        clauses = []
        if exclude_docs:
            clauses.append("doc_id NOT IN (" + ",".join(_sql_str(d) for d in sorted(exclude_docs)) + ")")
        if only_docs is not None:
            if not only_docs:
                return []
            clauses.append("doc_id IN (" + ",".join(_sql_str(d) for d in sorted(only_docs)) + ")")
        where = " AND ".join(clauses) or None
        try:
            result = store.query(VectorStoreQuery(query_embedding=vec, similarity_top_k=k), where=where)
        except Warning:  # the wrapper raises Warning("query results are empty..")
            return []
        return list(result.ids or [])

    # --- BM25 -----------------------------------------------------------------

    def _load_bm25(self) -> None:
        import bm25s

        if self._bm25 is not None:
            return
        for _attempt in range(3):  # another process may sweep the folder between the read and the load
            with self._db() as db:
                name = self._meta(db).get("bm25_dir", "")
            path = self.dir / name
            if not name or not (path / "ids.json").exists():
                self._bm25_ids = []
                return
            try:
                ids = json.loads((path / "ids.json").read_text(encoding="utf-8"))
                # an empty workspace has only ids.json: bm25s cannot index nothing
                self._bm25 = bm25s.BM25.load(str(path)) if ids else None
            except FileNotFoundError:
                continue
            self._bm25_ids = ids
            return

    def rebuild_bm25(self) -> None:
        """Rebuild the BM25 index from the manifest's chunks into a new folder, then record it.

        Readers keep the folder named in ``meta`` until the new one is recorded;
        older folders are deleted afterwards.
        """
        import bm25s

        with self._db() as db:
            generation = int(self._meta(db).get("generation", "0"))
            # BM25 indexes the context line (title, heading path) with the chunk text
            rows = db.execute(
                "SELECT c.chunk_id, COALESCE(m.context || char(10), '') || c.text, c.lang FROM chunks c "
                "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id ORDER BY c.doc_id, c.ord"
            ).fetchall()
        name = f"bm25-{generation}-{uuid.uuid4().hex[:8]}"
        final = self.dir / name
        tmp = self.dir / f"{name}.tmp"
        if rows:
            retriever = bm25s.BM25()
            corpus_tokens = [tokenize(text, lang) or ["\u2205"] for _, text, lang in rows]
            retriever.index(corpus_tokens, show_progress=False)
            retriever.save(str(tmp))
        else:
            tmp.mkdir(parents=True)
        (tmp / "ids.json").write_text(json.dumps([r[0] for r in rows]), encoding="utf-8")
        os.replace(tmp, final)
        _crash_point("bm25_written")
        with self._bm25_lock:
            with self._db() as db:
                self._set_meta(db, bm25_dir=name, bm25_generation=generation)
            self._bm25 = None
            self._bm25_ids = []
        _crash_point("bm25_recorded")
        self._sweep_bm25(keep=name)

    def _sweep_bm25(self, keep: str) -> None:
        for path in self.dir.iterdir():
            if (path.name == "bm25" or path.name.startswith(("bm25-", "bm25.")) ) and path.name != keep:
                shutil.rmtree(path, ignore_errors=True)

    def bm25_search(self, query: str, k: int, exclude_docs: set[str],
                    only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids ranked by BM25 for ``query``, best first (zero-score hits dropped).

        Excluded documents — and, when ``only_docs`` is given (the question's
        document scope), every document outside it — get weight 0 through bm25s'
        ``weight_mask`` before ranking (pre-filter).
        """
        with self._bm25_lock:
            self._load_bm25()
            retriever, ids = self._bm25, list(self._bm25_ids)
        if retriever is None or not ids:
            return []
        tokens = [t for t in tokenize_query(query) if t in retriever.vocab_dict]
        if not tokens:
            return []
        mask = None
        if only_docs is not None and not only_docs:
            return []
        if exclude_docs or only_docs is not None:
            mask = np.array([
                0.0 if (doc := cid.split("#", 1)[0]) in exclude_docs or (only_docs is not None and doc not in only_docs)
                else 1.0 for cid in ids
            ])
        docs, scores = retriever.retrieve(
            [tokens], k=min(k, len(ids)), show_progress=False, weight_mask=mask, n_threads=1
        )
        return [ids[int(d)] for d, s in zip(docs[0], scores[0]) if s > 0]

    def document_frequencies(self, tokens: list[str]) -> tuple[dict[str, int], int]:
        """How many chunks of the BM25 index contain each of ``tokens`` (BM25 tokens, see
        :func:`core.textproc.tokenize`), and the number of chunks indexed.

        Read from bm25s' sparse score matrix (one column per vocabulary token: its
        non-zero entries are the chunks that contain it). Tokens not in the
        vocabulary count 0. ``({}, 0)`` for an empty workspace.
        """
        with self._bm25_lock:
            self._load_bm25()
            retriever, n = self._bm25, len(self._bm25_ids)
        if retriever is None or not n:
            return {}, 0
        indptr = retriever.scores["indptr"]
        vocab = retriever.vocab_dict
        return {t: int(indptr[vocab[t] + 1] - indptr[vocab[t]]) if t in vocab else 0 for t in tokens}, n

    # --- commit and recovery --------------------------------------------------

    @contextmanager
    def _writer(self, wait_s: float = 0) -> Generator[None, None, None]:
        """Hold the inter-process writer lock, or raise if another process holds it after ``wait_s`` seconds."""
        try:
            self._file_lock.acquire(timeout=wait_s)
        except Timeout as exc:
            raise IndexError_(f"workspace '{self.name}' is being indexed by another process") from exc
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
            yield
        finally:
            self._file_lock.release()

    def _recover(self) -> None:
        try:
            with self._writer():
                self._recover_locked()
        except WorkspaceNotFoundError:
            raise
        except IndexError_:
            # Another process is writing: it recovers; readers here see its last
            # commit (retrieval drops ids the manifest does not know).
            log.info("workspace %s: writer active elsewhere, recovery skipped", self.name)

    def _recover_locked(self) -> None:
        """Bring vectors and BM25 back to the manifest's last commit (class docstring, "Recovery")."""
        with self._db() as db:
            meta = self._meta(db)
            n_chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        recorded = int(meta["lance_version"]) if meta.get("lance_version") else None
        table = self._table()
        if table is not None and recorded is None:
            self._vectors()._connection.drop_table(_LANCE_TABLE)  # noqa: SLF001 - vectors never committed
            self._vector_store = None
            table = None
        elif table is not None and table.version != recorded:
            log.warning("workspace %s: vectors at version %s, manifest at %s: restoring",
                        self.name, table.version, recorded)
            try:
                table.restore(recorded)
            except (ValueError, OSError, RuntimeError) as exc:
                log.warning("workspace %s: cannot restore version %s (%s): reconciling by id", self.name, recorded, exc)
                self._reconcile_vectors()
            else:
                with self._db() as db:
                    self._set_meta(db, lance_version=table.version)
        if (table.count_rows() if table is not None else 0) != n_chunks:
            self._reconcile_vectors()
        with self._db() as db:
            meta = self._meta(db)
        bm25_dir = meta.get("bm25_dir", "")
        if meta.get("bm25_generation", "0") != meta.get("generation", "0") or (
            bm25_dir and not (self.dir / bm25_dir / "ids.json").exists()
        ):
            self.rebuild_bm25()
        else:
            self._sweep_bm25(keep=bm25_dir)

    def _reconcile_vectors(self) -> None:
        """Fallback recovery by id: vectors ⊆ manifest, documents without all their vectors dropped."""
        counts = Counter(self._vector_ids())
        with self._db() as db:
            chunk_docs = dict(db.execute("SELECT chunk_id, doc_id FROM chunks").fetchall())
        bad_docs = {doc for cid, doc in chunk_docs.items() if counts.get(cid) != 1}
        stray = [cid for cid in counts if cid not in chunk_docs]
        table = self._table()
        if table is not None:
            self._delete_vectors(bad_docs)
            for i in range(0, len(stray), 200):
                table.delete("id IN (" + ",".join(_sql_str(c) for c in stray[i : i + 200]) + ")")
        with self._db() as db:
            for doc in bad_docs:  # the next run sees them as new and re-embeds them
                self._delete_document_rows(db, doc)
            generation = int(self._meta(db).get("generation", "0")) + 1
            self._set_meta(db, generation=generation, lance_version=table.version if table is not None else "")
        log.warning("workspace %s: reconciled vectors by id; %d document(s) will be re-embedded",
                    self.name, len(bad_docs))

    def _commit(self, writes: list[_DocWrite], removals: list[str]) -> None:
        """Commit one batch atomically: vectors first, then the manifest in one transaction."""
        if not writes and not removals:
            return
        try:
            self._commit_unsafe(writes, removals)
        except BaseException:
            # Whatever failed, put vectors back to the last commit before anything reads them.
            try:
                self._recover_locked()
            except Exception:  # noqa: BLE001 - the original error is the one to report
                log.exception("workspace %s: recovery after a failed commit failed", self.name)
            raise

    def _commit_unsafe(self, writes: list[_DocWrite], removals: list[str]) -> None:
        replaced = [w.doc_id for w in writes] + [w.renamed_from for w in writes if w.renamed_from]
        self._delete_vectors(replaced + removals)
        _crash_point("after_delete")
        chunks = [c for w in writes for c in w.chunks]
        vectors = [v for w in writes for v in w.vectors]
        if chunks:
            self._add_vectors(chunks, vectors)
        _crash_point("after_vectors")
        table = self._table()
        with self._db() as db:
            for doc_id in removals:
                self._delete_document_rows(db, doc_id)
            for w in writes:
                if w.renamed_from:
                    self._move_document_rows(db, w)
                else:
                    self._delete_document_rows(db, w.doc_id, keep_document=True)
                    self._insert_document_rows(db, w)
                db.execute("DELETE FROM failures WHERE path = ?", (str(w.path),))
            meta = self._meta(db)
            self._set_meta(
                db,
                generation=int(meta.get("generation", "0")) + 1,
                lance_version=table.version if table is not None else "",
                lance_writes=int(meta.get("lance_writes", "0")) + 1,
            )
        _crash_point("after_manifest")

    # Manifest rows of one document, inside the commit's transaction. Tables other
    # modules add that are keyed by ``chunk_id`` (per-chunk data) or ``doc_id`` are
    # found through the schema, so deletes and moves keep them in step.

    @staticmethod
    def _tables_with(db: sqlite3.Connection, column: str) -> list[str]:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [t for t in tables if t not in {"chunks", "documents"}
                and column in {r[1] for r in db.execute(f'PRAGMA table_info("{t}")')}]

    def _delete_document_rows(self, db: sqlite3.Connection, doc_id: str, keep_document: bool = False) -> None:
        """Delete a document's chunks (and per-chunk rows); its ``documents`` row too unless ``keep_document``."""
        for t in self._tables_with(db, "chunk_id"):
            db.execute(f'DELETE FROM "{t}" WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)', (doc_id,))
        db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
        if not keep_document:
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM releases WHERE doc_id = ?", (doc_id,))

    def _insert_document_rows(self, db: sqlite3.Connection, w: _DocWrite) -> None:
        """Insert a re-indexed document and its chunks (its status survives re-indexing)."""
        db.execute(
            "INSERT OR REPLACE INTO documents "
            "(doc_id, path, folder, size, mtime, sha256, kind, lang, pages, status, indexed_at, status_reason) "
            "VALUES (?,?,?,?,?,?,?,?,?, COALESCE((SELECT status FROM documents WHERE doc_id = ?), 'active'), ?, "
            "COALESCE((SELECT status_reason FROM documents WHERE doc_id = ?), ''))",
            (w.doc_id, str(w.path), str(w.root), w.size, w.mtime, w.sha256, w.kind, w.lang, w.pages,
             w.doc_id, time.time(), w.doc_id),
        )
        # Screened before the commit and stored in the same transaction as the document,
        # so hostile content is never active, not even for a moment.
        db.execute("DELETE FROM releases WHERE doc_id = ? AND sha256 != ?", (w.doc_id, w.sha256))
        if w.screened is not None:
            db.execute("UPDATE documents SET status = ?, status_reason = ? WHERE doc_id = ?", (*w.screened, w.doc_id))
        db.executemany(
            'INSERT INTO chunks (chunk_id, doc_id, page, start, "end", text, lang, modality, ord) '
            "VALUES (?,?,?,?,?,?,?,?,?)",
            [(c.chunk_id, c.doc_id, c.page, c.start, c.end, c.text, c.lang, c.modality, n)
             for n, c in enumerate(w.chunks)],
        )
        db.executemany(
            "INSERT OR REPLACE INTO chunk_meta (chunk_id, context, page_label, location, ocr_confidence) "
            "VALUES (?,?,?,?,?)",
            [(c.chunk_id, c.context, c.page_label, c.location, c.ocr_confidence) for c in w.chunks],
        )

    def _move_document_rows(self, db: sqlite3.Connection, w: _DocWrite) -> None:
        """Re-key a moved document (same bytes): every column kept, ids ``old#…`` become ``new#…``."""
        old, new, cut = w.renamed_from, w.doc_id, len(w.renamed_from) + 1
        for t in self._tables_with(db, "chunk_id"):
            db.execute(
                f'UPDATE "{t}" SET chunk_id = ? || substr(chunk_id, ?) '
                "WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)", (new, cut, old),
            )
        for t in self._tables_with(db, "doc_id"):
            db.execute(f'UPDATE "{t}" SET doc_id = ? WHERE doc_id = ?', (new, old))
        db.execute("UPDATE chunks SET doc_id = ?, chunk_id = ? || substr(chunk_id, ?) WHERE doc_id = ?",
                   (new, new, cut, old))
        db.execute(
            "UPDATE documents SET doc_id=?, path=?, folder=?, size=?, mtime=?, indexed_at=? WHERE doc_id=?",
            (new, str(w.path), str(w.root), w.size, w.mtime, time.time(), old),
        )

    def _maybe_optimize(self) -> None:
        """Compact LanceDB every :data:`OPTIMIZE_EVERY_WRITES` commits, then record the new version."""
        table = self._table()
        with self._db() as db:
            writes = int(self._meta(db).get("lance_writes", "0"))
        if table is None or writes < OPTIMIZE_EVERY_WRITES:
            return
        try:
            table.optimize()  # versions older than 7 days are cleaned; the recorded one is newer
        except Exception:  # noqa: BLE001 - compaction is an optimisation, never a reason to fail a run
            log.exception("workspace %s: LanceDB optimize failed", self.name)
            return
        _crash_point("after_optimize")
        with self._db() as db:
            self._set_meta(db, lance_version=table.version, lance_writes=0)

    # --- indexing -------------------------------------------------------------

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
        t0 = time.perf_counter()
        cancel = cancel or (lambda: False)
        roots = [Path(f).expanduser().resolve() for f in folders]
        for root in roots:
            if not root.is_dir():
                raise IndexError_(f"{root}: not a folder")
        report = IndexReport(workspace=self.name, folders=[str(r) for r in roots])
        commit_chunks = self.settings.index_commit_chunks
        # Waits a little: another process opening the workspace holds the lock while it recovers.
        with self._write_lock, self._writer(wait_s=30):
            self._recover_locked()
            with self._db() as db:
                db.executemany("INSERT OR IGNORE INTO folders VALUES (?)", [(str(r),) for r in roots])
            yield ProgressEvent(stage="scan", message="Scanning folders")
            files: list[tuple[Path, str, Path]] = []
            for root in roots:
                for path in iter_files(root):
                    files.append((path, f"{root.name}/{path.relative_to(root).as_posix()}", root))
            with self._db() as db:
                known = {
                    r[0]: r[1:]
                    for r in db.execute("SELECT doc_id, size, mtime, sha256, folder FROM documents")
                }
            on_disk = {doc_id for _, doc_id, _ in files}
            root_names = {str(r) for r in roots}
            gone = {d: v for d, v in known.items() if d not in on_disk and v[3] in root_names}
            gone_by_sha = {v[2]: d for d, v in gone.items()}
            gone_sizes = {v[0] for v in gone.values()}
            writes: list[_DocWrite] = []
            pending_chunks = 0
            try:
                for i, (path, doc_id, root) in enumerate(files):
                    if cancel():
                        raise Cancelled()
                    yield ProgressEvent(stage="index", done=i, total=len(files), message=str(path.name))
                    try:
                        st = path.stat()
                    except OSError as exc:
                        report.failures.append(FileError(path=str(path), reason=f"cannot read ({exc.strerror})"))
                        continue
                    prev = known.get(doc_id)
                    if prev and prev[0] == st.st_size and prev[1] == st.st_mtime:
                        report.unchanged += 1
                        self._clear_failure(path)
                        continue
                    if prev is None and st.st_size in gone_sizes:
                        moved = self._moved_document(path, doc_id, root, st, gone_by_sha)
                        if moved is not None:
                            gone.pop(moved.renamed_from, None)
                            writes.append(moved)
                            report.renamed += 1
                            continue
                    try:
                        parsed = parse_file(path)
                    except IngestError as exc:
                        report.failures.append(FileError(path=str(path), reason=exc.reason, page=exc.page))
                        self._record_failure(path, root, exc)
                        continue
                    # pages that could not be read (e.g. scanned, no OCR) while the rest indexes
                    report.failures += [FileError(path=str(path), reason=r, page=pg) for pg, r in parsed.warnings]
                    if prev and prev[2] == parsed.sha256:
                        with self._db() as db:
                            db.execute(
                                "UPDATE documents SET size=?, mtime=? WHERE doc_id=?", (st.st_size, st.st_mtime, doc_id)
                            )
                        report.unchanged += 1
                        self._clear_failure(path)
                        continue
                    lang = detect_language(" ".join(p.text for p in parsed.pages[:5]))
                    chunks = chunk_pages(
                        doc_id, str(path), parsed.pages,
                        chunk_tokens=self.settings.chunk_tokens, overlap_tokens=self.settings.chunk_overlap_tokens,
                        lang=lang, title=parsed.title,
                    )
                    if writes and pending_chunks + len(chunks) > commit_chunks:
                        # A big document starts its own batch: the documents before it are
                        # committed now, not after its (possibly long) embedding (tester,
                        # session 3: a run killed inside a 5 MB file had kept nothing).
                        self._commit(writes, [])
                        writes, pending_chunks = [], 0
                    vectors: list[list[float]] = []
                    embedder = get_embedder() if chunks else None
                    for b in range(0, len(chunks), EMBED_BATCH):
                        if cancel():
                            raise Cancelled()
                        batch = chunks[b : b + EMBED_BATCH]
                        vectors += embedder.get_text_embedding_batch([c.embedding_text() for c in batch])
                        yield ProgressEvent(
                            stage="embed", done=i, total=len(files),
                            message=f"{path.name}: {min(b + EMBED_BATCH, len(chunks))}/{len(chunks)} chunks",
                        )
                    writes.append(_DocWrite(
                        doc_id=doc_id, path=path, root=root, size=st.st_size, mtime=st.st_mtime,
                        sha256=parsed.sha256, kind=parsed.kind, lang=lang, pages=len(parsed.pages),
                        chunks=chunks, vectors=vectors, screened=self._screened_status(doc_id, parsed),
                    ))
                    report.documents += 1
                    report.pages += len(parsed.pages)
                    report.chunks += len(chunks)
                    pending_chunks += len(chunks)
                    if pending_chunks >= commit_chunks:
                        self._commit(writes, [])
                        writes, pending_chunks = [], 0
                report.removed = len(gone)
                self._commit(writes, sorted(gone))
                writes = []
            except Cancelled:
                self._commit(writes, [])  # what is embedded is kept; removals wait for a full run
                writes = []
                report.cancelled = True
            finally:
                # No yield here: a generator closed mid-run must still finish this.
                # Uncommitted writes (closed generator, error) are dropped: the next run redoes them.
                with self._db() as db:
                    meta = self._meta(db)
                if meta.get("bm25_generation", "0") != meta.get("generation", "0") or not meta.get("bm25_dir"):
                    self.rebuild_bm25()
                self._maybe_optimize()
        report.total_chunks = self.chunk_count()
        report.seconds = round(time.perf_counter() - t0, 3)
        yield ProgressEvent(stage="done", done=len(files), total=len(files), message="Done")
        return report

    def _moved_document(
        self, path: Path, doc_id: str, root: Path, st: os.stat_result, gone_by_sha: dict[str, str]
    ) -> _DocWrite | None:
        """A new file whose bytes equal a document gone from disk: its chunks and vectors, re-keyed.

        Returns ``None`` when no gone document has the same sha256, or when the
        stored chunks and vectors of that document do not match one to one
        (the file is then indexed normally).
        """
        try:
            sha = file_sha256(path)
        except OSError:
            return None
        old = gone_by_sha.get(sha)
        if old is None:
            return None
        with self._db() as db:
            ids = [r[0] for r in db.execute("SELECT chunk_id FROM chunks WHERE doc_id = ? ORDER BY ord", (old,))]
            row = db.execute("SELECT kind, lang, pages FROM documents WHERE doc_id = ?", (old,)).fetchone()
        prefix = old + "#"
        stored = self._read_vectors(old)
        if row is None or set(stored) != set(ids) or not all(c.startswith(prefix) for c in ids):
            return None
        del gone_by_sha[sha]
        old_chunks = self.get_chunks(ids)
        chunks = [
            c.model_copy(update={"chunk_id": doc_id + c.chunk_id[len(old):], "doc_id": doc_id, "path": str(path)})
            for c in (old_chunks[cid] for cid in ids)
        ]
        return _DocWrite(
            doc_id=doc_id, path=path, root=root, size=st.st_size, mtime=st.st_mtime, sha256=sha,
            kind=row[0], lang=row[1], pages=row[2], chunks=chunks, vectors=[stored[cid] for cid in ids],
            renamed_from=old,
        )

    def _record_failure(self, path: Path, root: Path, exc: IngestError) -> None:
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)", (str(path), str(root), exc.reason, exc.page)
            )

    def _clear_failure(self, path: Path) -> None:
        with self._db() as db:
            db.execute("DELETE FROM failures WHERE path = ?", (str(path),))

    def delete(self) -> None:
        """Remove the workspace's stores from disk."""
        self._vector_store = None
        shutil.rmtree(self.dir, ignore_errors=True)

    @classmethod
    def reset(cls, name: str, settings: Settings | None = None) -> "Workspace":
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
                if path.name == "bm25" or path.name.startswith(("bm25-", "bm25.")):
                    shutil.rmtree(path, ignore_errors=True)
            conn = sqlite3.connect(folder / "manifest.sqlite", timeout=30)
            try:
                with conn:
                    conn.executescript(_SCHEMA)
                    _add_status_columns(conn)
                    for table in ("chunks", "documents", "failures", "meta", "releases"):
                        conn.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
            finally:
                conn.close()
        finally:
            lock.release()
        return cls(name, settings)
