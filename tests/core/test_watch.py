"""Folder watching with the real watchdog observer: bursts become one debounced batch."""

from __future__ import annotations

import shutil
import time

import pytest

from core.pipeline import index_folders, run
from core.store import Workspace
from core.watch import FolderWatcher


def test_burst_of_writes_is_one_batch_of_supported_paths(tmp_path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "old.txt").write_text("old\n", encoding="utf-8")
    with FolderWatcher([folder], quiet_s=0.5, max_wait_s=20) as watcher:
        assert watcher.changes(timeout=0.2) is None  # nothing happened yet
        target = folder / "sub" / "contract.txt"
        for n in range(5):
            target.write_text(f"version {n}\n", encoding="utf-8")
            time.sleep(0.05)
        (folder / "plano.dwg").write_bytes(b"AC1032")  # not a document type: ignored (images are read since #23)
        (folder / "contrato.pdf.crdownload").write_bytes(b"%PDF-")  # a partial download: ignored
        (folder / ".hidden.txt").write_text("x", encoding="utf-8")  # hidden: ignored
        (folder / "old.txt").rename(folder / "renamed.txt")
        batch = watcher.changes(timeout=30)
        assert batch == {target, folder / "old.txt", folder / "renamed.txt"}
        assert watcher.changes(timeout=1.0) is None  # the burst produced exactly one batch
        shutil.rmtree(folder / "sub")
        assert folder / "sub" in (watcher.changes(timeout=30) or set())
    assert watcher.changes(timeout=0) is None  # stopped


def test_missing_folder_is_an_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="nope"):
        FolderWatcher([tmp_path / "nope"]).start()


def test_a_batch_drives_an_incremental_reindex(tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("The deposit is two months of rent.\n", encoding="utf-8")
    ws = Workspace("watched")
    run(index_folders(ws, [folder]))
    with FolderWatcher(ws.folders(), quiet_s=0.3) as watcher:
        (folder / "b.txt").write_text("Pets are not allowed in the flat.\n", encoding="utf-8")
        assert watcher.changes(timeout=30) == {folder.resolve() / "b.txt"}
        report = run(index_folders(ws, ws.folders()))
    assert (report.documents, report.unchanged) == (1, 1)
    assert "docs/b.txt" in {d["doc_id"] for d in ws.documents()}
