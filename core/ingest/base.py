"""What every reader produces: page texts with blocks and parsed documents; the file kinds read and not read.

See :mod:`core.ingest` for the overview of formats.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

PDF_SUFFIXES = {".pdf"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
DOCX_SUFFIXES = {".docx"}
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
EMAIL_SUFFIXES = {".eml"}
MSG_SUFFIXES = {".msg"}
ODT_SUFFIXES = {".odt"}
RTF_SUFFIXES = {".rtf"}
XLSX_SUFFIXES = {".xlsx", ".xlsm"}
PPTX_SUFFIXES = {".pptx"}
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp"}
SUPPORTED_SUFFIXES = (PDF_SUFFIXES | TEXT_SUFFIXES | DOCX_SUFFIXES | HTML_SUFFIXES | EMAIL_SUFFIXES | MSG_SUFFIXES
                      | ODT_SUFFIXES | RTF_SUFFIXES | XLSX_SUFFIXES | PPTX_SUFFIXES | IMAGE_SUFFIXES)

#: Document formats a lawyer keeps that no well-kept pure-Python library reads, with what to do.
NOT_READ_SUFFIXES = {
    ".doc": "legacy Word .doc is not read; save it as .docx",
    ".xls": "legacy Excel .xls is not read; save it as .xlsx",
    ".ppt": "legacy PowerPoint .ppt is not read; save it as .pptx",
    ".wpd": "WordPerfect files are not read; save it as .docx or PDF",
    ".pages": "Apple Pages files are not read; export it as PDF or .docx",
    ".ods": "OpenDocument spreadsheets are not read; save it as .xlsx",
    ".odp": "OpenDocument presentations are not read; save it as .pptx",
}
#: A browser's download that had not finished when the folder was read: never a whole document.
PARTIAL_SUFFIXES = {".download", ".crdownload", ".part", ".partial"}

ATTACHMENT_SEP = " › "
"""Joins a container file and the name of a document carried inside it: an e-mail's
attachment ``/x/message.eml › Anexo_I.pdf`` (nested: ``a.eml › b.eml › c.pdf``). Such a
*member path* is what :attr:`ParsedDocument.path` and ``Chunk.path`` hold for an attachment;
:func:`core.ingest.open_member` reads its bytes back."""

Box = tuple[float, float, float, float, int]


def display_name(path: Path | str) -> str:
    """How a file or member path is named to the user: the file name, then any attachment names
    (``/x/message.eml › Anexo_I.pdf`` → ``message.eml › Anexo_I.pdf``)."""
    head, sep, rest = str(path).partition(ATTACHMENT_SEP)
    return Path(head).name + sep + rest


@dataclass
class Block:
    """A structural unit of a page text: ``page_text[start:end]``.

    Attributes:
        start, end: character offsets into the page text (end exclusive).
        kind: ``"paragraph"``, ``"heading"``, ``"table"``, ``"header"`` (e-mail headers,
            DOCX page headers and footers), ``"note"`` (a DOCX footnote or endnote, placed
            right after the paragraph that refers to it) or ``"quote"`` (an e-mail's
            ``>``-quoted text).
        level: heading level (1 = top) for ``kind == "heading"``, else 0.
        index: 1-based number of the block in the document (the "¶" of a citation
            location for non-PDF formats).
        label: how a citation names the block's place instead of "¶ n" ("footnote 1"), or "".
        columns: for a PDF table (``kind == "table"``, one line per row), the names of its
            columns, carried from an earlier page when the table has no header row of its own
            (:mod:`core.ingest.pdf_tables`); ``()`` when unknown. The chunker puts them in the
            context line of the table's chunks.
    """

    start: int
    end: int
    kind: str = "paragraph"
    level: int = 0
    index: int = 0
    label: str = ""
    columns: tuple[str, ...] = ()


@dataclass
class PageText:
    """The text of one page, as extracted.

    Attributes:
        page: 1-based physical page number (1 for non-paginated formats).
        text: the page text.
        boxes: for PDFs, one entry per character of ``text``: ``(x0, y0, x1, y1, line)``
            in PDF points of the displayed page plus a line number unique within the
            page, or ``None`` for separators we inserted (line breaks). Empty for
            non-PDF formats.
        label: the printed page label (``page.get_label()``, e.g. ``"iv"``), "" if none.
        blocks: paragraphs/headings/tables of ``text``, in order.
        modality: ``"ocr"`` when the text came from OCR of the page image.
        ocr_confidence: mean Tesseract word confidence 0-100 for OCR pages, else ``None``.
        running: ``[start, end)`` spans of ``text`` that are running headers or footers
            (lines repeated at the same place on most pages of a PDF,
            :func:`core.ingest.pdf_layout.find_running_lines`): they stay in the page text
            (offsets and highlighting are unchanged) but chunks leave them out.
    """

    page: int
    text: str
    boxes: list[Box | None] = field(default_factory=list)
    label: str = ""
    blocks: list[Block] = field(default_factory=list)
    modality: str = "text"
    ocr_confidence: float | None = None
    running: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class ParsedDocument:
    """A parsed file: its pages and a content hash (sha256 of the bytes, hex).

    ``title`` is the document's own title (PDF metadata, DOCX core property,
    HTML ``<title>``, e-mail subject) or the file name. ``warnings`` are
    problems that did not stop the file from indexing (1-based page, reason), e.g.
    a scanned page when OCR is unavailable, or an e-mail attachment that could not
    be read (page ``None``, the reason names the attachment).

    ``attachments`` are documents carried inside this one (an e-mail's attached
    PDF, DOCX, text or nested message), each parsed as a document of its own with
    a member path (:data:`ATTACHMENT_SEP`) and ``name`` = how it is cited
    ("message.eml › Anexo_I.pdf"); ``name`` is ``""`` for a file on disk.
    """

    path: Path
    sha256: str
    pages: list[PageText]
    kind: str  # "pdf" | "text" | "docx" | "html" | "email"
    title: str = ""
    warnings: list[tuple[int | None, str]] = field(default_factory=list)
    attachments: list[ParsedDocument] = field(default_factory=list)
    name: str = ""

    def all_documents(self) -> list[ParsedDocument]:
        """This document, then its attachments (depth first, nested ones included)."""
        out = [self]
        for a in self.attachments:
            out.extend(a.all_documents())
        return out


def file_sha256(path: Path, chunk_bytes: int = 1 << 20) -> str:
    """sha256 of a file's bytes, hex (reads in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk_bytes):
            h.update(block)
    return h.hexdigest()


def not_read_reason(name: str) -> str | None:
    """Why a file named ``name`` is not read, or ``None`` when it is a supported document.

    Hidden files (a leading ".") other than LibreOffice lock files are system files and give
    ``""`` (left out without being named); every other file that is not read gets a reason
    the index report shows ("partial download", "Office temporary file", "legacy Word .doc…",
    "'.zip' files are not read").
    """
    lower = name.lower()
    suffix = Path(lower).suffix
    if lower.startswith(".~lock."):
        return "LibreOffice lock file (the document is open in LibreOffice)"
    if lower.startswith("."):
        return ""
    if lower.startswith("~$"):
        return "Office temporary file (the document is open in Word, Excel or PowerPoint)"
    if suffix in PARTIAL_SUFFIXES:
        return "partial download (the browser had not finished it)"
    if lower.endswith("~") or suffix in {".tmp", ".bak"}:
        return "temporary or backup file"
    if suffix in SUPPORTED_SUFFIXES:
        return None
    if suffix in NOT_READ_SUFFIXES:
        return NOT_READ_SUFFIXES[suffix]
    return f"'{suffix}' files are not read" if suffix else "file without an extension is not read"


class TextBuilder:
    """Accumulates a document's visible text as blocks separated by an empty line."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.blocks: list[Block] = []
        self.pos = 0

    def add(self, text: str, kind: str = "paragraph", level: int = 0, label: str = "") -> None:
        """Append ``text`` (stripped; nothing if empty) as one block."""
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append("\n\n")
            self.pos += 2
        self.parts.append(text)
        self.blocks.append(Block(self.pos, self.pos + len(text), kind, level, len(self.blocks) + 1, label))
        self.pos += len(text)

    def page(self) -> PageText:
        """The accumulated text as page 1."""
        return PageText(page=1, text="".join(self.parts), blocks=self.blocks)


_SUPERSCRIPT = str.maketrans("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ")
_SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")


def as_superscript(text: str) -> str:
    """``text`` in Unicode superscript characters where they exist (digits, ``+-=()``, ``n``, ``i``).

    Footnote markers set as raised small glyphs (PDF), ``<sup>`` (HTML) or superscript
    runs (DOCX) are written this way in the page text, so a marker after an amount stays
    apart from it: "EUR 320¹", never "EUR 3201" (case B37). Other characters are kept.
    """
    return text.translate(_SUPERSCRIPT)


def as_subscript(text: str) -> str:
    """``text`` in Unicode subscript characters where they exist (digits, ``+-=()``); see :func:`as_superscript`."""
    return text.translate(_SUBSCRIPT)
