"""Question history of one workspace, in SQLite inside the workspace's own folder.

``<data>/workspaces/<name>/history.sqlite`` holds one row per asked question:
the full :class:`~core.types.Answer` as JSON and, for every cited document, the
sha256 its manifest recorded when the answer was given. Reopening an entry
compares those hashes with the manifest's current ones: a citation whose
document changed (or was removed) since is *stale* — its quote was verified
against a text that no longer exists.

Deleting the workspace deletes its history with it; the user can also delete
one entry or all of them (:meth:`History.delete`, :meth:`History.clear`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import IndexError_
from core.types import Answer

_SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    asked_at REAL NOT NULL,
    question TEXT NOT NULL,
    status TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    doc_sha256_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

HISTORY_FILENAME = "history.sqlite"


@dataclass(frozen=True)
class HistoryEntry:
    """One asked question.

    Attributes:
        id: row id (stable; used by :meth:`History.delete`).
        asked_at: Unix time, seconds.
        answer: the answer exactly as shown then.
        doc_sha256: doc_id → sha256 of the cited documents at answer time.
    """

    id: int
    asked_at: float
    answer: Answer
    doc_sha256: dict[str, str] = field(default_factory=dict)

    @property
    def question(self) -> str:
        """The question asked."""
        return self.answer.question

    def cited_doc_ids(self) -> set[str]:
        """Documents cited by the answer's claims."""
        return {c.doc_id for claim in self.answer.claims for c in claim.citations}

    def stale_doc_ids(self, current: dict[str, str]) -> set[str]:
        """Cited documents whose sha256 differs in ``current`` (doc_id → sha256) or that are gone."""
        return {d for d in self.cited_doc_ids() if current.get(d) != self.doc_sha256.get(d)}


def manifest_sha256(workspace_dir: Path, doc_ids: set[str] | None = None) -> dict[str, str]:
    """doc_id → sha256 from the workspace manifest (read-only), optionally limited to ``doc_ids``."""
    db_path = Path(workspace_dir) / "manifest.sqlite"
    if not db_path.exists():
        return {}
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        rows = conn.execute("SELECT doc_id, sha256 FROM documents").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    return {d: s for d, s in rows if doc_ids is None or d in doc_ids}


class History:
    """The question history of the workspace stored in ``workspace_dir``.

    Args:
        workspace_dir: the workspace's folder (``Workspace.dir``); the file is
            created there on first write.

    Raises:
        IndexError_: the history file cannot be opened (names it).
    """

    def __init__(self, workspace_dir: Path) -> None:
        self.dir = Path(workspace_dir)
        self.path = self.dir / HISTORY_FILENAME

    @classmethod
    def for_workspace(cls, name: str) -> History:
        """History of workspace ``name`` under the app's data folder."""
        from core.store import workspaces_root

        return cls(workspaces_root() / name)

    @contextmanager
    def _db(self) -> Generator[sqlite3.Connection, None, None]:
        if not self.dir.exists():
            raise IndexError_(f"{self.dir}: the workspace folder does not exist")
        try:
            conn = sqlite3.connect(self.path, timeout=30)
            conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise IndexError_(f"{self.path}: cannot open the question history ({exc})") from exc
        try:
            with conn:
                yield conn
        finally:
            conn.close()

    def add(self, answer: Answer, doc_sha256: dict[str, str] | None = None, asked_at: float | None = None) -> int:
        """Store ``answer``; ``doc_sha256`` defaults to the manifest's hashes of its cited documents.

        Returns:
            The new entry's id.
        """
        if doc_sha256 is None:
            cited = {c.doc_id for claim in answer.claims for c in claim.citations}
            doc_sha256 = manifest_sha256(self.dir, cited)
        with self._db() as db:
            cur = db.execute(
                "INSERT INTO history (asked_at, question, status, answer_json, doc_sha256_json) VALUES (?,?,?,?,?)",
                (asked_at or time.time(), answer.question, answer.status, answer.model_dump_json(),
                 json.dumps(doc_sha256, sort_keys=True)),
            )
            return int(cur.lastrowid)

    def entries(self) -> list[HistoryEntry]:
        """Every entry, oldest first. Rows that no longer parse are skipped, not fatal."""
        if not self.path.exists():
            return []
        with self._db() as db:
            rows = db.execute("SELECT id, asked_at, answer_json, doc_sha256_json FROM history ORDER BY id").fetchall()
        out = []
        for rid, at, answer_json, hashes in rows:
            try:
                out.append(HistoryEntry(rid, at, Answer.model_validate_json(answer_json), json.loads(hashes)))
            except (ValueError, TypeError):
                continue  # written by an incompatible version; keep the rest readable
        return out

    def start_new_conversation(self) -> int:
        """Begin a new conversation: entries asked so far no longer give context to follow-ups.

        They stay in the history (and on screen); only :meth:`conversation` stops returning
        them. Used by ``verbatim ask --new`` and the window's "New conversation".

        Returns:
            The id after which the new conversation starts (0 when the history is empty).
        """
        with self._db() as db:
            last = db.execute("SELECT COALESCE(MAX(id), 0) FROM history").fetchone()[0]
            db.execute("INSERT OR REPLACE INTO meta VALUES ('conversation_after', ?)", (str(last),))
        return int(last)

    def conversation_start(self) -> int:
        """Id after which the current conversation starts (0: the whole history)."""
        if not self.path.exists():
            return 0
        with self._db() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'conversation_after'").fetchone()
        return int(row[0]) if row else 0

    def conversation(self) -> list[HistoryEntry]:
        """The entries of the current conversation (since the last :meth:`start_new_conversation`), oldest first."""
        start = self.conversation_start()
        return [e for e in self.entries() if e.id > start]

    def delete(self, entry_id: int) -> None:
        """Delete one entry (no error if it is gone)."""
        if self.path.exists():
            with self._db() as db:
                db.execute("DELETE FROM history WHERE id = ?", (entry_id,))

    def clear(self) -> None:
        """Delete every entry and compact the file so no deleted text lingers in it."""
        if self.path.exists():
            with self._db() as db:
                db.execute("DELETE FROM history")
            conn = sqlite3.connect(self.path)
            try:
                conn.execute("VACUUM")
            finally:
                conn.close()
