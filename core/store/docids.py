"""Document ids that cannot collide: one label per added folder, and the files each folder owns.

A document's id is ``<label of its folder>/<path inside the folder>`` (attachments:
``<id of the message> › <name>``; chunks: ``<doc id>#<n>``). The label used to be
the folder's name, so two added folders with the same name (``a/Contratos``,
``b/Contratos``) gave their ``Contrato.pdf`` one id, and one contract silently
replaced the other (issue #22, case B51). Now every folder of a workspace gets a
label of its own, stored in the manifest (``folders.label``) when the folder is
added and never changed afterwards, so ids stay stable:

* the folder's name when no other folder of the workspace has it (so every id of a
  workspace indexed before labels existed stays what it was);
* otherwise the name with as many parent folders as make it unique
  (``b/Contratos``); folders added together under one name are all qualified
  (``a/Contratos``, ``b/Contratos``), so the window and citations tell them apart;
* labels are compared case-insensitively (``casefold``), and no label is another's
  ``/``-prefix, so ``<label>/<path>`` is unique whatever the folders contain.

Labels are assigned in the order folders were added (the ``folders`` table's
``rowid``). An existing workspace whose folders collided keeps the first folder's
ids; the other folder's documents get new ids, and the next run re-keys the ones
whose bytes it still has (moved, no embedding: :mod:`core.store.indexing`).

A file is owned by the *earliest-added* folder that contains it: a folder added
twice (any spelling that is the same folder: ``os.path.samefile``) is one folder;
a folder inside another already added is covered by it (its files keep that
folder's ids and are read once). Links: :func:`core.ingest.walk.walk_folders`.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from core.ingest.walk import FolderWalk, walk_folders

#: Why a folder given to a run is not walked itself (the report names it with this reason).
COVERED = "already indexed as part of the folder {owner}: its files are read there, once"


@dataclass
class ScanPlan:
    """The files a run reads and what it names without reading.

    Attributes:
        files: ``(path, doc_id, owner folder)`` in visiting order.
        skipped: ``(path, reason)``: links not followed (``core.ingest.files.LINK_*``)
            and run folders covered by another folder (:data:`COVERED`).
        not_read: ``(path, reason)``: files left unread on purpose (partial downloads,
            temporary files, formats no reader takes; ``core.ingest.base.not_read_reason``).
    """

    files: list[tuple[Path, str, Path]] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    not_read: list[tuple[Path, str]] = field(default_factory=list)


def ensure_label_column(db: sqlite3.Connection) -> None:
    """Add ``folders.label`` to a manifest made before labels, and label its folders (idempotent).

    Existing folders are labelled in the order they were added; a name no earlier
    folder has keeps it, so their documents' ids do not change.
    """
    if "label" not in {r[1] for r in db.execute("PRAGMA table_info(folders)")}:
        db.execute("ALTER TABLE folders ADD COLUMN label TEXT")
    unlabelled = [r[0] for r in db.execute("SELECT path FROM folders WHERE label IS NULL ORDER BY rowid")]
    if unlabelled:
        taken = [r[0] for r in db.execute("SELECT label FROM folders WHERE label IS NOT NULL")]
        for path, label in zip(unlabelled, assign_labels(taken, unlabelled, qualify_shared=False)):
            db.execute("UPDATE folders SET label = ? WHERE path = ?", (label, path))


def _clashes(label: str, taken: list[str]) -> bool:
    a = label.casefold()
    return any(a == t or a.startswith(t + "/") or t.startswith(a + "/") for t in (x.casefold() for x in taken))


def assign_labels(taken: list[str], paths: list[str], *, qualify_shared: bool = True) -> list[str]:
    """Labels for folders ``paths`` (absolute, in the order added) beside the ``taken`` labels.

    Args:
        taken: labels of the workspace's folders already labelled.
        paths: the new folders.
        qualify_shared: folders of ``paths`` sharing a name (case-insensitively) all get
            a parent-qualified label (``a/Contratos``, ``b/Contratos``); False (labelling
            the folders of an existing workspace) keeps the first one's plain name.

    Returns:
        One label per path, none clashing (equal, or one a ``/``-prefix of the other,
        case-insensitively) with another or with ``taken``.
    """
    taken = list(taken)
    names = [Path(p).name.casefold() for p in paths]
    out: list[str] = []
    for i, path in enumerate(paths):
        parts = [p for p in Path(path).parts if p not in (Path(path).anchor, "")] or [Path(path).anchor.strip("\\/:") or "root"]
        first = 2 if qualify_shared and names.count(names[i]) > 1 and len(parts) > 1 else 1
        label = ""
        for k in range(first, len(parts) + 1):
            candidate = "/".join(parts[-k:])
            if not _clashes(candidate, taken):
                label = candidate
                break
        n = 2
        while not label or _clashes(label, taken):
            label = f"{parts[-1]} ({n})"
            n += 1
        taken.append(label)
        out.append(label)
    return out


def ranked_folders(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """``(path, label)`` of the workspace's folders in the order they were added."""
    return [(r[0], r[1]) for r in db.execute("SELECT path, label FROM folders ORDER BY rowid")]


def canonical_roots(known: list[str], roots: list[Path]) -> list[Path]:
    """``roots`` with each folder the workspace already has under another spelling replaced by its
    recorded path (``os.path.samefile``: a second path to the same folder, another letter case on a
    case-insensitive file system), duplicates dropped, order kept."""
    out: list[Path] = []
    for root in roots:
        same = next((Path(k) for k in known if k == str(root)), None)
        if same is None:
            for k in known:
                try:
                    if os.path.samefile(k, root):
                        same = Path(k)
                        break
                except OSError:
                    continue
        root = same or root
        if root not in out and not any(_same(root, o) for o in out):
            out.append(root)
    return out


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def register_folders(db: sqlite3.Connection, roots: list[Path]) -> list[Path]:
    """Add a run's folders to the manifest with their labels (inside the caller's transaction).

    Returns:
        The run's folders as recorded (:func:`canonical_roots`).
    """
    ensure_label_column(db)
    known = [p for p, _ in ranked_folders(db)]
    roots = canonical_roots(known, roots)
    new = [str(r) for r in roots if str(r) not in known]
    taken = [label for _, label in ranked_folders(db)]
    for path, label in zip(new, assign_labels(taken, new)):
        db.execute("INSERT INTO folders (path, label) VALUES (?, ?)", (path, label))
    return roots


def plan_labels(folders: list[tuple[str, str]], roots: list[Path]) -> tuple[list[tuple[str, str]], list[Path]]:
    """What :func:`register_folders` would record, without writing: ``(ranked folders, run folders)``.

    Args:
        folders: the manifest's :func:`ranked_folders` (``[]`` for a new workspace).
        roots: the run's folders, resolved.
    """
    known = [p for p, _ in folders]
    roots = canonical_roots(known, roots)
    new = [str(r) for r in roots if str(r) not in known]
    return folders + list(zip(new, assign_labels([lb for _, lb in folders], new))), roots


def _inside(path: str, folder: str) -> bool:
    return path != folder and path.startswith(folder.rstrip(os.sep) + os.sep)


def plan_scan(folders: list[tuple[str, str]], roots: list[Path], *, follow_links: bool = False) -> ScanPlan:
    """The files a run of ``roots`` reads, each with its document id and owner folder.

    Args:
        folders: every folder of the workspace, ``(path, label)`` in the order added
            (the run's folders included: :func:`register_folders` or :func:`plan_labels`).
        roots: the run's folders, as recorded.
        follow_links: follow links leading outside the workspace's folders (setting).

    Returns:
        A :class:`ScanPlan`: a run folder inside an earlier-added folder is not walked
        (named with :data:`COVERED`); inside a walked folder, the earlier-added folders
        it contains are not entered (their own runs read them).
    """
    rank = {p: i for i, (p, _) in enumerate(folders)}
    labels = dict(folders)
    plan = ScanPlan()
    walk = FolderWalk()
    for root in sorted(roots, key=lambda r: rank.get(str(r), len(rank))):
        r = str(root)
        owner = next((p for p, _ in folders[: rank.get(r, len(rank))] if _inside(r, p)), None)
        if owner is not None:
            plan.skipped.append((root, COVERED.format(owner=owner)))
            continue
        prune = [Path(p) for p, _ in folders[: rank.get(r, len(rank))] if _inside(p, r)]
        start = len(walk.files)
        walk_folders([root], inside=[Path(p) for p, _ in folders], prune=prune, follow_links=follow_links, into=walk)
        label = labels.get(r, root.name)
        for path, _ in walk.files[start:]:
            plan.files.append((path, f"{label}/{path.relative_to(root).as_posix()}", root))
    plan.skipped += walk.skipped
    plan.not_read += walk.not_read
    return plan


def read_ranked_folders(workspace_dir: str | Path) -> list[tuple[str, str]]:
    """The :func:`ranked_folders` of a workspace's manifest, read-only (``[]`` when it has none).

    A manifest written before labels existed is labelled in memory the way
    :func:`ensure_label_column` will label it.
    """
    db_path = Path(workspace_dir) / "manifest.sqlite"
    if not db_path.exists():
        return []
    conn = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        if "label" in {r[1] for r in conn.execute("PRAGMA table_info(folders)")}:
            rows = ranked_folders(conn)
        else:
            rows = [(r[0], None) for r in conn.execute("SELECT path FROM folders ORDER BY rowid")]
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    missing = [p for p, lb in rows if lb is None]
    fill = iter(assign_labels([lb for _, lb in rows if lb is not None], missing, qualify_shared=False))
    return [(p, lb if lb is not None else next(fill)) for p, lb in rows]
