"""The commit protocol and crash recovery that keep manifest, vectors and BM25 equal.

**Commit protocol.** The manifest is the source of truth; its ``meta`` table
records ``generation`` (bumped by every commit that changes chunks),
``lance_version`` (the LanceDB table version that holds exactly the manifest's
vectors), ``bm25_dir``/``bm25_generation`` (the BM25 folder built from that
generation) and the settings ``fingerprint``. One batch of documents is
committed by :func:`commit_batch`:

1. LanceDB: delete the batch's documents' old vectors, add the new ones
   (each a LanceDB version; Lance commits each version atomically).
2. SQLite, one transaction: documents, chunks, ``generation + 1`` and
   ``lance_version = table.version``. This is the commit point.

At the end of a run (:func:`finish_run`) the BM25 index is rebuilt into a new
folder, recorded, and older folders deleted; every 20 LanceDB writes the table
is compacted (``optimize``) and the new version recorded.

**Recovery** (:func:`recover`): a LanceDB table newer than ``lance_version`` is
restored to it (``restore``), a table with no recorded version is dropped, a
stale or missing BM25 folder is rebuilt from the manifest, leftover BM25
folders are deleted. If the recorded version no longer exists (cleaned up),
vectors whose ids the manifest lacks are deleted and documents whose vectors
are missing are dropped from the manifest, so the next run re-embeds them.

So a SIGKILL at any moment leaves the index at its last commit: manifest,
vectors and BM25 hold the same chunk ids, from the same version of each file.
Not covered: power loss (BM25 files are not fsynced; SQLite and Lance keep
their own guarantees).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.store.crash import crash_point
from core.store.profiles import write_profile
from core.store.manifest import Manifest, get_meta, set_meta
from core.types import Chunk

if TYPE_CHECKING:
    from core.store.workspace import Workspace

log = logging.getLogger(__name__)

#: LanceDB's docs: "run optimize if you have added or modified 100,000 or more
#: records or run more than 20 data modification operations" (Table.optimize).
OPTIMIZE_EVERY_WRITES = 20


@dataclass
class DocumentWrite:
    """One document's new state, embedded but not yet committed.

    ``chunks[i]`` is embedded as ``vectors[i]`` (same length). ``renamed_from``
    set: the manifest rows and vectors of that document are moved to ``doc_id``
    instead of inserted. ``screened``: ``(status, reason)`` set by the quarantine
    screen in the same transaction, or ``None`` to keep the stored status.
    """

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
    renamed_from: str | None = None
    screened: tuple[str, str] | None = None


def commit_batch(ws: Workspace, writes: list[DocumentWrite], removals: list[str]) -> None:
    """Commit one batch atomically: vectors first, then the manifest in one transaction.

    The caller holds the workspace's writer locks. On any error the vectors are
    put back to the last commit (:func:`recover`) and the error re-raised.
    """
    if not writes and not removals:
        return
    try:
        _commit_unsafe(ws, writes, removals)
    except BaseException:
        # Whatever failed, put vectors back to the last commit before anything reads them.
        try:
            recover(ws)
        except Exception:  # noqa: BLE001 - the original error is the one to report
            log.exception("workspace %s: recovery after a failed commit failed", ws.name)
        raise


def _commit_unsafe(ws: Workspace, writes: list[DocumentWrite], removals: list[str]) -> None:
    replaced = [w.doc_id for w in writes] + [w.renamed_from for w in writes if w.renamed_from]
    ws.vectors.delete_docs(replaced + removals)
    crash_point("after_delete")
    chunks = [c for w in writes for c in w.chunks]
    vectors = [v for w in writes for v in w.vectors]
    if chunks:
        ws.vectors.add(chunks, vectors)
    crash_point("after_vectors")
    table = ws.vectors.table()
    with ws.manifest.connect() as db:
        for doc_id in removals:
            Manifest.delete_document_rows(db, doc_id)
        for w in writes:
            if w.renamed_from:
                Manifest.move_document_rows(db, w)
            else:
                Manifest.delete_document_rows(db, w.doc_id, keep_document=True)
                Manifest.insert_document_rows(db, w)
            write_profile(db, w)  # derived from the same chunks, in the same transaction
            db.execute("DELETE FROM failures WHERE path = ?", (str(w.path),))
        meta = get_meta(db)
        set_meta(
            db,
            generation=int(meta.get("generation", "0")) + 1,
            lance_version=table.version if table is not None else "",
            lance_writes=int(meta.get("lance_writes", "0")) + 1,
        )
    crash_point("after_manifest")


def finish_run(ws: Workspace) -> None:
    """End of an indexing run (also after a cancel or an error): derived data, then compaction.

    The place where data derived from the whole manifest is brought up to the
    last commit: the BM25 index (rebuilt when its generation is behind).
    """
    meta = ws.manifest.meta()
    if not ws.bm25.is_current(meta):
        ws.bm25.rebuild()
    maybe_optimize(ws)


def maybe_optimize(ws: Workspace) -> None:
    """Compact LanceDB every :data:`OPTIMIZE_EVERY_WRITES` commits, then record the new version."""
    table = ws.vectors.table()
    writes = int(ws.manifest.meta().get("lance_writes", "0"))
    if table is None or writes < OPTIMIZE_EVERY_WRITES:
        return
    try:
        table.optimize()  # versions older than 7 days are cleaned; the recorded one is newer
    except Exception:  # noqa: BLE001 - compaction is an optimisation, never a reason to fail a run
        log.exception("workspace %s: LanceDB optimize failed", ws.name)
        return
    crash_point("after_optimize")
    with ws.manifest.connect() as db:
        set_meta(db, lance_version=table.version, lance_writes=0)


def recover(ws: Workspace) -> None:
    """Bring vectors and BM25 back to the manifest's last commit (module docstring, "Recovery").

    The caller holds the inter-process writer lock.
    """
    with ws.manifest.connect() as db:
        meta = get_meta(db)
        n_chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    recorded = int(meta["lance_version"]) if meta.get("lance_version") else None
    table = ws.vectors.table()
    if table is not None and recorded is None:
        ws.vectors.drop()  # vectors never committed
        table = None
    elif table is not None and table.version != recorded:
        log.warning("workspace %s: vectors at version %s, manifest at %s: restoring",
                    ws.name, table.version, recorded)
        try:
            table.restore(recorded)
        except (ValueError, OSError, RuntimeError) as exc:
            log.warning("workspace %s: cannot restore version %s (%s): reconciling by id", ws.name, recorded, exc)
            reconcile_vectors(ws)
        else:
            with ws.manifest.connect() as db:
                set_meta(db, lance_version=table.version)
    if (table.count_rows() if table is not None else 0) != n_chunks:
        reconcile_vectors(ws)
    meta = ws.manifest.meta()
    bm25_dir = meta.get("bm25_dir", "")
    stale = meta.get("bm25_generation", "0") != meta.get("generation", "0")
    if stale or (bm25_dir and not (ws.dir / bm25_dir / "ids.json").exists()):
        ws.bm25.rebuild()
    else:
        ws.bm25.sweep(keep=bm25_dir)


def reconcile_vectors(ws: Workspace) -> None:
    """Fallback recovery by id: vectors ⊆ manifest, documents without all their vectors dropped."""
    counts = Counter(ws.vectors.ids())
    with ws.manifest.connect() as db:
        chunk_docs = dict(db.execute("SELECT chunk_id, doc_id FROM chunks").fetchall())
    bad_docs = {doc for cid, doc in chunk_docs.items() if counts.get(cid) != 1}
    stray = [cid for cid in counts if cid not in chunk_docs]
    table = ws.vectors.table()
    if table is not None:
        ws.vectors.delete_docs(bad_docs)
        ws.vectors.delete_ids(stray)
    with ws.manifest.connect() as db:
        for doc in bad_docs:  # the next run sees them as new and re-embeds them
            Manifest.delete_document_rows(db, doc)
        generation = int(get_meta(db).get("generation", "0")) + 1
        set_meta(db, generation=generation, lance_version=table.version if table is not None else "")
    log.warning("workspace %s: reconciled vectors by id; %d document(s) will be re-embedded",
                ws.name, len(bad_docs))
