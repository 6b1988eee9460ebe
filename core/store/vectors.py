"""A workspace's chunk vectors: one LanceDB table (``lance/chunks.lance``).

Why LanceDB: embedded, on disk, opens lazily (no full load into RAM, unlike
llama-index's JSON SimpleVectorStore: 229 s and 5.2 GB at 100k chunks, DESIGN.md),
supports SQL ``where`` pre-filters and deletes, and versions every write
(``table.version`` / ``restore``), which the crash recovery relies on.

Rows are written through llama-index's ``LanceDBVectorStore`` and carry ``id``
(the chunk id), ``doc_id`` (deletes and pre-filters), ``text`` and ``vector``.
Reads go through lancedb's own scans (``table.search()...to_arrow()``), never
``table.to_lance()``, which needs the separate ``pylance`` package (215 MB, left
out of the installer).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from core.types import Chunk

log = logging.getLogger(__name__)

TABLE_NAME = "chunks"

# The LanceDB wrapper logs a warning whenever a workspace has no vectors yet.
logging.getLogger("llama_index.vector_stores.lancedb.base").setLevel(logging.ERROR)


def sql_str(value: str) -> str:
    """``value`` as a Lance SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def doc_in(column: str, values: Iterable[str], negate: bool = False) -> str:
    """A Lance SQL ``column [NOT] IN ('a', 'b', …)`` clause."""
    return f"{column} {'NOT IN' if negate else 'IN'} (" + ",".join(sql_str(v) for v in sorted(values)) + ")"


class VectorTable:
    """The LanceDB table of a workspace's chunk vectors, opened lazily.

    Args:
        folder: the ``lance`` folder of the workspace.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._store = None

    def _vectors(self):
        if self._store is None:
            from llama_index.vector_stores.lancedb import LanceDBVectorStore

            # mode="create": never overwrite an existing table on open.
            self._store = LanceDBVectorStore(uri=str(self.folder), table_name=TABLE_NAME, mode="create")
        return self._store

    def close(self) -> None:
        """Forget the open table (it is re-opened on next use)."""
        self._store = None

    def table(self):
        """The LanceDB table, or ``None`` before the first vectors are written."""
        return self._vectors()._table  # noqa: SLF001 - no public "has table" accessor

    def drop(self) -> None:
        """Drop the table (vectors never committed)."""
        self._vectors()._connection.drop_table(TABLE_NAME)  # noqa: SLF001
        self._store = None

    def ids(self) -> list[str]:
        """Every stored chunk id (duplicates kept)."""
        table = self.table()
        if table is None:
            return []
        return table.search().select(["id"]).limit(None).to_arrow().column("id").to_pylist()

    def read(self, doc_id: str) -> dict[str, list[float]]:
        """Stored vectors of one document: chunk id → vector."""
        table = self.table()
        if table is None:
            return {}
        rows = table.search().where(f"doc_id = {sql_str(doc_id)}").select(["id", "vector"]).limit(None).to_arrow()
        return dict(zip(rows.column("id").to_pylist(), rows.column("vector").to_pylist()))

    def delete_docs(self, doc_ids: Iterable[str]) -> None:
        """Delete every vector of ``doc_ids``."""
        table = self.table()
        ids = sorted(set(doc_ids))
        # LanceDBVectorStore.delete() quotes the value with double quotes, which
        # Lance SQL reads as an identifier; delete through its table instead.
        if table is not None:
            for i in range(0, len(ids), 200):
                table.delete(doc_in("doc_id", ids[i : i + 200]))

    def delete_ids(self, chunk_ids: Iterable[str]) -> None:
        """Delete the vectors of ``chunk_ids``."""
        table = self.table()
        ids = sorted(set(chunk_ids))
        if table is not None:
            for i in range(0, len(ids), 200):
                table.delete(doc_in("id", ids[i : i + 200]))

    def add(self, chunks: list[Chunk], vectors: list[list[float]]) -> None:
        """Append one row per chunk (``len(chunks) == len(vectors)``)."""
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

    def search(self, vector: list[float], k: int, exclude_docs: set[str],
               only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids of the ``k`` rows nearest to ``vector``, pre-filtered by document."""
        from llama_index.core.vector_stores.types import VectorStoreQuery

        store = self._vectors()
        if store._table is None:  # noqa: SLF001
            return []
        clauses = []
        if exclude_docs:
            clauses.append(doc_in("doc_id", exclude_docs, negate=True))
        if only_docs is not None:
            if not only_docs:
                return []
            clauses.append(doc_in("doc_id", only_docs))
        where = " AND ".join(clauses) or None
        try:
            result = store.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=k), where=where)
        except Warning:  # the wrapper raises Warning("query results are empty..")
            return []
        return list(result.ids or [])
