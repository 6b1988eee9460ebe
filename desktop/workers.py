"""Run core's blocking work off the GUI thread.

Two ``QRunnable`` flavours:

* :class:`GeneratorWorker` drives a core pipeline generator (``index_folders``,
  ``answer_question``): each yielded ``ProgressEvent`` is reported as
  ``progress`` and the generator's return value as ``returned``.
* :class:`CallWorker` runs one plain function (render a page, ping Ollama,
  open a workspace) and reports its result as ``returned``.

Every report goes through one queued signal of :class:`Jobs`, a QObject of the
GUI thread that lives as long as its window, and Jobs calls the callbacks given
to :meth:`Jobs.start` in the GUI thread, in the order the worker reported.

Why not connect callbacks to a per-worker signal object: PySide6 delivers a
queued call to a lambda or plain function through a hidden receiver that is
destroyed with the sender, and a call still queued at that moment is dropped
silently (measured with PySide6 6.11: emit from a thread, delete the sender,
run the loop: nothing arrives). A worker released a moment too early then
loses its result — the window waited forever for a rename that had happened.
With a single long-lived sender and receiver nothing queued can be dropped, and
a worker counts as done only once its outcome was delivered.

Cancelling is cooperative: :meth:`_BaseWorker.cancel` sets a
``threading.Event`` whose ``is_set`` is the ``cancel`` callable core polls.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot

from core.errors import Cancelled, CoreError

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]
Callback = Callable[..., None]

# Report kinds, in the order a worker sends them: any number of "progress", then
# exactly one of "returned" / "errored" / "cancelled", then "finished".


class _BaseWorker(QRunnable):
    """Common plumbing: cancel event, error routing, reporting through :class:`Jobs`."""

    def __init__(self) -> None:
        super().__init__()
        # Python owns the runnable: Jobs holds it until its "finished" report is
        # delivered, so the pool never deletes an object Python still uses.
        self.setAutoDelete(False)
        self._cancel = threading.Event()
        self._report: Callable[[str, object], None] = lambda kind, payload: None
        self.done = False  # set in the GUI thread when its outcome is delivered

    def cancel(self) -> None:
        """Ask the work to stop at its next cancellation point."""
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancel.is_set()

    def _work(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def run(self) -> None:
        """Pool-thread entry point: run the work and report its outcome, then "finished"."""
        try:
            result = self._work()
        except Cancelled:
            self._report("cancelled", None)
        except Exception as exc:
            if not isinstance(exc, CoreError):
                log.exception("worker failed")
            self._report("errored", exc)
        else:
            self._report("returned", result)
        finally:
            self._report("finished", None)


class GeneratorWorker(_BaseWorker):
    """Iterate a core generator in a pool thread.

    Args:
        factory: called in the pool thread with the cancel callable; returns the
            generator to drive (e.g. ``lambda cancel: index_folders(ws, [f], cancel=cancel)``).
            Building the generator inside the worker keeps any setup it does
            (opening the workspace) off the GUI thread too.
    """

    def __init__(self, factory: Callable[[CancelCheck], Generator]) -> None:
        super().__init__()
        self._factory = factory

    def _work(self) -> Any:
        gen = self._factory(self._cancel.is_set)
        while True:
            try:
                event = next(gen)
            except StopIteration as stop:
                return stop.value
            self._report("progress", event)


class CallWorker(_BaseWorker):
    """Run ``fn()`` in a pool thread and report its result.

    Args:
        fn: a function of no arguments; it takes the cancel callable as its
            only argument if ``pass_cancel`` is True.
    """

    def __init__(self, fn: Callable[..., Any], *, pass_cancel: bool = False) -> None:
        super().__init__()
        self._fn = fn
        self._pass_cancel = pass_cancel

    def _work(self) -> Any:
        return self._fn(self._cancel.is_set) if self._pass_cancel else self._fn()


class Jobs(QObject):
    """Starts workers and delivers their reports to callbacks in the GUI thread.

    Create it in the GUI thread (normally with the window as parent). It keeps
    each worker referenced until the worker's "finished" report has been
    delivered, then lets it go; ``worker.done`` turns true when its outcome
    (result, error or cancellation) is delivered.
    """

    _reported = Signal(int, str, object)  # (worker key, kind, payload), emitted from pool threads

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.pool = pool
        self._keys = itertools.count()
        self._workers: dict[int, tuple[_BaseWorker, dict[str, Callback]]] = {}
        self._reported.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def start(self, worker: _BaseWorker, pool: QThreadPool | None = None, *,
              on_progress: Callback | None = None, on_result: Callback | None = None,
              on_error: Callback | None = None, on_cancelled: Callback | None = None,
              on_finished: Callback | None = None) -> _BaseWorker:
        """Queue ``worker`` on ``pool`` (default: this object's pool, else the global one).

        Callbacks run in the GUI thread: ``on_progress(event)`` per yielded
        event, then one of ``on_result(value)``, ``on_error(exc)`` (never
        :class:`core.errors.Cancelled`) or ``on_cancelled()``, then
        ``on_finished()`` after the worker counts as done.
        """
        key = next(self._keys)
        callbacks = {k: cb for k, cb in (("progress", on_progress), ("returned", on_result), ("errored", on_error),
                                         ("cancelled", on_cancelled), ("finished", on_finished)) if cb is not None}
        self._workers[key] = (worker, callbacks)
        signal = self._reported

        def report(kind: str, payload: object) -> None:
            try:
                signal.emit(key, kind, payload)
            except RuntimeError:  # the window (and this object) is gone: nobody to tell
                worker.cancel()  # and nobody to work for: stop at the next cancellation point

        worker._report = report
        (pool or self.pool or QThreadPool.globalInstance()).start(worker)
        return worker

    def call(self, fn: Callable[[], Any], on_result: Callback | None = None,
             on_error: Callback | None = None, pool: QThreadPool | None = None) -> CallWorker:
        """Run ``fn()`` in ``pool`` and deliver its result or error to callbacks in the GUI thread."""
        worker = CallWorker(fn)
        self.start(worker, pool, on_result=on_result, on_error=on_error)
        return worker

    @Slot(int, str, object)
    def _deliver(self, key: int, kind: str, payload: object) -> None:
        entry = self._workers.get(key)
        if entry is None:
            return
        worker, callbacks = entry
        if kind != "progress":
            # Its outcome is being delivered: from the callback on, the work counts as done
            # (a rename asked for in the "indexing finished" handler must not be refused as busy).
            worker.done = True
        if kind == "finished":
            del self._workers[key]
        callback = callbacks.get(kind)
        if callback is None:
            return
        # Exceptions propagate to Qt's handler (and fail a pytest-qt test) as any slot's would.
        if kind in ("cancelled", "finished"):
            callback()
        else:
            callback(payload)

    @property
    def running(self) -> int:
        """Number of workers whose "finished" report was not delivered yet."""
        return len(self._workers)

    def cancel_all(self) -> None:
        """Ask every running worker to stop."""
        for worker, _ in self._workers.values():
            worker.cancel()
