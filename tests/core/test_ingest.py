"""Ingestion and highlighting on the inputs that broke other systems (tests/data/cases; provenance in tests/data/README.md)."""

from __future__ import annotations

import json
import re

import pytest

from core.chunking import chunk_pages
from core.errors import IngestError
from core.ingest import parse_file, rects_for_span
from core.verify import match_quote
from tests.conftest import CASES, CORPORA


def _cases():
    data = json.loads((CASES / "cases.json").read_text(encoding="utf-8"))["cases"]
    return data


def _case_files(name: str) -> list:
    """The files of a case entry: one file, or every file under a folder entry ("B41_…/")."""
    path = CASES / name
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file())
    return [path]


def _quote_cases():
    out = []
    for case in _cases():
        files = case["file"] if isinstance(case["file"], list) else [case["file"]]
        if case["expected"]["type"] != "quote":
            continue
        for f in files:
            out.append(pytest.param(f, case["expected"], id=f"{case['case_id']}-{f}-{case['expected']['quote'][:20]}"))
    return out


def _expected_pages(expected: dict) -> set[int]:
    page = expected.get("page")
    if page is None:
        return set()
    return set(page) if isinstance(page, list) else {page}


@pytest.mark.parametrize(("filename", "expected"), _quote_cases())
def test_expected_quote_is_found_on_its_page(filename: str, expected: dict) -> None:
    """Every quote case: the quote lies in one chunk, on its page(s), and maps to rectangles.

    Entry fields read besides ``quote`` and ``page`` (an int, or a list when the quote
    crosses a page break): ``never`` / ``never_in_chunk_text`` (text no chunk may hold:
    deleted revisions, running headers, a footnote marker glued to a number),
    ``label_in_text`` (a clause number the quote's chunk must carry), ``or`` (an allowed
    alternative: a parse warning naming a file that could not be indexed).
    """
    docs, chunks = [], []
    for path in _case_files(filename):
        for doc in parse_file(path).all_documents():  # an e-mail's attachments are documents too
            docs.append(doc)
            doc_id = "cases/" + path.relative_to(CASES).as_posix() + doc.name.partition(" › ")[1] + doc.name.partition(" › ")[2]
            chunks += chunk_pages(doc_id, str(doc.path), doc.pages)
    label = expected.get("label_in_text")
    # With a clause label, ``never`` names the sibling clauses' wording: never inside the labelled
    # clause (they are elsewhere in the document); otherwise ``never`` text is in no chunk at all.
    for text in ([] if label else expected.get("never", [])) + expected.get("never_in_chunk_text", []):
        assert not [c.chunk_id for c in chunks if text in c.text], f"{text!r} must not be in the chunk text"
    hits = [(c, m) for c in chunks if (m := match_quote(expected["quote"], c.text)) is not None]
    if not hits and expected.get("or"):
        warned = [w for d in docs for _, w in d.warnings]
        named = expected["or"].split("attachment ")[-1].split()[0]
        assert any(named in w for w in warned), f"quote not found and no warning names {named}: {warned}"
        return
    assert hits, f"quote not found in any chunk of {filename}"
    chunk, m = hits[0]
    spans = chunk.page_spans(m.start, m.end)  # one per page the quote lies on
    pages = _expected_pages(expected)
    if pages:
        assert {s.page for s in spans} == pages
    if label:
        clause = re.search(rf"(?m)^{re.escape(label)}\s.*?(?=^\(?[0-9a-z]{{1,3}}[.)]|\Z)", chunk.text, re.S)
        assert clause, f"clause {label} does not start a line of the quote's chunk"
        assert match_quote(expected["quote"], clause[0]) is not None, f"the quote is not in clause {label}"
        assert not [t for t in expected.get("never", []) if t in clause[0]], f"a sibling's text is in clause {label}"
    doc = next(d for d in docs if str(d.path) == chunk.path)
    if doc.kind == "pdf":
        rects = []
        for span in spans:
            page = next(p for p in doc.pages if p.page == span.page)
            assert page.text[span.start : span.end] in chunk.text
            on_page = rects_for_span(page.boxes, span.start, span.end)
            assert on_page, f"a verified PDF quote must map to rectangles on page {span.page}"
            rects += on_page
        if expected.get("highlight_rects"):
            assert len(rects) == expected["highlight_rects"]


@pytest.mark.parametrize(
    ("filename", "must_mention"),
    [
        ("B15_zero_bytes.pdf", "empty file"),
        ("B15_truncated_60pct.pdf", "damaged or truncated"),
        ("B15_not_really_a_pdf.pdf", "not a PDF"),
        ("B14_encrypted_user_password.pdf", "password-protected"),
        ("B13_scanned_image_only.pdf", "needs OCR"),
    ],
)
def test_bad_pdf_gives_clear_error_naming_the_file(filename: str, must_mention: str) -> None:
    with pytest.raises(IngestError) as info:
        parse_file(CASES / filename, ocr=False)
    assert must_mention in info.value.reason
    assert filename in str(info.value)


def test_scanned_case_is_ocred_when_tesseract_is_installed() -> None:
    doc = parse_file(CASES / "B13_scanned_image_only.pdf", ocr=True)
    page = doc.pages[0]
    assert page.modality == "ocr" and page.ocr_confidence is not None and page.ocr_confidence > 60
    assert match_quote("The termination notice period is ninety days.", page.text) is not None
    assert len(page.boxes) == len(page.text)


def test_mixed_file_without_ocr_indexes_text_pages_and_names_the_scanned_page() -> None:
    doc = parse_file(CASES / "B13_mixed_text_and_scan.pdf", ocr=False)
    assert "Alder Street Bakery" in doc.pages[0].text
    assert doc.pages[1].text == ""
    assert [(page, "needs OCR" in reason) for page, reason in doc.warnings] == [(2, True)]


def test_owner_password_only_pdf_indexes_normally() -> None:
    doc = parse_file(CASES / "B14_encrypted_owner_only.pdf")
    assert any("volume discount is 7 %" in p.text for p in doc.pages)


def test_header_stripped_pdf_is_repaired_and_read() -> None:
    doc = parse_file(CASES / "B15_header_stripped.pdf")
    assert len(doc.pages) >= 3


def test_real_multipage_spanish_pdf_page_text_and_boxes_align() -> None:
    doc = parse_file(CORPORA / "pdfs" / "BOE-A-1978-31229-consolidado.pdf")
    assert len(doc.pages) == 39
    for page in doc.pages:
        assert len(page.boxes) == len(page.text)
    assert any("Constitución" in p.text for p in doc.pages)


# --- formats read since issue #23 (real files made by tests/data/formats/make.py) ---------------
FORMATS = CASES.parent / "formats"


def _format_cases():
    entries = json.loads((FORMATS / "formats.json").read_text(encoding="utf-8"))["files"]
    return [pytest.param(e, id=f"{e['file']}-{e.get('member', '')}-{e['quote'][:20]}") for e in entries]


@pytest.mark.parametrize("entry", _format_cases())
def test_every_format_gives_its_quote_on_its_page(entry: dict) -> None:
    """Each reader (odt, rtf, xlsx, pptx, msg and its attachment, images through OCR): the quote lies in
    one chunk, on its page, and reviewers' comments are nowhere in the text."""
    parsed = parse_file(FORMATS / entry["file"], ocr=bool(entry.get("ocr")))
    docs = {d.name.partition(" › ")[2]: d for d in parsed.all_documents()}
    doc = docs[entry.get("member", "")]
    for text in entry.get("never", []):
        assert not [p.page for p in doc.pages if text in p.text], f"{text!r} must not be read as the document"
    chunks = chunk_pages("formats/" + entry["file"], str(doc.path), doc.pages)
    hits = [(c, m) for c in chunks if (m := match_quote(entry["quote"], c.text)) is not None]
    assert hits, f"quote not found in {entry['file']}: {[c.text for c in chunks]}"
    chunk, m = hits[0]
    assert {s.page for s in chunk.page_spans(m.start, m.end)} == {entry["page"]}


def test_mupdf_messages_are_the_files_own_problems_never_stdout(tmp_path, verbatim_home) -> None:
    """Tryout 5, finding 12: ``verbatim index --quiet`` printed "MuPDF error: format error: non-page
    object in page tree" and "object is not a stream" on stdout, where scripts read the report. They
    are now said in the damaged file's own failure, and a repaired file that reads is indexed with
    a warning (case B15: "file was repaired")."""
    import os
    import shutil
    import subprocess
    import sys

    with pytest.raises(IngestError) as info:
        parse_file(CASES / "B15_truncated_60pct.pdf")
    assert info.value.reason.startswith("damaged or truncated PDF (no text could be recovered) — MuPDF: ")
    assert "cannot find startxref" in info.value.reason and "repair" not in info.value.reason
    doc = parse_file(CASES / "B15_header_stripped.pdf")
    [(page, reason)] = doc.warnings
    assert page is None and "file was repaired" in reason and "cannot find version marker" in reason
    assert parse_file(CASES / "B01_ligatures.pdf").warnings == []  # an intact PDF says nothing

    folder = tmp_path / "b15"
    folder.mkdir()
    for name in ("B15_truncated_60pct.pdf", "B15_header_stripped.pdf"):
        shutil.copy(CASES / name, folder)
    out = subprocess.run([sys.executable, "-m", "core", "index", str(folder), "-w", "b15", "--quiet"],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "VERBATIM_HOME": str(verbatim_home)})
    assert out.returncode == 0, out.stderr
    assert "MuPDF error" not in out.stdout + out.stderr and "MuPDF warning" not in out.stdout + out.stderr
    assert out.stdout.startswith("Workspace 'b15'"), out.stdout
    assert "documents indexed: 1" in out.stdout
    assert "B15_truncated_60pct.pdf: damaged or truncated PDF" in out.stdout
    assert "B15_header_stripped.pdf: damaged PDF: the file was repaired when read" in out.stdout
