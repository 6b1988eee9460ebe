"""Documents as lawyers keep them (issue #23), through the product's own path: index, then ask
with the passages backend (no model) or verify a model's claims against the indexed chunks.

Inputs: the cases B43, B45, B47, B48 (tests/data/cases, copied from shared/cases) and the real
small files of tests/data/formats (made by its make.py). Real PyMuPDF, embedding model, bm25s
and LanceDB; no model server.
"""

from __future__ import annotations

import json
import shutil

import pymupdf
import pytest

from core import cli
from core.errors import IngestError
from core.ingest import PageText, open_member, page_text, parse_file, rects_for_span
from core.ingest.page_labels import printed_page_labels
from core.passages import PassagesBackend
from core.pipeline import answer_question, index_folders, run
from core.retrieval import retrieve
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, ModelAnswer, ModelCitation, ModelClaim, RejectReason, Trace
from core.verify import match_quote, verify_claims
from tests.conftest import CASES, data_home

FORMATS = CASES.parent / "formats"


class Indexed:
    """A workspace indexed for a module's tests and the report of that run."""

    def __init__(self, ws: Workspace, report) -> None:
        self.ws, self.report = ws, report


def _index(tmp_path_factory, name: str, files: list) -> Indexed:
    folder = tmp_path_factory.mktemp("docs") / name
    folder.mkdir()
    for f in files:
        (shutil.copytree if f.is_dir() else shutil.copy)(f, folder / f.name)
    with data_home(tmp_path_factory.mktemp("home")):
        ws = Workspace(name, Settings())
        return Indexed(ws, run(index_folders(ws, [folder])))


def _ask(indexed: Indexed, question: str) -> Answer:
    return run(answer_question(indexed.ws, question, Settings(), backend=PassagesBackend()))


def _citations(answer: Answer):
    return [cit for claim in answer.claims for cit in claim.citations]


# --- 1. printed page numbers ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pages_ws(tmp_path_factory) -> Indexed:
    return _index(tmp_path_factory, "paginas", [CASES / "B43_page_labels.pdf", CASES / "B43_printed_page_numbers.pdf"])


def test_citation_carries_the_page_label_of_the_page_its_quote_is_on(pages_ws, monkeypatch, capsys) -> None:
    """/PageLabels (Cover, i, ii, 1-5): the governing-law clause is on PDF page 8, printed "5"; the
    chunk that holds it starts pages earlier (short pages are chunked together), and its label must
    not be the chunk's first page's."""
    answer = _ask(pages_ws, "Which law governs the agreement?")
    cit = next(c for c in _citations(answer) if "governed by Spanish law" in c.quote)
    assert (cit.page, cit.page_label) == (8, "5")
    assert cit.cited_page == "p. 5 (PDF page 8)"
    # a quote over a page break names both pages and opens on the first
    over = [c for c in _citations(answer) if c.continued]
    assert over, "the answer should hold a passage across a page break"
    c = over[0]
    assert c.cited_page == (f"pp. {c.page_label}–{c.continued[-1].page_label} "
                            f"(PDF pages {c.page}–{c.continued[-1].page})")
    # the CLI and --json say it the same way
    monkeypatch.setenv("VERBATIM_HOME", str(pages_ws.ws.dir.parents[1]))
    assert cli.main(["ask", "Which law governs the agreement?", "-w", "paginas", "--backend", "passages"]) == 0
    assert "p. 5 (PDF page 8)" in capsys.readouterr().out
    assert cli.main(["ask", "Which law governs the agreement?", "-w", "paginas", "--backend", "passages",
                     "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cited = [c for cl in data["claims"] for c in cl["citations"] if "governed by Spanish law" in c["quote"]]
    assert cited and cited[0]["page_label"] == "5" and cited[0]["cited_page"] == "p. 5 (PDF page 8)"


def test_page_number_printed_in_the_footer_is_the_label(pages_ws) -> None:
    """No /PageLabels, "Página n de 5" in the footer from the second physical page on."""
    answer = _ask(pages_ws, "¿Cuáles son los honorarios mensuales del Consultor?")
    # the clause-form check (English wording, English-only model) does not read Spanish passages: with it, this
    # Spanish question over its Spanish fees clause abstained (core.passage_gate.form_decides)
    assert answer.status == "answered" and answer.trace.passage_form_margin is None
    cit = next(c for c in _citations(answer) if c.page == 4 or any(s.page == 4 for s in c.continued))
    labels = {cit.page: cit.page_label, **{s.page: s.page_label for s in cit.continued}}
    assert labels[4] == "3"
    parsed = parse_file(CASES / "B43_printed_page_numbers.pdf", ocr=False)
    assert [p.label for p in parsed.pages] == ["", "1", "2", "3", "4", "5"]


def _margin_pdf(path, footers: list[str]):
    doc = pymupdf.open()
    for i, footer in enumerate(footers):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), f"Clause {i + 1}. The parties agree to the terms of this clause number {i + 1}.")
        if footer:
            page.insert_text((280, 800), footer, fontsize=9)
    doc.save(path)
    parsed = parse_file(path, ocr=False)
    return [p.label for p in parsed.pages]


def test_printed_numbers_label_pages_only_when_they_agree_on_one_sequence(tmp_path) -> None:
    # numbered from the third physical page: labels 1..3, the unnumbered pages none
    assert _margin_pdf(tmp_path / "a.pdf", ["", "", "- 1 -", "- 2 -", "- 3 -"]) == ["", "", "1", "2", "3"]
    # numbers that follow no sequence (a year, reference numbers) label nothing
    assert _margin_pdf(tmp_path / "b.pdf", ["2026", "17", "2026", "4", "88"]) == [""] * 5
    # a footer that is the physical page itself adds nothing
    assert _margin_pdf(tmp_path / "c.pdf", ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]) == ["", "", ""]
    # numbers in the body (a clause number alone on a line mid-page) are not page numbers
    pages = [PageText(page=i, text="7\n", boxes=[(100.0, 400.0, 106.0, 410.0, 0), None]) for i in (1, 2, 3)]
    assert printed_page_labels(pages, [842.0] * 3) == ["", "", ""]


# --- 2 and 4. every format read or named; partial downloads and temporary files ------------------


@pytest.fixture(scope="module")
def formats_ws(tmp_path_factory) -> Indexed:
    folder = tmp_path_factory.mktemp("b45") / "expediente"
    shutil.copytree(CASES / "B45_unsupported_formats", folder)
    for f in FORMATS.iterdir():
        if f.suffix not in (".py", ".json", ".md"):
            shutil.copy(f, folder / f.name)
    (folder / "Contrato_firmado.pdf.crdownload").write_bytes((CASES / "B43_page_labels.pdf").read_bytes()[:900])
    (folder / "Borrador.pdf.part").write_bytes(b"%PDF-1.7\n")
    (folder / "~$Adenda.docx").write_bytes(b"\x0bMarta Lanza")
    (folder / ".~lock.adenda.odt#").write_text("Marta,host,01.12.2026 10:00;", encoding="utf-8")
    return _index(tmp_path_factory, "expediente", [folder])


def test_every_file_is_read_or_named_with_its_reason(formats_ws, monkeypatch, capsys) -> None:
    report = formats_ws.report
    # read: the lease PDF, the real .odt/.rtf/.jpg stand-ins (readable), and the files made by make.py
    # (odt, rtf, xlsx, pptx, png, msg + its PDF attachment)
    assert report.documents == 11
    failed = {f.path.rsplit("/", 1)[-1]: f.reason for f in report.failures}
    # the .xlsx, .pptx and .msg of B45 are stand-ins with the right signature only: named, with why
    assert set(failed) == {"Calendario_pagos.xlsx", "Presentacion_cliente.pptx", "Correo_cliente.msg"}
    assert failed["Calendario_pagos.xlsx"].startswith("not a readable Excel workbook")
    not_read = {f.path.rsplit("/", 1)[-1]: f.reason for f in report.not_read}
    assert not_read == {
        "Contrato_antiguo_2009.doc": "legacy Word .doc is not read; save it as .docx",
        "Contrato_firmado.pdf.crdownload": "partial download (the browser had not finished it)",
        "Borrador.pdf.part": "partial download (the browser had not finished it)",
        "~$Adenda.docx": "Office temporary file (the document is open in Word, Excel or PowerPoint)",
        ".~lock.adenda.odt#": "LibreOffice lock file (the document is open in LibreOffice)",
    }
    monkeypatch.setenv("VERBATIM_HOME", str(formats_ws.ws.dir.parents[1]))
    folder = report.folders[0]
    assert cli.main(["index", folder, "-w", "expediente", "-q"]) == 0
    out = capsys.readouterr().out
    assert "not read: Contrato_antiguo_2009.doc (legacy Word .doc is not read; save it as .docx)" in out
    assert "not read: Contrato_firmado.pdf.crdownload (partial download" in out


def test_the_amendment_in_an_odt_answers_beside_the_pdf(tmp_path_factory) -> None:
    """B45 as it came: the lease PDF said 1.200 euros; the .odt amendment that raises it was not read."""
    b45 = _index(tmp_path_factory, "b45", [CASES / "B45_unsupported_formats"])
    answer = _ask(b45, "¿Cuál es la renta mensual de la oficina?")
    quotes = {c.path.rsplit("/", 1)[-1]: c.quote for c in _citations(answer)}
    assert "1.400 euros" in quotes.get("Adenda_2025.odt", ""), quotes


def test_a_scanned_signature_page_in_a_jpg_is_read_through_ocr(formats_ws) -> None:
    answer = _ask(formats_ws, "¿Qué se firmó en Sevilla?")
    assert any(c.path.endswith("Pagina_firmas.jpg") and "Firmado en Sevilla" in c.quote and c.modality == "ocr"
               for c in _citations(answer))


def test_a_row_of_a_spreadsheet_is_found_by_its_column_names(formats_ws) -> None:
    answer = _ask(formats_ws, "¿Cuál es la renta mensual de la unidad 4B-17?")
    assert any("4B-17" in c.quote and "Renta mensual (EUR): 2120" in c.quote for c in _citations(answer))


def test_an_outlook_attachment_is_a_document_read_back_from_its_message() -> None:
    parsed = parse_file(FORMATS / "correo.msg")
    (attachment,) = parsed.attachments
    assert attachment.name == "correo.msg › Anexo_I.pdf"
    assert open_member(attachment.path).startswith(b"%PDF")
    assert parse_file(attachment.path).pages[0].text == attachment.pages[0].text


# --- 3. reviewers' notes are not the contract ----------------------------------------------------


@pytest.fixture(scope="module")
def notes_ws(tmp_path_factory) -> Indexed:
    return _index(tmp_path_factory, "notas", [CASES / "B48_reviewer_notes.pdf", CASES / "B48_reviewer_comments.docx"])


def test_reviewer_notes_never_verify_a_claim(notes_ws) -> None:
    """B48_claims.json: a claim quoting the FreeText box is rejected, one quoting the contract kept."""
    (name, claims), = json.loads((CASES / "B48_claims.json").read_text(encoding="utf-8"))
    trace = Trace()
    delivered = {s.chunk.chunk_id: s.chunk for s in retrieve(notes_ws.ws, "delivery days of each order", Settings(), trace)}
    pdf_chunks = [c for c in delivered.values() if c.path.endswith(name)]
    assert pdf_chunks
    for claim, quote, expected in claims:
        model = ModelAnswer(answer_found=True, complete_answer=True, conflicting_evidence=False, missing="",
                            claims=[ModelClaim(text=claim, citations=[ModelCitation(chunk_id=c.chunk_id, quote=quote)
                                                                       for c in pdf_chunks])])
        kept, rejected = verify_claims(model, delivered)
        if expected == "keep":
            assert kept and kept[0].citations[0].quote.startswith("The Supplier shall deliver each order within 30 days")
        else:
            assert not kept and any(r.reason == RejectReason.no_citation for r in rejected)
    for chunk in delivered.values():
        assert "client insists" not in chunk.text and "Propuesta del cliente" not in chunk.text
    # the notes are named, not silently dropped
    report = notes_ws.report
    assert any("reviewer's note" in f.reason and f.page == 1 for f in report.failures)


def test_reviewer_notes_are_not_in_any_answer(notes_ws) -> None:
    answer = _ask(notes_ws, "What is the delivery period for each order?")
    quotes = " ".join(c.quote for c in _citations(answer))
    assert "30 days" in quotes and "90 days" not in quotes and "client insists" not in quotes
    parsed = parse_file(CASES / "B48_reviewer_notes.pdf", ocr=False)
    assert match_quote("Reviewer: client insists on 90 days here", parsed.pages[0].text) is None


# --- 5. tables as records -------------------------------------------------------------------------


def test_a_rent_roll_row_in_word_carries_its_column_names() -> None:
    page = parse_file(CASES / "B47_rent_roll.docx").pages[0]
    lines = page.text.splitlines()
    assert lines.count("Unit | Tenant | Monthly rent (EUR) | Deposit (EUR) | Lease end") == 1
    assert ("Unit: D-207 | Tenant: Farmacia Oriol | Monthly rent (EUR): 2.120,00 | Deposit (EUR): 6.360,00 | "
            "Lease end: 10/06/2028.") in lines
    assert sum(line.startswith("Unit: ") for line in lines) == 322


def test_a_rent_roll_row_in_a_pdf_is_one_line_highlighted_on_its_cells() -> None:
    """B47: each PDF cell was its own line; a row is now one line, its cells' boxes kept, and the page text
    is the same when one page is re-extracted for highlighting."""
    parsed = parse_file(CASES / "B47_rent_roll.pdf", ocr=False)
    page = parsed.pages[3]
    row = "D-207 | Farmacia Oriol | 2.120,00 | 6.360,00 | 10/06/2028."
    assert row in page.text.splitlines()
    start = page.text.index(row)
    rects = rects_for_span(page.boxes, start, start + len(row))
    assert len(rects) == 1 and rects[0][0] == 72.0 and rects[0][2] > 500  # one line, first cell to last
    assert page_text(CASES / "B47_rent_roll.pdf", 4).text == page.text
    rows = sum(line.count(" | ") == 4 for p in parsed.pages for line in p.text.splitlines())
    assert rows == 323  # 322 rows and the header row
    tables = [b for p in parsed.pages for b in p.blocks if b.kind == "table"]
    assert len(tables) == 7
    assert {b.columns for b in tables} == {("Unit", "Tenant", "Monthly rent (EUR)", "Deposit (EUR)", "Lease end")}


@pytest.fixture(scope="module")
def rent_roll_ws(tmp_path_factory) -> Indexed:
    return _index(tmp_path_factory, "rentas", [CASES / "B47_rent_roll.pdf"])


def test_a_row_on_a_page_without_the_header_carries_the_column_names_into_search(rent_roll_ws) -> None:
    trace = Trace()
    retrieve(rent_roll_ws.ws, "What is the monthly rent of unit D-207?", Settings(), trace)
    # the keyword retriever ranks the row's chunk (page 4, no header row there) first; its context line
    # names the columns. (The fused ranking does not keep it first yet: reported in notes/formats.md.)
    best = rent_roll_ws.ws.get_chunks(trace.bm25[:1])[trace.bm25[0]]
    assert "D-207 | Farmacia Oriol | 2.120,00" in best.text and best.page == 4
    assert best.context.endswith("Columns: Unit | Tenant | Monthly rent (EUR) | Deposit (EUR) | Lease end")
    answer = _ask(rent_roll_ws, "Who is the tenant of unit G-241?")
    first = _citations(answer)[0]
    assert first.quote == "G-241 | Café Rambla | 850,00 | 1.700,00 | 05/10/2030." and first.page == 7
    assert len(first.rects) == 1


# --- 4. text layers whose character codes are shifted -------------------------------------------


ES = ("El arrendatario abonará la renta dentro de los cinco primeros días de cada mes, según el artículo quinto "
      "del contrato. La fianza equivale a dos mensualidades de renta y se devuelve al terminar el contrato.")


@pytest.mark.parametrize("shift", [3, -4, 10, 0x3A0 - 0x61])
def test_a_text_layer_with_shifted_codes_is_named_not_indexed_as_text(tmp_path, shift: int) -> None:
    """Every character moved by a constant (a broken font encoding): +3 and +10 kept letter frequencies
    close enough to Spanish, -4 made brackets, +831 Greek letters; all were indexed as text before."""
    shifted = "".join(chr(ord(c) + shift) if c != " " else c for c in ES)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 400), ES, fontsize=11)  # the page a scan would show
    doc.save(tmp_path / "ok.pdf")
    assert parse_file(tmp_path / "ok.pdf", ocr=False).warnings == []
    doc = pymupdf.open()
    page = doc.new_page()
    font = pymupdf.Font("cjk") if shift > 255 else None
    if font is not None:
        page.insert_font(fontname="F0", fontbuffer=font.buffer)
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 400), shifted, fontsize=11, fontname="F0" if font else "helv")
    page.insert_text((72, 500), "Pagina 1", fontsize=9)
    doc.save(tmp_path / "shifted.pdf")
    with pytest.raises(IngestError) as info:
        parse_file(tmp_path / "shifted.pdf", ocr=False)
    assert f"shifts every character code by {shift:+d}" in info.value.reason
