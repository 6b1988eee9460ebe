"""Export a review grid (:mod:`core.grid`) as CSV, XLSX (openpyxl), JSON or PDF (PyMuPDF).

One row per document; per question, the cell's answer and, in the columns beside it, its
status, the quote, the page label and the physical page (1-based), so a reader of the sheet can
find the clause without Verbatim. Nothing here writes anything but the output file.
"""

from __future__ import annotations

import csv
import html
import json
from datetime import datetime
from pathlib import Path

from core.grid import GridCell, GridColumn

#: What each cell status is called in an export (the window translates its own).
STATUS_TEXT = {"answered": "answered", "weak": "weak (closest passage, not an answer)",
               "not_found": "not found in this document"}
#: Sub-columns written per question (the reviewer's note too: nothing a reviewer writes is lost on export).
PARTS = ("answer", "status", "quote", "page label", "page", "reviewer's note")
#: Said of a corrected cell's quote: it is the machine's, not a source of the reviewer's correction.
MACHINE_QUOTE = "the quote and page are the machine's answer's, not checked against the correction"


def status_text(cell: GridCell) -> str:
    """The cell's status as an export or the CLI writes it (English); a "not found" cell says what was
    searched: the clause types whose contract wording was searched beside the question, and how many
    passages (retrieved chunks) of the document were scored."""
    text = STATUS_TEXT[cell.status]
    if cell.status != "not_found" or not (cell.searched_clauses or cell.searched_passages):
        return text
    labels = cell.searched_labels.get("en") or list(cell.searched_clauses)
    what = (f"the wording of {', '.join(labels)} clauses and the question" if labels else "the question")
    return f"{text} (searched: {what}; {cell.searched_passages} passages)"


def _header(columns: list[GridColumn]) -> list[str]:
    head = ["document"]
    for c in columns:
        head += [c.question if p == "answer" else f"{c.id}: {p}" for p in PARTS]
    return head


def _cell_values(cell: GridCell | None) -> list[object]:
    if cell is None:
        return ["", "not computed", "", "", "", ""]
    text = cell.correction or cell.text
    status = status_text(cell) + (" · reviewed" if cell.reviewed else "") + \
        (f" · corrected by reviewer ({MACHINE_QUOTE})" if cell.correction and cell.quote else
         " · corrected by reviewer" if cell.correction else "")
    return [text, status, cell.quote, cell.page_label, cell.page or "", cell.note]


def grid_rows(columns: list[GridColumn], doc_ids: list[str], cells: dict[tuple[str, str], GridCell]) -> list[list]:
    """The table as rows of values: a header row, then one row per document."""
    rows: list[list] = [_header(columns)]
    for d in doc_ids:
        row: list = [d]
        for c in columns:
            row += _cell_values(cells.get((d, c.id)))
        rows.append(row)
    return rows


def export_grid(path: Path, columns: list[GridColumn], doc_ids: list[str],
                cells: dict[tuple[str, str], GridCell], *, workspace: str = "") -> Path:
    """Write the grid to ``path``; the format follows its suffix (``.csv``, ``.xlsx``, ``.json``, ``.pdf``).

    Raises:
        ValueError: an unknown suffix (the message lists the known ones).
        OSError: the file cannot be written.
    """
    path = Path(path)
    kind = path.suffix.lower()
    rows = grid_rows(columns, doc_ids, cells)
    if kind == ".csv":
        with path.open("w", newline="", encoding="utf-8-sig") as f:  # BOM: Excel opens UTF-8 correctly
            csv.writer(f).writerows(rows)
    elif kind == ".xlsx":
        from openpyxl import Workbook
        from openpyxl.styles import Alignment, Font

        wb = Workbook()
        ws = wb.active
        ws.title = "Grid"
        for row in rows:
            ws.append(row)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in ws.iter_rows(min_row=2):
            for cell in row:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
        ws.freeze_panes = "B2"
        info = wb.create_sheet("About")
        info.append(["workspace", workspace])
        info.append(["exported", datetime.now().isoformat(timespec="seconds")])
        info.append(["statuses", "; ".join(STATUS_TEXT.values())])
        wb.save(path)
    elif kind == ".json":
        data = {"workspace": workspace, "exported": datetime.now().isoformat(timespec="seconds"),
                "columns": [c.model_dump() for c in columns], "documents": doc_ids,
                "cells": [cells[(d, c.id)].model_dump(exclude={"answer"}) for d in doc_ids for c in columns
                          if (d, c.id) in cells]}
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    elif kind == ".pdf":
        _export_pdf(path, columns, doc_ids, cells, workspace)
    else:
        raise ValueError(f"{path.name}: unknown grid format '{kind}' (use .csv, .xlsx, .json or .pdf)")
    return path


def _export_pdf(path: Path, columns: list[GridColumn], doc_ids: list[str],
                cells: dict[tuple[str, str], GridCell], workspace: str) -> None:
    """A memo-style PDF: one section per document, one line per question with its answer, its quote and page
    (the quote only when it is not the answer's own text, as a passages answer's is), and the reviewer's note."""
    import pymupdf

    e = html.escape
    parts = [f"<h2>Review grid — {e(workspace)}</h2><p>{e(datetime.now().strftime('%Y-%m-%d %H:%M'))}</p>"]
    for d in doc_ids:
        parts.append(f"<h3>{e(d)}</h3><ul>")
        for c in columns:
            cell = cells.get((d, c.id))
            text, status, quote, label, page, note = _cell_values(cell)
            where = f"p. {label}, PDF page {page}" if label and str(label) != str(page) else \
                (f"p. {page}" if page else "")
            same = " ".join(str(quote).split()) == " ".join(str(text).split())
            shown = bool(quote) and (not same or bool(cell.correction))
            quoted = f"“{e(quote)}” ({e(where)})" if shown else ""
            if quoted and (cell.correction or cell.status != "answered"):
                quoted = ("<i>Machine's quote:</i> " if cell.correction else
                          "<i>Closest passage, not an answer:</i> ") + quoted
            page_inline = f" ({e(where)})" if where and not shown else ""
            parts.append(f"<li><b>{e(c.question)}</b><br/>{e(str(text)) or '—'}{page_inline} <i>[{e(status)}]</i>"
                         + (f"<br/>{quoted}" if quoted else "")
                         + (f"<br/><i>Reviewer's note:</i> {e(note)}" if note else "") + "</li>")
        parts.append("</ul>")
    story = pymupdf.Story(html="".join(parts), user_css="body {font-family: sans-serif; font-size: 9pt;}")
    writer = pymupdf.DocumentWriter(str(path))
    rect = pymupdf.paper_rect("a4")
    where = rect + (40, 40, -40, -40)
    more = True
    while more:
        dev = writer.begin_page(rect)
        more, _ = story.place(where)
        story.draw(dev)
        writer.end_page()
    writer.close()
