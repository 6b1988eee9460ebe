"""The per-document part of an answer to a question about the whole collection (:mod:`core.collection`).

"Which of these agreements are governed by Florida law?" is answered by searching every document
on its own: the conversation shows how many were searched and which match (their passages follow
as the answer's citations, rendered by :mod:`desktop.render`), then each document that does not
match with its closest passage, in grey, marked as not an answer. Pure functions over core models.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from core.collection import MAX_DOCUMENTS
from core.types import Answer
from desktop.render_places import citation_place

_CTX = "Render"
SUMMARY = "Each of the {n} documents was searched on its own; passages that match: {m}."
NOT_SEARCHED = ("{n} more documents were not searched (at most {max} per question); the review grid searches them "
                "all.")
MUST_NAME = "A matching passage must name {words} and say what the question asks."


def _t(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


def collection_html(entry_index: int, answer: Answer) -> str:
    """HTML of the per-document summary of ``answer``, conversation entry ``entry_index`` ('' when it
    is not a collection answer). A document's closest passage links to ``closest:<entry>:<i>`` (``i``:
    0-based in ``answer.documents``), which opens it in the page viewer marked weak."""
    docs = getattr(answer, "documents", None) or []
    if not docs:
        return ""
    esc = html.escape
    matching = [f for f in docs if f.matches]
    summary = _t(SUMMARY).format(n=len(docs), m=len(matching))
    parts = [f"<p style='color:#1e40af; font-size:10pt'>{esc(summary)}</p>"]
    if getattr(answer.trace, "not_searched", 0):
        left = _t(NOT_SEARCHED).format(n=answer.trace.not_searched, max=MAX_DOCUMENTS)
        parts.append(f"<p style='color:#8a5a00; font-size:9pt'>{esc(left)}</p>")
    required = sorted({w for f in docs for w in f.missing})
    if required:
        must = _t(MUST_NAME).format(words=", ".join(required))
        parts.append(f"<p style='color:gray; font-size:9pt'>{esc(must)}</p>")
    if matching:
        parts.append(f"<p style='font-size:10pt'><b>{esc(_t('Documents that match'))}:</b> "
                     f"{esc('; '.join(f.doc_id for f in matching))}</p>")
    others = [f for f in docs if not f.matches]
    if others:
        parts.append(f"<p style='font-size:10pt'><b>{esc(_t('Searched, no matching passage'))}:</b></p>"
                     "<ul style='color:#374151; font-size:9pt'>")
        for i, f in enumerate(docs):
            if f.matches:
                continue
            near = ""
            if f.closest is not None:
                text = " ".join(f.closest.text.split())
                text = text if len(text) <= 160 else text[:157] + "…"
                near = (f" — <span style='color:gray'>{esc(_t('closest, not an answer'))}: “{esc(text)}” "
                        f"(<a href='closest:{entry_index}:{i}'>{esc(citation_place(f.closest))}</a>)</span>")
            parts.append(f"<li>{esc(f.doc_id)}{near}</li>")
        parts.append("</ul>")
    return "".join(parts)


def collection_markdown(answer: Answer) -> list[str]:
    """The same summary as Markdown lines (copy, export); ``[]`` when it is not a collection answer."""
    docs = getattr(answer, "documents", None) or []
    if not docs:
        return []
    matching = [f for f in docs if f.matches]
    lines = ["*" + _t(SUMMARY).format(n=len(docs), m=len(matching)) + "*", ""]
    if getattr(answer.trace, "not_searched", 0):  # an export must not read as if every document was searched
        lines += ["*" + _t(NOT_SEARCHED).format(n=answer.trace.not_searched, max=MAX_DOCUMENTS) + "*", ""]
    others = [f.doc_id for f in docs if not f.matches]
    if others:
        lines += [f"**{_t('Searched, no matching passage')}:** " + "; ".join(others), ""]
    return lines


# Strings used through _t(), listed for pyside6-lupdate (it reads only literal translate() calls).
_LUPDATE = (
    QT_TRANSLATE_NOOP("Render", "Each of the {n} documents was searched on its own; passages that match: {m}."),
    QT_TRANSLATE_NOOP("Render", "A matching passage must name {words} and say what the question asks."),
    QT_TRANSLATE_NOOP("Render", "Documents that match"),
    QT_TRANSLATE_NOOP("Render", "Searched, no matching passage"),
    QT_TRANSLATE_NOOP("Render", "closest, not an answer"),
    QT_TRANSLATE_NOOP("Render", "{n} more documents were not searched (at most {max} per question); the review grid searches them all."),  # noqa: E501
)
