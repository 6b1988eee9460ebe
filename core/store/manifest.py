"""The workspace manifest (SQLite): documents, chunks, failures, folders and ``meta``.

The manifest is the source of truth of a workspace; the BM25 index and the
vectors are derived from it and kept equal to it by the commit protocol
(:mod:`core.store.commit`). This module owns the schema, its additive
migrations, the settings fingerprint and every row read or written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Generator, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import core.chunking
from core.errors import IndexError_, IndexMismatchError
from core.settings import Settings
from core.store.diskerrors import damaged_manifest, disk_nearly_full
from core.store.embedding import embedding_model_id, embedding_vector_family
from core.types import Chunk, FileError, Segment

if TYPE_CHECKING:
    from core.store.writes import DocumentWrite

#: Version of the on-disk layout and commit protocol. 2: versioned ``bm25-<gen>``
#: folders, LanceDB version and settings fingerprint recorded in ``meta``.
INDEX_SCHEMA_VERSION = 2

DocStatus = Literal["active", "superseded", "quarantined"]
DOC_STATUSES: tuple[str, ...] = ("active", "superseded", "quarantined")

SCHEMA = """
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
CREATE TABLE IF NOT EXISTS doc_changes (doc_id TEXT NOT NULL, generation INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS doc_changes_generation ON doc_changes(generation);
CREATE TABLE IF NOT EXISTS chunk_segments (chunk_id TEXT PRIMARY KEY, segments TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS partial_documents (
    doc_id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, committed INTEGER NOT NULL, total INTEGER NOT NULL
);
"""
# partial_documents: a document committed in parts (core.store.writes.DocumentWrite, "Parts") whose last
# part is not committed yet: the content hash its committed chunks come from, how many are committed
# (its chunks with ord < committed) and its chunk count. Keyed by doc_id, so it goes and moves with its
# document (tables_with); written in the transaction of each part, removed with the last.

#: The document profiles' table (:mod:`core.store.profiles` reads and writes it; created here with the
#: rest of the schema, so the manifest needs nothing above it).
PROFILES_SCHEMA = "CREATE TABLE IF NOT EXISTS doc_profiles (doc_id TEXT PRIMARY KEY, profile TEXT NOT NULL)"
# chunk_segments: the page-text segments of a chunk made of more than one (a page break crossed,
# a running header left out), as JSON [[page, start, end, page label], ...] (older rows: no label); single-segment chunks have no row.

#: Tables the commit writes itself (``doc_changes``: which documents each generation changed,
#: read by the BM25 update; a log, so never deleted or re-keyed with a document).
_CORE_TABLES = frozenset({"chunks", "documents", "doc_changes"})


def index_fingerprint(settings: Settings) -> dict[str, object]:
    """What an index's chunks and vectors depend on; an index opens only under an equal one.

    Keys: ``schema_version`` (:data:`INDEX_SCHEMA_VERSION`), ``embedding_model``
    (:func:`embedding_model_id`), ``embedding_vectors`` (only for a backend whose vectors are not of
    the ``"float"`` family, :func:`core.store.embedding.embedding_vector_family`), ``chunker_version`` (``core.chunking.CHUNKER_VERSION``
    when the chunker defines one) and ``chunking.<field>`` for every settings
    field named ``chunk*`` (sizes and overlap, whatever unit they use).
    """
    fp: dict[str, object] = {"schema_version": INDEX_SCHEMA_VERSION, "embedding_model": embedding_model_id()}
    family = embedding_vector_family()
    if family != "float":  # vectors incompatible with the float32 reference's (core.embedding)
        fp["embedding_vectors"] = family
    chunker_version = getattr(core.chunking, "CHUNKER_VERSION", None)
    if chunker_version is not None:
        fp["chunker_version"] = chunker_version
    for key, value in sorted(settings.model_dump().items()):
        if key.startswith("chunk"):
            fp[f"chunking.{key}"] = value
    return fp


def migrate(db: sqlite3.Connection) -> None:
    """Create the schema and apply the additive migrations (idempotent).

    ``documents.status_reason`` and the ``releases`` table: ``releases``
    remembers, per document, the content hash the user released from
    quarantine, so the release survives re-indexing of unchanged content.
    """
    db.executescript(SCHEMA)
    cols = {r[1] for r in db.execute("PRAGMA table_info(documents)")}
    if "status_reason" not in cols:
        db.execute("ALTER TABLE documents ADD COLUMN status_reason TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE TABLE IF NOT EXISTS releases (doc_id TEXT PRIMARY KEY, sha256 TEXT NOT NULL)")
    db.execute(PROFILES_SCHEMA)  # document profiles (core.store.profiles), written by each commit
    from core.store.docids import ensure_label_column

    try:
        ensure_label_column(db)  # folders.label: the first part of every document id
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc):
            raise  # a read-only manifest of before labels: readers need no label, writers cannot write


def get_meta(db: sqlite3.Connection) -> dict[str, str]:
    """Every ``meta`` key and value (strings)."""
    return dict(db.execute("SELECT key, value FROM meta").fetchall())


def set_meta(db: sqlite3.Connection, **values: object) -> None:
    """Write ``meta`` keys (values stored as ``str``), inside the caller's transaction."""
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])


def bump_status_generation(db: sqlite3.Connection) -> None:
    """Record that some document's status changed (readers drop their cached eligibility sets)."""
    db.execute("INSERT INTO meta VALUES ('status_generation', '1') "
               "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")


def tables_with(db: sqlite3.Connection, column: str) -> list[str]:
    """Tables other than ``chunks``/``documents`` that have ``column`` (``chunk_id`` or ``doc_id``).

    Tables other modules add to the manifest, keyed by ``chunk_id`` (per-chunk
    data) or ``doc_id`` (per-document data, e.g. a document profile), are found
    through the schema, so deletes and moves keep them in step with no
    registration.
    """
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [t for t in tables if t not in _CORE_TABLES
            and column in {r[1] for r in db.execute(f'PRAGMA table_info("{t}")')}]


class Manifest:
    """A workspace's ``manifest.sqlite``: connections, the fingerprint check, row reads and writes.

    Args:
        path: the SQLite file.
        name: the workspace's name (for error messages).
        create: open with ``mode=rwc`` (create a missing file); False opens
            ``mode=rw``, so a workspace deleted under a reader is never re-created.
    """

    def __init__(self, path: Path, name: str, create: bool) -> None:
        self.path = path
        self.name = name
        self.create = create

    @contextmanager
    def connect(self) -> Generator[sqlite3.Connection, None, None]:
        """A connection inside one transaction (committed on exit, rolled back on error).

        Raises:
            IndexError_: the file cannot be opened.
        """
        try:
            mode = "rwc" if self.create else "rw"
            conn = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode={mode}", uri=True, timeout=30)
        except sqlite3.Error as exc:
            raise IndexError_(f"{self.path}: cannot open the manifest ({exc})") from exc
        try:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError:
                if self.path.exists() and (not os.access(self.path.parent, os.W_OK)
                                           or disk_nearly_full(self.path.parent)):
                    # A read-only data folder or a full disk: SQLite cannot make the WAL's shared-memory
                    # file, so readers read the file as immutable (nobody can write it meanwhile) and
                    # answer from the last commit; a writer's first write fails with SQLITE_READONLY,
                    # said in words (core.store.diskerrors tells a full disk from a read-only folder).
                    conn.close()
                    conn = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro&immutable=1", uri=True)
                else:
                    raise
            with conn:
                yield conn
        except sqlite3.DatabaseError as exc:
            damaged = damaged_manifest(self.name, str(self.path), exc)
            if damaged is not None:
                raise damaged from exc
            raise
        finally:
            conn.close()

    def meta(self) -> dict[str, str]:
        """The ``meta`` table, read in its own transaction."""
        with self.connect() as db:
            return get_meta(db)

    # --- fingerprint ----------------------------------------------------------

    def check_fingerprint(self, settings: Settings, on_reset_vectors) -> None:
        """Create/migrate the schema and compare the stored fingerprint with ``settings``'.

        An empty workspace (no document) takes the new fingerprint; its vector
        table is dropped through ``on_reset_vectors()`` (its width belongs to the
        old model).

        Two openers of a new workspace (the window's reader and indexer threads, or
        the window and the CLI) race on creating the schema: SQLite answers
        "database is locked" (switching to WAL, upgrading a read transaction) or
        "duplicate column" (both migrate). Those are transient; the schema
        statements are idempotent, so the check is retried. Measured before: 12 of
        30 concurrent creations failed.

        Raises:
            IndexMismatchError: documents were indexed under another fingerprint.
            IndexError_: the manifest is damaged or cannot be opened.
        """
        for attempt in range(40):
            try:
                self._check_fingerprint_once(settings, on_reset_vectors)
                return
            except IndexError_ as exc:
                cause = exc.__cause__
                transient = isinstance(cause, sqlite3.OperationalError) and any(
                    m in str(cause) for m in ("locked", "duplicate column", "already exists", "busy"))
                if not transient or attempt == 39:
                    raise
                time.sleep(0.02 * (attempt + 1))

    def _check_fingerprint_once(self, settings: Settings, on_reset_vectors) -> None:
        current = index_fingerprint(settings)
        try:
            with self.connect() as db:
                migrate(db)
                meta = get_meta(db)
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
                        # No document, so nothing is lost: drop the empty vector table too.
                        on_reset_vectors()
                        db.execute("DELETE FROM meta WHERE key = 'lance_version'")
                    set_meta(db, fingerprint=json.dumps(current, sort_keys=True),
                             schema_version=INDEX_SCHEMA_VERSION)
        except sqlite3.DatabaseError as exc:
            raise damaged_manifest(self.name, str(self.path), exc) or IndexError_(
                f"{self.path}: the manifest cannot be read ({exc})") from exc

    # --- reads ----------------------------------------------------------------

    def folders(self) -> list[str]:
        with self.connect() as db:
            return [r[0] for r in db.execute("SELECT path FROM folders ORDER BY path")]

    def documents(self) -> list[dict]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT d.doc_id, d.path, d.pages, d.status, d.status_reason, d.lang, COUNT(c.chunk_id) "
                "FROM documents d LEFT JOIN chunks c ON c.doc_id = d.doc_id GROUP BY d.doc_id ORDER BY d.doc_id"
            ).fetchall()
        partial = self.partial_documents()
        keys = ("doc_id", "path", "pages", "status", "reason", "lang", "chunks")
        out = []
        for r in rows:
            doc = dict(zip(keys, r))
            state = partial.get(doc["doc_id"])
            doc["chunks_total"] = state[2] if state else None
            if state and not doc["reason"]:
                doc["reason"] = partial_text(state[1], state[2])
            out.append(doc)
        return out

    def partial_documents(self) -> dict[str, tuple[str, int, int]]:
        """Documents committed in part: ``doc_id → (sha256 of the content, chunks committed, chunk count)``.

        ``{}`` for a manifest written before parts existed and opened read-only (no such table).
        """
        try:
            with self.connect() as db:
                rows = db.execute("SELECT doc_id, sha256, committed, total FROM partial_documents").fetchall()
        except sqlite3.OperationalError:
            return {}
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def committed_chunks(self, doc_id: str) -> list[tuple]:
        """``(chunk_id, page, start, end, text, context)`` of a document's committed chunks, in order
        (what a resumed run compares with its own chunks before going on from them)."""
        with self.connect() as db:
            return db.execute(
                'SELECT c.chunk_id, c.page, c.start, c."end", c.text, COALESCE(m.context, \'\') FROM chunks c '
                "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id WHERE c.doc_id = ? ORDER BY c.ord", (doc_id,),
            ).fetchall()

    def failures(self) -> list[FileError]:
        with self.connect() as db:
            rows = db.execute("SELECT path, reason, page FROM failures ORDER BY path").fetchall()
        return [FileError(path=p, reason=r, page=pg) for p, r, pg in rows]

    def chunk_count(self) -> int:
        with self.connect() as db:
            return db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def chunk_ids(self) -> list[str]:
        with self.connect() as db:
            return [r[0] for r in db.execute("SELECT chunk_id FROM chunks")]

    def get_chunks(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]:
        ids = list(dict.fromkeys(chunk_ids))
        out: dict[str, Chunk] = {}
        with self.connect() as db:
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                q = (
                    'SELECT c.chunk_id, c.doc_id, d.path, c.page, c.start, c."end", c.text, c.lang, c.modality, '
                    "COALESCE(m.context, ''), COALESCE(m.page_label, ''), COALESCE(m.location, ''), m.ocr_confidence, "
                    "s.segments "
                    "FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                    "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id "
                    "LEFT JOIN chunk_segments s ON s.chunk_id = c.chunk_id WHERE c.chunk_id IN "
                    f"({','.join('?' * len(part))})"
                )
                for row in db.execute(q, part):
                    # [page, start, end] or, since page labels per segment, [page, start, end, label]
                    segments = [Segment(page=g[0], start=g[1], end=g[2], label=g[3] if len(g) > 3 else "")
                                for g in json.loads(row[13])] if row[13] else []
                    out[row[0]] = Chunk(
                        chunk_id=row[0], doc_id=row[1], path=row[2], page=row[3], start=row[4], end=row[5],
                        text=row[6], lang=row[7], modality=row[8],
                        context=row[9], page_label=row[10], location=row[11], ocr_confidence=row[12],
                        segments=segments,
                    )
        return out

    def document_texts(self, doc_id: str) -> tuple[str, list[str]]:
        """``(lang, texts)``: a document's language and the text of each of its chunks, in order
        (``("", [])`` for an unknown document). Read for the document's date convention
        (:func:`core.dates.date_order`)."""
        with self.connect() as db:
            row = db.execute("SELECT lang FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            texts = [r[0] for r in db.execute("SELECT text FROM chunks WHERE doc_id = ? ORDER BY ord", (doc_id,))]
        return (row[0] if row else ""), texts

    def doc_ids_with_status(self, active: bool) -> set[str]:
        op = "=" if active else "!="
        with self.connect() as db:
            return {r[0] for r in db.execute(f"SELECT doc_id FROM documents WHERE status {op} 'active'")}  # noqa: S608

    def set_status(self, doc_id: str, status: DocStatus, reason: str = "") -> None:
        if status not in DOC_STATUSES:
            raise IndexError_(f"invalid status {status!r} (expected one of {', '.join(DOC_STATUSES)})")
        with self.connect() as db:
            row = db.execute("SELECT status, sha256 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            if row is None:
                raise IndexError_(f"workspace {self.name!r} has no document {doc_id!r}")
            db.execute("UPDATE documents SET status = ?, status_reason = ? WHERE doc_id = ?", (status, reason, doc_id))
            bump_status_generation(db)
            if status == "active" and row[0] == "quarantined":
                db.execute("INSERT OR REPLACE INTO releases VALUES (?, ?)", (doc_id, row[1]))
            elif status == "quarantined":
                db.execute("DELETE FROM releases WHERE doc_id = ?", (doc_id,))

    def status_and_release(self, doc_id: str, sha256: str) -> tuple[tuple[str, str] | None, bool]:
        """``((status, reason) or None, released)`` of a document for content ``sha256``."""
        with self.connect() as db:
            row = db.execute("SELECT status, status_reason FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            released = db.execute(
                "SELECT 1 FROM releases WHERE doc_id = ? AND sha256 = ?", (doc_id, sha256)
            ).fetchone()
        return row, released is not None

    def record_failure(self, path: Path, root: Path, reason: str, page: int | None) -> None:
        with self.connect() as db:
            db.execute("INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)", (str(path), str(root), reason, page))

    def clear_failure(self, path: Path) -> None:
        with self.connect() as db:
            db.execute("DELETE FROM failures WHERE path = ?", (str(path),))

    # --- row writes (inside the commit's transaction) ---------------------------

    @staticmethod
    def delete_document_rows(db: sqlite3.Connection, doc_id: str, keep_document: bool = False) -> None:
        """Delete a document's chunks (and per-chunk rows); its ``documents`` row too unless ``keep_document``.

        Per-document rows of other tables (:func:`tables_with` ``doc_id``) go with
        the document.
        """
        for t in tables_with(db, "chunk_id"):
            db.execute(f'DELETE FROM "{t}" WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)', (doc_id,))
        db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
        if not keep_document:
            for t in tables_with(db, "doc_id"):
                db.execute(f'DELETE FROM "{t}" WHERE doc_id = ?', (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))

    @staticmethod
    def insert_document_rows(db: sqlite3.Connection, w: DocumentWrite) -> None:
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
        Manifest.insert_chunk_rows(db, w)

    @staticmethod
    def append_document_rows(db: sqlite3.Connection, w: DocumentWrite) -> None:
        """A later part of a document committed in parts (``w.first > 0``): its chunks are added to the ones
        committed before; the document's row takes the file's size, mtime and place as this run found them."""
        db.execute("UPDATE documents SET path=?, folder=?, size=?, mtime=?, indexed_at=? WHERE doc_id=?",
                   (str(w.path), str(w.root), w.size, w.mtime, time.time(), w.doc_id))
        if w.screened is not None:
            db.execute("UPDATE documents SET status = ?, status_reason = ? WHERE doc_id = ?", (*w.screened, w.doc_id))
        Manifest.insert_chunk_rows(db, w)

    @staticmethod
    def record_parts(db: sqlite3.Connection, w: DocumentWrite) -> None:
        """The document's partial state after ``w`` (``partial_documents``): removed once it is whole."""
        if w.completes:
            db.execute("DELETE FROM partial_documents WHERE doc_id = ?", (w.doc_id,))
        else:
            db.execute("INSERT OR REPLACE INTO partial_documents VALUES (?, ?, ?, ?)",
                       (w.doc_id, w.sha256, w.first + len(w.chunks), w.total))

    @staticmethod
    def insert_chunk_rows(db: sqlite3.Connection, w: DocumentWrite) -> None:
        """Insert ``w``'s chunks and their per-chunk rows (``ord`` counted from ``w.first``)."""
        db.executemany(
            'INSERT INTO chunks (chunk_id, doc_id, page, start, "end", text, lang, modality, ord) '
            "VALUES (?,?,?,?,?,?,?,?,?)",
            [(c.chunk_id, c.doc_id, c.page, c.start, c.end, c.text, c.lang, c.modality, w.first + n)
             for n, c in enumerate(w.chunks)],
        )
        db.executemany(
            "INSERT OR REPLACE INTO chunk_meta (chunk_id, context, page_label, location, ocr_confidence) "
            "VALUES (?,?,?,?,?)",
            [(c.chunk_id, c.context, c.page_label, c.location, c.ocr_confidence) for c in w.chunks],
        )
        db.executemany(
            "INSERT OR REPLACE INTO chunk_segments (chunk_id, segments) VALUES (?,?)",
            [(c.chunk_id, json.dumps([[sg.page, sg.start, sg.end, sg.label] for sg in c.segments]))
             for c in w.chunks if c.segments],
        )

    @staticmethod
    def move_document_rows(db: sqlite3.Connection, w: DocumentWrite) -> None:
        """Re-key a moved document (same bytes): every column kept, ids ``old#…`` become ``new#…``."""
        old, new, cut = w.renamed_from, w.doc_id, len(w.renamed_from) + 1
        for t in tables_with(db, "chunk_id"):
            db.execute(
                f'UPDATE "{t}" SET chunk_id = ? || substr(chunk_id, ?) '
                "WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)", (new, cut, old),
            )
        for t in tables_with(db, "doc_id"):
            db.execute(f'UPDATE "{t}" SET doc_id = ? WHERE doc_id = ?', (new, old))
        db.execute("UPDATE chunks SET doc_id = ?, chunk_id = ? || substr(chunk_id, ?) WHERE doc_id = ?",
                   (new, new, cut, old))
        db.execute(
            "UPDATE documents SET doc_id=?, path=?, folder=?, size=?, mtime=?, indexed_at=? WHERE doc_id=?",
            (new, str(w.path), str(w.root), w.size, w.mtime, time.time(), old),
        )


def partial_text(committed: int, total: int) -> str:
    """How a partially indexed document is described (the index report, ``documents()``'s ``reason``)."""
    return f"partially indexed: {committed} of {total} chunks"  # short: the window shows it beside the status


def reset_manifest(path: Path) -> None:
    """Empty a manifest's documents, chunks, failures, meta and releases; keep its folders."""
    conn = sqlite3.connect(path, timeout=30)
    try:
        with conn:
            migrate(conn)
            tables = {"chunks", "documents", "failures", "meta", "releases", "doc_changes"}
            tables |= set(tables_with(conn, "chunk_id")) | set(tables_with(conn, "doc_id"))
            for table in sorted(tables):
                conn.execute(f'DELETE FROM "{table}"')  # noqa: S608 - names from the schema
    finally:
        conn.close()

