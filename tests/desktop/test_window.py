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
        quote = text[100:160] if len(text) >= 160 else text[:60]
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

    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS) as blocker:
        window.start_indexing(str(docs))
    report = blocker.args[0]
    assert report.documents == 1 and report.chunks > 0
    assert [Path(f.path).name for f in report.failures] == ["broken.pdf"]
    qtbot.waitUntil(lambda: window.documents_view.topLevelItemCount() == 1, timeout=10_000)
    assert window.documents_view.topLevelItem(0).text(0) == "docs/NIST.FIPS.199.pdf"
    assert window.failures_view.count() == 1 and "broken.pdf" in window.failures_view.item(0).text()
    assert window.progress_bar.value() == window.progress_bar.maximum()

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
    assert "This sentence has an invented quote." in text  # listed as removed, with its reason
    assert "quote not found in the cited passage" in text
    assert "cite:1" in window.answer_view.toHtml()
    assert "scripted" in window.backend_label.text()

    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    panel = window.side_panel
    assert panel.citation is answer.claims[0].citations[0]
    assert panel.citation.chunk_id == chunk_id and panel.citation.page == page
    assert panel.page_label.text().endswith(f"NIST.FIPS.199.pdf — page {page}")
    assert quote.split()[0] in panel.quote_label.text()
    pixmap = panel.image_label.pixmap()
    assert pixmap is not None and not pixmap.isNull()
    assert panel.citation.rects, "a PDF citation must carry rectangles"
    image = pixmap.toImage()
    for rect in panel.citation.rects:
        assert _yellow_fraction(image, rect, panel.render_scale) > 0.3

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window.png"))


def test_abstention_shows_no_evidence(qtbot, settings):
    from desktop.main_window import MainWindow

    window = MainWindow(settings, workspace="empty", backend=ScriptedBackend())
    qtbot.addWidget(window)
    answer = Answer(
        question="Who won the 1998 World Cup?",
        workspace="empty",
        status="abstained",
        abstention=Abstention(
            message="The documents consulted do not answer this question.",
            query="Who won the 1998 World Cup?",
            consulted=[ConsultedDoc(doc_id="docs/NIST.FIPS.199.pdf", path="/x/NIST.FIPS.199.pdf", pages=[1, 3])],
        ),
        trace=Trace(backend="scripted", model="scripted"),
    )
    window.show_answer(answer)
    text = window.answer_view.toPlainText()
    assert "NO_EVIDENCE" in text
    assert "The documents consulted do not answer this question." in text
    assert "Who won the 1998 World Cup?" in text
    assert "docs/NIST.FIPS.199.pdf" in text and "1, 3" in text
    assert window.citations == [] and "cite:" not in window.answer_view.toHtml()
    window.open_citation(1)  # no citation: nothing happens
    assert window.side_panel.citation is None


def test_empty_workspace_abstains_end_to_end(qtbot, settings):
    from desktop.main_window import MainWindow

    window = MainWindow(settings, workspace="nothing", backend=ScriptedBackend())
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("Anything at all?")
    assert blocker.args[0].status == "abstained"
    assert "NO_EVIDENCE" in window.answer_view.toPlainText()
