"""Run core's heavy work — indexing and answering — in a separate engine process.

Why a process: the window's GUI thread shares Python's GIL with every thread of
its process, and core's heavy libraries hold it in long C stretches the GUI
cannot interrupt: importing torch (``dlopen`` of ``libtorch_cpu.so`` alone held
it 0.33 s here), full garbage collections over the ~570,000 objects those
libraries create (0.33 s each), and PyMuPDF building a dense page's ``rawdict``
(up to 75 ms per BOE page). Threads cannot fix that; a process can, and it also
keeps a crash in a native library (llama.cpp, PyMuPDF) from taking the window and
the user's conversation with it. Figures: ``bench/gui_latency.py`` and
``bench/window_startup.py``, summarised in ``bench/README.md``.

The protocol is the product's own and deliberately small: the client sends
``("call", id, fn, args, kwargs)``, the engine answers with any number of
``(id, "progress", event)`` then one of ``(id, "returned", value)``,
``(id, "errored", exception)`` or ``(id, "cancelled", None)``; ``("cancel", id)``
asks a call to stop at its next cancellation point. Everything travels with
:mod:`multiprocessing`'s pickling ``Connection`` over a pipe (spawn start method:
the same on Linux, macOS and Windows, and supported by PyInstaller through
:func:`multiprocessing.freeze_support`). ``fn`` must be a module-level function
(pickled by name); it is called as ``fn(*args, cancel=is_set, **kwargs)`` and may
return a generator (the pipeline's progress-reporting style) or a plain value.

The engine holds no state between calls: each operation opens its workspace
afresh, so renames, deletes and status changes made by the window's process (or
by ``verbatim`` on the command line) are always seen. Only loaded libraries,
the embedding model and the generation backend's model stay in memory.

:class:`LocalEngine` has the same interface and runs the call in the calling
thread — used by tests that inject an in-process backend, and by
``verbatim-desktop --in-process``.
"""

from __future__ import annotations

import gc
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import threading
import time
import traceback
from collections.abc import Callable, Generator
from typing import Any

from core.errors import Cancelled, CoreError, EngineError
from core.types import ProgressEvent

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]

#: ProgressEvent stage yielded by :meth:`Engine.run` while the engine is still warming up.
STARTING_STAGE = "starting"

# How often a waiting client checks its cancel callable (seconds). Cancelling is
# cooperative anyway (core stops at its next check), so 0.1 s adds nothing noticeable.
_POLL_S = 0.1


# --- operations (run inside the engine; module-level so they pickle by name) ---------


def index_op(name: str, folders: list[str], settings, *, cancel: CancelCheck, root: str | None = None):
    """Index ``folders`` into workspace ``name`` (created if missing); a generator (progress, then IndexReport)."""
    from core.pipeline import index_folders
    from core.store import Workspace

    return index_folders(Workspace(name, settings, root, create=True), folders, cancel=cancel)


def rebuild_op(name: str, settings, *, cancel: CancelCheck):
    """Empty workspace ``name``'s index and re-index its folders under ``settings`` (``Workspace.reset``)."""
    from core.pipeline import index_folders
    from core.store import Workspace

    ws = Workspace.reset(name, settings)
    return index_folders(ws, ws.folders(), cancel=cancel)


def answer_op(name: str, question: str, settings, history=None, *, cancel: CancelCheck, backend=None,
              follow_up: bool | None = None, scope: list[str] | None = None):
    """Answer ``question`` from workspace ``name`` (must exist); a generator (progress, then Answer).

    ``backend`` is for :class:`LocalEngine` only (tests inject a scripted one); in the
    engine process core picks the backend from ``settings``. ``follow_up``: see
    :func:`core.pipeline.answer_question` (``None``: detected). ``scope``: doc ids the user
    chose to search in (``None``: the documents the question names, or all). A question about the
    whole collection answered with passages is answered per document (:func:`core.collection.ask`).
    """
    from core.collection import ask
    from core.store import Workspace

    ws = Workspace(name, settings, create=False, recover=False)  # a reader: sees the last commit, never recovers
    return ask(ws, question, settings, backend=backend, cancel=cancel, history=history,
                           follow_up=follow_up, scope=scope)


def warm_workspace_op(name: str, settings, *, cancel: CancelCheck) -> float:
    """Read what a first question in workspace ``name`` needs (BM25 segments, the ANN index,
    document profiles) into this process's caches; returns seconds (0 when cancelled first).

    The window calls it when a workspace with chunks is shown, so the first question does not
    pay for it (1M chunks: 2.7 s with the files in the OS cache, 7 s from disk; issue #15).
    An empty workspace reads nothing.

    Raises:
        IndexError_: the workspace does not exist or cannot be read (as when opening it).
    """
    from core.retrieval import retrieve
    from core.store import Workspace
    from core.types import Trace

    if cancel():
        return 0.0
    start = time.perf_counter()
    ws = Workspace(name, settings, create=False, recover=False)
    if ws.chunk_count():
        retrieve(ws, "warm up the search / preparar la búsqueda", settings, Trace())
    return time.perf_counter() - start


def remove_folder_op(name: str, folder: str, settings, *, cancel: CancelCheck) -> int:
    """Remove ``folder`` and its documents from workspace ``name``; returns the number removed."""
    from core.store import Workspace
    from core.workspace_ops import remove_folder

    return remove_folder(Workspace(name, settings, create=False), folder)


def ping(*, cancel: CancelCheck) -> dict[str, Any]:
    """The engine's process id and Python executable (a round trip for self-tests)."""
    import sys

    return {"pid": os.getpid(), "executable": sys.executable}


# --- warm-up -----------------------------------------------------------------------------


def _import(*names: str) -> Callable[[], None]:
    def run() -> None:
        for module in names:
            __import__(module)
    return run


def _tokenizer() -> None:
    from core.chunking import get_tokenizer

    get_tokenizer()


def _embedder() -> None:
    from core.store import get_embedder

    get_embedder()


def _language_model() -> None:
    from core.textproc import detect_language

    detect_language("warm up the language identifier / preparar el identificador de idioma")


def _clause_vocabulary() -> None:
    """Embed the clause vocabulary's ask phrases now (:func:`core.clauses.semantic_scores` embeds them
    once per process, on first use): a question whose clause type no listed phrase names is matched by
    meaning, and the first such question in a process paid for embedding every phrase — 8.9 s of a
    9.8 s warm ``verbatim ask`` on the sample, measured at load 15-20 (issue #24, bench/README.md)."""
    from core.clauses import semantic_scores
    from core.store import get_embedder

    semantic_scores(get_embedder().get_query_embedding("warm up the clause vocabulary"))


#: (name, step) run by :func:`warm_up`, in this order.
WARM_UP_STEPS: list[tuple[str, Callable[[], None]]] = [
    ("PDF reader", _import("pymupdf")),
    ("search index", _import("pyarrow", "lancedb", "bm25s", "llama_index.core", "llama_index.vector_stores.lancedb")),
    ("neural network runtime", _import("torch")),
    ("embedding library", _import("transformers", "sentence_transformers", "llama_index.embeddings.huggingface")),
    ("tokenizer", _tokenizer),
    ("embedding model", _embedder),
    ("language detection", _language_model),
    ("clause vocabulary", _clause_vocabulary),
]


def warm_up() -> dict[str, float]:
    """Load the heavy libraries and the embedding model now, then :func:`gc.freeze` what they created.

    Steps that fail (model folder missing, library not installed) are skipped: the
    real call reports the error later with its usual message.

    :func:`gc.freeze` (CPython ≥ 3.7, documented for "freeze everything after
    start-up") moves the ~570,000 start-up objects to a permanent generation, so
    each full collection during indexing costs ~0 ms instead of 0.33 s here.

    Returns:
        Seconds per step name, plus ``"total"``.
    """
    timings: dict[str, float] = {}
    start = time.perf_counter()
    for name, step in WARM_UP_STEPS:
        t = time.perf_counter()
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - optional: the real call reports the error
            log.info("warm-up step %r skipped: %s", name, exc)
        timings[name] = time.perf_counter() - t
    gc.collect()
    gc.freeze()
    timings["total"] = time.perf_counter() - start
    return timings


# --- the engine process ----------------------------------------------------------------


def _transportable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else an :class:`EngineError` carrying its text."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any pickling failure: send the text instead
        return EngineError(f"{type(exc).__name__}: {exc}")
    return exc


def _serve(conn, warm: bool) -> None:  # pragma: no cover - runs in the child (tests/test_engine.py drives it)
    """Engine process main loop: one thread per call; replies go back through ``conn``."""
    import core  # noqa: F401  (offline switches before any ML import)

    send_lock = threading.Lock()
    cancels: dict[int, threading.Event] = {}
    threads: list[threading.Thread] = []

    def send(message: tuple) -> None:
        with send_lock:
            try:
                conn.send(message)
            except (OSError, ValueError):  # the window is gone: nobody to tell
                for event in list(cancels.values()):
                    event.set()

    warmed = threading.Event()

    def run_call(call_id: int, fn, args, kwargs, cancel: threading.Event) -> None:
        try:
            # Calls wait for the warm-up: importing the same packages from two threads at
            # once failed here ("cannot import name … from partially initialized module
            # llama_index.core.vector_stores.simple") — circular imports are not thread-safe.
            warmed.wait()
            result = fn(*args, cancel=cancel.is_set, **kwargs)
            if isinstance(result, Generator):
                while True:
                    try:
                        event = next(result)
                    except StopIteration as stop:
                        result = stop.value
                        break
                    send((call_id, "progress", event))
        except Cancelled:
            send((call_id, "cancelled", None))
        except BaseException as exc:  # noqa: BLE001 - reported to the caller, never lost
            if not isinstance(exc, CoreError):
                traceback.print_exc()
            send((call_id, "errored", _transportable(exc)))
        else:
            try:
                send((call_id, "returned", result))
            except Exception as exc:  # noqa: BLE001 - an unpicklable result
                send((call_id, "errored", EngineError(f"the engine's result could not be sent: {exc}")))
        finally:
            cancels.pop(call_id, None)

    if warm:
        def warm_and_report() -> None:
            try:
                timings = warm_up()
            finally:
                warmed.set()
            send((None, "ready", timings))

        threading.Thread(target=warm_and_report, name="verbatim-warm-up", daemon=True).start()
    else:
        warmed.set()
        send((None, "ready", {}))

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            break  # the window's process ended: stop (daemon threads die with us)
        kind = message[0]
        if kind == "call":
            _, call_id, fn, args, kwargs = message
            cancels[call_id] = threading.Event()
            thread = threading.Thread(target=run_call, args=(call_id, fn, args, kwargs, cancels[call_id]),
                                      name=f"verbatim-engine-{call_id}", daemon=True)
            threads.append(thread)
            thread.start()
            threads = [t for t in threads if t.is_alive()]
        elif kind == "cancel":
            event = cancels.get(message[1])
            if event is not None:
                event.set()
        elif kind == "shutdown":
            for event in list(cancels.values()):
                event.set()
            deadline = time.monotonic() + float(message[1])
            for thread in threads:
                # Index writes finish their current commit: never cut a batch short on a clean exit.
                thread.join(max(0.0, deadline - time.monotonic()))
            break
    conn.close()


class Engine:
    """Client of one engine process, started on first use (or by :meth:`start`) and restarted after a crash.

    Thread-safe: any thread may :meth:`run` calls; they run concurrently in the
    engine (one thread each there), with progress delivered to the calling thread.

    Args:
        warm_up: the engine loads the heavy libraries and the embedding model as
            soon as it starts (:func:`warm_up`), while the window is already usable.
    """

    def __init__(self, warm_up: bool = True) -> None:
        self._warm = warm_up
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._process = None
        self._conn = None
        self._calls: dict[int, tuple[queue.Queue, object]] = {}  # call id → (reply queue, its engine process)
        self._ids = itertools.count(1)
        self._ready = threading.Event()
        self.warm_up_timings: dict[str, float] = {}
        self.started_at: float | None = None  # time.monotonic() of the last start
        self.restarts = 0  # starts after the first (a crashed engine is restarted by the next call)

    # --- lifecycle ----------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """Process id of the running engine, or ``None``."""
        process = self._process
        return process.pid if process is not None and process.is_alive() else None

    def start(self) -> None:
        """Start the engine process if it is not running (returns at once; it warms up in the background).

        Raises:
            EngineError: the process could not be started.
        """
        with self._lock:
            if self._process is not None and self._process.is_alive() and self._conn is not None:
                return
            if self.started_at is not None:
                self.restarts += 1
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe(duplex=True)
            process = context.Process(target=_serve, args=(child, self._warm), name="verbatim-engine", daemon=True)
            try:
                process.start()
            except Exception as exc:
                raise EngineError(f"the engine process could not start: {exc}") from exc
            child.close()
            self._process, self._conn = process, parent
            self._ready.clear()
            self.started_at = time.monotonic()
            threading.Thread(target=self._read, args=(parent, process), name="verbatim-engine-reader",
                             daemon=True).start()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the engine finished its warm-up (or ``timeout`` seconds); True if it did."""
        return self._ready.wait(timeout)

    def close(self, timeout: float = 60.0) -> None:
        """Cancel every call, let running index commits finish (up to ``timeout`` s), then end the process."""
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
        if process is None:
            return
        try:
            with self._send_lock:
                conn.send(("shutdown", timeout))
        except (OSError, ValueError):
            pass
        process.join(timeout + 5)
        if process.is_alive():
            process.terminate()
            process.join(5)
        conn.close()

    # --- calls --------------------------------------------------------------

    def _read(self, conn, process) -> None:
        """Reader thread: route each reply to its call's queue; on end of pipe, fail the calls still waiting."""
        while True:
            try:
                call_id, kind, payload = conn.recv()
            except (EOFError, OSError, ValueError):
                break
            except Exception as exc:  # noqa: BLE001 - a reply that does not unpickle
                log.error("engine reply could not be read: %s", exc)
                continue
            if call_id is None:
                if kind == "ready":
                    self.warm_up_timings = payload
                    self._ready.set()
                continue
            entry = self._calls.get(call_id)
            if entry is not None:
                entry[0].put((kind, payload))
        process.join(1.0)
        code = process.exitcode
        with self._lock:
            if self._process is process:
                self._process = self._conn = None
        self._ready.set()  # nobody should wait for a warm-up that will not come
        for replies, owner in list(self._calls.values()):
            if owner is process:  # not the calls a restarted engine already serves
                replies.put(("died", code))

    def run(self, fn: Callable[..., Any], *args: Any, cancel: CancelCheck | None = None,
            **kwargs: Any) -> Generator[Any, None, Any]:
        """Call ``fn(*args, cancel=…, **kwargs)`` in the engine; a generator of its progress events.

        Yields what ``fn``'s generator yields (nothing if ``fn`` returns a plain
        value) and returns its return value, so ``yield from engine.run(...)`` and
        :func:`core.pipeline.run` work as with the local call.

        Raises:
            Cancelled: ``cancel()`` turned true and the call stopped.
            CoreError: whatever ``fn`` raised (the same class when it pickles).
            EngineError: the engine could not start or stopped during the call.
        """
        self.start()
        call_id = next(self._ids)
        replies: queue.Queue = queue.Queue()
        with self._lock:
            conn, process = self._conn, self._process
        self._calls[call_id] = (replies, process)
        if process is not None and not process.is_alive():
            replies.put(("died", process.exitcode))
        cancel_sent = finished = False
        try:
            try:
                with self._send_lock:
                    conn.send(("call", call_id, fn, args, kwargs))
            except (OSError, ValueError, AttributeError) as exc:
                raise EngineError(f"the engine process is not reachable: {exc}") from exc
            if not self._ready.is_set():
                # The call waits in the engine until its warm-up is done (first seconds after start).
                yield ProgressEvent(stage=STARTING_STAGE, message="Waiting for the engine to load the search libraries…")
            while True:
                try:
                    kind, payload = replies.get(timeout=_POLL_S)
                except queue.Empty:
                    if cancel is not None and not cancel_sent and cancel():
                        self._send_cancel(conn, call_id)
                        cancel_sent = True
                    continue
                if kind == "progress":
                    yield payload
                    continue
                finished = True
                if kind == "returned":
                    return payload
                elif kind == "errored":
                    raise payload
                elif kind == "cancelled":
                    raise Cancelled()
                else:  # "died"
                    if cancel_sent:
                        raise Cancelled()
                    raise EngineError(
                        f"The background engine stopped unexpectedly (exit code {payload}). "
                        "Everything indexed up to its last commit is kept; try again to continue."
                    )
        finally:
            self._calls.pop(call_id, None)
            if not finished and not cancel_sent:
                # The caller stopped listening (generator closed early): the work has no one to report to.
                self._send_cancel(conn, call_id)

    def _send_cancel(self, conn, call_id: int) -> None:
        try:
            with self._send_lock:
                conn.send(("cancel", call_id))
        except (OSError, ValueError, AttributeError):
            pass  # the engine is gone: nothing left to stop

    def call(self, fn: Callable[..., Any], *args: Any, cancel: CancelCheck | None = None, **kwargs: Any) -> Any:
        """:meth:`run` to the end, dropping progress; returns ``fn``'s result (same errors)."""
        gen = self.run(fn, *args, cancel=cancel, **kwargs)
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                return stop.value


class LocalEngine:
    """The :class:`Engine` interface, run in the calling thread (no process, no pickling).

    For tests that inject an in-process generation backend, and for
    ``verbatim-desktop --in-process`` (debugging).
    """

    pid = None
    restarts = 0
    warm_up_timings: dict[str, float] = {}

    def start(self) -> None:
        """Nothing to start."""

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Always ready: libraries load on first use, in the calling thread."""
        return True

    def close(self, timeout: float = 60.0) -> None:
        """Nothing to stop."""

    def run(self, fn: Callable[..., Any], *args: Any, cancel: CancelCheck | None = None,
            **kwargs: Any) -> Generator[Any, None, Any]:
        """Call ``fn`` here; same contract as :meth:`Engine.run`."""
        result = fn(*args, cancel=cancel or (lambda: False), **kwargs)
        if isinstance(result, Generator):
            return (yield from result)
        return result

    def call(self, fn: Callable[..., Any], *args: Any, cancel: CancelCheck | None = None, **kwargs: Any) -> Any:
        """:meth:`run` to the end; returns ``fn``'s result."""
        from core.pipeline import run

        return run(self.run(fn, *args, cancel=cancel, **kwargs))

