"""Read documents into page texts, and map page-text spans back to page rectangles.

One module per format:

* :mod:`core.ingest.pdf` — PDF with PyMuPDF (per-character boxes, columns, form values,
  super/subscript markers, running headers and footers: :mod:`core.ingest.pdf_layout`),
  with OCR of scanned, unmappable or garbled pages through Tesseract (:mod:`core.ingest.ocr`);
* :mod:`core.ingest.docx` — Word: accepted tracked changes, automatic numbering,
  footnotes and endnotes, content controls, text boxes, headers and footers once;
* :mod:`core.ingest.html` — HTML with BeautifulSoup;
* :mod:`core.ingest.email` — ``.eml`` messages (standard library ``email``), quoted
  text joined, attachments parsed as documents of their own;
* :mod:`core.ingest.text` — plain text and Markdown;
* :mod:`core.ingest.office` — OpenDocument text (.odt), RTF, Excel (.xlsx, a sheet a page) and
  PowerPoint (.pptx, a slide a page); :mod:`core.ingest.msg` — Outlook ``.msg`` messages and their
  attachments; :mod:`core.ingest.image` — images of documents (.jpg, .png, .tif) through OCR.

Table rows become records carrying their column names (:mod:`core.ingest.tables`); printed page
numbers become page labels (:mod:`core.ingest.page_labels`). Files that are not read (partial
downloads, Office temporary files, formats without a reader) are named with the reason
(:func:`not_read_reason`), never skipped silently.

Every reader produces :class:`ParsedDocument` pages (:class:`PageText`). Non-PDF formats
have one "page" (``page == 1``) whose text is the document's visible text;
``PageText.blocks`` marks its paragraphs, headings and tables so chunking can follow
sections and a citation can name its location (heading path and paragraph number, or
"footnote 1"). For ``.txt``/``.md`` the page text is the decoded file itself. The page
text is kept as extracted; nothing in it is normalized.

Everything the rest of Verbatim used from the former single module is importable from
here (``from core.ingest import parse_file, span_rects, rects_for_span, page_text,
render_page_png, ...``).
"""

from __future__ import annotations

from core.ingest.base import (
    ATTACHMENT_SEP,
    DOCX_SUFFIXES,
    EMAIL_SUFFIXES,
    HTML_SUFFIXES,
    IMAGE_SUFFIXES,
    PDF_SUFFIXES,
    SUPPORTED_SUFFIXES,
    TEXT_SUFFIXES,
    Block,
    Box,
    PageText,
    ParsedDocument,
    TextBuilder,
    as_subscript,
    as_superscript,
    display_name,
    file_sha256,
    not_read_reason,
)
from core.ingest.docx import parse_docx
from core.ingest.email import parse_email
from core.ingest.files import (
    is_member,
    open_member,
    open_pdf_document,
    page_text,
    parse_bytes,
    parse_file,
    rects_for_span,
    render_page_png,
    span_rects,
    span_rects_cached,
)
from core.ingest.walk import iter_files
from core.ingest.html import html_to_page, parse_html
from core.ingest.ocr import OCR_DPI, OCR_LANGUAGES, ocr_page, reads_as_language, tessdata_dir, text_layer_problem
from core.ingest.pdf import extract_page, parse_pdf, text_layer_page
from core.ingest.text import decode_text, read_text_file, text_blocks

_pdf_page_text = text_layer_page  # former private name, used by tests

__all__ = [
    "ATTACHMENT_SEP", "DOCX_SUFFIXES", "EMAIL_SUFFIXES", "HTML_SUFFIXES", "OCR_DPI", "OCR_LANGUAGES", "PDF_SUFFIXES",
    "IMAGE_SUFFIXES", "SUPPORTED_SUFFIXES", "not_read_reason", "TEXT_SUFFIXES", "Block", "Box", "PageText", "ParsedDocument", "TextBuilder",
    "as_subscript", "as_superscript", "decode_text", "display_name", "extract_page", "file_sha256", "html_to_page",
    "is_member", "iter_files", "ocr_page", "open_member", "open_pdf_document", "page_text", "parse_bytes",
    "parse_docx", "parse_email", "parse_file", "parse_html", "parse_pdf", "read_text_file", "reads_as_language",
    "rects_for_span", "render_page_png", "span_rects", "span_rects_cached", "tessdata_dir", "text_blocks", "text_layer_page",
    "text_layer_problem",
]
