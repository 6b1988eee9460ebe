"""How the window names a citation's page: the printed page label first, as the CLI does.

Shared by the conversation's HTML (:mod:`desktop.render`), its Markdown (copy, export), the
collection summary and the citation panel's header. Translated in context "Render".
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

_CTX = "Render"


def _t(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


def citation_place(cit) -> str:
    """How a citation names its page(s), as :attr:`core.types.Citation.cited_page` does in the CLI,
    translated: the printed page label a lawyer cites first, the physical page in brackets where
    they differ ("p. iv (PDF page 3)"), "page 3" where they do not; a quote over a page break names
    both ("pp. 5–6 (PDF pages 8–9)", "pages 8–9"). The window gave "page 6" for printed page 3
    (tryout 5, finding 8). ``page_label`` and ``continued`` are read getattr-safe (older stored
    answers have none)."""
    spans = list(getattr(cit, "continued", None) or [])
    pages = [cit.page] + [s.page for s in spans]
    labels = [getattr(cit, "page_label", "") or ""] + [getattr(s, "page_label", "") or "" for s in spans]
    differ = any(lb and lb != str(p) for p, lb in zip(pages, labels))
    if pages[0] == pages[-1]:
        if differ and labels[0]:
            return _t("p. {label} (PDF page {page})").format(label=labels[0], page=pages[0])
        return f"{_t('page')} {pages[0]}"
    span = f"{pages[0]}–{pages[-1]}"
    if differ and labels[0] and labels[-1]:
        return _t("pp. {first}–{last} (PDF pages {pages})").format(first=labels[0], last=labels[-1], pages=span)
    return _t("pages {pages}").format(pages=span)


# Strings used through a helper, listed for pyside6-lupdate.
_LUPDATE = (
    QT_TRANSLATE_NOOP("Render", "page"),
    QT_TRANSLATE_NOOP("Render", "p. {label} (PDF page {page})"),
    QT_TRANSLATE_NOOP("Render", "pp. {first}–{last} (PDF pages {pages})"),
    QT_TRANSLATE_NOOP("Render", "pages {pages}"),
)
