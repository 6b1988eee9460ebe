"""Tables on PDF pages: one line per row, cells in order, and the column names of the table.

MuPDF's text lines of a table are its cells, one per line ("A-200", "Grupo Alisio", "1.600,00"…,
each its own line), so a row was never one piece of text and no chunk said which column a value
is in (case B47). Here a table's rows are rebuilt from the page's own lines:

* **Rows** are heights at which three or more separate lines sit side by side (centres within
  :data:`SAME_ROW_PT`); :data:`MIN_ROWS` such rows one after the other, with nothing else between
  them, are a table. Each row becomes one :class:`core.ingest.pdf_lines.Line` whose text is its
  cells left to right, joined by ``" | "`` and ended by ``"."`` (:data:`core.ingest.tables.RECORD_SEP`,
  ``RECORD_END``); the inserted characters have no box, so a highlight covers only the cells. The
  page text stays a function of the page alone, so re-extracting one page for highlighting gives
  the same offsets.
* **Column names**: a table whose first row names its columns (:func:`core.ingest.tables.has_header`)
  gives them to its block (``Block.columns``); a table on a later page without a header row gets
  the names of the table before it with as many columns (:func:`carry_columns`, document level).
  The chunker puts them in the chunk's context line (embedded and searched, never quoted), so
  "monthly rent of unit D-207" finds the row on page 4.

Why not PyMuPDF's table finder (``page.find_tables()``): the product runs PyMuPDF without
pymupdf-layout (core/offline.py blocks onnxruntime, whose import starts a telemetry client), and
then the finder's "lines" strategy finds no table without ruling lines, while its "text" strategy
cut B47's cells ("Librería Ca | ndil", the title's words made column edges, a header row came out
as "UnitTena | nt") and split each row into two (measured 2026-12-01: 91 rows for 46 on page 2).
Grouping the lines MuPDF already found costs nothing measurable (no second pass over the page).
Known limits: a cell wrapped over two lines breaks its row out of the table; a table of two columns
is read as before (two lines side by side are also two-column text).
"""

from __future__ import annotations

from core.ingest.base import PageText
from core.ingest.pdf_lines import Line
from core.ingest.tables import RECORD_END, RECORD_SEP, has_header

#: Rows (heights with three or more lines side by side) in a row that make a table.
MIN_ROWS = 5
#: Lines whose vertical centres are this close (PDF points) sit at one height.
SAME_ROW_PT = 2.0
#: Lines side by side at one height that make a row.
MIN_CELLS = 3


def _bands(lines: list) -> list[list[int]]:
    """Indexes of ``lines`` grouped by height (centres within :data:`SAME_ROW_PT`), top to bottom."""
    order = sorted(range(len(lines)), key=lambda n: (lines[n].bbox[1] + lines[n].bbox[3]) / 2)
    bands: list[list[int]] = []
    top = None
    for n in order:
        y = (lines[n].bbox[1] + lines[n].bbox[3]) / 2
        if top is None or y - top > SAME_ROW_PT:
            bands.append([])
            top = y
        bands[-1].append(n)
    return bands


def _is_row(lines: list, band: list[int]) -> bool:
    spans = sorted((lines[n].bbox[0], lines[n].bbox[2]) for n in band)
    return len(band) >= MIN_CELLS and all(b[0] >= a[1] for a, b in zip(spans, spans[1:]))


def table_lines(lines: list) -> tuple[list, dict[float, tuple[str, ...]]]:
    """Replace the lines of each table on the page by one line per row (see the module docstring).

    Args:
        lines: the page's :class:`core.ingest.pdf_lines.Line` list (unrotated page space).

    Returns:
        ``(lines, columns)``: the new line list (horizontal text only is grouped), and for each
        table's block number its column names (``()`` when the table has no header row).
    """
    bands = _bands(lines)
    tables: list[list[list[int]]] = []
    run: list[list[int]] = []
    for band in bands + [[]]:
        if band and _is_row(lines, band):
            run.append(band)
            continue
        if len(run) >= MIN_ROWS:
            tables.append(run)
        run = []
    if not tables:
        return lines, {}
    columns: dict[float, tuple[str, ...]] = {}
    used: set[int] = set()
    new_lines = []
    for t_no, rows in enumerate(tables):
        block_no = min(lines[n].block for row in rows for n in row) + 0.5 + t_no / 1000
        texts = []
        for r, row in enumerate(rows):
            cells = sorted(row, key=lambda n: lines[n].bbox[0])
            used.update(cells)
            chars: list[tuple[str, tuple | None]] = []
            for k, n in enumerate(cells):
                if k:
                    chars.extend((c, None) for c in RECORD_SEP)
                chars.extend(lines[n].chars)
            texts.append(["".join(c for c, _ in lines[n].chars).strip() for n in cells])
            if chars[-1][0] != RECORD_END:
                chars.append((RECORD_END, None))
            x0 = min(lines[n].bbox[0] for n in cells)
            y0 = min(lines[n].bbox[1] for n in cells)
            x1 = max(lines[n].bbox[2] for n in cells)
            y1 = max(lines[n].bbox[3] for n in cells)
            new_lines.append(Line((x0, y0, x1, y1), block_no, r, chars, max(lines[n].size for n in cells)))  # type: ignore[arg-type]
        width = max(len(t) for t in texts)
        columns[block_no] = tuple(texts[0]) if len(texts[0]) == width and has_header(texts) else ("",) * width
    return [ln for n, ln in enumerate(lines) if n not in used] + new_lines, columns


def carry_columns(pages: list[PageText]) -> None:
    """Give a table without a header row the column names of the table before it with as many columns
    (in place, across the document's pages in order); tables that end up without names get none."""
    current: tuple[str, ...] = ()
    for page in pages:
        for block in page.blocks:
            if block.kind != "table" or not block.columns:
                continue
            if any(block.columns):
                current = block.columns
            elif current and len(current) == len(block.columns):
                block.columns = current
            else:
                block.columns = ()
