"""HTML: the visible text of a page as blocks (BeautifulSoup's parser, our walk for offsets)."""

from __future__ import annotations

import re
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import PageText, ParsedDocument, TextBuilder, as_subscript, as_superscript
from core.ingest.text import decode_text

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
    headings; table rows become lines with cells joined by ``" | "``; ``<sup>``/``<sub>``
    text is written in Unicode superscript/subscript characters (:func:`as_superscript`).
    Parsing is BeautifulSoup's (``html.parser``); only the walk that turns the
    tree into blocks is ours, because offsets and heading levels are needed.
    """
    from bs4 import BeautifulSoup, Comment, NavigableString, Tag

    soup = BeautifulSoup(markup, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    out = TextBuilder()
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
            elif name in {"sup", "sub"}:
                # a footnote marker after an amount stays apart from it ("EUR 320¹", case B37)
                mark = _WS.sub(" ", child.get_text()).strip()
                buf.append(as_superscript(mark) if name == "sup" else as_subscript(mark))
            elif name in {"td", "th"}:
                buf.append(" ")
                walk(child, pre)
                buf.append(" ")
            else:
                walk(child, pre)

    walk(soup.body or soup)
    flush()
    return out.page(), title


def parse_html(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse an HTML file (bytes decoded by BeautifulSoup from its meta charset, else detected).

    Args:
        data: the page's bytes when it is not a file of its own (an e-mail attachment).

    Raises:
        IngestError: empty file or no visible text.
    """
    data = path.read_bytes() if data is None else data
    if not data.strip():
        raise IngestError(str(path), "empty file")
    page, title = html_to_page(decode_text(data, path) if not re.search(rb"<meta[^>]+charset", data[:4096], re.I) else data)
    if not page.text.strip():
        raise IngestError(str(path), "no visible text in the HTML page")
    return ParsedDocument(path, "", [page], "html", title=title or path.name)
