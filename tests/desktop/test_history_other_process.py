"""The conversation keeps the answer just given as its current entry when another process added
rows to the same workspace history meanwhile (tryout 2, "Window, seen once": with `verbatim ask`
running on the workspace, after each answer the window showed an OLDER entry at its top). The
window kept its current entry as an index while the reloaded history had more rows before it.

Real offscreen window, real index; the other process's rows are written through core.history on
the workspace's SQLite file, as `verbatim ask` writes them."""

from __future__ import annotations

import core  # noqa: F401
from core.history import History
from core.settings import Settings
from tests.desktop.test_answer_flow import TIMEOUT_MS, _window


def _ask_and_store(qtbot, window, question: str, entries: int):
    """Ask in the window and wait until the answer is stored and the history read back (``entries`` rows)."""
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask(question)
    qtbot.waitUntil(lambda: len(window.conversation.entries) == entries
                    and all(e.history_id is not None for e in window.conversation.entries), timeout=TIMEOUT_MS)
    return blocker.args[0]


def test_the_answer_just_given_stays_current_when_another_process_added_rows(qtbot, tmp_path) -> None:
    window = _window(qtbot, tmp_path, Settings(backend="passages"), shown=True)
    first = _ask_and_store(qtbot, window, "When is the monthly rent paid?", 1)

    # another process (`verbatim ask`) answers two questions in the same workspace
    history = History(window.get_workspace("lease").dir)
    for n in (1, 2):
        history.add(first.model_copy(update={"question": f"Asked in a terminal {n}"}))

    scrolled: list[int] = []
    original = window.conversation.scroll_to_entry

    def scroll_to_entry(index: int) -> None:
        scrolled.append(index)
        original(index)

    window.conversation.scroll_to_entry = scroll_to_entry
    _ask_and_store(qtbot, window, "How long does the lease run?", 4)
    questions = [e.answer.question for e in window.conversation.entries]
    assert questions == ["When is the monthly rent paid?", "Asked in a terminal 1", "Asked in a terminal 2",
                         "How long does the lease run?"]
    assert window.current_entry == 3 and window.answer.question == "How long does the lease run?"
    assert scrolled[-1] == 3  # the conversation shows the new answer's question at its top
