"""Screenshots of the window's main states at 1440×900, for looking at them.

States: ``empty`` (first run), ``indexing`` (mid-run), ``answered`` (claims with
chips, the cited page highlighted in the side panel), ``partial`` (removed
sentences expanded), ``abstained`` and ``spanish``. Answers come from a scripted
generator (the bench is about the window; retrieval, verification and rendering
are real). Run under Xvfb (``Xvfb :99 &``; ``DISPLAY=:99``) or offscreen.

Usage: ``python bench/window_screenshots.py [OUT_DIR]`` (default ``tests/artifacts/screens``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_CHUNK = re.compile(r'<chunk id="([^"]+)">\n(.*?)\n</chunk>', re.DOTALL)


class _Scripted:
    name = model = "scripted"
    context_window = 4096

    def __init__(self, partial: bool = False) -> None:
        self.partial = partial

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        from core.generate import GenerationResult

        chunks = _CHUNK.findall(messages[-1]["content"])
        (c1, t1), (c2, t2) = chunks[0], chunks[min(1, len(chunks) - 1)]
        claims = [
            {"text": "FIPS 199 defines three security objectives: confidentiality, integrity and availability.",
             "citations": [{"chunk_id": c1, "quote": t1[100:180]}]},
            {"text": "The potential impact is rated low, moderate or high.",
             "citations": [{"chunk_id": c2, "quote": t2[40:120]}]},
        ]
        if self.partial:
            claims.append({"text": "The standard was signed in 1999.",
                           "citations": [{"chunk_id": c1, "quote": "signed by the Secretary of Commerce in 1999"}]})
        return GenerationResult(text=json.dumps({
            "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
            "claims": claims}), prompt_tokens=0)


def _wait(app, cond, timeout_s: float = 600) -> None:
    from PySide6.QtCore import QEventLoop

    end = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def _settle(app, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    _wait(app, lambda: time.monotonic() > end)


def main() -> int:
    """Save the screenshots; prints their paths."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "artifacts" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-shots-")
    from PySide6.QtCore import QUrl
    from PySide6.QtWidgets import QApplication

    import core  # noqa: F401
    from core.paths import sample_corpus_dir
    from core.settings import Settings
    from core.types import Abstention, Answer, ConsultedDoc
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    settings = Settings(ollama_host="http://127.0.0.1:9")

    def shot(window, name: str) -> None:
        _settle(app)
        path = out / f"{name}.png"
        window.grab().save(str(path))
        print(path)

    backend = _Scripted()
    window = MainWindow(settings, backend=backend)
    window.resize(1440, 900)
    window.show()
    _wait(app, lambda: window.ollama_ok is not None)
    shot(window, "empty")

    reports = []
    window.indexing_finished.connect(reports.append)
    window.open_sample()
    _wait(app, lambda: window.workspaces_panel.eta_label.isVisible() or bool(reports))
    shot(window, "indexing")
    _wait(app, lambda: bool(reports))
    _wait(app, lambda: window.documents_view.topLevelItemCount() == 2)

    answers, pages = [], []
    window.answer_ready.connect(answers.append)
    window.page_rendered.connect(lambda: pages.append(1))
    window.ask("What are the security objectives and how is impact rated?")
    _wait(app, lambda: bool(answers))
    window.open_citation(1)
    _wait(app, lambda: bool(pages))
    shot(window, "answered")

    backend.partial = True
    window.ask("When was the standard signed?")
    _wait(app, lambda: len(answers) == 2)
    window.conversation._on_anchor(QUrl(f"toggle:{len(window.conversation.entries) - 1}"))
    shot(window, "partial")

    window.show_answer(Answer(
        question="Who won the 1998 World Cup?", workspace="sample", status="abstained",
        abstention=Abstention(
            message="The documents consulted do not answer this question.",
            query="Who won the 1998 World Cup?",
            consulted=[ConsultedDoc(doc_id="docs/NIST.FIPS.199.pdf",
                                    path=str(sample_corpus_dir() / "NIST.FIPS.199.pdf"), pages=[1, 2])]),
    ))
    pages.clear()
    window.open_consulted_document(len(window.conversation.entries) - 1, 0)
    _wait(app, lambda: bool(pages))
    shot(window, "abstained")
    window.close()

    install_translator(app, "es")
    spanish = MainWindow(settings, workspace="sample", backend=backend)
    spanish.resize(1440, 900)
    spanish.show()
    _wait(app, lambda: spanish.workspace_name == "sample" and spanish.history_view.count() >= 2)
    pages.clear()
    spanish.page_rendered.connect(lambda: pages.append(1))
    spanish.open_citation(1)
    _wait(app, lambda: bool(pages))
    shot(spanish, "spanish")
    spanish.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
