"""`verbatim ask` reuses a warm engine (core.engine_server): left by a first ask, found through the
data folder's state file, used by the next ask without loading core's libraries, stopped when idle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from core.types import Answer

TEXT = " ".join(f"Clause {i}: the supplier shall deliver the goods of schedule {chr(65 + i)} within thirty days "
                f"and notify the buyer in writing of any delay." for i in range(12))

# Runs `verbatim ask` in a fresh interpreter and reports, after it, whether the pipeline was imported
# (it is not when the warm engine answered: "load only what a question needs").
_ASK = """
import json, sys
from core.cli import main
rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "pipeline": "core.pipeline" in sys.modules, "torch": "torch" in sys.modules}),
      file=sys.stderr)
"""


def _ask(home, *args: str, idle: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {**os.environ, "VERBATIM_HOME": str(home), "VERBATIM_ENGINE_IDLE_S": idle}
    out = subprocess.run([sys.executable, "-c", _ASK, "ask", *args], capture_output=True, text=True, env=env,
                         timeout=600)
    return out, json.loads(out.stderr.strip().splitlines()[-1])


def test_second_ask_is_answered_by_the_warm_engine_which_stops_when_idle(tmp_path, verbatim_home, monkeypatch):
    from core.cli import main
    from core.engine_server import read_state, state_file

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "supply.txt").write_text(TEXT, encoding="utf-8")
    assert main(["index", str(docs), "-w", "w"]) == 0
    question = ["When must the supplier deliver the goods?", "-w", "w", "--backend", "passages", "--json"]

    cold, seen = _ask(verbatim_home, *question, idle="20")
    assert cold.returncode == 0 and seen["rc"] == 0, cold.stderr
    assert seen["pipeline"]  # no engine yet: answered in its own process
    deadline = time.monotonic() + 300  # a loaded machine: the server's own start takes a while
    while read_state() is None and time.monotonic() < deadline:  # the first ask left one running
        time.sleep(0.1)
    info = read_state()
    assert info is not None and info.host == "127.0.0.1"
    assert oct(state_file().stat().st_mode & 0o777) == "0o600"  # its key is the user's alone

    warm, seen = _ask(verbatim_home, *question, idle="20")
    assert warm.returncode == 0 and seen["rc"] == 0, warm.stderr
    assert not seen["pipeline"] and not seen["torch"], "the warm engine did not answer"
    a, b = Answer.model_validate_json(cold.stdout), Answer.model_validate_json(warm.stdout)
    assert a.status == b.status != "abstained"
    assert [c.quote for c in a.claims for c in c.citations] == [c.quote for c in b.claims for c in c.citations]
    from core.history import History
    from core.store import Workspace

    assert len(History(Workspace("w", create=False).dir).entries()) == 2  # both stored, as the window does

    deadline = time.monotonic() + 300  # idle 20 s after the last question: it stops and removes its file
    while state_file().exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not state_file().exists()
    from core.engine_server import _pid_alive

    deadline = time.monotonic() + 30
    while _pid_alive(info.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _pid_alive(info.pid)


def test_a_stale_state_file_is_ignored_and_removed(verbatim_home):
    from core.engine_server import connect, state_dir, state_file

    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(proc.stdout)  # a pid that has exited
    state_dir().mkdir(parents=True, exist_ok=True)
    state_file().write_text(json.dumps({"pid": dead, "host": "127.0.0.1", "port": 9, "authkey": "00" * 32}))
    assert connect() is None
    assert not state_file().exists()


def test_a_non_loopback_state_file_is_never_used(verbatim_home):
    from core.engine_server import read_state, state_dir, state_file

    state_dir().mkdir(parents=True, exist_ok=True)
    state_file().write_text(json.dumps({"pid": os.getpid(), "host": "10.0.0.7", "port": 9, "authkey": "00" * 32}))
    assert read_state() is None
