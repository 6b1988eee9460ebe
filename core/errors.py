"""Exception tree of Verbatim's core.

::

    CoreError
    ├── IngestError            a file could not be read (names the file and page)
    ├── IndexError_            the on-disk index could not be written or opened
    │   └── IndexMismatchError the index was built with other settings (embedding model,
    │                          chunking, schema): it must be rebuilt, never mixed
    ├── ModelUnavailableError  no generation backend answers (Ollama down, model not pulled,
    │                          GGUF file missing)
    ├── StructuredOutputError  the model's output did not validate against ModelAnswer
    └── EngineError            the engine process (indexing, answering) could not start or died

``Cancelled`` is deliberately *not* a ``CoreError``: cancelling is a user's choice,
not a failure, and the window's error presenter ignores it (as Anki does with
``Interrupted``).
"""

from __future__ import annotations


class CoreError(Exception):
    """Root of every error raised on purpose by ``core``."""


class IngestError(CoreError):
    """A file could not be parsed.

    Attributes:
        path: the file, as given to the ingester.
        page: 1-based page number where the failure happened, or ``None``.
        reason: a short plain-language reason ("encrypted", "not a PDF", ...).
    """

    def __init__(self, path: str, reason: str, page: int | None = None) -> None:
        self.path = str(path)
        self.reason = reason
        self.page = page
        where = f"{self.path} (page {page})" if page is not None else self.path
        super().__init__(f"{where}: {reason}")

    def __reduce__(self):
        # Rebuilt from its fields when pickled (the engine process sends errors to the window).
        return (type(self), (self.path, self.reason, self.page))


class IndexError_(CoreError):  # noqa: N801 - trailing underscore avoids shadowing the builtin
    """The workspace's on-disk index could not be opened or written."""


class WorkspaceNotFoundError(IndexError_):
    """Opening an existing workspace found no manifest (never created, deleted or renamed).

    Attributes:
        workspace: the workspace name.
    """

    def __init__(self, workspace: str, path: str) -> None:
        self.workspace = workspace
        self.path = path
        super().__init__(f"No workspace named {workspace!r} ({path}).")

    def __reduce__(self):
        return (type(self), (self.workspace, self.path))


class IndexMismatchError(IndexError_):
    """The workspace's index was built with other settings than the ones in use.

    Vectors from different embedding models (or chunks cut with different
    settings) must never be mixed, so the index cannot be opened until it is
    rebuilt (``verbatim index --rebuild``, or the window's rebuild prompt).

    Attributes:
        workspace: the workspace name.
        differences: ``{setting: (stored value, current value)}``.
    """

    def __init__(self, workspace: str, differences: dict[str, tuple[object, object]]) -> None:
        self.workspace = workspace
        self.differences = differences
        what = "; ".join(f"{k}: index has {old!r}, settings say {new!r}" for k, old, new in
                         ((k, *v) for k, v in sorted(differences.items())))
        super().__init__(
            f"workspace '{workspace}' was indexed with other settings ({what}). "
            f"Rebuild it with: verbatim index --rebuild --workspace {workspace}"
        )

    def __reduce__(self):
        return (type(self), (self.workspace, self.differences))


class ModelUnavailableError(CoreError):
    """No generation backend can answer; the message says what to do."""


class StructuredOutputError(CoreError):
    """The model's output was not valid JSON for ``ModelAnswer``.

    Attributes:
        raw: the text the model produced (possibly truncated).
    """

    def __init__(self, message: str, raw: str = "") -> None:
        self.raw = raw
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (str(self), self.raw))


class EngineError(CoreError):
    """The engine process (:mod:`core.engine`) failed: it could not start, or it stopped during a call.

    Raised to the caller of every call that was running when the process ended.
    The on-disk index is safe (every batch commit is atomic: ``tests/test_index_atomic.py``
    kills indexing at each commit point); the next call starts a new engine.
    """


class Cancelled(Exception):
    """Raised inside long operations when the user asked to stop."""


class WorkspaceBusyError(IndexError_):
    """Another process held the workspace's writer lock for longer than the writer would wait.

    Attributes:
        workspace: the workspace name.
        holder: who holds it, as the holder recorded it (``pid …, <program>, since hh:mm:ss``),
            or ``""`` when it recorded nothing.
    """

    def __init__(self, workspace: str, holder: str, waited_s: float) -> None:
        self.workspace, self.holder = workspace, holder
        who = f" ({holder})" if holder else ""
        super().__init__(
            f"workspace '{workspace}' is being written by another process{who}; gave up after {waited_s:.0f} s. "
            "Searches still answer from its last commit; index again when that process has finished.")

    def __reduce__(self):
        return (type(self), (self.workspace, self.holder, 0.0))


class DamagedIndexError(IndexError_):
    """A part of a workspace's index is damaged on disk (found on open or when read).

    Attributes:
        workspace: the workspace name.
        part: which part: ``"manifest"``, ``"bm25"`` (a keyword-index segment) or ``"vectors"``.
        path: the damaged file or folder.
    """

    def __init__(self, workspace: str, part: str, path: str, detail: str) -> None:
        self.workspace, self.part, self.path, self.detail = workspace, part, path, detail
        names = {"manifest": "the manifest (list of documents and chunks)", "bm25": "the keyword index",
                 "vectors": "the vector index"}
        super().__init__(
            f"workspace '{workspace}': {names.get(part, part)} is damaged ({path}: {detail}). "
            f"Nothing was deleted. Rebuild it with: verbatim index --rebuild --workspace {workspace}")

    def __reduce__(self):
        return (type(self), (self.workspace, self.part, self.path, self.detail))
