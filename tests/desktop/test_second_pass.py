"""Issue #24: what a new user tripped over in the window, each held by the real window offscreen.

Export (the menu button, the folder the dialog opens in, what the file carries), a window that
never outgrows a 1280x720 screen, panels that show the current workspace's state, strings
that follow the language, and Ollama problems named with their host and fix.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

import core  # noqa: F401
from core.engine import LocalEngine, index_op
from core.settings import Settings
from core.types import Answer, Citation, Claim, Trace
from tests.conftest import ScriptedBackend, cite_first, whole_words
from tests.ollama_stub import OllamaStub, recording

REPO = Path(__file__).resolve().parents[2]
SAMPLE_PDF = REPO / "resources" / "sample" / "docs" / "NIST.FIPS.199.pdf"
TIMEOUT_MS = 180_000
SCREEN = (1280, 720)
LONG_A = "contracts/ARCONICROLLEDPRODUCTSCORP_10_20_2016-EX-10.2-SUPPLY AGREEMENT.PDF"
LONG_B = "contracts/BONTONSTUDIOSINC_03_08_2019-EX-10.1-HOSTING AGREEMENT.PDF"
SENTENCES = [f"Clause {i}: the supplier shall deliver the goods described in schedule {chr(65 + i)} "
             f"within the agreed period and notify the buyer in writing of any delay." for i in range(14)]


def _citation(quote: str, page: int = 3, label: str = "iv", path: str = str(SAMPLE_PDF)) -> Citation:
    return Citation(chunk_id="sample/NIST.FIPS.199.pdf#p3-c0", doc_id="sample/NIST.FIPS.199.pdf", path=path,
                    page=page, page_label=label, quote=quote, match="exact", score=100, start=0, end=len(quote))


def _answer(question: str = "What does FIPS 199 categorise?", quote: str = "security categories") -> Answer:
    return Answer(question=question, workspace="alpha", status="answered",
                  claims=[Claim(text="It categorises information systems.", citations=[_citation(quote)])],
                  trace=Trace(backend="scripted", model="scripted", timings_ms={"total": 1400.0}))


def _window(qtbot, settings: Settings | None = None, workspace: str = "alpha", **kw):
    from desktop.main_window import MainWindow

    w = MainWindow(settings or Settings(ollama_host="http://127.0.0.1:9"), workspace=workspace, **kw)
    qtbot.addWidget(w)
    w.resize(*SCREEN)
    w.show()
    qtbot.waitUntil(lambda: w.workspace_name == workspace, timeout=TIMEOUT_MS)
    return w


# --- 1. export ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["md", "pdf"])
def test_export_button_opens_the_dialog_in_documents_and_the_file_is_complete(qtbot, tmp_path, monkeypatch, kind):
    from desktop.export import documents_folder

    window = _window(qtbot, backend=ScriptedBackend(cite_first("x")))
    window.show_answer(_answer())
    asked: list[str] = []
    out = tmp_path / f"out.{kind}"

    def save_dialog(parent, caption, directory, filters):
        asked.append(directory)
        return str(out), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    action = window.conversation.export_md_action if kind == "md" else window.conversation.export_pdf_action
    with qtbot.waitSignal(window.exported, timeout=TIMEOUT_MS):
        action.trigger()  # the Export button's menu item (a TypeError in PySide6 before the fix)
    assert asked == [str(documents_folder() / f"alpha.{kind}")]
    if kind == "md":
        text = out.read_text(encoding="utf-8")
    else:
        import pymupdf

        with pymupdf.open(out) as doc:
            text = unicodedata.normalize("NFKC", " ".join(" ".join(p.get_text().split()) for p in doc))  # "ﬁ"
    assert re.search(r"Exported: \d{4}-\d{2}-\d{2} \d{2}:\d{2}", text), text
    assert re.search(r"Asked: \d{4}-\d{2}-\d{2} \d{2}:\d{2} · Answered", text), text
    assert "Workspace: alpha" in text and "What does FIPS 199 categorise?" in text
    assert "sample/NIST.FIPS.199.pdf, p. iv (PDF page 3) · verified: exact match" in text


def test_export_page_label_is_getattr_safe(qapp):
    """A citation object without ``page_label`` (an older shape) still exports its page."""
    from desktop.render import citation_place

    class Old:
        page = 7

    assert citation_place(Old()) == "page 7"
    assert citation_place(_citation("q", page=5, label="5")) == "page 5"


# --- 2. the window never outgrows the screen -----------------------------------------------------------


def test_long_quote_scrolls_inside_the_panel_and_the_window_fits_1280x720(qtbot):
    window = _window(qtbot)
    quote = " ".join(SENTENCES * 4)  # ~7,000 characters
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.side_panel.show_citation(_citation(quote), 1, 1)
    qtbot.wait(100)
    assert window.minimumSizeHint().height() <= SCREEN[1], window.minimumSizeHint()
    assert window.minimumHeight() <= SCREEN[1] and window.height() <= SCREEN[1]
    panel = window.side_panel
    assert panel.quote_box.isVisible() and panel.quote_box.height() == panel.quote_box_cap()
    label = panel.quote_label  # as tall as its text, which starts at the top of the box (not a blank box)
    assert abs(label.height() - label.heightForWidth(label.width())) <= 4 and label.alignment() & Qt.AlignmentFlag.AlignTop
    assert quote[:200] in " ".join(panel.quote_label.text().split())  # whole, scrolled, not cut
    assert panel.quote_box.verticalScrollBar().maximum() > 0


def test_long_error_line_does_not_squeeze_the_documents_list(qtbot):
    window = _window(qtbot)
    qtbot.wait(50)
    before = (window.workspaces_panel.width(), window.width())
    error = "Ollama is not reachable at http://gpu-box.lan:11434 (" + "very long reason " * 40 + ")"
    window.answers._show_ended(("error", error))  # what a failed question leaves in the state line
    qtbot.wait(100)
    assert window.minimumSizeHint().width() <= SCREEN[0]
    assert (window.workspaces_panel.width(), window.width()) == before
    assert window.stage_label.text().endswith(error)  # whole (tooltip, screen readers), drawn elided


# --- 3. state of the current workspace, in the current language ------------------------------------


def test_switching_workspace_empties_the_citation_panel(qtbot):
    window = _window(qtbot)
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.side_panel.show_citation(_citation("security categories"), 1, 1)
    with qtbot.waitSignal(window.workspaces_changed, timeout=TIMEOUT_MS):
        window.create_workspace("beta")
    qtbot.waitUntil(lambda: window.workspace_name == "beta", timeout=TIMEOUT_MS)
    panel = window.side_panel
    assert panel.citation is None and not panel.quote_box.isVisible()
    assert "NIST" not in panel.page_label.text() and panel.path_label.text() == ""
    assert panel.image_label.pixmap().isNull()


class _SlowIndexEngine(LocalEngine):
    """Indexing waits for :attr:`gate` (the first index still running); other calls run at once."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def run(self, fn, *args, cancel=None, **kwargs):
        if fn is index_op:
            self.gate.wait(120)
        return (yield from super().run(fn, *args, cancel=cancel, **kwargs))


def test_asking_while_the_first_index_runs_says_it_is_still_indexing(qtbot, tmp_path):
    from desktop.render import Entry, entry_html

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(" ".join(SENTENCES), encoding="utf-8")
    engine = _SlowIndexEngine()
    window = _window(qtbot, engine=engine, backend=ScriptedBackend(cite_first("x")))
    try:
        window.start_indexing(str(docs))
        assert window.indexing.busy("alpha")
        with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as got:
            window.ask("When are the goods delivered?")
        shown = entry_html(0, Entry(answer=got.args[0]))
        assert "still being indexed" in shown and "OCR" not in shown
    finally:
        engine.gate.set()
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        pass


def _many_claims(chunks: dict[str, str]) -> str:
    cid, text = next(iter(chunks.items()))
    claims = []
    for k in range(5):  # the schema's most; each with three long quotes, so the answer outgrows the view
        quotes = [whole_words(text, (3 * k + j) * 70, 120) for j in range(3)]
        claims.append({"text": quotes[0].rstrip(".") + ".",
                       "citations": [{"chunk_id": cid, "quote": q} for q in quotes]})
    return json.dumps({"answer_found": True, "complete_answer": True, "conflicting_evidence": False,
                       "missing": "", "claims": claims})


def test_after_an_answer_its_question_is_in_view_and_the_status_line_follows_the_language(qtbot, tmp_path, qapp):
    from desktop.i18n import install_translator

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "supply.txt").write_text(" ".join(SENTENCES), encoding="utf-8")
    window = _window(qtbot, backend=ScriptedBackend(_many_claims))
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs))
    question = "What must the supplier deliver?"
    with qtbot.waitSignals([window.answer_ready, window.history_loaded], timeout=TIMEOUT_MS):
        window.ask(question)
    qtbot.waitUntil(lambda: window.conversation.entries[-1].history_id is not None, timeout=TIMEOUT_MS)
    qtbot.wait(300)  # the history reload after storing the answer re-renders the conversation
    view = window.answer_view
    bar = view.verticalScrollBar()
    answer = window.conversation.entries[-1].answer
    assert bar.maximum() > 0, ("the answer must be taller than the view for this test to mean anything",
                               len(answer.claims), answer.status, [r.reason for r in answer.rejected][:3],
                               view.viewport().height(), view.document().size())
    doc = view.document()
    block = doc.find(question).block()
    top = doc.documentLayout().blockBoundingRect(block).top()
    assert bar.value() <= top < bar.value() + view.viewport().height(), (top, bar.value(), bar.maximum())

    english = window.stage_label.text()
    summary = window.current_file_label.text()
    assert english.startswith("Answered") and summary.startswith("Indexed: 1 new or changed")
    try:
        install_translator(qapp, "es")
        qtbot.wait(50)
        assert window.stage_label.text().startswith("Respondida"), window.stage_label.text()
        assert "nuevos o modificados" in window.current_file_label.text(), window.current_file_label.text()
    finally:
        install_translator(qapp, "en")
    qtbot.wait(50)
    assert window.stage_label.text() == english and window.current_file_label.text() == summary


def test_passages_scoring_description_is_translated(qapp):
    from core.passages import PASSAGES_MODEL
    from desktop.i18n import install_translator
    from desktop.texts import model_text

    assert model_text("passages", PASSAGES_MODEL) == f"passages (no model) · {PASSAGES_MODEL}"
    try:
        install_translator(qapp, "es")
        spanish = model_text("passages", PASSAGES_MODEL)
    finally:
        install_translator(qapp, "en")
    assert "sentence scoring" not in spanish and "BM25" in spanish


def test_scope_chip_names_both_documents(qtbot):
    from desktop.conversation import ConversationView

    view = ConversationView()
    qtbot.addWidget(view)
    view.resize(560, 500)
    view.show()
    view.set_scope([LONG_A, LONG_B])
    qtbot.wait(50)
    shown = view.scope_label.shown_text()
    assert "ARCO" in shown and "BONT" in shown, shown
    assert shown.startswith("Asking about 2 documents:")


# --- 4. Ollama problems explained -------------------------------------------------------------------


def test_settings_refresh_names_the_host_and_the_status(qtbot):
    from desktop.settings_dialog import SettingsDialog

    with OllamaStub(recording("tags_not_found.json")) as stub:
        dialog = SettingsDialog(Settings(ollama_host=stub.host))
        qtbot.addWidget(dialog)
        with qtbot.waitSignal(dialog.models_loaded, timeout=30_000):
            dialog.fetch_models()
    text = dialog.models_status.text()
    assert stub.host in text and "HTTP 404" in text and "ollama serve" not in text


def test_ollama_problem_texts_fit_a_local_or_a_remote_host(qapp):
    from core.ollama_check import OllamaDiagnosis
    from desktop.ollama_texts import models_text, problem_text

    local = problem_text(OllamaDiagnosis("http://127.0.0.1:11434", True, "network", error="connection refused"))
    remote = problem_text(OllamaDiagnosis("http://gpu-box.lan:8080", False, "network", error="timed out"))
    assert "http://127.0.0.1:11434" in local and "connection refused" in local and "ollama serve" in local
    assert "http://gpu-box.lan:8080" in remote and "timed out" in remote and "firewall" in remote
    assert "port 8080" in remote and "ollama serve" not in remote
    missing = problem_text(OllamaDiagnosis("http://gpu-box.lan:11434", False, "no_model", model="llama3"))
    assert "on that machine" in missing and "ollama pull llama3" in missing
    assert models_text(OllamaDiagnosis("http://h:1", False, "ok", models=["a", "b"])) == "Ollama at http://h:1 reports 2 models."


def test_automatic_fallback_to_passages_is_said_with_its_reason(qtbot, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "supply.txt").write_text(" ".join(SENTENCES), encoding="utf-8")
    with OllamaStub(recording("tags_not_found.json")) as stub:
        window = _window(qtbot, Settings(backend="auto", ollama_host=stub.host))
        with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
            window.start_indexing(str(docs))
        with qtbot.waitSignal(window.fallback_explained, timeout=TIMEOUT_MS) as said:
            window.ask("When must the supplier deliver the goods?")
    assert window.answer.trace.backend == "passages"
    text = said.args[0]
    assert text.startswith("Automatic: answered with passages") and stub.host in text and "HTTP 404" in text
    assert window.statusBar().currentMessage() == text
