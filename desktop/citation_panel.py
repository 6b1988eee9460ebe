"""The side panel: the cited page with the verified span highlighted.

PDF pages are rendered by :func:`core.ingest.render_page_png` in a pool thread
at the screen's device pixel ratio, one highlight rectangle per text line.
Other formats (TXT, MD, and whatever :func:`core.ingest.parse_file` reads) show
the page text with the span ``[start, end)`` highlighted, since the offsets of a
citation are characters into that same page text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QThreadPool, QUrl, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QImage,
    QPixmap,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.ingest import PDF_SUFFIXES
from core.types import Citation, Rect
from desktop.citation_source import _page_text, _render_pdf, _search_pdf
from desktop.citation_source import short_location as short_location  # re-exported: the header's place name
from desktop.elide import ElidedLabel
from desktop.render import citation_place, display_quote
from desktop.style import mute
from desktop.workers import Jobs

# Width of a US Letter page in PDF points, used to fit the page to the panel.
_PAGE_WIDTH_PT = 612.0
_ZOOM_STEPS = (0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0)
#: The quote box of a verified citation (yellow) and of a weak passage (grey, as its chips in the answer).
QUOTE_STYLE = "background:#fff7d6; color:#222; border-left:3px solid #e0a800; padding:6px;"
#: The quote's highlight in the text of a non-PDF page (yellow; grey for a weak passage).
QUOTE_HIGHLIGHT, WEAK_HIGHLIGHT = "#fde047", "#d1d5db"
WEAK_QUOTE_STYLE = "background:#f3f4f6; color:#374151; border-left:3px solid #9ca3af; padding:6px;"


@dataclass
class _View:
    path: str = ""
    doc_id: str = ""
    page: int = 1
    page_count: int = 0
    rects: list[Rect] = field(default_factory=list)
    span: tuple[int, int] | None = None
    cited_page: int = 0
    more_rects: dict[int, list[Rect]] = field(default_factory=dict)  # a quote across a page break


class CitationPanel(QDockWidget):
    """Side panel showing one citation or one document page.

    Its width is the user's and the window's, never its content's: the header and the
    path are one elided line each (:class:`desktop.elide.ElidedLabel`, the full text in
    the tooltip) and the wrapped labels ignore their longest word's width, so opening a
    document with a long name leaves the panel, the answer column and its scroll
    position where they were (issue #16).

    Signals:
        page_rendered(): a page (image or text) finished showing.
        previous_citation(), next_citation(): the user asked to move between citations.

    Attributes:
        citation: the :class:`core.types.Citation` shown, or ``None``.
        number: its chip number in the answer.
        zoom: logical pixels per PDF point of the last render.
        render_scale: device pixels per PDF point of the last render (``zoom × dpr``).
        page: 1-based page shown.
    """

    page_rendered = Signal()
    previous_citation = Signal()
    next_citation = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("citationPanel")
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.citation: Citation | None = None
        self.number = 0
        self._total = 0
        self.zoom = 1.0
        self.zoom_factor = 1.0
        self.render_scale = 1.0
        self._view = _View()
        self._seq = 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # renders in request order; stale results are dropped by _seq
        self._jobs = Jobs(self, pool=self._pool)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        self.page_label = ElidedLabel("", mode=Qt.TextElideMode.ElideMiddle)
        self.page_label.setObjectName("pageLabel")
        font = self.page_label.font()
        font.setBold(True)
        self.page_label.setFont(font)
        self.path_label = ElidedLabel("", mode=Qt.TextElideMode.ElideMiddle)
        mute(self.path_label)
        self.ocr_label = QLabel()
        self.ocr_label.setStyleSheet("background:#fff1e0; color:#9a3412; font-weight:600; padding:4px;")
        self.ocr_label.setWordWrap(True)
        self.ocr_label.hide()
        self.quote_label = QLabel()
        self.quote_label.setWordWrap(True)
        self.quote_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.quote_label.setStyleSheet(QUOTE_STYLE)
        self.quote_label.hide()
        # A weak passage (the closest passage of an abstention, issue #20) opened here must not
        # read as a checked citation: the yellow quote box and "Citation" header did (tryout,
        # 2026-12-02). It gets this notice, a grey quote box and the panel title of its own.
        self.weak = False
        self.weak_label = QLabel()
        self.weak_label.setObjectName("weakLabel")
        self.weak_label.setStyleSheet("background:#f3f4f6; color:#374151; font-weight:600; padding:4px;"
                                      " border-left:3px solid #9ca3af;")
        self.weak_label.setWordWrap(True)
        self.weak_label.hide()
        for label in (self.ocr_label, self.weak_label):
            # A wrapped label asks for its longest word's width; an unbreakable quote or name
            # must not widen the panel: the layout gives the width, the label wraps in it.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
            label.setMinimumWidth(1)

        # A long quote wraps and scrolls inside a box of at most ~6 lines: as a bare wrapped label
        # its height-for-width became the dock's minimum height, and clicking a long citation
        # raised the window's minimum height to 1176-1652 px on a 900-px screen (issue #24).
        self.quote_box = QScrollArea()
        self.quote_box.setWidget(self.quote_label)
        self.quote_box.setWidgetResizable(True)
        self.quote_box.setFrameShape(QScrollArea.Shape.NoFrame)
        self.quote_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.quote_box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.quote_box.setMinimumWidth(1)
        self.quote_box.hide()
        # Inside the box the label takes the box's width and its text's height, top-aligned
        # (centred in a taller label, a long quote showed as an empty yellow box).
        self.quote_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.quote_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        nav = QHBoxLayout()
        self.prev_citation_button = self._tool("◀◀", self.previous_citation)
        self.next_citation_button = self._tool("▶▶", self.next_citation)
        self.prev_page_button = self._tool("◀", lambda: self.go_to_page(self._view.page - 1))
        self.next_page_button = self._tool("▶", lambda: self.go_to_page(self._view.page + 1))
        self.page_number_label = QLabel("")
        self.zoom_out_button = self._tool("−", lambda: self.step_zoom(-1))
        self.zoom_in_button = self._tool("+", lambda: self.step_zoom(1))
        self.open_button = self._tool("", self.open_externally)
        for w in (self.prev_citation_button, self.next_citation_button, self.prev_page_button,
                  self.page_number_label, self.next_page_button, self.zoom_out_button, self.zoom_in_button):
            nav.addWidget(w)
        nav.addStretch(1)
        nav.addWidget(self.open_button)

        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.returnPressed.connect(self.find_next)
        self.search_status = QLabel("")

        # Until a page is shown, the page area says what will appear in it (an empty grey box
        # read as a broken panel in the screenshots); the first render replaces the text.
        self.image_label = QLabel()
        self.image_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.image_label.setWordWrap(True)
        self.image_label.setMargin(24)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.image_label)
        self.scroll.setWidgetResizable(True)
        self.scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.text_view = QTextBrowser()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.scroll)
        self.stack.addWidget(self.text_view)

        layout.addWidget(self.page_label)
        layout.addWidget(self.path_label)
        layout.addWidget(self.ocr_label)
        layout.addWidget(self.weak_label)
        layout.addWidget(self.quote_box)
        layout.addLayout(nav)
        search_row = QHBoxLayout()
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.search_status)
        layout.addLayout(search_row)
        layout.addWidget(self.stack, 1)
        self.setWidget(body)
        self._placeholder = True  # the page area still shows what will appear in it
        self.retranslate()
        self._update_nav()

    def _tool(self, text: str, slot) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.clicked.connect(slot)
        return b

    def retranslate(self) -> None:
        """Set every fixed text in the current language (also on ``LanguageChange``)."""
        self.setWindowTitle(self.tr("Closest passage — not an answer") if self.weak else self.tr("Citation"))
        self.weak_label.setText(self.tr("Weak passage, not a citation: no passage scored high enough to answer "
                                        "the question. This is the closest one; read its clause before concluding."))
        self.ocr_label.setText(self.tr("OCR — check the page: this text was recognised from an image."))
        for b, tip in ((self.prev_citation_button, self.tr("Previous citation (Alt+Left)")),
                       (self.next_citation_button, self.tr("Next citation (Alt+Right)")),
                       (self.prev_page_button, self.tr("Previous page")), (self.next_page_button, self.tr("Next page")),
                       (self.zoom_out_button, self.tr("Zoom out")), (self.zoom_in_button, self.tr("Zoom in")),
                       (self.open_button, self.tr("Open in the default viewer"))):
            b.setToolTip(tip)
            b.setAccessibleName(tip)
        self.open_button.setText(self.tr("Open"))
        self.search_edit.setPlaceholderText(self.tr("Find in document (Ctrl+F)"))
        self.search_edit.setAccessibleName(self.tr("Find in document"))
        self.image_label.setAccessibleName(self.tr("Cited page"))
        self.text_view.setAccessibleName(self.tr("Cited text"))
        if self._placeholder:
            self.page_label.setText(self.tr("Click a citation number to see its page."))
            self.image_label.setText(self.tr("The cited page appears here, rendered from the document, "
                                             "with the quoted passage highlighted."))
        elif self.citation is not None:
            self._show_header(self.citation, self.number, self._total)
        elif self._view.path:
            self._show_document_header()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Re-translate when the UI language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # --- what to show ---------------------------------------------------------

    @property
    def page(self) -> int:
        """1-based page shown."""
        return self._view.page

    @property
    def is_pdf(self) -> bool:
        """True when the document shown is a PDF (rendered as an image)."""
        return Path(self._view.path).suffix.lower() in PDF_SUFFIXES

    @staticmethod
    def _is_pdf_path(path: str) -> bool:
        return Path(path).suffix.lower() in PDF_SUFFIXES

    def _show_header(self, citation: Citation, number: int, total: int) -> None:
        counter = f" ({number}/{total})" if total else ""
        # PDFs: the printed page label a lawyer cites first, the physical page in brackets where they
        # differ ("p. iv (PDF page 3)", as the CLI and the answer column); other formats name the
        # place by section/paragraph (Chunk.location, e.g. "Terms > ¶ 3").
        where = citation_place(citation)
        location = getattr(citation, "location", "") or ""
        if location and not self._is_pdf_path(citation.path):
            where = short_location(location)
        # The file name is elided, never the page: "[1] BONTONSTUDI…AGREEMENT.PDF — page 3 (1/4)".
        self.page_label.set_parts(f"[{number}] {Path(citation.path).name}", f" — {where}{counter}")
        self.path_label.setText(citation.doc_id)
        full = f"\n{location}" if location and where != location else ""
        self.path_label.setToolTip(f"{citation.doc_id}\n{citation.path}{full}")

    def _show_document_header(self) -> None:
        v = self._view
        self.page_label.set_parts(Path(v.path).name, " — " + self.tr("page {n}").format(n=v.page))
        self.path_label.setText(v.doc_id or v.path)
        self.path_label.setToolTip(f"{v.doc_id}\n{v.path}" if v.doc_id else v.path)

    def show_citation(self, citation: Citation, number: int, total: int = 0, weak: bool = False) -> None:
        """Show ``citation`` (chip ``number`` of ``total``) and render its page in the background.

        ``weak``: it is a weak passage of an abstention (``Abstention.candidates``, shown through
        :meth:`core.types.WeakPassage.viewer_citation`), not a citation: the panel says so (title,
        notice above the quote, grey quote box instead of the verified quote's yellow)."""
        self.citation = citation
        self.number = number
        self._total = total
        self._placeholder = False
        self._set_weak(weak)
        self._show_header(citation, number, total)
        match = "" if citation.match.value == "exact" else f"  ({citation.match.value}, {citation.score:.0f})"
        self.quote_label.setText(f"“{display_quote(citation.quote)}”{match}")
        self.quote_label.show()
        self.quote_box.show()
        self._fit_quote_box()
        self.quote_box.verticalScrollBar().setValue(0)
        self.ocr_label.setVisible(getattr(citation, "modality", "text") == "ocr")
        self._view = _View(path=citation.path, doc_id=citation.doc_id, page=citation.page,
                           rects=list(citation.rects), span=(citation.start, citation.end), cited_page=citation.page,
                           more_rects={c.page: list(c.rects) for c in getattr(citation, "continued", []) or []})
        self.show()
        self.raise_()
        self._load()

    def _set_weak(self, weak: bool) -> None:
        self.weak = weak
        self.weak_label.setVisible(weak)
        self.quote_label.setStyleSheet(WEAK_QUOTE_STYLE if weak else QUOTE_STYLE)
        self.setWindowTitle(self.tr("Closest passage — not an answer") if weak else self.tr("Citation"))

    def show_document(self, path: str, page: int, doc_id: str = "") -> None:
        """Show ``page`` (1-based) of a document without a highlighted span (a consulted document)."""
        self.citation = None
        self.number = 0
        self._placeholder = False
        self._set_weak(False)
        self.quote_box.hide()
        self.ocr_label.hide()
        self._view = _View(path=path, doc_id=doc_id, page=page)
        self._show_document_header()
        self.show()
        self.raise_()
        self._load()

    #: The quote box's most lines; a longer quote scrolls inside it.
    QUOTE_LINES = 6

    def quote_box_cap(self) -> int:
        """The quote box's greatest height, pixels (:attr:`QUOTE_LINES` lines and the label's padding)."""
        return self.quote_label.fontMetrics().lineSpacing() * self.QUOTE_LINES + 16

    def _fit_quote_box(self) -> None:
        """As tall as the quote needs at the panel's width, at most :meth:`quote_box_cap`."""
        width = max(40, self.quote_box.viewport().width() or self.width() - 24)
        needed = self.quote_label.heightForWidth(width)
        if needed < 0:
            needed = self.quote_label.sizeHint().height()
        self.quote_box.setFixedHeight(max(self.quote_label.fontMetrics().lineSpacing() + 16,
                                          min(needed + 2, self.quote_box_cap())))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Re-fit the quote box to the new width."""
        super().resizeEvent(event)
        if self.quote_box.isVisible():
            self._fit_quote_box()

    def clear(self) -> None:
        """Show nothing (another workspace was selected): no page, no quote, the placeholder texts."""
        self._seq += 1  # a render still in flight is dropped
        self.citation = None
        self.number = self._total = 0
        self._view = _View()
        self._placeholder = True
        self._set_weak(False)
        self.quote_box.hide()
        self.ocr_label.hide()
        self.path_label.setText("")
        self.path_label.setToolTip("")
        self.image_label.clear()
        self.image_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.image_label.setMargin(24)
        self.text_view.setExtraSelections([])
        self.text_view.clear()
        self.search_status.setText("")
        self.stack.setCurrentWidget(self.scroll)
        self.retranslate()
        self._update_nav()

    def go_to_page(self, page: int) -> None:
        """Show another page of the same document (highlights stay on the cited page(s) only)."""
        v = self._view
        if not v.path or page < 1 or (v.page_count and page > v.page_count) or page == v.page:
            return
        v.page = page
        self._load()

    def step_zoom(self, direction: int) -> None:
        """Zoom one step in (``+1``) or out (``-1``) and re-render."""
        steps = list(_ZOOM_STEPS)
        i = min(range(len(steps)), key=lambda k: abs(steps[k] - self.zoom_factor))
        i = max(0, min(len(steps) - 1, i + direction))
        if steps[i] != self.zoom_factor:
            self.zoom_factor = steps[i]
            if self._view.path:
                self._load()
            if not self.is_pdf:
                font = self.text_view.font()
                font.setPointSizeF(max(6.0, 10.0 * self.zoom_factor))
                self.text_view.setFont(font)

    def open_externally(self) -> bool:
        """Open the document in the system's default viewer; False if nothing is shown."""
        if not self._view.path:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(self._view.path))

    def focus_search(self) -> None:
        """Move keyboard focus to the find box (Ctrl+F)."""
        self.show()
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    # --- loading (pool threads) -----------------------------------------------

    def _load(self) -> None:
        self._seq += 1
        seq, v = self._seq, self._view
        if self.citation is None:
            self._show_document_header()  # the page shown may have changed
        self._update_nav()
        if self.is_pdf:
            self.stack.setCurrentWidget(self.scroll)
            dpr = self.devicePixelRatioF() or 1.0
            fit = max(0.5, (self.scroll.viewport().width() - 8) / _PAGE_WIDTH_PT)
            self.zoom = fit * self.zoom_factor
            self.render_scale = self.zoom * dpr
            rects = v.rects if v.page == v.cited_page else v.more_rects.get(v.page, [])
            path, page, scale, weak = v.path, v.page, self.render_scale, self.weak
            self.image_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            self.image_label.setMargin(0)
            self.image_label.setText(self.tr("Rendering page…"))
            self._jobs.call(lambda: (seq, dpr, rects, _render_pdf(path, page, rects, scale, weak)),
                            self._on_rendered, self._on_load_error)
        else:
            self.stack.setCurrentWidget(self.text_view)
            path, page = v.path, v.page
            self._jobs.call(lambda: (seq, _page_text(path, page)), self._on_text, self._on_load_error)

    @Slot(object)
    def _on_rendered(self, result) -> None:
        seq, dpr, rects, (png, page_count) = result
        if seq != self._seq:
            return  # a newer request was made meanwhile
        self._view.page_count = page_count
        pixmap = QPixmap.fromImage(QImage.fromData(png, "PNG"))
        pixmap.setDevicePixelRatio(dpr)
        self.image_label.setPixmap(pixmap)
        self.image_label.adjustSize()
        if rects:
            x0, y0, _, _ = rects[0]
            self.scroll.widget().adjustSize()
            self.scroll.ensureVisible(int(x0 * self.zoom), int(y0 * self.zoom), 20, 120)
        self._update_nav()
        self.page_rendered.emit()

    @Slot(object)
    def _on_text(self, result) -> None:
        seq, (text, page_count) = result
        if seq != self._seq:
            return
        v = self._view
        v.page_count = page_count
        self.text_view.setPlainText(text)
        selections = []
        if v.span is not None and v.page == v.cited_page:
            start, end = (min(max(x, 0), len(text)) for x in v.span)
            selections.append(self._quote_selection(start, end))
            cursor = QTextCursor(self.text_view.document())
            cursor.setPosition(start)
            self.text_view.setTextCursor(cursor)
            self.text_view.ensureCursorVisible()
        # The quote is an extra selection, never a format written into the document: a merged
        # format stayed as the cursor's format, and the next setPlainText painted the whole
        # text (or from the previous quote on) in the quote's yellow (tryout 5, finding 5).
        self.text_view.setExtraSelections(selections)
        self._update_nav()
        self.page_rendered.emit()

    def _quote_selection(self, start: int, end: int) -> QTextEdit.ExtraSelection:
        """The highlight of characters ``[start, end)`` of the page text: the quote, yellow (grey for a
        weak passage, as its quote box), as the PDF page highlights the quote's lines only."""
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format.setBackground(QColor(WEAK_HIGHLIGHT if self.weak else QUOTE_HIGHLIGHT))
        selection.format.setForeground(QColor("#111111"))
        return selection

    def highlighted_spans(self) -> list[tuple[int, int]]:
        """``[start, end)`` character ranges of the text view shown highlighted (tests, screenshots)."""
        return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in self.text_view.extraSelections()]

    @Slot(object)
    def _on_load_error(self, exc: Exception) -> None:
        self.image_label.clear()
        self.image_label.setText(str(exc))
        self.text_view.setExtraSelections([])
        self.text_view.setPlainText(str(exc))
        self.page_rendered.emit()

    def _update_nav(self) -> None:
        v = self._view
        has = bool(v.path)
        self.prev_page_button.setEnabled(has and v.page > 1)
        self.next_page_button.setEnabled(has and (v.page_count == 0 or v.page < v.page_count))
        self.page_number_label.setText(f"{v.page} / {v.page_count}" if has and v.page_count else "")
        for b in (self.zoom_in_button, self.zoom_out_button, self.open_button, self.search_edit):
            b.setEnabled(has)
        for b in (self.prev_citation_button, self.next_citation_button):
            b.setEnabled(self.citation is not None)

    # --- find -----------------------------------------------------------------

    def find_next(self) -> None:
        """Find the search box's text: in the text view, or page by page in a PDF (from the next page)."""
        term = self.search_edit.text().strip()
        if not term or not self._view.path:
            return
        if not self.is_pdf:
            found = self.text_view.find(term)
            if not found:  # wrap around once
                self.text_view.moveCursor(QTextCursor.MoveOperation.Start)
                found = self.text_view.find(term)
            self.search_status.setText("" if found else self.tr("Not found"))
            return
        path, start = self._view.path, self._view.page + (1 if self.search_status.text() == term else 0)
        self._seq += 1
        seq = self._seq
        self.search_status.setText(self.tr("Searching…"))
        self._jobs.call(lambda: (seq, term, _search_pdf(path, start, term)), self._on_found, self._on_load_error)

    @Slot(object)
    def _on_found(self, result) -> None:
        seq, term, hit = result
        if seq != self._seq:
            return
        if hit is None:
            self.search_status.setText(self.tr("Not found"))
            return
        page, rects = hit
        self.search_status.setText(term)
        v = self._view
        v.page, v.rects, v.cited_page = page, rects, page
        self._load()

    def stop(self) -> None:
        """Cancel pending renders and wait for the one running (on close)."""
        self._jobs.cancel_all()
        self._pool.clear()
        self._pool.waitForDone(30000)
