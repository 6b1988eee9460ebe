"""The window with passages answers and streamed model answers (issue #13): screenshots at
1440×900 and the streaming latency, in one run on the bundled sample corpus.

Screenshots (``OUT_DIR``): ``passages_answered`` (a passages answer, its first passage
highlighted on the page), ``streaming`` (a model answer half-way: the sentences verified so
far, the rest still being written), ``passages_abstained`` (NO_EVIDENCE from the passages
answer), ``passages_spanish`` (Spanish window, a Spanish question answered with passages).
Retrieval, span scoring, verification and rendering are real; the streamed model answer is
scripted (:data:`bench.window_screenshots.ANSWERED`: quotes found in the delivered chunks),
streamed in 6-character pieces.

Streaming latency: for each claim of the scripted stream, the time from the piece that closes
its JSON object (the next claim's opening brace) leaving the backend to the window having
shown the verified sentence (``AnswerFlow.live_shown``, emitted after the conversation was
re-rendered), with the real pipeline (verification with page rectangles), the worker thread and
Qt's queued delivery in between. The pieces are paced at ``--pace`` seconds (a fast local
model writes a 6-character piece in about 20 ms). Printed: each claim's latency, the median and
the maximum.

Run under Xvfb (``Xvfb :99 -screen 0 1920x1080x24 &``; ``DISPLAY=:99``) or offscreen.

Usage: ``python bench/passages_window.py [OUT_DIR] [--pace SECONDS]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.window_screenshots import ANSWERED, ANSWERED_Q, _Scripted, _settle, _wait  # noqa: E402

PASSAGES_Q = "What are the potential impact levels?"  # the fresh-user question of issue #13 (FIPS 199 p. 6)
ABSTAIN_Q = "Who won the 1998 World Cup?"
SPANISH_Q = "¿Qué derechos protege la Constitución respecto a la libertad de expresión?"


class _Streamed(_Scripted):
    """The scripted reply, streamed in 6-character pieces every ``pace`` seconds; holds after
    ``hold_after`` claims until ``gate`` is set (for the half-way screenshot)."""

    def __init__(self, pace: float) -> None:
        super().__init__()
        self.pace = pace
        self.gate = threading.Event()
        self.hold_after: int | None = None
        self.closed_at: list[float] = []  # perf_counter when the piece closing claim i was yielded

    def chat_json_stream(self, messages, schema, *, num_ctx, max_tokens):
        result = self.chat_json(messages, schema, num_ctx=num_ctx, max_tokens=max_tokens)
        obj = json.loads(result.text)  # in the schema's order, as a constrained model writes it
        text = result.text = json.dumps({k: obj[k] for k in
                                         ("answer_found", "complete_answer", "conflicting_evidence", "claims", "missing")})
        # each claim object ends at the "}" before the next claim's "{" (", " between them), the last
        # one before the "]" that closes the array
        starts = [i for i in range(len(text)) if text.startswith('{"text"', i)][1:]
        closes = [text.rindex("}", 0, s) for s in starts] + [text.rindex("}", 0, text.index('"missing"'))]
        self.closed_at = []
        n = 0
        for i in range(0, len(text), 6):
            piece = text[i:i + 6]
            time.sleep(self.pace)
            closing = [c for c in closes if i <= c < i + 6]
            if closing:
                self.closed_at.append(time.perf_counter())
                n += 1
            yield piece
            if self.hold_after is not None and n == self.hold_after and closing:
                self.gate.wait(600)
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "tests" / "artifacts" / "screens"))
    parser.add_argument("--pace", type=float, default=0.02)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-passages-shots-")
    from PySide6.QtWidgets import QApplication

    import core  # noqa: F401
    from core.settings import Settings
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow

    app = QApplication.instance() or QApplication([])

    def shot(widget, name: str) -> None:
        _settle(app)
        path = out / f"{name}.png"
        widget.grab().save(str(path))
        print(path)

    # --- passages answers (no model) -------------------------------------------------
    settings = Settings(ollama_host="http://127.0.0.1:9", backend="passages")
    window = MainWindow(settings)
    window.resize(1440, 900)
    window.show()
    reports, answers, pages = [], [], []
    window.indexing_finished.connect(reports.append)
    window.answer_ready.connect(answers.append)
    window.page_rendered.connect(lambda: pages.append(1))
    window.open_sample()
    _wait(app, lambda: bool(reports), 1800)  # indexing the sample: minutes on a loaded machine

    def ask(win, question: str):
        before = len(answers)
        win.ask(question)
        _wait(app, lambda: len(answers) > before)
        return answers[-1]

    answer = ask(window, PASSAGES_Q)
    if answer.kind != "passages" or answer.status != "answered":
        raise SystemExit(f"{PASSAGES_Q!r}: {answer.status} ({answer.kind})")
    print(f"passages: {len(answer.claims)} shown, best score {answer.trace.passage_best_score}, "
          f"retrieve {answer.trace.timings_ms.get('retrieve')} ms, score {answer.trace.timings_ms.get('score')} ms, "
          f"total {answer.trace.timings_ms.get('total')} ms")
    pages.clear()
    window.open_citation(1)
    _wait(app, lambda: bool(pages))
    shot(window, "passages_answered")

    answer = ask(window, ABSTAIN_Q)
    if answer.status != "abstained":
        raise SystemExit(f"{ABSTAIN_Q!r}: {answer.status}, best {answer.trace.passage_best_score}")
    print(f"abstained: best score {answer.trace.passage_best_score} < {answer.trace.passage_threshold}")
    pages.clear()
    window.open_consulted_document(len(window.conversation.entries) - 1, 0)
    _wait(app, lambda: bool(pages))
    shot(window, "passages_abstained")
    window.close()

    # --- a model answer, streamed ---------------------------------------------------------
    backend = _Streamed(args.pace)
    backend.script = ANSWERED
    stream_win = MainWindow(settings.model_copy(update={"backend": "auto"}), workspace="sample", backend=backend)
    stream_win.resize(1440, 900)
    stream_win.show()
    stream_win.answer_ready.connect(answers.append)
    _wait(app, lambda: stream_win.workspace_name == "sample" and stream_win.history_view.count() >= 2)
    shown_at: list[float] = []
    # one live_shown per streamed claim (verified or removed); None when the preview is taken away
    stream_win.answers.live_shown.connect(lambda e: shown_at.append(time.perf_counter()) if e is not None else None)
    backend.hold_after = 2
    before = len(answers)
    stream_win.ask(ANSWERED_Q)
    _wait(app, lambda: len(shown_at) >= 2)
    shot(stream_win, "streaming")
    backend.gate.set()
    _wait(app, lambda: len(answers) > before)
    lat = [(s - c) * 1000 for c, s in zip(backend.closed_at, shown_at)]
    print("streaming: claim closed -> verified sentence shown, ms: " + ", ".join(f"{x:.1f}" for x in lat)
          + f" (median {statistics.median(lat):.1f}, max {max(lat):.1f}; pieces every {args.pace * 1000:.0f} ms)")
    # once more without holding, for a clean latency run
    shown_at.clear()
    backend.hold_after = None
    before = len(answers)
    stream_win.ask(ANSWERED_Q + " ")
    _wait(app, lambda: len(answers) > before)
    lat = [(s - c) * 1000 for c, s in zip(backend.closed_at, shown_at)]
    print("streaming (second run): " + ", ".join(f"{x:.1f}" for x in lat)
          + f" (median {statistics.median(lat):.1f}, max {max(lat):.1f})")
    stream_win.close()

    # --- Spanish ------------------------------------------------------------------------------
    install_translator(app, "es")
    spanish = MainWindow(settings, workspace="sample")
    spanish.resize(1440, 900)
    spanish.show()
    spanish.answer_ready.connect(answers.append)
    spanish.page_rendered.connect(lambda: pages.append(1))
    _wait(app, lambda: spanish.workspace_name == "sample" and spanish.history_view.count() >= 4)
    answer = ask(spanish, SPANISH_Q)
    print(f"spanish: {answer.status}, {len(answer.claims)} passages, best {answer.trace.passage_best_score}")
    if answer.claims:
        pages.clear()
        spanish.open_citation(1)
        _wait(app, lambda: bool(pages))
    shot(spanish, "passages_spanish")
    spanish.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
