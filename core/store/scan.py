"""What an indexing run finds before reading a file: the scan, the cheap look at each file, moves, resumes.

:func:`scan_folders` lists the files of the run's folders against the manifest
(:class:`IndexScan`); :func:`triage_file` decides per file (unchanged, moved,
to read); :func:`resume_point` says where a document a stopped run left
partially indexed goes on. Plain data (:class:`PreparedDocument`) travels
between these and :mod:`core.store.indexing`, which re-exports every name here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.ingest import ATTACHMENT_SEP, file_sha256
from core.store.docids import plan_scan, ranked_folders
from core.store.writes import DocumentWrite
from core.types import Chunk, FileError, IndexReport, PartialDocument

if TYPE_CHECKING:
    from core.store.handle import WorkspaceHandle


@dataclass
class IndexScan:
    """What a run found on disk and in the manifest before reading any file.

    ``files``: ``(path, doc_id, root)`` in the order visited (``doc_id`` =
    ``<folder label>/<path inside it>``, :mod:`core.store.docids`). ``skipped``:
    ``(path, reason)`` of links not followed and run folders covered by another. ``known``: ``doc_id → (size, mtime,
    sha256, folder)`` of the manifest's documents. ``gone``: the known documents
    of these folders no longer on disk (removed at the end of a full run, unless
    a new file turns out to be one of them moved). ``failed``: paths with a
    recorded failure (so an unchanged file costs no manifest write).
    """

    files: list[tuple[Path, str, Path]]
    known: dict[str, tuple]
    gone: dict[str, tuple]
    gone_by_sha: dict[str, str] = field(default_factory=dict)
    gone_sizes: set[int] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    not_read: list[tuple[Path, str]] = field(default_factory=list)  # files left unread on purpose, with why
    #: ``doc_id → (sha256, chunks committed, chunk count)`` of documents a stopped run left partially indexed
    #: (committed in parts, :class:`~core.store.writes.DocumentWrite`); their ``known`` entry never matches a
    #: file (size -1, no sha256), so every run — local or on Ray — reads them again.
    partial: dict[str, tuple[str, int, int]] = field(default_factory=dict)

    def clear_failure(self, ws: WorkspaceHandle, path: Path) -> None:
        """Forget ``path``'s recorded failure, if it has one (one manifest transaction only then)."""
        if str(path) in self.failed:
            ws.manifest.clear_failure(path)
            self.failed.discard(str(path))


@dataclass
class PreparedDocument:
    """One file read, chunked and screened, not yet embedded — :func:`prepare_document`'s result.

    Plain data (picklable), so it can be made in another process or on another
    machine (``core.cluster``) and committed by the workspace's writer.

    Attributes:
        doc_id, path, root, size, mtime: the file as the run found it (size in
            bytes, mtime in seconds since the epoch).
        error: the file could not be read (``FileError`` naming it); nothing else is set.
        unchanged: its bytes (sha256) equal the indexed version; no chunks.
        sha256, kind, lang, pages: the parsed document (``pages``: page count).
        warnings: ``(page, reason)`` of pages that could not be read (1-based pages)
            while the rest of the document was.
        chunks: the document's chunks, in order.
        finding: the first quarantine finding's reason (``core.quarantine``), or
            ``None`` when the screen found nothing.
        attachments: an e-mail's attachments, each prepared as a document of its own
            (doc id ``<message doc id> › <name>``, issue #14); empty for other files.
        attachment_ids: the doc ids of ``attachments`` (kept when ``attachments`` is
            sent apart, as the Ray path does).
    """

    doc_id: str
    path: Path
    root: Path
    size: int
    mtime: float
    error: FileError | None = None
    unchanged: bool = False
    sha256: str = ""
    kind: str = ""
    lang: str = ""
    pages: int = 0
    warnings: list[tuple[int | None, str]] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    finding: str | None = None
    attachments: list[PreparedDocument] = field(default_factory=list)
    attachment_ids: list[str] = field(default_factory=list)


def forget_stale_attachments(scan: IndexScan, prepared: PreparedDocument) -> None:
    """Mark as gone the indexed attachments of ``prepared``'s message that it no longer carries."""
    keep = set(prepared.attachment_ids)
    for stale in [d for d in scan.known if container_of(d) == prepared.doc_id and d != prepared.doc_id
                  and d not in keep]:
        scan.gone[stale] = scan.known[stale]


def partial_documents(ws: WorkspaceHandle, folders: set[str] | None = None) -> list[PartialDocument]:
    """The documents left partially indexed (of ``folders`` only, when given), by doc id."""
    state = ws.manifest.partial_documents()
    if not state:
        return []
    with ws.manifest.connect() as db:
        rows = db.execute("SELECT doc_id, path, folder FROM documents").fetchall()
    return [PartialDocument(doc_id=d, path=p, committed=state[d][1], total=state[d][2])
            for d, p, f in sorted(rows) if d in state and (folders is None or f in folders)]


def container_of(doc_id: str) -> str:
    """The doc_id of the file a document comes from: itself, or the message an attachment is in."""
    return doc_id.split(ATTACHMENT_SEP, 1)[0]


def attachment_doc_id(doc_id: str, name: str) -> str:
    """The doc_id of an attachment named ``name`` ("m.eml › a.pdf") of the file ``doc_id``:
    ``<doc_id> › a.pdf`` (nested: ``<doc_id> › b.eml › c.pdf``)."""
    return doc_id + ATTACHMENT_SEP + name.split(ATTACHMENT_SEP, 1)[1]


def scan_folders(ws: WorkspaceHandle, roots: list[Path]) -> IndexScan:
    """The run's :class:`IndexScan`; links not followed and covered folders are recorded as failures
    of their folder (the window lists them), replacing what the last scan of these folders recorded."""
    with ws.manifest.connect() as db:
        plan = plan_scan(ranked_folders(db), roots, follow_links=ws.settings.follow_links)
    files = plan.files
    with ws.manifest.connect() as db:
        names = [str(r) for r in roots] or [""]
        db.execute(f"DELETE FROM failures WHERE ({SKIP_REASONS_SQL}) AND folder IN ({','.join('?' * len(names))})",
                   names)
        db.executemany("INSERT OR REPLACE INTO failures VALUES (?, ?, ?, NULL)",
                       [(str(p), _root_of(p, roots), r) for p, r in plan.skipped])
        known = {r[0]: r[1:] for r in db.execute("SELECT doc_id, size, mtime, sha256, folder FROM documents")}
        failed = {r[0] for r in db.execute("SELECT path FROM failures")}
        partial = {r[0]: tuple(r[1:]) for r in db.execute("SELECT doc_id, sha256, committed, total FROM partial_documents")}
    for doc_id in partial:  # not whole: never "unchanged", never the source of a move
        if doc_id in known:
            known[doc_id] = (-1, -1.0, "", known[doc_id][3])
    on_disk = {doc_id for _, doc_id, _ in files}
    root_names = {str(r) for r in roots}
    # an e-mail's attachments are documents of their own, kept and removed with their message
    gone = {d: v for d, v in known.items() if container_of(d) not in on_disk and v[3] in root_names}
    return IndexScan(files=files, known=known, gone=gone, gone_by_sha={v[2]: d for d, v in gone.items()},
                     gone_sizes={v[0] for v in gone.values()}, failed=failed, skipped=plan.skipped,
                     not_read=plan.not_read, partial=partial)


#: The failures a scan records itself (links not followed, covered folders): replaced by each scan.
SKIP_REASONS_SQL = "reason LIKE 'not followed:%' OR reason LIKE 'already indexed as part of the folder%'"


def _root_of(path: Path, roots: list[Path]) -> str:
    """The run folder ``path`` lies in (itself for a covered folder)."""
    p = str(path)
    return next((str(r) for r in roots if p == str(r) or p.startswith(str(r).rstrip(os.sep) + os.sep)), str(roots[0]))


def cheap_look(scan: IndexScan, doc_id: str, st: os.stat_result) -> str:
    """What :func:`triage_file` (and the indexing read-ahead) make of a file's stat, no side effects:
    ``"unchanged"`` (same size and mtime as indexed), ``"maybe_moved"`` (a new doc id with the size
    of a gone document: perhaps that document moved, decided by its sha256), else ``"read"``."""
    prev = scan.known.get(doc_id)
    if prev and prev[0] == st.st_size and prev[1] == st.st_mtime:
        return "unchanged"
    if prev is None and st.st_size in scan.gone_sizes:
        return "maybe_moved"
    return "read"


def triage_file(
    ws: WorkspaceHandle, scan: IndexScan, report: IndexReport, path: Path, doc_id: str, root: Path
) -> os.stat_result | DocumentWrite | None:
    """The cheap look at one file before reading it (the writer's side; no parsing).

    Returns:
        ``None`` when there is nothing to read (cannot be stat'ed: a failure in
        ``report``; same size and mtime as indexed: unchanged), a
        :class:`DocumentWrite` when it is a gone document moved here (its chunks
        and vectors re-keyed, counted in ``report.renamed``), else its
        ``os.stat_result``: the file must be prepared (:func:`prepare_document`).
    """
    try:
        st = path.stat()
    except OSError as exc:
        report.failures.append(FileError(path=str(path), reason=f"cannot read ({exc.strerror})"))
        return None
    look = cheap_look(scan, doc_id, st)
    if look == "unchanged":
        report.unchanged += 1
        scan.clear_failure(ws, path)
        return None
    if look == "maybe_moved":
        moved = _moved_document(ws, path, doc_id, root, st, scan.gone_by_sha)
        if moved is not None:
            scan.gone.pop(moved.renamed_from, None)
            report.renamed += 1
            return moved
    return st


def resume_point(ws: WorkspaceHandle, scan: IndexScan, part: PreparedDocument) -> int:
    """How many of ``part``'s first chunks a stopped run already committed from the same content (0: none).

    Non-zero only when the manifest records ``part``'s document as partially
    indexed (:attr:`IndexScan.partial`) with the same sha256, and its committed
    chunks equal ``part``'s first ones (ids, pages, offsets, texts and context
    lines: the settings fingerprint already fixes the chunker and the model, this
    also catches a reader that changed its output for the same bytes). A changed
    file, or chunks that differ, start over: the first part replaces them.
    """
    state = scan.partial.get(part.doc_id)
    if state is None or state[0] != part.sha256 or not 0 < state[1] < len(part.chunks):
        return 0
    mine = [(c.chunk_id, c.page, c.start, c.end, c.text, c.context) for c in part.chunks[: state[1]]]
    return state[1] if ws.manifest.committed_chunks(part.doc_id) == mine else 0


def _moved_document(
    ws: WorkspaceHandle, path: Path, doc_id: str, root: Path, st: os.stat_result, gone_by_sha: dict[str, str]
) -> DocumentWrite | None:
    """A new file whose bytes equal a document gone from disk: its chunks and vectors, re-keyed.

    Returns ``None`` when no gone document has the same sha256, when the
    stored chunks and vectors of that document do not match one to one, or when
    it carries attachments (an e-mail: its attachments are parsed again with it)
    (the file is then indexed normally).
    """
    try:
        sha = file_sha256(path)
    except OSError:
        return None
    old = gone_by_sha.get(sha)
    if old is None:
        return None
    with ws.manifest.connect() as db:
        if db.execute("SELECT 1 FROM documents WHERE doc_id LIKE ? ESCAPE '!'",
                      (old.replace("!", "!!").replace("%", "!%").replace("_", "!_") + ATTACHMENT_SEP + "%",)).fetchone():
            return None
    with ws.manifest.connect() as db:
        ids = [r[0] for r in db.execute("SELECT chunk_id FROM chunks WHERE doc_id = ? ORDER BY ord", (old,))]
        row = db.execute("SELECT kind, lang, pages FROM documents WHERE doc_id = ?", (old,)).fetchone()
    prefix = old + "#"
    stored = ws.vectors.read(old)
    if row is None or set(stored) != set(ids) or not all(c.startswith(prefix) for c in ids):
        return None
    del gone_by_sha[sha]
    old_chunks = ws.get_chunks(ids)
    chunks = [
        c.model_copy(update={"chunk_id": doc_id + c.chunk_id[len(old):], "doc_id": doc_id, "path": str(path)})
        for c in (old_chunks[cid] for cid in ids)
    ]
    return DocumentWrite(
        doc_id=doc_id, path=path, root=root, size=st.st_size, mtime=st.st_mtime, sha256=sha,
        kind=row[0], lang=row[1], pages=row[2], chunks=chunks, vectors=[stored[cid] for cid in ids],
        renamed_from=old,
    )
