"""A workspace's chunk vectors: one LanceDB table (``lance/chunks.lance``), read at the committed version.

Why LanceDB: embedded, on disk, opens lazily (no full load into RAM, unlike
llama-index's JSON SimpleVectorStore: 229 s and 5.2 GB at 100k chunks, DESIGN.md),
supports SQL ``where`` pre-filters, deletes and ANN indexes, and versions every
write (``table.version`` / ``checkout`` / ``restore``), which the commit
protocol relies on.

Rows: ``id`` (chunk id), ``doc_id`` (deletes and pre-filters), ``vector``
(float32, L2-normalized, so L2 distance ranks as cosine similarity). The table is
used through lancedb's own API rather than llama-index's ``LanceDBVectorStore``
(used before): the wrapper stored each chunk's text twice more (a ``text``
column and the node's JSON), parsed every hit back into a node, and exposes
neither pre-filter nor index settings. Reads go through lancedb's scans, never
``table.to_lance()``, which needs the separate ``pylance`` package (215 MB, left
out of the installer).

**Search** (:meth:`VectorTable.search`): readers query the version the manifest
records (``checkout``), never a newer one an unfinished commit left, so they
see exactly the last commit without any recovery. Exclusions are a ``where``
pre-filter (``prefilter=True``: excluded rows never take places in the top k).
A document scope (1–3 documents, typically) is searched exactly over its own
rows (``bypass_vector_index``), found through the ``doc_id`` scalar index.
Past :data:`ANN_MIN_ROWS` rows the table has an ANN index
(:data:`ANN_INDEX`), kept current by :meth:`VectorTable.maintain`; rows added
since its last update are searched exactly by Lance itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from datetime import timedelta
from pathlib import Path

import numpy as np

from core.types import Chunk

log = logging.getLogger(__name__)

TABLE_NAME = "chunks"
_COLUMNS = ("id", "doc_id", "vector")
#: Rows from which the table gets an ANN index; below it an exact scan is fast enough
#: (bench/scale.py: dense p50 at 10k rows).
ANN_MIN_ROWS = 50_000
#: The index is trained again once the table has grown this much since the last training.
ANN_RETRAIN_GROWTH = 2.0
#: "IVF_HNSW_SQ" or "IVF_PQ", chosen by bench/scale.py (recall@10 against exact, latency).
ANN_INDEX = "IVF_HNSW_SQ"
#: Query-time settings of the ANN index. bench/scale.py --ann at 118k synthetic rows (344
#: partitions): nprobes 20 gave recall@10 0.94 against exact search, 40 gave 0.99 at
#: 12.9 ms p50 (exact scan 435 ms), so 40.
ANN_NPROBES = 40
ANN_REFINE = 4
ANN_EF = 100
#: Rows from which ``doc_id`` gets a scalar (B-tree) index for filters and deletes.
SCALAR_MIN_ROWS = 5_000


def sql_str(value: str) -> str:
    """``value`` as a Lance SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Iterable[str], negate: bool = False) -> str:
    """A Lance SQL ``column [NOT] IN ('a', 'b', …)`` clause."""
    return f"{column} {'NOT IN' if negate else 'IN'} (" + ",".join(sql_str(v) for v in sorted(values)) + ")"


_SESSION = None
_SESSION_LOCK = threading.Lock()


def _session():
    """One ``lancedb.Session`` for the process: its index and metadata caches are shared by every
    connection (LanceDB docs, ``lancedb.Session``: "re-used across multiple connections to share
    the same cache state").

    The engine opens a new :class:`core.store.Workspace` per question; with a session per
    connection each question read the ANN index back from disk and decoded it again (1.6 s
    instead of 0.36 s a question at 1M chunks, issue #15). Cache entries are keyed by index
    and file ids, so a workspace deleted and made again never reads the old one's.
    """
    global _SESSION
    with _SESSION_LOCK:
        if _SESSION is None:
            import lancedb

            _SESSION = lancedb.Session()
        return _SESSION


class VectorTable:
    """The LanceDB table of a workspace's chunk vectors, opened lazily.

    Args:
        folder: the workspace's ``lance`` folder.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._conn = None
        self._table = None
        self._reader = None  # (version, table checked out at it)
        self._lock = threading.Lock()

    def _connect(self):
        if self._conn is None:
            import lancedb

            self._conn = lancedb.connect(str(self.folder), session=_session())
        return self._conn

    def close(self) -> None:
        """Forget open handles (re-opened on next use)."""
        with self._lock:
            self._conn = self._table = self._reader = None

    def exists(self) -> bool:
        """Whether the table exists on disk (no LanceDB import when the folder is missing)."""
        return (self.folder / f"{TABLE_NAME}.lance").is_dir()

    def table(self):
        """The table at its latest version (the writer's handle), or ``None`` before the first vectors."""
        if self._table is None and self.exists():
            self._table = self._connect().open_table(TABLE_NAME)
        return self._table

    def drop(self) -> None:
        """Drop the table (vectors never committed)."""
        if self.exists():
            self._connect().drop_table(TABLE_NAME)
        self.close()

    def migrate(self) -> bool:
        """Drop columns older layouts wrote (llama-index's ``text`` and ``metadata``); True if it did.

        A metadata-only change (a new table version); compaction later rewrites
        the data files without them.
        """
        table = self.table()
        if table is None:
            return False
        extra = [name for name in table.schema.names if name not in _COLUMNS]
        if extra:
            table.drop_columns(extra)
        return bool(extra)

    # --- writes -----------------------------------------------------------------

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        """Append one row per chunk (``len(chunks) == len(vectors)``; vectors of one width)."""
        import pyarrow as pa

        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        if not chunks:
            return
        mat = np.asarray(vectors, dtype=np.float32)
        data = pa.table({
            "id": pa.array([c.chunk_id for c in chunks], pa.string()),
            "doc_id": pa.array([c.doc_id for c in chunks], pa.string()),
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(mat.ravel(), pa.float32()), mat.shape[1]),
        })
        table = self.table()
        if table is None:
            self._table = self._connect().create_table(TABLE_NAME, data)
        else:
            table.add(data)

    def delete_docs(self, doc_ids: Iterable[str]) -> None:
        """Delete every vector of ``doc_ids`` (one LanceDB version per 1,000 documents)."""
        self._delete("doc_id", doc_ids)

    def delete_ids(self, chunk_ids: Iterable[str]) -> None:
        """Delete the vectors of ``chunk_ids``."""
        self._delete("id", chunk_ids)

    def _delete(self, column: str, values: Iterable[str]) -> None:
        table = self.table()
        ids = sorted(set(values))
        if table is not None:
            for i in range(0, len(ids), 1000):
                table.delete(sql_in(column, ids[i : i + 1000]))

    # --- reads (latest version: the writer's view) --------------------------------

    def ids(self) -> list[str]:
        """Every stored chunk id at the latest version (duplicates kept)."""
        table = self.table()
        if table is None:
            return []
        return table.search().select(["id"]).limit(None).to_arrow().column("id").to_pylist()

    def read(self, doc_id: str) -> dict[str, list[float]]:
        """Stored vectors of one document at the latest version: chunk id → vector."""
        table = self.table()
        if table is None:
            return {}
        rows = table.search().where(f"doc_id = {sql_str(doc_id)}").select(["id", "vector"]).limit(None).to_arrow()
        return dict(zip(rows.column("id").to_pylist(), rows.column("vector").to_pylist()))

    # --- search (the committed version) -------------------------------------------

    def _reader_at(self, version: int):
        with self._lock:
            if self._reader is not None and self._reader[0] == version:
                return self._reader[1]
        table = self._connect().open_table(TABLE_NAME)
        table.checkout(version)
        with self._lock:
            self._reader = (version, table)
        return table

    def search(self, vector: Sequence[float], k: int, exclude_docs: set[str], only_docs: set[str] | None,
               version: int | None) -> list[str]:
        """Chunk ids of the ``k`` rows nearest to ``vector`` at table ``version``, nearest first.

        ``exclude_docs`` and ``only_docs`` (see the module docstring) are
        pre-filters. ``version``: the committed version (``None``: no vectors yet).

        Raises:
            RuntimeError: LanceDB cannot read the version (after one retry; the
                caller re-reads the recorded version and calls again).
        """
        if version is None or not self.exists() or k <= 0 or (only_docs is not None and not only_docs):
            return []
        clauses = []
        if exclude_docs:
            clauses.append(sql_in("doc_id", exclude_docs, negate=True))
        if only_docs is not None:
            clauses.append(sql_in("doc_id", only_docs))
        query = self._reader_at(version).search(np.asarray(vector, dtype=np.float32)).limit(k)
        if clauses:
            query = query.where(" AND ".join(clauses), prefilter=True)
        if only_docs is not None:
            query = query.bypass_vector_index()
        else:
            # HNSW must keep at least the k · refine candidates the refine step re-ranks
            query = query.nprobes(ANN_NPROBES).refine_factor(ANN_REFINE).ef(max(ANN_EF, k * ANN_REFINE))
        return query.select(["id", "_distance"]).to_arrow().column("id").to_pylist()

    # --- maintenance (the caller holds the writer lock) -----------------------------

    def maintain(self) -> None:
        """Compact, and bring indexes up to date, creating them past their thresholds (writer only)."""
        table = self.table()
        if table is None:
            return
        table.optimize()  # compaction, and new rows added to existing indexes
        rows = table.count_rows()
        indexed = {tuple(ix.columns): ix for ix in table.list_indices()}
        if ("doc_id",) not in indexed and rows >= SCALAR_MIN_ROWS:
            from lancedb.index import BTree

            table.create_index("doc_id", config=BTree(), replace=True)
        vec = indexed.get(("vector",))
        trained = int(getattr(vec, "num_indexed_rows", 0) or 0) if vec is not None else 0
        if rows >= ANN_MIN_ROWS and (vec is None or rows >= ANN_RETRAIN_GROWTH * max(trained, 1)):
            self._create_ann(table, rows)

    def cleanup(self) -> None:
        """Delete every version but the latest, and data files no version uses (writer only).

        Call only once the latest version is the one the manifest records: it is
        then the only one recovery can need.
        """
        import warnings

        table = self.table()
        if table is None:
            return
        with warnings.catch_warnings():
            # "removes every version except the latest": intended (the writer holds the lock;
            # a reader at an older version re-reads the recorded one, Workspace.dense_search).
            # Not cleanup_old_versions(): it goes through pylance, left out of the installer.
            warnings.simplefilter("ignore")
            table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)

    @staticmethod
    def _create_ann(table, rows: int) -> None:
        """(Re)train the ANN index over every row (partitions: √rows, Lance's default rule)."""
        from lancedb.index import HnswSq, IvfPq

        partitions = max(1, int(round(rows ** 0.5)))
        config = (HnswSq(distance_type="l2", num_partitions=partitions) if ANN_INDEX == "IVF_HNSW_SQ"
                  else IvfPq(distance_type="l2", num_partitions=partitions))
        table.create_index("vector", config=config, replace=True)
