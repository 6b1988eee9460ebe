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
    from core.engine_server import ready_state

    while not ready_state()["ready"] and time.monotonic() < deadline:
        time.sleep(0.2)
    # it read the asked workspace ahead, so the next question there pays only its own work
    assert set(ready_state()["warmed"]) == {"w"} and ready_state()["warmed"]["w"] > 0
    assert oct(state_file().stat().st_mode & 0o777) == "0o600"  # still, once rewritten "ready"

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


def _where(*, cancel) -> int:
    """An engine op: the pid of the process it runs in."""
    return os.getpid()


def test_an_engine_shared_with_the_command_line_answers_there_and_is_only_unregistered_by_stop(
        verbatim_home, monkeypatch):
    """The window's engine registers itself (``share_engine_op``, run inside it): an ``ask`` connects to it
    as to a warm engine; ``stop`` unregisters it without ending it; nothing is shared with the warm
    engine off, or over another live engine. Here the test process plays the window's engine."""
    from core.engine_server import call, connect, read_state, share_engine_op, state_dir, state_file, stop

    assert share_engine_op() is False and read_state() is None  # VERBATIM_ENGINE_IDLE_S=0: off
    monkeypatch.setenv("VERBATIM_ENGINE_IDLE_S", "600")
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:  # another live engine serves the data folder: it keeps it
        state_dir().mkdir(parents=True, exist_ok=True)
        state_file().write_text(json.dumps({"pid": other.pid, "host": "127.0.0.1", "port": 9, "authkey": "00" * 32}))
        assert share_engine_op() is False and read_state().pid == other.pid
    finally:
        other.kill()
        other.wait()
    assert share_engine_op() is True
    info = read_state()
    assert info.pid == os.getpid() and oct(state_file().stat().st_mode & 0o777) == "0o600"
    from core.engine_server import ready_state

    assert ready_state()["ready"]  # the window's engine has loaded its libraries when it registers
    for _ in range(2):  # two asks in a row, each on its own connection
        conn = connect()
        assert conn is not None
        assert call(conn, _where) == os.getpid()
    assert stop() is True and read_state() is None  # unregistered; this process (the window's engine) lives on
    assert connect() is None


def test_the_engine_warm_up_embeds_the_clause_vocabulary():
    """A warm engine (the window's or `ask`'s) embeds the clause vocabulary's phrases in its warm-up, so the
    first question matched by meaning does not pay for it (8.9 s of 9.8 s at load, bench/README.md)."""
    import core.clauses
    from core.engine import WARM_UP_STEPS

    steps = dict(WARM_UP_STEPS)
    assert "clause vocabulary" in steps
    core.clauses._phrase_vectors = core.clauses._PhraseVectors()  # as in a fresh process
    steps["clause vocabulary"]()
    owners, vectors = core.clauses._phrase_vectors._data
    assert len(owners) == vectors.shape[0] > 0 and vectors.shape[1] == 384  # the bundled MiniLM's dimension
