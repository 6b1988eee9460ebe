"""The main window: workspace panel, question and answer, cited page viewer.

Layout::

    ┌ workspace ─────────┬ question ─────────────────────┬ citation (dock) ┐
    │ name, Add folder…  │ [ question…        ][Ask][Stop]│ file — page N   │
    │ documents          │ stage                          │ path, quote     │
    │ failures           │ answer (claims + citation      │ rendered page   │
    │ progress, Cancel   │         chips "cite:N")        │ with highlight  │
    └────────────────────┴────────────────────────────────┴─────────────────┘
    status bar: model that answered · Ollama reachable? · chunk count

Every call into core that reads files, opens the index or runs a model goes
through :mod:`desktop.workers`; the GUI thread only formats results.
"""

from __future__ import annotations

import html
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Qt, QUrl, Signal, Slot
from PySide6.QtGui import (
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
    QKeySequence,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import core  # noqa: F401  (offline switches before any ML import)
from core.errors import IndexError_, IndexMismatchError
from core.generate import Backend, ollama_reachable
from core.ingest import render_page_png
from core.pipeline import answer_question, index_folders
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, Citation, IndexReport, ProgressEvent, RejectReason
from desktop.workers import CallWorker, GeneratorWorker, _BaseWorker

# Width of a US Letter / A4 page in PDF points, used to fit the page to the panel.
_PAGE_WIDTH_PT = 612.0

_STAGES = {
    "retrieving": "Retrieving passages…",
    "loading": "Loading the model…",
    "generating": "Generating the answer…",
    "verifying": "Verifying every quote…",
}

_REASONS = {
    RejectReason.unknown_chunk: "cites a passage that was not given to the model",
    RejectReason.quote_too_short: "quote too short to check",
    RejectReason.wrong_chunk: "quote comes from a different passage than the one cited",
    RejectReason.quote_not_found: "quote not found in the cited passage",
    RejectReason.no_citation: "no verified quote left for this sentence",
    RejectReason.model_output_invalid: "the model's output was not valid",
}

_CHIP_STYLE = "background-color:#fde68a; color:#6b4300; text-decoration:none; font-weight:600;"


class _Jobs(QObject):
    """Keeps Python references to running workers until they finish.

    A ``QRunnable`` whose Python wrapper is collected before it runs crashes
    the pool; holding it here until ``finished`` avoids that. A QObject of the
    GUI thread, so ``finished`` reaches :meth:`_reap` queued, in the GUI thread.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers: list[_BaseWorker] = []

    def start(self, worker: _BaseWorker, pool: QThreadPool) -> _BaseWorker:
        """Remember ``worker`` and queue it on ``pool``."""
        worker.signals.finished.connect(self._reap)  # queued: runs in the GUI thread
        self._workers.append(worker)
        pool.start(worker)
        return worker

    @Slot()
    def _reap(self) -> None:
        self._workers = [w for w in self._workers if not w.done]

    def cancel_all(self) -> None:
        """Ask every running worker to stop."""
        for w in self._workers:
            w.cancel()


class CitationPanel(QDockWidget):
    """Side panel showing one citation: file and page, the quote, the rendered page.

    The page is rendered by :func:`core.ingest.render_page_png` in a pool thread,
    at the screen's device pixel ratio, with the quote's rectangles highlighted.

    Attributes:
        citation: the :class:`core.types.Citation` shown, or ``None``.
        number: its chip number in the answer.
        page_label: ``"<file name> — page N"``.
        path_label: the document's full path.
        quote_label: the verified quote.
        image_label: the rendered page (a ``QLabel`` inside ``scroll``).
        zoom: logical pixels per PDF point of the last render.
        render_scale: device pixels per PDF point of the last render (``zoom × dpr``).
    """

    page_rendered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Citation"), parent)
        self.setObjectName("citationPanel")
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.citation: Citation | None = None
        self.number = 0
        self.zoom = 1.0
        self.render_scale = 1.0
        self._seq = 0
        self._jobs = _Jobs(self)

        body = QWidget()
        layout = QVBoxLayout(body)
        self.page_label = QLabel(self.tr("Click a citation number to see its page."))
        self.page_label.setObjectName("pageLabel")
        font = self.page_label.font()
        font.setBold(True)
        self.page_label.setFont(font)
        self.path_label = QLabel()
        self.path_label.setWordWrap(True)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path_label.setStyleSheet("color: palette(mid);")
        self.quote_label = QLabel()
        self.quote_label.setWordWrap(True)
        self.quote_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.quote_label.setStyleSheet("background:#fff7d6; color:#222; border-left:3px solid #e0a800; padding:6px;")
        self.quote_label.hide()
        self.image_label = QLabel()
        self.image_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.image_label)
        self.scroll.setWidgetResizable(True)
        self.scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout.addWidget(self.page_label)
        layout.addWidget(self.path_label)
        layout.addWidget(self.quote_label)
        layout.addWidget(self.scroll, 1)
        self.setWidget(body)

    def show_citation(self, citation: Citation, number: int) -> None:
        """Show ``citation`` and start rendering its page in the background."""
        self.citation = citation
        self.number = number
        self.page_label.setText(f"[{number}] {Path(citation.path).name} — {self.tr('page')} {citation.page}")
        self.path_label.setText(f"{citation.doc_id}\n{citation.path}")
        match = "" if citation.match.value == "exact" else f"  ({citation.match.value}, {citation.score:.0f})"
        self.quote_label.setText(f"“{citation.quote}”{match}")
        self.quote_label.show()
        self.show()
        self.raise_()
        self._seq += 1
        if not citation.path.lower().endswith(".pdf"):
            self.image_label.clear()
            self.image_label.setText(self.tr("No page image for this file type; the quote is shown above."))
            self.page_rendered.emit()
            return
        dpr = self.devicePixelRatioF() or 1.0
        self.zoom = max(0.8, (self.scroll.viewport().width() - 8) / _PAGE_WIDTH_PT)
        self.render_scale = self.zoom * dpr
        seq, path, page, rects, scale = self._seq, citation.path, citation.page, list(citation.rects), self.render_scale
        self.image_label.setText(self.tr("Rendering page…"))
        worker = CallWorker(lambda: (seq, dpr, render_page_png(path, page, rects, zoom=scale)))
        worker.signals.returned.connect(self._on_rendered)
        worker.signals.errored.connect(self._on_render_error)
        self._jobs.start(worker, QThreadPool.globalInstance())

    @Slot(object)
    def _on_rendered(self, result: tuple[int, float, bytes]) -> None:
        seq, dpr, png = result
        if seq != self._seq:
            return  # a newer citation was opened meanwhile
        image = QImage.fromData(png, "PNG")
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(dpr)
        self.image_label.setPixmap(pixmap)
        if self.citation is not None and self.citation.rects:
            x0, y0, _, _ = self.citation.rects[0]
            self.scroll.ensureVisible(int(x0 * self.zoom), int(y0 * self.zoom), 20, 120)
        self.page_rendered.emit()

    @Slot(object)
    def _on_render_error(self, exc: Exception) -> None:
        self.image_label.clear()
        self.image_label.setText(str(exc))
        self.page_rendered.emit()

    def stop(self) -> None:
        """Cancel pending renders (on close)."""
        self._jobs.cancel_all()


class MainWindow(QMainWindow):
    """Verbatim's window over one workspace.

    Args:
        settings: pipeline settings (``settings.backend`` picks the generator).
        workspace: workspace name; the index is opened in a worker thread.
        backend: a ready generation backend (tests inject a scripted one);
            ``None`` lets core choose per ``settings.backend`` at ask time.

    Signals:
        indexing_finished(IndexReport): an indexing run ended (also when cancelled).
        answer_ready(Answer): an answer (or abstention) is shown.
        page_rendered(): the side panel finished rendering a cited page.
        error_occurred(str): a user-facing error was shown.
    """

    indexing_finished = Signal(object)
    answer_ready = Signal(object)
    page_rendered = Signal()
    error_occurred = Signal(str)

    def __init__(
        self,
        settings: Settings | None = None,
        workspace: str = "default",
        backend: Backend | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings or Settings()
        self.workspace_name = workspace
        self.backend = backend
        self.answer: Answer | None = None
        self.citations: list[Citation] = []
        self._workspace: Workspace | None = None
        self._workspace_lock = threading.Lock()
        self._jobs = _Jobs(self)
        self._index_pool = QThreadPool(self)
        self._index_pool.setMaxThreadCount(1)
        self._ask_pool = QThreadPool(self)
        self._ask_pool.setMaxThreadCount(1)
        self._index_workers: list[GeneratorWorker] = []
        self._ask_worker: GeneratorWorker | None = None
        self.rebuild_box: QMessageBox | None = None

        self.setWindowTitle(f"Verbatim — {workspace}")
        self.setAcceptDrops(True)
        screen = QGuiApplication.primaryScreen()
        avail = screen.availableGeometry() if screen is not None else None
        if avail is not None and avail.width() > 0:
            self.resize(min(1440, int(avail.width() * 0.95)), min(900, int(avail.height() * 0.95)))
        else:
            self.resize(1440, 900)
        self._build_left()
        self._build_centre()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.left_panel)
        splitter.addWidget(self.centre_panel)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 600])
        self.setCentralWidget(splitter)
        self.side_panel = CitationPanel(self)
        self.side_panel.setMinimumWidth(460)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.side_panel)
        self.side_panel.page_rendered.connect(self.page_rendered)
        self._build_status_bar()
        QShortcut(QKeySequence("Ctrl+L"), self, activated=self._focus_question)

        self._refresh_workspace()
        self._check_ollama()

    # --- construction ---------------------------------------------------------

    def _build_left(self) -> None:
        self.left_panel = QWidget()
        layout = QVBoxLayout(self.left_panel)
        self.workspace_label = QLabel(f"{self.tr('Workspace')}: <b>{html.escape(self.workspace_name)}</b>")
        self.add_folder_button = QPushButton(self.tr("Add folder…"))
        self.add_folder_button.setToolTip(self.tr("Index a folder (or drop folders onto the window)"))
        self.add_folder_button.clicked.connect(self._choose_folder)
        self.documents_view = QTreeWidget()
        self.documents_view.setHeaderLabels([self.tr("Document"), self.tr("Pages"), self.tr("Status")])
        self.documents_view.setRootIsDecorated(False)
        self.documents_view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.documents_view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.failures_label = QLabel(self.tr("Could not index:"))
        self.failures_view = QListWidget()
        self.failures_view.setWordWrap(True)
        self.failures_view.setMaximumHeight(140)
        self.failures_label.hide()
        self.failures_view.hide()
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.current_file_label = QLabel(self.tr("Idle"))
        self.current_file_label.setWordWrap(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_indexing)
        row = QHBoxLayout()
        row.addWidget(self.progress_bar, 1)
        row.addWidget(self.cancel_button)
        layout.addWidget(self.workspace_label)
        layout.addWidget(self.add_folder_button)
        layout.addWidget(QLabel(self.tr("Documents")))
        layout.addWidget(self.documents_view, 1)
        layout.addWidget(self.failures_label)
        layout.addWidget(self.failures_view)
        layout.addWidget(self.current_file_label)
        layout.addLayout(row)

    def _build_centre(self) -> None:
        self.centre_panel = QWidget()
        layout = QVBoxLayout(self.centre_panel)
        row = QHBoxLayout()
        self.question_edit = QLineEdit()
        self.question_edit.setPlaceholderText(self.tr("Ask a question about your documents (Ctrl+L)"))
        self.question_edit.returnPressed.connect(self._ask_from_edit)
        self.ask_button = QPushButton(self.tr("Ask"))
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self._ask_from_edit)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_asking)
        row.addWidget(self.question_edit, 1)
        row.addWidget(self.ask_button)
        row.addWidget(self.stop_button)
        self.stage_label = QLabel("")
        self.stage_label.setStyleSheet("color: palette(mid);")
        self.answer_view = QTextBrowser()
        self.answer_view.setOpenLinks(False)
        self.answer_view.setOpenExternalLinks(False)
        self.answer_view.anchorClicked.connect(self._on_anchor)
        self.answer_view.setHtml(
            "<p style='color:gray'>" + html.escape(self.tr(
                "Answers appear here. Every sentence carries numbered citations; "
                "click one to see the quoted passage on its page.")) + "</p>"
        )
        layout.addLayout(row)
        layout.addWidget(self.stage_label)
        layout.addWidget(self.answer_view, 1)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.backend_label = QLabel(self.tr("Model: —"))
        self.ollama_label = QLabel(self.tr("Ollama: checking…"))
        self.chunks_label = QLabel(self.tr("Chunks: —"))
        for w in (self.backend_label, self.ollama_label, self.chunks_label):
            bar.addPermanentWidget(w)

    # --- workspace (worker threads only) -------------------------------------

    def _get_workspace(self) -> Workspace:
        """The workspace, opened on first use. Call from worker threads only (SQLite I/O)."""
        with self._workspace_lock:
            if self._workspace is None:
                self._workspace = Workspace(self.workspace_name, self.settings)
            return self._workspace

    def _workspace_snapshot(self) -> dict:
        ws = self._get_workspace()
        return {"documents": ws.documents(), "failures": ws.failures(), "chunks": ws.chunk_count()}

    def _refresh_workspace(self) -> None:
        worker = CallWorker(self._workspace_snapshot)
        worker.signals.returned.connect(self._on_snapshot)
        worker.signals.errored.connect(self._on_error)
        self._jobs.start(worker, QThreadPool.globalInstance())

    @Slot(object)
    def _on_snapshot(self, snap: dict) -> None:
        self.documents_view.clear()
        for doc in snap["documents"]:
            item = QTreeWidgetItem([doc["doc_id"], str(doc["pages"]), doc["status"]])
            item.setToolTip(0, f"{doc['path']}\n{doc['chunks']} chunks, {doc['lang']}")
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            self.documents_view.addTopLevelItem(item)
        self.failures_view.clear()
        for f in snap["failures"]:
            where = f" (page {f.page})" if f.page else ""
            self.failures_view.addItem(f"{Path(f.path).name}{where}: {f.reason}")
            self.failures_view.item(self.failures_view.count() - 1).setToolTip(f.path)
        has_failures = bool(snap["failures"])
        self.failures_label.setVisible(has_failures)
        self.failures_view.setVisible(has_failures)
        self.chunks_label.setText(f"{self.tr('Chunks')}: {snap['chunks']}")

    def _check_ollama(self) -> None:
        settings = self.settings
        worker = CallWorker(lambda: ollama_reachable(settings))
        worker.signals.returned.connect(self._on_ollama_checked)
        self._jobs.start(worker, QThreadPool.globalInstance())

    @Slot(object)
    def _on_ollama_checked(self, ok: bool) -> None:
        host = self.settings.ollama_host
        if ok:
            self.ollama_label.setText(f"Ollama: {self.tr('reachable')}")
        else:
            self.ollama_label.setText(f"Ollama: {self.tr('not reachable')}")
        self.ollama_label.setToolTip(host)

    # --- indexing -------------------------------------------------------------

    def start_indexing(self, folder: str | Path | list[str | Path]) -> None:
        """Index ``folder`` (or several) into the workspace in the background.

        Runs on the single-thread index pool, so runs queue up in order.
        Emits :attr:`indexing_finished` with the :class:`IndexReport`.
        """
        folders = [str(folder)] if isinstance(folder, (str, Path)) else [str(f) for f in folder]

        def factory(cancel):
            dirs = [f for f in folders if Path(f).is_dir()]
            if not dirs:
                raise IndexError_(self.tr("Not a folder: ") + ", ".join(folders))
            return index_folders(self._get_workspace(), dirs, cancel=cancel)

        worker = GeneratorWorker(factory)
        worker.signals.progress.connect(self._on_index_progress)
        worker.signals.returned.connect(self._on_index_returned)
        worker.signals.errored.connect(self._on_error)
        worker.signals.finished.connect(self._on_index_finished)
        self._index_workers.append(worker)
        self.cancel_button.setEnabled(True)
        self.current_file_label.setText(self.tr("Waiting to index ") + ", ".join(Path(f).name for f in folders))
        self._jobs.start(worker, self._index_pool)

    def cancel_indexing(self) -> None:
        """Stop the running and queued indexing runs (after the current file)."""
        for w in self._index_workers:
            w.cancel()
        self.current_file_label.setText(self.tr("Cancelling…"))

    @Slot(object)
    def _on_index_progress(self, event: ProgressEvent) -> None:
        if event.total > 0:
            self.progress_bar.setRange(0, event.total)
            self.progress_bar.setValue(event.done)
        if event.message:
            self.current_file_label.setText(event.message)

    @Slot(object)
    def _on_index_returned(self, report: IndexReport) -> None:
        state = self.tr("Cancelled") if report.cancelled else self.tr("Indexed")
        self.current_file_label.setText(
            f"{state}: {report.documents} new/changed, {report.unchanged} unchanged, "
            f"{report.removed} removed, {len(report.failures)} failed ({report.seconds:.1f} s)"
        )
        if not report.cancelled:
            self.progress_bar.setValue(self.progress_bar.maximum())
        self.chunks_label.setText(f"{self.tr('Chunks')}: {report.total_chunks}")
        self._refresh_workspace()
        self.indexing_finished.emit(report)

    @Slot()
    def _on_index_finished(self) -> None:
        self._index_workers = [w for w in self._index_workers if not w.done]
        self.cancel_button.setEnabled(bool(self._index_workers))

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add folder to index"))
        if folder:
            self.start_indexing(folder)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt API
        """Accept local files/folders; folders are checked in the worker."""
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt API
        """Index the dropped folders."""
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.start_indexing(paths)

    # --- asking ---------------------------------------------------------------

    def _focus_question(self) -> None:
        self.question_edit.setFocus()
        self.question_edit.selectAll()

    def _ask_from_edit(self) -> None:
        self.ask(self.question_edit.text())

    def ask(self, question: str) -> None:
        """Answer ``question`` in the background; emits :attr:`answer_ready`.

        A question asked while another runs cancels the earlier one.
        """
        question = question.strip()
        if not question:
            return
        if self.question_edit.text().strip() != question:
            self.question_edit.setText(question)
            self.question_edit.setCursorPosition(0)
        if self._ask_worker is not None:
            self._ask_worker.cancel()
        settings, backend = self.settings, self.backend
        worker = GeneratorWorker(
            lambda cancel: answer_question(self._get_workspace(), question, settings, backend=backend, cancel=cancel)
        )
        worker.signals.progress.connect(self._on_ask_progress)
        worker.signals.returned.connect(self._on_ask_returned)
        worker.signals.errored.connect(self._on_ask_error)
        worker.signals.cancelled.connect(self._on_ask_cancelled)
        self._ask_worker = worker
        self.stop_button.setEnabled(True)
        self.stage_label.setText(self.tr("Waiting…"))
        self._jobs.start(worker, self._ask_pool)

    def stop_asking(self) -> None:
        """Cancel the running question."""
        if self._ask_worker is not None:
            self._ask_worker.cancel()
            self.stage_label.setText(self.tr("Stopping…"))

    def _is_current(self) -> bool:
        worker = self._ask_worker
        return worker is not None and self.sender() is worker.signals

    @Slot(object)
    def _on_ask_progress(self, event: ProgressEvent) -> None:
        if self._is_current():
            self.stage_label.setText(self.tr(_STAGES.get(event.stage, event.message or event.stage)))

    @Slot(object)
    def _on_ask_returned(self, answer: Answer) -> None:
        if not self._is_current():
            return
        self._ask_done()
        self.show_answer(answer)
        t = answer.trace
        total = t.timings_ms.get("total")
        self.stage_label.setText(
            f"{answer.status}" + (f" · {total / 1000:.1f} s" if total is not None else "")
        )
        self.answer_ready.emit(answer)

    @Slot(object)
    def _on_ask_error(self, exc: Exception) -> None:
        if not self._is_current():
            return
        self._ask_done()
        self.stage_label.setText(self.tr("Failed"))
        self.answer_view.setHtml(
            f"<p style='color:#b00020'><b>{html.escape(self.tr('Could not answer'))}</b></p>"
            f"<p>{html.escape(str(exc))}</p>"
        )
        self.error_occurred.emit(str(exc))

    @Slot()
    def _on_ask_cancelled(self) -> None:
        if not self._is_current():
            return
        self._ask_done()
        self.stage_label.setText(self.tr("Stopped"))

    def _ask_done(self) -> None:
        self._ask_worker = None
        self.stop_button.setEnabled(False)

    # --- presenting -----------------------------------------------------------

    def show_answer(self, answer: Answer) -> None:
        """Render ``answer`` (answered, partial or abstained) in :attr:`answer_view`."""
        self.answer = answer
        self.citations = []
        t = answer.trace
        self.backend_label.setText(
            f"{self.tr('Model')}: {t.backend} ({t.model})" if t.backend else f"{self.tr('Model')}: {self.tr('not called')}"
        )
        parts = [f"<p style='color:gray'>{html.escape(answer.question)}</p>"]
        if answer.status == "abstained" and answer.abstention is not None:
            parts.append(self._abstention_html(answer))
        else:
            if answer.status == "partial":
                parts.append(
                    "<p style='color:#8a5a00'><b>" + html.escape(self.tr("Partial answer")) + "</b> — "
                    + html.escape(self.tr("some sentences were removed because no quote could be verified."))
                    + "</p>"
                )
            for claim in answer.claims:
                chips = []
                for cit in claim.citations:
                    self.citations.append(cit)
                    n = len(self.citations)
                    chips.append(self._chip(n))
                parts.append(f"<p style='font-size:12pt'>{html.escape(claim.text)} {' '.join(chips)}</p>")
            parts.append("<hr><p><b>" + html.escape(self.tr("Sources")) + "</b></p><table cellspacing='4'>")
            for n, cit in enumerate(self.citations, 1):
                parts.append(
                    f"<tr><td valign='top'>{self._chip(n)}</td><td>{html.escape(cit.doc_id)}, "
                    f"{html.escape(self.tr('page'))} {cit.page}<br><i>“{html.escape(cit.quote)}”</i></td></tr>"
                )
            parts.append("</table>")
        if answer.rejected:
            parts.append(self._rejected_html(answer))
        self.answer_view.setHtml("".join(parts))

    def _chip(self, n: int) -> str:
        return f"<a href='cite:{n}' style='{_CHIP_STYLE}'>&nbsp;{n}&nbsp;</a>"

    def _abstention_html(self, answer: Answer) -> str:
        ab = answer.abstention
        assert ab is not None
        out = [
            f"<p><span style='background-color:#e5e7eb; color:#374151; font-weight:700;'>&nbsp;{ab.marker}&nbsp;</span></p>",
            f"<p style='font-size:12pt'>{html.escape(ab.message)}</p>",
            f"<p><b>{html.escape(self.tr('Searched for'))}:</b> {html.escape(ab.query)}</p>",
        ]
        if ab.consulted:
            out.append(f"<p><b>{html.escape(self.tr('Documents consulted'))}:</b></p><ul>")
            for doc in ab.consulted:
                pages = ", ".join(str(p) for p in doc.pages)
                out.append(f"<li>{html.escape(doc.doc_id)} — {html.escape(self.tr('pages'))} {pages}</li>")
            out.append("</ul>")
        else:
            out.append(f"<p>{html.escape(self.tr('No document matched the question.'))}</p>")
        return "".join(out)

    def _rejected_html(self, answer: Answer) -> str:
        """Removed sentences and dropped citations, grouped by sentence, each with its reason."""
        kept = {c.text for c in answer.claims}
        groups: dict[str, list] = {}
        for r in answer.rejected:
            groups.setdefault(r.claim, []).append(r)
        out = [f"<hr><p style='color:#8a5a00'><b>{html.escape(self.tr('Removed (not verified)'))}</b></p><ul>"]
        for claim, items in groups.items():
            what = html.escape(claim) if claim else html.escape(self.tr("(the whole answer)"))
            status = self.tr("citation dropped, sentence kept") if claim in kept else self.tr("sentence removed")
            out.append(f"<li>{what} <span style='color:gray'>({html.escape(status)})</span><ul>")
            shown = [r for r in items if r.reason != RejectReason.no_citation] or items[:1]
            shown = list({(r.reason, r.chunk_id, r.quote): r for r in shown}.values())
            for r in shown:
                reason = self.tr(_REASONS.get(r.reason, r.reason.value))
                cited = f" [{html.escape(r.chunk_id)}]" if r.chunk_id else ""
                quote = f"<br><i>“{html.escape(r.quote)}”</i>" if r.quote else ""
                out.append(f"<li><span style='color:#b00020'>{html.escape(reason)}</span>{cited}{quote}</li>")
            out.append("</ul></li>")
        out.append("</ul>")
        return "".join(out)

    @Slot(QUrl)
    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() == "cite":
            try:
                self.open_citation(int(url.path()))
            except ValueError:
                pass

    def open_citation(self, n: int) -> None:
        """Show citation ``n`` (1-based chip number) in the side panel, as clicking its chip does."""
        if 1 <= n <= len(self.citations):
            self.side_panel.show_citation(self.citations[n - 1], n)

    # --- errors and shutdown --------------------------------------------------

    @Slot(object)
    def _on_error(self, exc: Exception) -> None:
        if isinstance(exc, IndexMismatchError):
            self.offer_rebuild(exc)
        message = str(exc)
        self.current_file_label.setText(message)
        self.statusBar().showMessage(message, 15000)
        self.error_occurred.emit(message)

    # --- rebuild after a settings change (issue #3) ------------------------------

    def offer_rebuild(self, exc: IndexMismatchError) -> None:
        """Ask (non-modal) whether to rebuild a workspace indexed with other settings.

        Shown when opening the workspace raised :class:`IndexMismatchError`; the
        box is :attr:`rebuild_box` while it is open. "Rebuild" calls :meth:`rebuild_index`.
        """
        if self.rebuild_box is not None:
            return
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("Rebuild the index?"))
        box.setText(self.tr(
            "This workspace was indexed with other settings (embedding model or chunking). "
            "Its vectors cannot be mixed with new ones: rebuild it to use it. "
            "Rebuilding re-reads every document and may take a while."))
        box.setDetailedText(str(exc))
        rebuild = box.addButton(self.tr("Rebuild"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(rebuild)

        def answered(_result: int) -> None:
            self.rebuild_box = None
            if box.clickedButton() is rebuild:
                self.rebuild_index()

        box.finished.connect(answered)
        self.rebuild_box = box
        box.open()

    def rebuild_index(self) -> None:
        """Empty the workspace's index and re-index its folders under the current settings.

        Runs on the index pool (never the GUI thread); emits :attr:`indexing_finished`.
        """
        name, settings = self.workspace_name, self.settings

        def factory(cancel):
            ws = Workspace.reset(name, settings)
            with self._workspace_lock:
                self._workspace = ws
            return index_folders(ws, ws.folders(), cancel=cancel)

        worker = GeneratorWorker(factory)
        worker.signals.progress.connect(self._on_index_progress)
        worker.signals.returned.connect(self._on_index_returned)
        worker.signals.errored.connect(self._on_error)
        worker.signals.finished.connect(self._on_index_finished)
        self._index_workers.append(worker)
        self.cancel_button.setEnabled(True)
        self.current_file_label.setText(self.tr("Rebuilding the index…"))
        self._jobs.start(worker, self._index_pool)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        """Cancel background work and wait for index writes to finish cleanly."""
        self._jobs.cancel_all()
        self.side_panel.stop()
        self._ask_pool.clear()
        self._index_pool.clear()
        self._ask_pool.waitForDone(60000)
        self._index_pool.waitForDone(60000)
        super().closeEvent(event)
