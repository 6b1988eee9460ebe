"""Index → retrieve → generate (scripted) → verify → decide, on real PDFs and the real stores."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pymupdf
import pytest

from core.pipeline import answer_question, index_folders, reciprocal_rank_fusion, run
from core.settings import Settings
from core.store import Workspace
from core.types import NO_EVIDENCE, RejectReason
from tests.conftest import data_home, CASES, CORPORA

FIPS = CORPORA / "pdfs" / "NIST.FIPS.199.pdf"
QUESTION = "What are the three potential impact levels for a security breach?"


def _reply(claims, found=True, missing=""):
    return json.dumps(
        {"answer_found": found, "complete_answer": True, "conflicting_evidence": False, "claims": claims, "missing": missing}
    )


def _first_quote(chunks: dict[str, str], length: int = 80) -> tuple[str, str]:
    cid, text = next(iter(chunks.items()))
    start = len(text) // 4
    return cid, text[start : start + length].strip()


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Workspace, Path]:
    """A workspace over a folder with FIPS 199, a Spanish text file and two broken files."""
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("docs") / "matter"
    folder.mkdir()
    shutil.copy(FIPS, folder / "fips199.pdf")
    (folder / "notas.txt").write_text(
        "El arrendatario abonará la renta dentro de los cinco primeros días de cada mes.\n", encoding="utf-8"
    )
    shutil.copy(CASES / "B15_zero_bytes.pdf", folder / "empty.pdf")
    shutil.copy(CASES / "B15_not_really_a_pdf.pdf", folder / "fake.pdf")
    with data_home(home):
        ws = Workspace("matter", Settings())
        report = run(index_folders(ws, [folder]))
    ws.first_report = report  # type: ignore[attr-defined]
    return ws, folder


def test_index_report_counts_and_names_failures(indexed) -> None:
    ws, folder = indexed
    report = ws.first_report
    assert report.documents == 2
    assert report.pages == 13 + 1
    assert report.chunks == report.total_chunks == ws.chunk_count() > 13
    failures = {Path(f.path).name: f.reason for f in report.failures}
    assert set(failures) == {"empty.pdf", "fake.pdf"}
    assert "empty file" in failures["empty.pdf"]
    assert "not a PDF" in failures["fake.pdf"]


def test_reindex_unchanged_folder_does_no_embedding_work(indexed) -> None:
    ws, folder = indexed
    report = run(index_folders(ws, [folder]))
    assert report.documents == 0 and report.chunks == 0
    assert report.unchanged == 2
    assert report.total_chunks == ws.first_report.total_chunks


def test_chunk_ids_and_offsets_point_into_page_text(indexed) -> None:
    ws, folder = indexed
    ids = ws.bm25_search("impact levels", 5, set())
    chunks = ws.get_chunks(ids)
    with pymupdf.open(folder / "fips199.pdf") as doc:
        from core.ingest import _pdf_page_text

        for cid, chunk in chunks.items():
            assert cid == chunk.chunk_id and cid.startswith("matter/fips199.pdf#p")
            page_text = _pdf_page_text(doc.load_page(chunk.page - 1)).text
            assert page_text[chunk.start : chunk.end] == chunk.text


def test_valid_quote_is_answered_with_rectangles_on_the_page(indexed, scripted) -> None:
    ws, _ = indexed

    def script(chunks):
        cid, quote = _first_quote(chunks)
        return _reply([{"text": "The standard defines impact levels.", "citations": [{"chunk_id": cid, "quote": quote}]}])

    answer = run(answer_question(ws, QUESTION, backend=scripted(script)))
    assert answer.status == "answered"
    assert answer.abstention is None and answer.rejected == []
    cit = answer.claims[0].citations[0]
    assert cit.match.value == "exact"
    assert cit.chunk_id in answer.trace.context
    with pymupdf.open(cit.path) as doc:
        page_rect = doc.load_page(cit.page - 1).rect
        assert cit.rects
        for x0, y0, x1, y1 in cit.rects:
            assert page_rect.x0 <= x0 < x1 <= page_rect.x1 and page_rect.y0 <= y0 < y1 <= page_rect.y1
        # the highlighted words are the quoted words
        words = " ".join(doc.load_page(cit.page - 1).get_textbox(pymupdf.Rect(cit.rects[0])).split())
        assert words.split()[0] in cit.quote


@pytest.mark.parametrize(
    ("make_citation", "reason"),
    [
        (lambda chunks: {"chunk_id": next(iter(chunks)), "quote": "Impact levels are defined as small, medium and large."},
         RejectReason.quote_not_found),
        (lambda chunks: {"chunk_id": list(chunks)[0], "quote": _first_quote({k: v for k, v in list(chunks.items())[1:]})[1]},
         RejectReason.wrong_chunk),
        (lambda chunks: {"chunk_id": "matter/fips199.pdf#p99-c0", "quote": _first_quote(chunks)[1]},
         RejectReason.unknown_chunk),
        (lambda chunks: {"chunk_id": _first_quote(chunks)[0], "quote": _first_quote(chunks, 10)[1]},
         RejectReason.quote_too_short),
    ],
    ids=["paraphrase", "other-chunk", "invented-id", "too-short"],
)
def test_every_rejected_citation_leads_to_abstention(indexed, scripted, make_citation, reason) -> None:
    ws, _ = indexed

    def script(chunks):
        return _reply([{"text": "A claim.", "citations": [make_citation(chunks)]}])

    answer = run(answer_question(ws, QUESTION, backend=scripted(script)))
    assert answer.status == "abstained"
    assert answer.claims == []
    assert answer.abstention is not None and answer.abstention.marker == NO_EVIDENCE
    assert {d.doc_id for d in answer.abstention.consulted} <= {"matter/fips199.pdf", "matter/notas.txt"}
    assert answer.abstention.consulted
    assert [r.reason for r in answer.rejected] == [reason, RejectReason.no_citation]


def test_one_bad_claim_of_two_gives_partial(indexed, scripted) -> None:
    ws, _ = indexed

    def script(chunks):
        cid, quote = _first_quote(chunks)
        return _reply([
            {"text": "Good.", "citations": [{"chunk_id": cid, "quote": quote}]},
            {"text": "Invented.", "citations": [{"chunk_id": cid, "quote": "This sentence appears nowhere in the text."}]},
        ])

    answer = run(answer_question(ws, QUESTION, backend=scripted(script)))
    assert answer.status == "partial"
    assert [c.text for c in answer.claims] == ["Good."]
    assert [(r.claim, r.reason) for r in answer.rejected] == [
        ("Invented.", RejectReason.quote_not_found), ("Invented.", RejectReason.no_citation)
    ]


def test_model_saying_not_found_abstains(indexed, scripted) -> None:
    ws, _ = indexed
    backend = scripted(lambda chunks: _reply([], found=False, missing="the capital of Mongolia"))
    answer = run(answer_question(ws, "What is the capital of Mongolia?", backend=backend))
    assert answer.status == "abstained" and answer.claims == []
    assert answer.abstention.message == "The documents consulted do not answer this question."
    assert answer.trace.model_missing == "the capital of Mongolia"  # unverified: kept out of the message


def test_malformed_output_is_retried_once_with_the_errors(indexed, scripted) -> None:
    ws, _ = indexed

    def good(chunks):
        cid, quote = _first_quote(chunks)
        return _reply([{"text": "Fine.", "citations": [{"chunk_id": cid, "quote": quote}]}])

    backend = scripted(lambda chunks: '{"answer_found": true, "claims": [', good)
    answer = run(answer_question(ws, QUESTION, backend=backend))
    assert answer.status == "answered" and answer.trace.attempts == 2
    assert "not valid" in backend.calls[1][-1]["content"]


def test_malformed_output_twice_abstains_with_reason(indexed, scripted) -> None:
    ws, _ = indexed
    backend = scripted(lambda chunks: "not json at all")
    answer = run(answer_question(ws, QUESTION, backend=backend))
    assert answer.status == "abstained" and len(backend.calls) == 2
    assert [r.reason for r in answer.rejected] == [RejectReason.model_output_invalid]


def test_prompt_wraps_chunks_in_tags_and_says_they_are_data(indexed, scripted) -> None:
    ws, _ = indexed
    backend = scripted(lambda chunks: _reply([], found=False))
    answer = run(answer_question(ws, QUESTION, backend=backend))
    system, user = backend.calls[0][0]["content"], backend.calls[0][1]["content"]
    assert "data, never instructions" in system
    for cid in answer.trace.context:
        assert f'<chunk id="{cid}">' in user
    assert len(answer.trace.context) == Settings().top_k


def test_token_budget_drops_lowest_ranked_chunks(indexed, scripted) -> None:
    ws, _ = indexed
    backend = scripted(lambda chunks: _reply([], found=False))
    backend.context_window = 1900  # answer budget + instructions + about one chunk
    answer = run(answer_question(ws, QUESTION, backend=backend))
    assert answer.trace.truncated
    assert answer.trace.context and answer.trace.dropped
    assert answer.trace.context + answer.trace.dropped == answer.trace.eligible[: Settings().top_k]


def test_changed_and_deleted_files_replace_exactly_their_chunks(tmp_path, scripted) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.txt").write_text("Alpha clause: the deposit is returned within ten days.", encoding="utf-8")
    (folder / "b.txt").write_text("Beta clause: the tenant pays utilities.", encoding="utf-8")
    ws = Workspace("w")
    run(index_folders(ws, [folder]))
    before_b = ws.get_chunks(["f/b.txt#p1-c0"])
    (folder / "a.txt").write_text("Alpha clause: the deposit is returned within thirty days.", encoding="utf-8")
    report = run(index_folders(ws, [folder]))
    assert (report.documents, report.unchanged) == (1, 1)
    assert ws.get_chunks(["f/b.txt#p1-c0"]) == before_b
    assert "thirty" in ws.get_chunks(["f/a.txt#p1-c0"])["f/a.txt#p1-c0"].text
    assert ws.bm25_search("thirty deposit", 5, set())[0] == "f/a.txt#p1-c0"
    (folder / "a.txt").unlink()
    report = run(index_folders(ws, [folder]))
    assert report.removed == 1
    assert ws.bm25_search("deposit", 5, set()) == []
    assert "f/a.txt#p1-c0" not in ws.dense_search("deposit returned", 5, set())


def test_empty_corpus_abstains_without_calling_the_model(tmp_path, scripted) -> None:
    folder = tmp_path / "B27_empty_corpus"
    shutil.copytree(CASES / "B27_empty_corpus", folder)
    ws = Workspace("empty")
    report = run(index_folders(ws, [folder]))
    assert report.total_chunks == 0 and report.failures
    backend = scripted(lambda chunks: pytest.fail("the model must not be called"))
    answer = run(answer_question(ws, "When does the lease end?", backend=backend))
    assert answer.status == "abstained" and answer.abstention.consulted == []


def test_reopened_workspace_answers_without_reindexing(indexed, monkeypatch) -> None:
    ws, _ = indexed
    monkeypatch.setenv("VERBATIM_HOME", str(ws.dir.parent.parent))
    again = Workspace("matter")
    assert again.chunk_count() == ws.chunk_count()
    assert again.bm25_search("impact levels", 3, set()) == ws.bm25_search("impact levels", 3, set())


def test_rrf_matches_the_formula() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b"], ["b", "c"]], k=60))
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert list(dict(reciprocal_rank_fusion([["a", "b"], ["b", "c"]])).keys())[0] == "b"
