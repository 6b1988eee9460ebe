"""A heading is never a grid cell's clause (tryout 5 finding 1): in the Western Copper non-competition agreement a
chunk ends at the heading "Governing Law and Attornment", whose clause 4.8 (British Columbia) is in the next chunk.
The heading was joined to the sentence before it (4.7, successors and assigns), and that span, read for its heading's
words, was the governing-law cell's first passage; "PART 2 / NON COMPETITION … / Non-Competition by Western Copper", a span
of headings alone, was the non-compete cell's.

Real components: the CUAD text contract indexed with the default settings (the chunker, the bundled embedding model,
bm25s), the commercial template's columns computed by :func:`core.grid.compute_cell` with the passages answer.
"""

from __future__ import annotations


import pytest

from core.grid import compute_cell, templates
from core.labels import label_kind
from core.passages import PassagesBackend
from core.sentences import clause_spans, sentence_spans
from core.settings import Settings
from core.store import Workspace
from tests.conftest import CORPORA, indexed_copies

COPPER = CORPORA / "cuad" / "txt" / "WESTERN COPPER - NON-COMPETITION AGREEMENT.txt"


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    with indexed_copies(tmp_path_factory, [COPPER], names=["copper.txt"]) as workspace:
        yield workspace


def _chunks(ws: Workspace):
    chunks = ws.get_chunks(ws.manifest.chunk_ids())
    return sorted(chunks.values(), key=lambda c: (c.page, c.start))


def _words(text: str) -> str:
    return " ".join(text.split())


def test_a_chunk_ending_at_a_heading_gives_no_span_that_ends_with_it(ws) -> None:
    chunks = _chunks(ws)
    [ending] = [c for c in chunks if _words(c.text).endswith("Governing Law and Attornment")]
    # the segmenter no longer joins the last short piece, the heading, to the sentence before it (what the cell
    # showed before tests/core/test_heading_lines.py's fix): it is dropped from the chunk's sentences
    assert not _words(ending.text[slice(*sentence_spans(ending.text, ending.lang)[-1])]).endswith(
        "Governing Law and Attornment")
    last = _words(ending.text[slice(*clause_spans(ending.text, ending.lang)[-1])])
    assert last.endswith("successors and permitted assigns of each party hereto.")
    for c in chunks:  # no span of the contract ends with a label line, none is labels only
        for s, e in clause_spans(c.text, c.lang):
            lines = [ln for ln in c.text[s:e].split("\n") if ln.strip()]
            assert label_kind(lines[-1]) is None or len(lines) == 1 and label_kind(lines[0]) is None, c.text[s:e]


def test_a_heading_that_ends_a_chunk_still_ranks_the_chunk(ws) -> None:
    """The heading is no sentence for display, but the sentence ranking (core.sentence_rank) still reads it: the
    chunk's last ranking unit ends with "Governing Law and Attornment" (dropping it from the ranking moved a
    dev clause out of the top 6, cuad-0127-es)."""
    from core.sentence_rank import ranking_units

    [ending] = [c for c in _chunks(ws) if _words(c.text).endswith("Governing Law and Attornment")]
    units = ranking_units(ending.text, ending.lang)
    assert _words(ending.text[slice(*units[-1])]).endswith("each party hereto. Governing Law and Attornment")
    assert units[:-1] == sentence_spans(ending.text, ending.lang)[:-1]


def test_governing_law_cell_shows_the_clause_not_the_heading_before_it(ws) -> None:
    settings = Settings().model_copy(update={"backend": "passages"})
    cols = {c.id: c for c in templates("en")["commercial"].columns}
    doc = ws.documents()[0]["doc_id"]
    cell = compute_cell(ws, doc, cols["governing_law"], settings, PassagesBackend(), "", lambda: False)
    assert cell.status == "answered"
    first = _words(cell.shown[0].text)
    assert "laws of the Province of British Columbia" in first
    # the answer's passage that ends at the heading is kept, after the clause (it may hold a clause of its own)
    assert not _words(cell.shown[0].text).endswith("Governing Law and Attornment")
    # no cell shows a span of headings alone
    nc = compute_cell(ws, doc, cols["non_compete"], settings, PassagesBackend(), "", lambda: False)
    assert not any(_words(p.text) == "PART 2 NON COMPETITION AND RIGHT OF FIRST REFUSAL Non-Competition by Western Copper"
                   for p in nc.shown)
