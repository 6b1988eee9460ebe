"""Crash safety of indexing: a real ``python -m core index`` subprocess SIGKILLed at named commit steps.

The subprocess kills itself through the documented test hook
``VERBATIM_TEST_KILL_AT=<point>:<n>`` (``core.store._crash_point``). After each
kill the workspace must open, its three stores must hold the same chunk ids,
every document must be exactly as in a never-interrupted index of the folder
before *or* after the change (same chunk texts, same vectors: never old text
with new vectors), retrieval must answer, and a final run must end equal to a
never-interrupted index.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import lancedb
import numpy as np
import pymupdf
import pytest

from core.pipeline import index_folders, retrieve, run
from core.settings import Settings
from core.store import KILL_AT_ENV, Workspace
from core.types import Trace
from tests.conftest import CORPORA, REPO, data_home

PDFS = CORPORA / "pdfs"
WS = "crash"
COMMIT_EVERY = 1  # one commit per document, so a run has several commit points


def _subset(src: str, first: int, last: int, dest: Path) -> None:
    """A real PDF made of pages ``first..last`` (0-based, inclusive) of a corpus PDF."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with pymupdf.open(PDFS / src) as doc, pymupdf.open() as out:
        out.insert_pdf(doc, from_page=first, to_page=last)
        out.save(dest)


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """The test PDFs, made once: saving stamps ids and dates, so every copy must share these bytes."""
    src = tmp_path_factory.mktemp("sources")
    _subset("NIST.FIPS.199.pdf", 1, 2, src / "a_fips199.v1.pdf")
    _subset("NIST.FIPS.199.pdf", 3, 4, src / "a_fips199.v2.pdf")
    _subset("BOE-A-1978-31229-consolidado.pdf", 0, 1, src / "b_boe.pdf")
    _subset("NIST.CSWP.29.pdf", 1, 2, src / "c_cswp29.pdf")
    _subset("federal-register-2020-17221.pdf", 0, 0, src / "d_fedreg.pdf")
    return src


def _make_v1(src: Path, folder: Path) -> None:
    shutil.copy(src / "a_fips199.v1.pdf", folder / "a_fips199.pdf")
    for name in ("b_boe.pdf", "c_cswp29.pdf", "d_fedreg.pdf"):
        shutil.copy(src / name, folder / name)


def _make_v2(src: Path, folder: Path) -> None:
    """From v1: one file changed, one deleted, one moved (same bytes), one untouched."""
    shutil.copy(src / "a_fips199.v2.pdf", folder / "a_fips199.pdf")
    (folder / "b_boe.pdf").unlink()
    (folder / "moved").mkdir()
    shutil.move(folder / "d_fedreg.pdf", folder / "moved" / "fedreg.pdf")


def _settings() -> Settings:
    return Settings(index_commit_chunks=COMMIT_EVERY)


def _state(ws: Workspace) -> dict[str, tuple[str, list[tuple], dict[str, np.ndarray]]]:
    """doc_id → (sha256, chunk rows, chunk id → vector), read straight from SQLite and LanceDB."""
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        docs = dict(db.execute("SELECT doc_id, sha256 FROM documents").fetchall())
        rows = db.execute('SELECT doc_id, chunk_id, page, start, "end", text FROM chunks ORDER BY chunk_id').fetchall()
    vectors: dict[str, np.ndarray] = {}
    conn = lancedb.connect(ws.dir / "lance")
    if "chunks" in conn.list_tables().tables:
        table = conn.open_table("chunks").to_arrow()
        vectors = {i: np.array(v) for i, v in zip(table.column("id").to_pylist(), table.column("vector").to_pylist())}
    out = {}
    for doc_id, sha in docs.items():
        chunk_rows = [r[1:] for r in rows if r[0] == doc_id]
        out[doc_id] = (sha, chunk_rows, {r[0]: vectors[r[0]] for r in chunk_rows if r[0] in vectors})
    return out


def _same_doc(got, ref) -> bool:
    if got[0] != ref[0] or got[1] != ref[1] or set(got[2]) != set(ref[2]):
        return False
    return all(np.allclose(got[2][c], ref[2][c], atol=1e-4) for c in ref[2])


def _reference(tmp: Path, src: Path, make) -> dict:
    """A never-interrupted index, built in this process, of a folder made by ``make`` functions."""
    with data_home(tmp / "home"):
        folder = tmp / "docs"
        folder.mkdir(parents=True)
        for m in make:
            m(src, folder)
        ws = Workspace(WS, _settings())
        run(index_folders(ws, [folder]))
        return _state(ws)


def _index_subprocess(home: Path, folder: Path, kill_at: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERBATIM_")}
    env.update(
        VERBATIM_HOME=str(home),
        VERBATIM_INDEX_COMMIT_CHUNKS=str(COMMIT_EVERY),
        VERBATIM_EMBEDDING_MODEL=os.environ["VERBATIM_EMBEDDING_MODEL"],
    )
    if kill_at:
        env[KILL_AT_ENV] = kill_at
    return subprocess.run(
        [sys.executable, "-m", "core", "index", str(folder), "-w", WS, "-q"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )


def _check_recovered(home: Path, refs: list[dict]) -> dict:
    """Open the workspace as a user would and check the crash-safety invariants."""
    with data_home(home):
        ws = Workspace(WS, _settings())
        ids = ws.stored_chunk_ids()
        assert ids["manifest"] == ids["vectors"] == ids["bm25"]
        assert len(set(ids["manifest"])) == len(ids["manifest"])
        state = _state(ws)
        for doc_id, got in state.items():
            assert any(doc_id in ref and _same_doc(got, ref[doc_id]) for ref in refs), doc_id
        if state:
            found = retrieve(ws, "security categorization of federal information systems", Settings(), Trace())
            assert found and all(s.chunk.doc_id in state for s in found)
        return state


def test_sigkill_at_each_commit_step_leaves_a_consistent_index_and_the_next_run_resumes(tmp_path: Path, sources: Path) -> None:
    ref_old = _reference(tmp_path / "ref-old", sources, [_make_v1])
    ref_new = _reference(tmp_path / "ref-new", sources, [_make_v1, _make_v2])
    assert len(ref_old) == 4 and len(ref_new) == 3
    home = tmp_path / "home"
    folder = tmp_path / "work" / "docs"
    folder.mkdir(parents=True)
    _make_v1(sources, folder)

    def expect(state: dict, committed: dict) -> None:
        """The state is exactly the last commit: these documents, each as in its reference."""
        assert set(state) == set(committed)
        for doc_id, ref in committed.items():
            assert _same_doc(state[doc_id], ref), doc_id

    A, B, C, D, D2 = ("docs/a_fips199.pdf", "docs/b_boe.pdf", "docs/c_cswp29.pdf", "docs/d_fedreg.pdf",
                      "docs/moved/fedreg.pdf")
    # A moved file keeps its chunks and vectors (no re-embedding), so its expected state is the
    # old document's, re-keyed; a fresh index would embed the new file name in the context line.
    sha, rows, vecs = ref_old[D]
    rekey = lambda cid: D2 + cid[len(D):]  # noqa: E731
    ref_new[D2] = (sha, [(rekey(r[0]), *r[1:]) for r in rows], {rekey(c): v for c, v in vecs.items()})
    # One commit per chunk (COMMIT_EVERY = 1): a document of n chunks is committed in n parts
    # (core.store.indexing, "Large files in parts"), documents in path order; the moved file and the
    # deletion are the last commit. So the kills below count a document's chunks to fall between documents.
    a_old, b_old, a_new = len(ref_old[A][1]), len(ref_old[B][1]), len(ref_new[A][1])

    # v1, first batch: vectors written (the LanceDB table created), manifest never committed.
    proc = _index_subprocess(home, folder, "after_vectors:1")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    expect(_check_recovered(home, [ref_old]), {})

    # v1, second document committed, killed right after it: two documents kept.
    proc = _index_subprocess(home, folder, f"after_manifest:{a_old + b_old}")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    expect(_check_recovered(home, [ref_old]), {A: ref_old[A], B: ref_old[B]})

    # v1 resumes; killed once the new BM25 folder is written but not recorded.
    proc = _index_subprocess(home, folder, "bm25_written:1")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    expect(_check_recovered(home, [ref_old]), ref_old)

    # v2 (A changed, B deleted, D moved): killed between deleting A's old vectors and adding
    # its new ones (same chunk ids, other text): the previous state, whole.
    _make_v2(sources, folder)
    proc = _index_subprocess(home, folder, "after_delete:1")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    expect(_check_recovered(home, [ref_old, ref_new]), ref_old)
    # Next attempt: A committed, then killed with the last batch's vectors (D moved, B removed) written.
    proc = _index_subprocess(home, folder, f"after_vectors:{a_new + 1}")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    expect(_check_recovered(home, [ref_old, ref_new]), {A: ref_new[A], B: ref_old[B], C: ref_old[C], D: ref_old[D]})

    # Uninterrupted run: D's chunks move without embedding; ends equal to the never-interrupted index of v2.
    proc = _index_subprocess(home, folder, None)
    assert proc.returncode == 0, proc.stderr
    assert "renamed: 1" in proc.stdout and "chunks embedded: 0" in proc.stdout, proc.stdout
    expect(_check_recovered(home, [ref_new]), ref_new)
    assert set(ref_new) == {A, C, D2}
    # Nothing left behind: one BM25 folder, no temporary ones.
    with data_home(home):
        leftovers = sorted(p.name for p in Workspace(WS, _settings()).dir.iterdir() if p.name.startswith("bm25"))
    assert len(leftovers) == 1 and not leftovers[0].endswith(".tmp")
