"""The floor of :mod:`core.store`: what one commit writes (:class:`DocumentWrite`).

Imported by the manifest (rows), the profiles (derived rows) and the commit
protocol alike, and importing none of them, so no module of the store needs
another one above it (no import cycle, type-only imports included).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.types import Chunk


@dataclass
class DocumentWrite:
    """One document's new state, embedded but not yet committed.

    ``chunks[i]`` is embedded as ``vectors[i]`` (same length). ``renamed_from``
    set: the manifest rows and vectors of that document are moved to ``doc_id``
    instead of inserted. ``screened``: ``(status, reason)`` set by the quarantine
    screen in the same transaction, or ``None`` to keep the stored status.

    **Parts** (a file with more chunks than one commit batch, committed in parts
    so a stopped run keeps what it embedded): ``total`` is the document's chunk
    count and ``chunks`` are its chunks ``first … first + len(chunks) - 1``
    (0-based positions, the manifest's ``chunks.ord``). The part with
    ``first == 0`` replaces the document's earlier chunks; a later part appends
    to the chunks already committed. Until the part that reaches ``total`` is
    committed the manifest records the document as partially indexed (table
    ``partial_documents``: content hash, chunks committed, total).
    ``profile_chunks``: the document's chunks from the first to the end of this
    part, of which its profile (:mod:`core.store.profiles`) is made; ``None``
    for a whole document (then ``chunks``). ``total is None``: a whole document.
    """

    doc_id: str
    path: Path
    root: Path
    size: int
    mtime: float
    sha256: str
    kind: str
    lang: str
    pages: int
    chunks: list[Chunk] = field(default_factory=list)
    vectors: list[list[float]] = field(default_factory=list)
    renamed_from: str | None = None
    screened: tuple[str, str] | None = None
    first: int = 0
    total: int | None = None
    profile_chunks: list[Chunk] | None = None

    @property
    def completes(self) -> bool:
        """Whether the document is whole once this write is committed (a whole write, or its last part)."""
        return self.total is None or self.first + len(self.chunks) >= self.total
