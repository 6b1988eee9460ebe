"""PDF: page texts with per-character boxes (PyMuPDF), form values, OCR of unusable pages.

**Page text.** Built from PyMuPDF's ``rawdict`` (per-character boxes, ``sort=True``)
by :func:`core.ingest.pdf_layout.page_text_from_rawdict`: columns read one after the
other, superscript and subscript markers written as such ("EUR 320¹"), form fields'
values after their labels ("Monthly rent (EUR): 1.475,00", a checkbox as "Yes"/"No").
Extraction is deterministic for an unchanged file, so the per-character boxes are not
stored in the index: they are re-extracted for the one page a citation needs
(:func:`core.ingest.span_rects`). Boxes are in the *displayed* page's space
(``page.rect``, rotation applied), PDF points.

**Running headers and footers** (lines repeated at the same place on most pages) are
marked in ``PageText.running`` after all pages are read; the chunker leaves them out.

**Page labels** (``PageText.label``): the PDF's ``/PageLabels``, else the page numbers printed
in the margins when the pages agree on one sequence (:mod:`core.ingest.page_labels`).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from core.errors import IngestError
from core.ingest.base import PageText, ParsedDocument
from core.ingest.page_labels import pdf_page_labels, printed_page_labels
from core.ingest.pdf_tables import carry_columns
from core.ingest.ocr import OCR_LANGUAGES, PDF_FLAGS, ocr_page, tessdata_dir, text_layer_problem
from core.ingest.pdf_layout import FormValue, find_running_lines, page_text_from_rawdict

# MuPDF printed its errors on stdout ("MuPDF error: format error: object is not a stream"), where
# `verbatim index` writes its report, even with --quiet (tryout 5, finding 12). PyMuPDF keeps every
# message in its store whatever it displays: nothing is displayed, and parse_pdf reports a damaged
# file's messages as that file's own warning or failure (_mupdf_problems).
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

#: MuPDF's messages about its own repair steps, left out of a file's problems (they say nothing of the file).
_MUPDF_STEPS = ("trying to repair", "repairing PDF document", "... repeated", "page tree load failed")
#: Most of MuPDF's distinct messages quoted in one file's warning or failure.
_MUPDF_MESSAGES = 2

# Fewer extracted characters than this on every page → treat the PDF as scanned.
_MIN_TEXT_CHARS = 20

_CHECKED = {"en": ("Yes", "No"), "es": ("Sí", "No")}


def _form_values(page: pymupdf.Page) -> list[FormValue]:
    """The values of the page's form fields (widgets), as they should read in the text.

    Text and choice fields give their value (``/V``); a checkbox or radio button gives a
    readable state, "Yes" or "No" ("Sí"/"No" on a Spanish page), never its check glyph
    (a ZapfDingbats "3" or "4" in the appearance stream, case B36). Push buttons and
    signatures give nothing. Rectangles are unrotated page space, like ``rawdict``'s.
    """
    widgets = list(page.widgets() or [])
    if not widgets:
        return []
    lang = None
    out: list[FormValue] = []
    for w in widgets:
        kind = w.field_type
        value = w.field_value
        if kind in (pymupdf.PDF_WIDGET_TYPE_CHECKBOX, pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON):
            if lang is None:
                from core.textproc import detect_language

                lang = detect_language(page.get_text("text", flags=PDF_FLAGS))
            yes, no = _CHECKED.get(lang, _CHECKED["en"])
            checked = value not in (None, False, "", "Off", "off")
            text = yes if checked else no
        elif kind in (pymupdf.PDF_WIDGET_TYPE_TEXT, pymupdf.PDF_WIDGET_TYPE_COMBOBOX, pymupdf.PDF_WIDGET_TYPE_LISTBOX):
            text = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value or "")
        else:
            continue
        r = w.rect
        out.append(FormValue((r.x0, r.y0, r.x1, r.y1), text))
    return out


#: Annotations that draw text of their own on the page (a reviewer's typed box, a stamp). MuPDF's text
#: extraction runs the page with its annotations, so their words came out as page text (case B48).
_TEXT_ANNOTS = (pymupdf.PDF_ANNOT_FREE_TEXT, pymupdf.PDF_ANNOT_STAMP)


def reviewer_notes(page: pymupdf.Page) -> list[tuple[str, str]]:
    """The page's reviewers' notes: ``(kind, text)`` of every markup annotation that carries text
    (a FreeText box, a sticky note, a comment on a highlight, underline or strike-out, a stamp).

    These are not the document's text: :func:`text_layer_page` keeps them out of the page text and
    :func:`parse_pdf` names them in the document's warnings. Links, widgets (form fields) and popups
    are not notes.
    """
    if page.first_annot is None:
        return []
    out = []
    for annot in page.annots():
        kind = annot.type[1]
        if kind in ("Link", "Widget", "Popup"):
            continue
        text = " ".join((annot.info.get("content") or "").split())
        if text or annot.type[0] in _TEXT_ANNOTS:
            out.append((kind, text))
    return out


def _drop_annotation_text(page: pymupdf.Page, raw: dict) -> None:
    """Remove from ``raw`` (rawdict, in place) the characters drawn by FreeText and stamp annotations:
    those whose centre lies inside such an annotation's rectangle (both in unrotated page space)."""
    rects = [annot.rect for annot in page.annots(types=_TEXT_ANNOTS)]
    if not rects:
        return
    for block in raw.get("blocks", []):
        for line in block.get("lines", []):
            for span in line.get("spans", []):
                chars = span.get("chars", [])
                kept = []
                for ch in chars:
                    x0, y0, x1, y1 = ch["bbox"]
                    centre = pymupdf.Point((x0 + x1) / 2, (y0 + y1) / 2)
                    if not any(centre in r for r in rects):
                        kept.append(ch)
                span["chars"] = kept
            line["spans"] = [sp for sp in line.get("spans", []) if sp.get("chars")]
        block["lines"] = [ln for ln in block.get("lines", []) if ln.get("spans")]


def text_layer_page(page: pymupdf.Page) -> PageText:
    """The page text of a page's text layer (with form values; no OCR; without reviewers' notes,
    see :func:`reviewer_notes`)."""
    fields = _form_values(page) if page.first_widget is not None else []
    raw = page.get_text("rawdict", flags=PDF_FLAGS, sort=True)
    if page.first_annot is not None:
        _drop_annotation_text(page, raw)
    return page_text_from_rawdict(page, raw, fields, tables=True)


def extract_page(
    page: pymupdf.Page, *, tessdata: str | None, languages: str = OCR_LANGUAGES, confidence: bool = True
) -> tuple[PageText, str | None]:
    """One page's text: the text layer, or OCR when the layer is unusable and ``tessdata`` is given
    (``confidence``: measure the OCR confidence, see :func:`core.ingest.ocr.ocr_page`).

    Returns:
        ``(page_text, problem)``: ``problem`` is why the text layer is unusable
        (:func:`core.ingest.ocr.text_layer_problem`) when no OCR could replace it (then
        the page text is empty), else ``None``.
    """
    result = text_layer_page(page)
    problem = text_layer_problem(result, bool(page.get_images(full=False)))
    if not problem:
        return result, None
    if tessdata:
        return ocr_page(page, languages=languages, tessdata=tessdata, confidence=confidence), None
    return PageText(page=page.number + 1, text=""), problem


def _mupdf_problems() -> str:
    """MuPDF's messages since the last call, as words for a file's warning ("cannot find version
    marker, PDF stream Length incorrect"), at most :data:`_MUPDF_MESSAGES` distinct ones, or ''.

    Reads and clears PyMuPDF's message store (``pymupdf.TOOLS.mupdf_warnings``), which holds
    MuPDF's warnings and errors alike; its "format error: " prefix and its repair steps are left
    out. The store is global to the process: a PDF read at the same time in another thread may add
    its messages, which is why they are only quoted for a file MuPDF had to repair."""
    out: list[str] = []
    for line in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines():
        line = line.strip().removeprefix("format error: ").strip()
        if line and not line.startswith(_MUPDF_STEPS) and line not in out:
            out.append(line)
    return ", ".join(out[:_MUPDF_MESSAGES])


def open_pdf(path: Path, data: bytes | None = None) -> pymupdf.Document:
    """Open a PDF file (or its bytes, for an attachment whose member path is ``path``).

    Raises:
        IngestError: empty, not a PDF (an HTML page saved as .pdf...), or damaged.
    """
    if data is None:
        if path.stat().st_size == 0:
            raise IngestError(str(path), "empty file (0 bytes)")
        with open(path, "rb") as fh:
            head = fh.read(1 << 16)
    else:
        if not data:
            raise IngestError(str(path), "empty file (0 bytes)")
        head = data[: 1 << 16]
    # PyMuPDF content-sniffs and will happily open an HTML error page saved as
    # .pdf; a PDF has a %PDF- header or, if that was stripped, object markers.
    if b"%PDF-" not in head[:1024] and b" obj" not in head:
        kind = "an HTML page" if b"<html" in head[:512].lower() else "another kind of file"
        raise IngestError(str(path), f"not a PDF (the file is {kind} with a .pdf name)")
    try:
        if data is None:
            return pymupdf.open(path, filetype="pdf")
        return pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for damaged files
        raise IngestError(str(path), f"not a readable PDF (damaged or not a PDF: {exc})") from exc


def parse_pdf(
    path: Path, password: str | None = None, *, ocr: bool = True, languages: str = OCR_LANGUAGES,
    data: bytes | None = None,
) -> ParsedDocument:
    """Extract every page of a PDF; scanned, garbage or garbled pages are OCRed when Tesseract is there.

    Args:
        ocr: allow OCR of pages without a usable text layer.
        languages: Tesseract languages, ``+``-joined.
        data: the PDF's bytes when it is not a file of its own (an e-mail attachment);
            ``path`` is then its member path, used in messages.

    Returns:
        A :class:`ParsedDocument` (``kind="pdf"``). Pages needing OCR while OCR is
        off or unavailable keep empty text and are listed in ``warnings`` with the
        reason, when other pages have text; a file MuPDF had to repair (``is_repaired``) is read
        with a warning (page ``None``) quoting MuPDF's messages. Running headers and footers are marked
        in each page's ``running`` spans.

    Raises:
        IngestError: empty file, not a PDF / damaged, password-protected, or no
            readable page at all (message says "needs OCR"). Names the file and,
            when a single page fails, the page (1-based).
    """
    pymupdf.TOOLS.reset_mupdf_warnings()  # this file's messages only (_mupdf_problems)
    doc = open_pdf(path, data)
    warnings: list[tuple[int | None, str]] = []
    noted: list[tuple[int, str]] = []  # pages with reviewers' notes kept out of the text
    with doc:
        if doc.needs_pass and not (password and doc.authenticate(password)):
            raise IngestError(str(path), "password-protected PDF (enter the password to index it)")
        if doc.page_count == 0:
            raise IngestError(str(path), "PDF has no pages")
        labels = pdf_page_labels(doc)
        tessdata = tessdata_dir(languages) if ocr else None
        pages: list[PageText] = []
        heights: list[float] = []
        for index in range(doc.page_count):
            try:
                page = doc.load_page(index)
                heights.append(page.rect.height)
                page_text, problem = extract_page(page, tessdata=tessdata, languages=languages)
                if problem:
                    scanned = "scanned page; " if problem == "no text layer" else ""
                    fix = "install Tesseract with eng and spa" if ocr else "OCR is turned off in the settings"
                    warnings.append((index + 1, f"{problem} ({scanned}needs OCR: {fix})"))
                page_text.label = labels[index]
                pages.append(page_text)
                notes = reviewer_notes(page)
                if notes:
                    kinds = ", ".join(sorted({k for k, _ in notes}))
                    noted.append((index + 1, f"{len(notes)} reviewer's note(s) ({kinds}) kept out of the "
                                     "document text: they are annotations, not the document"))
            except Exception as exc:
                raise IngestError(str(path), f"page could not be read ({exc})", page=index + 1) from exc
        repaired = doc.is_repaired
        title = (doc.metadata or {}).get("title") or ""
    problems = _mupdf_problems() if repaired else ""
    said = f" — MuPDF: {problems}" if problems else ""
    if sum(len(p.text.strip()) for p in pages) < _MIN_TEXT_CHARS:
        if repaired:
            raise IngestError(str(path), f"damaged or truncated PDF (no text could be recovered){said}")
        first = warnings[0][0] if warnings else None
        if warnings:
            raise IngestError(str(path), warnings[0][1], page=first)
        raise IngestError(str(path), "no text layer (scanned or image-only PDF; needs OCR)")
    find_running_lines(pages, heights)
    carry_columns(pages)
    if not any(p.label for p in pages):  # no /PageLabels: the number printed in the margins, if consistent
        for page, label in zip(pages, printed_page_labels(pages, heights)):
            page.label = label
    if repaired:  # read, but from a damaged file: its text may not be all of it
        warnings.insert(0, (None, f"damaged PDF: the file was repaired when read; compare its text with the "
                                  f"original{said}"))
    return ParsedDocument(path, "", pages, "pdf", title=title.strip() or path.name, warnings=warnings + noted)
