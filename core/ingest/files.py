"""Entry points: parse a file (or an attachment's bytes), re-extract one page, highlight, render.

A *member path* (``/x/message.eml › Anexo_I.pdf``, :data:`core.ingest.base.ATTACHMENT_SEP`)
names a document carried inside a file; every function here accepts one where it
accepts a path, and :func:`open_member` reads its bytes back from the container.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from core.errors import IngestError
from core.ingest.base import (
    ATTACHMENT_SEP,
    DOCX_SUFFIXES,
    EMAIL_SUFFIXES,
    HTML_SUFFIXES,
    IMAGE_SUFFIXES,
    MSG_SUFFIXES,
    ODT_SUFFIXES,
    PDF_SUFFIXES,
    PPTX_SUFFIXES,
    RTF_SUFFIXES,
    TEXT_SUFFIXES,
    XLSX_SUFFIXES,
    PageText,
    ParsedDocument,
    file_sha256,
    not_read_reason,
)
from core.ingest.ocr import tessdata_dir
from core.types import Rect


def _ocr_setting(ocr: bool | None) -> bool:
    if ocr is None:
        from core.settings import Settings

        return Settings().ocr_enabled
    return ocr


def is_member(path: str | Path) -> bool:
    """True if ``path`` names a document inside a file (an attachment), not a file on disk."""
    s = str(path)
    return ATTACHMENT_SEP in s and not os.path.exists(s)


def open_member(path: str | Path) -> bytes:
    """The bytes of the document a member path names (``a.eml › b.eml › c.pdf``: c.pdf inside b.eml inside a.eml).

    Raises:
        IngestError: the container is missing or unreadable, or no longer holds the attachment.
    """
    from core.ingest.email import attachments, read_message

    head, *names = str(path).split(ATTACHMENT_SEP)
    try:
        data = Path(head).read_bytes()
    except OSError as exc:
        raise IngestError(str(path), f"file could not be read ({exc.strerror})") from exc
    container = head
    for name in names:
        if container.lower().endswith(".msg"):
            from core.ingest.msg import msg_attachments

            found = dict(msg_attachments(data, head))
        else:
            found = {n: d for n, d, _ in attachments(read_message(data, head))}
        container = name
        if found.get(name) is None:
            raise IngestError(str(path), f"the message no longer holds the attachment {name}")
        data = found[name]  # type: ignore[assignment]
    return data


def _parse_other(path: Path, data: bytes | None, *, ocr: bool, depth: int = 0) -> ParsedDocument:
    """The readers of :mod:`core.ingest.office`, :mod:`core.ingest.msg` and :mod:`core.ingest.image`
    (``data``: the bytes of an attachment, else the file is read).

    Raises:
        IngestError: unreadable, or a suffix no reader takes (the reason says why, see
            :func:`core.ingest.base.not_read_reason`).
    """
    suffix = path.suffix.lower()
    if suffix in ODT_SUFFIXES:
        from core.ingest.office import parse_odt

        return parse_odt(path, data=data)
    if suffix in RTF_SUFFIXES:
        from core.ingest.office import parse_rtf

        return parse_rtf(path, data=data)
    if suffix in XLSX_SUFFIXES:
        from core.ingest.office import parse_xlsx

        return parse_xlsx(path, data=data)
    if suffix in PPTX_SUFFIXES:
        from core.ingest.office import parse_pptx

        return parse_pptx(path, data=data)
    if suffix in MSG_SUFFIXES:
        from core.ingest.msg import parse_msg

        return parse_msg(path, data=data, ocr=ocr, depth=depth)
    if suffix in IMAGE_SUFFIXES:
        from core.ingest.image import parse_image

        return parse_image(path, data=data, ocr=ocr)
    raise IngestError(str(path), not_read_reason(path.name) or f"unsupported file type '{suffix}'")


def parse_bytes(path: Path, data: bytes, *, ocr: bool = False, depth: int = 0) -> ParsedDocument:
    """Parse a document given as bytes (an attachment), ``path`` being its member path.

    Raises:
        IngestError: the bytes cannot be read as the type ``path``'s suffix names.
    """
    from core.ingest.docx import parse_docx
    from core.ingest.email import parse_email
    from core.ingest.html import parse_html
    from core.ingest.pdf import parse_pdf
    from core.ingest.text import decode_text, text_blocks

    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        parsed = parse_pdf(path, ocr=ocr, data=data)
    elif suffix in TEXT_SUFFIXES:
        if not data.strip():
            raise IngestError(str(path), "empty file")
        text = decode_text(data, path)
        page = PageText(page=1, text=text, blocks=text_blocks(text, markdown=suffix not in {".txt", ".text"}))
        parsed = ParsedDocument(path, "", [page], "text", title=path.name)
    elif suffix in DOCX_SUFFIXES:
        parsed = parse_docx(path, data=data)
    elif suffix in HTML_SUFFIXES:
        parsed = parse_html(path, data=data)
    elif suffix in EMAIL_SUFFIXES:
        parsed = parse_email(path, data=data, ocr=ocr, depth=depth)
    else:
        parsed = _parse_other(path, data, ocr=ocr, depth=depth)
    parsed.sha256 = hashlib.sha256(data).hexdigest()
    return parsed


def parse_file(path: Path, *, ocr: bool | None = None) -> ParsedDocument:
    """Parse one supported file (or member path) into pages; an e-mail's attachments come in ``attachments``.

    Args:
        ocr: allow OCR of scanned or garbled PDF pages; ``None`` reads ``Settings().ocr_enabled``
            (environment ``VERBATIM_OCR_ENABLED``).

    Raises:
        IngestError: the file cannot be read; the message names it and says why.
    """
    path = Path(path)
    ocr = _ocr_setting(ocr)
    if is_member(path):
        return parse_bytes(path, open_member(path), ocr=ocr)
    try:
        digest = file_sha256(path)
    except FileNotFoundError as exc:
        raise IngestError(str(path), "file disappeared while indexing") from exc
    except PermissionError as exc:
        raise IngestError(str(path), "no permission to read the file") from exc
    except IsADirectoryError as exc:
        raise IngestError(str(path), "is a folder, not a file") from exc
    except OSError as exc:
        raise IngestError(str(path), f"file could not be read ({exc.strerror})") from exc
    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        from core.ingest.pdf import parse_pdf

        parsed = parse_pdf(path, ocr=ocr)
    elif suffix in TEXT_SUFFIXES:
        from core.ingest.text import read_text_file, text_blocks

        text = read_text_file(path)
        page = PageText(page=1, text=text, blocks=text_blocks(text, markdown=suffix not in {".txt", ".text"}))
        parsed = ParsedDocument(path, "", [page], "text", title=path.name)
    elif suffix in DOCX_SUFFIXES:
        from core.ingest.docx import parse_docx

        parsed = parse_docx(path)
    elif suffix in HTML_SUFFIXES:
        from core.ingest.html import parse_html

        parsed = parse_html(path)
    elif suffix in EMAIL_SUFFIXES:
        from core.ingest.email import parse_email

        parsed = parse_email(path, ocr=ocr)
    else:
        parsed = _parse_other(path, None, ocr=ocr)
    parsed.sha256 = digest
    return parsed


def open_pdf_document(path: str | Path) -> pymupdf.Document:
    """A PyMuPDF document for a PDF file or a PDF member path (use as a context manager).

    Raises:
        IngestError: the file or attachment cannot be opened.
    """
    try:
        if is_member(path):
            return pymupdf.open(stream=open_member(path), filetype="pdf")
        return pymupdf.open(path)
    except IngestError:
        raise
    except Exception as exc:
        raise IngestError(str(path), f"not a readable PDF ({exc})") from exc


def rects_for_span(boxes: list, start: int, end: int) -> list[Rect]:
    """Union of character boxes in ``[start, end)``, one rectangle per text line (PDF points).

    Lines are the extractor's lines, numbered per page; lines of different
    columns have different numbers, so a rectangle never spans a column gap.
    """
    per_line: dict[int, list[float]] = {}
    order: list[int] = []
    for box in boxes[start:end]:
        if box is None:
            continue
        x0, y0, x1, y1, line = box
        if line not in per_line:
            per_line[line] = [x0, y0, x1, y1]
            order.append(line)
        else:
            r = per_line[line]
            r[0], r[1], r[2], r[3] = min(r[0], x0), min(r[1], y0), max(r[2], x1), max(r[3], y1)
    return [tuple(round(v, 2) for v in per_line[line]) for line in order]  # type: ignore[misc]


def page_text(path: str | Path, page: int, *, ocr: bool | None = None) -> PageText | None:
    """The page text (with boxes for PDFs) of 1-based ``page``, re-extracted; ``None`` if unreadable.

    A page that needed OCR is OCRed again (deterministic for the same Tesseract data).
    Same text as :func:`parse_file` gave for that page, so stored offsets apply.
    """
    path = Path(path)
    try:
        if path.suffix.lower() in PDF_SUFFIXES:
            from core.ingest.pdf import extract_page

            with open_pdf_document(path) as doc:
                pg = doc.load_page(page - 1)
                result, problem = extract_page(pg, tessdata=None)
                if problem and _ocr_setting(ocr):
                    result, _ = extract_page(pg, tessdata=tessdata_dir(), confidence=False)
                return result
        parsed = parse_file(path, ocr=False)
        return parsed.pages[page - 1] if 0 < page <= len(parsed.pages) else None
    except Exception:
        return None


def span_rects(path: str | Path, page: int, start: int, end: int) -> list[Rect]:
    """Rectangles (PDF points of the displayed page, one per line) of span ``[start, end)`` on 1-based ``page``.

    Returns an empty list for non-PDF files or when the page cannot be read.
    """
    path = Path(path)
    if path.suffix.lower() not in PDF_SUFFIXES:
        return []
    pt = page_text(path, page)
    return rects_for_span(pt.boxes, start, end) if pt else []


def span_rects_cached() -> Callable[[object, int, int], list[Rect]]:
    """A ``rects(chunk, start, end)`` for one answer's citations: :func:`span_rects` with each page's
    text and boxes extracted once (a dense page's ``rawdict`` costs up to 75 ms, and an answer
    cites the same page several times; a streamed answer verifies claim by claim). ``chunk.page``
    is the page of the span (see ``core.verify.RectsFn``)."""
    pages: dict[tuple[str, int], PageText | None] = {}

    def rects(chunk, start: int, end: int) -> list[Rect]:
        if Path(chunk.path).suffix.lower() not in PDF_SUFFIXES:
            return []
        key = (chunk.path, chunk.page)
        if key not in pages:
            pages[key] = page_text(chunk.path, chunk.page)
        pt = pages[key]
        return rects_for_span(pt.boxes, start, end) if pt else []

    return rects


def render_page_png(path: str | Path, page: int, rects: list[Rect], zoom: float = 2.0) -> bytes:
    """Render 1-based ``page`` of a PDF to PNG bytes with ``rects`` (displayed-page points) highlighted.

    Args:
        zoom: scale factor; 1.0 = 72 dpi (one pixel per PDF point).

    Raises:
        IngestError: the file or page cannot be opened.
    """
    try:
        with open_pdf_document(path) as doc:
            pg = doc.load_page(page - 1)
            shape = pg.new_shape()
            for r in rects:
                # Drawing happens in the unrotated page space; rects are in the displayed one.
                shape.draw_rect(pymupdf.Rect(r) * pg.derotation_matrix if pg.rotation else pymupdf.Rect(r))
            shape.finish(color=(0.9, 0.6, 0.0), fill=(1.0, 0.85, 0.0), fill_opacity=0.35, width=0.8)
            shape.commit()
            pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            return pix.tobytes("png")
    except Exception as exc:
        raise IngestError(str(path), f"page could not be rendered ({exc})", page=page) from exc


# --- discovery: the files under the added folders, never outside them -------------------------

#: Reasons a link is not followed (the index report and the window name the link with one of these).
LINK_OUTSIDE = "not followed: link to outside the folder"
LINK_LOOP = "not followed: link loop (it points to a folder that contains it)"
LINK_BROKEN = "not followed: broken link (its target does not exist)"


@dataclass
class FolderWalk:
    """What :func:`walk_folders` found.

    Attributes:
        files: ``(path, root)`` of every supported file, in visiting order (each
            root's files sorted, a folder's files before its sub-folders); ``path``
            as reached under ``root`` (through a followed link it keeps the link's name).
        skipped: ``(link path, reason)`` of every link not followed (reasons
            :data:`LINK_OUTSIDE`, :data:`LINK_LOOP`, :data:`LINK_BROKEN`).
    """

    files: list[tuple[Path, Path]] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    #: ``(path, reason)`` of files left unread on purpose (:func:`core.ingest.base.not_read_reason`:
    #: partial downloads, Office temporary and lock files, formats no reader takes).
    not_read: list[tuple[Path, str]] = field(default_factory=list)
    #: (device, inode) of the folders and files already visited (so a walk can continue another).
    seen_dirs: set[tuple[int, int]] = field(default_factory=set, repr=False)
    seen_files: set[tuple[int, int]] = field(default_factory=set, repr=False)


def _within(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` (resolved) is one of ``folders`` (resolved) or lies inside one."""
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def _is_link(entry: os.DirEntry) -> bool:
    """A symbolic link, or (Windows, Python ≥ 3.12) a junction: both can lead out of the folder."""
    is_junction = getattr(entry, "is_junction", None)
    return entry.is_symlink() or bool(is_junction and is_junction())


def _hidden(name: str) -> bool:
    return name.startswith(".")


def walk_folders(
    roots: Sequence[Path], *, inside: Sequence[Path] = (), prune: Sequence[Path] = (), follow_links: bool = False,
    into: FolderWalk | None = None,
) -> FolderWalk:
    """The supported files under ``roots``, reading nothing outside them unless ``follow_links``.

    Folders are boundaries (issue #22, case B50): a symbolic link or junction whose
    target lies outside ``roots`` and ``inside`` is *not followed* and is named in
    :attr:`FolderWalk.skipped`; a link to a place inside them is not followed either,
    because that place is read at its own path (so a file is read once); a link to a
    folder containing it (a loop) and a link to nothing (broken) are named, never
    fatal. With ``follow_links`` an outside target is read as if it were under the
    link, each real folder and file once (by device and inode), so loops end.
    Hidden names (``.x``) and Office lock files (``~$x``) are skipped; a folder that
    cannot be listed is skipped silently, as ``os.walk`` does.

    Args:
        roots: folders to walk, resolved (no link in their path), in order; a folder or
            file already reached from an earlier root is not visited again.
        inside: further folders counted as inside (the workspace's other folders).
        prune: folders not to enter (owned by another root of the workspace).
        follow_links: follow links whose target lies outside (setting ``follow_links``).
        into: a walk to continue (its files, names and visited folders and files are kept
            and added to); a new one when ``None``.

    Returns:
        ``into`` or a new :class:`FolderWalk`.
    """
    from core.ingest.base import SUPPORTED_SUFFIXES, not_read_reason

    bounds = [os.path.realpath(p) for p in [*roots, *inside]]
    pruned = {os.path.realpath(p) for p in prune}
    out = into if into is not None else FolderWalk()
    seen_dirs, seen_files = out.seen_dirs, out.seen_files
    for root in roots:
        root = Path(root)
        stack: list[Path] = [root]
        while stack:
            folder = stack.pop()
            try:
                st = os.stat(folder)
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in seen_dirs:
                continue
            seen_dirs.add((st.st_dev, st.st_ino))
            subdirs: list[Path] = []
            for entry in entries:
                if _hidden(entry.name):
                    reason = not_read_reason(entry.name)  # "" for system files; a LibreOffice lock is named
                    if reason and entry.is_file(follow_symlinks=False):
                        out.not_read.append((Path(entry.path), reason))
                    continue
                path = Path(entry.path)
                try:
                    if _is_link(entry):
                        target = os.path.realpath(entry.path)
                        if not os.path.exists(target):
                            out.skipped.append((path, LINK_BROKEN))
                            continue
                        is_dir = os.path.isdir(target)
                        if not is_dir and Path(entry.name).suffix.lower() not in SUPPORTED_SUFFIXES:
                            continue  # a link to a file no reader takes: nothing would be read anyway
                        if _within(target, bounds):
                            if is_dir and _within(os.path.realpath(folder), [target]):
                                out.skipped.append((path, LINK_LOOP))
                            continue  # else read once, at its own place
                        if not follow_links:
                            out.skipped.append((path, LINK_OUTSIDE))
                            continue
                        if is_dir:
                            subdirs.append(path)
                            continue
                        tst = os.stat(target)
                    elif entry.is_dir(follow_symlinks=False):
                        if os.path.realpath(entry.path) not in pruned:
                            subdirs.append(path)
                        continue
                    elif entry.is_file(follow_symlinks=False):
                        reason = not_read_reason(entry.name)
                        if reason is not None:
                            if reason:
                                out.not_read.append((path, reason))
                            continue
                        tst = None  # the inode comes with the folder listing on POSIX (no stat)
                    else:
                        continue  # sockets, fifos, devices
                except OSError:
                    continue
                key = (tst.st_dev, tst.st_ino) if tst is not None else (st.st_dev, entry.inode())
                if key in seen_files:
                    continue
                seen_files.add(key)
                out.files.append((path, root))
            stack.extend(reversed(subdirs))
    return out
