"""Layout of a PDF page's extracted lines: reading order of columns, superscript and
subscript markers, running headers and footers.

Works on the lines of PyMuPDF's ``rawdict``; no text is invented here, only ordered,
re-written as Unicode super/subscripts, or marked as running lines.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from core.ingest.base import Block, Box, PageText, as_subscript, as_superscript
from core.ingest.pdf_lines import Line  # re-exported: the tables module and tests build lines too
from core.ingest.pdf_tables import table_lines

__all__ = ["FormValue", "Line", "find_running_lines", "line_chars", "page_text_from_rawdict", "reading_order"]


# Superscript and subscript markers (case B37: "EUR 320¹" read as "EUR 3201"). A span is a
# marker when its glyphs are clearly smaller than the line's body text and its baseline is
# shifted: up for a superscript, down for a subscript. The body text of a line is the font
# size carrying most of its characters, its baseline the origin of those spans. Thresholds
# are ours, chosen from typesetting practice: LaTeX sets superscripts at 70 % of the body
# size raised by about 36 % of it, Word at 65 % raised 33 %; MuPDF itself flags a glyph as
# superscript when it is raised above the previous one (``TEXT_FONT_SUPERSCRIPT``), which we
# honour only together with the size test.
_MARK_SIZE = 0.85  # a marker's size is at most this share of the body size
_RAISE = 0.15  # a superscript's baseline is at least this share of the body size higher
_LOWER = 0.08  # a subscript's baseline is at least this share lower
_MARK_CHARS = 8  # longer "raised" runs are layout, not markers
_SUPERSCRIPT_FLAG = 1  # PyMuPDF TEXT_FONT_SUPERSCRIPT (span "flags" bit 0)


def line_chars(line: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Characters of a ``rawdict`` line with their boxes, super/subscript markers rewritten.

    A span smaller than the line's body text (:data:`_MARK_SIZE`) whose baseline is raised
    (:data:`_RAISE`) or lowered (:data:`_LOWER`) and that holds at most :data:`_MARK_CHARS`
    characters is written with :func:`core.ingest.base.as_superscript` / ``as_subscript``
    (one character for one, so boxes stay aligned). Lines that are not horizontal are kept.
    """
    spans = [s for s in line.get("spans", []) if s.get("chars")]
    horizontal = abs(line.get("dir", (1.0, 0.0))[1]) < 1e-3
    body = None
    if horizontal and len(spans) > 1:
        weight: Counter[float] = Counter()
        for s in spans:
            weight[round(float(s.get("size", 0.0)), 1)] += len(s["chars"])
        body_size = weight.most_common(1)[0][0]
        baselines = sorted(s["origin"][1] for s in spans if round(float(s.get("size", 0.0)), 1) == body_size)
        if body_size > 0 and baselines:
            body = (body_size, baselines[len(baselines) // 2])
    out: list[tuple[str, tuple[float, float, float, float]]] = []
    for s in spans:
        chars = [(ch["c"], tuple(ch["bbox"])) for ch in s["chars"]]
        if body is not None:
            size = float(s.get("size", 0.0))
            body_size, baseline = body
            shift = (baseline - s["origin"][1]) / body_size  # > 0: raised (y grows downwards)
            small = 0 < size <= _MARK_SIZE * body_size and len(chars) <= _MARK_CHARS
            if small and (shift >= _RAISE or (s.get("flags", 0) & _SUPERSCRIPT_FLAG and shift > 0)):
                chars = [(as_superscript(c), b) for c, b in chars]
            elif small and shift <= -_LOWER:
                chars = [(as_subscript(c), b) for c, b in chars]
        out.extend(chars)  # type: ignore[arg-type]
    return out



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


def _is_column(lines: list[Line], total_chars: int) -> bool:
    if len(lines) < 3:
        return False
    chars = sum(len(ln.chars) for ln in lines)
    if chars < 0.2 * total_chars:
        return False
    x0 = min(ln.bbox[0] for ln in lines)
    x1 = max(ln.bbox[2] for ln in lines)
    full = sum(1 for ln in lines if ln.width >= 0.6 * (x1 - x0))
    return full >= _FULL_SHARE * len(lines)


def _find_gutter(lines: list[Line]) -> tuple[float, float] | None:
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


def reading_order(lines: list[Line], region: int = 0, counter: list[int] | None = None) -> list[tuple[int, Line]]:
    """Lines in reading order, each with the id of the column region it was read in."""
    counter = counter if counter is not None else [0]
    gutter = _find_gutter(lines)
    if gutter is None:
        return [(region, ln) for ln in sorted(lines, key=lambda ln: (ln.block, ln.seq))]
    g0, g1 = gutter
    out: list[tuple[int, Line]] = []
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
                out.extend(reading_order(side, counter[0], counter))
    return out




# --- page text ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormValue:
    """A form field's value as it should read in the page text.

    Attributes:
        rect: the widget's rectangle, PDF points, unrotated page space (as ``rawdict``).
        text: the value ("1.475,00"; a checkbox reads "Yes"/"No", see :mod:`core.ingest.pdf`).
    """

    rect: tuple[float, float, float, float]
    text: str


def _inside(box: tuple[float, float, float, float], rect: tuple[float, float, float, float]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return rect[0] <= cx <= rect[2] and rect[1] <= cy <= rect[3]


def _place_form_values(lines: list[Line], fields: list[FormValue]) -> list[Line]:
    """Put each form value right after its label, replacing the widget's appearance text.

    Case B36: MuPDF extracts a widget's appearance stream after the page content, so
    every value came out before or after all the labels, and a ticked box read "3" (a
    ZapfDingbats check). Here the characters drawn inside a widget are dropped and the
    field's value is written instead, with boxes spread over the widget's rectangle:
    on the line of its label when a line ends left of the widget at the same height
    ("Monthly rent (EUR): 1.475,00"), else as a line of its own right after the nearest
    line above it (a label set over the box), else before the first line below it.
    """
    rects = [f.rect for f in fields]
    kept: list[Line] = []
    for ln in lines:
        chars = [(c, b) for c, b in ln.chars if not any(_inside(b, r) for r in rects)]
        if chars:
            kept.append(Line(ln.bbox, ln.block, ln.seq, chars, ln.size))
    for field in fields:
        x0, y0, x1, y1 = field.rect
        text = " ".join(field.text.split())
        if not text:
            continue
        step = (x1 - x0) / max(len(text), 1)
        value = [(c, (x0 + i * step, y0, x0 + (i + 1) * step, y1)) for i, c in enumerate(text)]
        mid = (y0 + y1) / 2
        same_row = [ln for ln in kept if ln.bbox[1] <= mid <= ln.bbox[3] and ln.bbox[2] <= x0 + 2]
        if same_row:
            label = max(same_row, key=lambda ln: ln.bbox[2])
            gap = (label.bbox[2], label.bbox[1], x0, label.bbox[3])
            label.chars.extend([(" ", gap), *value])
            label.bbox = (label.bbox[0], min(label.bbox[1], y0), max(label.bbox[2], x1), max(label.bbox[3], y1))
            continue
        above = [ln for ln in kept if ln.bbox[3] <= mid and ln.bbox[0] < x1 and ln.bbox[2] > x0]
        if above:
            ref = max(above, key=lambda ln: (ln.bbox[3], ln.block, ln.seq))
            kept.append(Line(field.rect, ref.block, ref.seq + 0.5, value, ref.size))  # type: ignore[arg-type]
            continue
        below = [ln for ln in kept if ln.bbox[1] >= mid]
        ref = min(below, key=lambda ln: (ln.block, ln.seq)) if below else None
        block, seq = (ref.block, ref.seq - 0.5) if ref else (10**6, 0)
        kept.append(Line(field.rect, block, seq, value, ref.size if ref else y1 - y0))  # type: ignore[arg-type]
    return kept


def page_text_from_rawdict(page, raw: dict, fields: list[FormValue] | None = None, tables: bool = False) -> PageText:
    """Build the page text, character boxes (displayed-page space) and blocks from ``rawdict``.

    Args:
        page: the ``pymupdf.Page`` (its number and rotation).
        raw: ``page.get_text("rawdict", ...)`` of that page (a text layer or an OCR text page).
        fields: form values to place after their labels (:func:`_place_form_values`).
        tables: find tables (:func:`core.ingest.pdf_tables.table_lines`): each becomes one block of
            kind ``"table"``, a line per row, with its ``columns``.

    Characters of a line are concatenated (super/subscript markers rewritten,
    :func:`line_chars`), lines end with ``"\\n"``, blocks are separated by an empty line,
    lines follow :func:`reading_order`.
    """
    import pymupdf

    lines: list[Line] = []
    for b_no, block in enumerate(raw.get("blocks", [])):
        if block.get("type") != 0:
            continue
        for l_no, line in enumerate(block.get("lines", [])):
            chars = line_chars(line)
            if chars:
                size = max(float(span.get("size", 0.0)) for span in line.get("spans", []))
                lines.append(Line(tuple(line["bbox"]), b_no, l_no, chars, size))  # type: ignore[arg-type]
    if fields:
        lines = _place_form_values(lines, fields)
    columns: dict[float, tuple[str, ...]] = {}
    if tables:
        lines, columns = table_lines(lines)
    parts: list[str] = []
    boxes: list[Box | None] = []
    blocks: list[Block] = []
    mat = page.rotation_matrix if page.rotation else None
    pos = 0
    key = None
    for line_no, (region, line) in enumerate(reading_order(lines)):
        if (region, line.block) != key:
            if blocks:
                blocks[-1].end = pos - 1
                parts.append("\n")
                boxes.append(None)
                pos += 1
            table = line.block in columns
            blocks.append(Block(start=pos, end=pos, kind="table" if table else "paragraph", index=len(blocks) + 1,
                                columns=columns[line.block] if table else ()))
            key = (region, line.block)
        for c, box in line.chars:
            if box is None:  # a character we inserted (a table row's " | " between cells): no box
                parts.append(c)
                boxes.extend([None] * len(c))
                pos += len(c)
                continue
            x0, y0, x1, y1 = box
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


# --- running headers and footers ------------------------------------------------------------

# A line is a running header or footer (case B38) when the same text, digits and lone roman
# numerals masked ("Page 2 of 4" = "Page 3 of 4"), sits at the same height (within
# _SAME_PLACE_PT) in the top or bottom _MARGIN_SHARE of the page on at least _MOST of the
# document's pages (and on two pages at least), unless that would leave the page without
# text (a short page whose every line repeats with other numbers is body). Our own rule, as in the header/footer
# removal of layout-analysis tools (repetition at a fixed position across pages); measured
# on ../shared/eval/corpora with bench/ingest.py.
_SAME_PLACE_PT = 6.0
_MARGIN_SHARE = 0.2
_MOST = 0.5
_ROMAN = re.compile(r"(?i)^[ivxlcdm]+$")


def _line_key(text: str) -> str:
    words = ["#" if _ROMAN.match(w) else re.sub(r"\d+", "#", w) for w in text.casefold().split()]
    return " ".join(words)


def find_running_lines(pages: list[PageText], heights: list[float]) -> None:
    """Mark the running headers and footers of a PDF's pages in ``PageText.running`` (in place).

    Args:
        pages: the pages, with character boxes (displayed-page space).
        heights: each page's displayed height, PDF points (same order as ``pages``).
    """
    n = sum(1 for p in pages if p.boxes)
    if n < 2:
        return
    need = max(2, math.ceil(_MOST * n))
    # (key) -> list of (page index, y centre, start, end)
    seen: dict[str, list[tuple[int, float, int, int]]] = {}
    for idx, (page, height) in enumerate(zip(pages, heights)):
        if not page.boxes:
            continue
        start = 0
        for line in page.text.split("\n"):  # one extracted line per text line (page_text_from_rawdict)
            end = start + len(line)
            first = page.boxes[start] if line else None
            if first is not None:
                y = (first[1] + first[3]) / 2
                if not _MARGIN_SHARE * height < y < (1 - _MARGIN_SHARE) * height:
                    key = _line_key(line)
                    if key:
                        seen.setdefault(key, []).append((idx, y, start, end))
            start = end + 1
    marks: dict[int, list[tuple[int, int]]] = {}
    for occurrences in seen.values():
        if len({o[0] for o in occurrences}) < need:
            continue
        for idx, y, start, end in occurrences:
            pages_here = {o[0] for o in occurrences if abs(o[1] - y) <= _SAME_PLACE_PT}
            if len(pages_here) >= need:
                marks.setdefault(idx, []).append((start, end))
    for idx, spans in marks.items():
        text = pages[idx].text
        covered = sum(e - s for s, e in spans)
        if covered >= sum(1 for c in text if c != "\n"):
            continue  # every line would go: these are the page's body, repeated with other numbers
        pages[idx].running = sorted(spans)
