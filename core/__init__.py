"""Verbatim's headless core: ingest, index, retrieve, generate, verify.

Importing ``core`` first switches off hub downloads and telemetry
(:mod:`core.offline`) and caps glibc's malloc arenas (:mod:`core.memory`). The public API is re-exported here.
"""

from core import offline as _offline  # noqa: F401  (must run before any ML import)
from core.memory import limit_malloc_arenas as _limit_malloc_arenas

_limit_malloc_arenas()  # before the libraries' threads allocate (core/memory.py)
from core.errors import (
    Cancelled,
    CoreError,
    IndexError_,
    IngestError,
    ModelUnavailableError,
    StructuredOutputError,
)
from core.settings import Settings
from core.types import NO_EVIDENCE, Answer, Chunk, Citation, IndexReport, ModelAnswer, ProgressEvent

__version__ = "0.1.0"

__all__ = [
    "NO_EVIDENCE",
    "Answer",
    "Cancelled",
    "Chunk",
    "Citation",
    "CoreError",
    "IndexError_",
    "IndexReport",
    "IngestError",
    "ModelAnswer",
    "ModelUnavailableError",
    "ProgressEvent",
    "Settings",
    "StructuredOutputError",
    "__version__",
]
