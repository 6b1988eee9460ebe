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

Concerns live in controllers (napari's pattern: the window composes, each
controller owns one concern's state and is given the window only as the narrow
Protocol it needs, from :mod:`desktop.hosts`, so no controller imports this module):
:class:`~desktop.answer_flow.AnswerFlow` (asking, answers, citations),
:class:`~desktop.history_controller.HistoryController` (conversations and stored history),
:class:`~desktop.workspace_controller.WorkspaceController` (the workspace list,
documents, folders, statuses), :class:`~desktop.indexing_controller.IndexingController`
(runs, progress, time left, rebuild), :class:`~desktop.watch_controller.WatchController`
(folder watching) and :class:`~desktop.status_controller.StatusController` (status bar).

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

from PySide6.QtCore import QEvent, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QWidget,
)

import core  # noqa: F401  (offline switches before any ML import)
from core.engine import Engine, LocalEngine
from core.errors import EngineError, IndexMismatchError
from core.generate import Backend
from core.settings import Settings
from core.types import Answer, Citation
from desktop.answer_flow import AnswerFlow
from desktop.citation_panel import CitationPanel
from desktop.conversation import ConversationView
from desktop.export import ask_export_path, export_job
from desktop.history_controller import HistoryController
from desktop.indexing_controller import IndexingController
from desktop.render_markdown import conversation_markdown, entry_markdown
from desktop.scope_controller import ScopeController
from desktop.status_controller import StatusController
from desktop.watch_controller import WatchController, watch_batches  # noqa: F401 - re-exported
from desktop.welcome import WelcomeView
from desktop.workers import GeneratorWorker, Jobs
from desktop.workspace_controller import Gone, WorkspaceController
from desktop.workspaces_panel import WorkspacesPanel

log = logging.getLogger(__name__)


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
        fallback_explained(str): "Automatic" answered with passages; the status bar's text says why.
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
    fallback_explained = Signal(str)

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
        from desktop.i18n import ensure_translator

        ensure_translator(QApplication.instance())
        self.settings = settings or Settings()
        self.backend = backend
        self.engine = engine if engine is not None else LocalEngine()
        self.workspace_name: str | None = None
        self.requested_workspace = self._requested_workspace = workspace
        # Lanes (Anki's two executors, plus one for the network): index writes one
        # at a time; reads (manifest, history, exports) in parallel; Ollama checks
        # apart, so a slow or firewalled host never delays the window's reads.
        self._read_pool = QThreadPool(self)
        self._read_pool.setMaxThreadCount(4)
        self.net_pool = QThreadPool(self)
        self.net_pool.setMaxThreadCount(1)
        self._jobs = self.jobs = Jobs(self, pool=self._read_pool)
        self.index_pool = QThreadPool(self)
        self.index_pool.setMaxThreadCount(1)

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
        self.history = HistoryController(self)
        self.welcome = WelcomeView()
        self.centre = QStackedWidget()
        self.centre.addWidget(self.conversation)
        self.centre.addWidget(self.welcome)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.workspaces_panel)
        splitter.addWidget(self.centre)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([400, 600])  # room for document names; they elide keeping what differs
        self.setCentralWidget(splitter)
        self.side_panel = CitationPanel(self)
        self.side_panel.setMinimumWidth(440)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.side_panel)

        self.watching = WatchController(self)
        self.workspaces = WorkspaceController(self)
        self.indexing = IndexingController(self)
        self.status = StatusController(self)
        self._actions: dict[str, QAction] = {}
        self._build_menus()
        self._connect()
        self._alias()
        # The Documents list's selection: the next question's scope.
        self.scope = ScopeController(self.documents_view, self.conversation, self.workspace_loaded, self)
        self.retranslate()

        self.workspaces.reload(select=workspace)
        self.status.check_ollama()
        self.status.watch_engine()

    # --- construction ---------------------------------------------------------

    def _alias(self) -> None:
        """Short names for the widgets and controller calls tests, shortcuts and scripts reach."""
        p, c, s = self.workspaces_panel, self.conversation, self.status
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
        self.backend_label, self.ollama_label = s.backend_label, s.ollama_label
        self.chunks_label, self.engine_label = s.chunks_label, s.engine_label
        ws, ix = self.workspaces, self.indexing
        self.reload_workspaces, self.refresh_workspace = ws.reload, ws.refresh
        self.create_workspace, self.rename_workspace, self.delete_workspace = ws.create, ws.rename, ws.delete
        self.new_workspace, self.remove_folder = ws.new_dialog, ws.remove_folder
        self.set_document_status, self.get_workspace = ws.set_document_status, ws.get
        self._get_workspace = ws.get
        self.start_indexing, self.cancel_indexing = ix.start_indexing, ix.cancel
        self.rebuild_index, self.offer_rebuild = ix.rebuild, ix.offer_rebuild
        self.watched_folders, self.is_watching = (lambda: self.watching.watched), self.watching.is_watching
        self.on_error = self._on_error
        self.read = self.workspaces.read
        h = self.history
        self.load_history, self.context_entries, self.new_conversation = h.load, h.context_entries, h.new_conversation
        self.forget_conversation, self.clear_history = h.forget, h.clear
        self.open_history_entry, self.delete_history_entry = h.open_entry, h.delete_entry

    @property
    def watched(self) -> dict[str, list[str]]:
        """Workspaces whose folders are being watched, with those folders."""
        return self.watching.watched

    @property
    def rebuild_box(self) -> QMessageBox | None:
        """The rebuild question while it is open."""
        return self.indexing.rebuild_box

    @property
    def _index_workers(self) -> list[GeneratorWorker]:
        return self.indexing.workers

    @property
    def ollama_ok(self) -> bool | None:
        """Whether Ollama answered the last check (``None``: not checked yet)."""
        return self.status.ollama_ok

    def _build_menus(self) -> None:
        a = self._actions
        self.file_menu = self.menuBar().addMenu("")
        a["new"] = self._action(self.file_menu, self.workspaces.new_dialog, QKeySequence.StandardKey.New)
        a["add"] = self._action(self.file_menu, self.indexing.choose_folder, "Ctrl+O")
        self.file_menu.addSeparator()
        a["export_md"] = self._action(self.file_menu, lambda: self._export_dialog("md"))
        a["export_pdf"] = self._action(self.file_menu, lambda: self._export_dialog("pdf"))
        self.file_menu.addSeparator()
        a["grid"] = self._action(self.file_menu, self.open_grid, "Ctrl+G")
        self.file_menu.addSeparator()
        a["settings"] = self._action(self.file_menu, self.open_settings, QKeySequence.StandardKey.Preferences)
        self.file_menu.addSeparator()
        a["quit"] = self._action(self.file_menu, self.close, QKeySequence.StandardKey.Quit)
        self.edit_menu = self.menuBar().addMenu("")
        a["new_conversation"] = self._action(self.edit_menu, self.history.new_conversation, "Ctrl+Shift+N")
        a["copy"] = self._action(self.edit_menu, self.copy_answer, "Ctrl+Shift+C")
        a["find"] = self._action(self.edit_menu, self.side_panel.focus_search, QKeySequence.StandardKey.Find)
        self.help_menu = self.menuBar().addMenu("")
        a["welcome"] = self._action(self.help_menu, self.show_welcome)
        QShortcut(QKeySequence("Ctrl+L"), self, activated=self._focus_question)
        QShortcut(QKeySequence("Alt+Left"), self, activated=lambda: self.answers.step_citation(-1))
        QShortcut(QKeySequence("Alt+Right"), self, activated=lambda: self.answers.step_citation(1))

    def _action(self, menu, slot, shortcut=None) -> QAction:
        action = QAction(self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def open_grid(self) -> None:
        """Open the review grid of the current workspace (rows: the selected documents, else all)."""
        from core.store.workspace import workspaces_root
        from desktop.grid_view import GridDialog

        if not self.workspace_name:
            return
        dialog = GridDialog(self, engine=self.engine, jobs=self.jobs, settings=self.settings,
                            workspace=self.workspace_name, workspace_dir=workspaces_root() / self.workspace_name,
                            doc_ids=self.scope.for_question(),
                            open_citation=lambda c: self.side_panel.show_citation(c, 1, 1))
        dialog.show()
        self.grid_dialog = dialog

    def retranslate(self) -> None:
        """Set the window's own texts in the current language (also on ``LanguageChange``)."""
        self.setWindowTitle(f"Verbatim — {self.workspace_name}" if self.workspace_name else "Verbatim")
        self.file_menu.setTitle(self.tr("&File"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.help_menu.setTitle(self.tr("&Help"))
        texts = {
            "new": self.tr("New workspace…"), "add": self.tr("Add folder…"),
            "export_md": self.tr("Export conversation as Markdown…"), "export_pdf": self.tr("Export conversation as PDF…"),
            "settings": self.tr("Settings…"), "quit": self.tr("Quit"),
            "copy": self.tr("Copy answer with citations"), "find": self.tr("Find in document"),
            "new_conversation": self.tr("New conversation"),
            "welcome": self.tr("Getting started"),
            "grid": self.tr("Review grid…"),
        }
        for key, text in texts.items():
            self._actions[key].setText(text)
        self.status.retranslate()
        self.answers.retranslate()
        self.workspaces.retranslate()
        self.indexing.retranslate()
        self.welcome.set_ollama(self.status.ollama_ok, self.settings)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Re-translate when the UI language changes (the panels re-translate themselves)."""
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "_actions"):
            self.retranslate()
        super().changeEvent(event)

    def _connect(self) -> None:
        p, c, ws, ix = self.workspaces_panel, self.conversation, self.workspaces, self.indexing
        p.workspace_selected.connect(self.select_workspace)
        p.new_requested.connect(ws.new_dialog)
        p.rename_requested.connect(ws.rename_dialog)
        p.delete_requested.connect(ws.delete_dialog)
        p.add_folder_requested.connect(ix.choose_folder)
        p.remove_folder_requested.connect(ws.remove_folder)
        p.cancel_requested.connect(ix.cancel)
        h = self.history
        p.history_open.connect(h.open_entry)
        p.history_delete.connect(h.delete_entry)
        p.history_clear.connect(lambda: h.clear_dialog(self))
        p.status_requested.connect(ws.status_dialog)
        c.ask_requested.connect(self.answers.ask)
        c.stop_requested.connect(self.answers.stop)
        c.citation_clicked.connect(self.answers.open_entry_citation)
        c.document_clicked.connect(self.answers.open_consulted_document)
        c.closest_clicked.connect(self.answers.open_closest_passage)
        c.passages_requested.connect(self.answers.show_passages)
        c.copy_requested.connect(self.copy_answer)
        c.export_markdown_requested.connect(lambda: self._export_dialog("md"))
        c.export_pdf_requested.connect(lambda: self._export_dialog("pdf"))
        c.as_written_requested.connect(self.answers.ask_as_written)
        c.all_documents_requested.connect(self.answers.ask_all_documents)
        c.new_conversation_requested.connect(self.history.new_conversation)
        self.side_panel.page_rendered.connect(self.page_rendered)
        self.side_panel.previous_citation.connect(lambda: self.answers.step_citation(-1))
        self.side_panel.next_citation.connect(lambda: self.answers.step_citation(1))
        self.answers.answer_ready.connect(self.answer_ready)
        self.welcome.sample_requested.connect(self.open_sample)
        self.welcome.new_requested.connect(ws.new_dialog)

    # --- workspaces --------------------------------------------------------------

    @Slot(str)
    def select_workspace(self, name: str) -> None:
        """Show workspace ``name``: its documents, history, conversation and indexing progress.

        The citation panel is emptied when the workspace changes: the previous workspace's page
        and quote must not stay beside this one's conversation (issue #24)."""
        if name != self.workspace_name:
            self.side_panel.clear()
            self.answers.clear_status()
        self.workspace_name = name
        self.setWindowTitle(f"Verbatim — {name}")
        self.conversation.title_label.setText(name)
        self.centre.setCurrentWidget(self.conversation)
        self.answers.current_entry = None
        known = self.history.show(name)
        self.indexing.show()
        self.workspaces.refresh()
        if not known:
            self.history.load(name)

    def busy_on(self, name: str) -> bool:
        """True while workspace ``name`` is indexing or answering."""
        return self.indexing.busy(name) or self.answers.busy_workspace == name

    def show_welcome(self) -> None:
        """Show the first-run view (three steps, sample corpus, which model answers)."""
        self.welcome.set_ollama(self.status.ollama_ok, self.settings)
        self.centre.setCurrentWidget(self.welcome)

    def open_sample(self) -> None:
        """Create (or select) workspace ``sample`` and index the bundled sample corpus into it."""
        from core.paths import sample_corpus_dir

        self.workspaces.reload(select="sample")
        self.indexing.start_indexing(str(sample_corpus_dir()), workspace="sample")

    # --- drag and drop --------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept local files/folders; folders are checked in the worker."""
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Index the dropped folders into the selected workspace."""
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.indexing.start_indexing(paths)

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
        fn = export_job(path, self.conversation_markdown(), f"Verbatim — {self.workspace_name or ''}")
        self._jobs.call(fn, self._on_exported, self._on_error)

    @Slot(object)
    def _on_exported(self, path: str) -> None:
        self.statusBar().showMessage(self.tr("Exported to {path}").format(path=path), 6000)
        self.exported.emit(path)

    def _export_dialog(self, suffix: str) -> None:
        """Ask where to export (``md`` or ``pdf``; the dialog opens in the user's documents folder)."""
        path = ask_export_path(self, self.tr("Export conversation"), self.workspace_name, suffix)
        if path:
            self.export_conversation(path)

    # --- settings -------------------------------------------------------------

    def open_settings(self) -> None:
        """Show the settings dialog; accepted settings are saved in the background."""
        from desktop.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() and dialog.result_settings is not None:
            self.apply_settings(dialog.result_settings)

    def apply_settings(self, settings: Settings) -> None:
        """Use ``settings`` from now on and save them (pool thread); a new UI language applies at once."""
        language_changed = settings.ui_language != getattr(self.settings, "ui_language", settings.ui_language)
        self.settings = settings
        self.workspaces.apply_settings(settings)
        self._jobs.call(settings.save, lambda _: self.settings_saved.emit(settings), self._on_error)
        self.watching.update_all()  # the watch_folders setting may have changed
        self.status.check_ollama()
        if language_changed:
            from desktop.i18n import install_translator

            # Qt sends LanguageChange to every widget: each re-translates itself.
            install_translator(QApplication.instance(), settings.ui_language)

    # --- errors and shutdown --------------------------------------------------

    def _on_error(self, exc: Exception) -> None:
        if isinstance(exc, Gone):
            return  # a queued read of a workspace deleted or renamed meanwhile
        if isinstance(exc, EngineError):
            self.status.watch_engine()  # the next call restarts it; show it loading again
        if isinstance(exc, IndexMismatchError):
            if self.indexing.mismatch_answered(exc):
                # A read queued before the rebuild started (or before it reopened the
                # workspace) reports the old mismatch late: the rebuild answers it.
                return
            self.indexing.offer_rebuild(exc)
        message = str(exc)
        self.statusBar().showMessage(message, 15000)
        self.workspaces_panel.current_file_label.setText(message)
        self.error_occurred.emit(message)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Cancel background work and wait for index writes to finish cleanly."""
        self._jobs.cancel_all()
        self.side_panel.stop()
        self.answers.close()
        self.index_pool.clear()
        for pool in (self.index_pool, self._read_pool):
            pool.clear()
            pool.waitForDone(60000)
        self.net_pool.clear()
        self.net_pool.waitForDone(3000)  # at most one 1.5 s reachability check
        self.engine.close()  # its calls were cancelled above; an index commit in flight completes
        super().closeEvent(event)
