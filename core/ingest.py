"""Read documents into page texts, and map page-text spans back to page rectangles.

Formats: PDF (PyMuPDF), plain text and Markdown. Other formats come with issue #3.

A PDF page's *page text* is built from PyMuPDF's ``rawdict`` (per-character
boxes): characters of a line are concatenated, lines end with ``"\\n"``, blocks
are separated by an empty line. Extraction is deterministic for an unchanged
file, so the per-character boxes are not stored in the index: they are
re-extracted for the one page a citation needs (:func:`span_rects`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from core.errors import IngestError
from core.types import Rect

PDF_SUFFIXES = {".pdf"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
SUPPORTED_SUFFIXES = PDF_SUFFIXES | TEXT_SUFFIXES

# Fewer extracted characters than this on every page → treat the PDF as scanned.
_MIN_TEXT_CHARS = 20


@dataclass
class PageText:
    """The text of one page, as extracted.

    Attributes:
        page: 1-based page number.
        text: the page text.
        boxes: for PDFs, one entry per character of ``text``: ``(x0, y0, x1, y1, line)``
            in PDF points plus a line number unique within the page, or ``None`` for
            separators we inserted (line breaks). Empty for non-PDF formats.
    """

    page: int
    text: str
    boxes: list[tuple[float, float, float, float, int] | None] = field(default_factory=list)


@dataclass
class ParsedDocument:
    """A parsed file: its pages and a content hash (sha256 of the bytes, hex)."""

    path: Path
    sha256: str
    pages: list[PageText]
    kind: str  # "pdf" | "text"


def file_sha256(path: Path, chunk_bytes: int = 1 << 20) -> str:
    """sha256 of a file's bytes, hex (reads in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk_bytes):
            h.update(block)
    return h.hexdigest()


def iter_files(folder: Path) -> Iterator[Path]:
    """Supported files under ``folder``, recursively, in sorted order; symlink loops are skipped."""
    seen_dirs: set[tuple[int, int]] = set()
    for root, dirs, files in os.walk(folder, followlinks=True):
        try:
            st = os.stat(root)
        except OSError:
            dirs[:] = []
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            dirs[:] = []
            continue
        seen_dirs.add(key)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.startswith("~$"):
                continue
            path = Path(root) / name
            if path.suffix.lower() in SUPPORTED_SUFFIXES:
                yield path


def _pdf_page_text(page: pymupdf.Page) -> PageText:
    raw = page.get_text("rawdict", sort=True)
    parts: list[str] = []
    boxes: list[tuple[float, float, float, float, int] | None] = []
    line_no = 0
    first_block = True
    for block in raw.get("blocks", []):
        if block.get("type") != 0:
            continue
        lines = block.get("lines", [])
        if not lines:
            continue
        if not first_block:
            parts.append("\n")
            boxes.append(None)
        first_block = False
        for line in lines:
            for span in line.get("spans", []):
                for ch in span.get("chars", []):
                    parts.append(ch["c"])
                    x0, y0, x1, y1 = ch["bbox"]
                    boxes.append((x0, y0, x1, y1, line_no))
            parts.append("\n")
            boxes.append(None)
            line_no += 1
    return PageText(page=page.number + 1, text="".join(parts), boxes=boxes)


def parse_pdf(path: Path, password: str | None = None) -> list[PageText]:
    """Extract every page of a PDF.

    Raises:
        IngestError: empty file, not a PDF / damaged, password-protected, or no
            text layer at all (scanned; needs OCR). Names the file and, when
            a single page fails, the page (1-based).
    """
    if path.stat().st_size == 0:
        raise IngestError(str(path), "empty file (0 bytes)")
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    # PyMuPDF content-sniffs and will happily open an HTML error page saved as
    # .pdf; a PDF has a %PDF- header or, if that was stripped, object markers.
    if b"%PDF-" not in head[:1024] and b" obj" not in head:
        kind = "an HTML page" if b"<html" in head[:512].lower() else "another kind of file"
        raise IngestError(str(path), f"not a PDF (the file is {kind} with a .pdf name)")
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for damaged files
        raise IngestError(str(path), f"not a readable PDF (damaged or not a PDF: {exc})") from exc
    with doc:
        if doc.needs_pass and not (password and doc.authenticate(password)):
            raise IngestError(str(path), "password-protected PDF (enter the password to index it)")
        if doc.page_count == 0:
            raise IngestError(str(path), "PDF has no pages")
        pages: list[PageText] = []
        for index in range(doc.page_count):
            try:
                pages.append(_pdf_page_text(doc.load_page(index)))
            except Exception as exc:
                raise IngestError(str(path), f"page could not be read ({exc})", page=index + 1) from exc
        repaired = doc.is_repaired
    if sum(len(p.text.strip()) for p in pages) < _MIN_TEXT_CHARS:
        if repaired:
            raise IngestError(str(path), "damaged or truncated PDF (no text could be recovered)")
        raise IngestError(str(path), "no text layer (scanned or image-only PDF; needs OCR)")
    return pages


def read_text_file(path: Path) -> str:
    """Decode a text file: UTF-8 (with or without BOM), else UTF-16 by BOM, else charset detection.

    Raises:
        IngestError: empty file or undecodable bytes.
    """
    data = path.read_bytes()
    if not data.strip():
        raise IngestError(str(path), "empty file")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes  # a maintained detector, only needed here

    best = from_bytes(data).best()
    if best is None:
        raise IngestError(str(path), "text encoding could not be detected")
    return str(best)


def parse_file(path: Path) -> ParsedDocument:
    """Parse one supported file into pages.

    Raises:
        IngestError: the file cannot be read; the message names it and says why.
    """
    try:
        digest = file_sha256(path)
    except FileNotFoundError as exc:
        raise IngestError(str(path), "file disappeared while indexing") from exc
    except PermissionError as exc:
        raise IngestError(str(path), "no permission to read the file") from exc
    except OSError as exc:
        raise IngestError(str(path), f"file could not be read ({exc.strerror})") from exc
    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        return ParsedDocument(path, digest, parse_pdf(path), "pdf")
    if suffix in TEXT_SUFFIXES:
        return ParsedDocument(path, digest, [PageText(page=1, text=read_text_file(path))], "text")
    raise IngestError(str(path), f"unsupported file type '{suffix}'")


def rects_for_span(boxes: list, start: int, end: int) -> list[Rect]:
    """Union of character boxes in ``[start, end)``, one rectangle per text line (PDF points)."""
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


def span_rects(path: str | Path, page: int, start: int, end: int) -> list[Rect]:
    """Rectangles (PDF points, one per line) of page-text span ``[start, end)`` on 1-based ``page``.

    Returns an empty list for non-PDF files or when the page cannot be read.
    """
    path = Path(path)
    if path.suffix.lower() not in PDF_SUFFIXES:
        return []
    try:
        with pymupdf.open(path) as doc:
            page_text = _pdf_page_text(doc.load_page(page - 1))
    except Exception:
        return []
    return rects_for_span(page_text.boxes, start, end)


def render_page_png(path: str | Path, page: int, rects: list[Rect], zoom: float = 2.0) -> bytes:
    """Render 1-based ``page`` of a PDF to PNG bytes with ``rects`` highlighted.

    Args:
        zoom: scale factor; 1.0 = 72 dpi (one pixel per PDF point).

    Raises:
        IngestError: the file or page cannot be opened.
    """
    try:
        with pymupdf.open(path) as doc:
            pg = doc.load_page(page - 1)
            shape = pg.new_shape()
            for r in rects:
                shape.draw_rect(pymupdf.Rect(r))
            shape.finish(color=(0.9, 0.6, 0.0), fill=(1.0, 0.85, 0.0), fill_opacity=0.35, width=0.8)
            shape.commit()
            pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            return pix.tobytes("png")
    except Exception as exc:
        raise IngestError(str(path), f"page could not be rendered ({exc})", page=page) from exc
