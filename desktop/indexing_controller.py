"""Indexing runs for the window: queue, progress, time left, cancel, rebuild.

Runs go one at a time through the window's index lane and run in the engine. Each
run is planned first in the read pool (:func:`core.progress.plan_index`: the files
it will visit, their page counts, which are new or changed), so the files to read are
listed as *queued* at once — also while the engine is still loading — and followed
event by event (:class:`core.progress.IndexProgress`): the one being read is
*indexing*, and each commit re-reads the manifest so finished documents appear with
their state (indexed, quarantined, failed) as they land, not at the end of the run.
The time left is :class:`core.progress.EtaEstimator`'s: "estimating…" until
meaningful, then smoothed and bounded by the work left.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox

from core.engine import STARTING_STAGE, index_op, rebuild_op
from core.errors import IndexError_, IndexMismatchError
from core.progress import IndexProgress, manifest_files, manifest_folders, plan_index
from core.types import IndexReport, ProgressEvent
from core.workspace_ops import workspace_dir
from desktop.elide import short_name
from desktop.hosts import IndexingHost
from desktop.texts import eta_text, index_stage_text
from desktop.workers import GeneratorWorker



@dataclass
class IndexRun:
    """One indexing run (queued, running or just finished), shown when its workspace is selected."""

    workspace: str
    worker: GeneratorWorker
    folders: list[str]
    message: str = ""
    watch: bool = False  # started by the folder watcher
    started: bool = False  # its first progress report arrived (it left the queue)
    progress: IndexProgress = field(default_factory=IndexProgress)
    planned: bool = False
    events: list[tuple[float, ProgressEvent]] = field(default_factory=list)  # replayed once the plan arrives


class IndexingController(QObject):
    """Every indexing run of the window (all workspaces), and the rebuild offer."""

    def __init__(self, window: IndexingHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QObject
        self.w = window
        self.runs: list[IndexRun] = []
        self.rebuild_box: QMessageBox | None = None
        self.rebuilding: set[str] = set()  # workspaces with a rebuild queued or running
        self.last_summary: dict[str, tuple[IndexReport, str]] = {}  # workspace → its last run's report, as shown

    # --- queries -------------------------------------------------------------------------

    def active(self, name: str | None = None) -> list[IndexRun]:
        """Runs not finished yet (of workspace ``name``, or all)."""
        return [r for r in self.runs if not r.worker.done and (name is None or r.workspace == name)]

    def summary_text(self, report: IndexReport) -> str:
        """"Indexed: 2 new or changed, 0 unchanged, 0 removed, 0 failed (3.1 s)" in the current language."""
        state = self.tr("Cancelled") if report.cancelled else self.tr("Indexed")
        return self.tr("{state}: {new} new or changed, {same} unchanged, {removed} removed, {failed} failed ({s} s)").format(
            state=state, new=report.documents, same=report.unchanged, removed=report.removed,
            failed=len(report.failures), s=f"{report.seconds:.1f}")

    def busy(self, name: str) -> bool:
        """True while workspace ``name`` has a run queued or running."""
        return bool(self.active(name))

    def has_queued_watch_run(self, name: str) -> bool:
        """True when a watcher's run of ``name`` waits in the queue (it will see new changes too)."""
        return any(r.watch and not r.started for r in self.active(name))

    @property
    def workers(self) -> list[GeneratorWorker]:
        """Indexing workers not finished yet (all workspaces)."""
        return [r.worker for r in self.active()]

    def pending_view(self, name: str) -> dict:
        """What the documents list shows for runs of ``name`` beside the manifest.

        Keys: ``queued`` (doc ids still to read, in order), ``indexing`` (the doc id being
        read, or ``""``), ``visited`` (read in this run: shown as indexing until a commit
        lists them), ``folders`` (the runs' folders, listed before the manifest has them).
        """
        view = {"queued": [], "indexing": "", "visited": set(), "folders": []}
        for run in self.active(name):
            p = run.progress
            view["folders"] += [str(Path(f).expanduser().resolve()) for f in run.folders if Path(f).is_dir()]
            if not run.planned:
                continue
            pending = p.pending()
            if p.current and not view["indexing"]:
                view["indexing"] = p.current
            view["queued"] += [d for d in pending if d != p.current]
            view["visited"] |= {d.doc_id for d in p.to_read} - set(pending)
        return view

    # --- starting --------------------------------------------------------------------------

    def start_indexing(self, folder: str | Path | list[str | Path], workspace: str | None = None) -> None:
        """Index ``folder`` (or several) into ``workspace`` (default: the selected one) in the background.

        Runs on the single-thread index lane, so runs queue up in order.
        Emits the window's ``indexing_finished`` with the :class:`IndexReport`.
        """
        w = self.w
        name = workspace or w.workspace_name or w.requested_workspace or "default"
        folders = [str(folder)] if isinstance(folder, (str, Path)) else [str(f) for f in folder]
        names = ", ".join(Path(f).name for f in folders)
        self.start_run(name, folders, self.index_factory(name, folders),
                       self.tr("Waiting to index {names}").format(names=names))

    def index_factory(self, name: str, folders: list[str]):
        """A generator factory for the index lane: ``index_op`` in the engine."""
        not_folder = self.tr("Not a folder: ")
        settings, engine = self.w.settings, self.w.engine

        def factory(cancel):
            dirs = [f for f in folders if Path(f).is_dir()]
            if not dirs:
                raise IndexError_(not_folder + ", ".join(folders))
            return engine.run(index_op, name, dirs, settings, cancel=cancel)

        return factory

    def start_run(self, name: str, folders: list[str], factory, message: str,
                  on_finished: Callable[[], None] | None = None, watch: bool = False,
                  rebuild: bool = False) -> None:
        """Queue ``factory`` (an indexing generator factory) on the index lane with progress wiring,
        and plan the run (its queued files) in the read pool meanwhile."""
        w = self.w
        worker = GeneratorWorker(factory)
        run = IndexRun(workspace=name, worker=worker, folders=folders, message=message, watch=watch)

        def finished() -> None:
            if on_finished is not None:
                on_finished()
            self.runs = [r for r in self.runs if not r.worker.done]
            self.show()

        self.runs.append(run)
        self._plan(run, rebuild)
        self.show()
        w.jobs.start(worker, w.index_pool,
                     on_progress=lambda e: self.on_progress(run, e),
                     on_result=lambda rep: self._on_returned(run, rep),
                     on_error=w.on_error,
                     on_finished=finished)

    def _plan(self, run: IndexRun, rebuild: bool) -> None:
        name, folders = run.workspace, run.folders

        def work():
            ws_dir = workspace_dir(name)
            # a rebuild re-reads every file of the workspace's folders (read from the manifest
            # directly: opening an index built with other settings raises a mismatch)
            return (plan_index(manifest_folders(ws_dir), {}, ws_dir) if rebuild
                    else plan_index(folders, manifest_files(ws_dir), ws_dir))

        def planned(plan) -> None:
            run.progress = IndexProgress(plan)
            run.planned = True
            for at, event in run.events:
                run.progress.update(event, now=at)
            run.events.clear()
            self.w.workspaces.show_pending(name)
            if name == self.w.workspace_name:
                self.show()

        self.w.jobs.call(work, planned, lambda exc: None)  # no plan: files are counted from the events

    # --- cancel ----------------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop the selected workspace's running and queued runs (after the current file)."""
        for run in self.active():
            if run.workspace == self.w.workspace_name or self.w.workspace_name is None:
                run.worker.cancel()
                run.message = self.tr("Cancelling…")
        self.show()

    def cancel_workspace(self, name: str) -> None:
        """Stop every run of workspace ``name`` (it is being deleted)."""
        for run in self.runs:
            if run.workspace == name:
                run.worker.cancel()

    # --- progress ---------------------------------------------------------------------------

    def on_progress(self, run: IndexRun, event: ProgressEvent) -> None:
        """One progress event of ``run`` (GUI thread)."""
        now = time.monotonic()
        run.started = True
        before = run.progress.current
        if run.planned:
            run.progress.update(event, now=now)
        else:
            run.events.append((now, event))
        if not run.worker.is_cancelled:
            run.message = (index_stage_text(STARTING_STAGE) if event.stage == STARTING_STAGE
                           else index_stage_text(event.stage, short_name(event.item), event.message))
        if event.stage == "committed":
            self._refresh_documents(run)
        elif run.planned and run.progress.current != before:
            self.w.workspaces.show_pending(run.workspace)
        if run.workspace == self.w.workspace_name:
            self.show()

    def _refresh_documents(self, run: IndexRun) -> None:
        """Re-read the manifest after a commit: the documents it committed appear with their state."""
        if run.workspace == self.w.workspace_name:
            self.w.workspaces.refresh()

    def show(self) -> None:
        """Show the selected workspace's run (or that others run) in the panel."""
        w = self.w
        panel = w.workspaces_panel
        runs = self.active(w.workspace_name)
        if not runs:
            others = sorted({r.workspace for r in self.active()})
            title = self.tr("Indexing in the background: {names}").format(names=", ".join(others)) if others else ""
            last = self.last_summary.get(w.workspace_name or "")
            shown = panel.current_file_label.text()
            if last is not None and shown == last[1]:
                # The last run's summary, still shown: re-worded in the current language (issue #24:
                # "Indexed: 2 new or changed…" stayed English in a Spanish window).
                text = self.summary_text(last[0])
                self.last_summary[w.workspace_name or ""] = (last[0], text)
                if text != shown:
                    state = list(panel.progress_state())
                    state[4] = text  # the panel re-shows this state on its own LanguageChange too
                    panel.set_progress(*state)
            # A title left from another workspace's run that has ended ("Indexing in the background:
            # clienteA" stayed for 80 s after it, tryout 5, finding 13) is cleared as well.
            if panel.cancel_button.isEnabled() or title or panel.progress_title.text():
                panel.set_progress(title, 0.0, 0, 0, panel.current_file_label.text() if not title else "", "", False)
            return
        run = runs[0]
        title = self.tr("Indexing {names}").format(names=", ".join(Path(f).name for f in run.folders))
        if len(runs) > 1:
            title += " " + self.tr("(+%n queued)", "", len(runs) - 1)
        p = run.progress
        eta = eta_text(p.eta_s) if run.started and run.planned and p.to_read else ""
        panel.set_progress(title, p.fraction, p.files_done, p.files_total, run.message, eta, True)

    def _on_returned(self, run: IndexRun, report: IndexReport) -> None:
        w = self.w
        if not report.cancelled:
            w.watching.current.add(run.workspace)  # indexed this session: its watcher needs no catch-up run
        summary = self.summary_text(report)
        run.message = summary
        self.last_summary[run.workspace] = (report, summary)
        if run.workspace == w.workspace_name:
            done = run.progress.fraction if report.cancelled else 1.0
            total = max(run.progress.files_total, 1)
            w.workspaces_panel.set_progress("", done, total if not report.cancelled else run.progress.files_done,
                                            total, summary, "", False)
            w.chunks_label.setText(self.tr("Chunks: %n", "", report.total_chunks))
            w.workspaces.refresh()
            if report.documents or report.removed:
                # Stale marks may have changed. Not after a run that changed nothing (a watcher's
                # catch-up at start-up): reloading would reset the conversation being read.
                w.load_history(run.workspace)
        w.indexing_finished.emit(report)

    # --- folders ---------------------------------------------------------------------------------

    def choose_folder(self) -> None:
        """Ask for a folder and index it into the selected workspace (no workspace: create one first)."""
        if self.w.workspace_name is None:
            self.w.workspaces.new_dialog()
            return
        folder = QFileDialog.getExistingDirectory(self.w, self.tr("Add folder to index"))
        if folder:
            self.start_indexing(folder)

    # --- rebuild after a settings change (issue #3) ------------------------------------------------

    def offer_rebuild(self, exc: IndexMismatchError) -> None:
        """Ask (non-modal) whether to rebuild a workspace indexed with other settings.

        The box is :attr:`rebuild_box` while it is open; "Rebuild" calls :meth:`rebuild`.
        """
        if self.rebuild_box is not None:
            return
        box = QMessageBox(self.w)
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
                self.rebuild()

        box.finished.connect(answered)
        self.rebuild_box = box
        box.open()

    def mismatch_answered(self, exc: IndexMismatchError) -> bool:
        """True when a late mismatch report needs no dialog: a rebuild of its workspace is queued or
        it was reopened since (a read queued before the rebuild reports the old mismatch late)."""
        return exc.workspace in self.rebuilding or self.w.workspaces.is_open(exc.workspace)

    def rebuild(self, workspace: str | None = None) -> None:
        """Empty the workspace's index and re-index its folders under the current settings (index lane)."""
        w = self.w
        name = workspace or w.workspace_name or w.requested_workspace
        if name is None:
            return
        settings, engine = w.settings, w.engine

        def factory(cancel):
            w.workspaces.forget(name)
            report = yield from engine.run(rebuild_op, name, settings, cancel=cancel)
            # Reopen it here (a manifest read) before the result is delivered: a mismatch
            # reported late by a read queued before the rebuild then finds it open and is
            # ignored, instead of offering a second rebuild.
            w.workspaces.get(name)
            return report

        self.rebuilding.add(name)
        self.start_run(name, [name], factory, self.tr("Rebuilding the index…"),
                       on_finished=lambda: self.rebuilding.discard(name), rebuild=True)

    def retranslate(self) -> None:
        """Re-show the progress in the current language."""
        self.show()
