"""The workspace index: settings fingerprint, rebuild, renamed files, manifest records (real stores)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import lancedb
import numpy as np
import pytest

from core.cli import main
from core.errors import IndexError_, IndexMismatchError
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import INDEX_SCHEMA_VERSION, Workspace, index_fingerprint
from tests.conftest import CORPORA

FIPS = CORPORA / "pdfs" / "NIST.FIPS.199.pdf"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(FIPS, docs / "fips199.pdf")
    (docs / "notes.txt").write_text("The lessee pays the rent within the first five days of each month.\n", encoding="utf-8")
    return docs


def _vectors(ws: Workspace) -> dict[str, np.ndarray]:
    table = lancedb.connect(ws.dir / "lance").open_table("chunks").to_arrow()
    return {i: np.array(v) for i, v in zip(table.column("id").to_pylist(), table.column("vector").to_pylist())}


def test_fingerprint_records_model_chunking_and_schema() -> None:
    fp = index_fingerprint(Settings(chunk_tokens=200))
    assert fp["schema_version"] == INDEX_SCHEMA_VERSION
    assert fp["embedding_model"] == "all-MiniLM-L6-v2"
    assert fp["chunking.chunk_tokens"] == 200 and fp["chunking.chunk_overlap_tokens"] == 48
    assert not any(k.startswith("chunking.") and "top_k" in k for k in fp)


def test_other_chunking_settings_raise_mismatch_until_reset(folder: Path) -> None:
    ws = Workspace("w", Settings())
    run(index_folders(ws, [folder]))
    assert ws.chunk_count() > 0
    with pytest.raises(IndexMismatchError) as err:
        Workspace("w", Settings(chunk_tokens=200))
    assert err.value.differences == {"chunking.chunk_tokens": (256, 200)}
    assert "verbatim index --rebuild --workspace w" in str(err.value)
    assert isinstance(err.value, IndexError_)
    # Same settings still open; nothing was touched by the refused open.
    assert Workspace("w", Settings()).chunk_count() == ws.chunk_count()

    fresh = Workspace.reset("w", Settings(chunk_tokens=200))
    assert fresh.chunk_count() == 0 and fresh.documents() == []
    assert fresh.folders() == [str(folder.resolve())]
    assert fresh.stored_chunk_ids() == {"manifest": [], "vectors": [], "bm25": []}
    report = run(index_folders(fresh, fresh.folders()))
    assert report.documents == 2
    assert fresh.fingerprint()["chunking.chunk_tokens"] == 200
    ids = fresh.stored_chunk_ids()
    assert ids["manifest"] == ids["vectors"] == ids["bm25"] != []


def test_other_embedding_model_raises_mismatch(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run(index_folders(Workspace("w"), [folder]))
    monkeypatch.setenv("VERBATIM_EMBEDDING_MODEL", "/models/multilingual-e5-small")
    with pytest.raises(IndexMismatchError) as err:
        Workspace("w")
    assert err.value.differences == {"embedding_model": ("all-MiniLM-L6-v2", "multilingual-e5-small")}


def test_index_written_before_fingerprints_asks_for_rebuild(folder: Path) -> None:
    ws = Workspace("old")
    run(index_folders(ws, [folder]))
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:  # what an index of schema 1 holds
        db.execute("DELETE FROM meta WHERE key = 'fingerprint'")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    with pytest.raises(IndexMismatchError, match="schema_version"):
        Workspace("old")


def test_cli_names_the_rebuild_command_and_rebuild_reindexes_recorded_folders(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    assert main(["index", str(folder), "-w", "cli", "-q"]) == 0
    monkeypatch.setenv("VERBATIM_CHUNK_TOKENS", "180")
    capsys.readouterr()
    assert main(["index", str(folder), "-w", "cli", "-q"]) == 1
    err = capsys.readouterr().err
    assert "indexed with other settings" in err and "verbatim index --rebuild --workspace cli" in err
    assert main(["ask", "When is the rent due?", "-w", "cli"]) == 1
    assert "--rebuild" in capsys.readouterr().err
    assert main(["index", "--rebuild", "-w", "cli", "-q"]) == 0
    out = capsys.readouterr().out
    assert "documents indexed: 2" in out
    assert Workspace("cli", Settings(chunk_tokens=180)).fingerprint()["chunking.chunk_tokens"] == 180


def test_moved_file_keeps_its_chunks_and_vectors_without_embedding(folder: Path) -> None:
    ws = Workspace("mv")
    run(index_folders(ws, [folder]))
    before = {c.removeprefix("docs/fips199.pdf"): v for c, v in _vectors(ws).items() if c.startswith("docs/fips199.pdf#")}
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:  # per-chunk rows another module may keep
        db.execute("CREATE TABLE chunk_notes (chunk_id TEXT PRIMARY KEY, note TEXT)")
        db.execute("INSERT INTO chunk_notes SELECT chunk_id, 'n' || ord FROM chunks")
    (folder / "archive").mkdir()
    shutil.move(folder / "fips199.pdf", folder / "archive" / "FIPS 199 (2004).pdf")
    report = run(index_folders(ws, [folder]))
    assert (report.renamed, report.documents, report.chunks, report.removed) == (1, 0, 0, 0)
    new_id = "docs/archive/FIPS 199 (2004).pdf"
    docs = {d["doc_id"]: d for d in ws.documents()}
    assert set(docs) == {new_id, "docs/notes.txt"}
    assert docs[new_id]["path"] == str(folder.resolve() / "archive" / "FIPS 199 (2004).pdf")
    assert docs[new_id]["chunks"] == len(before)
    after = {c.removeprefix(new_id): v for c, v in _vectors(ws).items() if c.startswith(new_id + "#")}
    assert after.keys() == before.keys() and all(np.array_equal(after[k], before[k]) for k in before)
    ids = ws.stored_chunk_ids()
    assert ids["manifest"] == ids["vectors"] == ids["bm25"]
    assert not any(c.startswith("docs/fips199.pdf#") for c in ids["manifest"])
    # The chunk moved with its text and offsets: it still reads from the right file.
    chunk = next(iter(ws.get_chunks([k for k in ids["manifest"] if k.startswith(new_id)]).values()))
    assert chunk.path == docs[new_id]["path"] and chunk.text
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        notes = {r[0] for r in db.execute("SELECT chunk_id FROM chunk_notes")}
    assert notes == set(ids["manifest"])  # moved with their chunks
    (folder / "notes.txt").unlink()
    run(index_folders(ws, [folder]))
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        assert not db.execute("SELECT 1 FROM chunk_notes WHERE chunk_id LIKE 'docs/notes.txt#%'").fetchall()
    # A second run sees nothing to do.
    again = run(index_folders(ws, [folder]))
    assert (again.unchanged, again.documents, again.renamed) == (1, 0, 0)


def test_manifest_records_path_size_mtime_sha_status_chunks_and_failures(folder: Path) -> None:
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7 not really")
    ws = Workspace("rec")
    run(index_folders(ws, [folder]))
    pdf = folder.resolve() / "fips199.pdf"
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        row = db.execute(
            "SELECT path, size, mtime, sha256, status FROM documents WHERE doc_id = 'docs/fips199.pdf'"
        ).fetchone()
        n_chunks = db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id = 'docs/fips199.pdf'").fetchone()[0]
    st = pdf.stat()
    assert row[:3] == (str(pdf), st.st_size, st.st_mtime)
    assert len(row[3]) == 64 and row[4] == "active" and n_chunks > 5
    assert [Path(f.path).name for f in ws.failures()] == ["broken.pdf"]


def test_a_file_back_as_indexed_loses_its_failure_and_other_failures_stay(folder: Path) -> None:
    # The run reads the recorded failures once (no manifest write per unchanged file);
    # this holds what that must keep: a file back to the bytes and mtime it was indexed
    # with is no longer listed as failing, while a file still broken is.
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7 not really")
    notes = folder / "notes.txt"
    ws = Workspace("fail")
    run(index_folders(ws, [folder]))
    st, good = notes.stat(), notes.read_bytes()
    notes.write_bytes(b"\xff\xfe\x00\xd8 not text")  # now unreadable as text
    run(index_folders(ws, [folder]))
    assert sorted(Path(f.path).name for f in ws.failures()) == ["broken.pdf", "notes.txt"]
    notes.write_bytes(good)
    os.utime(notes, ns=(st.st_atime_ns, st.st_mtime_ns))
    report = run(index_folders(ws, [folder]))
    assert report.unchanged == 2
    assert [Path(f.path).name for f in ws.failures()] == ["broken.pdf"]
    assert ws.bm25_search("lessee pays the rent", 3, set())


def test_a_parser_s_unexpected_error_fails_its_file_and_the_run_goes_on(folder: Path, monkeypatch) -> None:
    # A library bug cannot be produced on demand: the HTML parser is made to raise one.
    (folder / "page.html").write_text("<p>The lessor repairs the roof.</p>", encoding="utf-8")

    def broken(path, **_kwargs):  # the readers are called with data=None for a file on disk
        raise ValueError("unexpected structure")

    monkeypatch.setattr("core.ingest.html.parse_html", broken)
    ws = Workspace("bug")
    report = run(index_folders(ws, [folder]))
    assert [(Path(f.path).name, f.reason) for f in report.failures] == [
        ("page.html", "could not be read (ValueError: unexpected structure)")]
    assert report.documents == 2 and ws.bm25_search("lessee pays the rent", 3, set())


def test_documents_before_a_big_one_are_committed_before_it_embeds(tmp_path: Path) -> None:
    # Tester, session 3: a run killed inside a 5 MB file had kept none of the small files
    # indexed before it (they waited in the same batch until the big file was embedded).
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(5):
        (docs / f"a{i}.txt").write_text(f"Clause {i}. The tenant pays rent number {i} monthly.\n", encoding="utf-8")
    para = "The landlord shall maintain the roof, the walls and the common areas in good repair. "
    (docs / "z_big.txt").write_text("\n\n".join(f"{j}. " + para * 12 for j in range(60)), encoding="utf-8")
    ws = Workspace("big", Settings(index_commit_chunks=20))
    gen = index_folders(ws, [docs])
    for event in gen:
        if event.stage == "embed" and "z_big.txt" in event.message:
            gen.close()  # as a kill would: the big file's batch is never committed
            break
    else:
        pytest.fail("the big file was never embedded")
    reopened = Workspace("big", Settings(index_commit_chunks=20))
    assert sorted(d["doc_id"] for d in reopened.documents()) == [f"docs/a{i}.txt" for i in range(5)]
    assert reopened.chunk_count() == 5


def test_two_threads_creating_the_same_workspace_both_open_it() -> None:
    # The window's reader and indexer threads both open a new workspace (the sample's first
    # run): SQLite's "database is locked" / "duplicate column" came back as "the manifest is
    # damaged" in 12 of 30 tries before the schema check retried transient errors.
    import threading

    errors: list[str] = []
    for i in range(20):
        barrier = threading.Barrier(2)

        def open_it(name: str = f"race{i}") -> None:
            barrier.wait()
            try:
                Workspace(name, Settings())
            except Exception as exc:  # noqa: BLE001 - every failure is the finding
                errors.append(f"{type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=open_it) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
