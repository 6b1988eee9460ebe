"""A conflict is shown as disagreeing passages, not as an answer; a follow-up shows what it was
read as, and the window passes the workspace's conversation to core (real offscreen Qt)."""

from __future__ import annotations

import json

import core  # noqa: F401
from core.cli import format_answer
from core.generate import GenerationResult
from core.settings import Settings
from core.types import Answer, Citation, Claim, Trace
from desktop.render import CONFLICT_NOTE, Entry
from desktop.render_markdown import entry_markdown

TIMEOUT_MS = 120_000


def _cit(n: int, start: int) -> Citation:
    return Citation(chunk_id=f"lease/contrato.txt#p1-c{n}", doc_id="lease/contrato.txt", path="/tmp/contrato.txt",
                    page=1, quote=["La renta se abona el día 5 de cada mes.", "La renta se abona el día 10 de cada mes."][n],
                    match="exact", score=100, start=start, end=start + 40)


def _conflict(flag: bool, model_flag: bool = True) -> Answer:
    return Answer(
        question="¿Cuándo se abona la renta?", workspace="lease", status="answered",
        claims=[Claim(text="La cláusula 3 fija el día 5.", citations=[_cit(0, 0)]),
                Claim(text="El anexo fija el día 10.", citations=[_cit(1, 200)])],
        conflicting_evidence=flag,
        trace=Trace(backend="scripted", model="scripted", model_conflicting_evidence=model_flag),
    )


def test_conflict_is_rendered_as_disagreeing_passages_in_the_conversation(qtbot) -> None:
    from desktop.conversation import ConversationView

    view = ConversationView()
    qtbot.addWidget(view)
    view.set_entries([Entry(answer=_conflict(True))])
    text = view.answer_view.toPlainText()
    assert "CONFLICT" in text and "The cited passages disagree" in text
    assert CONFLICT_NOTE in " ".join(text.split())
    assert "What each passage says" in text
    # both sides stay cited and clickable, each with its own passage
    html = view.answer_view.toHtml()
    assert "cite:0:1" in html and "cite:0:2" in html
    assert "La renta se abona el día 5 de cada mes." in text and "La renta se abona el día 10 de cada mes." in text
    # an ordinary answer has none of it
    view.set_entries([Entry(answer=_conflict(False, model_flag=False))])
    assert "CONFLICT" not in view.answer_view.toPlainText()


def test_unconfirmed_conflict_is_said_and_markdown_and_cli_say_conflict() -> None:
    from desktop.render import entry_html

    assert "fewer than two verified passages" in entry_html(0, Entry(answer=_conflict(False)))
    md = entry_markdown(Entry(answer=_conflict(True)))
    assert "CONFLICT — The cited passages disagree" in md and "- La cláusula 3 fija el día 5. [1]" in md
    out = format_answer(_conflict(True))
    assert out.startswith("CONFLICT: the cited passages disagree") and "  - El anexo fija el día 10. [2]" in out


class _FollowUpBackend:
    """Rewrites any follow-up into a fixed standalone question; answers 'not found'."""

    name = "scripted"
    model = "scripted"
    context_window = 4096

    def __init__(self) -> None:
        self.calls: list[list[dict]] = []

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        self.calls.append(messages)
        if "standalone question" in messages[0]["content"]:
            return GenerationResult(text=json.dumps({"question": "¿Cuándo abona la renta el arrendatario?"}), prompt_tokens=0)
        return GenerationResult(text=json.dumps({"answer_found": False, "complete_answer": False,
                                                 "conflicting_evidence": False, "claims": [], "missing": "x"}),
                                prompt_tokens=0)


def test_window_passes_the_conversation_and_shows_what_the_follow_up_was_read_as(qtbot, tmp_path, monkeypatch) -> None:
    from desktop.main_window import MainWindow

    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home"))
    backend = _FollowUpBackend()
    window = MainWindow(Settings(), workspace="lease", backend=backend)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.workspace_name == "lease", timeout=TIMEOUT_MS)
    docs = tmp_path / "lease"
    docs.mkdir()
    (docs / "contrato.txt").write_text("El arrendatario abona la renta el día 5 de cada mes.\n", encoding="utf-8")
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):  # an empty index needs no rewrite
        window.start_indexing(str(docs))
    window.show_answer(_conflict(False, model_flag=False))  # an earlier turn of this conversation
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("¿Y el arrendatario?")
    answer = blocker.args[0]
    assert answer.question == "¿Y el arrendatario?"
    assert answer.trace.rewrite_method == "model" and answer.trace.history_turns == 1
    assert answer.trace.standalone_question == "¿Cuándo abona la renta el arrendatario?"
    assert "Human: ¿Cuándo se abona la renta?" in backend.calls[0][1]["content"]
    assert "La cláusula 3 fija el día 5." in backend.calls[0][1]["content"]  # the verified claims' text
    text = window.answer_view.toPlainText()
    assert "Read as: ¿Cuándo abona la renta el arrendatario?" in text
