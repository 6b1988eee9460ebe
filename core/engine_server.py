"""A warm engine the command line reuses: one process per data folder, found through a state file.

``verbatim ask`` in a fresh process spends most of its time loading libraries and the
embedding model (about 7 of 11-15 s on the sample, issue #24). After a question answered
in-process, ``ask`` leaves this server running (:func:`spawn`); the next ``ask`` for the
same data folder finds it through ``<data folder>/engine/engine.json`` and sends its
question there (:func:`connect`), so only the question's own work is paid. The server
stops by itself after :func:`idle_seconds` without a connection and removes its file.

Transport: :mod:`multiprocessing.connection` over TCP on the loopback interface only
(``127.0.0.1``, a port the system picks; the product talks to nothing else), with the
HMAC challenge of ``authkey`` — a random 32-byte key kept in the state file, which only
the user can read (mode 0600). Each connection is served with the engine's own protocol
(:func:`core.engine._serve`: ``("call", id, fn, args, kwargs)`` → progress events, then
``returned``/``errored``/``cancelled``), so nothing here re-implements calls or
cancellation; a client that disconnects cancels its call.

Run as ``python -m core.engine_server [--idle SECONDS]``.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Client, Connection, Listener
from pathlib import Path

log = logging.getLogger(__name__)

#: Seconds without a connection after which the server stops (``VERBATIM_ENGINE_IDLE_S``; 0 = never start one).
DEFAULT_IDLE_S = 600.0
_LOOPBACK = "127.0.0.1"


def idle_seconds() -> float:
    """How long a warm engine waits for the next question, seconds (``VERBATIM_ENGINE_IDLE_S``, default 600);
    0 turns the warm engine off (every ``ask`` runs in its own process, as before)."""
    try:
        return max(0.0, float(os.environ.get("VERBATIM_ENGINE_IDLE_S", DEFAULT_IDLE_S)))
    except ValueError:
        return DEFAULT_IDLE_S


def state_dir() -> Path:
    """``<data folder>/engine``: the state file and the server's log."""
    from core.paths import data_dir

    return data_dir() / "engine"


def state_file() -> Path:
    """The state file: ``{"pid", "host", "port", "authkey", "started", "idle_s"}`` as JSON, mode 0600."""
    return state_dir() / "engine.json"


@dataclass
class ServerInfo:
    """Where a warm engine listens (read from :func:`state_file`)."""

    pid: int
    host: str
    port: int
    authkey: bytes


def read_state() -> ServerInfo | None:
    """The registered server, or ``None`` (no file, unreadable, or not on loopback)."""
    try:
        data = json.loads(state_file().read_text(encoding="utf-8"))
        info = ServerInfo(int(data["pid"]), str(data["host"]), int(data["port"]), bytes.fromhex(data["authkey"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return info if info.host == _LOOPBACK else None  # never connect anywhere but this machine


def _pid_alive(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie does not)."""
    if os.name == "nt":  # no cheap signal-0 probe: the connection attempt decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # Linux: an exited server whose parent never reaped it is a zombie, not a server
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def connect(timeout_s: float = 2.0) -> Connection | None:
    """A connection to this data folder's warm engine, or ``None`` when there is none.

    A state file whose process is gone, or whose port refuses, is removed. The HMAC
    handshake of :func:`multiprocessing.connection.Client` runs in a helper thread so a
    stuck server costs at most ``timeout_s`` seconds.
    """
    info = read_state()
    if info is None:
        return None
    if not _pid_alive(info.pid):
        _remove_state(info.pid)
        return None
    result: list = []

    def attempt() -> None:
        try:
            result.append(Client((info.host, info.port), family="AF_INET", authkey=info.authkey))
        except Exception as exc:  # noqa: BLE001 - refused, reset, wrong key: no warm engine
            result.append(exc)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout_s)
    if not result or not isinstance(result[0], Connection):
        if result and isinstance(result[0], ConnectionRefusedError):
            _remove_state(info.pid)
        return None
    return result[0]


def call(conn: Connection, fn, *args, on_progress=None, **kwargs):
    """Run ``fn(*args, cancel=…, **kwargs)`` in the warm engine over ``conn`` and return its value.

    ``on_progress(event)`` receives each progress event. Closing the connection (an
    interrupted client) cancels the call in the engine.

    Raises:
        whatever ``fn`` raised (the same class when it pickles, else :class:`core.errors.EngineError`);
        Cancelled: the engine cancelled the call;
        EngineError: the engine went away during the call.
    """
    from core.errors import Cancelled, EngineError

    try:
        conn.send(("call", 1, fn, args, kwargs))
        while True:
            call_id, kind, payload = conn.recv()
            if call_id is None:
                continue
            if kind == "progress":
                if on_progress is not None:
                    on_progress(payload)
            elif kind == "returned":
                return payload
            elif kind == "errored":
                raise payload
            elif kind == "cancelled":
                raise Cancelled()
    except (EOFError, OSError) as exc:
        raise EngineError(f"the warm engine stopped during the call: {exc}") from exc
    finally:
        conn.close()


def spawn(workspace: str | None = None) -> bool:
    """Start a warm engine for this data folder in the background unless one is registered or
    :func:`idle_seconds` is 0; returns True when one was started. Never raises.

    ``workspace``: the workspace the engine reads ahead once its libraries are loaded
    (:func:`core.engine.warm_workspace_op`: BM25 segments, the vector index, document profiles), so
    the next question there — the user's second ``ask`` — does not pay for reading them (issue #24).

    Frozen builds (PyInstaller) do not start one: their executable is the app, not Python.
    """
    idle = idle_seconds()
    if idle <= 0 or getattr(sys, "frozen", False):
        return False
    info = read_state()
    if info is not None and _pid_alive(info.pid):
        return False
    try:
        folder = state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "engine.log", "ab") as logfile:
            kwargs: dict = {"start_new_session": True} if os.name != "nt" else {
                "creationflags": getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
            warm = ["--warm-workspace", workspace] if workspace else []
            subprocess.Popen([sys.executable, "-m", "core.engine_server", "--idle", str(idle), *warm],
                             stdin=subprocess.DEVNULL, stdout=logfile, stderr=logfile, close_fds=True, **kwargs)
    except OSError as exc:
        log.info("warm engine not started: %s", exc)
        return False
    return True


def stop(timeout_s: float = 10.0) -> bool:
    """Ask this data folder's warm engine to stop now; True if one was running (tests, benchmarks)."""
    info = read_state()
    if info is None:
        return False
    conn = connect()
    if conn is not None:
        try:
            conn.send(("stop_server",))
        except (EOFError, OSError):
            pass
        conn.close()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _pid_alive(info.pid) and state_file().exists():
        time.sleep(0.05)
    _remove_state(info.pid)
    return True


def _remove_state(pid: int) -> None:
    """Remove the state file if it still names ``pid`` (a newer server's file is left alone)."""
    info = read_state()
    if info is None or info.pid == pid:
        try:
            state_file().unlink()
        except OSError:
            pass


def _write_state(port: int, authkey: bytes, idle: float, **extra) -> None:
    """Write :func:`state_file` atomically, mode 0600; ``extra`` (``ready``, ``warmed``) is added as is."""
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"engine.json.{os.getpid()}.tmp"
    data = {"pid": os.getpid(), "host": _LOOPBACK, "port": port, "authkey": authkey.hex(),
            "started": time.time(), "idle_s": idle, **extra}
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, state_file())


class _FirstAgain:
    """``conn`` whose first :meth:`recv` returns ``first`` (a message already read), for :func:`core.engine._serve`."""

    def __init__(self, conn: Connection, first) -> None:
        self._conn, self._first = conn, [first]

    def recv(self):
        return self._first.pop() if self._first else self._conn.recv()

    def send(self, message) -> None:
        self._conn.send(message)

    def close(self) -> None:
        self._conn.close()


def ready_state() -> dict:
    """The state file's record of the warm-up: ``{"ready": bool, "warmed": {workspace: seconds}}``
    (``ready`` False while the libraries load; the window's shared engine is ready when it registers)."""
    try:
        data = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"ready": False, "warmed": {}}
    return {"ready": bool(data.get("ready", False)), "warmed": dict(data.get("warmed") or {})}


def serve(idle_s: float = DEFAULT_IDLE_S, warm_workspace: str | None = None) -> int:  # pragma: no cover - own process
    """The server's main loop: listen on loopback, warm up, serve connections, stop when idle.

    ``warm_workspace``: a workspace read ahead after the libraries (:func:`spawn`); a question that
    arrives meanwhile waits for it, as for the libraries (it would read the same files). A failure
    (workspace deleted meanwhile, another embedding model) is left to the question that meets it.

    Returns the exit code (0; 1 when another server already serves this data folder).
    """
    import core  # noqa: F401  (offline switches before any ML import)
    from core.engine import STARTING_STAGE, _serve, warm_up
    from core.types import ProgressEvent

    existing = read_state()
    if existing is not None and existing.pid != os.getpid() and _pid_alive(existing.pid):
        return 1
    authkey = secrets.token_bytes(32)
    listener = Listener((_LOOPBACK, 0), family="AF_INET", authkey=authkey)
    port = listener.address[1]
    _write_state(port, authkey, idle_s)
    warmed = threading.Event()
    lock = threading.Lock()
    state = {"active": 0, "last": time.monotonic()}

    def warm() -> None:
        warmed_ws: dict[str, float] = {}
        try:
            warm_up()
            if warm_workspace:
                from core.engine import warm_workspace_op
                from core.settings import Settings

                try:
                    warmed_ws[warm_workspace] = round(warm_workspace_op(warm_workspace, Settings.load(),
                                                                        cancel=lambda: False), 3)
                except Exception as exc:  # noqa: BLE001 - the question that meets it reports it
                    log.info("workspace %r not read ahead: %s", warm_workspace, exc)
        finally:
            current = read_state()
            if current is not None and current.pid == os.getpid():  # still ours (not stopped meanwhile)
                try:
                    _write_state(port, authkey, idle_s, ready=True, warmed=warmed_ws)
                except OSError:
                    pass
            with lock:
                state["last"] = time.monotonic()  # idle counts from the end of the warm-up
            warmed.set()

    def finish() -> None:
        _remove_state(os.getpid())
        os._exit(0)  # daemon call threads end with the process

    def watch_idle() -> None:
        while True:
            time.sleep(min(5.0, max(0.2, idle_s / 4)))
            with lock:
                idle = warmed.is_set() and state["active"] == 0 and time.monotonic() - state["last"] > idle_s
            if idle:
                finish()

    def handle(conn: Connection) -> None:
        try:
            first = conn.recv()
            if first[0] == "stop_server":
                finish()
            if not warmed.is_set() and first[0] == "call":
                conn.send((first[1], "progress", ProgressEvent(stage=STARTING_STAGE,
                                                               message="Waiting for the engine to load the search libraries…")))
            warmed.wait()
            _serve(_FirstAgain(conn, first), False)  # the engine's own loop: calls, progress, cancellation
        except (EOFError, OSError):
            pass
        finally:
            with lock:
                state["active"] -= 1
                state["last"] = time.monotonic()

    threading.Thread(target=warm, name="verbatim-warm-up", daemon=True).start()
    threading.Thread(target=watch_idle, name="verbatim-idle", daemon=True).start()
    while True:
        try:
            conn = listener.accept()
        except Exception as exc:  # noqa: BLE001 - a failed handshake (wrong key) must not stop the server
            log.info("connection refused: %s", exc)
            continue
        with lock:
            state["active"] += 1
            state["last"] = time.monotonic()
        threading.Thread(target=handle, args=(conn,), name="verbatim-client", daemon=True).start()


def share_engine_op(*, cancel=lambda: False) -> bool:
    """Register the engine process this runs in as this data folder's warm engine, so ``verbatim ask``
    answers there too; True when registered. Run inside the window's engine (``engine.call``): the
    window's libraries, embedding model and read workspaces then serve the command line as well
    (issue #24: "an engine the window … left running"). Never raises.

    Not registered (False) when the warm engine is off (:func:`idle_seconds` is 0), or another live
    engine already serves the data folder. Unlike :func:`serve`, the process never stops for being
    idle (the window owns its lifetime): a ``stop_server`` request only unregisters it, and the state
    file is removed when the process exits (``atexit``; a killed process leaves a stale file, which
    the next ``ask`` removes). Connections are served as :func:`serve` serves them
    (:func:`core.engine._serve`, one thread each); the engine's own warm-up is done by then, since
    :func:`core.engine._serve` runs a call only after it.
    """
    import atexit

    from core.engine import _serve

    if idle_seconds() <= 0:
        return False
    existing = read_state()
    if existing is not None and existing.pid != os.getpid() and _pid_alive(existing.pid):
        return False
    try:
        authkey = secrets.token_bytes(32)
        listener = Listener((_LOOPBACK, 0), family="AF_INET", authkey=authkey)
        _write_state(listener.address[1], authkey, 0.0, ready=True, shared=True)
    except OSError as exc:
        log.info("the engine could not be shared with the command line: %s", exc)
        return False
    pid = os.getpid()
    atexit.register(_remove_state, pid)

    def handle(conn: Connection) -> None:
        try:
            first = conn.recv()
            if first[0] == "stop_server":  # tests and benchmarks: stop sharing, keep the window's engine
                _remove_state(pid)
                listener.close()
                return
            _serve(_FirstAgain(conn, first), False)
        except (EOFError, OSError):
            pass

    def accept() -> None:
        while True:
            try:
                conn = listener.accept()
            except OSError:
                return  # the listener was closed (unregistered)
            except Exception as exc:  # noqa: BLE001 - a failed handshake (wrong key) must not stop sharing
                log.info("connection refused: %s", exc)
                continue
            threading.Thread(target=handle, args=(conn,), name="verbatim-cli-client", daemon=True).start()

    threading.Thread(target=accept, name="verbatim-cli-listener", daemon=True).start()
    return True


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - the server's entry point
    """``python -m core.engine_server [--idle SECONDS]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m core.engine_server")
    parser.add_argument("--idle", type=float, default=idle_seconds(), help="seconds without a question before stopping")
    parser.add_argument("--warm-workspace", help="a workspace to read ahead once the libraries are loaded")
    args = parser.parse_args(argv)
    return serve(args.idle or DEFAULT_IDLE_S, warm_workspace=args.warm_workspace)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
