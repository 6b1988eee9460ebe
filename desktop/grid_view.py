"""The review grid window: every document (row) asked the same questions (columns), see core/grid.py.

The grid runs in the engine process (:func:`core.grid.grid_op`) through a
:class:`~desktop.workers.GeneratorWorker`: cells arrive one by one and fill the table while
the run goes on, with progress, time left and Cancel; nothing here reads files or calls a
model on the GUI thread (exports and reviewer marks go through :meth:`Jobs.call`). Clicking a
cell opens its page with the quote highlighted, like a citation (``open_citation``).

The dialog gets only what it needs (a narrow interface, as napari's controllers get the viewer
model): the engine, the window's :class:`~desktop.workers.Jobs`, the settings, the workspace
name, the rows, and a callable that shows a citation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QFileDialog, QHBoxLayout, QInputDialog, QLabel, QMenu,
    QProgressBar, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
)

from core.grid import GridCell, GridColumn, GridStore, grid_op, templates
from core.grid_export import export_grid
from core.types import Citation, ProgressEvent
from desktop.workers import GeneratorWorker

ROW_NAME_MAX_PX = 280  # document names past this width are elided in the middle (the full id is the tooltip)


#: Background of a cell by status (light, readable with black text; the status is also written).
STATUS_COLOR = {"answered": "#e6f4ea", "weak": "#fff4d6", "not_found": "#f1f3f4"}
#: Narrowest width of a question column, in pixels (a header up to twice as wide gets its width).
COLUMN_WIDTH = 150


class GridDialog(QDialog):
    """A non-modal window with the grid of one workspace.

    Args:
        engine: ``core.engine.Engine`` or ``LocalEngine`` (``run(fn, *args, cancel=…)``).
        jobs: the window's :class:`~desktop.workers.Jobs`.
        settings: the current :class:`core.settings.Settings`.
        workspace: the workspace's name; ``workspace_dir`` its folder (for the stored grid).
        doc_ids: rows; ``None`` = every active document.
        open_citation: shows a :class:`Citation` in the side panel (page, highlight).
    """

    def __init__(self, parent, *, engine, jobs, settings, workspace: str, workspace_dir: Path,
                 doc_ids: list[str] | None, open_citation: Callable[[Citation], None]) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.engine, self.jobs, self.settings = engine, jobs, settings
        self.workspace, self.workspace_dir = workspace, Path(workspace_dir)
        self.doc_ids = doc_ids
        self.open_citation = open_citation
        self.cells: dict[tuple[str, str], GridCell] = {}
        self.rows: list[str] = []
        self.worker = None
        self._started = 0.0
        self._first_done = 0

        self.template = QComboBox()
        self.add_question = QPushButton()
        self.run_button, self.cancel_button, self.export_button = QPushButton(), QPushButton(), QPushButton()
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        rows = self.table.verticalHeader()
        rows.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        rows.setMaximumWidth(ROW_NAME_MAX_PX)  # a long file name took half the window (tryout 5)
        self.table.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)

        bar = QHBoxLayout()
        for w in (self.template, self.add_question, self.run_button, self.cancel_button, self.export_button):
            bar.addWidget(w)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)

        self.template.currentIndexChanged.connect(self._load_template)
        self.add_question.clicked.connect(self._ask_question)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_button.clicked.connect(self._export_dialog)
        self.table.cellClicked.connect(self._cell_clicked)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.columns: list[GridColumn] = []
        self.retranslate()
        self.resize(1100, 600)

    # --- texts ---------------------------------------------------------------------------

    def _lang(self) -> str:
        return "es" if str(getattr(self.settings, "ui_language", "en")).startswith("es") else "en"

    def retranslate(self) -> None:
        """Set the texts in the current language; the template's questions follow it."""
        self.setWindowTitle(self.tr("Review grid — %1").replace("%1", self.workspace))
        self.add_question.setText(self.tr("Add a question…"))
        self.run_button.setText(self.tr("Run"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.export_button.setText(self.tr("Export…"))
        current = self.template.currentData()
        self.template.blockSignals(True)
        self.template.clear()
        for tid, t in templates(self._lang()).items():
            self.template.addItem(t.name, tid)
        index = max(0, self.template.findData(current)) if current else 0
        self.template.setCurrentIndex(index)
        self.template.blockSignals(False)
        self._load_template()

    def status_text(self, status: str) -> str:
        """The status of a cell as the user reads it."""
        return {"answered": self.tr("answered"), "weak": self.tr("weak — closest passage, not an answer"),
                "not_found": self.tr("not found in this document")}[status]

    # --- columns and rows ----------------------------------------------------------------

    def _load_template(self) -> None:
        tid = self.template.currentData()
        if not tid or self.worker is not None:
            return
        self.columns = list(templates(self._lang())[tid].columns)
        self._layout_table()

    def _ask_question(self) -> None:
        text, ok = QInputDialog.getText(self, self.tr("Add a question"), self.tr("Question asked of every document:"))
        if ok and text.strip():
            self.columns.append(GridColumn(id=f"q{len(self.columns) + 1}", question=text.strip()))
            self._layout_table()

    def _layout_table(self) -> None:
        self.table.setColumnCount(len(self.columns))
        # a short header (the clause's name), left-aligned and cut on the right only; the question is its tooltip
        lang, metrics = self._lang(), self.table.horizontalHeader().fontMetrics()
        for c, col in enumerate(self.columns):
            head = QTableWidgetItem(col.header(lang))
            head.setToolTip(col.question)
            self.table.setHorizontalHeaderItem(c, head)
            self.table.setColumnWidth(c, max(COLUMN_WIDTH, min(2 * COLUMN_WIDTH,
                                                               metrics.horizontalAdvance(col.header(lang)) + 24)))
        self.table.setRowCount(len(self.rows))
        self.table.setVerticalHeaderLabels([Path(d).name for d in self.rows])
        for r, d in enumerate(self.rows):
            self.table.verticalHeaderItem(r).setToolTip(d)
            for c, col in enumerate(self.columns):
                cell = self.cells.get((d, col.id))
                if cell is not None:
                    self._show_cell(r, c, cell)

    # --- running --------------------------------------------------------------------------

    @property
    def grid_name(self) -> str:
        """The stored grid's name: the template's id, or 'custom' once a question was added."""
        tid = self.template.currentData() or "custom"
        return tid if all(not c.id.startswith("q") for c in self.columns) else "custom"

    def start(self) -> None:
        """Fill the grid in the engine (stored cells at once, the others as they are computed)."""
        if self.worker is not None or not self.columns:
            return
        self.cells.clear()
        self.rows = []
        self._started, self._first_done = time.monotonic(), -1
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.template.setEnabled(False)
        self.status.setText(self.tr("Starting…"))
        engine, name, cols, settings, docs, grid = (self.engine, self.workspace, list(self.columns),
                                                    self.settings, self.doc_ids, self.grid_name)
        self.worker = GeneratorWorker(lambda cancel: engine.run(grid_op, name, cols, settings, cancel=cancel,
                                                                grid=grid, doc_ids=docs))
        self.jobs.start(self.worker, on_progress=self._on_item, on_result=self._on_done,
                        on_error=self._on_error, on_cancelled=self._on_cancelled, on_finished=self._finished)

    def cancel(self) -> None:
        """Stop after the cell being computed; every finished cell is kept (and reused next time)."""
        if self.worker is not None:
            self.worker.cancel()
            self.status.setText(self.tr("Stopping after the current cell…"))

    def _on_item(self, item) -> None:
        if isinstance(item, GridCell):
            if item.doc_id not in self.rows:
                self.rows.append(item.doc_id)
                self._layout_table()
            self.cells[(item.doc_id, item.column_id)] = item
            col = next((i for i, c in enumerate(self.columns) if c.id == item.column_id), None)
            if col is not None:
                self._show_cell(self.rows.index(item.doc_id), col, item)
        elif isinstance(item, ProgressEvent) and item.stage == "grid":
            self.progress.setMaximum(max(1, item.total))
            self.progress.setValue(item.done)
            if self._first_done < 0:
                self._first_done, self._started = item.done, time.monotonic()
            self.status.setText(self._progress_text(item.done, item.total))

    def _progress_text(self, done: int, total: int) -> str:
        computed = done - max(0, self._first_done)
        left = total - done
        if computed < 2:
            eta = self.tr("estimating…")
        else:
            seconds = (time.monotonic() - self._started) / computed * left
            eta = self.tr("about %1 min left").replace("%1", str(max(1, round(seconds / 60))))
        return self.tr("%1 of %2 cells").replace("%1", str(done)).replace("%2", str(total)) + " · " + eta

    def _show_cell(self, row: int, col: int, cell: GridCell) -> None:
        text = cell.correction or cell.text or self.status_text(cell.status)
        item = QTableWidgetItem(" ".join(text.split())[:200])
        item.setBackground(QBrush(QColor(STATUS_COLOR[cell.status])))
        where = ""
        if cell.page:
            where = self.tr("p. %1").replace("%1", cell.page_label or str(cell.page))
            if cell.page_label and cell.page_label != str(cell.page):
                where += " " + self.tr("(PDF page %1)").replace("%1", str(cell.page))
        tip = [self.status_text(cell.status)]
        if cell.status == "not_found" and cell.searched_passages:  # an honest "not found" says what was searched
            labels = cell.searched_labels.get(self._lang()) or cell.searched_labels.get("en") or []
            n = cell.searched_passages
            tip.append(self.tr("Searched: the wording of {clauses} clauses and the question, in %n passage(s) of this "
                               "document", "", n).replace("{clauses}", ", ".join(labels)) if labels else
                       self.tr("Searched: the question, in %n passage(s) of this document", "", n))
        if cell.correction:  # the quote beside a correction is the machine's, never a source of the correction
            tip.append(self.tr("Corrected by the reviewer: %1").replace("%1", cell.correction))
            tip += [self.tr("The machine's answer quoted:")] if cell.quote else []
        tip += [f"“{cell.quote}” — {where}"] if cell.quote else []
        for p in cell.shown[1:]:  # the further places the cell shows (core/grid_cells.py), shortened
            short = " ".join(p.shown_text.split())
            tip.append(f"“{short[:160]}{'…' if len(short) > 160 else ''}” — "
                       + self.tr("p. %1").replace("%1", p.page_label or str(p.page)))
        if cell.reviewed:
            tip.append(self.tr("reviewed"))
        if cell.note:
            tip.append(cell.note)
        item.setToolTip("\n".join(tip))
        self.table.setItem(row, col, item)

    def _on_done(self, cells) -> None:
        self.status.setText(self.tr("Done: %1 cells").replace("%1", str(len(cells or []))))

    def _on_error(self, exc) -> None:
        self.status.setText(self.tr("The grid stopped: %1").replace("%1", str(exc)))

    def _on_cancelled(self) -> None:
        self.status.setText(self.tr("Stopped. The cells computed are kept; Run continues from there."))

    def _finished(self) -> None:
        self.worker = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.template.setEnabled(True)

    # --- cells: open, review, export -----------------------------------------------------------

    def _cell_at(self, row: int, col: int) -> GridCell | None:
        if row >= len(self.rows) or col >= len(self.columns):
            return None
        return self.cells.get((self.rows[row], self.columns[col].id))

    def _cell_clicked(self, row: int, col: int) -> None:
        cell = self._cell_at(row, col)
        if cell is not None and cell.citation is not None:
            self.open_citation(cell.citation)

    def _context_menu(self, pos) -> None:
        index = self.table.indexAt(pos)
        cell = self._cell_at(index.row(), index.column())
        if cell is None:
            return
        menu = QMenu(self)
        reviewed = menu.addAction(self.tr("Mark as reviewed") if not cell.reviewed else self.tr("Mark as not reviewed"))
        correct = menu.addAction(self.tr("Correct the answer…"))
        note = menu.addAction(self.tr("Add a note…"))
        chosen = menu.exec(self.table.viewport().mapToGlobal(pos))
        update: dict = {}
        if chosen is reviewed:
            update["reviewed"] = not cell.reviewed
        elif chosen is correct:
            text, ok = QInputDialog.getText(self, self.tr("Correct the answer"), self.tr("Answer:"), text=cell.correction)
            if ok:
                update["correction"] = text
        elif chosen is note:
            text, ok = QInputDialog.getText(self, self.tr("Note"), self.tr("Note:"), text=cell.note)
            if ok:
                update["note"] = text
        if update:
            self.annotate(cell, **update)

    def annotate(self, cell: GridCell, **update) -> None:
        """Store a reviewer's mark on ``cell`` (off the GUI thread) and show it; documents never change."""
        store_dir, grid = self.workspace_dir, self.grid_name

        def save() -> GridCell:
            return GridStore(store_dir).annotate(grid, cell.doc_id, cell.column_id, **update)

        def shown(new: GridCell) -> None:
            self.cells[(new.doc_id, new.column_id)] = new
            self._layout_table()

        self.jobs.call(save, on_result=shown, on_error=self._on_error)

    def _export_dialog(self) -> None:
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the grid"),
                                              str(Path(folder) / f"{self.workspace}-grid.xlsx"),
                                              self.tr("Excel (*.xlsx);;CSV (*.csv);;PDF (*.pdf);;JSON (*.json)"))
        if path:
            self.export(Path(path))

    def export(self, path: Path) -> None:
        """Write the grid to ``path`` (format by suffix) off the GUI thread; the status line says where."""
        cols, rows, cells, ws = list(self.columns), list(self.rows), dict(self.cells), self.workspace
        self.jobs.call(lambda: export_grid(path, cols, rows, cells, workspace=ws),
                       on_result=lambda p: self.status.setText(self.tr("Grid written to %1").replace("%1", str(p))),
                       on_error=self._on_error)
