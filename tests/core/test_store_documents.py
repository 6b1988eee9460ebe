"""The index of documents as they really come (issue #14): an e-mail's attachments are documents of
their own, kept and removed with their message; chunks across a page break keep their segments."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pymupdf

from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.types import ModelAnswer
from core.verify import verify_claims


def _pdf(pages: list[list[str]], header: str = "") -> bytes:
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        if header:
            page.insert_text((72, 36), header, fontsize=9)
        for i, line in enumerate(lines):
            page.insert_text((72, 120 + 16 * i), line, fontsize=11)
    return doc.tobytes()


def _message(attachments: dict[str, bytes]) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "gestoria@example.org", "Renta del local"
    msg.set_content("Te adjunto el anexo con la renta.\n\n> ¿Cuál es la renta?\n")
    for name, data in attachments.items():
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=name)
    return bytes(msg)


def test_attachments_are_indexed_kept_and_removed_with_their_message(tmp_path: Path) -> None:
    docs = tmp_path / "correo"
    docs.mkdir()
    annex = _pdf([["Anexo I. La renta mensual queda fijada en 1.150 euros."]])
    (docs / "renta.eml").write_bytes(_message({"Anexo_I.pdf": annex, "Anexo_II.pdf": _pdf([["Anexo II. Inventario."]]),
                                               "Anexo_III.pdf": b"%PDF-1.7 damaged"}))
    ws = Workspace("mail", Settings())
    report = run(index_folders(ws, [docs]))
    ids = [d["doc_id"] for d in ws.documents()]
    assert ids == ["correo/renta.eml", "correo/renta.eml › Anexo_I.pdf", "correo/renta.eml › Anexo_II.pdf"]
    assert report.documents == 3
    [failure] = report.failures  # the unreadable attachment is listed, never skipped silently
    assert failure.path.endswith("renta.eml") and failure.page is None
    assert failure.reason.startswith("attachment Anexo_III.pdf could not be read")
    hits = ws.bm25_search("renta mensual 1150 euros", 5, set())
    assert hits and hits[0].startswith("correo/renta.eml › Anexo_I.pdf#p1-c"), hits  # "1.150" found as 1150
    [chunk] = ws.get_chunks(hits[:1]).values()
    assert chunk.path.endswith("renta.eml › Anexo_I.pdf") and chunk.doc_id == "correo/renta.eml › Anexo_I.pdf"

    # unchanged message: nothing re-indexed, the attachments stay
    report = run(index_folders(ws, [docs]))
    assert report.unchanged == 1 and len(ws.documents()) == 3
    # the message now carries only one attachment: the other goes
    (docs / "renta.eml").write_bytes(_message({"Anexo_I.pdf": annex}))
    report = run(index_folders(ws, [docs]))
    assert [d["doc_id"] for d in ws.documents()] == ["correo/renta.eml", "correo/renta.eml › Anexo_I.pdf"]
    assert report.removed == 1
    # renamed message: its attachment moves with it; deleted message: everything goes
    (docs / "renta.eml").rename(docs / "renta-marzo.eml")
    run(index_folders(ws, [docs]))
    assert [d["doc_id"] for d in ws.documents()] == ["correo/renta-marzo.eml", "correo/renta-marzo.eml › Anexo_I.pdf"]
    (docs / "renta-marzo.eml").unlink()
    run(index_folders(ws, [docs]))
    assert ws.documents() == [] and ws.chunk_count() == 0


def test_a_chunk_across_a_page_break_comes_back_from_the_index_with_its_segments(tmp_path: Path) -> None:
    docs = tmp_path / "pdfs"
    docs.mkdir()
    (docs / "supply.pdf").write_bytes(_pdf(
        [["1. Delivery. Goods are delivered to the Buyer's plant.", "2. Late delivery. The Supplier pays the Buyer"],
         ["0.5 % of the order value for each day of delay.", "3. Law. Spanish law applies."]],
        header="Supply agreement SA-9 | Confidential"))
    ws = Workspace("pdf", Settings())
    run(index_folders(ws, [docs]))
    chunks = ws.get_chunks(ws.stored_chunk_ids()["manifest"])
    [chunk] = [c for c in chunks.values() if "Late delivery" in c.text]
    assert [s.page for s in chunk.segments] == [1, 2] and "Confidential" not in chunk.text
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": "The Supplier pays 0.5 % of the order value per day of delay.",
                    "citations": [{"chunk_id": chunk.chunk_id, "quote":
                                   "The Supplier pays the Buyer 0.5 % of the order value for each day of delay."}]}],
    })
    claims, rejected = verify_claims(answer, chunks)
    assert not rejected and claims[0].citations[0].continued[0].page == 2


def test_apostrophes_ampersands_dashes_and_accents_in_names(tmp_path: Path) -> None:
    """B41 in another shape: such names in the workspace, folders and files index, re-index after
    an edit and a deletion, and are found, with their doc_ids exactly as written."""
    import shutil

    from tests.conftest import CASES

    folder = tmp_path / "Expediente d'Ávila & Cía – 2025"
    shutil.copytree(CASES / "B41_Expediente O'Brien & Hijos – Año 2024", folder)
    extra = folder / "Correspondència d'l'Hospitalet" / "acta «final» – n.º 2.md"
    extra.write_text("# Acta\n\nLa entrega de llaves será el 1 de julio de 2025.\n", encoding="utf-8")
    ws = Workspace("D'Ávila & Cía – Año 2025", Settings())
    run(index_folders(ws, [folder]))
    ids = {d["doc_id"] for d in ws.documents()}
    assert f"{folder.name}/Correspondència d'l'Hospitalet/acta «final» – n.º 2.md" in ids and len(ids) == 3
    [hit, *_] = ws.bm25_search("¿Cuánto dura el arrendamiento?", 3, set())
    assert "duración de cinco años" in ws.get_chunks([hit])[hit].text
    extra.write_text("# Acta\n\nLa entrega de llaves será el 15 de julio de 2025.\n", encoding="utf-8")
    (folder / "Correspondència d'l'Hospitalet" / "nota 'urgente' ñandú.txt").unlink()
    report = run(index_folders(ws, [folder]))
    assert (report.documents, report.removed) == (1, 1)
    reopened = Workspace("D'Ávila & Cía – Año 2025", Settings())
    assert len(reopened.documents()) == 2
