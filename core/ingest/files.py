"""Entry points: parse a file (or an attachment's bytes), re-extract one page, highlight, render.

A *member path* (``/x/message.eml › Anexo_I.pdf``, :data:`core.ingest.base.ATTACHMENT_SEP`)
names a document carried inside a file; every function here accepts one where it
accepts a path, and :func:`open_member` reads its bytes back from the container.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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
)
from core.ingest.ocr import tessdata_dir
from core.ingest.registry import Reader, parse_member, read_document, register_reader
from core.ingest.walk import LINK_BROKEN, LINK_LOOP, LINK_OUTSIDE, FolderWalk, iter_files, walk_folders
from core.types import Rect

__all__ = [  # the walk's names are re-exported: core.store.docids and tests import them from here
    "LINK_BROKEN", "LINK_LOOP", "LINK_OUTSIDE", "FolderWalk", "is_member", "iter_files", "open_member",
    "open_pdf_document", "page_text", "parse_bytes", "parse_file", "rects_for_span", "render_page_png", "span_rects",
    "span_rects_cached", "walk_folders",
]


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


# --- the dispatch: one reader per format (core.ingest.registry), each module imported when first used ----


def _read_pdf(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.pdf import parse_pdf

    return parse_pdf(path, ocr=ocr, data=data)


def _read_text(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.text import decode_text, read_text_file, text_blocks

    if data is None:
        text = read_text_file(path)
    elif not data.strip():
        raise IngestError(str(path), "empty file")
    else:
        text = decode_text(data, path)
    page = PageText(page=1, text=text, blocks=text_blocks(text, markdown=path.suffix.lower() not in {".txt", ".text"}))
    return ParsedDocument(path, "", [page], "text", title=path.name)


def _read_docx(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.docx import parse_docx

    return parse_docx(path, data=data)


def _read_html(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.html import parse_html

    return parse_html(path, data=data)


def _read_email(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.email import parse_email

    return parse_email(path, data=data, ocr=ocr, depth=depth)


def _read_msg(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.msg import parse_msg

    return parse_msg(path, data=data, ocr=ocr, depth=depth)


def _read_office(name: str) -> Reader:
    """The reader of one :mod:`core.ingest.office` format (``parse_odt``, ``parse_rtf``, ...)."""

    def read(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
        import core.ingest.office as office  # the submodule, not the package (which imports this module)

        return getattr(office, name)(path, data=data)

    return read


def _read_image(path: Path, data: bytes | None, ocr: bool, depth: int) -> ParsedDocument:
    from core.ingest.image import parse_image

    return parse_image(path, data=data, ocr=ocr)


for _suffixes, _reader in (
    (PDF_SUFFIXES, _read_pdf), (TEXT_SUFFIXES, _read_text), (DOCX_SUFFIXES, _read_docx), (HTML_SUFFIXES, _read_html),
    (EMAIL_SUFFIXES, _read_email), (MSG_SUFFIXES, _read_msg), (ODT_SUFFIXES, _read_office("parse_odt")),
    (RTF_SUFFIXES, _read_office("parse_rtf")), (XLSX_SUFFIXES, _read_office("parse_xlsx")),
    (PPTX_SUFFIXES, _read_office("parse_pptx")), (IMAGE_SUFFIXES, _read_image),
):
    register_reader(_suffixes, _reader)


def parse_bytes(path: Path, data: bytes, *, ocr: bool = False, depth: int = 0) -> ParsedDocument:
    """Parse a document given as bytes (an attachment), ``path`` being its member path
    (:func:`core.ingest.registry.parse_member`).

    Raises:
        IngestError: the bytes cannot be read as the type ``path``'s suffix names.
    """
    return parse_member(path, data, ocr=ocr, depth=depth)


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
    parsed = read_document(path, None, ocr=ocr)
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


#: Highlight of a verified quote (amber outline, yellow fill) and of a weak passage — the closest
#: passage of an abstention, not an answer (grey, as its chips and quote box in the window; a weak
#: passage in the citation's yellow read as a checked citation: tryout, 2026-12-02).
HIGHLIGHT_VERIFIED = dict(color=(0.9, 0.6, 0.0), fill=(1.0, 0.85, 0.0), fill_opacity=0.35, width=0.8)
HIGHLIGHT_WEAK = dict(color=(0.45, 0.45, 0.45), fill=(0.6, 0.6, 0.6), fill_opacity=0.25, width=0.8, dashes="[3] 0")


def render_page_png(path: str | Path, page: int, rects: list[Rect], zoom: float = 2.0, weak: bool = False) -> bytes:
    """Render 1-based ``page`` of a PDF to PNG bytes with ``rects`` (displayed-page points) highlighted.

    Args:
        zoom: scale factor; 1.0 = 72 dpi (one pixel per PDF point).
        weak: the rects mark a weak passage (not an answer): grey dashed highlight
            (:data:`HIGHLIGHT_WEAK`) instead of a verified quote's yellow (:data:`HIGHLIGHT_VERIFIED`).

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
            shape.finish(**(HIGHLIGHT_WEAK if weak else HIGHLIGHT_VERIFIED))
            shape.commit()
            pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            return pix.tobytes("png")
    except Exception as exc:
        raise IngestError(str(path), f"page could not be rendered ({exc})", page=page) from exc
