"""Small-to-big delivery (core.small_to_big): a delivered chunk carries the rest of a sentence cut at its end,
and a quote the model takes from the added text verifies against the source PDF and is highlighted."""
from __future__ import annotations

from core.chunking import chunk_pages
from core.ingest import parse_file, span_rects_cached
from core.small_to_big import extend_chunk
from core.types import SEGMENT_SEP, ModelAnswer, ModelCitation, ModelClaim
from core.verify import verify_claims
from tests.conftest import CORPORA

MJ = CORPORA / "cuad" / "pdf" / "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.PDF"


def _answer(chunk_id: str, quote: str) -> ModelAnswer:
    return ModelAnswer(
        answer_found=True, complete_answer=True, conflicting_evidence=False, missing="",
        claims=[ModelClaim(text="The annual report includes the tax returns and a profit and loss breakdown.",
                           citations=[ModelCitation(chunk_id=chunk_id, quote=quote)])],
    )


def test_a_sentence_cut_at_a_chunk_end_is_delivered_whole_across_the_page_break_and_verifies() -> None:
    # MJ Biotech's annual-report clause (§15) runs from page 4 over to page 5 as one sentence ("…the
    # following documents: a. … g. any additional information that the Participants may require.").
    # Chunked small without overlap, one chunk ends "…federal income tax returns for" on page 4.
    parsed = parse_file(MJ)
    chunks = chunk_pages("f/mj.pdf", str(MJ), parsed.pages, title=parsed.title, chunk_tokens=120, overlap_tokens=0)
    i = next(i for i, c in enumerate(chunks) if c.text.rstrip().endswith("federal income tax returns for"))
    cut = chunks[i]
    assert cut.pages == [4]
    new = extend_chunk(cut, chunks[i - 1], chunks[i + 1], bound=600)
    assert new.chunk_id == cut.chunk_id and new.text.startswith(cut.text)
    assert new.text.endswith("any additional information that the Participants may require.")
    assert len(new.text) - len(cut.text) <= 600 + len(SEGMENT_SEP) * 4
    assert new.pages == [4, 5]
    # still a true piece of the document: its segments are page-text spans
    assert SEGMENT_SEP.join(parsed.pages[s.page - 1].text[s.start : s.end] for s in new.spans()) == new.text

    quote = ("federal income tax returns for that fiscal year; c. supporting income statement; d. a balance sheet; "
             "e. a cash flow statement; f. a breakdown of the profit and loss attributable to each Participant")
    # as retrieved, the chunk does not hold the quote: the citation is rejected
    claims, rejected = verify_claims(_answer(cut.chunk_id, quote), {cut.chunk_id: cut}, check_facts=False)
    assert not claims and rejected
    # as delivered, it verifies, runs from page 4 onto page 5, and has rectangles to highlight on both pages
    claims, rejected = verify_claims(_answer(new.chunk_id, quote), {new.chunk_id: new}, check_facts=False,
                                     rects=span_rects_cached())
    assert len(claims) == 1, rejected
    cit = claims[0].citations[0]
    assert cit.page == 4 and cit.rects
    # (the blank line between the two chunks on page 4 is not chunk text: the join is a segment break there)
    assert [p.page for p in cit.continued][-1] == 5 and all(p.rects for p in cit.continued)
    assert "breakdown of the profit and loss" in parsed.pages[4].text[cit.continued[-1].start : cit.continued[-1].end]


def test_a_chunk_that_ends_its_sentence_is_delivered_as_it_is() -> None:
    parsed = parse_file(MJ)
    chunks = chunk_pages("f/mj.pdf", str(MJ), parsed.pages, title=parsed.title)
    ends = next(i for i, c in enumerate(chunks) if c.text.endswith("resolve the amount in default."))
    assert extend_chunk(chunks[ends], None, chunks[ends + 1]) is chunks[ends]
    assert extend_chunk(chunks[ends], None, chunks[ends + 1], bound=0) is chunks[ends]


def test_delivery_reads_neighbours_from_the_store_and_keeps_to_the_token_budget(tmp_path) -> None:
    from core.small_to_big import deliver, deliver_in_budget, neighbours
    from tests.conftest import indexed_in_small_chunks

    with indexed_in_small_chunks(tmp_path, MJ) as (ws, folder):
        ids = ws.manifest.chunk_ids()
        chunks = ws.get_chunks(ids)
        near = neighbours(ws.manifest, ids)
        # neighbours are the store's order within the document: each chunk is its next one's previous
        for cid, (_, nxt) in near.items():
            if nxt is not None:
                assert near[nxt.chunk_id][0].chunk_id == cid
        runs_on = [c for c in chunks.values() if extend_chunk(c, *near[c.chunk_id]) is not c]
        assert runs_on  # small chunks without overlap: some end inside a sentence
        cut = runs_on[0]
        [new] = deliver(ws.manifest, [cut])
        assert new == extend_chunk(cut, *near[cut.chunk_id]) and new.text != cut.text and cut.text in new.text
        # the delivered text is the PDF's own text, page by page
        pages = {p.page: p.text for p in parse_file(folder / "mj.pdf").pages}
        assert SEGMENT_SEP.join(pages[s.page][s.start : s.end] for s in new.spans()) == new.text

        def count(text: str) -> int:
            return len(text) // 4

        extra = count(new.text) - count(cut.text)
        # the extension fits: delivered, and its tokens counted
        got, used = deliver_in_budget(ws.manifest, [cut], count, 1000, 1000 + extra)
        assert got == [new] and used == 1000 + extra
        # one token short: the chunk is delivered as stored, nothing pushed out
        got, used = deliver_in_budget(ws.manifest, [cut], count, 1000, 1000 + extra - 1)
        assert got == [cut] and used == 1000


def test_the_model_is_handed_the_continuation_and_a_quote_across_the_join_verifies(tmp_path, scripted) -> None:
    import json

    from core.pipeline import answer_question, run
    from core.settings import Settings
    from tests.conftest import indexed_in_small_chunks

    seen: dict[str, str] = {}

    def script(chunks: dict[str, str]) -> str:
        # cite, in the first delivered chunk that was extended, the words around the end of its stored text
        stored = ws.get_chunks(list(chunks))
        cid = next(c for c, text in chunks.items() if text != stored[c].text and text.startswith(stored[c].text))
        old, new = stored[cid].text, chunks[cid]
        quote = " ".join(old.split()[-6:] + new[len(old):].split()[:8])
        seen.update(chunk_id=cid, quote=quote, added=new[len(old):])
        return json.dumps({
            "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
            "claims": [{"text": "The annual report lists these documents.",
                        "citations": [{"chunk_id": cid, "quote": quote}]}],
        })

    settings = Settings(chunk_tokens=120, chunk_overlap_tokens=0, check_facts=False, support_check="off")
    with indexed_in_small_chunks(tmp_path, MJ, settings) as (ws, _):
        answer = run(answer_question(ws, "What must the annual report to the participants contain?", settings,
                                     backend=scripted(script)))
    assert seen, "no delivered chunk was extended"
    assert answer.status == "answered", answer
    cit = answer.claims[0].citations[0]
    assert cit.chunk_id == seen["chunk_id"]
    # the verified quote reaches into the added text, and it is the PDF's own text at the cited place
    assert " ".join(seen["added"].split()[:3]) in " ".join(cit.quote.split())
    assert cit.rects
