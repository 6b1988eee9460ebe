"""A workspace's on-disk index: SQLite manifest, BM25 keyword index, LanceDB vectors.

Layout of ``<data>/workspaces/<name>/``::

    manifest.sqlite   documents (path, size, mtime, sha256, status), chunks (ids, text,
                      page offsets), failures (path, reason, page), folders, and ``meta``
                      (settings fingerprint, commit generation, LanceDB table version,
                      current BM25 folder) — the source of truth
    bm25-<gen>/       BM25 index over every chunk of manifest generation ``<gen>``,
                      derived from the manifest (no embedding work); the current one
                      is named in ``meta``
    lance/            LanceDB table of chunk embeddings; rows carry ``doc_id`` for
                      deletes and pre-filtering
    writer.lock       inter-process lock held while indexing or recovering

Workspaces never share a store: each has its own folder.

Modules, by concern: :mod:`~core.store.manifest` (schema, fingerprint, rows),
:mod:`~core.store.bm25` (keyword index), :mod:`~core.store.vectors` (LanceDB),
:mod:`~core.store.commit` (commit protocol, recovery), :mod:`~core.store.indexing`
(an incremental indexing run), :mod:`~core.store.embedding` (the model) and
:mod:`~core.store.workspace` (the :class:`Workspace` facade).
"""

from core.store.commit import OPTIMIZE_EVERY_WRITES, DocumentWrite
from core.store.crash import KILL_AT_ENV
from core.store.embedding import EMBED_BATCH, embedding_model_id, get_embedder
from core.store.indexing import CancelCheck
from core.store.manifest import DOC_STATUSES, INDEX_SCHEMA_VERSION, DocStatus, index_fingerprint
from core.store.workspace import Workspace, list_workspaces, workspaces_root

__all__ = [
    "DOC_STATUSES",
    "EMBED_BATCH",
    "INDEX_SCHEMA_VERSION",
    "KILL_AT_ENV",
    "OPTIMIZE_EVERY_WRITES",
    "CancelCheck",
    "DocStatus",
    "DocumentWrite",
    "Workspace",
    "embedding_model_id",
    "get_embedder",
    "index_fingerprint",
    "list_workspaces",
    "workspaces_root",
]
