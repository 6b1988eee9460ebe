"""``verbatim ask --follow-up``: continues from the workspace's history, which ``ask`` writes."""

from __future__ import annotations

import os
import subprocess
import sys

from core.history import History
from core.store import Workspace


def _verbatim(*args: str, home) -> subprocess.CompletedProcess:
    env = {**os.environ, "VERBATIM_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "core", *args], capture_output=True, text=True, env=env, timeout=600)


def test_ask_records_history_and_follow_up_needs_an_earlier_question(verbatim_home) -> None:
    # asking never creates a workspace (a typo in -w must not leave one behind)
    out = _verbatim("ask", "When does the lease end?", "-w", "empty", home=verbatim_home)
    assert out.returncode == 2
    assert "no workspace named 'empty'" in out.stderr and "verbatim index FOLDER --workspace empty" in out.stderr
    assert not (verbatim_home / "workspaces" / "empty").exists()
    Workspace("empty")
    Workspace("fresh")
    # an empty workspace abstains without loading a model, and says the index is empty
    out = _verbatim("ask", "When does the lease end?", "-w", "empty", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("NO_EVIDENCE") and "no indexed text" in out.stdout
    [entry] = History(Workspace("empty").dir).entries()
    assert entry.question == "When does the lease end?" and entry.answer.status == "abstained"
    out = _verbatim("ask", "And the deposit?", "-w", "fresh", "--follow-up", home=verbatim_home)
    assert out.returncode == 2
    assert "--follow-up: workspace 'fresh' has no earlier question" in out.stderr
