"""The window's answer flow (desktop/answer_flow.py), real offscreen Qt, real index: passages answers,
"Show matching passages" under a model's answer, and a model answer shown sentence by sentence
as it streams, with Stop working mid-stream."""

from __future__ import annotations

import json
import threading

from PySide6.QtCore import QUrl

import core  # noqa: F401
from core.generate import GenerationResult
from core.passages import PASSAGES_HEADER, WEAK_HEADER, WEAK_MESSAGE
from core.settings import Settings
from tests.conftest import ScriptedBackend, cite_first, delivered_chunks, whole_words

TIMEOUT_MS = 240_000
LEASE = ("The Tenant shall pay the monthly rent of 1,200 euros on the first business day of each month. "
         "The lease runs for a term of three (3) years from 1 March 2024. "
         "Either party may terminate the lease with ninety (90) days written notice.\n")


class StreamingScripted(ScriptedBackend):
    """A scripted reply streamed piece by piece; it waits on ``gate`` once its first claim has closed."""

    def __init__(self, *scripts) -> None:
        super().__init__(*scripts)
        self.gate = threading.Event()

    def chat_json_stream(self, messages, schema, *, num_ctx, max_tokens):
        self.calls.append(messages)
        text = self.scripts[0](delivered_chunks(messages))
        second = text.index('{"text"', text.index('{"text"') + 1)
        for i in range(0, len(text), 8):
            if i <= second < i + 8:
                yield text[i:second + 1]  # the second claim begins: the first is closed
                assert self.gate.wait(TIMEOUT_MS / 1000)
                yield text[second + 1:i + 8]
            else:
                yield text[i:i + 8]
        return GenerationResult(text=text, prompt_tokens=10, completion_tokens=len(text) // 8, finish_reason="stop")


def _two_claims(chunks: dict[str, str]) -> str:
    cid, text = next(iter(chunks.items()))
    return json.dumps({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [
            {"text": "Rent is paid on the first business day.", "citations": [{"chunk_id": cid, "quote": whole_words(text, 0, 80)}]},
            {"text": "The lease can end with 60 days notice.", "citations": [{"chunk_id": cid, "quote": "terminate with sixty days notice"}]},
        ],
    })


def _window(qtbot, tmp_path, settings: Settings, backend=None, *, shown: bool = False):
    """A window on the workspace "lease" holding :data:`LEASE`, indexed; ``shown``: sized 1440×900 and shown
    (also used by test_weak_panel and test_history_other_process)."""
    from desktop.main_window import MainWindow

    folder = tmp_path / "lease"
    folder.mkdir()
    (folder / "lease.txt").write_text(LEASE, encoding="utf-8")
    window = MainWindow(settings, workspace="lease", backend=backend)
    qtbot.addWidget(window)
    if shown:
        window.resize(1440, 900)
        window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "lease", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(folder))
    return window


def test_passages_answer_shows_the_header_and_opens_its_citation(qtbot, tmp_path) -> None:
    window = _window(qtbot, tmp_path, Settings(backend="passages"))
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("When is the monthly rent paid?")
    answer = blocker.args[0]
    assert answer.kind == "passages" and answer.status == "answered"
    text = " ".join(window.answer_view.toPlainText().split())
    assert PASSAGES_HEADER in text
    assert "The Tenant shall pay the monthly rent of 1,200 euros" in text
    assert "Show matching passages" not in text  # offered under a model's answer only
    # the backend in plain words, not the scoring's description ("Model: passages (sentence scoring (...))")
    assert window.backend_label.text() == "Answer with: passages (no model)"
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    assert window.answers.current_citation == 1
    # an unrelated question asked next is searched as asked (no model to read it as a follow-up)
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("Who won the 1998 World Cup?")
    abstained = blocker.args[0]
    assert abstained.status == "abstained" and abstained.kind == "passages"
    assert abstained.abstention.query == "Who won the 1998 World Cup?"
    text = " ".join(window.answer_view.toPlainText().split())
    # issue #20: below the threshold the closest passages are still shown, marked weak, clickable to the page
    assert WEAK_MESSAGE in text and WEAK_HEADER in text and "[weak]" in text
    assert abstained.claims == [] and abstained.abstention.candidates
    assert "Show matching passages" not in text and "Read as" not in text
    weak = abstained.abstention.candidates[0]
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    assert window.side_panel.citation.quote == weak.text and window.side_panel.citation.page == weak.page


def test_show_matching_passages_under_a_model_answer(qtbot, tmp_path) -> None:
    window = _window(qtbot, tmp_path, Settings(stream_answers=False), ScriptedBackend(cite_first("Rent is monthly.")))
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("When is the monthly rent paid?")
    assert blocker.args[0].kind == "model"
    assert "passages:0" in window.answer_view.toHtml()
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.conversation._on_anchor(QUrl("passages:0"))  # the "Show matching passages" link
    shown = blocker.args[0]
    assert shown.kind == "passages" and shown.question == "When is the monthly rent paid?"
    assert shown.trace.backend == "passages"
    assert [e.answer.kind for e in window.conversation.entries] == ["model", "passages"]


def test_streamed_claims_appear_verified_before_the_answer_ends(qtbot, tmp_path) -> None:
    backend = StreamingScripted(_two_claims)
    window = _window(qtbot, tmp_path, Settings(), backend)
    previews: list = []
    window.answers.live_shown.connect(previews.append)
    window.ask("When is the monthly rent paid?")
    # the first claim is verified and shown while the model is still "writing" (held at the gate)
    qtbot.waitUntil(lambda: window.conversation.live is not None, timeout=TIMEOUT_MS)
    live = window.conversation.live
    assert live.streaming and [c.text for c in live.answer.claims] == ["Rent is paid on the first business day."]
    assert live.answer.claims[0].citations[0].quote in LEASE
    assert "Verifying each sentence as the model writes" in window.answer_view.toPlainText()
    assert window.conversation.entries == []
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        backend.gate.set()
    final = blocker.args[0]
    # the removed second sentence was previewed with its reason, then the final answer replaced the preview
    assert any(p is not None and p.answer.rejected for p in previews)
    assert window.conversation.live is None and len(window.conversation.entries) == 1
    assert final.status == "partial" and [c.text for c in final.claims] == ["Rent is paid on the first business day."]
    assert "Verifying each sentence" not in window.answer_view.toPlainText()


def test_stop_mid_stream_keeps_nothing_half_shown(qtbot, tmp_path) -> None:
    backend = StreamingScripted(_two_claims)
    window = _window(qtbot, tmp_path, Settings(), backend)
    window.ask("When is the monthly rent paid?")
    qtbot.waitUntil(lambda: window.conversation.live is not None, timeout=TIMEOUT_MS)
    window.stop_asking()
    backend.gate.set()  # the next piece arrives; core sees the cancel and stops reading
    qtbot.waitUntil(lambda: window.stage_label.text() == "Stopped", timeout=TIMEOUT_MS)
    assert window.conversation.live is None and window.conversation.entries == []
    assert window.answers.busy_workspace is None


def test_a_shown_workspace_with_chunks_is_read_ahead_once_in_the_engine(qtbot, tmp_path) -> None:
    # Issue #15: the first question in a large workspace paid for loading its indexes (2.7-7 s
    # at 1M chunks); the window now has the engine read them when the workspace is shown.
    window = _window(qtbot, tmp_path, Settings(backend="passages"))
    qtbot.waitUntil(lambda: "lease" in window.answers.warm_seconds, timeout=TIMEOUT_MS)
    assert window.answers.warm_seconds["lease"] > 0  # the engine opened it and searched it
    before = dict(window.answers.warm_seconds)
    with qtbot.waitSignal(window.workspace_loaded, timeout=TIMEOUT_MS):
        window.workspaces.refresh()  # shown again (a commit, a refresh): not read a second time
    assert window.answers.warm_seconds == before and window.answers.warmed == {"lease"}
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("When is the monthly rent paid?")
    assert blocker.args[0].status == "answered"
