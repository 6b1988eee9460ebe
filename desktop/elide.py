"""Long names in narrow places: elide without losing what tells them apart, never widen a panel.

* :func:`distinguishing_starts` / :func:`elide_distinct` — the documents list. Qt's
  ``ElideMiddle`` turned "contracts/BONTONSTUDIOS…HOSTING AGREEMENT.PDF" into
  "contracts/BONTO…Y AGREEMENT.PDF": the folder, shared by every row, kept its room
  while the company name, the only part that differs, was cut (issue #16). Here the
  folder goes first (it is in the tooltip), then the file name keeps the characters
  from where it starts to differ from its most similar neighbour, and its extension.
* :class:`ElidedLabel` — a one-line label whose text is elided to the width it is
  given and whose size hint never asks for more: a long file name in a header cannot
  resize the side panel or the window (issue #16: a four-line header widened the panel
  and moved the answer column). The full text is its tooltip.

Why our own: Qt elides at one end or in the middle of a string; which characters
distinguish a name from its neighbours is this product's question.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QStyledItemDelegate, QStyleOptionViewItem, QWidget

ELLIPSIS = "…"
# Characters shown before the first differing one, so the reader sees what it continues.
_CONTEXT = 4


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def distinguishing_starts(names: Iterable[str]) -> dict[str, int]:
    """For each name, where its file name (the part after the last ``/``) starts to differ from the
    most similar other file name (case-insensitive): the longest common prefix with any of them.

    Sorting makes it O(n log n): a name's longest common prefix with any other is the longer of
    those with its two neighbours in sorted order.
    """
    files = sorted({name: name.rpartition("/")[2].casefold() for name in names}.items(), key=lambda kv: kv[1])
    out: dict[str, int] = {}
    for i, (name, file) in enumerate(files):
        before = _common_prefix(file, files[i - 1][1]) if i > 0 else 0
        after = _common_prefix(file, files[i + 1][1]) if i + 1 < len(files) else 0
        out[name] = max(before, after)
    return out


def elide_distinct(name: str, start: int, width: float, measure: Callable[[str], float]) -> str:
    """``name`` fitted into ``width`` (``measure`` gives a string's width in the same unit).

    In order: the whole name; ``…/file``; the file name without its folder; then the file name
    from :data:`_CONTEXT` characters before ``start`` (where it differs from its neighbours,
    :func:`distinguishing_starts`) as far as it fits, an ellipsis and the extension
    ("…/BONTONSTUDIOS,INC_03_08_20…PDF"); at worst Qt-like right elision of the file name.
    """
    if measure(name) <= width:
        return name
    folder, _, file = name.rpartition("/")
    if folder and measure(ELLIPSIS + "/" + file) <= width:
        return ELLIPSIS + "/" + file
    if measure(file) <= width:
        return file
    dot = file.rfind(".")
    ext = file[dot + 1:] if 0 < dot >= len(file) - 6 else ""
    stem = file[: len(file) - len(ext) - (1 if ext else 0)] if ext else file
    anchor = max(0, start - _CONTEXT)
    lead = ELLIPSIS if anchor > 0 else ""
    tail = ELLIPSIS + ext if ext else ELLIPSIS
    body = stem[anchor:]
    lo, hi = 0, len(body)
    while lo < hi:  # the most characters of body that fit
        mid = (lo + hi + 1) // 2
        if measure(lead + body[:mid] + tail) <= width:
            lo = mid
        else:
            hi = mid - 1
    if lo >= 3:
        return lead + body[:lo] + tail
    lo, hi = 0, len(file)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(file[:mid] + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return file[:lo] + ELLIPSIS


def short_name(name: str, limit: int = 60) -> str:
    """``name`` cut to at most ``limit`` characters in the middle (for a line of running text:
    "Reading contracts/BONTONSTUDIOS,INC_0…-HOSTING AGREEMENT.PDF"); the full name is elsewhere."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 2
    return name[:head] + ELLIPSIS + name[len(name) - (limit - 1 - head):]


class DistinctNameDelegate(QStyledItemDelegate):
    """Paints a list or tree column's names with :func:`elide_distinct` (set :attr:`starts` per list)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.starts: dict[str, int] = {}

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:  # noqa: N802 - Qt's name
        """Elide the row's text to the cell's width, keeping its distinguishing characters."""
        super().initStyleOption(option, index)
        text = option.text
        if not text:
            return
        fm = option.fontMetrics
        room = option.rect.width() - 8  # the style's text margins
        if not option.icon.isNull():
            room -= option.decorationSize.width() + 4
        option.text = elide_distinct(text, self.starts.get(text, 0), room, fm.horizontalAdvance)
        option.textElideMode = Qt.TextElideMode.ElideNone


class ElidedLabel(QLabel):
    """A one-line label that elides its text to its width and never asks for more room.

    Args:
        mode: where the ellipsis goes (``Qt.TextElideMode``).

    :meth:`setText` takes the whole text; :meth:`set_parts` a head that may be elided and
    a tail that stays whole ("[1] LONG FILE NAME.PDF" + " — page 3 (1/4)"). The full text
    is the tooltip when it does not fit.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle) -> None:
        super().__init__(parent)
        self._mode = mode
        self._fitted = ""
        self._head, self._tail = "", ""
        self.set_parts(text, "")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(1)
        self.setWordWrap(False)

    def full_text(self) -> str:
        """The text before elision."""
        return self._head + self._tail

    def text(self) -> str:  # noqa: D102 - QLabel's; the full text, not the elided one on screen
        return self.full_text()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` (elided to the width)."""
        self.set_parts(text, "")

    def set_fitted(self, text: str, fitted: str) -> None:
        """Hold ``text`` (what :meth:`text`, the tooltip and screen readers give) but draw ``fitted``,
        a shortened form made by the caller (each of several names elided to its share), when
        ``text`` does not fit; ``fitted`` itself is still right-elided if it does not fit either."""
        self.set_parts(text, "")
        self._fitted = fitted

    def set_parts(self, head: str, tail: str) -> None:
        """Show ``head`` + ``tail``; only ``head`` is elided."""
        self._fitted = ""
        self._head, self._tail = head, tail
        super().setText(head + tail)  # what accessibility tools read; painting is ours
        self.setToolTip("")
        self.update()
        self.updateGeometry()

    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        fm = QFontMetrics(self.font())
        room = self.contentsRect().width() - 2 * self.margin()
        if fm.horizontalAdvance(self.full_text()) <= room:
            return self.full_text()
        if self._fitted:
            return fm.elidedText(self._fitted, Qt.TextElideMode.ElideRight, max(0, room))
        tail_w = fm.horizontalAdvance(self._tail)
        head = fm.elidedText(self._head, self._mode, max(0, room - tail_w))
        return head + self._tail

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As tall as one line; as wide as the text, which the Ignored policy lets the layout override."""
        fm = QFontMetrics(self.font())
        return QSize(min(fm.horizontalAdvance(self.full_text()), 200) + 2 * self.margin(),
                     fm.height() + 2 * self.margin())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """One character wide: a long text never forces its container wider."""
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(ELLIPSIS), fm.height() + 2 * self.margin())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Draw the elided text; the full text becomes the tooltip when it does not fit."""
        shown = self.shown_text()
        full = self.full_text()
        if shown != full and self.toolTip() != full:
            self.setToolTip(full)
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect().adjusted(self.margin(), self.margin(), -self.margin(), -self.margin())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)
        painter.end()
