"""A citation's location is the clause its quote is in, not where its chunk starts (tryout 5 finding 6: a quote of
clause 4.7 of the Western Copper non-compete was labelled "4.5 No waiver of any provision…", the heading the chunk
starts under). Real components: the CUAD text contract parsed and chunked with the default settings, the quote
verified by :func:`core.verify.verify_claims` (the one place every Citation, of CLI, window and export, is made)."""

from __future__ import annotations

import pytest

from core.chunking import chunk_pages
from core.clause_heads import quote_location
from core.ingest import parse_file
from core.types import ModelAnswer
from core.verify import verify_claims
from tests.conftest import CORPORA

COPPER = CORPORA / "cuad" / "txt" / "WESTERN COPPER - NON-COMPETITION AGREEMENT.txt"


@pytest.fixture(scope="module")
def chunks():
    parsed = parse_file(COPPER)
    return chunk_pages("f/copper.txt", str(COPPER), parsed.pages, title=parsed.title)


def _location(chunk, quote: str) -> str:
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": quote, "citations": [{"chunk_id": chunk.chunk_id, "quote": quote}]}]})
    claims, _ = verify_claims(answer, {chunk.chunk_id: chunk})
    [claim] = claims
    return claim.citations[0].location


def test_a_quote_of_clause_4_7_is_located_at_4_7_not_at_the_chunks_4_5(chunks) -> None:
    [chunk] = [c for c in chunks if "4.5 No waiver" in c.location]
    assert chunk.location.startswith("PART 2 › 4.5 No waiver") and chunk.location.endswith("¶ 92")
    quote = "binding upon the respective heirs, executors, administrators, personal representatives"
    loc = _location(chunk, quote)
    # the chunk's part stays, its clause is the quote's, and the paragraph is the quote's (92 + 4 blank-line breaks:
    # 4.5, its second paragraph, 4.6, "Successors and Assigns", 4.7)
    assert loc == ("PART 2 › 4.7 This Agreement will enure to the benefit of and be binding upon the respect… ¶ 96")
    # a quote of the chunk's own first clause keeps the chunk's location
    assert _location(chunk, "No waiver of any provision of this Agreement shall be binding") == chunk.location


def test_a_quote_with_no_heading_before_it_in_its_chunk_keeps_the_chunks_location(chunks) -> None:
    [chunk] = [c for c in chunks if " ".join(c.text.split()).startswith("If Glamis and Western Copper are unable")]
    assert _location(chunk, "If Glamis and Western Copper are unable to negotiate") == chunk.location


def test_headings_of_other_kinds() -> None:
    # an inline titled heading before a numbered clause; the clause heading replaces the chunk's clause
    text = "4.8 This Agreement is governed by the laws of Ontario. Severability 4.9 The parties agree that any part held invalid is severed."
    assert quote_location(text, "PART 4 › 4.8 This Agreement is governed…", text.index("any part held")) == (
        "PART 4 › Severability 4.9 The parties agree that any part held invalid is severed.")
    # a clause word replaces its own rank and everything under it
    text = "4.2 Fees are due monthly in advance.\n\nARTICLE 5 TERM\n\nThe term is five years from the date hereof."
    assert quote_location(text, "ARTICLE 4 › 4.2 Fees are due… ¶ 7", text.index("The term")) == "ARTICLE 5 TERM ¶ 8"
    # a list item in running text is no heading
    text = "The Supplier shall deliver the goods as follows: 1. the first lot in March and the rest later."
    assert quote_location(text, "7.1 Delivery… ¶ 3", text.index("the first lot")) == "7.1 Delivery… ¶ 3"
