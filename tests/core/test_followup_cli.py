"""``verbatim ask``: continues the workspace's conversation (its history, which ``ask`` writes) when
the question points back; ``--new`` starts a new conversation; ``--follow-up`` forces the follow-up reading."""

from __future__ import annotations

import json
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


def test_ask_continues_the_conversation_and_new_clears_it(verbatim_home) -> None:
    from core.types import Answer

    Workspace("talk")
    out = _verbatim("ask", "When does the lease end?", "-w", "talk", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    # points back: read as a follow-up of the conversation (no rewrite on an empty index: nothing to search)
    out = _verbatim("ask", "And the deposit?", "-w", "talk", "--json", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert Answer.model_validate(json.loads(out.stdout)).trace.follow_up_cue == "starts with 'and'"
    # stands on its own: searched as written
    out = _verbatim("ask", "What is the capital of Mongolia?", "-w", "talk", "--json", home=verbatim_home)
    assert Answer.model_validate(json.loads(out.stdout)).trace.follow_up_cue == "stands on its own"
    # --new: no context at all, and the next question starts from this one
    out = _verbatim("ask", "And the deposit?", "-w", "talk", "--json", "--new", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert Answer.model_validate(json.loads(out.stdout)).trace.follow_up_cue == ""
    history = History(Workspace("talk").dir)
    assert [e.question for e in history.conversation()] == ["And the deposit?"]
    assert len(history.entries()) == 4  # nothing deleted
    out = _verbatim("ask", "x", "-w", "talk", "--new", "--follow-up", home=verbatim_home)
    assert out.returncode == 2 and "not allowed with argument" in out.stderr
