"""Screenshots of issue #16's states at 1440×900, for looking at them.

States:

* ``created_while_loading`` — a workspace created while the engine still loads its
  libraries: listed and selected at once, the status bar still says "Engine: loading…";
* ``documents_mid_index`` — the 15 CUAD contracts of ``tests/data`` being indexed:
  committed documents listed with their state beside the queued ones, the folder
  listed, the time left (or "estimating…");
* ``fresh_question`` — "What is the capital of Mongolia?" after a question about
  FISMA's security objectives: searched as written (no "Read as" line);
* ``follow_up`` — "And what does a loss of integrity mean?": rewritten, the rewrite shown
  with "search as I wrote it";
* ``scope_named`` — a question naming one contract: "Searching in: …" above the answer, with
  "search all documents" (issue #12);
* ``scope_chip`` — two contracts selected in the Documents list: the chip beside the question box;
* ``spanish_mid_index``, ``spanish_follow_up`` — the same in the Spanish window.

Answers come from a scripted generator (retrieval, verification and rendering are real;
the bench is about the window): its quotes are words found in the delivered chunks.
The script stops with an error when a state is not what its name says.

Run under Xvfb (``Xvfb :99 -screen 0 1440x900x24 &``; ``DISPLAY=:99``) or offscreen.

Usage: ``python bench/window_screenshots_lists.py [OUT_DIR]`` (default ``tests/artifacts/screens``).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
CONTRACTS = ROOT / "tests" / "data" / "corpora" / "cuad" / "pdf"

from window_screenshots import _Scripted as _ScriptedBase  # noqa: E402
from window_screenshots import _settle, _wait  # noqa: E402

FIRST_Q = "Which security objectives does FISMA define?"
FIRST = [("FISMA defines the security objectives confidentiality, integrity and availability.",
          ["SECURITY OBJECTIVE: Confidentiality, integrity, or availability."])]
FRESH_Q = "What is the capital of Mongolia?"
FOLLOW_Q = "And what does a loss of integrity mean?"
FOLLOW_REWRITE = "What does a loss of integrity mean under FIPS 199?"
FOLLOW = [("A loss of integrity is the unauthorized modification or destruction of information.",
           ["A loss of integrity is the unauthorized modification or destruction of information."])]
SCOPE_Q = "In the Western Copper non-competition agreement, how long does the restriction last?"
ES_FIRST_Q = "¿Qué derechos protege la Constitución respecto a la libertad de expresión?"
ES_FIRST = [("La Constitución protege el derecho a expresar y difundir libremente los pensamientos.",
             ["A expresar y difundir libremente los pensamientos, ideas y opiniones"])]
ES_FOLLOW_Q = "¿Y qué dice sobre la censura previa?"
ES_FOLLOW_REWRITE = "¿Qué dice la Constitución sobre la censura previa?"
ES_FOLLOW = [("El ejercicio de estos derechos no puede restringirse mediante censura previa.",
              ["El ejercicio de estos derechos no puede restringirse mediante ningún tipo de censura previa."])]


class _Scripted(_ScriptedBase):
    """:mod:`window_screenshots`' scripted generator (answers from :attr:`script`, ``None``: nothing
    found) that rewrites a follow-up into :attr:`rewrite`."""

    def __init__(self) -> None:
        super().__init__()
        self.script = None
        self.rewrite = ""

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        from core.generate import GenerationResult

        if "standalone question" in messages[0]["content"]:
            return GenerationResult(text=json.dumps({"question": self.rewrite}), prompt_tokens=0)
        return super().chat_json(messages, schema, num_ctx=num_ctx, max_tokens=max_tokens)


def main() -> int:
    """Save the screenshots; prints their paths and what each shows."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "artifacts" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-shots16-")
    from PySide6.QtWidgets import QApplication

    import core  # noqa: F401
    from core.engine import Engine
    from core.paths import sample_corpus_dir
    from core.settings import Settings
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow
    from desktop.workspaces_panel import ROLE_STATUS

    app = QApplication.instance() or QApplication([])
    settings = Settings(ollama_host="http://127.0.0.1:9", index_commit_chunks=64)

    def shot(window, name: str) -> None:
        _settle(app)
        path = out / f"{name}.png"
        window.grab().save(str(path))
        print(path)

    def states(window) -> list[str]:
        view = window.documents_view
        return [view.topLevelItem(i).data(0, ROLE_STATUS) for i in range(view.topLevelItemCount())]

    # 1. A workspace created while the engine loads.
    class LoadingEngine(Engine):
        def start(self):
            pass

        def wait_ready(self, timeout=None):
            threading.Event().wait(timeout)
            return False

    window = MainWindow(settings, engine=LoadingEngine())
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.ollama_ok is not None)
    window.create_workspace("Contracts")
    _wait(app, lambda: window.workspace_name == "Contracts")
    if window.engine_label.text() != "Engine: loading…":
        raise SystemExit("created_while_loading: the engine is not loading")
    shot(window, "created_while_loading")
    window.close()

    # 2. Documents appearing mid-index (the real engine process).
    backend = _Scripted()

    def index_mid_run(win, name: str) -> None:
        reports = []
        win.indexing_finished.connect(reports.append)
        win.start_indexing(str(CONTRACTS))
        _wait(app, lambda: bool(reports) or ("active" in states(win) and "queued" in states(win)
                                              and win.eta_label.isVisible()))
        if reports:
            raise SystemExit(f"{name}: the run ended before a mid-run state was seen")
        shot(win, name)
        _wait(app, lambda: bool(reports))

    window = MainWindow(settings, workspace="Contracts", engine=Engine())
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.workspace_name == "Contracts")
    index_mid_run(window, "documents_mid_index")
    window.close()

    # 3-4. A fresh question after an unrelated one; a real follow-up.
    window = MainWindow(settings, workspace="sample", backend=backend)
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.workspace_name == "sample")
    reports = []
    window.indexing_finished.connect(reports.append)
    window.start_indexing(str(sample_corpus_dir()))
    _wait(app, lambda: bool(reports))
    answers = []
    window.answer_ready.connect(answers.append)

    def ask(win, question, script, rewrite="") -> object:
        backend.script, backend.rewrite, backend.missing = script, rewrite, []
        before = len(answers)
        win.ask(question)
        _wait(app, lambda: len(answers) > before)
        if backend.missing:
            raise SystemExit(f"{question!r}: quotes not delivered: {backend.missing}")
        return answers[-1]

    first = ask(window, FIRST_Q, FIRST)
    if first.status != "answered":
        raise SystemExit(f"the first question was not answered: {first.status}")
    fresh = ask(window, FRESH_Q, None)
    if fresh.trace.standalone_question or fresh.trace.follow_up_cue != "stands on its own":
        raise SystemExit(f"fresh_question was rewritten: {fresh.trace}")
    shot(window, "fresh_question")
    follow = ask(window, FOLLOW_Q, FOLLOW, FOLLOW_REWRITE)
    if follow.trace.standalone_question != FOLLOW_REWRITE or follow.status != "answered":
        raise SystemExit(f"follow_up: {follow.status} {follow.trace.standalone_question!r}")
    shot(window, "follow_up")
    window.close()

    # 5. Issue #12: a question naming one contract says where it searched; documents selected
    # in the list are the next question's scope (the chip beside the question box).
    window = MainWindow(settings, workspace="Contracts", backend=backend)
    window.resize(1440, 900)
    window.show()
    window.answer_ready.connect(answers.append)
    _wait(app, lambda: window.workspace_name == "Contracts" and window.documents_view.topLevelItemCount() >= 15)
    named = ask(window, SCOPE_Q, None)
    if named.trace.scope.method != "named" or "Searching in:" not in window.answer_view.toHtml():
        raise SystemExit(f"scope_named: {named.trace.scope}")
    shot(window, "scope_named")
    view = window.documents_view
    for i in range(view.topLevelItemCount()):
        if "AGENCY" in view.topLevelItem(i).text(0) or "SUPPLY" in view.topLevelItem(i).text(0):
            view.topLevelItem(i).setSelected(True)
    if not window.conversation.scope_row.isVisible():
        raise SystemExit("scope_chip: no chip for the selected documents")
    window.question_edit.setText("Can either party terminate for convenience?")
    shot(window, "scope_chip")
    window.close()

    # 6. Spanish.
    install_translator(app, "es")
    window = MainWindow(settings, workspace="Contratos", engine=Engine())
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.workspace_name == "Contratos")
    index_mid_run(window, "spanish_mid_index")
    window.close()
    window = MainWindow(settings, workspace="sample", backend=backend)
    window.resize(1440, 900)
    window.show()
    window.answer_ready.connect(answers.append)
    _wait(app, lambda: window.workspace_name == "sample" and window.history_view.count() >= 3)
    window.new_conversation()
    ask(window, ES_FIRST_Q, ES_FIRST)
    follow = ask(window, ES_FOLLOW_Q, ES_FOLLOW, ES_FOLLOW_REWRITE)
    if follow.trace.standalone_question != ES_FOLLOW_REWRITE:
        raise SystemExit(f"spanish_follow_up: {follow.trace.standalone_question!r}")
    shot(window, "spanish_follow_up")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
