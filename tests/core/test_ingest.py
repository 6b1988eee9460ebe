"""Ingestion and highlighting on the shared inputs that broke other systems (../shared/cases)."""

from __future__ import annotations

import json

import pytest

from core.chunking import chunk_pages
from core.errors import IngestError
from core.ingest import parse_file, rects_for_span
from core.verify import match_quote
from tests.conftest import CASES, CORPORA


def _cases():
    data = json.loads((CASES / "cases.json").read_text(encoding="utf-8"))["cases"]
    return data


# Cases whose format or layout is not handled yet (none left since issue #3).
_LATER: dict[str, str] = {}


def _quote_cases():
    out = []
    for case in _cases():
        files = case["file"] if isinstance(case["file"], list) else [case["file"]]
        if case["expected"]["type"] != "quote":
            continue
        for f in files:
            reason = _LATER.get(f)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            out.append(pytest.param(f, case["expected"], id=f"{case['case_id']}-{f}-{case['expected']['quote'][:20]}", marks=marks))
    return out


@pytest.mark.parametrize(("filename", "expected"), _quote_cases())
def test_expected_quote_is_found_on_its_page(filename: str, expected: dict) -> None:
    doc = parse_file(CASES / filename)
    chunks = chunk_pages("cases/" + filename, str(CASES / filename), doc.pages)
    hits = [(c, m) for c in chunks if (m := match_quote(expected["quote"], c.text)) is not None]
    assert hits, f"quote not found in any chunk of {filename}"
    chunk, m = hits[0]
    if "page" in expected:
        assert chunk.page == expected["page"]
    if doc.kind == "pdf":
        page = next(p for p in doc.pages if p.page == chunk.page)
        rects = rects_for_span(page.boxes, chunk.start + m.start, chunk.start + m.end)
        assert rects, "a verified PDF quote must map to rectangles"
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
