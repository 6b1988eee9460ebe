"""PDFs as they really come (issue #14): superscript and subscript markers, running headers and
footers, clauses across a page break, filled forms, garbled text layers.

Every PDF is made here with PyMuPDF, in other shapes than the shared cases (B36-B38).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from core.chunking import chunk_pages
from core.facts import missing_facts
from core.ingest import page_text, parse_file, reads_as_language, rects_for_span, span_rects
from core.types import ModelAnswer, RejectReason
from core.verify import verify_claims


def _answer(claim: str, chunk_id: str, quote: str) -> ModelAnswer:
    return ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": claim, "citations": [{"chunk_id": chunk_id, "quote": quote}]}],
    })


# --- superscript and subscript markers ----------------------------------------------------------


@pytest.fixture(scope="module")
def markers(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "markers.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    y = 100
    for before, mark, after, raise_by in [
        ("The setup fee is EUR 1,250", "4", " and is due on signature.", 4.5),
        ("Water (H", "2", "O) is supplied at 12 m", 0),
        ("The area is 85 m", "2", " of office space.", 4.5),
    ]:
        page.insert_text((72, y), before, fontsize=11)
        x = 72 + pymupdf.get_text_length(before, fontsize=11)
        page.insert_text((x + 0.3, y - raise_by if raise_by else y + 2.5), mark, fontsize=7)
        page.insert_text((x + 4.5, y), after, fontsize=11)
        y += 24
    doc.save(path)
    return path


def test_markers_are_written_as_superscripts_and_subscripts(markers: Path) -> None:
    text = parse_file(markers).pages[0].text
    assert "EUR 1,250⁴ and is due" in text and "(H₂O)" in text and "85 m² of office" in text
    assert "1,2504" not in text


def test_a_number_glued_to_its_marker_never_verifies(markers: Path) -> None:
    """The worst failure (B37): "EUR 12,504" shown as proven by "EUR 1,250⁴"."""
    parsed = parse_file(markers)
    [chunk] = chunk_pages("t/markers.pdf", str(markers), parsed.pages)
    for claim, quote in [("The setup fee is EUR 12,504.", "The setup fee is EUR 12504"),
                         ("The setup fee is EUR 12,504.", "The setup fee is EUR 1,250⁴ and is due on signature.")]:
        claims, rejected = verify_claims(_answer(claim, chunk.chunk_id, quote), {chunk.chunk_id: chunk})
        assert claims == [] and rejected[0].reason in (RejectReason.quote_not_found, RejectReason.fact_not_in_quote)
    claims, _ = verify_claims(_answer("The setup fee is EUR 1,250.", chunk.chunk_id, "The setup fee is EUR 1,250"),
                              {chunk.chunk_id: chunk})
    assert len(claims) == 1
    assert missing_facts("The area is 85 m2.", ["The area is 85 m² of office space."]) == []


def test_markers_in_html_and_word_are_kept_apart_too(tmp_path: Path) -> None:
    (tmp_path / "fees.html").write_text(
        "<html><body><p>The annual fee is EUR 320<sup>1</sup>, payable in January.</p>"
        "<p>CO<sub>2</sub> limits apply.</p></body></html>", encoding="utf-8")
    text = parse_file(tmp_path / "fees.html").pages[0].text
    assert "EUR 320¹, payable" in text and "CO₂ limits" in text
    import docx

    d = docx.Document()
    para = d.add_paragraph("The deposit is EUR 2,500")
    para.add_run("2").font.superscript = True
    para.add_run(" and is held apart.")
    d.save(tmp_path / "fees.docx")
    assert "EUR 2,500² and is held apart." in parse_file(tmp_path / "fees.docx").pages[0].text


# --- running headers and footers, a clause across a page break ------------------------------------

_BODY = [
    ["1. Scope. The Contractor maintains the lifts of the building at Calle Mayor 3.",
     "2. Fees. The annual fee is EUR 18,000, paid quarterly in advance. If the",
     "Contractor misses a scheduled visit, the Client may deduct 5 % of the quarterly"],
    ["fee for each missed visit, up to a maximum of 20 % per quarter.",
     "3. Term. The contract runs for three years from 1 January 2026."],
    ["4. Law. Spanish law governs this contract."],
]


@pytest.fixture(scope="module")
def running(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "lifts.pdf"
    doc = pymupdf.open()
    for n, lines in enumerate(_BODY, 1):
        page = doc.new_page()
        page.insert_text((72, 40), "Lift maintenance contract LM-77 | Confidential", fontsize=9)
        for i, line in enumerate(lines):
            page.insert_text((72, 120 + 16 * i), line, fontsize=11)
        page.insert_text((280, 810), f"- {n} -", fontsize=9)
    doc.save(path)
    return path


def test_running_lines_stay_on_the_page_but_out_of_chunks(running: Path) -> None:
    parsed = parse_file(running)
    for page in parsed.pages:
        assert [page.text[a:b] for a, b in page.running] == [
            "Lift maintenance contract LM-77 | Confidential", f"- {page.page} -"]
    chunks = chunk_pages("t/lifts.pdf", str(running), parsed.pages)
    assert chunks and not [c for c in chunks if "Confidential" in c.text or "- 2 -" in c.text]


def test_a_clause_across_a_page_break_is_one_quote_highlighted_on_both_pages(running: Path) -> None:
    parsed = parse_file(running)
    chunks = {c.chunk_id: c for c in chunk_pages("t/lifts.pdf", str(running), parsed.pages)}
    quote = ("the Client may deduct 5 % of the quarterly fee for each missed visit, up to a maximum of 20 % "
             "per quarter")
    [chunk] = [c for c in chunks.values() if "deduct" in c.text and "maximum" in c.text]
    assert chunk.pages[:2] == [1, 2] and chunk.segments
    for seg in chunk.segments:
        assert parsed.pages[seg.page - 1].text[seg.start : seg.end] in chunk.text

    def rects(c, start, end):
        return span_rects(c.path, c.page, start, end)

    claims, rejected = verify_claims(
        _answer("The Client may deduct 5 % per missed visit, at most 20 % per quarter.", chunk.chunk_id, quote),
        chunks, rects=rects)
    assert rejected == []
    [cit] = claims[0].citations
    assert (cit.page, [c.page for c in cit.continued]) == (1, [2])
    assert cit.rects and cit.continued[0].rects
    assert parsed.pages[0].text[cit.start : cit.end].endswith("of the quarterly")
    assert parsed.pages[1].text[cit.continued[0].start : cit.continued[0].end].startswith("fee for each")
    # the highlight on page 2 lies above the page's middle, where the clause goes on
    assert all(r[1] < 400 for r in cit.continued[0].rects)


# --- filled forms ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def form(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "form.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Guarantor:", fontsize=11)
    page.insert_text((72, 150), "Guarantee amount (EUR)", fontsize=11)  # label above its box
    page.insert_text((72, 210), "Joint and several liability:", fontsize=11)
    page.insert_text((72, 240), "Renewal:", fontsize=11)
    page.insert_text((72, 280), "Signed in Madrid.", fontsize=11)
    for name, kind, rect, value in [
        ("guarantor", pymupdf.PDF_WIDGET_TYPE_TEXT, (160, 88, 400, 104), "Banco Ejemplo S.A."),
        ("amount", pymupdf.PDF_WIDGET_TYPE_TEXT, (72, 156, 300, 172), "24.000,00"),
        ("joint", pymupdf.PDF_WIDGET_TYPE_CHECKBOX, (250, 198, 262, 210), True),
        ("renewal", pymupdf.PDF_WIDGET_TYPE_CHECKBOX, (160, 228, 172, 240), False),
    ]:
        w = pymupdf.Widget()
        w.field_name, w.field_type, w.rect, w.field_value = name, kind, pymupdf.Rect(rect), value
        page.add_widget(w)
    doc.save(path)
    return path


def test_form_values_read_after_their_labels_and_checkboxes_as_words(form: Path) -> None:
    text = parse_file(form).pages[0].text
    assert "Guarantor: Banco Ejemplo S.A." in text
    assert text.index("Guarantee amount (EUR)") < text.index("24.000,00") < text.index("Joint and several")
    assert "Joint and several liability: Yes" in text and "Renewal: No" in text
    pt = page_text(form, 1)
    assert pt.text == text and len(pt.boxes) == len(text)
    start = text.index("Banco")
    assert rects_for_span(pt.boxes, start, start + len("Banco Ejemplo S.A.")), "a form value must be highlightable"


# --- garbled text layers --------------------------------------------------------------------------

_PARAGRAPH = ("Wrenfield Paper Mill agrees to deliver two hundred tonnes of recycled kraft paper to the Buyer "
              "each month. The price is fixed for the first year and then follows the index in Annex 2.")


def _shift(text: str) -> str:
    """What a font whose map is off by 29 code points gives (":UHQILHOG 3DSHU 0LOO")."""
    return "".join(chr(ord(c) - 29) if c != " " and ord(c) > 61 else c for c in text)


@pytest.fixture(scope="module")
def garbled(tmp_path_factory) -> Path:
    """A page whose picture reads right and whose text layer is the shifted text."""
    folder = tmp_path_factory.mktemp("pdf")
    src = pymupdf.open()
    src.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 300), _PARAGRAPH, fontsize=13)
    pix = src[0].get_pixmap(dpi=200)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image(page.rect, pixmap=pix)
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 300), _shift(_PARAGRAPH), fontsize=13, render_mode=3)
    path = folder / "garbled.pdf"
    doc.save(path)
    return path


def test_shifted_and_substituted_text_does_not_read_as_language() -> None:
    assert not reads_as_language(_shift(_PARAGRAPH))
    assert not reads_as_language(_PARAGRAPH.translate(str.maketrans("abcdefghijklmnopqrstuvwxyz",
                                                                     "qwertyuiopasdfghjklzxcvbnm")))
    for real in (_PARAGRAPH, "La arrendataria abonará la renta mensual dentro de los cinco primeros días de cada "
                             "mes mediante transferencia a la cuenta indicada por el arrendador.",
                 "Referencia | Descripción | Precio\nREF-7731-B | Rodamiento sellado | 119,00 EUR\n" * 4):
        assert reads_as_language(real)


def test_garbled_page_is_named_in_a_warning_when_ocr_is_off(garbled: Path, tmp_path: Path) -> None:
    # a second page with a sound text layer, so the file itself still indexes
    doc = pymupdf.open(garbled)
    doc.new_page().insert_text((72, 100), "Annex 2 lists the paper price index used from the second year.")
    path = tmp_path / "two.pdf"
    doc.save(path)
    parsed = parse_file(path, ocr=False)
    assert parsed.pages[0].text == "" and "Annex 2 lists" in parsed.pages[1].text
    [(page, reason)] = parsed.warnings
    assert page == 1 and "does not read as language" in reason and "needs OCR" in reason


def test_garbled_page_is_ocred_like_a_scan(garbled: Path) -> None:
    page = parse_file(garbled, ocr=True).pages[0]
    assert page.modality == "ocr"
    assert "Wrenfield Paper Mill" in page.text and "UHQILHOG" not in page.text
