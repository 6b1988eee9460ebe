"""The commit protocol and crash recovery that keep manifest, vectors and BM25 equal.

**Commit protocol.** The manifest is the source of truth; its ``meta`` table
records ``generation`` (bumped by every commit that changes chunks),
``lance_version`` (the LanceDB table version that holds exactly the manifest's
vectors), ``bm25_state`` (the BM25 segments built from generation
``bm25_generation``) and the settings ``fingerprint``. One batch of documents is
committed by :func:`commit_batch`:

0. ``meta.commit_pending = 1`` (its own transaction): a commit is under way.
1. LanceDB: delete the old vectors of the batch's documents that have some (a
   document the manifest does not know has none), add the new ones (each a
   LanceDB version; Lance commits each version atomically).
2. SQLite, one transaction: documents, chunks, the changed documents in
   ``doc_changes``, ``generation + 1``, ``lance_version = table.version``, and
   ``commit_pending`` removed. This is the commit point.

A large document may come in parts (:class:`~core.store.writes.DocumentWrite`,
"Parts"): its first part replaces its old chunks and vectors as above, a later
part only adds its own, and the same transaction records how far the document
is committed (``partial_documents``), so every commit point is a state a reader
can use and the next run can go on from.

Derived data follows the manifest (:func:`finish_run`, at the end of a run and
every :data:`BM25_EVERY_CHUNKS` committed chunks): the BM25 index is updated
for the documents listed in ``doc_changes`` (:mod:`core.store.bm25`); every
:data:`OPTIMIZE_EVERY_WRITES` commits, and at the end of a run, LanceDB is
compacted and its indexes brought up to date (the new version recorded), then
every older version and unused data file is deleted: the recorded version is
the only one recovery can need.

**Recovery** (:func:`recover`, under the writer lock) runs only when
:func:`needs_recovery` says so — an O(1) look at ``meta``: a commit left
pending, a BM25 state behind the manifest or in an older format, vectors in an
older layout — and at the start of an indexing run when that says so or
the LanceDB version differs from the recorded one (:func:`recovery_due`;
neither check reads a chunk, so an unchanged run over a large workspace
starts at once). It restores LanceDB to
``lance_version`` (a table with no recorded version is dropped), and brings
BM25 up to the manifest. If the recorded version no longer exists, vectors
whose ids the manifest lacks are deleted and documents whose vectors are
missing are dropped from the manifest, so the next run re-embeds them.
Readers never recover: they search LanceDB at the recorded version and the
recorded BM25 state, which an unfinished commit never changes.

So a SIGKILL at any moment leaves the index at its last commit: manifest,
vectors and BM25 hold the same chunk ids, from the same version of each file.
Not covered: power loss (BM25 files are not fsynced; SQLite and Lance keep
their own guarantees).
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.store.crash import crash_point
from core.store.embedding import loaded_backend_name
from core.store.manifest import Manifest, get_meta, set_meta
from core.store.profiles import write_profile
from core.store.writes import DocumentWrite

if TYPE_CHECKING:
    from core.store.handle import WorkspaceHandle

__all__ = ["DocumentWrite", "commit_batch", "finish_run", "maintain_vectors", "needs_recovery", "recover",
           "recovery_due", "reconcile_vectors", "register_derived"]

log = logging.getLogger(__name__)

#: LanceDB's docs: "run optimize if you have added or modified 100,000 or more
#: records or run more than 20 data modification operations" (Table.optimize).
OPTIMIZE_EVERY_WRITES = 20
#: During a long run, BM25 catches up with the manifest after this many committed chunks.
BM25_EVERY_CHUNKS = 50_000
#: ``meta.vector_layout``: 2 = rows ``id, doc_id, vector`` (1: llama-index's, with text and metadata).
VECTOR_LAYOUT = "2"

#: Builders of derived per-document data, called at the end of every run (see :func:`register_derived`).
_DERIVED: list[Callable[[WorkspaceHandle, set[str]], None]] = []


def register_derived(builder: Callable[[WorkspaceHandle, set[str]], None]) -> None:
    """Register ``builder(workspace, doc_ids)``, called at the end of every indexing run.

    ``doc_ids``: the documents the run wrote, moved (new ids) or removed (gone
    from the manifest). The place for data derived per document (e.g. a
    document profile in a manifest table keyed by ``doc_id``: rows of such
    tables are already deleted and re-keyed with their document by the commit).
    Called under the writer lock, after BM25 is current; an exception is
    logged, never fails the run.
    """
    if builder not in _DERIVED:
        _DERIVED.append(builder)


def commit_batch(ws: WorkspaceHandle, writes: list[DocumentWrite], removals: list[str]) -> None:
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


def _commit_unsafe(ws: WorkspaceHandle, writes: list[DocumentWrite], removals: list[str]) -> None:
    touched = [w.doc_id for w in writes] + [w.renamed_from for w in writes if w.renamed_from] + list(removals)
    # A later part of a document committed in parts adds to its committed chunks: nothing of it is deleted.
    appended = {w.doc_id for w in writes if w.first > 0} - {w.doc_id for w in writes if w.first == 0}
    with ws.manifest.connect() as db:
        set_meta(db, commit_pending=1)
        stored = set()
        for i in range(0, len(touched), 500):
            part = touched[i : i + 500]
            stored |= {r[0] for r in db.execute(
                f"SELECT doc_id FROM documents WHERE doc_id IN ({','.join('?' * len(part))})", part)}
    # Only documents the manifest holds have vectors (the table is at the recorded version):
    # a first index deletes nothing.
    ws.vectors.delete_docs(d for d in dict.fromkeys(touched) if d in stored and d not in appended)
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
            elif w.first > 0:
                Manifest.append_document_rows(db, w)
            else:
                Manifest.delete_document_rows(db, w.doc_id, keep_document=True)
                Manifest.insert_document_rows(db, w)
            Manifest.record_parts(db, w)
            # derived from the same chunks (a part: all the document's chunks committed with it), same transaction
            write_profile(db, w if w.profile_chunks is None else dataclasses.replace(w, chunks=w.profile_chunks))
            db.execute("DELETE FROM failures WHERE path = ?", (str(w.path),))
        meta = get_meta(db)
        generation = int(meta.get("generation", "0")) + 1
        db.executemany("INSERT INTO doc_changes (doc_id, generation) VALUES (?, ?)",
                       [(d, generation) for d in dict.fromkeys(touched)])
        set_meta(
            db,
            generation=generation,
            lance_version=table.version if table is not None else "",
            lance_writes=int(meta.get("lance_writes", "0")) + 1,
            vector_layout=VECTOR_LAYOUT,
            embedding_backend=loaded_backend_name() or meta.get("embedding_backend", ""),  # informational
        )
        db.execute("DELETE FROM meta WHERE key = 'commit_pending'")
    crash_point("after_manifest")
    ws.run_changes |= set(touched)
    ws.run_chunks += len(chunks)
    if ws.run_chunks >= BM25_EVERY_CHUNKS:
        ws.bm25.update()
        ws.run_chunks = 0
    if int(meta.get("lance_writes", "0")) + 1 >= OPTIMIZE_EVERY_WRITES:
        maintain_vectors(ws, cleanup=True)


def finish_run(ws: WorkspaceHandle) -> None:
    """End of an indexing run (also after a cancel or an error): derived data, then LanceDB upkeep.

    The place where data derived from the manifest is brought up to the last
    commit: the BM25 index (in proportion to what changed), then every builder
    registered with :func:`register_derived`, for the documents this run changed.
    """
    ws.bm25.update()
    ws.run_chunks = 0
    changed, ws.run_changes = ws.run_changes, set()
    for builder in list(_DERIVED):
        if changed:
            try:
                builder(ws, changed)
            except Exception:  # noqa: BLE001 - derived data is rebuilt on the next run
                log.exception("workspace %s: derived data builder %r failed", ws.name, builder)
    if int(ws.manifest.meta().get("lance_writes", "0")) > 0:
        maintain_vectors(ws, cleanup=True)


def maintain_vectors(ws: WorkspaceHandle, cleanup: bool) -> None:
    """Compact LanceDB and update its indexes, record the new version, then delete older versions."""
    table = ws.vectors.table()
    if table is None:
        return
    try:
        ws.vectors.maintain()
    except Exception:  # noqa: BLE001 - upkeep is an optimisation, never a reason to fail a run
        log.exception("workspace %s: LanceDB optimize failed", ws.name)
        return
    crash_point("after_optimize")
    with ws.manifest.connect() as db:
        set_meta(db, lance_version=table.version, lance_writes=0)
    if cleanup:
        recorded = table.version
        try:
            ws.vectors.cleanup()
        except Exception:  # noqa: BLE001 - as above
            log.exception("workspace %s: LanceDB cleanup failed", ws.name)
        if table.version != recorded:  # the cleanup's optimize found more to compact
            with ws.manifest.connect() as db:
                set_meta(db, lance_version=table.version)


def needs_recovery(ws: WorkspaceHandle, meta: dict[str, str]) -> bool:
    """Whether opening must run :func:`recover` — O(1): ``meta`` and one folder check, no LanceDB.

    True when a commit was left unfinished (``commit_pending``), the BM25 state is
    behind the manifest or in an older format, or the vectors are in an older
    layout (or exist with no recorded version).
    """
    if meta.get("commit_pending") or not ws.bm25.is_current(meta):
        return True
    if ws.vectors.exists():
        return meta.get("vector_layout") != VECTOR_LAYOUT or not meta.get("lance_version")
    return False


def recovery_due(ws: WorkspaceHandle) -> bool:
    """Whether a writer starting a run must :func:`recover` first: :func:`needs_recovery`, or the
    LanceDB table at another version than the manifest records (an interrupted write, a
    restore by hand). O(1): the ``meta`` table and the Lance manifest, no chunk read."""
    meta = ws.manifest.meta()
    if needs_recovery(ws, meta):
        return True
    table = ws.vectors.table()
    if table is None:
        return bool(meta.get("lance_version"))
    return str(table.version) != meta.get("lance_version")


def recover(ws: WorkspaceHandle) -> None:
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
    if table is not None and meta.get("vector_layout") != VECTOR_LAYOUT:
        if ws.vectors.migrate():
            with ws.manifest.connect() as db:
                set_meta(db, lance_version=table.version)
    with ws.manifest.connect() as db:
        set_meta(db, vector_layout=VECTOR_LAYOUT)
        db.execute("DELETE FROM meta WHERE key = 'commit_pending'")
    ws.bm25.update()
    ws.bm25.sweep()


def reconcile_vectors(ws: WorkspaceHandle) -> None:
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
        generation = int(get_meta(db).get("generation", "0")) + 1
        for doc in bad_docs:  # the next run sees them as new and re-embeds them
            Manifest.delete_document_rows(db, doc)
        db.executemany("INSERT INTO doc_changes (doc_id, generation) VALUES (?, ?)",
                       [(d, generation) for d in bad_docs])
        set_meta(db, generation=generation, lance_version=table.version if table is not None else "")
    log.warning("workspace %s: reconciled vectors by id; %d document(s) will be re-embedded",
                ws.name, len(bad_docs))

