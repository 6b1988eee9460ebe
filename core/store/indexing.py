"""An incremental indexing run: scan, parse, chunk, screen, embed, commit in batches.

The run decides *what* changed (size/mtime, then sha256; moves by content) and
prepares :class:`~core.store.commit.DocumentWrite` batches; committing them is
:mod:`core.store.commit`'s job.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING

from core.chunking import chunk_pages
from core.errors import Cancelled, IndexError_, IngestError
from core.ingest import file_sha256, iter_files, parse_file
from core.store.commit import DocumentWrite, commit_batch, finish_run, recover
from core.store.embedding import EMBED_BATCH, get_embedder
from core.textproc import detect_language
from core.types import FileError, IndexReport, ProgressEvent

if TYPE_CHECKING:
    from core.store.workspace import Workspace

CancelCheck = Callable[[], bool]


def index_run(
    ws: Workspace, folders: list[str | Path], cancel: CancelCheck | None = None
) -> Generator[ProgressEvent, None, IndexReport]:
    """The body of :meth:`core.store.Workspace.index` (see there)."""
    t0 = time.perf_counter()
    cancel = cancel or (lambda: False)
    roots = [Path(f).expanduser().resolve() for f in folders]
    for root in roots:
        if not root.is_dir():
            raise IndexError_(f"{root}: not a folder")
    report = IndexReport(workspace=ws.name, folders=[str(r) for r in roots])
    commit_chunks = ws.settings.index_commit_chunks
    # Waits a little: another process opening the workspace holds the lock while it recovers.
    with ws._write_lock, ws._writer(wait_s=30):  # noqa: SLF001 - the run is part of the workspace
        recover(ws)
        with ws.manifest.connect() as db:
            db.executemany("INSERT OR IGNORE INTO folders VALUES (?)", [(str(r),) for r in roots])
        yield ProgressEvent(stage="scan", message="Scanning folders")
        files: list[tuple[Path, str, Path]] = []
        for root in roots:
            for path in iter_files(root):
                files.append((path, f"{root.name}/{path.relative_to(root).as_posix()}", root))
        with ws.manifest.connect() as db:
            known = {
                r[0]: r[1:]
                for r in db.execute("SELECT doc_id, size, mtime, sha256, folder FROM documents")
            }
        on_disk = {doc_id for _, doc_id, _ in files}
        root_names = {str(r) for r in roots}
        gone = {d: v for d, v in known.items() if d not in on_disk and v[3] in root_names}
        gone_by_sha = {v[2]: d for d, v in gone.items()}
        gone_sizes = {v[0] for v in gone.values()}
        writes: list[DocumentWrite] = []
        pending_chunks = 0
        try:
            for i, (path, doc_id, root) in enumerate(files):
                if cancel():
                    raise Cancelled()
                yield ProgressEvent(stage="index", done=i, total=len(files), message=str(path.name), item=doc_id)
                try:
                    st = path.stat()
                except OSError as exc:
                    report.failures.append(FileError(path=str(path), reason=f"cannot read ({exc.strerror})"))
                    continue
                prev = known.get(doc_id)
                if prev and prev[0] == st.st_size and prev[1] == st.st_mtime:
                    report.unchanged += 1
                    ws.manifest.clear_failure(path)
                    continue
                if prev is None and st.st_size in gone_sizes:
                    moved = _moved_document(ws, path, doc_id, root, st, gone_by_sha)
                    if moved is not None:
                        gone.pop(moved.renamed_from, None)
                        writes.append(moved)
                        report.renamed += 1
                        continue
                try:
                    parsed = parse_file(path)
                except IngestError as exc:
                    report.failures.append(FileError(path=str(path), reason=exc.reason, page=exc.page))
                    ws.manifest.record_failure(path, root, exc.reason, exc.page)
                    continue
                # pages that could not be read (e.g. scanned, no OCR) while the rest indexes
                report.failures += [FileError(path=str(path), reason=r, page=pg) for pg, r in parsed.warnings]
                if prev and prev[2] == parsed.sha256:
                    with ws.manifest.connect() as db:
                        db.execute(
                            "UPDATE documents SET size=?, mtime=? WHERE doc_id=?", (st.st_size, st.st_mtime, doc_id)
                        )
                    report.unchanged += 1
                    ws.manifest.clear_failure(path)
                    continue
                lang = detect_language(" ".join(p.text for p in parsed.pages[:5]))
                chunks = chunk_pages(
                    doc_id, str(path), parsed.pages,
                    chunk_tokens=ws.settings.chunk_tokens, overlap_tokens=ws.settings.chunk_overlap_tokens,
                    lang=lang, title=parsed.title,
                )
                if writes and pending_chunks + len(chunks) > commit_chunks:
                    # A big document starts its own batch: the documents before it are
                    # committed now, not after its (possibly long) embedding (tester,
                    # session 3: a run killed inside a 5 MB file had kept nothing).
                    commit_batch(ws, writes, [])
                    yield _committed(writes, i, len(files))
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
                        item=doc_id,
                    )
                writes.append(DocumentWrite(
                    doc_id=doc_id, path=path, root=root, size=st.st_size, mtime=st.st_mtime,
                    sha256=parsed.sha256, kind=parsed.kind, lang=lang, pages=len(parsed.pages),
                    chunks=chunks, vectors=vectors, screened=_screened_status(ws, doc_id, parsed),
                ))
                report.documents += 1
                report.pages += len(parsed.pages)
                report.chunks += len(chunks)
                pending_chunks += len(chunks)
                if pending_chunks >= commit_chunks:
                    commit_batch(ws, writes, [])
                    yield _committed(writes, i + 1, len(files))
                    writes, pending_chunks = [], 0
            report.removed = len(gone)
            commit_batch(ws, writes, sorted(gone))
            writes = []
        except Cancelled:
            commit_batch(ws, writes, [])  # what is embedded is kept; removals wait for a full run
            writes = []
            report.cancelled = True
        finally:
            # No yield here: a generator closed mid-run must still finish this.
            # Uncommitted writes (closed generator, error) are dropped: the next run redoes them.
            finish_run(ws)
    report.total_chunks = ws.chunk_count()
    report.seconds = round(time.perf_counter() - t0, 3)
    yield ProgressEvent(stage="done", done=len(files), total=len(files), message="Done")
    return report


def _committed(writes: list[DocumentWrite], done: int, total: int) -> ProgressEvent:
    """The progress event after a batch commit: the manifest now holds these documents (the window shows them)."""
    return ProgressEvent(stage="committed", done=done, total=total, message=f"{len(writes)} documents committed",
                         item=writes[-1].doc_id if writes else "")


def _moved_document(
    ws: Workspace, path: Path, doc_id: str, root: Path, st: os.stat_result, gone_by_sha: dict[str, str]
) -> DocumentWrite | None:
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


def _screened_status(ws: Workspace, doc_id: str, parsed) -> tuple[str, str] | None:
    """Status to store for newly parsed content: quarantine unless released for this hash.

    Returns ``(status, reason)`` to set, or ``None`` to keep the stored status.
    """
    from core.quarantine import DETECTOR_PREFIX, screen_document

    row, released = ws.manifest.status_and_release(doc_id, parsed.sha256)
    findings = screen_document(parsed)
    if findings and not released:
        return "quarantined", findings[0].reason()
    if not findings and row is not None and row[0] == "quarantined" and row[1].startswith(DETECTOR_PREFIX):
        return "active", ""  # the content that was flagged is gone
    return None
