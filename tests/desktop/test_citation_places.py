"""The window names a cited page as a lawyer cites it, and a copied answer names no local path
(tryout 5, finding 8).

Found by the tryout on B43_page_labels.pdf (printed "3" on its 6th page): the answer column said
"page 6", the side panel and Copy answer "page 6 (printed 3)" while the CLI says "p. 3 (PDF page 6)";
and Copy answer pasted the file's full local path, which names the firm's client folders. Real PDF,
real chunker, real verifier, real window (offscreen)."""

from __future__ import annotations

from pathlib import Path

import pytest

import core  # noqa: F401
from core.chunking import chunk_pages
from core.ingest import parse_file
from core.settings import Settings
from core.types import Answer, Claim, ModelAnswer, PageSpan, Trace
from core.verify import verify_claims

REPO = Path(__file__).resolve().parents[2]
B43 = REPO / "tests" / "data" / "cases" / "B43_page_labels.pdf"
TIMEOUT_MS = 120_000
QUOTE = "The Purchase Price of EUR 4,200,000 shall be paid in three"


def _price_answer(workspace: str = "alpha") -> Answer:
    pages = parse_file(B43).pages
    chunks = {c.chunk_id: c for c in chunk_pages("Matter/B43_page_labels.pdf", str(B43), pages)}
    [chunk] = [c for c in chunks.values() if QUOTE in c.text]
    model = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": "The price is EUR 4,200,000.", "citations": [{"chunk_id": chunk.chunk_id, "quote": QUOTE}]}],
    })
    claims, rejected = verify_claims(model, chunks)
    assert not rejected
    return Answer(question="What is the purchase price?", workspace=workspace, status="answered",
                  claims=[Claim(text=c.text, citations=c.citations) for c in claims],
                  trace=Trace(backend="scripted", model="scripted"))


def test_a_citation_names_the_printed_page_first_as_the_cli_does(qapp) -> None:
    from desktop.render import Entry, citation_place, entry_html

    [cit] = _price_answer().claims[0].citations
    assert (cit.page, cit.page_label) == (6, "3")  # the real PDF's page labels
    assert citation_place(cit) == "p. 3 (PDF page 6)" == cit.cited_page
    html = entry_html(0, Entry(answer=_price_answer()))
    assert "Matter/B43_page_labels.pdf, p. 3 (PDF page 6)" in html
    # a quote over a page break, with and without labels; an unlabelled page
    over = cit.model_copy(update={"continued": [PageSpan(page=7, page_label="4", start=0, end=5)]})
    assert citation_place(over) == "pp. 3–4 (PDF pages 6–7)" == over.cited_page
    plain = cit.model_copy(update={"page_label": "", "continued": [PageSpan(page=7, start=0, end=5)]})
    assert citation_place(plain) == "pages 6–7" == plain.cited_page
    assert citation_place(cit.model_copy(update={"page_label": "6"})) == "page 6"


def test_the_spanish_window_names_the_printed_page_first(qapp) -> None:
    from desktop.i18n import install_translator
    from desktop.render import citation_place

    [cit] = _price_answer().claims[0].citations
    try:
        install_translator(qapp, "es")
        assert citation_place(cit) == "p. 3 (página 6 del PDF)"
    finally:
        install_translator(qapp, "en")


@pytest.fixture
def window(qtbot):
    from desktop.main_window import MainWindow
    w = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="alpha")
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitUntil(lambda: w.workspace_name == "alpha", timeout=TIMEOUT_MS)
    return w


def test_copy_answer_names_the_document_not_its_local_path_and_the_panel_the_printed_page(qtbot, window) -> None:
    answer = _price_answer()
    window.show_answer(answer)
    text = window.copy_answer()
    assert "1. Matter/B43_page_labels.pdf, p. 3 (PDF page 6) · verified: exact match" in text
    assert str(B43.parent) not in text and str(REPO) not in text  # no folder of this machine
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(1)
    assert window.side_panel.page_label.text().endswith("— p. 3 (PDF page 6) (1/1)")
