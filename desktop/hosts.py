"""What each window controller needs of the window: one small Protocol per controller.

napari's controllers work on the viewer *model*, not on the window that shows it. Verbatim's
controllers drive widgets the window composes, so each one is given the window typed as the
narrow interface below — the attributes and calls it actually uses, nothing more. This module
sits on a floor below both sides: it imports no controller and no window, so a controller never
imports :mod:`desktop.main_window`, and :mod:`desktop.main_window` stays the composition root
(issue #24, item 5; ``tests/desktop/test_import_cycles.py`` fails on any import cycle in
``desktop/``). :class:`desktop.main_window.MainWindow` satisfies every Protocol here
(structural typing: it does not inherit them).

Attributes are typed ``Any`` where the real type lives in a controller module (importing it here
would bring the cycle back); the comment beside each says what it is.
"""

from __future__ import annotations

from typing import Any, Protocol


class _Common(Protocol):
    """What every controller reads: the selected workspace, settings, engine, background jobs, errors."""

    workspace_name: str | None  # the selected workspace, or None (welcome view)
    requested_workspace: str | None  # the workspace the window was opened on (before the list loads)
    settings: Any  # core.settings.Settings
    engine: Any  # core.engine.Engine or LocalEngine: where indexing and answering run
    jobs: Any  # desktop.workers.Jobs: runs core calls off the GUI thread

    def on_error(self, exc: Exception) -> None:
        """Show a user-facing error (status bar, state line, ``error_occurred``)."""


class AnswerHost(_Common, Protocol):
    """What :class:`desktop.answer_flow.AnswerFlow` needs: the conversation's widgets and store."""

    backend: Any  # core.generate.Backend injected by tests, or None (the engine chooses)
    conversation: Any  # desktop.conversation.ConversationView
    question_edit: Any  # its QLineEdit
    stage_label: Any  # its state line (QLabel)
    side_panel: Any  # desktop.citation_panel.CitationPanel
    scope: Any  # desktop.scope_controller.ScopeController: the next question's documents
    status: Any  # desktop.status_controller.StatusController: model shown, fallback explained
    indexing: Any  # desktop.indexing_controller.IndexingController: ``busy(name)``
    history: Any  # desktop.history_controller.HistoryController: conversations, context, reload
    error_occurred: Any  # Signal(str)

    def get_workspace(self, name: str) -> Any:
        """The open :class:`core.store.workspace.Workspace` ``name`` (raises ``Gone`` once deleted)."""


class HistoryHost(_Common, Protocol):
    """What :class:`desktop.history_controller.HistoryController` needs."""

    conversation: Any  # desktop.conversation.ConversationView
    workspaces_panel: Any  # desktop.workspaces_panel.WorkspacesPanel: its History list
    answers: Any  # desktop.answer_flow.AnswerFlow: ``current_entry``, ``set_current_entry``
    history_loaded: Any  # Signal(str)

    def get_workspace(self, name: str) -> Any:
        """The open :class:`core.store.workspace.Workspace` ``name``."""

    def read(self, name: str, fn: Any) -> Any:
        """Run ``fn()`` under workspace ``name``'s read guard (raises ``Gone`` once it is deleted)."""

    def statusBar(self) -> Any:  # noqa: N802 - Qt's name
        """The window's QStatusBar (transient messages)."""


class IndexingHost(_Common, Protocol):
    """What :class:`desktop.indexing_controller.IndexingController` needs."""

    index_pool: Any  # QThreadPool with one thread: index writes one at a time
    workspaces: Any  # desktop.workspace_controller.WorkspaceController
    workspaces_panel: Any  # desktop.workspaces_panel.WorkspacesPanel: progress, time left
    watching: Any  # desktop.watch_controller.WatchController: ``current``
    chunks_label: Any  # the status bar's chunk count (QLabel)
    indexing_finished: Any  # Signal(IndexReport)

    def load_history(self, name: str) -> None:
        """Reload workspace ``name``'s history into the conversation."""


class WatchHost(_Common, Protocol):
    """What :class:`desktop.watch_controller.WatchController` needs."""

    WATCH_QUIET_S: float  # seconds of quiet before a burst of file events becomes one re-index
    workspaces: Any  # desktop.workspace_controller.WorkspaceController: ``get(name).folders()``
    indexing: Any  # desktop.indexing_controller.IndexingController: queues the re-index
    folders_changed: Any  # Signal(str, set)


class WorkspaceHost(_Common, Protocol):
    """What :class:`desktop.workspace_controller.WorkspaceController` needs."""

    index_pool: Any  # QThreadPool: renames, deletions and folder removals go through the index lane
    workspaces_panel: Any  # desktop.workspaces_panel.WorkspacesPanel
    conversation: Any  # desktop.conversation.ConversationView
    centre: Any  # QStackedWidget: conversation or welcome view
    chunks_label: Any  # the status bar's chunk count (QLabel)
    watching: Any  # desktop.watch_controller.WatchController
    indexing: Any  # desktop.indexing_controller.IndexingController
    answers: Any  # desktop.answer_flow.AnswerFlow: ``warm(name)``
    history: Any  # desktop.history_controller.HistoryController: ``forget(name)``
    workspaces_changed: Any  # Signal(list)
    workspace_loaded: Any  # Signal(str)

    def select_workspace(self, name: str) -> None:
        """Show workspace ``name``."""

    def show_welcome(self) -> None:
        """Show the first-run view."""

    def busy_on(self, name: str) -> bool:
        """True while workspace ``name`` is indexing or answering."""

    def setWindowTitle(self, title: str) -> None:  # noqa: N802 - Qt's name
        """The window's title."""


class StatusHost(Protocol):
    """What the status bar's controller needs of its window (napari-style narrow interface; the
    controller does not import :mod:`desktop.main_window`, issue #24)."""

    settings: Any  # core.settings.Settings: backend, Ollama host and model
    engine: Any  # core.engine.Engine or LocalEngine: its pid, start and warm-up timings
    jobs: Any  # desktop.workers.Jobs: runs checks off the GUI thread
    net_pool: Any  # QThreadPool: the network lane (Ollama checks)
    welcome: Any  # desktop.welcome.WelcomeView: told whether Ollama answers
    watching: Any  # its ``pool`` waits for the engine's warm-up
    fallback_explained: Any  # Signal(str): "Automatic" answered with passages, and why

    def statusBar(self) -> Any:  # noqa: N802 - Qt's name
        """The window's QStatusBar (its permanent labels)."""
