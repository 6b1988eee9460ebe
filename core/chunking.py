"""Split page texts into overlapping chunks that never cross a page or a document.

Sizes are in characters of page text (issue #3 moves them to embedding-model
tokens). A chunk ends at the last paragraph break, else sentence end, else
space found in the final 30 % of the window, so quotes are rarely cut.
"""

from __future__ import annotations

import re

from core.ingest import PageText
from core.types import Chunk

_PARA = re.compile(r"\n\s*\n")
_SENT = re.compile(r"[.!?;:]\s")


def _cut(text: str, start: int, target_end: int) -> int:
    if target_end >= len(text):
        return len(text)
    window_from = start + int((target_end - start) * 0.7)
    window = text[window_from:target_end]
    for pattern in (_PARA, _SENT):
        ends = [m.end() for m in pattern.finditer(window)]
        if ends:
            return window_from + ends[-1]
    space = window.rfind(" ")
    if space < 0:
        space = window.rfind("\n")
    return window_from + space + 1 if space >= 0 else target_end


def chunk_pages(
    doc_id: str, path: str, pages: list[PageText], *, chunk_chars: int = 1000, overlap: int = 200, lang: str = "en"
) -> list[Chunk]:
    """Chunk every page of one document.

    Args:
        doc_id: the document's stable id (``<folder>/<relative path>``).
        path: absolute path of the file.
        pages: the document's pages (1-based numbers).
        chunk_chars: target size, characters.
        overlap: characters shared by consecutive chunks of a page.
        lang: ISO 639-1 language of the document (used by BM25).

    Returns:
        Chunks with ids ``<doc_id>#p<page>-c<n>``; whitespace-only pages give none.
    """
    chunks: list[Chunk] = []
    for page in pages:
        text = page.text
        n = 0
        start = 0
        while start < len(text):
            while start < len(text) and text[start].isspace():
                start += 1
            if start >= len(text):
                break
            end = _cut(text, start, start + chunk_chars)
            piece_end = end
            while piece_end > start and text[piece_end - 1].isspace():
                piece_end -= 1
            if piece_end > start:
                chunks.append(
                    Chunk(
                        chunk_id=f"{doc_id}#p{page.page}-c{n}",
                        doc_id=doc_id,
                        path=path,
                        page=page.page,
                        start=start,
                        end=piece_end,
                        text=text[start:piece_end],
                        lang=lang,
                    )
                )
                n += 1
            if end >= len(text):
                break
            next_start = max(end - overlap, start + 1)
            # begin the overlap at a word boundary
            space = text.find(" ", next_start, end)
            start = space + 1 if space >= 0 else next_start
    return chunks
