"""Screenshots of the window's main states at 1440×900, for looking at them.

States: ``empty`` (first run), ``indexing`` (mid-run), ``answered`` (a full,
verified answer: claims with chips, the cited page highlighted in the side
panel), ``partial`` (removed sentences expanded, each with its reason),
``abstained`` (NO_EVIDENCE with the documents consulted), ``settings`` (the
settings dialog over the window) and ``spanish`` (Spanish UI, a Spanish question
answered from the Spanish document). Answers come from a scripted generator
(the bench is about the window; retrieval, verification and rendering are real):
its quotes are whole sentences or word runs found in the delivered chunks' own
text, so every citation it means to be right passes verification, and the ones
meant to fail (a quote not in the document, a number not in the quote) fail for
the stated reason. The script checks each answer's status and stops with an
error when a state is not what its name says.

Run under Xvfb (``Xvfb :99 -screen 0 1920x1080x24 &``; ``DISPLAY=:99``) or offscreen.

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
_FOLLOW_UP = re.compile(r"<Follow Up Message>\n(.*?)\n\n<Standalone question>", re.DOTALL)

# Scripts: (claim text, quotes). A quote is written as the document's words; the
# generator finds them (any whitespace between words) in a delivered chunk and
# cites that chunk with the chunk's own text. A quote starting with "!" is an
# invention: it is cited as written, from the first cited chunk, and must fail.
ANSWERED_Q = "Which security objectives does FISMA define, and what does a loss of each mean?"
ANSWERED = [
    (("FISMA defines three security objectives for information and information systems: "
     "confidentiality, integrity and availability."),
     ["The FISMA defines three security objectives for information and information systems",
      "SECURITY OBJECTIVE: Confidentiality, integrity, or availability."]),
    ("A loss of confidentiality is the unauthorized disclosure of information.",
     ["A loss of confidentiality is the unauthorized disclosure of information."]),
    ("A loss of integrity is the unauthorized modification or destruction of information.",
     ["A loss of integrity is the unauthorized modification or destruction of information."]),
    ("A loss of availability is the disruption of access to or use of information or an information system.",
     ["A loss of availability is the disruption of access to or use of information or an information system."]),
]
PARTIAL_Q = "When was FIPS 199 signed, and how many security objectives does it define?"
PARTIAL = [
    ("FISMA defines three security objectives.",
     ["The FISMA defines three security objectives for information and information systems"]),
    ("The E-Government Act of 2002 was signed into law by the President in December 2002.",
     [("The E-Government Act of 2002 (Public Law 107-347), passed by the one hundred and seventh Congress "
      "and signed into law by the President in December 2002")]),
    ("The standard sets out four security objectives.",  # a number not in its quote
     ["The FISMA defines three security objectives for information and information systems"]),
    ("FIPS 199 was signed by the Secretary of Commerce in 1999.",  # a quote not in the document
     ["!signed by the Secretary of Commerce in 1999"]),
]
ABSTAINED_Q = "Who won the 1998 World Cup?"
SPANISH_Q = "¿Qué derechos protege la Constitución respecto a la libertad de expresión?"
SPANISH = [
    (("La Constitución reconoce y protege el derecho a expresar y difundir libremente los pensamientos, "
     "ideas y opiniones."),
     [("A expresar y difundir libremente los pensamientos, ideas y opiniones mediante la palabra, el escrito "
      "o cualquier otro medio de reproducción.")]),
    (("También protege el derecho a comunicar o recibir libremente información veraz por cualquier medio "
     "de difusión."),
     ["A comunicar o recibir libremente información veraz por cualquier medio de difusión."]),
    ("El ejercicio de estos derechos no puede restringirse mediante censura previa.",
     ["El ejercicio de estos derechos no puede restringirse mediante ningún tipo de censura previa."]),
]
# The questions were chosen so that retrieval (real, on the sample corpus) delivers the chunks
# holding these quotes; the bench stops with the missing quotes when it no longer does.


def _find(quote: str, chunks: list[tuple[str, str]]) -> tuple[str, str] | None:
    """``(chunk_id, the chunk's own text of the quote)`` of the first delivered chunk holding its words."""
    pattern = re.compile(r"\s+".join(re.escape(w) for w in quote.split()))
    for chunk_id, text in chunks:
        m = pattern.search(text)
        if m:
            return chunk_id, text[m.start():m.end()]
    return None


class _Scripted:
    """A generator that answers from :attr:`script` (``None``: it finds nothing)."""

    name = model = "scripted"
    context_window = 8192

    def __init__(self) -> None:
        self.script: list[tuple[str, list[str]]] | None = ANSWERED
        self.missing: list[str] = []  # quotes meant to verify that no delivered chunk held

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        from core.generate import GenerationResult

        follow_up = _FOLLOW_UP.search(messages[-1]["content"])
        if follow_up:  # the follow-up rewrite: these questions stand alone
            return GenerationResult(text=json.dumps({"question": follow_up.group(1)}), prompt_tokens=0)
        chunks = _CHUNK.findall(messages[-1]["content"])
        claims = []
        for text, quotes in self.script or []:
            citations = []
            for quote in quotes:
                if quote.startswith("!"):
                    if citations or chunks:
                        citations.append({"chunk_id": (citations[0]["chunk_id"] if citations else chunks[0][0]),
                                          "quote": quote[1:]})
                    continue
                found = _find(quote, chunks)
                if found is None:
                    self.missing.append(quote)
                else:
                    citations.append({"chunk_id": found[0], "quote": found[1]})
            if citations:
                claims.append({"text": text, "citations": citations})
        return GenerationResult(text=json.dumps({
            "answer_found": bool(claims), "complete_answer": True, "conflicting_evidence": False,
            "missing": "" if claims else "The documents do not mention it.", "claims": claims}), prompt_tokens=0)


def _wait(app, cond, timeout_s: float = 900) -> None:
    from PySide6.QtCore import QEventLoop

    end = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def _settle(app, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    _wait(app, lambda: time.monotonic() > end)


def _expect(answer, status: str, backend: _Scripted, *, rejected: bool) -> None:
    """Stop the bench when an answer is not the state its screenshot is named after."""
    problems = []
    if answer.status != status:
        problems.append(f"status {answer.status!r}, expected {status!r}")
    if bool(answer.rejected) != rejected:
        problems.append(f"rejected: {[(r.claim, r.reason) for r in answer.rejected]}")
    if backend.missing:
        problems.append(f"quotes not in the delivered chunks: {backend.missing}")
    if problems:
        raise SystemExit(f"{answer.question!r}: " + "; ".join(problems))


def _with_dialog(window, dialog):
    """The window's pixmap, dimmed, with ``dialog`` painted over it where it stands, under a title bar.

    ``QWidget.grab`` renders one widget tree, and a dialog is a top-level window of its own;
    painting it over the window's grab works on every platform (offscreen has no screen to
    grab). Xvfb runs no window manager, so the title bar (the dialog's ``windowTitle``) is
    drawn here, so the picture says which dialog it is.
    """
    from PySide6.QtCore import QPoint, QRect, Qt
    from PySide6.QtGui import QColor, QPainter, QPen

    pix = window.grab()
    top_left = dialog.mapToGlobal(QPoint(0, 0)) - window.mapToGlobal(QPoint(0, 0))
    body = dialog.grab()
    bar_h = 28
    painter = QPainter(pix)
    painter.fillRect(pix.rect(), QColor(0, 0, 0, 70))  # the window behind a modal dialog, dimmed
    bar = QRect(top_left.x(), top_left.y() - bar_h, body.width(), bar_h)
    painter.fillRect(bar, QColor(64, 64, 64))
    painter.setPen(QColor(255, 255, 255))
    font = painter.font()
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(bar.adjusted(10, 0, -10, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                     dialog.windowTitle())
    painter.drawPixmap(top_left, body)
    painter.setPen(QPen(QColor(64, 64, 64), 1))
    painter.drawRect(QRect(bar.topLeft(), body.rect().translated(top_left).bottomRight()).adjusted(-1, 0, 0, 0))
    painter.end()
    return pix


def main() -> int:
    """Save the screenshots; prints their paths."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "artifacts" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-shots-")
    from PySide6.QtCore import QUrl
    from PySide6.QtWidgets import QApplication

    import core  # noqa: F401
    from core.settings import Settings
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow
    from desktop.settings_dialog import SettingsDialog

    app = QApplication.instance() or QApplication([])
    settings = Settings(ollama_host="http://127.0.0.1:9")

    def shot(widget, name: str, pixmap=None) -> None:
        _settle(app)
        path = out / f"{name}.png"
        (pixmap() if pixmap else widget.grab()).save(str(path))
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

    def ask(win, question: str, script, status: str, *, rejected: bool = False) -> None:
        backend.script, backend.missing = script, []
        before = len(answers)
        win.ask(question)
        _wait(app, lambda: len(answers) > before)
        _expect(answers[-1], status, backend, rejected=rejected)

    def open_citation(win, n: int) -> None:
        pages.clear()
        win.open_citation(n)
        _wait(app, lambda: bool(pages))

    ask(window, ANSWERED_Q, ANSWERED, "answered")
    open_citation(window, 1)
    shot(window, "answered")

    ask(window, PARTIAL_Q, PARTIAL, "partial",
        rejected=True)
    window.conversation._on_anchor(QUrl(f"toggle:{len(window.conversation.entries) - 1}"))
    open_citation(window, 1)
    shot(window, "partial")

    ask(window, ABSTAINED_Q, None, "abstained")
    pages.clear()
    window.open_consulted_document(len(window.conversation.entries) - 1, 0)
    _wait(app, lambda: bool(pages))
    shot(window, "abstained")

    dialog = SettingsDialog(window.settings, window)
    loaded = []
    dialog.models_loaded.connect(loaded.append)
    dialog.show()
    _wait(app, lambda: bool(loaded))
    shot(window, "settings", lambda: _with_dialog(window, dialog))
    dialog.reject()
    window.close()

    install_translator(app, "es")
    spanish = MainWindow(settings, workspace="sample", backend=backend)
    spanish.resize(1440, 900)
    spanish.show()
    spanish.answer_ready.connect(answers.append)
    spanish.page_rendered.connect(lambda: pages.append(1))
    _wait(app, lambda: spanish.workspace_name == "sample" and spanish.history_view.count() >= 3)
    ask(spanish, SPANISH_Q, SPANISH, "answered")
    open_citation(spanish, 1)
    shot(spanish, "spanish")
    spanish.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
