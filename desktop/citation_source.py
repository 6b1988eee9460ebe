"""What the citation panel shows, read off the GUI thread: a PDF page rendered with its highlight,
the page text of other formats, a search through a PDF, and the short place name of a citation.

The functions prefixed ``_`` run in the panel's pool thread (:class:`desktop.workers.Jobs`); none
touches a widget. Split from :mod:`desktop.citation_panel` to keep each module under ~600 lines.
"""

from __future__ import annotations

from pathlib import Path

from core.ingest import open_pdf_document, parse_file, render_page_png
from core.types import Rect


#: Most characters of a location shown in the panel's header (its heading part is cut to fit).
LOCATION_CHARS = 40


def short_location(location: str, limit: int = LOCATION_CHARS) -> str:
    """The place of a non-PDF citation as the header shows it: the innermost heading of ``location``
    (:attr:`core.types.Chunk.location`, "# Lease › ## 5. Rent ¶ 3") without its Markdown ``#`` marks,
    and its paragraph, at most ``limit`` characters ("5. Rent ¶ 3").

    The header never elides its "where" part, only the file name: a whole heading path (60+
    characters in Spanish contracts) left no room for the file name, shown as "…" (tryout,
    2026-12-02). The full location stays in the tooltip of the line under the header."""
    head, sep, para = location.rpartition(" ¶ ")
    if not sep:
        head, para = location, ""
    heading = head.split(" › ")[-1].lstrip("#").strip() if head else ""
    tail = f" ¶ {para}" if sep else ""
    room = max(8, limit - len(tail))
    if len(heading) > room:
        heading = heading[:room - 1].rstrip() + "…"
    return (heading + tail).strip() or location


def _render_pdf(path: str, page: int, rects: list[Rect], scale: float, weak: bool = False) -> tuple[bytes, int]:
    """Worker: PNG of ``page`` (1-based) with ``rects`` highlighted (grey for a weak passage), and the
    document's page count."""
    png = render_page_png(path, page, rects, zoom=scale, weak=weak)
    with open_pdf_document(path) as doc:  # a file, or a PDF attached to an e-mail
        return png, doc.page_count


def _page_text(path: str, page: int) -> tuple[str, int]:
    """Worker: the page text of 1-based ``page`` as core extracted it, and the page count."""
    parsed = parse_file(Path(path))
    index = min(max(page, 1), len(parsed.pages)) - 1
    return parsed.pages[index].text, len(parsed.pages)


def _search_pdf(path: str, start_page: int, term: str) -> tuple[int, list[Rect]] | None:
    """Worker: first page at or after ``start_page`` (wrapping) containing ``term``, with its rects."""
    with open_pdf_document(path) as doc:
        n = doc.page_count
        for k in range(n):
            index = (start_page - 1 + k) % n
            hits = doc.load_page(index).search_for(term)
            if hits:
                return index + 1, [tuple(r) for r in hits]
    return None
