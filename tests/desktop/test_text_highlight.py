"""The citation panel highlights the quote, not the whole text, in .md/.txt pages (tryout 5, finding 5).

Found by the tryout: for a one-sentence quote of Mutual_NDA_Orion.md the panel painted every line of
the file yellow, and a 2-row quote of a rent roll lit ~40 rows. The quote's format was merged into the
document and stayed the cursor's format; the next page text set into the view took it whole. Real
file, real chunker, real verifier, real panel (offscreen)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextFormat

from core.chunking import chunk_pages
from core.ingest import parse_file
from core.types import ModelAnswer
from core.verify import verify_claims
from desktop.citation_panel import CitationPanel

TIMEOUT_MS = 60_000

NDA = """This Mutual Non-Disclosure Agreement is made between Orion Labs Ltd and Acme Corp.

## 2. Obligations

Each party shall keep the other party's Confidential Information secret.

## 6. Duration

The obligations in this Agreement last for three (3) years after the date of disclosure.

## 9. Law

This Agreement is governed by the laws of the State of New York.
"""


def _citations(path: Path, quotes: list[str]):
    pages = parse_file(path).pages
    chunks = {c.chunk_id: c for c in chunk_pages("m/" + path.name, str(path), pages)}
    [chunk] = chunks.values()
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": q, "citations": [{"chunk_id": chunk.chunk_id, "quote": q}]} for q in quotes],
    })
    claims, rejected = verify_claims(answer, chunks)
    assert not rejected
    return pages[0].text, [claim.citations[0] for claim in claims]


def _painted(panel: CitationPanel) -> list[tuple[int, int]]:
    """Character ranges of the text view with any background: formats in the document and the
    panel's highlights, merged."""
    spans = []
    block = panel.text_view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().hasProperty(QTextFormat.Property.BackgroundBrush):
                spans.append((frag.position(), frag.position() + frag.length()))
            it += 1
        block = block.next()
    return sorted(spans + panel.highlighted_spans())


def test_each_citation_of_a_markdown_file_lights_up_its_quote_only(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "Mutual_NDA_Orion.md"
    path.write_text(NDA, encoding="utf-8")
    text, (title, law, duration) = _citations(path, [
        "This Mutual Non-Disclosure Agreement is made between Orion Labs Ltd and Acme Corp.",  # offset 0: the cursor's format after it was the quote's
        "This Agreement is governed by the laws of the State of New York.",
        "The obligations in this Agreement last for three (3) years after the date of disclosure.",
    ])
    assert title.start == 0 and text[law.start:law.end] == law.quote

    panel = CitationPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 800)
    for n, citation in enumerate((title, law, duration, law), start=1):
        with qtbot.waitSignal(panel.page_rendered, timeout=TIMEOUT_MS):
            panel.show_citation(citation, n, 4)
        assert panel.text_view.toPlainText() == text
        assert _painted(panel) == [(citation.start, citation.end)], citation.quote
        assert panel.text_view.textCursor().position() == citation.start  # scrolled to the quote

    # a consulted document opened afterwards shows no highlight at all
    with qtbot.waitSignal(panel.page_rendered, timeout=TIMEOUT_MS):
        panel.show_document(str(path), 1)
    assert _painted(panel) == []
