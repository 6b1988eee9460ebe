"""Table rows as records: each row written with its column names.

A row of a long table ("4B-17 | 1.250,00 | 2025-03-01") does not say what its values are once
its header row is pages away, so a question naming the row ("monthly rent of unit 4B-17")
finds nothing that says "rent". Written as a record ("Unit: 4B-17 | Monthly rent: 1.250,00 |
Start: 2025-03-01") each row carries its column names into its chunk and its BM25 terms.
"""

from __future__ import annotations

import re

RECORD_SEP = " | "
"""Between the fields of a record line."""
RECORD_END = "."
"""Ends a record that carries column names, so that a sentence segmenter (the passages answer's,
:func:`core.passages.sentence_spans`) reads each record as one sentence instead of joining the rows
of a table into one span (they have no sentence end of their own)."""

_NUMERIC = re.compile(r"^[\s\-+()€$£%.,:/\d]*$")


def looks_like_header(cells: list[str]) -> bool:
    """True when a row can name columns: at least two non-empty cells, none of them numbers, dates or amounts,
    and no two alike."""
    filled = [c for c in cells if c.strip()]
    return (len(filled) >= 2 and not any(_NUMERIC.match(c) for c in filled)
            and len({c.casefold() for c in filled}) == len(filled))


#: A column votes for a header when at least this share of its data cells are numbers, dates or amounts.
NUMERIC_COLUMN_SHARE = 0.8
#: Fewer data rows than this never get a header by guessing (a short two-column table is usually
#: "label | value" pairs, whose first pair must not name the columns).
MIN_GUESS_ROWS = 3


def has_header(rows: list[list[str]]) -> bool:
    """Whether the first row names the columns, guessed the way Python's ``csv.Sniffer.has_header`` does:
    by contrast of types between the first row and the rest.

    The first row must :func:`looks_like_header`; then at least one column whose data cells are
    (:data:`NUMERIC_COLUMN_SHARE`) numbers, dates or amounts must have a non-numeric first cell,
    and there must be :data:`MIN_GUESS_ROWS` data rows. A key–value table ("Governing law |
    Spanish law") has no such column and gets no header.
    """
    if len(rows) < MIN_GUESS_ROWS + 1 or not looks_like_header(rows[0]):
        return False
    for col in range(len(rows[0])):
        if not rows[0][col]:
            continue
        values = [r[col] for r in rows[1:] if col < len(r) and r[col]]
        if len(values) >= MIN_GUESS_ROWS and sum(bool(_NUMERIC.match(v)) for v in values) >= NUMERIC_COLUMN_SHARE * len(values):
            return True
    return False


def record_line(header: list[str] | None, cells: list[str]) -> str:
    """One row as a line: ``"Name: value | Name: value."`` (empty cells left out, :data:`RECORD_END`
    last), or the non-empty cells joined by :data:`RECORD_SEP` without a header."""
    if header is None:
        return RECORD_SEP.join(c for c in cells if c)
    out = []
    for i, value in enumerate(cells):
        if not value:
            continue
        name = header[i] if i < len(header) else ""
        out.append(f"{name}: {value}" if name else value)
    line = RECORD_SEP.join(out)
    return line if not line or line.endswith(RECORD_END) else line + RECORD_END


def record_lines(rows: list[list[str]], header: bool | None = None) -> list[str]:
    """A table's rows (cell texts, row by row) as record lines (:func:`record_line`).

    Args:
        header: whether the first non-empty row is the header (a DOCX row marked to repeat on
            each page, a PDF table whose finder named the columns); ``None``: guessed by
            :func:`has_header`.

    The header row is written
    once, as itself, and every later row equal to it (a header repeated on each page) is left
    out. Cell texts have their line breaks turned into spaces so a record is one line. Empty rows
    give nothing.
    """
    clean = [[" ".join(str(c or "").split()) for c in row] for row in rows]
    clean = [row for row in clean if any(row)]
    if not clean:
        return []
    named = has_header(clean) if header is None else header and looks_like_header(clean[0])
    header_row = clean[0] if named else None
    lines = []
    if header_row is not None:
        lines.append(RECORD_SEP.join(c for c in header_row if c))
    for row in clean[1:] if header_row is not None else clean:
        if header_row is not None and row == header_row:
            continue
        lines.append(record_line(header_row, row))
    return lines
