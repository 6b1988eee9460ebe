"""Workspace-level operations that sit beside :mod:`core.store`: validate, rename, delete, summarize.

A workspace lives in ``<data>/workspaces/<name>/`` (manifest, stores, history);
these functions act on that folder as a whole. They do not open the vector
store, so the window can call them (in a worker thread) on workspaces it has
not loaded.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import uuid
from pathlib import Path

from core.errors import IndexError_
from core.store import workspaces_root

_FORBIDDEN_CHARS = set('/\\:*?"<>|')


def validate_workspace_name(name: str) -> str:
    """Return ``name`` stripped, or raise if it cannot be a folder name on every OS.

    Raises:
        IndexError_: empty, ``.``/``..``, longer than 80 characters, or containing
            one of ``/ \\ : * ? " < > |`` or a control character.
    """
    clean = name.strip()
    if not clean or clean in {".", ".."}:
        raise IndexError_("A workspace needs a name.")
    if len(clean) > 80:
        raise IndexError_(f"Workspace name too long ({len(clean)} characters, at most 80).")
    bad = sorted({c for c in clean if c in _FORBIDDEN_CHARS or ord(c) < 32})
    if bad:
        shown = " ".join(repr(c) for c in bad)
        raise IndexError_(f"Workspace name {clean!r} contains characters a folder name cannot hold: {shown}")
    return clean


def workspace_dir(name: str) -> Path:
    """Folder of workspace ``name`` (not created)."""
    return workspaces_root() / name


def create_workspace(name: str) -> Path:
    """Create an empty workspace folder with its manifest; returns the folder.

    Writes the SQLite manifest only: no recovery (there is nothing to recover in a new
    workspace), so LanceDB is not loaded — the window calls this in its own process and
    lists the workspace at once, whatever its engine is doing (issue #16).

    Raises:
        IndexError_: invalid name, or a workspace with that name exists.
    """
    from core.store import Workspace

    clean = validate_workspace_name(name)
    if workspace_dir(clean).exists():
        raise IndexError_(f"A workspace named {clean!r} already exists.")
    return Workspace(clean, recover=False).dir


def rename_workspace(old: str, new: str) -> Path:
    """Rename workspace ``old`` to ``new`` by moving its folder; returns the new folder.

    Everything moves together (manifest, keyword and vector stores, history).
    The caller must have closed any open :class:`core.store.Workspace` on it.

    Raises:
        IndexError_: ``old`` does not exist, ``new`` is invalid or already exists,
            or the folder cannot be moved (the message names both folders).
    """
    clean = validate_workspace_name(new)
    src, dst = workspace_dir(old), workspace_dir(clean)
    if not (src / "manifest.sqlite").exists():
        raise IndexError_(f"No workspace named {old!r} ({src}).")
    if clean == old:
        return src
    # Case-only renames on case-insensitive file systems: dst "exists" as src itself.
    if dst.exists() and not (src.exists() and os.path.samefile(src, dst)):
        raise IndexError_(f"A workspace named {clean!r} already exists.")
    try:
        os.replace(src, dst)
    except OSError as exc:
        raise IndexError_(f"Could not rename {src} to {dst}: {exc.strerror or exc}") from exc
    return dst


def delete_workspace(name: str) -> None:
    """Remove workspace ``name`` and all its stores and history from disk.

    The folder is first moved out of the workspaces folder in one atomic rename
    (into ``<data>/trash/``), then removed: a reader racing the delete sees the
    workspace whole or not at all, and cannot leave files in a half-removed folder.

    Raises:
        IndexError_: the folder could not be moved or removed completely (names it).
    """
    path = workspace_dir(validate_workspace_name(name))
    if not path.exists():
        return
    trash = workspaces_root().parent / "trash"
    trash.mkdir(parents=True, exist_ok=True)
    doomed = trash / f"{name}-{uuid.uuid4().hex[:8]}"
    try:
        os.replace(path, doomed)
    except OSError as exc:
        raise IndexError_(f"Could not delete workspace {name!r} ({path}): {exc.strerror or exc}") from exc
    errors: list[str] = []
    shutil.rmtree(doomed, onerror=lambda _f, p, e: errors.append(f"{p}: {e[1]}"))
    if errors:
        raise IndexError_(f"Workspace {name!r} was deleted but some files could not be removed from {doomed}: "
                          + "; ".join(errors[:3]))


def last_indexed_at(name: str) -> float | None:
    """Unix time of the most recent document (re)indexed in ``name``, or ``None``.

    Read-only query of the manifest's ``documents.indexed_at``.
    """
    db_path = workspace_dir(name) / "manifest.sqlite"
    if not db_path.exists():
        return None
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute("SELECT MAX(indexed_at) FROM documents").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return row[0] if row and row[0] is not None else None


def remove_folder(workspace, folder: str) -> int:
    """Stop indexing ``folder`` in ``workspace``: remove its documents, chunks, vectors and failures.

    Args:
        workspace: an open :class:`core.store.Workspace`.
        folder: the folder exactly as :meth:`Workspace.folders` lists it.

    Returns:
        The number of documents removed.

    Raises:
        IndexError_: the folder is not part of the workspace.
    """
    import sqlite3 as _sqlite3

    if folder not in workspace.folders():
        raise IndexError_(f"{folder} is not a folder of workspace {workspace.name!r}.")
    # core.store has no public per-folder removal; this uses its own atomic commit
    # (vectors, then the manifest in one transaction) under its writer locks.
    with workspace._write_lock, workspace._writer(wait_s=30):
        conn = _sqlite3.connect(workspace.dir / "manifest.sqlite", timeout=30)
        try:
            doc_ids = [r[0] for r in conn.execute("SELECT doc_id FROM documents WHERE folder = ?", (folder,))]
        finally:
            conn.close()
        workspace._commit([], doc_ids)
        conn = _sqlite3.connect(workspace.dir / "manifest.sqlite", timeout=30)
        try:
            with conn:
                conn.execute("DELETE FROM failures WHERE folder = ?", (folder,))
                conn.execute("DELETE FROM folders WHERE path = ?", (folder,))
        finally:
            conn.close()
        workspace.rebuild_bm25()
    return len(doc_ids)
