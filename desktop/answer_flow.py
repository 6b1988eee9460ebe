"""The window's answer flow: ask, follow the progress, show the answer, cancel, open citations.

A controller in the napari style: it is given the window as the narrow
:class:`desktop.hosts.AnswerHost` — the widgets it drives (the conversation view, the
side panel, the state line) and the store of conversations — never the window class,
and owns the state of answering — the running question, the current entry and
citation — so the window itself only composes panels and wires signals.

Every core call runs in the engine (:mod:`core.engine`) through a
:class:`desktop.workers.GeneratorWorker` on the single-thread ask lane; the GUI
thread only formats what comes back.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QThreadPool, Signal

from core.engine import LocalEngine, answer_op, warm_workspace_op
from core.pipeline import MAX_HISTORY_TURNS, turn_of
from core.types import Answer, Citation, ProgressEvent
from desktop.hosts import AnswerHost
from desktop.render import Entry
from desktop.texts import STILL_INDEXING, answer_status_text, stage_text
from desktop.workers import GeneratorWorker


class AnswerFlow(QObject):
    """Asks questions of the selected workspace and shows the answers in the window's conversation.

    Args:
        window: what it drives (:class:`desktop.hosts.AnswerHost`); also its QObject parent.

    Attributes:
        answer: the answer of the current entry (``None`` before the first).
        current_entry: index of the current conversation entry, or ``None``.
        current_citation: 1-based chip number of the citation shown in the side panel (0 = none).

    Signals:
        answer_ready(Answer): an answer (or abstention) was shown.
        live_shown(object): the preview of the answer being written changed (an
            :class:`Entry` with ``streaming`` set, or ``None`` when it is taken away).
    """

    answer_ready = Signal(object)
    live_shown = Signal(object)

    def __init__(self, window: AnswerHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QObject
        self.w = window
        self.answer: Answer | None = None
        self.current_entry: int | None = None
        self.current_citation = 0
        # A backend injected into the window lives in this process: its questions run here.
        self._local_engine = LocalEngine()
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._worker: GeneratorWorker | None = None
        # Reading a shown workspace's indexes ahead of the first question: its own lane, so a
        # question never queues behind it (the engine runs both at once).
        self._warm_pool = QThreadPool(self)
        self._warm_pool.setMaxThreadCount(1)
        self._warm_worker: GeneratorWorker | None = None
        self.warmed: set[str] = set()  # workspaces read ahead in this engine (or being read)
        self.warm_seconds: dict[str, float] = {}  # how long each read ahead took in the engine
        self._workspace: str | None = None
        self._question = ""
        self._live: Entry | None = None  # the model answer being written, as far as verified
        self._live_attempt = 0
        self._replace: int | None = None  # the entry the running question's answer replaces
        self._tokens = 0  # tokens of the reply streamed so far
        # What the state line under the conversation says once a question ended, kept as data so a
        # language switch re-words it (issue #24: "Sin respuesta verificada · 1.4 s" in an English
        # window): ("status", answer status, seconds or None), ("error", text), ("stopped",) or None.
        self._ended: tuple | None = None
        self._asked_with = ""  # the running question's settings.backend ("auto" may fall back to passages)

    # --- asking ---------------------------------------------------------------

    @property
    def busy_workspace(self) -> str | None:
        """Name of the workspace a question is being answered in, or ``None``."""
        return self._workspace if self._worker is not None else None

    def ask(self, question: str, follow_up: bool | None = None, replace: int | None = None) -> None:
        """Answer ``question`` in the selected workspace in the background; emits :attr:`answer_ready`.

        A question asked while another runs cancels the earlier one. A model answer is
        shown sentence by sentence as the model writes it (each verified first), then
        replaced by the final answer. The current conversation (since the last "New
        conversation") is passed to core, which reads the question as a follow-up only
        when it points back (:func:`core.followup.detect_follow_up`).

        Args:
            follow_up: ``False`` searches the question as written (no rewrite), ``None`` lets core decide.
            replace: index of the conversation entry the answer replaces ("search as I wrote it").
        """
        w = self.w
        question = question.strip()
        if not question:
            return
        name = w.workspace_name or w.requested_workspace or "default"
        if w.question_edit.text().strip() != question:
            w.question_edit.setText(question)
        # A follow-up is read in the light of this conversation (core decides, then rewrites it).
        entries = w.history.context_entries(name)
        if replace is not None:  # the turns before the replaced entry
            entries = entries[:max(0, replace - (len(w.history.conversations.get(name, [])) - len(entries)))]
        history = [turn_of(e.answer) for e in entries][-MAX_HISTORY_TURNS:]
        self._start(name, question, w.settings, w.backend, history, follow_up=follow_up, replace=replace,
                    scope=w.scope.for_question())

    def ask_as_written(self, entry_index: int) -> None:
        """Ask entry ``entry_index``'s question again, searched as written (undoes its follow-up rewrite);
        the new answer takes the entry's place."""
        entries = self.w.conversation.entries
        if 0 <= entry_index < len(entries):
            self.ask(entries[entry_index].answer.question, follow_up=False, replace=entry_index)

    def ask_all_documents(self, entry_index: int) -> None:
        """Ask entry ``entry_index``'s question again in the whole workspace ("search all documents"):
        no document reference resolved, no selection; the new answer takes the entry's place."""
        target = self._entry_target(entry_index)
        if target is None:
            return
        w = self.w
        w.scope.clear()
        self._start(*target, w.settings.model_copy(update={"resolve_references": False}), w.backend, [],
                    follow_up=False, replace=entry_index)

    def show_passages(self, entry_index: int) -> None:
        """Answer the question of conversation entry ``entry_index`` again with passages (no model),
        as its own new entry: the sentences of the documents that match it ("Show matching passages")."""
        target = self._entry_target(entry_index)
        if target is not None:
            self._start(*target, self.w.settings.model_copy(update={"backend": "passages"}), None, [])

    def _entry_target(self, entry_index: int) -> tuple[str, str] | None:
        """``(workspace, question)`` to ask conversation entry ``entry_index`` again (its standalone
        question when it was a rewritten follow-up), or ``None`` for an index out of range."""
        entries = self.w.conversation.entries
        if not 0 <= entry_index < len(entries):
            return None
        answer = entries[entry_index].answer
        return self.w.workspace_name or answer.workspace, answer.trace.standalone_question or answer.question

    def _start(self, name: str, question: str, settings, backend, history, follow_up: bool | None = None,
               replace: int | None = None, scope: list[str] | None = None) -> None:
        w = self.w
        if self._worker is not None:
            self._worker.cancel()
        engine = w.engine if backend is None else self._local_engine
        worker = GeneratorWorker(
            lambda cancel: engine.run(answer_op, name, question, settings, history, backend=backend, cancel=cancel,
                                      follow_up=follow_up, scope=scope)
        )
        self._worker = worker
        self._workspace = name
        self._question = question
        # What was asked for: "auto" only when core chose (not "Show matching passages", not an injected backend).
        self._asked_with = settings.backend if backend is None else "injected"
        self._replace = replace
        self._tokens = 0
        self._set_live(None)
        w.conversation.set_busy(True, self.tr("Waiting…"))
        w.jobs.start(worker, self._pool,
                      on_progress=lambda e: self._on_progress(worker, e),
                      on_result=lambda a: self._on_returned(worker, a),
                      on_error=lambda exc: self._on_error(worker, exc),
                      on_cancelled=lambda: self._on_cancelled(worker))

    def stop(self) -> None:
        """Cancel the running question (cooperatively: core stops at its next check)."""
        if self._worker is not None:
            self._worker.cancel()
            self.w.conversation.set_busy(True, self.tr("Stopping…"))

    def warm(self, name: str) -> None:
        """Have the engine read workspace ``name``'s indexes now (:func:`core.engine.warm_workspace_op`),
        once per workspace and engine, so its first question does not wait for them.

        Best effort: a failure is left to the question that meets it, which reports it.
        """
        if name in self.warmed:
            return
        w = self.w
        engine = w.engine
        self.warmed.add(name)
        if self._warm_worker is not None:
            self._warm_worker.cancel()
        settings = w.settings
        worker = GeneratorWorker(lambda cancel: engine.run(warm_workspace_op, name, settings, cancel=cancel))
        self._warm_worker = worker

        def failed(exc: Exception) -> None:
            self.warmed.discard(name)  # try again next time it is shown

        w.jobs.start(worker, self._warm_pool, on_result=lambda seconds: self.warm_seconds.__setitem__(name, seconds),
                      on_error=failed, on_cancelled=lambda: self.warmed.discard(name))

    def close(self) -> None:
        """Drop queued questions and wait (up to 60 s) for the running one to stop; the window is closing."""
        if self._warm_worker is not None:
            self._warm_worker.cancel()
        for pool in (self._warm_pool, self._pool):
            pool.clear()
            pool.waitForDone(60000)

    def _is_current(self, worker: GeneratorWorker) -> bool:
        return worker is self._worker

    def _on_progress(self, worker: GeneratorWorker, event: ProgressEvent) -> None:
        if not self._is_current(worker) or worker.is_cancelled:
            return
        if event.stage == "tokens":  # a streamed reply: how far the model has written
            self._tokens = event.done
            verified = len(self._live.answer.claims) if self._live is not None else 0
            text = stage_text("generating", n=event.done)
            if verified:
                text = self.tr("{n} sentences verified as the model writes…").format(n=verified) + " · " + text
            self.w.conversation.set_busy(True, text)
            return
        if event.stage != "claim":
            n = event.done if event.stage in ("reading", "documents") else 0
            self.w.conversation.set_busy(True, stage_text(event.stage, event.message, n=n, total=event.total))
            return
        # A claim of the reply being written, already verified: show it (or why it was removed) now.
        live = self._live
        if live is None or event.attempt != self._live_attempt:  # a new generation starts over
            live = Entry(answer=Answer(question=self._question, workspace=self._workspace or "", status="answered"),
                         streaming=True, expanded=True)
            self._live_attempt = event.attempt
        if event.claim is not None:
            live.answer.claims.append(event.claim)
        live.answer.rejected.extend(event.rejected)
        self._set_live(live)
        self.w.conversation.set_busy(True, self.tr("{n} sentences verified as the model writes…").format(
            n=len(live.answer.claims)))

    def _set_live(self, entry: Entry | None) -> None:
        self._live = entry
        if entry is None and self.w.conversation.live is None:
            return
        if entry is None or self._workspace == self.w.workspace_name:
            self.w.conversation.set_live(entry)
            self.live_shown.emit(entry)

    def _on_returned(self, worker: GeneratorWorker, answer: Answer) -> None:
        if not self._is_current(worker):
            return
        w = self.w
        name = self._workspace or answer.workspace
        replace = self._replace
        self._done()
        if "index_empty" in answer.trace.warnings and w.indexing.busy(name) and answer.abstention is not None:
            # The first index is still being written: nothing is searchable *yet*. Core's message
            # ("… scanned pages need OCR") would send the user after a problem they do not have.
            answer = answer.model_copy(deep=True)
            answer.abstention.message = STILL_INDEXING
        entry = Entry(answer=answer, asked_at=time.time())
        replaced = self._replace_entry(name, replace, entry) if replace is not None else None
        if replace is None or replaced is False:
            self._append_entry(name, entry)
        total = answer.trace.timings_ms.get("total")
        self._show_ended(("status", answer.status, total / 1000 if total else None))
        w.question_edit.setText("")
        if self._asked_with == "auto" and answer.trace.backend == "passages":
            w.status.explain_fallback()  # "Automatic" answered with passages: say so, and why

        old_id = replaced if type(replaced) is int else None  # not False (bool is an int)

        def store():
            from core.history import History

            history = History(w.get_workspace(name).dir)
            if old_id is not None:
                history.delete(old_id)  # the rewritten answer is replaced, not kept beside it
            return history.add(answer)

        w.jobs.call(store, lambda rid, e=entry: setattr(e, "history_id", rid) or w.history.load(name), w.on_error)
        self.answer_ready.emit(answer)

    def _on_error(self, worker: GeneratorWorker, exc: Exception) -> None:
        if not self._is_current(worker):
            return
        self._done()
        self._show_ended(("error", str(exc)))
        self.w.error_occurred.emit(str(exc))

    def _on_cancelled(self, worker: GeneratorWorker) -> None:
        if not self._is_current(worker):
            return
        self._done()
        self._show_ended(("stopped",))

    def _show_ended(self, ended: tuple | None) -> None:
        """Show how the last question ended in the state line (kept for :meth:`retranslate`)."""
        self._ended = ended
        self.w.stage_label.setText(self._ended_text())

    def _ended_text(self) -> str:
        ended = self._ended
        if ended is None:
            return ""
        if ended[0] == "status":
            return answer_status_text(ended[1]) + (f" · {ended[2]:.1f} s" if ended[2] else "")
        if ended[0] == "error":
            return self.tr("Could not answer: {error}").format(error=ended[1])
        return self.tr("Stopped")

    def retranslate(self) -> None:
        """Re-word the state line in the current language (a question running re-words it itself)."""
        if self._worker is None and self._ended is not None:
            self.w.stage_label.setText(self._ended_text())

    def clear_status(self) -> None:
        """Forget how the last question ended (another workspace is shown)."""
        if self._worker is None:
            self._show_ended(None)

    def _done(self) -> None:
        self._set_live(None)
        self._worker = None
        self._workspace = None
        self._replace = None
        self.w.conversation.set_busy(False)

    def _replace_entry(self, workspace: str, index: int, entry: Entry) -> int | bool | None:
        """Put ``entry`` in place of conversation entry ``index``; returns the replaced entry's history
        id (``None`` if it had none), or False when the entry is gone (then it is appended)."""
        w = self.w
        entries = w.history.conversations.get(workspace, [])
        if not 0 <= index < len(entries):
            return False
        old = entries[index].history_id
        entries[index] = entry
        if workspace == w.workspace_name:
            w.conversation.set_entries(entries, scroll_to=index)
            self.set_current_entry(index)
        return old

    # --- showing ----------------------------------------------------------------

    def _append_entry(self, workspace: str, entry: Entry) -> None:
        w = self.w
        entries = w.history.conversations.setdefault(workspace, [])
        entries.append(entry)
        if workspace == w.workspace_name:
            w.conversation.set_entries(entries, scroll_to=len(entries) - 1)
            self.set_current_entry(len(entries) - 1)

    def set_current_entry(self, index: int) -> None:
        """Make conversation entry ``index`` current (its citations are the ones Alt+Left/Right steps through)."""
        w = self.w
        entries = w.conversation.entries
        if 0 <= index < len(entries):
            self.current_entry = index
            self.answer = entries[index].answer
            w.status.show_model(self.answer.trace)  # one wording for the status bar (it showed the scoring's description)

    def show_answer(self, answer: Answer) -> None:
        """Append ``answer`` to the selected workspace's conversation (not stored in history)."""
        w = self.w
        self._show_ended(None)
        self._append_entry(w.workspace_name or answer.workspace, Entry(answer=answer, asked_at=time.time()))
        if answer.workspace != w.workspace_name and w.workspace_name is None:
            w.conversation.set_entries(w.history.conversations[answer.workspace])
            self.set_current_entry(len(w.conversation.entries) - 1)

    # --- citations --------------------------------------------------------------

    @property
    def citations(self) -> list[Citation]:
        """Citations of the current answer, in chip order."""
        entries = self.w.conversation.entries
        if self.current_entry is None or self.current_entry >= len(entries):
            return []
        return entries[self.current_entry].citations()

    def open_entry_citation(self, entry_index: int, n: int) -> None:
        """Show citation ``n`` (1-based chip number) of conversation entry ``entry_index``."""
        self.set_current_entry(entry_index)
        self.open_citation(n)

    def open_citation(self, n: int) -> None:
        """Show citation ``n`` (1-based chip number) of the current answer in the side panel."""
        cits = self.citations
        if 1 <= n <= len(cits):
            self.current_citation = n
            entries = self.w.conversation.entries
            weak = self.current_entry is not None and self.current_entry < len(entries) \
                and entries[self.current_entry].shows_weak
            self.w.side_panel.show_citation(cits[n - 1], n, len(cits), weak=weak)

    def step_citation(self, step: int) -> None:
        """Move to the previous (``-1``) or next (``+1``) citation of the current answer (Alt+Left/Right)."""
        cits = self.citations
        if not cits:
            return
        n = self.current_citation + step if self.current_citation else (1 if step > 0 else len(cits))
        self.open_citation(max(1, min(len(cits), n)))

    def open_closest_passage(self, entry_index: int, doc_index: int) -> None:
        """Show the closest passage of document ``doc_index`` (0-based, ``Answer.documents``) of a
        question about the collection that it did not match: marked weak, never a citation."""
        entries = self.w.conversation.entries
        docs = entries[entry_index].answer.documents if 0 <= entry_index < len(entries) else []
        if not 0 <= doc_index < len(docs) or docs[doc_index].closest is None:
            return
        self.w.side_panel.show_citation(docs[doc_index].closest.viewer_citation(), 1, 1, weak=True)

    def open_consulted_document(self, entry_index: int, doc_index: int) -> None:
        """Show the first consulted page of document ``doc_index`` of an abstention."""
        entries = self.w.conversation.entries
        if not 0 <= entry_index < len(entries):
            return
        ab = entries[entry_index].answer.abstention
        if ab is None or not 0 <= doc_index < len(ab.consulted):
            return
        doc = ab.consulted[doc_index]
        self.w.side_panel.show_document(doc.path, doc.pages[0] if doc.pages else 1, doc.doc_id)


# Strings used through a helper or inside f-strings, listed for pyside6-lupdate.
_LUPDATE = (
    QT_TRANSLATE_NOOP("AnswerFlow", "{n} sentences verified as the model writes…"),
)
