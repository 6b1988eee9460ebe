"""Office formats other than Word's .docx: OpenDocument text, RTF, Excel .xlsx and PowerPoint .pptx.

Libraries, chosen by maintenance and licence (the product is proprietary, so no GPL):

* ``.odt`` — **odfdo** (Apache-2.0, releases through 2026; odfpy's last release is from 2020):
  headings, paragraphs, lists and tables in document order. Reviewers' comments
  (``office:annotation``) and tracked deletions are not the document's text and are left out.
* ``.rtf`` — **striprtf** (BSD-3-Clause, maintained): RTF control words removed, ``\\'xx``
  escapes decoded with the file's code page; comment destinations (``{\\*\\annotation}``) are
  ignored by it like every other ``\\*`` destination.
* ``.xlsx`` / ``.xlsm`` — **openpyxl** (MIT, the reference reader of the format): one sheet is one
  "page"; each row is one line, written as a record with its column names
  (:func:`core.ingest.tables.record_lines`) so that a question about one row finds it.
  Formulas give their last computed value (``data_only=True``).
* ``.pptx`` — **python-pptx** (MIT): one slide is one "page": its title, then its text frames,
  tables (as records) and grouped shapes in reading order; speaker notes last, labelled.

Every reader raises :class:`core.errors.IngestError` naming the file when the bytes are not a
readable file of that format (a damaged or mislabelled file), never returns an empty document.
"""

from __future__ import annotations

import datetime as _dt
import io
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import PageText, ParsedDocument, TextBuilder
from core.ingest.tables import record_lines


def _source(path: Path, data: bytes | None):
    return io.BytesIO(data) if data is not None else path


def _empty(path: Path, kind: str) -> IngestError:
    return IngestError(str(path), f"{kind} has no text")


# --- OpenDocument text ------------------------------------------------------------------
def parse_odt(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse an OpenDocument text file (``.odt``) into one page of headings, paragraphs and tables.

    Raises:
        IngestError: not a readable OpenDocument file, or no text.
    """
    try:
        from odfdo import Document

        doc = Document(_source(path, data))
        body = doc.body
    except Exception as exc:
        raise IngestError(str(path), f"not a readable OpenDocument text file ({exc})") from exc
    for tag in ("office:annotation", "office:annotation-end", "text:tracked-changes"):
        for el in body.get_elements(f"descendant::{tag}"):
            el.delete()
    out = TextBuilder()

    def walk(el) -> None:
        tag = el.tag
        if tag == "text:h":
            level = int(el.get_attribute("text:outline-level") or 1)
            out.add(el.text_recursive or "", "heading", level)
        elif tag == "text:p":
            out.add(el.text_recursive or "")
        elif tag == "table:table":
            rows = [[(c.text_recursive or "").strip() for c in row.get_cells()] for row in el.get_rows()]
            lines = record_lines(rows)
            if lines:
                out.add("\n".join(lines), "table")
        else:  # lists, list items, sections, frames: their paragraphs in order
            for child in el.children:
                walk(child)

    for child in body.children:
        walk(child)
    page = out.page()
    if not page.text.strip():
        raise _empty(path, "OpenDocument file")
    title = ""
    try:
        title = doc.meta.get_title() or ""
    except Exception:
        pass
    return ParsedDocument(path, "", [page], "odt", title=title.strip() or path.name)


# --- RTF ------------------------------------------------------------------------------------
def parse_rtf(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse an RTF file into one page of paragraphs (``\\par`` ends a line, an empty line a paragraph).

    Raises:
        IngestError: not RTF (no ``{\\rtf`` header), or no text.
    """
    import re

    from striprtf.striprtf import rtf_to_text

    from core.ingest.text import text_blocks

    raw = path.read_bytes() if data is None else data
    if not raw.lstrip().startswith(b"{\\rtf"):
        raise IngestError(str(path), "not an RTF file (no {\\rtf header)")
    cp = re.search(rb"\\ansicpg(\d+)", raw[:4096])
    encoding = f"cp{int(cp.group(1))}" if cp else "cp1252"
    try:
        text = rtf_to_text(raw.decode("latin-1"), encoding=encoding, errors="replace")
    except LookupError:
        text = rtf_to_text(raw.decode("latin-1"), encoding="cp1252", errors="replace")
    except Exception as exc:
        raise IngestError(str(path), f"RTF could not be read ({exc})") from exc
    # single \par breaks end lines; a paragraph per non-empty line reads as the author wrote it
    text = "\n\n".join(line.strip() for line in text.replace("\r", "").split("\n") if line.strip())
    if not text:
        raise _empty(path, "RTF file")
    page = PageText(page=1, text=text, blocks=text_blocks(text))
    return ParsedDocument(path, "", [page], "rtf", title=path.name)


# --- Excel ------------------------------------------------------------------------------------
def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, _dt.datetime):
        return value.date().isoformat() if value.time() == _dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def parse_xlsx(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse an Excel workbook (``.xlsx``/``.xlsm``): one page per sheet with text, rows as records.

    Page text of a sheet: the sheet name (a heading), then one line per non-empty row,
    ``"Column: value | Column: value"`` after the header row (:func:`core.ingest.tables.record_lines`).
    Hidden sheets are read too (a lawyer's question may be about them); empty sheets give no page.

    Raises:
        IngestError: not a readable workbook, or no cell with text in any sheet.
    """
    try:
        import openpyxl

        wb = openpyxl.load_workbook(_source(path, data), read_only=True, data_only=True)
    except Exception as exc:
        raise IngestError(str(path), f"not a readable Excel workbook ({exc})") from exc
    pages: list[PageText] = []
    try:
        for ws in wb.worksheets:
            rows = [[_cell_text(v) for v in row] for row in ws.iter_rows(values_only=True)]
            lines = record_lines(rows)
            if not lines:
                continue
            out = TextBuilder()
            out.add(ws.title, "heading", 1)
            out.add("\n".join(lines), "table")
            page = out.page()
            page.page = len(pages) + 1
            pages.append(page)
        title = (wb.properties.title or "") if wb.properties else ""
    finally:
        wb.close()
    if not pages:
        raise _empty(path, "workbook")
    return ParsedDocument(path, "", pages, "xlsx", title=title.strip() or path.name)


# --- PowerPoint ---------------------------------------------------------------------------------
def _shape_texts(shape, out: TextBuilder) -> None:
    if getattr(shape, "shapes", None) is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
        for sub in shape.shapes:
            _shape_texts(sub, out)
        return
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[cell.text.strip() for cell in row.cells] for row in shape.table.rows]
        lines = record_lines(rows)
        if lines:
            out.add("\n".join(lines), "table")
        return
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        for para in shape.text_frame.paragraphs:
            out.add(para.text)


def parse_pptx(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse a PowerPoint presentation (``.pptx``): one page per slide (title, text, tables, notes).

    Raises:
        IngestError: not a readable presentation, or no text on any slide.
    """
    try:
        from pptx import Presentation

        prs = Presentation(_source(path, data))
    except Exception as exc:
        raise IngestError(str(path), f"not a readable PowerPoint presentation ({exc})") from exc
    pages: list[PageText] = []
    for number, slide in enumerate(prs.slides, 1):
        out = TextBuilder()
        title_shape = slide.shapes.title
        if title_shape is not None and title_shape.has_text_frame:
            out.add(title_shape.text_frame.text, "heading", 1)
        for shape in slide.shapes:
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            _shape_texts(shape, out)
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            out.add(slide.notes_slide.notes_text_frame.text, label="speaker notes")
        page = out.page()
        page.page = number
        pages.append(page)
    if not any(p.text.strip() for p in pages):
        raise _empty(path, "presentation")
    title = (prs.core_properties.title or "") if prs.core_properties else ""
    return ParsedDocument(path, "", pages, "pptx", title=title.strip() or path.name)
