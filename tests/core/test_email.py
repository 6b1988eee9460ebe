"""E-mail messages as they really come (issue #14): quoted replies, and attachments that are
documents of their own. Messages are written here with the standard library's ``email``."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pymupdf
import pytest

from core.chunking import chunk_pages
from core.ingest import display_name, open_member, page_text, parse_file, render_page_png, span_rects
from core.verify import match_quote


def _pdf(text: str) -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), text, fontsize=11)
    return doc.tobytes()


def _docx(text: str) -> bytes:
    import io

    import docx

    d = docx.Document()
    d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def thread(tmp_path_factory) -> Path:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "notaria@example.org", "Escritura"
    inner.set_content("Adjunto la escritura.")
    inner.add_attachment(_pdf("La escritura se firmó el 3 de marzo de 2026."), maintype="application",
                         subtype="pdf", filename="escritura.pdf")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ana@example.org", "luis@example.org", "RE: RE: Garantía"
    msg.set_content(
        "Conforme, lo firmamos así.\n\n"
        "El lun, 2 mar 2026, Luis escribió:\n"
        "> La garantía cubre los defectos de construcción durante un plazo\n"
        "> de diez años desde la recepción de la obra.\n"
        ">\n"
        ">> ¿Y los vicios ocultos? Entiendo que quedan cubiertos\n"
        ">> por la misma garantía decenal.\n"
        "> Sí, también.\n"
    )
    msg.add_attachment(_pdf("Anexo II. El importe garantizado es de 40.000 euros."), maintype="application",
                       subtype="pdf", filename="Anexo_II.pdf")
    msg.add_attachment(_docx("The warranty claims go to the site manager first."), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename="notes.docx")
    msg.add_attachment("Plazos: aviso en 30 días.".encode(), maintype="text", subtype="plain", filename="plazos.txt")
    msg.add_attachment(inner)
    msg.add_attachment(b"%PDF-1.7 this is not really a pdf", maintype="application", subtype="pdf",
                       filename="roto.pdf")
    msg.add_attachment(b"PK\x03\x04", maintype="application", subtype="vnd.ms-excel", filename="tabla.xlsx")
    msg.add_attachment(b"AC1032", maintype="application", subtype="octet-stream", filename="plano.dwg")
    path = tmp_path_factory.mktemp("mail") / "garantia.eml"
    path.write_bytes(bytes(msg))
    return path


def test_quoted_lines_are_joined_per_paragraph_without_their_marks(thread: Path) -> None:
    parsed = parse_file(thread)
    text = parsed.pages[0].text
    assert ">" not in text.split("Subject:")[1]
    chunks = chunk_pages("m/garantia.eml", str(thread), parsed.pages)
    for quote in ("durante un plazo de diez años desde la recepción de la obra",
                  "Entiendo que quedan cubiertos por la misma garantía decenal"):
        assert any(match_quote(quote, c.text) for c in chunks), quote
    kinds = [(b.kind, text[b.start : b.end][:12]) for b in parsed.pages[0].blocks]
    assert ("quote", "La garantía ") in kinds and ("quote", "¿Y los vicio") in kinds and ("quote", "Sí, también.") in kinds


def test_attachments_are_documents_of_their_own_and_failures_are_named(thread: Path) -> None:
    parsed = parse_file(thread)
    names = [d.name for d in parsed.all_documents()[1:]]
    assert names == ["garantia.eml › Anexo_II.pdf", "garantia.eml › notes.docx", "garantia.eml › plazos.txt",
                     "garantia.eml › Escritura.eml", "garantia.eml › Escritura.eml › escritura.pdf"]
    by_name = {d.name: d for d in parsed.all_documents()}
    assert "40.000 euros" in by_name["garantia.eml › Anexo_II.pdf"].pages[0].text
    assert by_name["garantia.eml › notes.docx"].kind == "docx"
    assert by_name["garantia.eml › Escritura.eml › escritura.pdf"].pages[0].text.startswith("La escritura")
    warnings = [w for _, w in parsed.warnings]
    assert any(w.startswith("attachment roto.pdf could not be read") for w in warnings)
    # .xlsx is read since issue #23: these four bytes are no workbook, and the warning says so
    assert any(w.startswith("attachment tabla.xlsx could not be read: not a readable Excel") for w in warnings)
    assert any(w.startswith("attachment plano.dwg not indexed") for w in warnings)
    assert display_name(by_name["garantia.eml › Anexo_II.pdf"].path) == "garantia.eml › Anexo_II.pdf"


def test_an_attachment_page_is_read_again_highlighted_and_rendered(thread: Path) -> None:
    """A citation of an attached PDF re-extracts its page from the message (member path)."""
    member = Path(f"{thread} › Escritura.eml › escritura.pdf")
    assert open_member(member).startswith(b"%PDF")
    pt = page_text(member, 1)
    assert pt is not None and pt.text.startswith("La escritura se firmó")
    assert span_rects(member, 1, 0, 12)
    assert render_page_png(member, 1, span_rects(member, 1, 0, 12)).startswith(b"\x89PNG")
    assert parse_file(member).pages[0].text == pt.text


def test_the_shared_reply_with_its_annex(tmp_path: Path) -> None:
    """B40 in another shape: the annex alone answers; it is found as its own document."""
    from tests.conftest import CASES

    parsed = parse_file(CASES / "B40_reply_quoted_qp.eml")
    [annex] = parsed.attachments
    assert annex.name == "B40_reply_quoted_qp.eml › Anexo_I_renta.pdf" and annex.kind == "pdf"
    assert "La renta mensual queda fijada en 1.150 euros." in annex.pages[0].text
