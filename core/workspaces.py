"""``workspaces.toml``: named workspaces, their folders, and per-document status.

Format (the lab's, ``../shared/eval/lab/workspaces.toml``)::

    [workspaces.norte]
    folders = ["public", "norte"]          # relative to the base folder, or absolute

    [workspaces.norte.documents."norte/vacaciones-2023.md"]
    status = "superseded"                  # active | superseded | quarantined
    reason = "replaced by vacaciones-2025" # optional

A document key matches the document whose ``doc_id`` ends with it (DESIGN.md:
doc ids are the folder's name joined with the path inside it). Relative folders
are resolved against the file's own folder; when none of them exists there but
they all exist under ``corpus/`` beside the file (the lab's layout: "Folders are
relative to corpus/"), that folder is the base. Read with the standard
library's ``tomllib``, written with ``tomli-w``, validated with pydantic.
Each workspace is indexed into its own store (:class:`core.store.Workspace`),
so no query can meet another workspace's chunks.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.errors import CoreError
from core.settings import Settings
from core.store import Workspace
from core.types import IndexReport, ProgressEvent


class DocumentStatus(BaseModel):
    """Status the user set for one document."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["active", "superseded", "quarantined"]
    reason: str = ""


class WorkspaceSpec(BaseModel):
    """One workspace: its folders and the statuses of some of its documents."""

    model_config = ConfigDict(extra="forbid")

    folders: list[str] = Field(min_length=1)
    documents: dict[str, DocumentStatus] = Field(default_factory=dict)


class WorkspacesFile(BaseModel):
    """The whole file. ``base`` (not stored) is the folder relative folders resolve against."""

    model_config = ConfigDict(extra="forbid")

    workspaces: dict[str, WorkspaceSpec]

    @field_validator("workspaces")
    @classmethod
    def _names(cls, value: dict[str, WorkspaceSpec]) -> dict[str, WorkspaceSpec]:
        for name in value:
            if not name or any(c in name for c in "/\\:") or name in {".", ".."}:
                raise ValueError(f"invalid workspace name {name!r} (no '/', '\\', ':')")
        return value


class WorkspacesConfig(BaseModel):
    """A loaded ``workspaces.toml`` with the folder its relative paths resolve against."""

    path: Path
    base: Path
    spec: WorkspacesFile

    def folders(self, name: str) -> list[Path]:
        """Absolute folders of workspace ``name``.

        Raises:
            CoreError: unknown workspace (names the file).
        """
        if name not in self.spec.workspaces:
            raise CoreError(f"{self.path}: no workspace {name!r} (has: {', '.join(self.spec.workspaces)})")
        return [(self.base / f).resolve() for f in self.spec.workspaces[name].folders]


def load_workspaces(path: str | Path, base: str | Path | None = None) -> WorkspacesConfig:
    """Read and validate a ``workspaces.toml``.

    Args:
        path: the file.
        base: folder for relative ``folders``; default: the file's folder, or its
            ``corpus/`` sub-folder when only there do the folders exist.

    Raises:
        CoreError: unreadable file, TOML syntax error, or invalid content; the
            message names the file (and, for content, the field).
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CoreError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CoreError(f"{path}: not valid TOML ({exc})") from exc
    try:
        spec = WorkspacesFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CoreError(f"{path}: invalid workspaces file: {problems}") from exc
    if base is None:
        base = path.parent
        rel = [f for ws in spec.workspaces.values() for f in ws.folders if not os.path.isabs(f)]
        corpus = path.parent / "corpus"
        if rel and not any((base / f).is_dir() for f in rel) and all((corpus / f).is_dir() for f in rel):
            base = corpus
    return WorkspacesConfig(path=path, base=Path(base), spec=spec)


def save_workspaces(spec: WorkspacesFile, path: str | Path) -> Path:
    """Write ``spec`` as TOML (atomically: temporary file, then rename); returns the path."""
    path = Path(path)
    data = spec.model_dump(exclude_defaults=False)
    for ws in data["workspaces"].values():
        for doc in ws["documents"].values():
            if not doc["reason"]:
                del doc["reason"]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(tomli_w.dumps(data).encode("utf-8"))
    os.replace(tmp, path)
    return path


def apply_statuses(workspace: Workspace, spec: WorkspaceSpec) -> list[str]:
    """Set the declared statuses in ``workspace``'s store.

    Returns:
        The document keys that matched no indexed document (for the caller to report).
    """
    docs = [d["doc_id"] for d in workspace.documents()]
    unmatched: list[str] = []
    for key, declared in spec.documents.items():
        hits = [d for d in docs if d == key or d.endswith("/" + key.lstrip("/"))]
        if not hits:
            unmatched.append(key)
        for doc_id in hits:
            workspace.set_status(doc_id, declared.status, declared.reason)
    return unmatched


def index_workspace(
    config: WorkspacesConfig,
    name: str,
    settings: Settings | None = None,
    root: Path | None = None,
    on_progress: Callable[[ProgressEvent], None] | None = None,
) -> tuple[Workspace, IndexReport, list[str]]:
    """Index workspace ``name`` of ``config`` into its own store and apply its statuses.

    Args:
        root: folder holding the workspace stores (default: the user's data folder).

    Returns:
        ``(workspace, report, unmatched document keys)``.

    Raises:
        CoreError: unknown workspace; IndexError_ for a missing folder.
    """
    from core.pipeline import index_folders, run

    folders = config.folders(name)
    ws = Workspace(name, settings, root=root)
    report = run(index_folders(ws, folders), on_progress)
    unmatched = apply_statuses(ws, config.spec.workspaces[name])
    return ws, report, unmatched
