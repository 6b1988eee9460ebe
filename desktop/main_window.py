"""The main window: composes the workspaces panel, the conversation and the citation panel.

Layout::

    ┌ workspaces ────────┬ conversation ──────────────────┬ citation (dock) ┐
    │ list, New/Rename/  │ title   [Copy][Export MD][PDF] │ [n] file — page │
    │ Delete; summary    │ Q, claims with chips [1] [2],  │ path, OCR mark  │
    │ folders +/−        │ sources, removed (collapsed),  │ quote           │
    │ Documents|History  │ NO_EVIDENCE + consulted docs   │ ◀◀ ▶▶ ◀ 3/9 ▶ ± │
    │ progress, ETA,     │ state: retrieving… ▬▬▬         │ find (Ctrl+F)   │
    │ Cancel             │ [question         ] [Ask][Stop]│ page, highlight │
    └────────────────────┴────────────────────────────────┴─────────────────┘
    status bar: model that answered · Ollama reachable? · chunk count · engine state

Every call into core that reads files, opens an index or runs a model goes
through :mod:`desktop.workers` (two lanes, as in Anki: the single-thread index
lane for writes — indexing, folder removal — and the global pool for reads);
the GUI thread only formats results. The heavy work itself — indexing,
rebuilds, folder removal, answering — runs in the engine process
(:mod:`core.engine`); this process only reads manifests and histories
(SQLite) and renders pages, so torch, LanceDB and llama.cpp never load here.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QShortcut,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QWidget,
)

import core  # noqa: F401  (offline switches before any ML import)
from core.engine import STARTING_STAGE, Engine, LocalEngine, index_op, rebuild_op, remove_folder_op
from core.errors import EngineError, IndexError_, IndexMismatchError, WorkspaceNotFoundError
from core.generate import Backend, ollama_reachable
from core.history import History, manifest_sha256
from core.settings import Settings
from core.store import Workspace, list_workspaces
from core.types import Answer, Citation, IndexReport, ProgressEvent
from core.watch import FolderWatcher
from core.workspace_ops import (
    create_workspace,
    delete_workspace,
    last_indexed_at,
    rename_workspace,
    workspace_dir,
)
from desktop.answer_flow import AnswerFlow
from desktop.citation_panel import CitationPanel
from desktop.conversation import ConversationView
from desktop.render import Entry, conversation_markdown, entry_markdown
from desktop.texts import stage_text
from desktop.welcome import WelcomeView
from desktop.workers import CallWorker, GeneratorWorker, Jobs
from desktop.workspaces_panel import WorkspacesPanel

log = logging.getLogger(__name__)
# "<file>: 64/179 chunks", the message of core's "embed" progress events.
_CHUNKS_DONE = re.compile(r"(\d+)/(\d+) chunks")


class _Gone(IndexError_):
    """The workspace was deleted or renamed while a background read was queued; ignored quietly."""

    def __init__(self, name: str) -> None:
        super().__init__(f"No workspace named {name!r}.")


@dataclass
class _IndexRun:
    """State of one indexing run, shown when its workspace is selected."""

    workspace: str
    worker: GeneratorWorker
    folders: list[str]
    started: float
    done: int = 0
    total: int = 0
    frac: float = 0.0
    message: str = ""
    first_tick: float = 0.0
    first_done: float = 0.0
    watch: bool = False  # started by the folder watcher
    started: bool = False  # its first progress report arrived (it left the queue)

    @property
    def position(self) -> float:
        """Files done, with the embedded share of the current file: 2.5 = two done, half of the third."""
        return self.done + self.frac


def export_pdf(path: str, markdown: str) -> str:
    """Write ``markdown`` as a PDF at ``path`` (A4) with QTextDocument + QPdfWriter; pool-thread safe.

    QTextDocument and QPdfWriter are not widgets, so Qt allows them outside the GUI thread.
    """
    from PySide6.QtGui import QPageSize, QPdfWriter, QTextDocument

    doc = QTextDocument()
    doc.setMarkdown(markdown)
    writer = QPdfWriter(path)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setResolution(96)
    writer.setTitle("Verbatim")
    doc.print_(writer)
    return path


def watch_batches(watcher: FolderWatcher, cancel: Callable[[], bool], poll_s: float = 0.5):
    """Yield the watcher's debounced batches of changed paths until ``cancel()`` (checked every ``poll_s`` s).

    Runs in a pool thread (a :class:`GeneratorWorker`); starts and stops ``watcher``.
    The first item is an empty set, yielded once the folders are being watched.
    """
    with watcher:
        yield set()
        while not cancel():
            batch = watcher.changes(timeout=poll_s)
            if batch:
                yield batch


class _DaemonThreads:
    """A "pool" for :meth:`Jobs.start` that runs each runnable in its own daemon thread.

    For the long-lived folder watchers only: a ``QThreadPool`` child of the window
    waits in its destructor for its runnables, so a watcher still running when the
    window is deleted without a close event (never shown, or deleted directly)
    blocked the GUI thread forever (seen in tests). A daemon thread never blocks
    destruction or exit; the watcher stops at its next poll once cancelled, or at
    its next report once the window is gone (:meth:`Jobs.start` cancels a worker
    whose report finds no receiver).
    """

    def start(self, runnable) -> None:
        threading.Thread(target=runnable.run, name="verbatim-folder-watch", daemon=True).start()


def _write_text(path: str, text: str) -> str:
    Path(path).write_text(text, encoding="utf-8")
    return path


class MainWindow(QMainWindow):
    """Verbatim's window over the user's workspaces.

    Args:
        settings: pipeline settings (``settings.backend`` picks the generator).
        workspace: workspace to select (created if missing); ``None`` selects the
            first existing one, or shows the welcome view when there is none.
        backend: a ready generation backend (tests inject a scripted one);
            ``None`` lets core choose per ``settings.backend`` at ask time.
            An injected backend lives in this process, so questions then run
            here (a :class:`core.engine.LocalEngine`) whatever ``engine`` is.
        engine: where indexing, rebuilds, folder removal and answering run: a
            :class:`core.engine.Engine` (a separate process; what
            ``verbatim-desktop`` uses, so the heavy libraries never hold this
            process's GIL) or ``None`` for a :class:`core.engine.LocalEngine`
            (in this process, in pool threads; tests and ``--in-process``).
            The window closes it when it closes.

    Signals:
        workspaces_changed(list): the workspace list was (re)loaded.
        workspace_loaded(str): a workspace's documents and history were shown.
        indexing_finished(IndexReport): an indexing run ended (also when cancelled).
        answer_ready(Answer): an answer (or abstention) is shown.
        page_rendered(): the side panel finished rendering a cited page.
        history_loaded(str): a workspace's history was loaded into the conversation.
        exported(str): a conversation export was written (its path).
        error_occurred(str): a user-facing error was shown.
        settings_saved(object): new settings were saved.
        folders_changed(str, set): files changed in a watched folder of a workspace
            (name, absolute paths); an incremental re-index was queued unless one was waiting.
    """

    workspaces_changed = Signal(list)
    workspace_loaded = Signal(str)
    indexing_finished = Signal(object)
    answer_ready = Signal(object)
    page_rendered = Signal()
    history_loaded = Signal(str)
    exported = Signal(str)
    error_occurred = Signal(str)
    settings_saved = Signal(object)
    folders_changed = Signal(str, object)

    # Seconds of quiet before a burst of file events becomes one re-index (core.watch debounce).
    WATCH_QUIET_S = 2.0

    def __init__(
        self,
        settings: Settings | None = None,
        workspace: str | None = None,
        backend: Backend | None = None,
        parent: QWidget | None = None,
        engine: Engine | LocalEngine | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings or Settings()
        self.backend = backend
        self.engine = engine if engine is not None else LocalEngine()
        self.workspace_name: str | None = None
        self.ollama_ok: bool | None = None
        self._workspaces: dict[str, Workspace] = {}
        self._workspace_lock = threading.Lock()
        self._opening: dict[str, threading.Lock] = {}  # per-workspace open/create lock
        self._conversations: dict[str, list[Entry]] = {}
        self._runs: list[_IndexRun] = []
        # Lanes (Anki's two executors, plus one for the network): index writes one
        # at a time; reads (manifest, history, exports) in parallel; Ollama checks
        # apart, so a slow or firewalled host never delays the window's reads.
        self._read_pool = QThreadPool(self)
        self._read_pool.setMaxThreadCount(4)
        self._net_pool = QThreadPool(self)
        self._net_pool.setMaxThreadCount(1)
        self._jobs = Jobs(self, pool=self._read_pool)
        self._index_pool = QThreadPool(self)
        self._index_pool.setMaxThreadCount(1)
        self.rebuild_box: QMessageBox | None = None
        # Folder watching: one long-lived watcher worker per workspace seen this session.
        self._watch_pool = _DaemonThreads()
        self._watches: dict[str, tuple[list[str], GeneratorWorker]] = {}
        self._known_folders: dict[str, list[str]] = {}
        self._live_watches: set[str] = set()  # workspaces whose watcher reported it is running
        self._current: set[str] = set()  # workspaces indexed (or caught up) this session
        self._rebuilding: set[str] = set()  # workspaces with a rebuild queued or running

        self.setWindowTitle("Verbatim")
        self.setAcceptDrops(True)
        screen = QGuiApplication.primaryScreen()
        avail = screen.availableGeometry() if screen is not None else None
        if avail is not None and avail.width() > 0:
            self.resize(min(1440, int(avail.width() * 0.95)), min(900, int(avail.height() * 0.95)))
        else:
            self.resize(1440, 900)

        self.workspaces_panel = WorkspacesPanel()
        self.conversation = ConversationView()
        self.answers = AnswerFlow(self)
        self.welcome = WelcomeView()
        self.centre = QStackedWidget()
        self.centre.addWidget(self.conversation)
        self.centre.addWidget(self.welcome)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.workspaces_panel)
        splitter.addWidget(self.centre)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([360, 640])
        self.setCentralWidget(splitter)
        self.side_panel = CitationPanel(self)
        self.side_panel.setMinimumWidth(440)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.side_panel)
        self._build_status_bar()
        self._build_menus()
        self._connect()
        self._alias_widgets()

        self._requested_workspace = workspace
        self.reload_workspaces(select=workspace)
        self._check_ollama()
        self._watch_engine()

    # --- construction ---------------------------------------------------------

    def _alias_widgets(self) -> None:
        """Short names for the widgets tests and shortcuts reach most."""
        p, c = self.workspaces_panel, self.conversation
        self.documents_view = p.documents_view
        self.history_view = p.history_view
        self.progress_bar = p.progress_bar
        self.current_file_label = p.current_file_label
        self.eta_label = p.eta_label
        self.cancel_button = p.cancel_button
        self.answer_view = c.answer_view
        self.question_edit = c.question_edit
        self.stage_label = c.stage_label
        self.stop_button = c.stop_button

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.backend_label = QLabel(self.tr("Model: —"))
        self.ollama_label = QLabel(self.tr("Ollama: checking…"))
        self.chunks_label = QLabel(self.tr("Chunks: —"))
        self.engine_label = QLabel()
        self.engine_label.setAccessibleName(self.tr("Engine state"))
        for w in (self.backend_label, self.ollama_label, self.chunks_label, self.engine_label):
            bar.addPermanentWidget(w)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self._action(file_menu, self.tr("New workspace…"), self.new_workspace, QKeySequence.StandardKey.New)
        self._action(file_menu, self.tr("Add folder…"), self._choose_folder, "Ctrl+O")
        file_menu.addSeparator()
        self._action(file_menu, self.tr("Export conversation as Markdown…"), self._export_markdown_dialog)
        self._action(file_menu, self.tr("Export conversation as PDF…"), self._export_pdf_dialog)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("Settings…"), self.open_settings, QKeySequence.StandardKey.Preferences)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("Quit"), self.close, QKeySequence.StandardKey.Quit)
        edit_menu = self.menuBar().addMenu(self.tr("&Edit"))
        self._action(edit_menu, self.tr("Copy answer with citations"), self.copy_answer, "Ctrl+Shift+C")
        self._action(edit_menu, self.tr("Find in document"), self.side_panel.focus_search, QKeySequence.StandardKey.Find)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("Getting started"), self.show_welcome)
        QShortcut(QKeySequence("Ctrl+L"), self, activated=self._focus_question)
        QShortcut(QKeySequence("Alt+Left"), self, activated=lambda: self.answers.step_citation(-1))
        QShortcut(QKeySequence("Alt+Right"), self, activated=lambda: self.answers.step_citation(1))

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _connect(self) -> None:
        p, c = self.workspaces_panel, self.conversation
        p.workspace_selected.connect(self.select_workspace)
        p.new_requested.connect(self.new_workspace)
        p.rename_requested.connect(self._rename_dialog)
        p.delete_requested.connect(self._delete_dialog)
        p.add_folder_requested.connect(self._choose_folder)
        p.remove_folder_requested.connect(self.remove_folder)
        p.cancel_requested.connect(self.cancel_indexing)
        p.history_open.connect(self.open_history_entry)
        p.history_delete.connect(self.delete_history_entry)
        p.history_clear.connect(self._clear_history_dialog)
        p.status_requested.connect(self._status_dialog)
        c.ask_requested.connect(self.answers.ask)
        c.stop_requested.connect(self.answers.stop)
        c.citation_clicked.connect(self.answers.open_entry_citation)
        c.document_clicked.connect(self.answers.open_consulted_document)
        c.copy_requested.connect(self.copy_answer)
        c.export_markdown_requested.connect(self._export_markdown_dialog)
        c.export_pdf_requested.connect(self._export_pdf_dialog)
        self.side_panel.page_rendered.connect(self.page_rendered)
        self.side_panel.previous_citation.connect(lambda: self.answers.step_citation(-1))
        self.side_panel.next_citation.connect(lambda: self.answers.step_citation(1))
        self.answers.answer_ready.connect(self.answer_ready)
        self.welcome.sample_requested.connect(self.open_sample)
        self.welcome.new_requested.connect(self.new_workspace)

    # --- workspaces (core calls in worker threads only) -----------------------

    def _get_workspace(self, name: str, create: bool = False) -> Workspace:
        """The open workspace ``name``, opened on first use. Worker threads only (SQLite I/O).

        Raises:
            IndexError_: it does not exist on disk and ``create`` is False (a late
                read must never resurrect a workspace the user just deleted).
        """
        with self._workspace_lock:
            ws = self._workspaces.get(name)
            opening = self._opening.setdefault(name, threading.Lock())
        if ws is not None:
            return ws
        # One opening per workspace at a time: two threads creating the same new workspace
        # raced (one read a half-written manifest; the sample's first run lost its selection).
        # Other workspaces' reads are not held up: the lock is per name.
        with opening:
            with self._workspace_lock:
                ws = self._workspaces.get(name)
            if ws is not None:
                return ws
            if not create and not (workspace_dir(name) / "manifest.sqlite").exists():
                raise _Gone(name)
            try:
                # Manifest reads only: recovery belongs to the engine, which writes and searches.
                opened = Workspace(name, self.settings, create=create, recover=False)
            except WorkspaceNotFoundError:
                raise _Gone(name) from None
            with self._workspace_lock:
                return self._workspaces.setdefault(name, opened)

    def _forget_workspace(self, name: str) -> None:
        with self._workspace_lock:
            self._workspaces.pop(name, None)
        self._conversations.pop(name, None)

    def reload_workspaces(self, select: str | None = None) -> None:
        """List workspaces in the background (creating ``select`` if missing) and select one."""

        def work():
            if select and select not in list_workspaces():
                self._get_workspace(select, create=True)
            return list_workspaces()

        self._jobs.call(work, lambda names: self._on_workspaces(names, select), self._on_error)

    @Slot(object)
    def _on_workspaces(self, names: list[str], select: str | None) -> None:
        current = select if select in names else (self.workspace_name if self.workspace_name in names else None)
        if current is None and names:
            current = names[0]
        self.workspaces_panel.set_workspaces(names, current)
        self.workspaces_changed.emit(names)
        self._watch_all(names)
        if current is None:
            self.workspace_name = None
            self.setWindowTitle("Verbatim")
            self.show_welcome()
            return
        self.centre.setCurrentWidget(self.conversation)
        if current != self.workspace_name or select:
            self.select_workspace(current)

    @Slot(str)
    def select_workspace(self, name: str) -> None:
        """Show workspace ``name``: its documents, history, conversation and indexing progress."""
        self.workspace_name = name
        self.setWindowTitle(f"Verbatim — {name}")
        self.conversation.title_label.setText(name)
        self.centre.setCurrentWidget(self.conversation)
        self.answers.current_entry = None
        entries = self._conversations.get(name)
        self.conversation.set_entries(entries or [])
        self._show_progress()
        self.refresh_workspace()
        if entries is None:
            self._load_history(name)

    def refresh_workspace(self) -> None:
        """Reload the selected workspace's folders, documents and counts in the background."""
        name = self.workspace_name
        if name is None:
            return

        def snapshot():
            ws = self._get_workspace(name)
            return {"name": name, "folders": ws.folders(), "documents": ws.documents(), "failures": ws.failures(),
                    "chunks": ws.chunk_count(), "last_indexed": last_indexed_at(name)}

        self._jobs.call(lambda: self._read(name, snapshot), self._on_snapshot, self._on_error)

    def _read(self, name: str, fn):
        """Run a read of workspace ``name``; a failure because it was deleted meanwhile becomes :class:`_Gone`."""
        try:
            return fn()
        except Exception:
            if not (workspace_dir(name) / "manifest.sqlite").exists():
                raise _Gone(name) from None
            raise

    @Slot(object)
    def _on_snapshot(self, snap: dict) -> None:
        if snap["name"] != self.workspace_name:
            return
        self.workspaces_panel.set_snapshot(snap)
        self._known_folders[snap["name"]] = list(snap["folders"])
        self._update_watch(snap["name"])
        self.chunks_label.setText(f"{self.tr('Chunks')}: {snap['chunks']}")
        self.workspace_loaded.emit(snap["name"])

    def new_workspace(self) -> None:
        """Ask for a name and create the workspace."""
        name, ok = QInputDialog.getText(self, self.tr("New workspace"), self.tr("Name (for example the client or matter):"))
        if ok and name.strip():
            self.create_workspace(name)

    def create_workspace(self, name: str) -> None:
        """Create workspace ``name`` in the background and select it."""
        self._jobs.call(lambda: (create_workspace(name), name.strip())[1],
                        lambda n: self.reload_workspaces(select=n), self._on_error)

    def _busy_on(self, name: str) -> bool:
        return any(r.workspace == name and not r.worker.done for r in self._runs) or self.answers.busy_workspace == name

    def _rename_dialog(self, old: str) -> None:
        new, ok = QInputDialog.getText(self, self.tr("Rename workspace"), self.tr("New name:"), text=old)
        if ok and new.strip() and new.strip() != old:
            self.rename_workspace(old, new)

    def rename_workspace(self, old: str, new: str) -> None:
        """Rename workspace ``old`` to ``new`` (refused while it is indexing or answering)."""
        if self._busy_on(old):
            self._on_error(IndexError_(self.tr("Wait for indexing or answering to finish before renaming.")))
            return
        self._forget_workspace(old)
        self._stop_watch(old)
        self._known_folders.pop(old, None)
        was_current = old in self._current

        def renamed(n: str) -> None:
            if was_current:
                self._current.add(n)  # same index under a new name: no catch-up run needed
            self.reload_workspaces(select=n)

        self._jobs.call(lambda: rename_workspace(old, new).name, renamed, self._on_error, pool=self._index_pool)

    def _delete_dialog(self, name: str) -> None:
        answer = QMessageBox.warning(
            self, self.tr("Delete workspace"),
            self.tr("Delete workspace “{name}”? Its index and question history are removed; "
                    "your documents stay where they are.").format(name=name),
            QMessageBox.StandardButton.Delete | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Delete:
            self.delete_workspace(name)

    def delete_workspace(self, name: str) -> None:
        """Delete workspace ``name`` and its stores (no confirmation; the dialog asks)."""
        for run in self._runs:
            if run.workspace == name:
                run.worker.cancel()
        self._forget_workspace(name)
        self._stop_watch(name)
        self._known_folders.pop(name, None)
        if self.workspace_name == name:
            self.workspace_name = None
        self._jobs.call(lambda: delete_workspace(name), lambda _: self.reload_workspaces(), self._on_error,
                        pool=self._index_pool)

    def remove_folder(self, folder: str) -> None:
        """Remove ``folder`` and its documents from the selected workspace (index lane)."""
        name = self.workspace_name
        if name is None:
            return
        settings, engine = self.settings, self.engine
        self._jobs.call(lambda: engine.call(remove_folder_op, name, folder, settings),
                        lambda _: self.refresh_workspace(), self._on_error, pool=self._index_pool)

    def _status_dialog(self, doc_id: str, status: str) -> None:
        reason = ""
        if status != "active":
            reason, ok = QInputDialog.getText(self, self.tr("Reason"), self.tr("Why (shown beside the document):"))
            if not ok:
                return
        self.set_document_status(doc_id, status, reason)

    def set_document_status(self, doc_id: str, status: str, reason: str = "") -> None:
        """Set a document's status through ``Workspace.set_status`` (index lane)."""
        name = self.workspace_name
        if name is None:
            return
        self._jobs.call(lambda: self._get_workspace(name).set_status(doc_id, status, reason),
                        lambda _: self.refresh_workspace(), self._on_error, pool=self._index_pool)

    # --- welcome --------------------------------------------------------------

    def show_welcome(self) -> None:
        """Show the first-run view (three steps, sample corpus, which model answers)."""
        self.welcome.set_ollama(self.ollama_ok, self.settings)
        self.centre.setCurrentWidget(self.welcome)

    def open_sample(self) -> None:
        """Create (or select) workspace ``sample`` and index the bundled sample corpus into it."""
        from core.paths import sample_corpus_dir

        self.reload_workspaces(select="sample")
        self.start_indexing(str(sample_corpus_dir()), workspace="sample")

    # --- Ollama ---------------------------------------------------------------

    def _check_ollama(self) -> None:
        settings = self.settings
        self._jobs.call(lambda: ollama_reachable(settings), self._on_ollama_checked, pool=self._net_pool)

    @Slot(object)
    def _on_ollama_checked(self, ok: bool) -> None:
        self.ollama_ok = bool(ok)
        self.ollama_label.setText(f"Ollama: {self.tr('reachable') if ok else self.tr('not reachable')}")
        self.ollama_label.setToolTip(self.settings.ollama_host)
        self.welcome.set_ollama(self.ollama_ok, self.settings)
        if self.answer is None:  # until an answer says which model really answered, say which one will
            s = self.settings
            if s.backend == "ollama" or (s.backend == "auto" and ok):
                expected = f"ollama ({s.ollama_model})"
            else:
                expected = f"embedded ({self.tr('demo model')})"
            self.backend_label.setText(f"{self.tr('Model')}: {expected}")

    # --- indexing -------------------------------------------------------------

    def start_indexing(self, folder: str | Path | list[str | Path], workspace: str | None = None) -> None:
        """Index ``folder`` (or several) into ``workspace`` (default: the selected one) in the background.

        Runs on the single-thread index lane, so runs queue up in order.
        Emits :attr:`indexing_finished` with the :class:`IndexReport`.
        """
        name = workspace or self.workspace_name or self._requested_workspace or "default"
        folders = [str(folder)] if isinstance(folder, (str, Path)) else [str(f) for f in folder]
        self._start_index_run(name, folders, self._index_factory(name, folders),
                              self.tr("Waiting to index ") + ", ".join(Path(f).name for f in folders))

    def _index_factory(self, name: str, folders: list[str]):
        not_folder = self.tr("Not a folder: ")
        settings, engine = self.settings, self.engine

        def factory(cancel):
            dirs = [f for f in folders if Path(f).is_dir()]
            if not dirs:
                raise IndexError_(not_folder + ", ".join(folders))
            return engine.run(index_op, name, dirs, settings, cancel=cancel)

        return factory

    def _start_index_run(self, name: str, folders: list[str], factory, message: str,
                         on_finished: Callable[[], None] | None = None, watch: bool = False) -> None:
        """Queue ``factory`` (an indexing generator factory) on the index lane with progress wiring."""
        worker = GeneratorWorker(factory)
        run = _IndexRun(workspace=name, worker=worker, folders=folders, started=time.monotonic(), message=message,
                        watch=watch)

        def finished() -> None:
            if on_finished is not None:
                on_finished()
            self._on_index_finished()

        self._runs.append(run)
        self._show_progress()
        self._jobs.start(worker, self._index_pool,
                         on_progress=lambda e: self._on_index_progress(run, e),
                         on_result=lambda rep: self._on_index_returned(run, rep),
                         on_error=self._on_error,
                         on_finished=finished)

    def cancel_indexing(self) -> None:
        """Stop the selected workspace's running and queued indexing runs (after the current file)."""
        for run in self._runs:
            if run.workspace == self.workspace_name or self.workspace_name is None:
                run.worker.cancel()
                run.message = self.tr("Cancelling…")
        self._show_progress()

    def _on_index_progress(self, run: _IndexRun, event: ProgressEvent) -> None:
        now = time.monotonic()
        run.started = True
        if event.total > 0:
            if event.done != run.done or event.stage != "embed":
                run.frac = 0.0
            run.done, run.total = event.done, event.total
            m = _CHUNKS_DONE.search(event.message or "") if event.stage == "embed" else None
            if m and int(m.group(2)) > 0:
                run.frac = min(1.0, int(m.group(1)) / int(m.group(2)))
            if not run.first_tick:
                run.first_tick, run.first_done = now, run.position
        if event.message and not run.worker.is_cancelled:
            run.message = stage_text(event.stage) if event.stage == STARTING_STAGE else event.message
        if run.workspace == self.workspace_name:
            self._show_progress()

    def _eta(self, run: _IndexRun) -> float | None:
        """Seconds left, from the rate of progress (files, fractional) since the first determinate tick."""
        done = run.position - run.first_done
        elapsed = time.monotonic() - run.first_tick
        if not run.first_tick or done <= 0.05 or run.total <= run.position or elapsed < 2.0:
            return None
        return elapsed / done * (run.total - run.position)

    def _show_progress(self) -> None:
        runs = [r for r in self._runs if r.workspace == self.workspace_name and not r.worker.done]
        panel = self.workspaces_panel
        if not runs:
            others = sorted({r.workspace for r in self._runs if not r.worker.done})
            title = self.tr("Indexing in the background: {names}").format(names=", ".join(others)) if others else ""
            if panel.cancel_button.isEnabled() or title:
                panel.set_progress(title, 0, 0, panel.current_file_label.text() if not title else "", None, False)
            return
        run = runs[0]
        title = self.tr("Indexing {names}").format(names=", ".join(Path(f).name for f in run.folders))
        if len(runs) > 1:
            title += " " + self.tr("(+{n} queued)").format(n=len(runs) - 1)
        panel.set_progress(title, run.position, run.total, run.message, self._eta(run), True)

    def _on_index_returned(self, run: _IndexRun, report: IndexReport) -> None:
        if not report.cancelled:
            self._current.add(run.workspace)  # indexed this session: its watcher needs no catch-up run
        state = self.tr("Cancelled") if report.cancelled else self.tr("Indexed")
        summary = self.tr("{state}: {new} new or changed, {same} unchanged, {removed} removed, {failed} failed ({s} s)").format(
            state=state, new=report.documents, same=report.unchanged, removed=report.removed,
            failed=len(report.failures), s=f"{report.seconds:.1f}")
        run.message = summary
        if run.workspace == self.workspace_name:
            total = max(run.total, 1)
            self.workspaces_panel.set_progress("", total if not report.cancelled else run.position, total, summary, None,
                                               False)
            self.chunks_label.setText(f"{self.tr('Chunks')}: {report.total_chunks}")
            self.refresh_workspace()
            if report.documents or report.removed:
                # Stale marks may have changed. Not after a run that changed nothing (a watcher's
                # catch-up at start-up): reloading would reset the conversation being read.
                self._load_history(run.workspace)
        self.indexing_finished.emit(report)

    @Slot()
    def _on_index_finished(self) -> None:
        self._runs = [r for r in self._runs if not r.worker.done]
        self._show_progress()

    def _choose_folder(self) -> None:
        if self.workspace_name is None:
            self.new_workspace()
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add folder to index"))
        if folder:
            self.start_indexing(folder)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept local files/folders; folders are checked in the worker."""
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Index the dropped folders into the selected workspace."""
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.start_indexing(paths)

    # --- asking (desktop.answer_flow.AnswerFlow) ---------------------------------

    def _focus_question(self) -> None:
        self.question_edit.setFocus()
        self.question_edit.selectAll()

    @property
    def answer(self) -> Answer | None:
        """The answer of the current conversation entry (``None`` before the first)."""
        return self.answers.answer

    @property
    def current_entry(self) -> int | None:
        """Index of the current conversation entry, or ``None``."""
        return self.answers.current_entry

    @property
    def citations(self) -> list[Citation]:
        """Citations of the current answer, in chip order."""
        return self.answers.citations

    def ask(self, question: str) -> None:
        """Answer ``question`` in the selected workspace in the background (:meth:`AnswerFlow.ask`)."""
        self.answers.ask(question)

    def stop_asking(self) -> None:
        """Cancel the running question (:meth:`AnswerFlow.stop`)."""
        self.answers.stop()

    def show_answer(self, answer: Answer) -> None:
        """Append ``answer`` to the conversation without storing it (:meth:`AnswerFlow.show_answer`)."""
        self.answers.show_answer(answer)

    def open_citation(self, n: int) -> None:
        """Show citation ``n`` (1-based chip number) of the current answer in the side panel."""
        self.answers.open_citation(n)

    def open_consulted_document(self, entry_index: int, doc_index: int) -> None:
        """Show the first consulted page of document ``doc_index`` of an abstention."""
        self.answers.open_consulted_document(entry_index, doc_index)

    # --- conversation ---------------------------------------------------------

    def copy_answer(self) -> str:
        """Copy the current (else the last) answer with its citations as Markdown; returns the text."""
        entries = self.conversation.entries
        if not entries:
            return ""
        entry = entries[self.current_entry if self.current_entry is not None else -1]
        text = entry_markdown(entry)
        QGuiApplication.clipboard().setText(text)
        self.statusBar().showMessage(self.tr("Answer copied with its citations."), 4000)
        return text

    def conversation_markdown(self) -> str:
        """The selected workspace's conversation as Markdown."""
        return conversation_markdown(self.workspace_name or "", self.conversation.entries)

    def export_conversation(self, path: str) -> None:
        """Write the conversation to ``path`` in a pool thread: PDF if it ends in ``.pdf``, else Markdown."""
        markdown = self.conversation_markdown()
        fn = (lambda: export_pdf(path, markdown)) if path.lower().endswith(".pdf") else (lambda: _write_text(path, markdown))
        self._jobs.call(fn, self._on_exported, self._on_error)

    @Slot(object)
    def _on_exported(self, path: str) -> None:
        self.statusBar().showMessage(self.tr("Exported to {path}").format(path=path), 6000)
        self.exported.emit(path)

    def _export_markdown_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export conversation"),
                                              f"{self.workspace_name or 'verbatim'}.md", "Markdown (*.md)")
        if path:
            self.export_conversation(path)

    def _export_pdf_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export conversation"),
                                              f"{self.workspace_name or 'verbatim'}.pdf", "PDF (*.pdf)")
        if path:
            self.export_conversation(path if path.lower().endswith(".pdf") else path + ".pdf")

    # --- history --------------------------------------------------------------

    def _load_history(self, name: str) -> None:
        def work():
            ws_dir = self._get_workspace(name).dir
            entries = History(ws_dir).entries()
            current = manifest_sha256(ws_dir)
            return name, entries, {e.id: e.stale_doc_ids(current) for e in entries}

        self._jobs.call(lambda: self._read(name, work), self._on_history, self._on_error)

    @Slot(object)
    def _on_history(self, result) -> None:
        name, entries, stale = result
        session = [e for e in self._conversations.get(name, []) if e.history_id is None]
        expanded = {e.history_id for e in self._conversations.get(name, []) if e.expanded}
        conv = [Entry(answer=h.answer, history_id=h.id, asked_at=h.asked_at, stale=stale.get(h.id, set()),
                      expanded=h.id in expanded) for h in entries]
        self._conversations[name] = conv + session
        if name == self.workspace_name:
            self.workspaces_panel.set_history(entries, stale)
            keep = self.current_entry
            self.conversation.set_entries(self._conversations[name])
            if keep is not None and keep < len(self._conversations[name]):
                self.answers.set_current_entry(keep)
            elif self._conversations[name]:
                self.answers.set_current_entry(len(self._conversations[name]) - 1)
        self.history_loaded.emit(name)

    def open_history_entry(self, history_id: int) -> None:
        """Scroll the conversation to a stored question and make it current."""
        for i, e in enumerate(self.conversation.entries):
            if e.history_id == history_id:
                self.answers.set_current_entry(i)
                self.conversation.answer_view.scrollToAnchor(f"entry-{i}")
                return

    def delete_history_entry(self, history_id: int) -> None:
        """Delete one stored question and its answer."""
        name = self.workspace_name
        if name is None:
            return
        self._jobs.call(lambda: History(self._get_workspace(name).dir).delete(history_id),
                        lambda _: self._load_history(name), self._on_error)

    def _clear_history_dialog(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("Delete history"),
            self.tr("Delete every question and answer of this workspace's history?"),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.clear_history()

    def clear_history(self) -> None:
        """Delete the selected workspace's whole history."""
        name = self.workspace_name
        if name is None:
            return
        self._conversations.pop(name, None)
        self._jobs.call(lambda: History(self._get_workspace(name).dir).clear(),
                        lambda _: self._load_history(name), self._on_error)

    # --- settings -------------------------------------------------------------

    def open_settings(self) -> None:
        """Show the settings dialog; accepted settings are saved in the background."""
        from desktop.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() and dialog.result_settings is not None:
            self.apply_settings(dialog.result_settings)

    def apply_settings(self, settings: Settings) -> None:
        """Use ``settings`` from now on and save them (pool thread)."""
        language_changed = settings.ui_language != getattr(self.settings, "ui_language", settings.ui_language)
        self.settings = settings
        with self._workspace_lock:
            for ws in self._workspaces.values():
                ws.settings = settings
        self._jobs.call(settings.save, lambda _: self.settings_saved.emit(settings), self._on_error)
        for name in list(self._known_folders):
            self._update_watch(name)  # the watch_folders setting may have changed
        self._check_ollama()
        if language_changed:
            self.statusBar().showMessage(self.tr("The new language applies from the next start."), 8000)

    # --- errors and shutdown --------------------------------------------------

    @Slot(object)
    # --- engine -------------------------------------------------------------------

    def _watch_engine(self) -> None:
        """Start the engine (if it is a process) and show its state: loading, then ready.

        The wait runs in a daemon thread: the engine's warm-up takes ~10 s and
        must hold up neither the window nor its destruction.
        """
        engine = self.engine
        if isinstance(engine, LocalEngine):
            self.engine_label.setText(self.tr("Engine: in this process"))
            return
        self.engine_label.setText(self.tr("Engine: loading…"))
        self.engine_label.setToolTip(self.tr("Loading the search libraries and the embedding model in the "
                                             "background; the window is usable meanwhile."))

        def wait() -> dict:
            engine.start()
            engine.wait_ready()
            return dict(engine.warm_up_timings)

        self._jobs.start(CallWorker(wait), self._watch_pool, on_result=self._on_engine_ready,
                         on_error=lambda exc: self.engine_label.setText(self.tr("Engine: failed to start")))

    def _on_engine_ready(self, timings: dict) -> None:
        pid = self.engine.pid
        if pid is None:
            self.engine_label.setText(self.tr("Engine: stopped"))
            return
        self.engine_label.setText(self.tr("Engine: ready"))
        self.engine_label.setToolTip(self.tr("Engine process {pid}; loaded in {s} s").format(
            pid=pid, s=f"{timings.get('total', 0.0):.1f}"))

    def _on_error(self, exc: Exception) -> None:
        if isinstance(exc, _Gone):
            return  # a queued read of a workspace deleted or renamed meanwhile
        if isinstance(exc, EngineError):
            self._watch_engine()  # the next call restarts it; show it loading again
        if isinstance(exc, IndexMismatchError):
            with self._workspace_lock:
                opened = exc.workspace in self._workspaces
            if exc.workspace in self._rebuilding or opened:
                # A read queued before the rebuild started (or before it reopened the
                # workspace) reports the old mismatch late: the rebuild answers it.
                return
            self.offer_rebuild(exc)
        message = str(exc)
        self.statusBar().showMessage(message, 15000)
        self.workspaces_panel.current_file_label.setText(message)
        self.error_occurred.emit(message)

    # --- folder watching --------------------------------------------------------

    @property
    def watched(self) -> dict[str, list[str]]:
        """Workspaces whose folders are being watched, with those folders."""
        return {name: folders for name, (folders, worker) in self._watches.items() if not worker.is_cancelled}

    def is_watching(self, name: str) -> bool:
        """True once the watcher of workspace ``name`` runs (file events from then on are seen)."""
        return name in self._live_watches and name in self.watched

    def _watch_all(self, names: list[str]) -> None:
        """Start watching every listed workspace's folders, not only the ones opened this session.

        Each workspace's folder list is read in the read pool; a workspace that
        cannot be opened (indexed with other settings, deleted meanwhile) is left
        unwatched silently here — selecting it reports the problem.
        """
        if not self.settings.watch_folders:
            return
        for name in names:
            if name in self._known_folders:
                continue

            def known(folders: list[str], name: str = name) -> None:
                if name not in self._known_folders:  # a refresh may have filled it meanwhile
                    self._known_folders[name] = folders
                    self._update_watch(name)

            self._jobs.call(lambda name=name: self._get_workspace(name).folders(), known,
                            lambda exc, name=name: log.info("not watching %s: %s", name, exc))

    def _update_watch(self, name: str) -> None:
        """Watch the known folders of workspace ``name`` when the ``watch_folders`` setting is on.

        Restarts the watcher when the folder set changed; stops it when the
        setting is off or the workspace has no folders. The watcher runs in the
        watch pool; its batches arrive in :meth:`_on_folder_changes`.
        """
        wanted = sorted(self._known_folders.get(name, [])) if self.settings.watch_folders else []
        current = self._watches.get(name)
        if current is not None and current[0] == wanted and not current[1].is_cancelled:
            return
        self._stop_watch(name)
        if not wanted:
            return
        quiet_s = self.WATCH_QUIET_S

        def factory(cancel):
            # Folders that vanished are skipped here; indexing then reports them.
            watcher = FolderWatcher([f for f in wanted if Path(f).is_dir()], quiet_s=quiet_s)
            return watch_batches(watcher, cancel)

        worker = GeneratorWorker(factory)
        self._watches[name] = (wanted, worker)
        self._jobs.start(worker, self._watch_pool,
                         on_progress=lambda batch: self._on_folder_changes(name, worker, batch),
                         on_error=lambda exc: self._on_watch_error(name, worker, exc))

    def _stop_watch(self, name: str) -> None:
        self._live_watches.discard(name)
        entry = self._watches.pop(name, None)
        if entry is not None:
            entry[1].cancel()

    def _on_folder_changes(self, name: str, worker: GeneratorWorker, batch: set) -> None:
        entry = self._watches.get(name)
        if entry is None or entry[1] is not worker or worker.is_cancelled:
            return  # a batch from a watcher stopped meanwhile
        if not batch:
            self._live_watches.add(name)  # the watcher's "running" report
            if name not in self._current and not any(r.workspace == name and not r.worker.done for r in self._runs):
                # Files added, changed or deleted while Verbatim was closed raise no event: one
                # incremental run catches up (unchanged files are skipped by size and mtime;
                # 0.0 s of index work on the sample when nothing changed).
                self._current.add(name)
                self._start_index_run(name, entry[0], self._index_factory(name, entry[0]),
                                      self.tr("Checking for changes made while Verbatim was closed…"), watch=True)
            return
        self.folders_changed.emit(name, set(batch))
        if any(r.workspace == name and r.watch and not r.started and not r.worker.done for r in self._runs):
            return  # a queued re-index has not started yet: it will see these changes too
        folders = entry[0]
        message = self.tr("{n} files changed: updating the index…").format(n=len(batch))
        self._start_index_run(name, folders, self._index_factory(name, folders), message, watch=True)

    def _on_watch_error(self, name: str, worker: GeneratorWorker, exc: Exception) -> None:
        entry = self._watches.get(name)
        if entry is not None and entry[1] is worker:
            del self._watches[name]
        self._on_error(IndexError_(self.tr("Folder watching stopped for {name}: {error}").format(name=name, error=exc)))

    # --- rebuild after a settings change (issue #3) ------------------------------

    @property
    def _index_workers(self) -> list[GeneratorWorker]:
        """Indexing workers not finished yet (all workspaces)."""
        return [r.worker for r in self._runs if not r.worker.done]

    def offer_rebuild(self, exc: IndexMismatchError) -> None:
        """Ask (non-modal) whether to rebuild a workspace indexed with other settings.

        The box is :attr:`rebuild_box` while it is open; "Rebuild" calls :meth:`rebuild_index`.
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

    def rebuild_index(self, workspace: str | None = None) -> None:
        """Empty the workspace's index and re-index its folders under the current settings (index lane)."""
        name = workspace or self.workspace_name or self._requested_workspace
        if name is None:
            return
        settings, engine = self.settings, self.engine

        def factory(cancel):
            with self._workspace_lock:
                self._workspaces.pop(name, None)
            report = yield from engine.run(rebuild_op, name, settings, cancel=cancel)
            # Reopen it here (a manifest read) before the result is delivered: a mismatch
            # reported late by a read queued before the rebuild then finds it open and is
            # ignored (_on_error), instead of offering a second rebuild.
            self._get_workspace(name)
            return report

        self._rebuilding.add(name)
        self._start_index_run(name, [name], factory, self.tr("Rebuilding the index…"),
                              on_finished=lambda: self._rebuilding.discard(name))

    def closeEvent(self, event) -> None:
        """Cancel background work and wait for index writes to finish cleanly."""
        self._jobs.cancel_all()
        self.side_panel.stop()
        self.answers.close()
        self._index_pool.clear()
        for pool in (self._index_pool, self._read_pool):
            pool.clear()
            pool.waitForDone(60000)
        self._net_pool.clear()
        self._net_pool.waitForDone(3000)  # at most one 1.5 s reachability check
        self.engine.close()  # its calls were cancelled above; an index commit in flight completes
        super().closeEvent(event)


# Strings used inside f-strings or through a helper, listed for pyside6-lupdate
# (it reads only literal tr()/translate() calls outside f-strings).
_LUPDATE = (
    QT_TRANSLATE_NOOP("MainWindow", "Chunks"),
    QT_TRANSLATE_NOOP("MainWindow", "reachable"),
    QT_TRANSLATE_NOOP("MainWindow", "not reachable"),
    QT_TRANSLATE_NOOP("MainWindow", "Model"),
    QT_TRANSLATE_NOOP("MainWindow", "not called"),
    QT_TRANSLATE_NOOP("MainWindow", "demo model"),
)
