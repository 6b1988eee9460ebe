"""Read documents into page texts, and map page-text spans back to page rectangles.

Formats: PDF (PyMuPDF, with OCR of scanned pages through Tesseract), DOCX
(python-docx), HTML (BeautifulSoup), e-mail ``.eml`` (standard library
``email``), plain text and Markdown.

**PDF page text.** Built from PyMuPDF's ``rawdict`` (per-character boxes,
``sort=True``), with columns detected on the extracted lines (see
``_reading_order``): a two-column page reads the left column, then the right
one, even when the content stream interleaves the lines. Characters of a line are concatenated,
lines end with ``"\\n"``, blocks are separated by an empty line. Extraction is
deterministic for an unchanged file, so the per-character boxes are not stored
in the index: they are re-extracted for the one page a citation needs
(:func:`span_rects`). Boxes are in the *displayed* page's space (``page.rect``,
rotation applied), PDF points.

**Other formats** have one "page" (``page == 1``) whose text is the document's
visible text; ``PageText.blocks`` marks its paragraphs, headings and tables so
chunking can follow sections and a citation can name its location (heading
path and paragraph number). For ``.txt``/``.md`` the page text is the decoded
file itself.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from core.errors import IngestError
from core.types import Rect

PDF_SUFFIXES = {".pdf"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
DOCX_SUFFIXES = {".docx"}
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
EMAIL_SUFFIXES = {".eml"}
SUPPORTED_SUFFIXES = PDF_SUFFIXES | TEXT_SUFFIXES | DOCX_SUFFIXES | HTML_SUFFIXES | EMAIL_SUFFIXES

# Fewer extracted characters than this on every page → treat the PDF as scanned.
_MIN_TEXT_CHARS = 20
# A page with fewer non-space characters than this, and an image on it, has no usable text layer.
_MIN_PAGE_CHARS = 10
# A text layer is garbage when more than this share of its non-space characters are
# unmappable glyphs (U+FFFD, private-use, control or unassigned code points) or
# pdfminer-style "(cid:NN)" runs. 30 % is our choice: real text in any script has
# none of these, and CID-font output without a ToUnicode map is mostly made of them.
_GARBAGE_SHARE = 0.30
_CID = re.compile(r"\(cid:\d+\)")

# MuPDF's default flags for rawdict.
_PDF_FLAGS = pymupdf.TEXTFLAGS_RAWDICT

OCR_LANGUAGES = "eng+spa"
OCR_DPI = 300

Box = tuple[float, float, float, float, int]


@dataclass
class Block:
    """A structural unit of a page text: ``page_text[start:end]``.

    Attributes:
        start, end: character offsets into the page text (end exclusive).
        kind: ``"paragraph"``, ``"heading"``, ``"table"`` or ``"header"`` (e-mail headers).
        level: heading level (1 = top) for ``kind == "heading"``, else 0.
        index: 1-based number of the block in the document (the "¶" of a citation
            location for non-PDF formats).
    """

    start: int
    end: int
    kind: str = "paragraph"
    level: int = 0
    index: int = 0


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
    """

    page: int
    text: str
    boxes: list[Box | None] = field(default_factory=list)
    label: str = ""
    blocks: list[Block] = field(default_factory=list)
    modality: str = "text"
    ocr_confidence: float | None = None


@dataclass
class ParsedDocument:
    """A parsed file: its pages and a content hash (sha256 of the bytes, hex).

    ``title`` is the document's own title (PDF metadata, DOCX core property,
    HTML ``<title>``, e-mail subject) or the file name. ``warnings`` are
    page-level problems that did not stop the file from indexing (1-based
    page, reason), e.g. a scanned page when OCR is unavailable.
    """

    path: Path
    sha256: str
    pages: list[PageText]
    kind: str  # "pdf" | "text" | "docx" | "html" | "email"
    title: str = ""
    warnings: list[tuple[int, str]] = field(default_factory=list)


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


# --- PDF ------------------------------------------------------------------------


@dataclass
class _Line:
    """One extracted text line: its box (unrotated page space), MuPDF block order and characters."""

    bbox: tuple[float, float, float, float]
    block: int
    seq: int
    chars: list[tuple[str, tuple[float, float, float, float]]]
    size: float

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]


# Reading order of multi-column pages. MuPDF's own segmentation (TEXT_SEGMENT) was
# tried first: it splits the two-column case but scatters the blocks of ordinary
# single-column pages (the BOE constitution lost 3/4 of its verifiable paragraphs),
# so columns are found here, on the lines MuPDF extracts, in the manner of the
# recursive X-Y cut (Nagy & Seth, 1984) restricted to vertical gutters:
# * a gutter is an x-interval of at least _GUTTER_PT points crossed by no *narrow*
#   line (narrower than _NARROW of the region); lines that cross it (titles, full-width
#   paragraphs) split the region into bands read top to bottom;
# * each side of a gutter must look like prose columns: at least 3 lines and a fifth
#   of the characters, and at least _FULL_SHARE of its lines filling 60 % of the side's
#   width (wrapped text), which keeps short-celled tables row by row;
# * each side is read whole (left, then right) and searched recursively for more gutters.
# Pages without a gutter keep PyMuPDF's sort=True order, unchanged.
_GUTTER_PT = 10.0
_NARROW = 0.6
_FULL_SHARE = 0.4


def _is_column(lines: list[_Line], total_chars: int) -> bool:
    if len(lines) < 3:
        return False
    chars = sum(len(ln.chars) for ln in lines)
    if chars < 0.2 * total_chars:
        return False
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    full = sum(1 for ln in lines if ln.width >= 0.6 * (x1 - x0))
    return full >= _FULL_SHARE * len(lines)


def _find_gutter(lines: list[_Line]) -> tuple[float, float] | None:
    if len(lines) < 6:
        return None
    rx0 = min(ln.bbox[0] for ln in lines)
    rx1 = max(ln.bbox[2] for ln in lines)
    narrow = sorted((ln for ln in lines if ln.width < _NARROW * (rx1 - rx0)), key=lambda ln: ln.bbox[0])
    gaps: list[tuple[float, float]] = []
    reach = None
    for ln in narrow:
        if reach is not None and ln.bbox[0] - reach >= _GUTTER_PT:
            gaps.append((reach, ln.bbox[0]))
        reach = ln.bbox[2] if reach is None else max(reach, ln.bbox[2])
    total = sum(len(ln.chars) for ln in lines)
    for g0, g1 in sorted(gaps, key=lambda g: g[0] - g[1]):  # widest first
        left = [ln for ln in narrow if ln.bbox[2] <= g0]
        right = [ln for ln in narrow if ln.bbox[0] >= g1]
        if _is_column(left, total) and _is_column(right, total):
            return g0, g1
    return None


def _reading_order(lines: list[_Line], region: int = 0, counter: list[int] | None = None) -> list[tuple[int, _Line]]:
    """Lines in reading order, each with the id of the column region it was read in."""
    counter = counter if counter is not None else [0]
    gutter = _find_gutter(lines)
    if gutter is None:
        return [(region, ln) for ln in sorted(lines, key=lambda ln: (ln.block, ln.seq))]
    g0, g1 = gutter
    out: list[tuple[int, _Line]] = []
    spanning = sorted((ln for ln in lines if ln.bbox[0] < g1 and ln.bbox[2] > g0), key=lambda ln: ln.bbox[1])
    cols = [ln for ln in lines if not (ln.bbox[0] < g1 and ln.bbox[2] > g0)]
    # bands between spanning lines, top to bottom
    bounds = [float("-inf")] + [ln.bbox[1] for ln in spanning] + [float("inf")]
    for i in range(len(bounds) - 1):
        band = [ln for ln in cols if bounds[i] <= (ln.bbox[1] + ln.bbox[3]) / 2 < bounds[i + 1]]
        if i > 0:
            counter[0] += 1
            out.append((counter[0], spanning[i - 1]))
        for side in ([ln for ln in band if ln.bbox[2] <= g0], [ln for ln in band if ln.bbox[0] >= g1]):
            if side:
                counter[0] += 1
                out.extend(_reading_order(side, counter[0], counter))
    return out


def _page_text_from_textpage(page: pymupdf.Page, raw: dict) -> PageText:
    """Build the page text, character boxes (displayed-page space) and blocks from ``rawdict``."""
    lines: list[_Line] = []
    for b_no, block in enumerate(raw.get("blocks", [])):
        if block.get("type") != 0:
            continue
        for l_no, line in enumerate(block.get("lines", [])):
            chars = [(ch["c"], tuple(ch["bbox"])) for span in line.get("spans", []) for ch in span.get("chars", [])]
            if chars:
                size = max(float(span.get("size", 0.0)) for span in line.get("spans", []))
                lines.append(_Line(tuple(line["bbox"]), b_no, l_no, chars, size))  # type: ignore[arg-type]
    parts: list[str] = []
    boxes: list[Box | None] = []
    blocks: list[Block] = []
    mat = page.rotation_matrix if page.rotation else None
    pos = 0
    key = None
    for line_no, (region, line) in enumerate(_reading_order(lines)):
        if (region, line.block) != key:
            if blocks:
                blocks[-1].end = pos - 1
                parts.append("\n")
                boxes.append(None)
                pos += 1
            blocks.append(Block(start=pos, end=pos, index=len(blocks) + 1))
            key = (region, line.block)
        for c, (x0, y0, x1, y1) in line.chars:
            if mat is not None:
                r = pymupdf.Rect(x0, y0, x1, y1) * mat
                x0, y0, x1, y1 = r.x0, r.y0, r.x1, r.y1
            parts.append(c)
            boxes.extend([(x0, y0, x1, y1, line_no)] * len(c))  # one box per character of text
            pos += len(c)
        parts.append("\n")
        boxes.append(None)
        pos += 1
    if blocks:
        blocks[-1].end = pos - 1
    text = "".join(parts)
    # PDF blocks are not marked as headings by font size: running headers set in a larger
    # font ("BOLETÍN OFICIAL DEL ESTADO") became top-level headings on every page and broke
    # heading paths; numbered clauses are found by core.chunking instead.
    return PageText(page=page.number + 1, text=text, boxes=boxes, blocks=blocks)


def _pdf_page_text(page: pymupdf.Page) -> PageText:
    return _page_text_from_textpage(page, page.get_text("rawdict", flags=_PDF_FLAGS, sort=True))


def text_layer_problem(page_text: PageText, has_images: bool) -> str | None:
    """Why a PDF page's text layer is unusable, or ``None`` if it is fine.

    Returns ``"no text layer"`` for a page with an image and (almost) no text, and
    ``"unreadable text layer"`` when most characters are garbage (see ``_GARBAGE_SHARE``).
    """
    visible = [c for c in page_text.text if not c.isspace()]
    if len(visible) < _MIN_PAGE_CHARS:
        return "no text layer" if has_images else None
    cid_chars = sum(len(m) for m in _CID.findall(page_text.text))
    bad = cid_chars + sum(
        1 for c in visible if c == "\ufffd" or unicodedata.category(c) in {"Co", "Cc", "Cn", "Cs"}
    )
    if bad / len(visible) > _GARBAGE_SHARE:
        return "unreadable text layer (font without a Unicode map)"
    return None


def tessdata_dir(languages: str = OCR_LANGUAGES) -> str | None:
    """Tesseract's language folder if it holds every language of ``languages`` ("eng+spa"), else ``None``.

    Honours ``TESSDATA_PREFIX`` (as Tesseract and PyMuPDF do); otherwise asks the
    installed ``tesseract`` through :func:`pymupdf.get_tessdata`.
    """
    try:
        folder = pymupdf.get_tessdata()
    except Exception:  # RuntimeError when Tesseract is not installed
        return None
    if not folder or not os.path.isdir(folder):
        return None
    if all(os.path.exists(os.path.join(folder, f"{lang}.traineddata")) for lang in languages.split("+")):
        return folder
    return None


def _ocr_confidence(page: pymupdf.Page, dpi: int, languages: str, tessdata: str) -> float | None:
    """Mean Tesseract word confidence (0-100) of the page image, or ``None`` if unavailable.

    PyMuPDF's OCR (MuPDF's built-in Tesseract) returns text and boxes but no
    confidences, so the page image is read a second time with pytesseract's
    ``image_to_data`` (a maintained wrapper of the ``tesseract`` program), which
    reports a confidence per word; words with confidence -1 (layout rows) are skipped.
    """
    try:
        import pytesseract
        from PIL import Image
    except ImportError:
        return None
    try:
        pix = page.get_pixmap(dpi=dpi, alpha=False)
        image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        data = pytesseract.image_to_data(
            image, lang=languages, config=f'--tessdata-dir "{tessdata}"', output_type=pytesseract.Output.DICT
        )
    except Exception:  # tesseract program missing or failing: confidence unknown, text still valid
        return None
    confs = [float(c) for c, w in zip(data["conf"], data["text"]) if float(c) >= 0 and str(w).strip()]
    return round(sum(confs) / len(confs), 1) if confs else None


def ocr_page(page: pymupdf.Page, *, languages: str = OCR_LANGUAGES, dpi: int = OCR_DPI, tessdata: str) -> PageText:
    """OCR one PDF page with PyMuPDF (``get_textpage_ocr(full=True)``): text, character boxes, confidence.

    The result has ``modality == "ocr"`` and boxes in the same displayed-page space
    as a text layer's. Raises whatever PyMuPDF raises when OCR fails.
    """
    tp = page.get_textpage_ocr(flags=_PDF_FLAGS, language=languages, dpi=dpi, full=True, tessdata=tessdata)
    raw = page.get_text("rawdict", textpage=tp, flags=_PDF_FLAGS, sort=True)
    result = _page_text_from_textpage(page, raw)
    result.modality = "ocr"
    result.ocr_confidence = _ocr_confidence(page, dpi, languages, tessdata)
    return result


def _page_labels(doc: pymupdf.Document) -> list[str]:
    """Printed page labels by 0-based index ("" everywhere when the PDF defines none)."""
    try:
        if not doc.get_page_labels():
            return [""] * doc.page_count
        return [doc.load_page(i).get_label() or "" for i in range(doc.page_count)]
    except Exception:  # a damaged /PageLabels tree must not stop the text
        return [""] * doc.page_count


def parse_pdf(
    path: Path, password: str | None = None, *, ocr: bool = True, languages: str = OCR_LANGUAGES
) -> ParsedDocument:
    """Extract every page of a PDF; scanned or garbage pages are OCRed when Tesseract is there.

    Args:
        ocr: allow OCR of pages without a usable text layer.
        languages: Tesseract languages, ``+``-joined.

    Returns:
        A :class:`ParsedDocument` (``kind="pdf"``). Pages needing OCR while OCR is
        unavailable keep empty text and are listed in ``warnings`` with the reason,
        when other pages have text.

    Raises:
        IngestError: empty file, not a PDF / damaged, password-protected, or no
            readable page at all (message says "needs OCR"). Names the file and,
            when a single page fails, the page (1-based).
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
    warnings: list[tuple[int, str]] = []
    with doc:
        if doc.needs_pass and not (password and doc.authenticate(password)):
            raise IngestError(str(path), "password-protected PDF (enter the password to index it)")
        if doc.page_count == 0:
            raise IngestError(str(path), "PDF has no pages")
        labels = _page_labels(doc)
        tessdata = tessdata_dir(languages) if ocr else None
        pages: list[PageText] = []
        for index in range(doc.page_count):
            try:
                page = doc.load_page(index)
                page_text = _pdf_page_text(page)
                problem = text_layer_problem(page_text, bool(page.get_images(full=False)))
                if problem:
                    if tessdata:
                        page_text = ocr_page(page, languages=languages, tessdata=tessdata)
                    else:
                        reason = f"{problem} (scanned page; needs OCR: install Tesseract with eng and spa)"
                        warnings.append((index + 1, reason))
                        page_text = PageText(page=index + 1, text="")
                page_text.label = labels[index]
                pages.append(page_text)
            except Exception as exc:
                raise IngestError(str(path), f"page could not be read ({exc})", page=index + 1) from exc
        repaired = doc.is_repaired
        title = (doc.metadata or {}).get("title") or ""
    if sum(len(p.text.strip()) for p in pages) < _MIN_TEXT_CHARS:
        if repaired:
            raise IngestError(str(path), "damaged or truncated PDF (no text could be recovered)")
        first = warnings[0][0] if warnings else None
        if warnings:
            raise IngestError(str(path), warnings[0][1], page=first)
        raise IngestError(str(path), "no text layer (scanned or image-only PDF; needs OCR)")
    return ParsedDocument(path, "", pages, "pdf", title=title.strip() or path.name, warnings=warnings)


# --- text, HTML, DOCX, e-mail -------------------------------------------------------


def decode_text(data: bytes, path: Path | str = "") -> str:
    """Decode text bytes: UTF-8 (with or without BOM), UTF-16 by BOM, else charset-normalizer.

    Raises:
        IngestError: undecodable bytes.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    western = _western_cp1252(data)
    if western is not None:
        return western
    from charset_normalizer import from_bytes  # a maintained detector, only needed here

    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise IngestError(str(path), "text encoding could not be detected")
    # Single-byte Windows code pages often tie (cp1250/cp1252/cp1257 decode Spanish
    # equally "cleanly" for the detector, and it lists cp1250 first, turning ñ into ń).
    # On a tie, Windows-1252 (Western Europe, the legacy default of Spanish and English
    # systems) wins.
    for match in results:
        if (
            match.encoding in {"cp1252", "latin_1", "iso8859_15"}
            and match.chaos <= best.chaos
            and match.coherence >= best.coherence - 0.01
        ):
            return str(match)
    return str(best)


_WESTERN = set("áéíóúàèìòùâêîôûäëïöüãõñçÁÉÍÓÚÀÈÌÒÙÂÊÎÔÛÄËÏÖÜÃÕÑÇ"
               "ºª°§€«»“”‘’–—…·\u00a0")
_INVERTED = re.compile(r"(?:^|[\s(\"'«“])[¡¿]\S")


def _western_cp1252(data: bytes) -> str | None:
    """``data`` decoded as Windows-1252 if every non-ASCII character it gives is one of
    Spanish, Portuguese, French, English or Catalan text (accented vowels, ñ, ç, ordinal
    signs, €, typographic quotes and dashes; ¡ ¿ only opening a sentence), else ``None``.

    Why by hand: on short texts charset-normalizer's statistics are too thin and it picked
    cp775/cp1250 for a 47-byte Spanish sentence ("clßusula dķcima", tester, session 3);
    cp1252 is the legacy default of the systems our users' files come from. Central
    European cp1250 text fails the test (ł → ³, ś → œ, ż → ¿ inside a word) and goes to
    the detector.
    """
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    odd = [c for c in text if ord(c) > 127 and c not in _WESTERN and c not in "¡¿"]
    if odd:
        return None
    inverted = sum(text.count(c) for c in "¡¿")
    if inverted and len(_INVERTED.findall(text)) < inverted:
        return None
    return text


def read_text_file(path: Path) -> str:
    """Decode a text file (see :func:`decode_text`).

    Raises:
        IngestError: empty file or undecodable bytes.
    """
    data = path.read_bytes()
    if not data.strip():
        raise IngestError(str(path), "empty file")
    return decode_text(data, path)


_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+\S")
_PARA_SPLIT = re.compile(r"\n[ \t\u00a0]*\n\s*")


def text_blocks(text: str, markdown: bool = False) -> list[Block]:
    """Blocks of a plain-text page: paragraphs separated by blank lines; ``#`` lines are headings in Markdown."""
    blocks: list[Block] = []
    pos = 0
    for m in [*_PARA_SPLIT.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[pos:end]
        if piece.strip():
            # Markdown headings inside a paragraph (no blank line after them) become their own block.
            offset = pos
            for line in piece.splitlines(keepends=True):
                hm = _MD_HEADING.match(line) if markdown else None
                if hm:
                    if blocks and blocks[-1].kind == "paragraph" and blocks[-1].end > offset:
                        blocks[-1].end = offset
                    stripped = line.rstrip()
                    blocks.append(Block(offset, offset + len(stripped), "heading", len(hm.group(1))))
                elif not blocks or blocks[-1].kind == "heading" or blocks[-1].end < offset:
                    blocks.append(Block(offset, offset + len(line.rstrip("\r\n")), "paragraph"))
                else:
                    blocks[-1].end = offset + len(line.rstrip("\r\n"))
                offset += len(line)
        pos = m.end() if m else len(text)
    blocks = [b for b in blocks if text[b.start : b.end].strip()]
    for i, b in enumerate(blocks, 1):
        b.index = i
    return blocks


class _TextBuilder:
    """Accumulates a document's visible text as blocks separated by an empty line."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.blocks: list[Block] = []
        self.pos = 0

    def add(self, text: str, kind: str = "paragraph", level: int = 0) -> None:
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append("\n\n")
            self.pos += 2
        self.parts.append(text)
        self.blocks.append(Block(self.pos, self.pos + len(text), kind, level, len(self.blocks) + 1))
        self.pos += len(text)

    def page(self) -> PageText:
        return PageText(page=1, text="".join(self.parts), blocks=self.blocks)


_WS = re.compile(r"[ \t\r\f\v]+")
_HTML_SKIP = {"script", "style", "noscript", "template", "head", "svg", "iframe", "object", "button", "select"}
_HTML_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_HTML_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "blockquote", "pre",
    "li", "ul", "ol", "dl", "dt", "dd", "figure", "figcaption", "address", "form", "fieldset", "hr",
    "table", "tr", "caption", "body", "html", "details", "summary",
} | set(_HTML_HEADINGS)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def html_to_page(markup: str | bytes) -> tuple[PageText, str]:
    """Visible text of an HTML document as one page with blocks, and its ``<title>``.

    Scripts, styles, templates, ``hidden``/``aria-hidden`` elements and inline
    ``display:none`` are dropped; block elements become paragraphs; ``h1``–``h6``
    headings; table rows become lines with cells joined by ``" | "``.
    Parsing is BeautifulSoup's (``html.parser``); only the walk that turns the
    tree into blocks is ours, because offsets and heading levels are needed.
    """
    from bs4 import BeautifulSoup, Comment, NavigableString, Tag

    soup = BeautifulSoup(markup, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    out = _TextBuilder()
    buf: list[str] = []

    def flush(kind: str = "paragraph", level: int = 0) -> None:
        text = "".join(buf)
        buf.clear()
        lines = [_WS.sub(" ", ln).strip() for ln in text.split("\n")]
        out.add("\n".join(ln for ln in lines if ln), kind, level)

    def hidden(tag: Tag) -> bool:
        return (
            tag.name in _HTML_SKIP
            or tag.has_attr("hidden")
            or tag.get("aria-hidden") == "true"
            or bool(_HIDDEN_STYLE.search(tag.get("style", "") or ""))
        )

    def walk(node: Tag, pre: bool = False) -> None:
        for child in node.children:
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                s = str(child)
                buf.append(s if pre else s.replace("\n", " "))
                continue
            if not isinstance(child, Tag) or hidden(child):
                continue
            name = child.name
            if name == "br":
                buf.append("\n")
            elif name in _HTML_HEADINGS:
                flush()
                walk(child)
                flush("heading", _HTML_HEADINGS[name])
            elif name == "tr":
                flush()
                cells = []
                for cell in child.find_all(["td", "th"], recursive=False):
                    walk(cell)
                    cells.append(_WS.sub(" ", "".join(buf).replace("\n", " ")).strip())
                    buf.clear()
                buf.append(" | ".join(c for c in cells if c))
                flush("table")
            elif name in _HTML_BLOCKS:
                flush()
                walk(child, pre or name == "pre")
                flush()
            elif name in {"td", "th"}:
                buf.append(" ")
                walk(child, pre)
                buf.append(" ")
            else:
                walk(child, pre)

    walk(soup.body or soup)
    flush()
    return out.page(), title


def parse_html(path: Path) -> ParsedDocument:
    """Parse an HTML file (bytes decoded by BeautifulSoup from its meta charset, else detected).

    Raises:
        IngestError: empty file or no visible text.
    """
    data = path.read_bytes()
    if not data.strip():
        raise IngestError(str(path), "empty file")
    page, title = html_to_page(decode_text(data, path) if not re.search(rb"<meta[^>]+charset", data[:4096], re.I) else data)
    if not page.text.strip():
        raise IngestError(str(path), "no visible text in the HTML page")
    return ParsedDocument(path, "", [page], "html", title=title or path.name)


def _docx_run_visible(run) -> bool:
    """False for hidden runs (Word's "hidden" font) and white text of at most 2 pt (invisible on paper)."""
    font = run.font
    if font.hidden:
        return False
    try:
        rgb = font.color.rgb if font.color is not None and font.color.type is not None else None
    except (AttributeError, ValueError):
        rgb = None
    size = font.size.pt if font.size is not None else None
    return not (str(rgb).upper() == "FFFFFF" and size is not None and size <= 2)


def _docx_paragraph_text(paragraph) -> str:
    from docx.text.hyperlink import Hyperlink

    parts: list[str] = []
    for item in paragraph.iter_inner_content():
        runs = item.runs if isinstance(item, Hyperlink) else [item]
        parts.extend(r.text for r in runs if _docx_run_visible(r))
    return "".join(parts)


def _docx_heading_level(paragraph) -> int:
    """Heading level from the paragraph style ("Heading 2" → 2, "Title" → 1), 0 for body text."""
    style = paragraph.style
    while style is not None:
        name = (style.name or "").lower()
        if name == "title":
            return 1
        m = re.match(r"(heading|título|titulo)\s*(\d)", name)
        if m:
            return int(m.group(2))
        style = style.base_style
    return 0


def _docx_cell_text(cell) -> str:
    """Text of a table cell, nested tables included (row by row, cells joined by " | ")."""
    from docx.table import Table

    lines: list[str] = []
    for item in cell.iter_inner_content():
        if isinstance(item, Table):
            lines.extend(_docx_table_rows(item))
        else:
            text = _docx_paragraph_text(item).strip()
            if text:
                lines.append(text)
    return "\n".join(lines)


def _docx_table_rows(table) -> list[str]:
    rows: list[str] = []
    for row in table.rows:
        seen: set[int] = set()
        cells: list[str] = []
        for cell in row.cells:
            if id(cell._tc) in seen:  # merged cells repeat the same <w:tc>
                continue
            seen.add(id(cell._tc))
            text = _docx_cell_text(cell)
            if text:
                cells.append(text)
        if cells:
            rows.append(" | ".join(cells))
    return rows


def parse_docx(path: Path) -> ParsedDocument:
    """Parse a Word file with python-docx: paragraphs (visible runs), headings by style, tables by rows.

    Raises:
        IngestError: not a DOCX (zip) file, damaged, or no text.
    """
    import docx
    from docx.table import Table

    if path.stat().st_size == 0:
        raise IngestError(str(path), "empty file (0 bytes)")
    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx raises PackageNotFoundError, KeyError, BadZipFile...
        raise IngestError(str(path), f"not a readable Word (.docx) file ({exc})") from exc
    out = _TextBuilder()
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            out.add("\n".join(_docx_table_rows(item)), "table")
        else:
            level = _docx_heading_level(item)
            out.add(_docx_paragraph_text(item), "heading" if level else "paragraph", level)
    page = out.page()
    if not page.text.strip():
        raise IngestError(str(path), "no text in the Word file")
    title = (document.core_properties.title or "").strip()
    return ParsedDocument(path, "", [page], "docx", title=title or path.name)


def parse_email(path: Path) -> ParsedDocument:
    """Parse an RFC 822 ``.eml`` message with the standard library ``email`` package.

    The page text is the From/To/Cc/Date/Subject headers (one block) followed by
    the ``text/plain`` body, or the ``text/html`` body through :func:`html_to_page`
    when there is no plain part. Attachments are not indexed.

    Raises:
        IngestError: empty file or no readable body.
    """
    import email
    import email.policy

    data = path.read_bytes()
    if not data.strip():
        raise IngestError(str(path), "empty file")
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
    except Exception as exc:
        raise IngestError(str(path), f"not a readable e-mail message ({exc})") from exc
    out = _TextBuilder()
    header_lines = [f"{name}: {msg[name]}" for name in ("From", "To", "Cc", "Date", "Subject") if msg[name]]
    out.add("\n".join(header_lines), "header")
    body = msg.get_body(preferencelist=("plain", "html"))
    if body is not None:
        try:
            content = body.get_content()
        except Exception as exc:  # unknown charset or broken transfer encoding
            raise IngestError(str(path), f"e-mail body could not be decoded ({exc})") from exc
        if body.get_content_subtype() == "html":
            html_page, _ = html_to_page(content)
            for b in html_page.blocks:
                out.add(html_page.text[b.start : b.end], b.kind, b.level)
        else:
            sub = text_blocks(content)
            for b in sub:
                out.add(content[b.start : b.end])
    page = out.page()
    if not page.text.strip():
        raise IngestError(str(path), "e-mail has no text")
    return ParsedDocument(path, "", [page], "email", title=str(msg["Subject"] or "") or path.name)


def parse_file(path: Path, *, ocr: bool | None = None) -> ParsedDocument:
    """Parse one supported file into pages.

    Args:
        ocr: allow OCR of scanned PDF pages; ``None`` reads ``Settings().ocr_enabled``
            (environment ``VERBATIM_OCR_ENABLED``).

    Raises:
        IngestError: the file cannot be read; the message names it and says why.
    """
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
    if ocr is None:
        from core.settings import Settings

        ocr = Settings().ocr_enabled
    if suffix in PDF_SUFFIXES:
        parsed = parse_pdf(path, ocr=ocr)
    elif suffix in TEXT_SUFFIXES:
        text = read_text_file(path)
        page = PageText(page=1, text=text, blocks=text_blocks(text, markdown=suffix != ".txt" and suffix != ".text"))
        parsed = ParsedDocument(path, "", [page], "text", title=path.name)
    elif suffix in DOCX_SUFFIXES:
        parsed = parse_docx(path)
    elif suffix in HTML_SUFFIXES:
        parsed = parse_html(path)
    elif suffix in EMAIL_SUFFIXES:
        parsed = parse_email(path)
    else:
        raise IngestError(str(path), f"unsupported file type '{suffix}'")
    parsed.sha256 = digest
    return parsed


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

    A scanned page is OCRed again (deterministic for the same Tesseract data).
    """
    path = Path(path)
    try:
        if path.suffix.lower() in PDF_SUFFIXES:
            with pymupdf.open(path) as doc:
                pg = doc.load_page(page - 1)
                result = _pdf_page_text(pg)
                if text_layer_problem(result, bool(pg.get_images(full=False))):
                    if ocr is None:
                        from core.settings import Settings

                        ocr = Settings().ocr_enabled
                    tessdata = tessdata_dir() if ocr else None
                    if tessdata:
                        tp = pg.get_textpage_ocr(flags=_PDF_FLAGS, language=OCR_LANGUAGES, dpi=OCR_DPI, full=True, tessdata=tessdata)
                        result = _page_text_from_textpage(pg, pg.get_text("rawdict", textpage=tp, flags=_PDF_FLAGS, sort=True))
                        result.modality = "ocr"
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
    cites the same page several times; a streamed answer verifies claim by claim)."""
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
        with pymupdf.open(path) as doc:
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
