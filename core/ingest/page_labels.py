"""Page numbers a lawyer cites: /PageLabels, else the number printed in the header or footer.

A PDF's physical page (1-based position in the file) often differs from the number printed
on it: front matter in roman numerals, a cover without a number, a filing whose pages are
numbered from its own first page. A citation carries both (``Citation.page_label``); this
module finds the printed one.

* :func:`pdf_page_labels` — the labels the PDF defines (``/PageLabels``, read with PyMuPDF's
  ``page.get_label()``), "" for every page when it defines none.
* :func:`printed_page_labels` — without ``/PageLabels``: the page number printed in a page's
  top or bottom margin ("- 9 -", "Página 3 de 5", "Page 3 of 12", "3/12", "p. 3"), kept only
  when the pages *agree on one sequence*: the printed number minus the physical page is the
  same offset on at least half of the pages that have text (and on at least two). A page
  whose margin shows no number of that sequence gets "" (never a guessed label).
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pymupdf

from core.ingest.base import PageText

#: A line is in the page's margin when its centre lies in the top or bottom share of the
#: page height (the same share :func:`core.ingest.pdf_layout.find_running_lines` uses).
MARGIN_SHARE = 0.2
#: Share of the pages with text that must agree on the offset (printed − physical).
AGREE_SHARE = 0.5

# A whole margin line that is a page number: "9", "- 9 -", "— 9 —", "[9]", "Page 9", "Página 9 de 12",
# "pág. 9", "p. 9", "9 / 12", "9 of 12", "Seite 9 von 12", "Pagina 9 di 12".
_WORD = r"(?:page|p[áa]gina|p[áa]g\.?|p\.|pg\.?|seite|pagina|folio|hoja)"
_NUMBER_LINE = re.compile(
    rf"(?i)^[\s\-–—\[(]*(?:{_WORD}\s*)?(\d{{1,4}})(?:\s*(?:/|of|de|von|di|sur)\s*\d{{1,4}})?[\s\-–—\])]*$"
)


def pdf_page_labels(doc: pymupdf.Document) -> list[str]:
    """Printed page labels from the PDF's ``/PageLabels`` by 0-based index ("" everywhere when it defines none)."""
    try:
        if not doc.get_page_labels():
            return [""] * doc.page_count
        return [doc.load_page(i).get_label() or "" for i in range(doc.page_count)]
    except Exception:  # a damaged /PageLabels tree must not stop the text
        return [""] * doc.page_count


def _margin_numbers(page: PageText, height: float) -> set[int]:
    """Numbers written alone (or as "Page n of m") on a line in the top or bottom margin of the page."""
    out: set[int] = set()
    start = 0
    for line in page.text.split("\n"):  # one extracted line per text line (page_text_from_rawdict)
        end = start + len(line)
        box = next((b for b in page.boxes[start:end] if b is not None), None) if page.boxes else None
        start = end + 1
        if box is None or not line.strip():
            continue
        y = (box[1] + box[3]) / 2
        if MARGIN_SHARE * height < y < (1 - MARGIN_SHARE) * height:
            continue
        m = _NUMBER_LINE.match(line)
        if m:
            out.add(int(m.group(1)))
    return out


def printed_page_labels(pages: list[PageText], heights: list[float]) -> list[str]:
    """Labels from page numbers printed in the margins, when the pages agree on one sequence.

    Args:
        pages: a PDF's pages in order, with character boxes (displayed-page space).
        heights: each page's displayed height, PDF points (same order).

    Returns:
        One label per page: the printed number (as printed, e.g. ``"5"``) on pages whose margin
        shows the number ``physical page + offset`` for the offset most pages agree on, ``""``
        elsewhere; all ``""`` when fewer than two pages, or fewer than :data:`AGREE_SHARE` of the
        pages with text, agree, or when the agreed offset is 0 (the printed number is then the
        physical page and a label would add nothing).
    """
    found = [_margin_numbers(p, h) for p, h in zip(pages, heights)]
    with_text = sum(1 for p in pages if p.text.strip())
    offsets = Counter(n - p.page for p, nums in zip(pages, found) for n in nums)
    if not offsets:
        return [""] * len(pages)
    offset, votes = offsets.most_common(1)[0]
    if votes < max(2, math.ceil(AGREE_SHARE * with_text)) or offset == 0:
        return [""] * len(pages)
    return [str(p.page + offset) if p.page + offset in nums else "" for p, nums in zip(pages, found)]
