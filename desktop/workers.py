"""Run core's blocking work off the GUI thread.

Two ``QRunnable`` flavours share one signal holder:

* :class:`GeneratorWorker` drives a core pipeline generator (``index_folders``,
  ``answer_question``): each yielded ``ProgressEvent`` is emitted as
  ``progress`` and the generator's return value as ``returned``.
* :class:`CallWorker` runs one plain function (render a page, ping Ollama,
  open a workspace) and emits its result as ``returned``.

Signals are emitted from the pool thread; connect them to methods of QObjects
living in the GUI thread so Qt queues the calls into the GUI thread.
Cancelling is cooperative: :meth:`GeneratorWorker.cancel` sets a
``threading.Event`` whose ``is_set`` is the ``cancel`` callable core polls.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from core.errors import Cancelled, CoreError

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]


class WorkerSignals(QObject):
    """Signals of one worker.

    ``progress(ProgressEvent)``, ``returned(object)`` (the result),
    ``errored(Exception)`` (never :class:`core.errors.Cancelled`),
    ``cancelled()`` and, always last, ``finished()``.
    """

    progress = Signal(object)
    returned = Signal(object)
    errored = Signal(object)
    cancelled = Signal()
    finished = Signal()


class _BaseWorker(QRunnable):
    """Common plumbing: signals, cancel event, error routing."""

    def __init__(self) -> None:
        super().__init__()
        self.signals = WorkerSignals()
        self._cancel = threading.Event()
        self.done = False

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
        try:
            result = self._work()
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as exc:
            if not isinstance(exc, CoreError):
                log.exception("worker failed")
            self.signals.errored.emit(exc)
        else:
            self.signals.returned.emit(result)
        finally:
            self.done = True
            self.signals.finished.emit()


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
            self.signals.progress.emit(event)


class CallWorker(_BaseWorker):
    """Run ``fn()`` in a pool thread and emit its result.

    Args:
        fn: a function of no arguments; it may take the cancel callable as its
            only argument if ``pass_cancel`` is True.
    """

    def __init__(self, fn: Callable[..., Any], *, pass_cancel: bool = False) -> None:
        super().__init__()
        self._fn = fn
        self._pass_cancel = pass_cancel

    def _work(self) -> Any:
        return self._fn(self._cancel.is_set) if self._pass_cancel else self._fn()


class Jobs(QObject):
    """Keeps Python references to running workers until they finish.

    A ``QRunnable`` whose Python wrapper is collected before it runs crashes
    the pool; holding it here until ``finished`` avoids that. A QObject of the
    GUI thread, so ``finished`` reaches :meth:`_reap` queued, in the GUI thread.
    """

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._workers: list[_BaseWorker] = []
        self.pool = pool

    def start(self, worker: _BaseWorker, pool: QThreadPool | None = None) -> _BaseWorker:
        """Remember ``worker`` and queue it on ``pool`` (default: this object's pool, else the global one)."""
        worker.signals.finished.connect(self._reap)  # queued: runs in the GUI thread
        self._workers.append(worker)
        (pool or self.pool or QThreadPool.globalInstance()).start(worker)
        return worker

    def call(self, fn: Callable[[], Any], on_result: Callable[[Any], None] | None = None,
             on_error: Callable[[Exception], None] | None = None, pool: QThreadPool | None = None) -> CallWorker:
        """Run ``fn()`` in ``pool`` and deliver its result or error to slots of GUI-thread objects."""
        worker = CallWorker(fn)
        if on_result is not None:
            worker.signals.returned.connect(on_result)
        if on_error is not None:
            worker.signals.errored.connect(on_error)
        self.start(worker, pool)
        return worker

    @Slot()
    def _reap(self) -> None:
        self._workers = [w for w in self._workers if not w.done]

    @property
    def running(self) -> int:
        """Number of workers not finished yet."""
        return sum(not w.done for w in self._workers)

    def cancel_all(self) -> None:
        """Ask every running worker to stop."""
        for w in self._workers:
            w.cancel()
