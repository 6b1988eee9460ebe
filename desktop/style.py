"""Secondary ("muted") text that stays readable in light and dark palettes.

Labels that say something secondary (a document's path, a workspace's counts, the
Ollama model-list status) were drawn in ``palette(mid)``: #b8b8b8 on Fusion's
#efefef window, a contrast of 1.8:1, unreadable in the screenshots. A muted
colour here is the palette's text colour mixed with its window colour,
:data:`TEXT_WEIGHT` parts text: #5b5b5b on #efefef (5.9:1) in Fusion light and
#b2b2b2 on #353535 (5.8:1) in Fusion dark, both above the 4.5:1 WCAG 2.1 AA
minimum for body text (https://www.w3.org/TR/WCAG21/#contrast-minimum). The
colour is recomputed when the application palette changes (the system switching
between light and dark).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

TEXT_WEIGHT = 0.62
"""Share of the text colour in a muted colour (the rest is the window colour); see the module docstring."""


def muted_color(palette: QPalette, role: QPalette.ColorRole = QPalette.ColorRole.WindowText,
                background: QPalette.ColorRole = QPalette.ColorRole.Window) -> QColor:
    """``role``'s colour mixed with ``background``'s, :data:`TEXT_WEIGHT` parts ``role`` (RGB, per channel)."""
    fg, bg = palette.color(role), palette.color(background)
    w = TEXT_WEIGHT
    return QColor(round(fg.red() * w + bg.red() * (1 - w)),
                  round(fg.green() * w + bg.green() * (1 - w)),
                  round(fg.blue() * w + bg.blue() * (1 - w)))


class _Follow(QObject):
    """Re-mutes its widget when the palette it inherits changes (light/dark switch)."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._busy = False  # our own setPalette sends a PaletteChange too

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (not self._busy and isinstance(watched, QWidget)
                and event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)):
            self._busy = True
            try:
                _apply(watched)
            finally:
                self._busy = False
        return False


def _apply(widget: QWidget) -> None:
    parent = widget.parentWidget()
    inherited = parent.palette() if parent is not None else QApplication.palette(widget)
    text = muted_color(inherited)
    text_on_base = muted_color(inherited, QPalette.ColorRole.Text, QPalette.ColorRole.Base)
    palette = widget.palette()
    if (palette.color(QPalette.ColorRole.WindowText) == text and palette.color(QPalette.ColorRole.Text) == text_on_base
            and palette.color(QPalette.ColorRole.Window) == inherited.color(QPalette.ColorRole.Window)):
        return
    palette = QPalette(inherited)
    palette.setColor(QPalette.ColorRole.WindowText, text)
    palette.setColor(QPalette.ColorRole.Text, text_on_base)
    widget.setPalette(palette)


def mute(widget: QWidget) -> None:
    """Draw ``widget``'s text (a label's) in the muted colour of the current palette, following palette changes."""
    _apply(widget)
    follow = _Follow(widget)
    widget.installEventFilter(follow)
