"""Reading the next file while this one is embedded (issue #26, item 3; ``core.store.indexing._NextFile``).

Real files, the real embedding model and real stores: the parsing of file B runs in the read-ahead
thread while file A's chunks are embedded; the index equals a run that reads one file at a time;
a file changed after it was read ahead is read again; unchanged files are never read ahead; a file
that cannot be read is its own failure; a cancel during embedding does not wait for the file read
ahead and commits nothing of it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace, get_embedder, indexing, use_embedder


def _text(n: int, word: str) -> str:
    return " ".join(f"Clause {n}.{k}: the {word} shall pay {n * 100 + k} euros on the first day of each month."
                    for k in range(40))


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for n, word in enumerate(["tenant", "landlord", "guarantor"]):
        (folder / f"{chr(97 + n)}.txt").write_text(_text(n, word), encoding="utf-8")
    return folder


def _rewrite(path: Path) -> None:
    """New text for ``path``: its size and mtime change (mtime moved 5 s on, past any clock grain)."""
    path.write_text(_text(7, "assignee"), encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


class Recorder:
    """Wraps ``indexing.prepare_document`` and the embedder: which thread read which file, and
    what was being read while a batch was embedded."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, on_embed=None) -> None:
        self.real_prepare = indexing.prepare_document
        self.inner = get_embedder()
        self.reads: list[tuple[str, str]] = []  # (file name, thread name)
        self.reading: set[str] = set()
        self.overlapped: list[str] = []  # files being read (or read ahead) while a batch embedded
        self.on_embed = on_embed
        self.lock = threading.Lock()
        self.parsing = 0  # prepare calls running now, and the most at once
        self.most_at_once = 0
        self.read_ahead_delay = 0.0  # extra seconds a read-ahead thread's parse takes
        monkeypatch.setattr(indexing, "prepare_document", self.prepare)
        use_embedder(self)

    def prepare(self, path, *args, **kwargs):
        ahead = threading.current_thread().name == "verbatim-read-ahead"
        with self.lock:
            self.reads.append((path.name, threading.current_thread().name))
            self.reading.add(path.name)
            self.parsing += 1
            self.most_at_once = max(self.most_at_once, self.parsing)
        time.sleep(0.3 + (self.read_ahead_delay if ahead else 0.0))  # a slow parser, seen during embedding
        try:
            return self.real_prepare(path, *args, **kwargs)
        finally:
            with self.lock:
                self.reading.discard(path.name)
                self.parsing -= 1

    def get_text_embedding_batch(self, texts, **kwargs):
        time.sleep(0.1)
        with self.lock:
            self.overlapped += sorted(self.reading)
        if self.on_embed is not None:
            self.on_embed(texts)
        return self.inner.get_text_embedding_batch(texts, **kwargs)

    def get_query_embedding(self, query):
        return self.inner.get_query_embedding(query)


@pytest.fixture
def restore_embedder():
    real = get_embedder()
    yield
    use_embedder(real)


def _index(ws: Workspace) -> tuple[dict[str, str], dict[str, np.ndarray]]:
    with ws.manifest.connect() as db:
        texts = dict(db.execute("SELECT chunk_id, text FROM chunks"))
    vecs = {cid: np.asarray(v) for d in ws.documents() for cid, v in ws.vectors.read(d["doc_id"]).items()}
    return texts, vecs


def test_the_next_file_is_read_during_embedding_and_the_index_is_the_serial_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_embedder) -> None:
    folder = _folder(tmp_path)
    rec = Recorder(monkeypatch)
    ws = Workspace("ahead", Settings())
    report = run(index_folders(ws, [folder]))
    assert report.documents == 3 and not report.failures
    threads = dict(rec.reads)
    assert threads["a.txt"] == "MainThread"  # nothing to embed yet: read in turn
    assert threads["b.txt"].startswith("verbatim-read-ahead") and threads["c.txt"].startswith("verbatim-read-ahead")
    assert len(rec.reads) == 3  # each file read once
    assert {"b.txt", "c.txt"} <= set(rec.overlapped)  # read while the file before it was embedded

    monkeypatch.setattr(indexing, "READ_AHEAD", False)
    serial = Workspace("serial", Settings())
    run(index_folders(serial, [folder]))
    got, ref = _index(ws), _index(serial)
    assert got[0] == ref[0] and len(got[0]) >= 6
    for cid, vec in ref[1].items():
        assert float(vec @ got[1][cid]) > 0.9999  # same vectors (bf16 may differ in the last bits by batch)


def test_a_file_changed_after_it_was_read_ahead_is_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_embedder) -> None:
    folder = _folder(tmp_path)
    changed = []

    def change_b(texts) -> None:
        # while a.txt embeds, after b.txt was read ahead: b.txt gets new text (size and mtime change)
        if not changed and any("tenant" in t for t in texts):
            deadline = time.monotonic() + 30
            while ("b.txt", "verbatim-read-ahead") not in rec.reads or "b.txt" in rec.reading:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            _rewrite(folder / "b.txt")
            changed.append(True)

    rec = Recorder(monkeypatch, on_embed=change_b)
    ws = Workspace("ahead", Settings())
    report = run(index_folders(ws, [folder]))
    assert changed and report.documents == 3 and not report.failures
    assert [name for name, _ in rec.reads].count("b.txt") == 2  # read ahead, dropped, read again in turn
    texts = " ".join(_index(ws)[0].values())
    assert "assignee" in texts and "landlord" not in texts


def test_a_file_changed_while_it_is_read_ahead_is_never_parsed_twice_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_embedder) -> None:
    """The read-ahead of a file that changes under it is dropped and the run reads the file itself,
    after the read-ahead stopped parsing: PyMuPDF does not support two threads parsing at once
    (review, 2026-12-02; indexing._PARSING)."""
    folder = _folder(tmp_path)
    changed = []

    def change_b(texts) -> None:
        # while a.txt embeds and b.txt is still being read ahead: b.txt gets new text
        if not changed and any("tenant" in t for t in texts):
            deadline = time.monotonic() + 30
            while "b.txt" not in rec.reading:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            _rewrite(folder / "b.txt")
            changed.append(True)

    rec = Recorder(monkeypatch, on_embed=change_b)
    rec.read_ahead_delay = 3.0  # still parsing when the run comes to b.txt
    ws = Workspace("ahead", Settings())
    report = run(index_folders(ws, [folder]))
    assert changed and report.documents == 3 and not report.failures
    assert [name for name, _ in rec.reads].count("b.txt") == 2  # read ahead, dropped, read again in turn
    assert rec.most_at_once == 1
    assert "assignee" in " ".join(_index(ws)[0].values())


def test_unchanged_files_are_not_read_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_embedder) -> None:
    folder = _folder(tmp_path)
    ws = Workspace("ahead", Settings())
    run(index_folders(ws, [folder]))
    rec = Recorder(monkeypatch)
    report = run(index_folders(ws, [folder]))
    assert report.unchanged == 3 and rec.reads == []


def test_a_file_that_cannot_be_read_ahead_fails_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      restore_embedder) -> None:
    folder = _folder(tmp_path)
    (folder / "b.txt").unlink()
    (folder / "b.pdf").write_bytes(b"%PDF-1.7\nnot a pdf at all")
    rec = Recorder(monkeypatch)
    ws = Workspace("ahead", Settings())
    report = run(index_folders(ws, [folder]))
    assert dict(rec.reads)["b.pdf"].startswith("verbatim-read-ahead")
    assert [Path(f.path).name for f in report.failures] == ["b.pdf"]
    assert report.documents == 2 and {d["doc_id"].rsplit("/", 1)[-1] for d in ws.documents()} >= {"a.txt", "c.txt"}


def test_cancel_during_embedding_does_not_wait_for_the_file_read_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_embedder) -> None:
    folder = _folder(tmp_path)
    stop = threading.Event()
    reading = threading.Event()  # the read-ahead has started b.txt
    release = threading.Event()  # b.txt's read is held until the run has returned
    read_done = threading.Event()
    # cancel while a.txt embeds, once the read-ahead is inside b.txt's read
    rec = Recorder(monkeypatch, on_embed=lambda texts: (reading.wait(30), stop.set()))
    slow = rec.prepare

    def held(path, *args, **kwargs):
        if path.name == "b.txt":
            reading.set()
            release.wait(60)
            read_done.set()
        return slow(path, *args, **kwargs)

    monkeypatch.setattr(indexing, "prepare_document", held)
    ws = Workspace("ahead", Settings())
    try:
        report = run(index_folders(ws, [folder], cancel=stop.is_set))
        assert report.cancelled and reading.is_set()
        # the run returned while b.txt's read was still held: it did not wait for the read-ahead
        # (no timing: a run that waited would return only after the read ended)
        assert not read_done.is_set()
    finally:
        release.set()
    names = {d["doc_id"].rsplit("/", 1)[-1] for d in ws.documents()}
    assert "b.txt" not in names and "c.txt" not in names
