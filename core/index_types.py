"""The report of an indexing run: what was indexed, what failed and why, what is left partial.

Re-exported by :mod:`core.types` (split out of it by concern: these models depend on nothing but
pydantic, and the answer contracts there are long enough on their own).
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class FileError(BaseModel):
    """A file the indexer could not read, with the reason in plain words."""

    path: str
    reason: str
    page: int | None = Field(None, description="1-based page, when the failure is page-specific.")


class PartialDocument(BaseModel):
    """A document committed in parts whose last part is not committed yet (a stopped run).

    Its ``committed`` first chunks (of ``total``) are searchable; the next run over its
    folder goes on from there when the file is unchanged, else starts it over.
    """

    doc_id: str
    path: str
    committed: int = Field(description="Chunks committed (its first ones, in document order).")
    total: int = Field(description="Chunks of the whole document.")

    def text(self) -> str:
        """``partially indexed: <doc id> (N of M chunks)``, as the index report prints it."""
        return f"partially indexed: {self.doc_id} ({self.committed} of {self.total} chunks)"


class IndexReport(BaseModel):
    """Summary of one indexing run."""

    workspace: str
    folders: list[str]
    documents: int = Field(0, description="Documents indexed or re-indexed in this run.")
    unchanged: int = Field(0, description="Documents skipped because their content did not change.")
    removed: int = Field(0, description="Documents removed because their file disappeared.")
    renamed: int = Field(0, description="Documents moved or renamed with unchanged content: chunks kept, no embedding.")
    pages: int = 0
    chunks: int = Field(0, description="Chunks embedded in this run.")
    total_chunks: int = Field(0, description="Chunks in the workspace after the run.")
    failures: list[FileError] = Field(default_factory=list)
    not_read: list[FileError] = Field(
        default_factory=list, description="Files in the folders left unread on purpose, with the reason: partial "
        "downloads, Office temporary and lock files, formats that are not read (core.ingest.not_read_reason)."
    )
    partial: list[PartialDocument] = Field(
        default_factory=list, description="Documents of the folders still partially indexed after the run (a large "
        "file committed in parts and stopped before its end); the next run goes on from there."
    )
    resumed: int = Field(0, description="Documents whose indexing went on from the chunks a stopped run had committed.")
    seconds: float = 0.0
    cancelled: bool = False
