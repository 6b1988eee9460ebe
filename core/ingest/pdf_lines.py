"""One extracted PDF text line (:class:`Line`): what the layout (:mod:`core.ingest.pdf_layout`) and the
table rows (:mod:`core.ingest.pdf_tables`) both work on, on a floor below both (no import cycle)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Line:
    """One extracted text line: its box (unrotated page space), MuPDF block order and characters."""

    bbox: tuple[float, float, float, float]
    block: int
    seq: int
    chars: list[tuple[str, tuple[float, float, float, float]]]
    size: float

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]
