"""Large files committed in parts (issue #23, item 5): a run stopped inside a file keeps what it embedded.

A generated one-line text file several commit batches long (as the issue's 6 MB file, smaller) is
indexed by a real ``python -m core index`` subprocess that is stopped inside it: SIGKILLed at a
commit point (the documented crash hook) and interrupted with SIGINT (Ctrl+C) while it embeds. The
workspace then holds the parts committed before the stop, all three stores agree, the committed
chunks are searchable and the document is named "partially indexed: N of M chunks"; the next run
embeds only the chunks not committed (counted at the embedding model), and ends equal to a
never-interrupted index. A file changed in between is started over. Small settings (64-token chunks,
a commit every 12 chunks) keep each run to seconds.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import KILL_AT_ENV, Workspace, get_embedder, use_embedder
from tests.conftest import REPO

WS = "big"
COMMIT = 12
CHUNK_TOKENS = 64
OVERLAP_TOKENS = 8


def _settings() -> Settings:
    return Settings(index_commit_chunks=COMMIT, chunk_tokens=CHUNK_TOKENS, chunk_overlap_tokens=OVERLAP_TOKENS)


def _clause(n: int, word: str = "lessee") -> str:
    return (f"Clause {n}: the {word} shall pay the sum of {n * 17} euros for item codeword{n:04d} "
            f"before the {n % 28 + 1} day of each month, and keep the premises in repair. ")


def _big_file(folder: Path, clauses: int = 90, word: str = "lessee") -> Path:
    """One line of text, no paragraph breaks (the issue's file was one 6 MB line)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "big.txt"
    path.write_text("".join(_clause(n, word) for n in range(clauses)), encoding="utf-8")
    return path


class CountingEmbedder:
    """The real embedding model, counting the texts it embeds for documents."""

    def __init__(self, inner) -> None:
        self.inner, self.texts = inner, 0

    def get_text_embedding_batch(self, texts, **kwargs):
        self.texts += len(texts)
        return self.inner.get_text_embedding_batch(texts, **kwargs)

    def get_query_embedding(self, query):
        return self.inner.get_query_embedding(query)


@pytest.fixture
def counting():
    real = get_embedder()
    counter = CountingEmbedder(real)
    use_embedder(counter)
    yield counter
    use_embedder(real)


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERBATIM_")}
    env.update(VERBATIM_HOME=str(home), VERBATIM_INDEX_COMMIT_CHUNKS=str(COMMIT),
               VERBATIM_CHUNK_TOKENS=str(CHUNK_TOKENS), VERBATIM_CHUNK_OVERLAP_TOKENS=str(OVERLAP_TOKENS),
               VERBATIM_EMBEDDING_MODEL=os.environ["VERBATIM_EMBEDDING_MODEL"],
               VERBATIM_ENGINE_IDLE_S="0", **extra)
    return env


def _cli(home: Path, folder: Path, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "core", "index", str(folder), "-w", WS],
                            cwd=REPO, env=_env(home, **extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _partial_row(home: Path) -> tuple[int, int] | None:
    db_path = home / "workspaces" / WS / "manifest.sqlite"
    if not db_path.exists():
        return None
    try:
        conn = sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT committed, total FROM partial_documents").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return tuple(row) if row else None


def _vectors(ws: Workspace) -> dict[str, np.ndarray]:
    return {k: np.asarray(v) for k, v in ws.vectors.read("docs/big.txt").items()}


def _check_partial(ws: Workspace) -> tuple[int, int]:
    """The stopped run's state: consistent stores, the committed chunks searchable, the document named partial."""
    ids = ws.stored_chunk_ids()
    assert ids["manifest"] == ids["vectors"] == ids["bm25"]
    [partial] = ws.partial_documents()
    assert partial.doc_id == "docs/big.txt" and 0 < partial.committed < partial.total
    assert len(ids["manifest"]) == partial.committed
    [doc] = ws.documents()
    assert doc["chunks"] == partial.committed and doc["chunks_total"] == partial.total
    assert doc["reason"] == f"partially indexed: {partial.committed} of {partial.total} chunks"
    # the committed chunks are the document's first ones, and searchable
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        ords = [r[0] for r in db.execute("SELECT ord FROM chunks ORDER BY ord")]
    assert ords == list(range(partial.committed))
    top = ws.get_chunks(ws.bm25_search("codeword0001", 3, set()))
    assert any("codeword0001" in c.text for c in top.values())
    assert ws.dense_search("the lessee shall pay the sum of euros", 3, set())
    return partial.committed, partial.total


def _reference(tmp_path: Path, folder_maker) -> tuple[dict[str, str], dict[str, np.ndarray]]:
    """A never-interrupted index of the same folder (same document ids) in another data folder."""
    old = os.environ["VERBATIM_HOME"]
    os.environ["VERBATIM_HOME"] = str(tmp_path / "ref-home")
    try:
        ws = Workspace(WS, _settings())
        report = run(index_folders(ws, [folder_maker()]))
        assert report.partial == [] and report.resumed == 0
        ids = ws.stored_chunk_ids()["manifest"]
        return {k: c.text for k, c in ws.get_chunks(ids).items()}, _vectors(ws)
    finally:
        os.environ["VERBATIM_HOME"] = old


def _assert_equal_to(ws: Workspace, ref: tuple[dict[str, str], dict[str, np.ndarray]]) -> None:
    ids = ws.stored_chunk_ids()
    assert ids["manifest"] == ids["vectors"] == ids["bm25"]
    assert {k: c.text for k, c in ws.get_chunks(ids["manifest"]).items()} == ref[0]
    got = _vectors(ws)
    assert set(got) == set(ref[1]) and all(np.allclose(got[k], ref[1][k], atol=1e-4) for k in got)
    assert ws.partial_documents() == [] and ws.documents()[0]["chunks_total"] is None


def test_sigkill_inside_a_large_file_keeps_its_parts_and_the_next_run_embeds_only_the_rest(
        tmp_path: Path, counting: CountingEmbedder) -> None:
    home = Path(os.environ["VERBATIM_HOME"])
    folder = tmp_path / "docs"
    _big_file(folder)
    proc = _cli(home, folder, **{KILL_AT_ENV: "after_manifest:3"})  # killed right after its third commit
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == -signal.SIGKILL, err[-2000:]
    ws = Workspace(WS, _settings())  # a writer's open: recovery brings BM25 up to the manifest
    committed, total = _check_partial(ws)
    assert committed == 3 * COMMIT and total > 4 * COMMIT  # three parts of a file more than four batches long

    report = run(index_folders(ws, [folder]))
    assert counting.texts == total - committed  # the committed chunks are not embedded again
    assert report.resumed == 1 and report.documents == 1 and report.chunks == total - committed
    assert report.partial == []
    _assert_equal_to(ws, _reference(tmp_path, lambda: folder))


def test_ctrl_c_inside_a_large_file_keeps_what_was_embedded_and_the_next_run_goes_on(
        tmp_path: Path, counting: CountingEmbedder) -> None:
    home = Path(os.environ["VERBATIM_HOME"])
    folder = tmp_path / "docs"
    _big_file(folder)
    proc = _cli(home, folder)
    deadline = time.monotonic() + 600
    while (row := _partial_row(home)) is None or row[0] < 2 * COMMIT:  # inside the file, two parts committed
        assert proc.poll() is None, proc.communicate()[1][-2000:]
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # what Ctrl+C in a terminal sends
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 130, err[-2000:]
    assert "stopping: saving what is embedded" in err and "interrupted: what was embedded is kept" in err
    ws = Workspace(WS, _settings())
    committed, total = _check_partial(ws)
    assert committed >= 2 * COMMIT
    assert f"partially indexed: docs/big.txt ({committed} of {total} chunks)" in out
    assert "(cancelled)" in out

    report = run(index_folders(ws, [folder]))
    assert counting.texts == total - committed
    assert report.resumed == 1 and report.partial == []
    _assert_equal_to(ws, _reference(tmp_path, lambda: folder))


def test_a_large_file_changed_after_a_stop_is_started_over(tmp_path: Path, counting: CountingEmbedder) -> None:
    folder = tmp_path / "docs"
    _big_file(folder)
    ws = Workspace(WS, _settings())
    seen = {"embed": 0}

    def cancel() -> bool:  # the window's cancel button: polled between embedding batches
        return seen["embed"] >= 2

    def on_event(event) -> None:
        seen["embed"] += event.stage == "embed"

    report = run(index_folders(ws, [folder], cancel=cancel), on_event)
    assert report.cancelled
    [partial] = report.partial
    committed, total = partial.committed, partial.total
    assert 0 < committed < total and committed == counting.texts  # what was embedded was committed
    assert partial.text() == f"partially indexed: docs/big.txt ({committed} of {total} chunks)"

    _big_file(folder, word="tenant")  # other words: every chunk differs
    counting.texts = 0
    report = run(index_folders(ws, [folder]))
    assert report.resumed == 0 and report.partial == [] and not report.cancelled
    chunks = ws.get_chunks(ws.stored_chunk_ids()["manifest"])
    assert counting.texts == report.chunks == len(chunks) > COMMIT  # started over: every chunk embedded
    assert all("tenant" in c.text and "lessee" not in c.text for c in chunks.values())  # no old chunk left
    _assert_equal_to(ws, _reference(tmp_path, lambda: folder))


def test_a_run_stopped_between_files_is_unchanged_by_parts(tmp_path: Path) -> None:
    """Small files still commit whole, in batches; a small file is never split."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(3):
        (folder / f"a{i}.txt").write_text(_clause(i) + _clause(i + 1), encoding="utf-8")
    ws = Workspace(WS, _settings())
    report = run(index_folders(ws, [folder]))
    assert report.documents == 3 and report.partial == [] and ws.partial_documents() == []
    assert all(d["chunks_total"] is None and d["reason"] == "" for d in ws.documents())


def test_cancel_before_any_part_leaves_nothing_partial(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    _big_file(folder)
    ws = Workspace(WS, _settings())
    report = run(index_folders(ws, [folder], cancel=lambda: True))
    assert report.cancelled and report.partial == [] and ws.chunk_count() == 0
