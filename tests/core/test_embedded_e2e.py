"""End to end with the real embedded llama.cpp model (SmolLM2-135M): whatever it says,
the result is a valid Answer and every citation it keeps is verified."""

from __future__ import annotations

import shutil

import pymupdf
import pytest

from core.generate import EmbeddedBackend
from core.normalize import normalized
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.types import NO_EVIDENCE, Answer
from tests.conftest import data_home, CORPORA


@pytest.fixture(scope="module")
def fips_ws(tmp_path_factory) -> Workspace:
    folder = tmp_path_factory.mktemp("docs") / "nist"
    folder.mkdir()
    shutil.copy(CORPORA / "pdfs" / "NIST.FIPS.199.pdf", folder)
    with data_home(tmp_path_factory.mktemp("home")):
        ws = Workspace("nist", Settings())
        run(index_folders(ws, [folder]))
    return ws


@pytest.fixture(scope="module")
def embedded() -> EmbeddedBackend:
    return EmbeddedBackend(Settings())


@pytest.mark.parametrize(
    "question",
    ["What are the potential impact levels defined by FIPS 199?", "What is the airspeed of an unladen swallow?"],
)
def test_embedded_answer_is_valid_and_every_kept_citation_verified(fips_ws, embedded, question) -> None:
    answer = run(answer_question(fips_ws, question, backend=embedded))
    Answer.model_validate_json(answer.model_dump_json())  # round-trips the contract
    assert answer.trace.backend == "embedded" and answer.trace.model.endswith(".gguf")
    assert answer.status in {"answered", "partial", "abstained"}
    if answer.status == "abstained":
        assert answer.claims == [] and answer.abstention.marker == NO_EVIDENCE
        return
    chunks = fips_ws.get_chunks(answer.trace.context)
    for claim in answer.claims:
        assert claim.citations
        for cit in claim.citations:
            chunk = chunks[cit.chunk_id]  # it was delivered to the model
            assert chunk.text[cit.start - chunk.start : cit.end - chunk.start] == cit.quote
            assert len(normalized(cit.quote)) >= 15
            with pymupdf.open(cit.path) as doc:
                page_rect = doc.load_page(cit.page - 1).rect
            assert cit.rects
            for x0, y0, x1, y1 in cit.rects:
                assert page_rect.contains(pymupdf.Rect(x0, y0, x1, y1))


def test_the_embedded_model_reads_its_prompt_with_flash_attention(embedded) -> None:
    """A grid cell's ~2,700-token prompt was read at 54 tokens per CPU-second without llama.cpp's fused
    attention and 96 with it on the project's machine (bench/README.md, 2026-12-02): it stays on."""
    import llama_cpp

    assert embedded._llm.context_params.flash_attn_type == llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED
