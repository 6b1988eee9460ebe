"""What the frozen installer relies on: the store works without pylance, caches stay in the data folder.

build.spec leaves out the ``lance`` package (pylance, 215 MB) because core/store/
reads LanceDB through lancedb's own scans; these tests hold that promise on the
code paths the installer's self-test does not reach (moved files re-use their
stored vectors, consistency checks list every vector id, deletes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from core.offline import cache_env
from tests.conftest import REPO

_STORE_RUN = textwrap.dedent(
    r'''
    import json, shutil, sys
    from pathlib import Path
    import core
    from core.pipeline import index_folders, run
    from core.store import Workspace

    docs = Path(sys.argv[1])
    ws = Workspace("nolance")
    first = run(index_folders(ws, [docs]))
    (docs / "sub").mkdir()
    shutil.move(docs / "lease.txt", docs / "sub" / "lease-2024.txt")  # re-uses stored vectors
    moved = run(index_folders(ws, [docs]))
    (docs / "notes.md").unlink()
    removed = run(index_folders(ws, [docs]))
    ids = ws.stored_chunk_ids()
    print(json.dumps({
        "first": first.documents, "renamed": moved.renamed, "embedded_after_move": moved.chunks,
        "removed": removed.removed, "consistent": ids["manifest"] == ids["vectors"] == ids["bm25"],
        "vectors": ids["vectors"], "lance_imported": "lance" in sys.modules,
    }))
    '''
)


def _clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VERBATIM_", "HF_", "XDG_", "TORCH_HOME", "MPLCONFIGDIR", "LLAMA_INDEX"))}
    if "VERBATIM_EMBEDDING_MODEL" in os.environ:  # reuse the session's extracted model
        env["VERBATIM_EMBEDDING_MODEL"] = os.environ["VERBATIM_EMBEDDING_MODEL"]
    env.update(HOME=str(home), PYTHONPATH=str(REPO))
    return env


def test_index_move_delete_and_check_without_pylance(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(
        "The lessee pays the rent within the first five days of each month.\n\n"
        "Either party may terminate this lease with sixty days' written notice.\n", encoding="utf-8")
    (docs / "notes.md").write_text("# Notes\n\nThe boiler was serviced in March 2024 by Calor S.L.\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = _clean_env(home) | {"VERBATIM_HOME": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-c", _STORE_RUN, str(docs)], capture_output=True, text=True,
                         env=env, timeout=900, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["first"] == 2 and got["renamed"] == 1 and got["embedded_after_move"] == 0
    assert got["removed"] == 1 and got["consistent"]
    assert got["vectors"] and all(v.startswith("docs/sub/lease-2024.txt#") for v in got["vectors"])
    assert got["lance_imported"] is False
    assert sorted(p.name for p in home.iterdir()) == []  # VERBATIM_HOME is elsewhere: HOME untouched


def test_cache_env_points_every_cache_inside_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = cache_env(data)
    assert set(env) == {"LLAMA_INDEX_CACHE_DIR", "HF_HOME", "TORCH_HOME", "MPLCONFIGDIR", "XDG_CACHE_HOME"}
    assert all(Path(p).is_absolute() and Path(p).is_relative_to(data) for p in env.values())
    assert env["XDG_CACHE_HOME"] == str(data / "cache")


def test_import_core_sets_the_cache_variables_and_user_values_win(tmp_path: Path) -> None:
    code = "import json, os, core; print(json.dumps({k: os.environ.get(k) for k in %r}))" % sorted(cache_env(tmp_path))
    env = _clean_env(tmp_path / "home") | {"VERBATIM_HOME": str(tmp_path / "data"), "TORCH_HOME": "/opt/torch-cache"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    expected = cache_env(tmp_path / "data") | {"TORCH_HOME": "/opt/torch-cache"}
    assert got == expected
