"""Who holds a workspace's writer lock: one writer at a time, and the one that waits is told who.

The lock itself is ``writer.lock`` (``filelock.FileLock``, :meth:`core.store.Workspace._writer`):
the window's engine, ``verbatim index`` and a Ray run's writer all take it before writing, so
two writers on one workspace are serialized; readers never take it (they read the last
commit). While it is held, ``writer.json`` beside it records the holder (process id,
program, host, start time in seconds since the epoch), written atomically and removed on
release; a stale file (its process gone) is never trusted without the lock being held.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from contextlib import suppress
from pathlib import Path

#: Seconds a writer waits for another to finish before giving up (WorkspaceBusyError).
WRITER_WAIT_S = 30.0

_HOLDER = "writer.json"


def _program() -> str:
    argv = [os.path.basename(sys.argv[0] or "python")] + sys.argv[1:2]
    return " ".join(a for a in argv if a)


def write_holder(folder: Path) -> None:
    """Record this process as the writer (called with the lock held; best effort: a read-only
    folder or a full disk must not stop the writer, whose own writes will say what is wrong)."""
    info = {"pid": os.getpid(), "program": _program(), "host": socket.gethostname(), "since": time.time()}
    tmp = folder / f".{_HOLDER}.{os.getpid()}"
    with suppress(OSError):
        tmp.write_text(json.dumps(info), encoding="utf-8")
        os.replace(tmp, folder / _HOLDER)


def clear_holder(folder: Path) -> None:
    """Remove the record (called before the lock is released)."""
    with suppress(OSError):
        os.remove(folder / _HOLDER)


def read_holder(folder: Path) -> str:
    """``"pid 1234, verbatim index, since 23:10:02"`` of the recorded writer, or ``""`` when none is recorded."""
    try:
        info = json.loads((folder / _HOLDER).read_text(encoding="utf-8"))
        since = time.strftime("%H:%M:%S", time.localtime(float(info["since"])))
        host = "" if info.get("host") == socket.gethostname() else f" on {info.get('host')}"
        return f"pid {int(info['pid'])}{host}, {info.get('program') or 'unknown program'}, since {since}"
    except (OSError, ValueError, KeyError, TypeError):
        return ""
