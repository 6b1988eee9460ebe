"""The citation panel for quotes across a page break, and for PDFs attached to e-mails (issue #14)."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pymupdf

from core.chunking import chunk_pages
from core.ingest import parse_file, span_rects
from core.types import ModelAnswer
from core.verify import verify_claims
from desktop.citation_panel import CitationPanel
from tests.desktop.test_window import _yellow_fraction

TIMEOUT_MS = 60_000


def _clause_over_a_page_break() -> bytes:
    doc = pymupdf.open()
    for lines in (["1. Term. The lease runs for five years.", "2. Deposit. The deposit equals two months of rent and"],
                  ["is returned within thirty days after the keys are handed back.", "3. Law. Spanish law applies."]):
        page = doc.new_page()
        page.insert_text((72, 36), "Lease LX-4 | Confidential", fontsize=9)
        for i, line in enumerate(lines):
            page.insert_text((72, 120 + 16 * i), line, fontsize=11)
    return doc.tobytes()


def test_a_quote_across_a_page_break_is_highlighted_on_both_pages_of_an_attached_pdf(qtbot, tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "a@example.org", "Lease"
    msg.set_content("The signed lease is attached.")
    msg.add_attachment(_clause_over_a_page_break(), maintype="application", subtype="pdf", filename="lease.pdf")
    eml = tmp_path / "lease.eml"
    eml.write_bytes(bytes(msg))
    [attached] = parse_file(eml).attachments
    chunks = {c.chunk_id: c for c in chunk_pages("m/lease.eml › lease.pdf", str(attached.path), attached.pages)}
    [chunk] = [c for c in chunks.values() if "deposit equals" in c.text]
    quote = "The deposit equals two months of rent and is returned within thirty days after the keys are handed back."
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": "The deposit is two months of rent, returned within thirty days.",
                    "citations": [{"chunk_id": chunk.chunk_id, "quote": quote}]}],
    })
    claims, rejected = verify_claims(answer, chunks, rects=lambda c, s, e: span_rects(c.path, c.page, s, e))
    assert not rejected
    [citation] = claims[0].citations
    assert citation.page == 1 and [c.page for c in citation.continued] == [2]

    panel = CitationPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 900)
    with qtbot.waitSignal(panel.page_rendered, timeout=TIMEOUT_MS):
        panel.show_citation(citation, 1, 1)
    assert "lease.pdf — pages 1–2" in panel.page_label.text()
    image = panel.image_label.pixmap().toImage()
    assert all(_yellow_fraction(image, r, panel.render_scale) > 0.3 for r in citation.rects)
    with qtbot.waitSignal(panel.page_rendered, timeout=TIMEOUT_MS):
        panel.go_to_page(2)
    image = panel.image_label.pixmap().toImage()
    assert all(_yellow_fraction(image, r, panel.render_scale) > 0.3 for r in citation.continued[0].rects)
    assert panel._view.page_count == 2
