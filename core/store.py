"""A workspace's on-disk index: SQLite manifest, bm25s keyword index, LanceDB vectors.

Layout of ``<data>/workspaces/<name>/``::

    manifest.sqlite   documents (path, size, mtime, sha256, status), chunks (text and
                      page offsets), failures, folders — the source of truth
    bm25/             bm25s index over every chunk, rebuilt (from the manifest, no
                      embedding work) whenever a document changes; written to a
                      temporary folder then swapped in
    lance/            LanceDB table of chunk embeddings, through llama-index's
                      LanceDBVectorStore; rows carry ``doc_id`` for deletes and
                      pre-filtering

Workspaces never share a store: each has its own folder.

Why LanceDB: embedded, on disk, opens lazily (no full load into RAM, unlike
llama-index's JSON SimpleVectorStore: 229 s and 5.2 GB at 100k chunks, DESIGN.md),
supports SQL ``where`` pre-filters and deletes.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Generator, Iterable
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from core.chunking import chunk_pages
from core.errors import Cancelled, IndexError_, IngestError
from core.ingest import iter_files, parse_file
from core.paths import data_dir, embedding_model_dir
from core.settings import Settings
from core.textproc import detect_language, tokenize, tokenize_query
from core.types import Chunk, FileError, IndexReport, ProgressEvent

INDEX_SCHEMA_VERSION = 1
EMBED_BATCH = 32

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


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def workspaces_root() -> Path:
    """Folder holding one sub-folder per workspace."""
    root = data_dir() / "workspaces"
    root.mkdir(parents=True, exist_ok=True)
    return root


def list_workspaces() -> list[str]:
    """Names of the workspaces that exist on disk, sorted."""
    return sorted(p.name for p in workspaces_root().iterdir() if (p / "manifest.sqlite").exists())


class Workspace:
    """One workspace's index. Safe to use from one writer thread and many reader threads.

    Args:
        name: workspace name (letters, digits, ``-``, ``_``, ``.``; becomes a folder name).
        settings: pipeline settings (chunking, retrieval sizes).

    Raises:
        IndexError_: invalid name or an index that cannot be opened.
    """

    def __init__(self, name: str, settings: Settings | None = None) -> None:
        if not name or any(c in name for c in "/\\:") or name in {".", ".."}:
            raise IndexError_(f"invalid workspace name {name!r}")
        self.name = name
        self.settings = settings or Settings()
        self.dir = workspaces_root() / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self._db_path = self.dir / "manifest.sqlite"
        self._bm25 = None
        self._bm25_ids: list[str] = []
        self._bm25_lock = threading.Lock()
        self._vector_store = None
        self._write_lock = threading.Lock()
        with self._db() as db:
            db.executescript(_SCHEMA)
            db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(INDEX_SCHEMA_VERSION),)
            )

    # --- manifest -------------------------------------------------------------

    @contextmanager
    def _db(self) -> Generator[sqlite3.Connection, None, None]:
        try:
            conn = sqlite3.connect(self._db_path, timeout=30)
        except sqlite3.Error as exc:
            raise IndexError_(f"{self._db_path}: cannot open the manifest ({exc})") from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            with conn:
                yield conn
        finally:
            conn.close()

    def folders(self) -> list[str]:
        """Folders this workspace indexes (absolute paths)."""
        with self._db() as db:
            return [r[0] for r in db.execute("SELECT path FROM folders ORDER BY path")]

    def documents(self) -> list[dict]:
        """Indexed documents: ``doc_id, path, pages, status, lang, chunks`` each."""
        with self._db() as db:
            rows = db.execute(
                "SELECT d.doc_id, d.path, d.pages, d.status, d.lang, COUNT(c.chunk_id) "
                "FROM documents d LEFT JOIN chunks c ON c.doc_id = d.doc_id GROUP BY d.doc_id ORDER BY d.doc_id"
            ).fetchall()
        keys = ("doc_id", "path", "pages", "status", "lang", "chunks")
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
                    'SELECT c.chunk_id, c.doc_id, d.path, c.page, c.start, c."end", c.text, c.lang, c.modality '
                    "FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE c.chunk_id IN "
                    f"({','.join('?' * len(part))})"
                )
                for row in db.execute(q, part):
                    out[row[0]] = Chunk(
                        chunk_id=row[0], doc_id=row[1], path=row[2], page=row[3], start=row[4], end=row[5],
                        text=row[6], lang=row[7], modality=row[8],
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

    # --- vector store ---------------------------------------------------------

    def _vectors(self):
        if self._vector_store is None:
            from llama_index.vector_stores.lancedb import LanceDBVectorStore

            # mode="create": never overwrite an existing table on open.
            self._vector_store = LanceDBVectorStore(
                uri=str(self.dir / "lance"), table_name="chunks", mode="create"
            )
        return self._vector_store

    def _delete_vectors(self, doc_id: str) -> None:
        store = self._vectors()
        # LanceDBVectorStore.delete() quotes the value with double quotes, which
        # Lance SQL reads as an identifier; delete through its table instead.
        if store._table is not None:  # noqa: SLF001 - no public "has table" accessor
            store._table.delete(f"doc_id = {_sql_str(doc_id)}")  # noqa: SLF001

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

    def dense_search(self, query: str, k: int, exclude_docs: set[str]) -> list[str]:
        """Chunk ids nearest to ``query`` by cosine similarity, best first.

        ``exclude_docs`` are filtered inside the LanceDB query (pre-filter), so
        they cannot take places in the top ``k``.
        """
        from llama_index.core.vector_stores.types import VectorStoreQuery

        store = self._vectors()
        if store._table is None:  # noqa: SLF001
            return []
        vec = get_embedder().get_query_embedding(query)
        where = None
        if exclude_docs:
            where = "doc_id NOT IN (" + ",".join(_sql_str(d) for d in sorted(exclude_docs)) + ")"
        try:
            result = store.query(VectorStoreQuery(query_embedding=vec, similarity_top_k=k), where=where)
        except Warning:  # the wrapper raises Warning("query results are empty..")
            return []
        return list(result.ids or [])

    # --- BM25 -----------------------------------------------------------------

    def _bm25_dir(self) -> Path:
        return self.dir / "bm25"

    def _load_bm25(self) -> None:
        import bm25s

        path = self._bm25_dir()
        if self._bm25 is None and (path / "ids.json").exists():
            ids = json.loads((path / "ids.json").read_text(encoding="utf-8"))
            if ids:  # an empty workspace has only ids.json: bm25s cannot index nothing
                self._bm25 = bm25s.BM25.load(str(path))
                self._bm25_ids = ids

    def rebuild_bm25(self) -> None:
        """Rebuild the BM25 index from the manifest's chunks; swapped in atomically."""
        import bm25s

        with self._db() as db:
            rows = db.execute("SELECT chunk_id, text, lang FROM chunks ORDER BY doc_id, ord").fetchall()
        final = self._bm25_dir()
        tmp = self.dir / "bm25.tmp"
        old = self.dir / "bm25.old"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
        if rows:
            retriever = bm25s.BM25()
            corpus_tokens = [tokenize(text, lang) or ["\u2205"] for _, text, lang in rows]
            retriever.index(corpus_tokens, show_progress=False)
            retriever.save(str(tmp))
        else:
            tmp.mkdir(parents=True)
        (tmp / "ids.json").write_text(json.dumps([r[0] for r in rows]), encoding="utf-8")
        with self._bm25_lock:
            if final.exists():
                os.replace(final, old)
            os.replace(tmp, final)
            shutil.rmtree(old, ignore_errors=True)
            self._bm25 = None
            self._bm25_ids = []

    def bm25_search(self, query: str, k: int, exclude_docs: set[str]) -> list[str]:
        """Chunk ids ranked by BM25 for ``query``, best first (zero-score hits dropped).

        Excluded documents get weight 0 through bm25s' ``weight_mask`` before
        ranking (pre-filter).
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
        if exclude_docs:
            mask = np.array([0.0 if cid.split("#", 1)[0] in exclude_docs else 1.0 for cid in ids])
        docs, scores = retriever.retrieve(
            [tokens], k=min(k, len(ids)), show_progress=False, weight_mask=mask, n_threads=1
        )
        return [ids[int(d)] for d, s in zip(docs[0], scores[0]) if s > 0]

    # --- indexing -------------------------------------------------------------

    def index(
        self, folders: list[str | Path], cancel: CancelCheck | None = None
    ) -> Generator[ProgressEvent, None, IndexReport]:
        """Index ``folders`` incrementally; a generator of progress returning the report.

        Unchanged files (same size and mtime, or same sha256) are skipped with no
        embedding work; changed files replace exactly their own chunks; files gone
        from disk are removed. A file that fails keeps its previously indexed
        chunks and is listed in ``report.failures`` with the reason.

        Args:
            folders: folders to index recursively (added to the workspace).
            cancel: polled between files and embedding batches; when it returns
                True, work stops after the current file and the report says
                ``cancelled``.

        Raises:
            IndexError_: a folder does not exist.
        """
        t0 = time.perf_counter()
        cancel = cancel or (lambda: False)
        roots = [Path(f).expanduser().resolve() for f in folders]
        for root in roots:
            if not root.is_dir():
                raise IndexError_(f"{root}: not a folder")
        report = IndexReport(workspace=self.name, folders=[str(r) for r in roots])
        with self._write_lock:
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
            changed = False
            seen: set[str] = set()
            try:
                for i, (path, doc_id, root) in enumerate(files):
                    if cancel():
                        raise Cancelled()
                    seen.add(doc_id)
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
                    try:
                        parsed = parse_file(path)
                    except IngestError as exc:
                        report.failures.append(FileError(path=str(path), reason=exc.reason, page=exc.page))
                        self._record_failure(path, root, exc)
                        continue
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
                        chunk_chars=self.settings.chunk_chars, overlap=self.settings.chunk_overlap, lang=lang,
                    )
                    vectors: list[list[float]] = []
                    embedder = get_embedder() if chunks else None
                    for b in range(0, len(chunks), EMBED_BATCH):
                        if cancel():
                            raise Cancelled()
                        batch = chunks[b : b + EMBED_BATCH]
                        vectors += embedder.get_text_embedding_batch([c.text for c in batch])
                        yield ProgressEvent(
                            stage="embed", done=i, total=len(files),
                            message=f"{path.name}: {min(b + EMBED_BATCH, len(chunks))}/{len(chunks)} chunks",
                        )
                    self._replace_document(doc_id, path, root, st, parsed, lang, chunks, vectors)
                    changed = True
                    report.documents += 1
                    report.pages += len(parsed.pages)
                    report.chunks += len(chunks)
                gone = [d for d, v in known.items() if d not in seen and v[3] in {str(r) for r in roots}]
                for doc_id in gone:
                    self._remove_document(doc_id)
                    changed = True
                    report.removed += 1
            except Cancelled:
                report.cancelled = True
            finally:
                # No yield here: a generator closed mid-run must still finish this.
                if changed or not (self._bm25_dir() / "ids.json").exists():
                    self.rebuild_bm25()
        report.total_chunks = self.chunk_count()
        report.seconds = round(time.perf_counter() - t0, 3)
        yield ProgressEvent(stage="done", done=len(files), total=len(files), message="Done")
        return report

    def _record_failure(self, path: Path, root: Path, exc: IngestError) -> None:
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)", (str(path), str(root), exc.reason, exc.page)
            )

    def _clear_failure(self, path: Path) -> None:
        with self._db() as db:
            db.execute("DELETE FROM failures WHERE path = ?", (str(path),))

    def _replace_document(self, doc_id, path, root, st, parsed, lang, chunks, vectors) -> None:
        self._delete_vectors(doc_id)
        if chunks:
            self._add_vectors(chunks, vectors)
        with self._db() as db:
            db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            db.execute(
                "INSERT OR REPLACE INTO documents VALUES (?,?,?,?,?,?,?,?,?, "
                "COALESCE((SELECT status FROM documents WHERE doc_id = ?), 'active'), ?)",
                (doc_id, str(path), str(root), st.st_size, st.st_mtime, parsed.sha256, parsed.kind, lang,
                 len(parsed.pages), doc_id, time.time()),
            )
            db.executemany(
                "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?)",
                [(c.chunk_id, c.doc_id, c.page, c.start, c.end, c.text, c.lang, c.modality, n)
                 for n, c in enumerate(chunks)],
            )
            db.execute("DELETE FROM failures WHERE path = ?", (str(path),))

    def _remove_document(self, doc_id: str) -> None:
        self._delete_vectors(doc_id)
        with self._db() as db:
            db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))

    def delete(self) -> None:
        """Remove the workspace's stores from disk."""
        self._vector_store = None
        shutil.rmtree(self.dir, ignore_errors=True)
