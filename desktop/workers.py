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

from PySide6.QtCore import QObject, QRunnable, Signal

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

    def run(self) -> None:  # noqa: D102 - QRunnable API
        try:
            result = self._work()
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - every failure goes to the GUI
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
