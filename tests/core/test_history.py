"""Question history: stored inside the workspace, reopened intact, stale when a cited document changes."""

from __future__ import annotations

import json
import os

import pytest

from core.errors import IndexError_, WorkspaceNotFoundError
from core.history import History, manifest_sha256
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace, list_workspaces, workspaces_root
from tests.conftest import whole_words
from core.types import Answer
from core.workspace_ops import (
    create_workspace,
    delete_workspace,
    last_indexed_at,
    rename_workspace,
)

TEXT = "The lease term is twelve months starting on the first of March 2024.\n" * 3


def _cite_first(chunks: dict[str, str]) -> str:
    cid, text = next(iter(chunks.items()))
    return json.dumps({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": "The lease lasts twelve months.",
                    "citations": [{"chunk_id": cid, "quote": whole_words(text, 0, 50)}]}],
    })


def test_history_roundtrip_and_stale(tmp_path, scripted, verbatim_home):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(TEXT, encoding="utf-8")
    ws = Workspace("matter")
    run(index_folders(ws, [docs]))
    answer = run(answer_question(ws, "How long is the lease?", Settings(), backend=scripted(_cite_first)))
    assert answer.status == "answered"

    history = History(ws.dir)
    assert history.entries() == []
    entry_id = history.add(answer)
    assert history.path.parent == ws.dir and str(verbatim_home) in str(history.path)
    [entry] = history.entries()
    assert entry.id == entry_id and entry.answer == answer
    assert entry.doc_sha256 == manifest_sha256(ws.dir, {"docs/lease.txt"})
    assert entry.stale_doc_ids(manifest_sha256(ws.dir)) == set()

    (docs / "lease.txt").write_text(TEXT.replace("twelve", "eighteen"), encoding="utf-8")
    os.utime(docs / "lease.txt", (1, 1))  # a different mtime, so the indexer re-reads it
    run(index_folders(ws, [docs]))
    [entry] = History(ws.dir).entries()
    assert entry.stale_doc_ids(manifest_sha256(ws.dir)) == {"docs/lease.txt"}
    assert last_indexed_at("matter") is not None

    second = history.add(answer)
    history.delete(entry_id)
    assert [e.id for e in history.entries()] == [second]
    history.clear()
    assert history.entries() == []
    assert b"twelve months" not in history.path.read_bytes()  # cleared text does not linger


def test_rename_and_delete_workspace(verbatim_home):
    create_workspace("alpha")
    History.for_workspace("alpha").add(Answer(question="q?", workspace="alpha", status="abstained"))
    with pytest.raises(IndexError_, match="already exists"):
        create_workspace("alpha")
    with pytest.raises(IndexError_, match="cannot hold"):
        rename_workspace("alpha", "a/b")
    with pytest.raises(IndexError_, match="No workspace"):
        rename_workspace("missing", "beta")
    create_workspace("gamma")
    with pytest.raises(IndexError_, match="already exists"):
        rename_workspace("alpha", "gamma")
    new_dir = rename_workspace("alpha", "beta")
    assert new_dir.name == "beta" and (new_dir / "manifest.sqlite").exists()
    assert [e.question for e in History.for_workspace("beta").entries()] == ["q?"]
    assert not (new_dir.parent / "alpha").exists()
    delete_workspace("beta")
    assert not new_dir.exists()
    assert not any((new_dir.parent.parent / "trash").iterdir())  # nothing left behind


def test_a_reader_never_brings_a_deleted_workspace_back(verbatim_home):
    # Regression (issue #6): the window's history read opened a workspace while it was
    # being deleted; SQLite re-created an empty manifest, the delete failed half-way
    # and the next read raised "no such table: meta".
    create_workspace("matter")
    ws = Workspace("matter", create=False)  # opens an existing workspace
    assert ws.chunk_count() == 0
    delete_workspace("matter")
    with pytest.raises(WorkspaceNotFoundError, match="matter"):
        Workspace("matter", create=False)
    with pytest.raises(IndexError_):  # the handle opened before the delete cannot re-create it
        ws.chunk_count()
    assert "matter" not in list_workspaces()
    assert not (workspaces_root() / "matter").exists()



def test_a_handle_opened_before_a_delete_never_recreates_the_folder(verbatim_home, tmp_path):
    # Regression (issue #6, flaky window test): a read that opened the workspace just before
    # the delete took the writer lock afterwards, and py-filelock re-created the folder.
    from core.pipeline import index_folders, run

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("The rent is due on the fifth day of each month.\n", encoding="utf-8")
    create_workspace("matter")
    ws = Workspace("matter", create=False)
    delete_workspace("matter")
    with pytest.raises(WorkspaceNotFoundError):
        run(index_folders(ws, [folder]))
    assert not (workspaces_root() / "matter").exists()
