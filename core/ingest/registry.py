"""The readers by file suffix — the dispatch table of :mod:`core.ingest` — on the package's floor.

A *reader* is ``reader(path, data, ocr, depth) -> ParsedDocument``: ``data`` the bytes of an
attachment (``None``: read the file at ``path``), ``ocr`` whether scanned pages may be OCRed,
``depth`` how deep inside other messages the document is. :mod:`core.ingest.files` registers
one reader per format (importing a format's module only when a file of that kind is read); a
reader of documents that carry others (e-mail, Outlook messages) parses each attachment through
:func:`parse_member` here. So no reader imports the dispatch or another format's reader to
read an attachment, and no module of the package imports one above it (no import cycle).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import ParsedDocument, not_read_reason

Reader = Callable[[Path, "bytes | None", bool, int], ParsedDocument]

_READERS: dict[str, Reader] = {}


def register_reader(suffixes: Iterable[str], reader: Reader) -> None:
    """Make ``reader`` the reader of files whose lower-cased suffix (``".pdf"``) is one of ``suffixes``."""
    for suffix in suffixes:
        _READERS[suffix.lower()] = reader


def read_document(path: Path, data: bytes | None, *, ocr: bool, depth: int = 0) -> ParsedDocument:
    """Parse ``path`` (or ``data``, an attachment's bytes, ``path`` its member path) with the reader of its suffix.

    ``sha256`` is left to the caller (:func:`parse_member`, ``core.ingest.parse_file``).

    Raises:
        IngestError: no reader takes the suffix (the reason says why, :func:`core.ingest.base.not_read_reason`),
            or the reader cannot read it.
    """
    suffix = path.suffix.lower()
    reader = _READERS.get(suffix)
    if reader is None:
        raise IngestError(str(path), not_read_reason(path.name) or f"unsupported file type '{suffix}'")
    return reader(path, data, ocr, depth)


def parse_member(path: Path, data: bytes, *, ocr: bool = False, depth: int = 0) -> ParsedDocument:
    """Parse a document given as bytes (an attachment), ``path`` being its member path; ``sha256`` of ``data``.

    Raises:
        IngestError: the bytes cannot be read as the type ``path``'s suffix names.
    """
    parsed = read_document(path, data, ocr=ocr, depth=depth)
    parsed.sha256 = hashlib.sha256(data).hexdigest()
    return parsed
