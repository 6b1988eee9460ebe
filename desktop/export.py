"""Exporting a conversation: where the save dialog opens, and writing Markdown or PDF.

The Markdown itself is :func:`desktop.render_markdown.conversation_markdown` (dated, with the
workspace, each question, its verification status and every citation's document,
page and page label); this module only places and writes it.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def documents_folder() -> Path:
    """The user's documents folder (``QStandardPaths.DocumentsLocation``), else the home folder.

    A save dialog opened with a bare file name starts in the process's current directory
    (issue #24: the repository, for a user who launched from a clone).
    """
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(docs) if docs else Path.home()


def default_export_path(workspace: str | None, suffix: str) -> str:
    """``<documents>/<workspace>.<suffix>`` for the save dialog; characters a file name cannot
    hold (``/\\:*?"<>|``) become ``_``."""
    stem = re.sub(r'[\\/:*?"<>|]+', "_", workspace or "verbatim").strip() or "verbatim"
    return str(documents_folder() / f"{stem}.{suffix}")


def ask_export_path(parent, title: str, workspace: str | None, suffix: str) -> str:
    """The save dialog for an export (``suffix`` ``md`` or ``pdf``), opened at
    :func:`default_export_path`; the chosen path with the suffix added if missing, '' if cancelled."""
    from PySide6.QtWidgets import QFileDialog

    filters = "PDF (*.pdf)" if suffix == "pdf" else "Markdown (*.md)"
    path, _ = QFileDialog.getSaveFileName(parent, title, default_export_path(workspace, suffix), filters)
    if path and not path.lower().endswith("." + suffix):
        path += "." + suffix
    return path


def export_job(path: str, markdown: str, title: str):
    """A callable for a pool thread that writes ``markdown`` at ``path``: a PDF when it ends in
    ``.pdf`` (:func:`export_pdf`), else the Markdown text (:func:`write_text`); returns ``path``."""
    if path.lower().endswith(".pdf"):
        return lambda: export_pdf(path, markdown, title)
    return lambda: write_text(path, markdown)


def export_pdf(path: str, markdown: str, title: str = "Verbatim") -> str:
    """Write ``markdown`` as a PDF at ``path`` (A4) with QTextDocument + QPdfWriter; pool-thread safe.

    QTextDocument and QPdfWriter are not widgets, so Qt allows them outside the GUI thread.
    Returns ``path``.
    """
    from PySide6.QtGui import QPageSize, QPdfWriter, QTextDocument

    doc = QTextDocument()
    doc.setMarkdown(markdown)
    writer = QPdfWriter(path)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setResolution(96)
    writer.setTitle(title)
    writer.setCreator("Verbatim")
    doc.print_(writer)
    return path


def write_text(path: str, text: str) -> str:
    """Write ``text`` (UTF-8) at ``path``; returns ``path``."""
    Path(path).write_text(text, encoding="utf-8")
    return path
