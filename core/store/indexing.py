"""An incremental indexing run: scan, parse, chunk, screen, embed, commit in batches.

The run decides *what* changed (size/mtime, then sha256; moves by content) and
prepares :class:`~core.store.commit.DocumentWrite` batches; committing them is
:mod:`core.store.commit`'s job.

Seams, so that the per-document work can run elsewhere (``core.cluster``: a Ray
cluster) while one writer commits: :func:`run_indexing` (the writer's side of a
run: locks, scan, batches, removals, derived data) around a body;
:func:`triage_file` (stat, unchanged, moved), :func:`prepare_document` (parse,
chunk, screen — no workspace needed), :func:`settle_prepared` and
:func:`document_write` (back on the writer: failures, quarantine status).
What a run finds before reading a file is :mod:`core.store.scan`'s.

**Large files in parts.** A document with more chunks than one commit batch
(``settings.index_commit_chunks``) is embedded and committed a batch at a time
(:class:`~core.store.writes.DocumentWrite`, "Parts"; the same atomic commit), so a
run stopped inside it — cancelled from the window, Ctrl+C in the CLI, killed —
keeps the chunks it committed, and the next run goes on from there when the file
is unchanged (same sha256, same chunks: :func:`~core.store.scan.resume_point`) or
starts it over when it changed. Until its last part is committed such a document
is *partially indexed*: its committed chunks are searchable like any others (they
are the file's current text, so every quote of them verifies), and the index
report (``IndexReport.partial``) and ``verbatim index`` say "partially indexed:
<doc id> (N of M chunks)", ``Workspace.documents()`` gives ``chunks_total`` and the
``reason`` "partially indexed: N of M chunks" (the window shows it beside the status). A changed large file loses its old chunks with its first new part
(never old and new text mixed in one document).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from core.chunking import chunk_pages
from core.errors import Cancelled, IndexError_, IngestError
from core.ingest import ATTACHMENT_SEP, display_name, parse_file
from core.store.commit import commit_batch, finish_run, recover, recovery_due
from core.store.diskerrors import storage_error
from core.store.docids import register_folders
from core.store.embedding import EMBED_BATCH, get_embedder
from core.store.locking import WRITER_WAIT_S
from core.store.scan import (  # re-exported: core.cluster, bench/ and tests import them from here
    SKIP_REASONS_SQL,
    IndexScan,
    PreparedDocument,
    attachment_doc_id,
    container_of,
    forget_stale_attachments,
    partial_documents,
    resume_point,
    triage_file,
)
from core.store.scan import cheap_look
from core.store.scan import scan_folders as _scan
from core.store.writes import DocumentWrite
from core.textproc import detect_language
from core.types import FileError, IndexReport, ProgressEvent

if TYPE_CHECKING:
    from core.store.handle import WorkspaceHandle

__all__ = [
    "SKIP_REASONS_SQL", "CancelCheck", "CommitBatches", "DocumentWrite", "IndexScan", "PreparedDocument", "RunBody",
    "attachment_doc_id", "container_of", "document_part", "document_write", "forget_stale_attachments", "index_run",
    "partial_documents", "prepare_document", "resume_point", "run_indexing", "settle_prepared", "triage_file",
]

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]

#: Read (parse, chunk) the next file while this one is embedded (:class:`_NextFile`). Off: each
#: file is read when its turn comes, as before 2026-12-02 (the benchmark's "serial" variants).
READ_AHEAD = True


def prepare_document(
    path: Path, doc_id: str, root: Path, size: int, mtime: float, *,
    chunk_tokens: int, overlap_tokens: int, known_sha256: str | None = None, ocr: bool | None = None,
) -> PreparedDocument:
    """Parse, detect the language, chunk and screen one file: the per-document work before embedding.

    Needs no workspace (only the chunking settings, in tokens of the embedding
    model's tokenizer), so it runs wherever the file is readable.

    Args:
        known_sha256: the indexed version's sha256; a file with the same bytes
            comes back ``unchanged`` without being chunked.
        ocr: allow OCR of scanned PDF pages (``None``: the environment's settings,
            as :func:`core.ingest.parse_file`).

    Returns:
        A :class:`PreparedDocument`; a file that cannot be read comes back with
        ``error`` set (never raised). An e-mail's attachments come back in
        ``attachments``, each prepared as a document of its own.
    """
    prepared = PreparedDocument(doc_id=doc_id, path=path, root=root, size=size, mtime=mtime)
    try:
        parsed = parse_file(path, ocr=ocr)
    except IngestError as exc:
        prepared.error = FileError(path=str(path), reason=exc.reason, page=exc.page)
        return prepared
    except Exception as exc:  # noqa: BLE001 - a parser's own bug fails this file, never the whole run
        log.exception("%s: unexpected error while reading", path)
        prepared.error = FileError(path=str(path), reason=f"could not be read ({type(exc).__name__}: {exc})")
        return prepared
    changed = _changed_while_read(path, size, mtime)
    if changed:
        prepared.error = FileError(path=str(path), reason=changed)
        return prepared
    prepared.sha256, prepared.kind, prepared.pages = parsed.sha256, parsed.kind, len(parsed.pages)
    prepared.warnings = list(parsed.warnings)
    if known_sha256 is not None and known_sha256 == parsed.sha256:
        prepared.unchanged = True
        return prepared
    _chunk_and_screen(prepared, parsed, chunk_tokens, overlap_tokens)
    for member in parsed.all_documents()[1:]:
        # an e-mail's attachments are documents of their own, kept and removed with their message
        part = PreparedDocument(doc_id=attachment_doc_id(doc_id, member.name), path=member.path, root=root,
                                size=size, mtime=mtime, sha256=member.sha256, kind=member.kind,
                                pages=len(member.pages))
        _chunk_and_screen(part, member, chunk_tokens, overlap_tokens)
        prepared.attachments.append(part)
    prepared.attachment_ids = [a.doc_id for a in prepared.attachments]
    return prepared


def _changed_while_read(path: Path, size: int, mtime: float) -> str | None:
    """Why the file read is not the one the run found (``None`` when it is): deleted, renamed or replaced
    while it was being read. Its chunks would mix two versions, so it is not committed; the document keeps
    its indexed version and the next run reads it again."""
    if ATTACHMENT_SEP in str(path) and not path.exists():
        return None  # a member path (attachment): its message was checked
    try:
        st = path.stat()
    except FileNotFoundError:
        return "deleted or renamed while it was being read; the next run reads what is there then"
    except OSError as exc:
        return f"could not be checked after reading ({exc.strerror})"
    if st.st_size != size or st.st_mtime != mtime:
        return "changed while it was being read; it will be read again on the next run"
    return None


def _chunk_and_screen(prepared: PreparedDocument, parsed, chunk_tokens: int, overlap_tokens: int) -> None:
    """Language, chunks and quarantine finding of one parsed document, into ``prepared``."""
    from core.quarantine import screen_document

    prepared.lang = detect_language(" ".join(p.text for p in parsed.pages[:5]))
    prepared.chunks = chunk_pages(
        prepared.doc_id, str(prepared.path), parsed.pages,
        chunk_tokens=chunk_tokens, overlap_tokens=overlap_tokens, lang=prepared.lang, title=parsed.title,
    )
    findings = screen_document(parsed)
    prepared.finding = findings[0].reason() if findings else None


class CommitBatches:
    """The run's pending :class:`DocumentWrite` batch, committed every ``commit_chunks`` chunks.

    A document that fits in one batch is never split across batches (a larger one
    comes in parts of ``commit_chunks`` chunks, each its own write); a moved
    document (no new chunks) joins the batch without counting.
    """

    def __init__(self, ws: WorkspaceHandle, commit_chunks: int) -> None:
        self.ws, self.commit_chunks = ws, commit_chunks
        self.writes: list[DocumentWrite] = []
        self.pending_chunks = 0

    def add(self, write: DocumentWrite, count: bool = True) -> None:
        """Queue one document (``count``: its chunks count toward the batch size)."""
        self.writes.append(write)
        if count:
            self.pending_chunks += len(write.chunks)

    def full(self, extra_chunks: int = 0) -> bool:
        """Whether the batch (plus ``extra_chunks`` about to join it) reaches ``commit_chunks``."""
        return bool(self.writes) and self.pending_chunks + extra_chunks >= self.commit_chunks

    def commit(self, done: int, total: int, removals: list[str] | None = None) -> ProgressEvent | None:
        """Commit the batch (and ``removals``) now; the ``committed`` event, or ``None`` if nothing was pending."""
        writes, self.writes, self.pending_chunks = self.writes, [], 0
        commit_batch(self.ws, writes, removals or [])
        return _committed(writes, done, total) if writes else None


#: ``body(ws, scan, report, batches, cancel)``: the part of a run that reads, embeds and queues documents.
RunBody = Callable[["WorkspaceHandle", IndexScan, IndexReport, CommitBatches, CancelCheck], Generator[ProgressEvent, None, None]]


def index_run(
    ws: WorkspaceHandle, folders: list[str | Path], cancel: CancelCheck | None = None
) -> Generator[ProgressEvent, None, IndexReport]:
    """The body of :meth:`core.store.Workspace.index` (see there): files prepared and embedded one by one here."""
    return (yield from run_indexing(ws, folders, _local_body, cancel))


def run_indexing(
    ws: WorkspaceHandle, folders: list[str | Path], body: RunBody, cancel: CancelCheck | None = None
) -> Generator[ProgressEvent, None, IndexReport]:
    """One indexing run around ``body``: the writer's side, whoever reads and embeds the files.

    Takes the writer locks, recovers, scans (:class:`IndexScan`), lets ``body``
    queue documents into :class:`CommitBatches`, then commits the rest with the
    removals of gone files, or — after :class:`Cancelled` — what was queued,
    keeping removals for a full run. Derived data (BM25) is brought up to date
    at the end whatever happened. Used by :func:`index_run` and by
    ``core.cluster`` (files prepared and embedded on a Ray cluster).

    Raises:
        IndexError_: a folder does not exist.
        WorkspaceBusyError: another process kept writing the workspace for ``WRITER_WAIT_S`` seconds.
    """
    t0 = time.perf_counter()
    cancel = cancel or (lambda: False)
    roots = [Path(f).expanduser().resolve() for f in folders]
    for root in roots:
        if not root.is_dir():
            raise IndexError_(f"{root}: not a folder")
    report = IndexReport(workspace=ws.name, folders=[str(r) for r in roots])
    # One writer at a time (window, CLI, Ray): the one that waits is told who writes; it gives up
    # after WRITER_WAIT_S with WorkspaceBusyError. Readers are never blocked (they read the last commit).
    try:
        busy = ws.writer_busy()
        if busy:
            yield ProgressEvent(stage="wait", message=busy)
        with ws._write_lock, ws._writer(wait_s=WRITER_WAIT_S):  # noqa: SLF001 - the run is part of the workspace
            if recovery_due(ws):
                recover(ws)
            ws.bm25.check()  # a damaged keyword index is rebuilt from the manifest (derived data)
            with ws.manifest.connect() as db:
                roots = register_folders(db, roots)  # labels: document ids that cannot collide (core.store.docids)
            yield ProgressEvent(stage="scan", message="Scanning folders")
            scan = _scan(ws, roots)
            report.failures += [FileError(path=str(p), reason=r) for p, r in scan.skipped]
            report.not_read = [FileError(path=str(p), reason=r) for p, r in scan.not_read]
            batches = CommitBatches(ws, ws.settings.index_commit_chunks)
            total = len(scan.files)
            failed = True
            try:
                yield from body(ws, scan, report, batches, cancel)
                report.removed = len(scan.gone)
                batches.commit(total, total, sorted(scan.gone))
                failed = False
            except Cancelled:
                batches.commit(total, total)  # what is embedded is kept; removals wait for a full run
                report.cancelled = True
                failed = False
            finally:
                # No yield here: a generator closed mid-run must still finish this.
                # Uncommitted writes (closed generator, error) are dropped: the next run redoes them.
                if not failed:
                    finish_run(ws)
                else:  # the run's own error is the one to report (a full disk fails this too)
                    try:
                        finish_run(ws)
                    except Exception:  # noqa: BLE001 - derived data catches up on the next open or run
                        log.exception("workspace %s: finishing a failed run failed too", ws.name)
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        # Disk full, read-only data folder: said in words; the commit protocol kept the last commit.
        err = storage_error(ws.name, str(ws.dir), exc)
        if err is None:
            raise
        raise err from exc
    report.total_chunks = ws.chunk_count()
    report.partial = partial_documents(ws, {str(r) for r in roots})
    report.seconds = round(time.perf_counter() - t0, 3)
    yield ProgressEvent(stage="done", done=total, total=total, message="Done")
    return report


def settle_prepared(ws: WorkspaceHandle, report: IndexReport, prepared: PreparedDocument) -> bool:
    """Record what a prepared file says before embedding; True when its chunks must be embedded and written.

    A read failure is recorded (report and manifest) and keeps the document's
    indexed chunks; unreadable pages go to ``report.failures``; same bytes as
    indexed only updates size and mtime (``report.unchanged``).
    """
    path = prepared.path
    if prepared.error is not None:
        report.failures.append(prepared.error)
        ws.manifest.record_failure(path, prepared.root, prepared.error.reason, prepared.error.page)
        return False
    # pages that could not be read (e.g. scanned, no OCR) while the rest indexes
    report.failures += [FileError(path=str(path), reason=r, page=pg) for pg, r in prepared.warnings]
    if prepared.unchanged:
        with ws.manifest.connect() as db:
            db.execute("UPDATE documents SET size=?, mtime=? WHERE doc_id=?",
                       (prepared.size, prepared.mtime, prepared.doc_id))
        report.unchanged += 1
        ws.manifest.clear_failure(path)
        return False
    return True


def document_write(
    ws: WorkspaceHandle, report: IndexReport, prepared: PreparedDocument, vectors: list[list[float]]
) -> DocumentWrite:
    """The :class:`DocumentWrite` of a prepared, embedded document (``vectors[i]`` embeds ``chunks[i]``).

    Sets the quarantine status from the screen's finding and the manifest's
    releases (:func:`_screened_status`) and counts the document in ``report``.

    Raises:
        ValueError: not one vector per chunk.
    """
    if len(vectors) != len(prepared.chunks):
        raise ValueError(f"{prepared.path}: {len(vectors)} vectors for {len(prepared.chunks)} chunks")
    report.documents += 1
    report.pages += prepared.pages
    report.chunks += len(prepared.chunks)
    return DocumentWrite(
        doc_id=prepared.doc_id, path=prepared.path, root=prepared.root, size=prepared.size, mtime=prepared.mtime,
        sha256=prepared.sha256, kind=prepared.kind, lang=prepared.lang, pages=prepared.pages,
        chunks=prepared.chunks, vectors=vectors,
        screened=_screened_status(ws, prepared.doc_id, prepared.sha256, prepared.finding),
    )


#: Held while a file is parsed by an indexing run or its read-ahead thread: a read-ahead that was
#: dropped (its file changed, or the run stopped and another began) may still be parsing, and
#: PyMuPDF does not support two threads parsing at once (its documentation, "Multithreading").
#: Parsing never overlaps parsing; it still overlaps embedding, which is what reading ahead is for.
_PARSING = threading.Lock()


def _prepare_locked(
    ws: WorkspaceHandle, path: Path, doc_id: str, root: Path, size: int, mtime: float, known: str | None
) -> PreparedDocument:
    """:func:`prepare_document` with the workspace's chunk settings, holding :data:`_PARSING`
    (the run's own read and the read-ahead thread's are the same call)."""
    with _PARSING:
        return prepare_document(
            path, doc_id, root, size, mtime, chunk_tokens=ws.settings.chunk_tokens,
            overlap_tokens=ws.settings.chunk_overlap_tokens, known_sha256=known,
        )


class _NextFile:
    """The parsing of the next file to read, in one background thread while this one is embedded.

    Embedding runs in OpenVINO's or PyTorch's own threads without Python's GIL, parsing and
    chunking mostly in Python: on two cores one overlaps the other (bench/README.md,
    2026-12-02). Speculative and read-only: the file is chosen by the same cheap look as
    :func:`triage_file` (a file unchanged by size and mtime, or that may be a moved document,
    is never read ahead), :func:`prepare_document` needs no workspace, and the result is used
    only when the run's own :func:`triage_file` of that file gives the same size and mtime
    (anything else is dropped and the file is read again in the run's order). Failures stay per
    file (:func:`prepare_document` never raises); a run that stops (cancel, error) does not wait
    for a file being read ahead.
    """

    def __init__(self, ws: WorkspaceHandle, scan: IndexScan) -> None:
        self.ws, self.scan = ws, scan
        self._key: tuple | None = None
        self._future: Future | None = None

    def start_after(self, i: int) -> None:
        """Start reading the first file after index ``i`` (0-based, in ``scan.files``) that the
        run will have to read, if any."""
        files = self.scan.files
        for j in range(i + 1, len(files)):
            path, doc_id, root = files[j]
            try:
                st = path.stat()
            except OSError:
                continue  # the run records it
            look = cheap_look(self.scan, doc_id, st)
            if look == "unchanged":
                continue  # triage_file skips it
            if look == "maybe_moved":
                return  # triage_file decides, the file is read in order
            prev = self.scan.known.get(doc_id)
            known = prev[2] if prev else None
            future: Future = Future()

            def read(path=path, doc_id=doc_id, root=root, st=st, known=known, future=future) -> None:
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    future.set_result(_prepare_locked(self.ws, path, doc_id, root, st.st_size, st.st_mtime, known))
                except BaseException as exc:  # noqa: BLE001 - handed to the run, which re-raises it
                    future.set_exception(exc)

            self._key, self._future = (j, st.st_size, st.st_mtime, known), future
            # a daemon thread, not an executor's: a process that stops (Ctrl+C) never waits for a file read ahead
            threading.Thread(target=read, name="verbatim-read-ahead", daemon=True).start()
            return

    def take(self, i: int, size: int, mtime: float, known: str | None) -> PreparedDocument | None:
        """The file at index ``i`` read ahead, when it was read with this size, mtime and indexed
        sha256; else ``None`` (what was read ahead, if anything, is dropped)."""
        future, key = self._future, self._key
        self._future = self._key = None
        if future is None:
            return None
        if key != (i, size, mtime, known):
            future.cancel()
            return None
        return future.result()

    def close(self) -> None:
        """Drop what is being read ahead; returns without waiting for it."""
        if self._future is not None:
            self._future.cancel()
        self._future = self._key = None


def _local_body(
    ws: WorkspaceHandle, scan: IndexScan, report: IndexReport, batches: CommitBatches, cancel: CancelCheck
) -> Generator[ProgressEvent, None, None]:
    """Files read and embedded in this process: the next file is read (parsed, chunked) ahead while
    this one is embedded (:class:`_NextFile`); triage, embedding and commits stay in file order."""
    ahead = _NextFile(ws, scan)
    try:
        yield from _local_files(ws, scan, report, batches, cancel, ahead)
    finally:
        ahead.close()


def _local_files(
    ws: WorkspaceHandle, scan: IndexScan, report: IndexReport, batches: CommitBatches, cancel: CancelCheck,
    ahead: _NextFile,
) -> Generator[ProgressEvent, None, None]:
    files, total = scan.files, len(scan.files)
    for i, (path, doc_id, root) in enumerate(files):
        if cancel():
            raise Cancelled()
        yield ProgressEvent(stage="index", done=i, total=total, message=str(path.name), item=doc_id)
        st = triage_file(ws, scan, report, path, doc_id, root)
        if st is None:
            continue
        if isinstance(st, DocumentWrite):
            batches.add(st, count=False)
            continue
        prev = scan.known.get(doc_id)
        known = prev[2] if prev else None
        prepared = ahead.take(i, st.st_size, st.st_mtime, known)
        if prepared is None:  # after a dropped read-ahead, this waits until it stops parsing
            prepared = _prepare_locked(ws, path, doc_id, root, st.st_size, st.st_mtime, known)
        if READ_AHEAD:
            ahead.start_after(i)
        if not settle_prepared(ws, report, prepared):
            continue
        forget_stale_attachments(scan, prepared)
        for part in [prepared, *prepared.attachments]:
            chunks = part.chunks
            resume_at = resume_point(ws, scan, part)
            if resume_at or len(chunks) > batches.commit_chunks:
                yield from _embed_in_parts(ws, report, batches, part, resume_at, i, total, cancel)
                continue
            if batches.writes and batches.pending_chunks + len(chunks) > batches.commit_chunks:
                # A big document starts its own batch: the documents before it are
                # committed now, not after its (possibly long) embedding (tester,
                # session 3: a run killed inside a 5 MB file had kept nothing).
                event = batches.commit(i, total)
                if event is not None:
                    yield event
            name = display_name(part.path)
            vectors: list[list[float]] = []
            for done, vectors in _embed_by_length(chunks, cancel):
                yield ProgressEvent(stage="embed", done=i, total=total, message=f"{name}: {done}/{len(chunks)} chunks",
                                    item=part.doc_id)
            batches.add(document_write(ws, report, part, vectors))
        if batches.full():
            event = batches.commit(i + 1, total)
            if event is not None:
                yield event


def _embed_by_length(chunks: list, cancel: CancelCheck) -> Generator[tuple[int, list[list[float]]], None, None]:
    """Embed ``chunks`` in calls of ``EMBED_BATCH``, the chunks sorted by length (characters of
    their embedding text) across the whole list so that a call pads its texts less; yields
    ``(chunks embedded so far, vectors)`` after each call, ``vectors[k]`` embedding ``chunks[k]``
    once all are done (unembedded ones are empty lists until then).

    Raises:
        Cancelled: ``cancel()`` said so before a call.
    """
    texts = [c.embedding_text() for c in chunks]
    order = sorted(range(len(texts)), key=lambda k: len(texts[k]))
    vectors: list[list[float]] = [[] for _ in texts]
    if not texts:
        return
    embedder = get_embedder()
    for b in range(0, len(order), EMBED_BATCH):
        if cancel():
            raise Cancelled()
        idx = order[b:b + EMBED_BATCH]
        for k, vec in zip(idx, embedder.get_text_embedding_batch([texts[k] for k in idx]), strict=True):
            vectors[k] = vec
        yield min(b + EMBED_BATCH, len(order)), vectors


def _embed_in_parts(
    ws: WorkspaceHandle, report: IndexReport, batches: CommitBatches, part: PreparedDocument, resume_at: int,
    i: int, total: int, cancel: CancelCheck,
) -> Generator[ProgressEvent, None, None]:
    """Embed and commit a document larger than one commit batch in parts, from chunk ``resume_at`` (0-based).

    Each part of ``batches.commit_chunks`` chunks is committed as soon as it is
    embedded (:class:`~core.store.writes.DocumentWrite`, "Parts"), so a run
    stopped inside the file keeps what it embedded: on cancel (:class:`Cancelled`,
    the CLI's first Ctrl+C) the chunks embedded since the last part are queued
    as one more part and committed by the run; a kill loses at most one part.
    The next run goes on from the committed chunks (:func:`resume_point`).
    """
    event = batches.commit(i, total) if batches.writes else None  # the documents before it are kept first
    if event is not None:
        yield event
    chunks, n, name = part.chunks, len(part.chunks), display_name(part.path)
    if resume_at:
        report.resumed += 1
        log.info("%s: going on from chunk %d of %d committed by an earlier run", part.doc_id, resume_at, n)
        yield ProgressEvent(stage="embed", done=i, total=total, message=f"{name}: {resume_at}/{n} chunks",
                            item=part.doc_id)
    embedder = get_embedder()
    start = resume_at
    while start < n:
        end = min(start + batches.commit_chunks, n)
        vectors: list[list[float]] = []
        try:
            for b in range(start, end, EMBED_BATCH):
                if cancel():
                    raise Cancelled()
                batch = chunks[b : min(b + EMBED_BATCH, end)]
                vectors += embedder.get_text_embedding_batch([c.embedding_text() for c in batch])
                yield ProgressEvent(stage="embed", done=i, total=total, message=f"{name}: {b + len(batch)}/{n} chunks",
                                    item=part.doc_id)
        except Cancelled:
            if vectors:  # what is embedded is kept: the run commits it before it stops
                batches.add(document_part(ws, report, part, vectors, start))
            raise
        batches.add(document_part(ws, report, part, vectors, start))
        start = end
        if batches.full():
            event = batches.commit(i + 1 if start >= n else i, total)
            if event is not None:
                yield event


def document_part(
    ws: WorkspaceHandle, report: IndexReport, prepared: PreparedDocument, vectors: list[list[float]], first: int
) -> DocumentWrite:
    """The :class:`DocumentWrite` of one part of a document committed in parts: its chunks
    ``first … first + len(vectors) - 1`` (0-based), ``vectors[i]`` embedding chunk ``first + i``.

    Counts the part's chunks in ``report.chunks``, and the document (with its pages) once its last part is made.
    """
    end = first + len(vectors)
    chunks = prepared.chunks[first:end]
    report.chunks += len(chunks)
    if end >= len(prepared.chunks):
        report.documents += 1
        report.pages += prepared.pages
    return DocumentWrite(
        doc_id=prepared.doc_id, path=prepared.path, root=prepared.root, size=prepared.size, mtime=prepared.mtime,
        sha256=prepared.sha256, kind=prepared.kind, lang=prepared.lang, pages=prepared.pages,
        chunks=chunks, vectors=vectors, first=first, total=len(prepared.chunks),
        profile_chunks=prepared.chunks[:end],
        screened=_screened_status(ws, prepared.doc_id, prepared.sha256, prepared.finding),
    )


def _committed(writes: list[DocumentWrite], done: int, total: int) -> ProgressEvent:
    """The progress event after a batch commit: the manifest now holds these documents (the window shows them)."""
    return ProgressEvent(stage="committed", done=done, total=total, message=f"{len(writes)} documents committed",
                         item=writes[-1].doc_id if writes else "")


def _screened_status(ws: WorkspaceHandle, doc_id: str, sha256: str, finding: str | None) -> tuple[str, str] | None:
    """Status to store for newly parsed content: quarantine unless released for this hash.

    ``finding``: the screen's first finding's reason, or ``None`` (:func:`prepare_document`).
    Returns ``(status, reason)`` to set, or ``None`` to keep the stored status.
    """
    from core.quarantine import DETECTOR_PREFIX

    row, released = ws.manifest.status_and_release(doc_id, sha256)
    if finding and not released:
        return "quarantined", finding
    if not finding and row is not None and row[0] == "quarantined" and row[1].startswith(DETECTOR_PREFIX):
        return "active", ""  # the content that was flagged is gone
    return None
