"""Issue #16 in the window: an unrelated question is searched as written, a follow-up shows its
rewrite with a one-click undo, "New conversation" clears the context (and stays cleared after a
restart), and the answering state names each stage."""

from __future__ import annotations

import json

from PySide6.QtCore import QUrl

from core.generate import GenerationResult
from core.history import History
from core.settings import Settings
from tests.conftest import ask_in_window, delivered_chunks, whole_words

TIMEOUT_MS = 180_000
LEASE = ("The tenant pays the monthly rent of 750 euros on the fifth day of each month. "
         "The deposit is two months of rent, returned within thirty days after the lease ends.\n") * 3
REWRITE = "When is the deposit returned after the lease ends?"


class LeaseBackend:
    """Rewrites any follow-up into :data:`REWRITE`; answers by quoting the first delivered chunk."""

    name = "scripted"
    model = "scripted"
    context_window = 4096

    def __init__(self) -> None:
        self.rewrites = 0

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        if "standalone question" in messages[0]["content"]:
            self.rewrites += 1
            return GenerationResult(text=json.dumps({"question": REWRITE}), prompt_tokens=0)
        cid, text = next(iter(delivered_chunks(messages).items()))
        return GenerationResult(text=json.dumps({
            "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
            "claims": [{"text": "The lease says so.", "citations": [{"chunk_id": cid, "quote": whole_words(text, 0, 60)}]}],
        }), prompt_tokens=0)


def _window(qtbot, tmp_path, backend, name="lease"):
    from desktop.main_window import MainWindow

    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace=name, backend=backend)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == name, timeout=TIMEOUT_MS)
    return window


def test_follow_up_rewrite_is_shown_and_undone_in_one_click_and_a_new_conversation_clears_it(qtbot, tmp_path):
    docs = tmp_path / "lease"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    backend = LeaseBackend()
    window = _window(qtbot, tmp_path, backend)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    stages: list[str] = []
    original = window.conversation.set_busy
    window.conversation.set_busy = lambda busy, text="": (stages.append(text), original(busy, text))

    ask_in_window(qtbot, window, "How much is the monthly rent?")
    # the answering state named each stage (issue #16: an indeterminate bar for a minute)
    assert "Searching the documents…" in stages
    assert "Reading 1 passage…" in stages, stages  # one chunk in this workspace; Qt picks the singular
    assert "Generating the answer…" in stages and "Verifying every quote…" in stages

    unrelated = ask_in_window(qtbot, window, "What is the capital of Mongolia?")
    assert unrelated.trace.follow_up_cue == "stands on its own" and not unrelated.trace.standalone_question
    assert backend.rewrites == 0

    follow_up = ask_in_window(qtbot, window, "And the deposit?")
    assert follow_up.trace.standalone_question == REWRITE and backend.rewrites == 1
    text = window.answer_view.toPlainText()
    assert f"Read as: {REWRITE}" in text and "search as I wrote it" in text
    assert "aswritten:2" in window.answer_view.toHtml()
    qtbot.waitUntil(lambda: window.history_view.count() == 3, timeout=TIMEOUT_MS)

    # one click: the same question, searched as written, in place of the rewritten answer
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.conversation._on_anchor(QUrl("aswritten:2"))
    as_written = blocker.args[0]
    assert as_written.question == "And the deposit?" and as_written.trace.rounds[0].query == "And the deposit?"
    assert as_written.trace.follow_up_cue == "searched as written on request" and backend.rewrites == 1
    assert len(window.conversation.entries) == 3 and window.conversation.entries[2].answer is as_written
    assert "Read as:" not in window.answer_view.toPlainText()
    def stored():
        return [(e.question, e.answer.trace.follow_up_cue) for e in History(window._get_workspace("lease").dir).entries()]

    qtbot.waitUntil(lambda: stored() == [("How much is the monthly rent?", ""),
                                         ("What is the capital of Mongolia?", "stands on its own"),
                                         ("And the deposit?", "searched as written on request")],
                    timeout=TIMEOUT_MS)  # the rewritten answer replaced in the history too

    # New conversation: the earlier questions give no context (the follow-up is searched as written)
    last_id = History(window._get_workspace("lease").dir).entries()[-1].id
    window.new_conversation()
    assert "New conversation" in window.answer_view.toPlainText()  # the divider
    fresh = ask_in_window(qtbot, window, "And the deposit?")
    assert fresh.trace.follow_up_cue == "" and fresh.trace.history_turns == 0 and backend.rewrites == 1
    qtbot.waitUntil(lambda: History(window._get_workspace("lease").dir).conversation_start() == last_id,
                    timeout=TIMEOUT_MS)
    window.close()

    # After a restart the conversation still starts after the divider: one turn of context, not four.
    window = _window(qtbot, tmp_path, backend)
    qtbot.waitUntil(lambda: len(window.conversation.entries) == 4, timeout=TIMEOUT_MS)
    assert [e.answer.question for e in window.context_entries("lease")] == ["And the deposit?"]
    again = ask_in_window(qtbot, window, "And the rent?")
    assert again.trace.history_turns == 1 and backend.rewrites == 2
