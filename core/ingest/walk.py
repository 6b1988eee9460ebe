"""Discovery: the supported files under the added folders, never outside them (:func:`walk_folders`).

Split from :mod:`core.ingest.files` (which re-exports these names) so the floor of
the readers (:mod:`core.ingest.base`) needs nothing above it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.ingest.base import SUPPORTED_SUFFIXES, not_read_reason


# --- discovery: the files under the added folders, never outside them -------------------------

#: Reasons a link is not followed (the index report and the window name the link with one of these).
LINK_OUTSIDE = "not followed: link to outside the folder"
LINK_LOOP = "not followed: link loop (it points to a folder that contains it)"
LINK_BROKEN = "not followed: broken link (its target does not exist)"


@dataclass
class FolderWalk:
    """What :func:`walk_folders` found.

    Attributes:
        files: ``(path, root)`` of every supported file, in visiting order (each
            root's files sorted, a folder's files before its sub-folders); ``path``
            as reached under ``root`` (through a followed link it keeps the link's name).
        skipped: ``(link path, reason)`` of every link not followed (reasons
            :data:`LINK_OUTSIDE`, :data:`LINK_LOOP`, :data:`LINK_BROKEN`).
    """

    files: list[tuple[Path, Path]] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    #: ``(path, reason)`` of files left unread on purpose (:func:`core.ingest.base.not_read_reason`:
    #: partial downloads, Office temporary and lock files, formats no reader takes).
    not_read: list[tuple[Path, str]] = field(default_factory=list)
    #: (device, inode) of the folders and files already visited (so a walk can continue another).
    seen_dirs: set[tuple[int, int]] = field(default_factory=set, repr=False)
    seen_files: set[tuple[int, int]] = field(default_factory=set, repr=False)


def _within(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` (resolved) is one of ``folders`` (resolved) or lies inside one."""
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def _is_link(entry: os.DirEntry) -> bool:
    """A symbolic link, or (Windows, Python ≥ 3.12) a junction: both can lead out of the folder."""
    is_junction = getattr(entry, "is_junction", None)
    return entry.is_symlink() or bool(is_junction and is_junction())


def _hidden(name: str) -> bool:
    return name.startswith(".")


def walk_folders(
    roots: Sequence[Path], *, inside: Sequence[Path] = (), prune: Sequence[Path] = (), follow_links: bool = False,
    into: FolderWalk | None = None,
) -> FolderWalk:
    """The supported files under ``roots``, reading nothing outside them unless ``follow_links``.

    Folders are boundaries (issue #22, case B50): a symbolic link or junction whose
    target lies outside ``roots`` and ``inside`` is *not followed* and is named in
    :attr:`FolderWalk.skipped`; a link to a place inside them is not followed either,
    because that place is read at its own path (so a file is read once); a link to a
    folder containing it (a loop) and a link to nothing (broken) are named, never
    fatal. With ``follow_links`` an outside target is read as if it were under the
    link, each real folder and file once (by device and inode), so loops end.
    Hidden names (``.x``) and Office lock files (``~$x``) are skipped; a folder that
    cannot be listed is skipped silently, as ``os.walk`` does.

    Args:
        roots: folders to walk, resolved (no link in their path), in order; a folder or
            file already reached from an earlier root is not visited again.
        inside: further folders counted as inside (the workspace's other folders).
        prune: folders not to enter (owned by another root of the workspace).
        follow_links: follow links whose target lies outside (setting ``follow_links``).
        into: a walk to continue (its files, names and visited folders and files are kept
            and added to); a new one when ``None``.

    Returns:
        ``into`` or a new :class:`FolderWalk`.
    """
    bounds = [os.path.realpath(p) for p in [*roots, *inside]]
    pruned = {os.path.realpath(p) for p in prune}
    out = into if into is not None else FolderWalk()
    seen_dirs, seen_files = out.seen_dirs, out.seen_files
    for root in roots:
        root = Path(root)
        stack: list[Path] = [root]
        while stack:
            folder = stack.pop()
            try:
                st = os.stat(folder)
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in seen_dirs:
                continue
            seen_dirs.add((st.st_dev, st.st_ino))
            subdirs: list[Path] = []
            for entry in entries:
                if _hidden(entry.name):
                    reason = not_read_reason(entry.name)  # "" for system files; a LibreOffice lock is named
                    if reason and entry.is_file(follow_symlinks=False):
                        out.not_read.append((Path(entry.path), reason))
                    continue
                path = Path(entry.path)
                try:
                    if _is_link(entry):
                        target = os.path.realpath(entry.path)
                        if not os.path.exists(target):
                            out.skipped.append((path, LINK_BROKEN))
                            continue
                        is_dir = os.path.isdir(target)
                        if not is_dir and Path(entry.name).suffix.lower() not in SUPPORTED_SUFFIXES:
                            continue  # a link to a file no reader takes: nothing would be read anyway
                        if _within(target, bounds):
                            if is_dir and _within(os.path.realpath(folder), [target]):
                                out.skipped.append((path, LINK_LOOP))
                            continue  # else read once, at its own place
                        if not follow_links:
                            out.skipped.append((path, LINK_OUTSIDE))
                            continue
                        if is_dir:
                            subdirs.append(path)
                            continue
                        tst = os.stat(target)
                    elif entry.is_dir(follow_symlinks=False):
                        if os.path.realpath(entry.path) not in pruned:
                            subdirs.append(path)
                        continue
                    elif entry.is_file(follow_symlinks=False):
                        reason = not_read_reason(entry.name)
                        if reason is not None:
                            if reason:
                                out.not_read.append((path, reason))
                            continue
                        tst = None  # the inode comes with the folder listing on POSIX (no stat)
                    else:
                        continue  # sockets, fifos, devices
                except OSError:
                    continue
                key = (tst.st_dev, tst.st_ino) if tst is not None else (st.st_dev, entry.inode())
                if key in seen_files:
                    continue
                seen_files.add(key)
                out.files.append((path, root))
            stack.extend(reversed(subdirs))
    return out


def iter_files(folder: Path, not_read: list[tuple[Path, str]] | None = None) -> Iterator[Path]:
    """Supported files under ``folder``, recursively, in sorted order; links leading outside it, loops
    and broken links are not followed (:func:`walk_folders`, which also names them).

    Args:
        not_read: when given, every file that is not yielded and has a reason
            (:func:`not_read_reason`) is appended as ``(path, reason)``: partial downloads,
            Office temporary and lock files, formats that are not read.
    """
    walk = walk_folders([Path(folder).resolve()])
    if not_read is not None:
        not_read.extend(walk.not_read)
    for path, _root in walk.files:
        yield path
