"""The window end to end: index a real PDF, ask with a scripted backend, open a citation."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import core  # noqa: F401
from core.generate import GenerationResult
from core.settings import Settings
from core.types import Abstention, Answer, ConsultedDoc, Trace
from tests.conftest import whole_words

REPO = Path(__file__).resolve().parents[2]
SAMPLE_PDF = REPO / "resources" / "sample" / "docs" / "NIST.FIPS.199.pdf"
ARTIFACTS = REPO / "tests" / "artifacts"
TIMEOUT_MS = 120_000

_CHUNK = re.compile(r'<chunk id="([^"]+)">\n(.*?)\n</chunk>', re.DOTALL)


class ScriptedBackend:
    """A deterministic generator: cites 60 characters copied from the first chunk it is given."""

    name = "scripted"
    model = "scripted"
    context_window = 4096

    def __init__(self) -> None:
        self.chosen: tuple[str, str] | None = None

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        chunks = _CHUNK.findall(messages[-1]["content"])
        assert chunks, "no <chunk> in the user message"
        chunk_id, text = chunks[0]
        quote = whole_words(text, 100 if len(text) >= 160 else 0, 60)
        self.chosen = (chunk_id, quote)
        answer = {
            "answer_found": True,
            "complete_answer": True,
            "conflicting_evidence": False,
            "claims": [
                {"text": "The standard defines security categories.", "citations": [{"chunk_id": chunk_id, "quote": quote}]},
                {"text": "This sentence has an invented quote.",
                 "citations": [{"chunk_id": chunk_id, "quote": "this text is certainly not in the document anywhere"}]},
            ],
            "missing": "",
        }
        return GenerationResult(text=json.dumps(answer), prompt_tokens=0)


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("VERBATIM_HOME", str(tmp_path / "home"))
    return Settings()


def _yellow_fraction(image, rect, scale) -> float:
    """Share of pixels inside ``rect`` (PDF points) that are highlight-yellow."""
    x0, y0, x1, y1 = (int(v * scale) for v in rect)
    total = yellow = 0
    for y in range(max(0, y0), min(image.height(), y1)):
        for x in range(max(0, x0), min(image.width(), x1)):
            c = image.pixelColor(x, y)
            total += 1
            if c.red() > 200 and c.green() > 180 and c.blue() < 200 and c.red() - c.blue() > 50:
                yellow += 1
    return yellow / total if total else 0.0


def test_index_ask_and_open_citation(qtbot, tmp_path, settings):
    from desktop.main_window import MainWindow

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(SAMPLE_PDF, docs / SAMPLE_PDF.name)
    (docs / "broken.pdf").write_bytes(b"not a pdf at all")

    backend = ScriptedBackend()
    window = MainWindow(settings, workspace="test", backend=backend)
    qtbot.addWidget(window)
    window.show()
    errors: list[str] = []
    window.error_occurred.connect(errors.append)
    qtbot.waitUntil(lambda: window.workspace_name == "test", timeout=120_000)
    # Before any answer the status bar says what will answer: no Ollama on this machine,
    # backend "auto" -> the passages, no model (was the embedded demo model; before that "Model: —").
    qtbot.waitUntil(lambda: window.ollama_ok is not None, timeout=120_000)
    assert window.ollama_ok is False and window.backend_label.text() == "Answer with: passages (no model)"

    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS) as blocker:
        window.start_indexing(str(docs))
    report = blocker.args[0]
    assert report.documents == 1 and report.chunks > 0
    assert [Path(f.path).name for f in report.failures] == ["broken.pdf"]
    def rows():
        view = window.documents_view
        return {view.topLevelItem(i).text(0): view.topLevelItem(i).text(2) for i in range(view.topLevelItemCount())}

    # the rows were listed (queued) from the start; after the run they show the manifest's states
    qtbot.waitUntil(lambda: rows() == {"docs/NIST.FIPS.199.pdf": "indexed", "docs/broken.pdf": "failed"},
                    timeout=120_000)  # named like documents; the reason in the tooltip
    broken = next(window.documents_view.topLevelItem(i) for i in range(2)
                  if window.documents_view.topLevelItem(i).text(0) == "docs/broken.pdf")
    assert broken.toolTip(2)  # the reason
    summary = window.workspaces_panel.summary_label.text()
    assert "1 document ·" in summary and "failed: 1" in summary and "last indexed" in summary
    assert window.progress_bar.value() == window.progress_bar.maximum()
    assert not window.cancel_button.isEnabled()

    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("What are the security objectives of confidentiality, integrity and availability?")
    answer = blocker.args[0]
    assert not errors
    assert answer.status == "partial", answer.model_dump_json(indent=1)
    assert len(answer.claims) == 1 and len(window.citations) == 1
    chunk_id, quote = backend.chosen
    page = int(re.search(r"#p(\d+)-c", chunk_id).group(1))
    text = window.answer_view.toPlainText()
    assert "The standard defines security categories." in text
    # Removed sentences are collapsed: a summary line, no reasons until expanded.
    assert "This sentence has an invented quote." not in text and "Not verified" in text
    window.conversation._on_anchor(__import__("PySide6.QtCore", fromlist=["QUrl"]).QUrl("toggle:0"))
    text = window.answer_view.toPlainText()
    assert "This sentence has an invented quote." in text
    assert "quote not found in the cited passage" in text
    assert "cite:0:1" in window.answer_view.toHtml()
    assert "scripted" in window.backend_label.text()

    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.conversation.citation_clicked.emit(0, 1)  # as clicking the chip does
    panel = window.side_panel
    assert panel.citation is answer.claims[0].citations[0]
    assert panel.citation.chunk_id == chunk_id and panel.citation.page == page
    assert f"NIST.FIPS.199.pdf — page {page}" in panel.page_label.text()
    assert quote.split()[0] in panel.quote_label.text()
    assert not panel.ocr_label.isVisibleTo(panel)
    pixmap = panel.image_label.pixmap()
    assert pixmap is not None and not pixmap.isNull()
    assert panel.citation.rects, "a PDF citation must carry rectangles"
    image = pixmap.toImage()
    for rect in panel.citation.rects:
        assert _yellow_fraction(image, rect, panel.render_scale) > 0.3
    # the highlight is scrolled into view
    bar = panel.scroll.verticalScrollBar()
    y_top = panel.citation.rects[0][1] * panel.zoom
    assert bar.value() <= y_top <= bar.value() + panel.scroll.viewport().height()

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window.png"))

    # next page has no highlight; zoom re-renders larger
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        panel.go_to_page(page + 1)
    assert panel.page == page + 1
    width = panel.image_label.pixmap().width()
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        panel.step_zoom(1)
    assert panel.image_label.pixmap().width() > width

    # the answer was stored in the workspace's history
    qtbot.waitUntil(lambda: window.history_view.count() == 1 or bool(errors), timeout=30_000)
    assert not errors, errors
    assert "security objectives" in window.history_view.item(0).text()

    # copy with citations
    copied = window.copy_answer()
    assert "[1]" in copied and quote.split()[0] in copied and "page" in copied


def test_abstention_shows_no_evidence(qtbot, settings):
    from desktop.main_window import MainWindow

    window = MainWindow(settings, workspace="empty", backend=ScriptedBackend())
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.workspace_name == "empty", timeout=120_000)
    answer = Answer(
        question="Who won the 1998 World Cup?",
        workspace="empty",
        status="abstained",
        abstention=Abstention(
            message="The model found no answer in the passages consulted.",
            query="Who won the 1998 World Cup?",
            consulted=[ConsultedDoc(doc_id="docs/NIST.FIPS.199.pdf", path=str(SAMPLE_PDF), pages=[1, 3])],
        ),
        trace=Trace(backend="scripted", model="scripted"),
    )
    window.show_answer(answer)
    text = window.answer_view.toPlainText()
    # the marker in words (issue #16); NO_EVIDENCE itself stays in the JSON, the CLI and exports
    assert "No evidence in the documents" in text and "NO_EVIDENCE" not in text
    assert "NO_EVIDENCE" in window.conversation_markdown()
    assert "The model found no answer in the passages consulted." in text
    assert "Who won the 1998 World Cup?" in text
    assert "docs/NIST.FIPS.199.pdf" in text and "1, 3" in text
    assert window.citations == [] and "cite:" not in window.answer_view.toHtml()
    assert "doc:0:0" in window.answer_view.toHtml()  # each consulted document is a link
    window.open_citation(1)  # no citation: nothing happens
    assert window.side_panel.citation is None
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.conversation.document_clicked.emit(0, 0)
    assert window.side_panel.page == 1 and "NIST.FIPS.199.pdf — page 1" in window.side_panel.page_label.text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    window.resize(1440, 900)
    assert window.grab().save(str(ARTIFACTS / "abstained.png"))


def test_empty_workspace_abstains_end_to_end(qtbot, settings):
    from desktop.main_window import MainWindow

    window = MainWindow(settings, workspace="nothing", backend=ScriptedBackend())
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.workspace_name == "nothing", timeout=120_000)
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("Anything at all?")
    assert blocker.args[0].status == "abstained"
    assert "No evidence in the documents" in window.answer_view.toPlainText()
