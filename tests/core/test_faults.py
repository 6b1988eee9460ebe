"""Fault injection on real stores (issue #22): after each fault the workspace answers from its last
commit, the user is told what happened, the next ``verbatim index`` completes, and the index then
equals a fresh index of the same folder (same chunk ids, texts and retrieval results).

Disk full is made two ways: by the OS error injected at one write call (LanceDB, a BM25 segment,
the manifest transaction), and — where the test runs as root and may mount — by a real
size-limited tmpfs filled to several levels, so that whatever write comes first meets a full disk.
A read-only data folder is a tmpfs remounted read-only (root) or a folder without write permission.
Damage is done to the files themselves (truncated, overwritten).
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from core import cli
from core.errors import DamagedIndexError, IndexError_, WorkspaceBusyError
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace
from tests.conftest import REPO

QUERIES = ("¿Cuál es la comisión del agente?", "plazo de preaviso para resolver el contrato",
           "indemnización por daños", "renta mensual de la vivienda")
DOCS_V1 = {
    "agencia.md": "# Contrato de agencia\n\nLa comisión del agente es del 6 % de las ventas netas, pagadera cada trimestre.\n",
    "arriendo.md": "# Arrendamiento\n\nLa renta mensual de la vivienda es de 950 euros, pagaderos los cinco primeros días.\n",
    "servicios.md": "# Servicios\n\nCualquiera de las partes puede resolver el contrato con un preaviso de treinta días.\n",
}
DOCS_V2 = {  # one changed, one added, one removed
    "agencia.md": "# Contrato de agencia\n\nLa comisión del agente es del 8 % de las ventas netas, pagadera cada mes.\n",
    "arriendo.md": DOCS_V1["arriendo.md"],
    "danos.md": "# Responsabilidad\n\nLa indemnización por daños no excederá del importe anual del contrato.\n",
}


def _write(folder: Path, docs: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for p in folder.iterdir():
        if p.name not in docs:
            p.unlink()
    for name, text in docs.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    return folder


def _settings() -> Settings:
    return Settings(index_commit_chunks=1)  # one commit per document: faults fall between commits


def _state(name: str) -> dict:
    """What a reader sees: chunk ids and texts, the three stores' ids, retrieval results."""
    ws = Workspace(name, _settings(), recover=False)
    ids = ws.stored_chunk_ids()
    chunks = ws.get_chunks(ids["manifest"])
    return {
        "chunks": {cid: c.text for cid, c in chunks.items()},
        "stores_equal": ids["manifest"] == ids["vectors"] == ids["bm25"],
        "bm25": [ws.bm25_search(q, 5, set()) for q in QUERIES],
        "dense": [ws.dense_search(q, 5, set()) for q in QUERIES],
    }


def _index(name: str, folder: Path) -> None:
    run(index_folders(Workspace(name, _settings()), [folder]))


def _fresh(folder: Path, tmp_path: Path) -> dict:
    """A never-interrupted index of ``folder`` (same folder, so the same document ids)."""
    _index("fresh", folder)
    return _state("fresh")


@pytest.fixture
def committed(tmp_path: Path) -> tuple[Path, dict]:
    """Workspace ``w`` with the folder at v1 committed; the folder then changed to v2."""
    folder = _write(tmp_path / "docs", DOCS_V1)
    _index("w", folder)
    v1 = _state("w")
    assert v1["stores_equal"] and len(v1["chunks"]) == 3
    _write(folder, DOCS_V2)
    return folder, v1


def _enospc(*_a, **_k):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _recovers(folder: Path, tmp_path: Path) -> None:
    """The next run completes and the index equals a fresh index of the folder."""
    _index("w", folder)
    after = _state("w")
    assert after["stores_equal"]
    assert after == _fresh(folder, tmp_path)


# --- disk full, injected at one write call -------------------------------------------------------


@pytest.mark.parametrize("when", ["before", "after"])
def test_disk_full_in_a_lancedb_write_keeps_the_last_commit(committed, tmp_path, monkeypatch, when) -> None:
    """``before``: the add fails with nothing written; ``after``: LanceDB wrote a version, the manifest never
    recorded it (the OS error came back late)."""
    from core.store.vectors import VectorTable

    folder, v1 = committed
    real_add = VectorTable.add

    def add(self, *a, **k):
        if when == "after":
            real_add(self, *a, **k)
        _enospc()

    with monkeypatch.context() as m:
        m.setattr(VectorTable, "add", add)
        with pytest.raises(IndexError_, match="the disk holding the index is full"):
            _index("w", folder)
    assert _state("w") == v1  # the run's first commit failed: readers see the last one
    _recovers(folder, tmp_path)


def test_disk_full_in_a_bm25_segment_write_keeps_the_last_commit(committed, tmp_path, monkeypatch) -> None:
    import numpy as np

    folder, v1 = committed
    real_save = np.save
    calls = {"n": 0}

    def save(file, *a, **k):  # the third array written meets a full disk (inside a new segment)
        calls["n"] += 1
        if calls["n"] == 3:
            _enospc()
        return real_save(file, *a, **k)

    with monkeypatch.context() as m:
        m.setattr("core.store.bm25_segment.np.save", save)
        with pytest.raises(IndexError_, match="the disk holding the index is full"):
            _index("w", folder)
    assert calls["n"] == 3
    # the documents were committed before the keyword index follows them (end of the run): readers
    # get them from the vectors, and the keyword index recorded before (ids the manifest lacks are dropped)
    fresh = _fresh(folder, tmp_path)
    reader = _state("w")
    assert reader["chunks"] == fresh["chunks"] and reader["dense"] == fresh["dense"]
    _recovers(folder, tmp_path)


def test_disk_full_in_the_manifest_transaction_keeps_the_last_commit(committed, tmp_path, monkeypatch) -> None:
    from core.store.manifest import Manifest

    folder, v1 = committed

    def insert(db, w):
        db.execute("INSERT INTO chunks (chunk_id, doc_id, page, start, \"end\", text, lang, modality, ord) "
                   "VALUES ('x#0', 'x', 1, 0, 1, 'x', 'es', 'text', 0)")  # a row written, then the disk is full
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as m:
        m.setattr(Manifest, "insert_document_rows", staticmethod(insert))
        with pytest.raises(IndexError_, match="the disk holding the index is full"):
            _index("w", folder)
    assert _state("w") == v1  # the transaction rolled back, the vectors put back to the recorded version
    _recovers(folder, tmp_path)


# --- disk full for real: a small tmpfs ------------------------------------------------------------


def _can_mount() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("mount") is not None


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 16 MB tmpfs (root only), unmounted after the test."""
    if not _can_mount():
        pytest.skip("needs root and mount (a size-limited tmpfs); the injected faults above still run")
    point = tmp_path / "disk"
    point.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(point)],
                      capture_output=True).returncode != 0:
        pytest.skip("mount refused here (a container without the right to mount a tmpfs); the injected faults still run")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


@pytest.mark.parametrize("free_kb", [0, 8, 64, 256])
def test_a_really_full_disk_at_any_write_keeps_the_last_commit(small_disk, tmp_path, monkeypatch, free_kb) -> None:
    """The data folder on a tmpfs filled to leave ``free_kb`` KiB: the first write that meets the full
    disk, whichever it is, ends the run with the message; the index keeps a commit; freeing space and
    indexing again ends equal to a fresh index."""
    folder = _write(tmp_path / "docs", DOCS_V1)
    monkeypatch.setenv("VERBATIM_HOME", str(small_disk / "home"))
    _index("w", folder)
    v1 = _state("w")
    _write(folder, DOCS_V2)
    filler = small_disk / "filler"
    stat = os.statvfs(small_disk)
    with open(filler, "wb") as f:
        f.truncate(0)
        try:
            f.write(b"\0" * max(0, stat.f_bavail * stat.f_frsize - free_kb * 1024))
        except OSError:
            pass
    try:
        _index("w", folder)
        completed = True
    except IndexError_ as exc:
        completed = False
        assert "the disk holding the index is full" in str(exc)
    reader = _state("w")
    assert reader["bm25"] is not None and reader["dense"] is not None  # it answers
    if not completed:
        # each document is exactly one of its committed versions
        v2_texts = {f"docs/{n}": t for n, t in DOCS_V2.items()}
        for cid, text in reader["chunks"].items():
            assert text == v1["chunks"].get(cid) or text in v2_texts.get(cid.split("#")[0], "")
        assert reader["chunks"]
    filler.unlink()
    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home2"))
    fresh = _fresh(folder, tmp_path)
    monkeypatch.setenv("VERBATIM_HOME", str(small_disk / "home"))
    _index("w", folder)
    assert _state("w") == fresh


# --- a read-only data folder --------------------------------------------------------------------


def test_a_read_only_data_folder_answers_and_says_why_it_cannot_index(tmp_path, monkeypatch, capsys) -> None:
    folder = _write(tmp_path / "docs", DOCS_V1)
    home = tmp_path / "ro"
    if _can_mount():
        home.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(home)],
                          capture_output=True).returncode != 0:
            pytest.skip("mount refused here (a container): as root, a read-only data folder needs a read-only "
                        "tmpfs, since root ignores file permissions (chmod is used when not root)")
    monkeypatch.setenv("VERBATIM_HOME", str(home))
    try:
        _index("w", folder)
        v1 = _state("w")
        _write(folder, DOCS_V2)
        if _can_mount():
            subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        else:
            subprocess.run(["chmod", "-R", "a-w", str(home)], check=True)
        assert _state("w") == v1  # readers answer from the last commit
        capsys.readouterr()
        assert cli.main(["index", str(folder), "-w", "w", "-q"]) == 1
        err = capsys.readouterr().err
        assert "read-only or not writable" in err and "Questions are still answered" in err
        assert _state("w") == v1
    finally:
        if _can_mount():
            subprocess.run(["mount", "-o", "remount,rw", str(home)], capture_output=True)
        else:
            subprocess.run(["chmod", "-R", "u+w", str(home)], capture_output=True)
    _index("w", folder)
    after = _state("w")
    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home2"))
    assert after == _fresh(folder, tmp_path)
    if _can_mount():
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


# --- damaged parts ----------------------------------------------------------------------------


def _forget_open_files() -> None:
    """A new process opens the files afresh: drop this process's caches of opened BM25 segments."""
    from core.store import bm25, bm25_segment

    bm25._views.clear()
    bm25_segment._cache.clear()


@pytest.mark.parametrize("how", ["truncate", "overwrite"])
def test_a_damaged_bm25_segment_is_named_and_the_next_run_rebuilds_it(tmp_path, capsys, how) -> None:
    folder = _write(tmp_path / "docs", DOCS_V1)
    _index("w", folder)
    ws = Workspace("w", recover=False)
    victim = next(ws.dir.glob("bm25/*/ids_off.npy"))
    data = victim.read_bytes()
    victim.write_bytes(data[: len(data) // 2] if how == "truncate" else b"garbage" * 20)
    others = {p: p.stat().st_mtime for p in ws.dir.rglob("*") if p.is_file() and "bm25" not in p.parts}
    _forget_open_files()
    with pytest.raises(DamagedIndexError) as info:
        Workspace("w", recover=False).bm25_search("comisión", 5, set())
    assert info.value.part == "bm25" and str(victim.parent) in str(info.value)
    assert "verbatim index --rebuild --workspace w" in str(info.value) and "Nothing was deleted" in str(info.value)
    assert all(p.exists() for p in others)
    capsys.readouterr()
    assert cli.main(["ask", "¿Cuál es la comisión del agente?", "-w", "w", "--backend", "passages"]) == 1
    assert "keyword index is damaged" in capsys.readouterr().err
    _recovers(folder, tmp_path)


@pytest.mark.parametrize("how", ["header", "truncate"])
def test_a_damaged_manifest_is_named_and_rebuild_sets_it_aside(tmp_path, capsys, how) -> None:
    folder = _write(tmp_path / "docs", DOCS_V1)
    _index("w", folder)
    manifest = Workspace("w", recover=False).dir / "manifest.sqlite"
    data = manifest.read_bytes()
    manifest.write_bytes(b"this is no database!" + data[20:] if how == "header" else data[: len(data) // 3])
    capsys.readouterr()
    assert cli.main(["ask", "¿Cuál es la comisión del agente?", "-w", "w", "--backend", "passages"]) == 1
    err = capsys.readouterr().err
    assert "the manifest (list of documents and chunks) is damaged" in err and str(manifest) in err
    assert "verbatim index --rebuild --workspace w" in err
    assert cli.main(["index", "--rebuild", str(folder), "-w", "w", "-q"]) == 0
    kept = list(manifest.parent.glob("manifest.damaged-*.sqlite"))
    assert len(kept) == 1 and kept[0].read_bytes()[:20] == manifest_bytes_head(data, how)
    after = _state("w")
    assert after == _fresh(folder, tmp_path)


def manifest_bytes_head(data: bytes, how: str) -> bytes:
    return b"this is no database!" if how == "header" else data[:20]


def test_a_damaged_vector_file_is_named_and_rebuild_restores_it(tmp_path, capsys) -> None:
    folder = _write(tmp_path / "docs", DOCS_V1)
    _index("w", folder)
    ws = Workspace("w", recover=False)
    for data_file in ws.dir.glob("lance/**/data/*.lance"):
        data_file.write_bytes(data_file.read_bytes()[:64])
    with pytest.raises(DamagedIndexError) as info:
        Workspace("w", recover=False).dense_search("comisión del agente", 5, set())
    assert info.value.part == "vectors" and "--rebuild" in str(info.value)
    assert Workspace("w", recover=False).chunk_count() == 3  # the manifest is untouched
    assert cli.main(["index", "--rebuild", "-w", "w", "-q"]) == 0
    assert _state("w") == _fresh(folder, tmp_path)


# --- a file changed while it is read ------------------------------------------------------------


@pytest.mark.parametrize("change", ["replaced", "deleted", "renamed"])
def test_a_file_changed_while_read_is_not_committed_and_read_again(committed, tmp_path, monkeypatch, change) -> None:
    import core.store.indexing as indexing

    folder, v1 = committed
    real_parse = indexing.parse_file
    target = folder / "agencia.md"
    done = {"n": 0}

    def parse(path, *a, **k):
        parsed = real_parse(path, *a, **k)
        if Path(path) == target and not done["n"]:
            done["n"] = 1
            if change == "replaced":
                target.write_text(DOCS_V2["agencia.md"] + "\nAnexo: la comisión se revisa cada año.\n", encoding="utf-8")
            elif change == "deleted":
                target.unlink()
            else:
                target.rename(folder / "agencia_firmado.md")
        return parsed

    with monkeypatch.context() as m:
        m.setattr(indexing, "parse_file", parse)
        report = run(index_folders(Workspace("w", _settings()), [folder]))
    reasons = [f.reason for f in report.failures if f.path == str(target)]
    assert reasons and ("while it was being read" in reasons[0])
    reader = _state("w")
    assert reader["stores_equal"]
    # the old version is kept, never a mix of two versions
    old = {k: v for k, v in v1["chunks"].items() if k.startswith("docs/agencia.md#")}
    assert old and {k: v for k, v in reader["chunks"].items() if k.startswith("docs/agencia.md#")} == old
    _recovers(folder, tmp_path)


# --- one writer at a time -----------------------------------------------------------------------

HOLDER = """
import sys, time
from filelock import FileLock
from core.store.locking import write_holder
from pathlib import Path
folder = Path(sys.argv[1])
lock = FileLock(str(folder / "writer.lock"), thread_local=False)
lock.acquire()
write_holder(folder)
print("held", flush=True)
sys.stdin.readline()
"""


def test_a_second_writer_is_told_who_writes_and_readers_still_answer(committed, tmp_path, monkeypatch, capsys) -> None:
    import core.store.indexing as indexing

    folder, v1 = committed
    ws_dir = Workspace("w", recover=False).dir
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ws_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(indexing, "WRITER_WAIT_S", 1.0)
        monkeypatch.setattr("core.store.workspace.WRITER_WAIT_S", 1.0)
        capsys.readouterr()
        assert cli.main(["index", str(folder), "-w", "w", "-q"]) == 1
        err = capsys.readouterr().err
        assert f"being written by another process (pid {holder.pid}" in err
        assert "waiting for it" in err and "gave up after 1 s" in err
        with pytest.raises(WorkspaceBusyError):
            Workspace("w", _settings()).remove_documents(["docs/agencia.md"])
        assert _state("w") == v1  # readers are never blocked
    finally:
        holder.communicate("\n", timeout=30)
    _recovers(folder, tmp_path)
