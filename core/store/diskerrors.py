"""Storage faults said in words: a full disk, a read-only data folder, a damaged part of the index.

A write that fails (``OSError`` from Python's own files, ``sqlite3.OperationalError``
from the manifest, a ``RuntimeError``/``OSError`` from LanceDB's Rust code carrying the
OS error in its text) reaches the user as one :class:`core.errors.IndexError_` that
says what happened and what survives: the commit protocol (:mod:`core.store.commit`)
has already put the index back to its last commit, so the workspace answers as
before the run, and the next ``verbatim index`` goes on from there.

Recognised by ``errno`` where Python has it, by SQLite's result code
(``sqlite_errorcode``, Python ≥ 3.11: ``SQLITE_FULL`` 13, ``SQLITE_READONLY`` 8,
``SQLITE_CORRUPT`` 11, ``SQLITE_NOTADB`` 26) and, for LanceDB, by the Rust
``std::io::Error`` text (``No space left on device (os error 28)``).
"""

from __future__ import annotations

import errno
import re
import shutil
import sqlite3
from pathlib import Path

from core.errors import DamagedIndexError, IndexError_

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}
_SQLITE_FULL, _SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_NOTADB, _SQLITE_IOERR = 13, 8, 11, 26, 10
#: Free bytes under which a write error that does not say why (SQLite's I/O error, a read-only
#: connection opened because the disk was full) is taken for a full disk: SQLite's WAL index alone
#: needs 32 KiB, a LanceDB version several times that.
NEARLY_FULL_BYTES = 1 << 20
_OS_ERROR_IN_TEXT = re.compile(r"os error (\d+)|No space left on device|disk is full|Read-only file system|readonly database|Permission denied")


def _errno_of(exc: BaseException) -> int | None:
    """The OS error number an exception carries (its own, its causes', or in LanceDB's text)."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, OSError) and exc.errno is not None:
            return exc.errno
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            primary = code & 0xFF
            if primary == _SQLITE_FULL:
                return errno.ENOSPC
            if primary == _SQLITE_READONLY:
                return errno.EROFS
            if primary == _SQLITE_IOERR:
                return errno.EIO
        m = _OS_ERROR_IN_TEXT.search(str(exc))
        if m:
            if m.group(1):
                return int(m.group(1))
            text = m.group(0)
            if text in ("No space left on device", "disk is full"):
                return errno.ENOSPC
            return errno.EACCES if text == "Permission denied" else errno.EROFS
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return None


def disk_nearly_full(folder: str | Path) -> bool:
    """Whether the file system holding ``folder`` (or its nearest existing parent) has less than
    :data:`NEARLY_FULL_BYTES` free."""
    path = Path(folder)
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return shutil.disk_usage(path).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def storage_error(workspace: str, folder: str, exc: BaseException) -> IndexError_ | None:
    """The :class:`IndexError_` to show for a failed write of workspace ``workspace`` (stored in
    ``folder``), or ``None`` when ``exc`` is not a storage fault (then it is raised as it is).

    Disk full (``ENOSPC``, ``EDQUOT``, ``SQLITE_FULL``) and read-only or forbidden data
    folder (``EROFS``, ``EACCES``, ``EPERM``, ``SQLITE_READONLY``) are recognised.
    """
    if isinstance(exc, IndexError_):
        return None
    code = _errno_of(exc)
    if code in _READ_ONLY | {errno.EIO} and disk_nearly_full(folder):
        code = errno.ENOSPC
    if code in _FULL:
        return IndexError_(
            f"workspace '{workspace}': the disk holding the index is full ({folder}). The index keeps its last "
            "commit: questions are answered from the documents committed before this run. Free some space and "
            "run `verbatim index` again; it goes on where this run stopped.")
    if code in _READ_ONLY:
        return IndexError_(
            f"workspace '{workspace}': the index cannot be written, the data folder is read-only or not "
            f"writable ({folder}: {exc}). Questions are still answered from its last commit. Make the folder "
            "writable (or point VERBATIM_HOME at a writable one) and run `verbatim index` again.")
    return None


def damaged_manifest(workspace: str, path: str, exc: sqlite3.Error) -> DamagedIndexError | None:
    """A :class:`DamagedIndexError` naming the manifest when SQLite says the file is damaged or not a
    database (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``), else ``None``."""
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc)
    if (code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)) or "malformed" in text \
            or "not a database" in text:
        return DamagedIndexError(workspace, "manifest", path, text)
    return None
