"""A clause heading on its own line, or inline without a period, begins a new sentence unit and a new clause
(tryout 5 finding 6: in the Western Copper non-compete .txt, "Successors and Assigns 4.7 This Agreement will enure
… Governing Law and Attornment" was one highlight, so "4.8 … laws of the Province of British Columbia" was not;
another passage ran 4.8–4.11 as one run across four numbered clauses).

Real components: the CUAD Western Copper .txt indexed with the default settings (the chunker, the bundled embedding
model, the bm25s index on disk), :func:`core.sentences.sentence_spans`, :func:`core.clause_heads.clause_starts`,
:func:`core.passage_context.clause_bounds` and the whole passages answer; the King Pharmaceuticals .txt for clause
references ("Section 4.8 of this Agreement") that must not be split.
"""

from __future__ import annotations

import re

import pytest

from core.clause_heads import clause_starts
from core.passage_context import clause_bounds
from core.pipeline import run
from core.sentences import sentence_spans
from core.settings import Settings
from core.store import Workspace
from core.types import Chunk
from tests.conftest import CORPORA, indexed_copies

COPPER = CORPORA / "cuad" / "txt" / "WESTERN COPPER - NON-COMPETITION AGREEMENT.txt"
KING = CORPORA / "cuad" / "txt" / "KINGPHARMACEUTICALSINC_08_09_2006-EX-10.1-PROMOTION AGREEMENT.txt"
# a numbered clause of part 4 at a line start: "4.7 This Agreement …"
_CLAUSE_4 = re.compile(r"(?m)^4\.\d{1,2} [A-Z]")


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    with indexed_copies(tmp_path_factory, [COPPER], names=["copper.txt"]) as workspace:
        yield workspace


def _chunks(ws: Workspace) -> list[Chunk]:
    return sorted(ws.get_chunks(ws.manifest.chunk_ids()).values(), key=lambda c: (c.page, c.start))


def _words(text: str) -> str:
    return " ".join(text.split())


def test_no_sentence_holds_a_heading_or_clause_number_after_a_clause(ws) -> None:
    chunks = _chunks(ws)
    seen_governing = False
    for chunk in chunks:
        units = sentence_spans(chunk.text, chunk.lang)
        for s, e in units:
            unit = chunk.text[s:e]
            assert len(_CLAUSE_4.findall(unit)) <= 1, unit
            # before: "Successors and Assigns 4.7 This Agreement will enure … hereto. Governing Law and Attornment"
            assert not ("4.7 This Agreement" in unit and "Governing Law" in unit), unit
        if "4.8 This Agreement will be governed" in chunk.text:
            seen_governing = True
            k, (s, e) = next((k, u) for k, u in enumerate(units) if "4.8 This Agreement" in chunk.text[u[0]:u[1]])
            assert "British Columbia" in chunk.text[s:e] and "Severability" not in chunk.text[s:e]
            c0, c1 = clause_bounds(chunk, s, e, units)
            assert "Courts of British Columbia" in chunk.text[c0:c1] and "4.9" not in chunk.text[c0:c1]
            opens = clause_starts(chunk.text, units)
            # every titled clause after it opens its own clause (before: none did, "Severability\n\n4.9 …" paired)
            for u, flag in zip(units[k + 1:], opens[k + 1:]):
                if _CLAUSE_4.search(chunk.text[u[0]:u[1]]):
                    assert flag, chunk.text[u[0]:u[1]]
    assert seen_governing


def test_a_heading_running_inline_into_its_clause_opens_it(ws) -> None:
    """The same clauses with every line break gone ("… each party hereto. Governing Law and Attornment 4.8 This
    Agreement …"), as text extracted without its layout reads."""
    text = _words(COPPER.read_text(encoding="utf-8"))
    text = text[text.index("Further Assurances 4.6"):text.index("I62W.3")]
    units = sentence_spans(text)
    starts = [text[s:e][:40] for s, e in units]
    opens = dict(zip(starts, clause_starts(text, units)))
    for head in ("Successors and Assigns 4.7 This", "Governing Law and Attornment 4.8 This", "Severability 4.9 The"):
        [start] = [s for s in starts if s.startswith(head)]
        assert opens[start], head


def test_clause_references_are_not_split() -> None:
    """"Section 4.8 of this Agreement", "Sections 9.1(j) and (k)", "under Section\\n4.6 (to the extent …" are
    references inside a sentence: no unit begins right after a clause word (checked on a real CUAD contract that
    holds hundreds of them)."""
    text = KING.read_text(encoding="utf-8")
    refs = len(re.findall(r"(?i)\bsections?\s+\d", text))
    assert refs > 100
    units = sentence_spans(text)
    for (_, e0), (s1, e1) in zip(units, units[1:]):
        before = text[max(0, e0 - 30):e0]
        assert not re.search(r"(?i)\b(?:sections?|articles?)\s*$", before), (before, text[s1:e1][:60])


def test_the_governing_law_answer_highlights_british_columbia(ws) -> None:
    """The whole passages answer: a shown passage holds the decisive "laws of the Province of British Columbia",
    and no passage or clause shown runs across two numbered clauses of part 4."""
    from core.passages import PassagesBackend
    from core.pipeline import answer_question

    answer = run(answer_question(ws, "What is the governing law of the Western Copper non-compete?", Settings(),
                                 backend=PassagesBackend()))
    shown = answer.claims or (answer.abstention.candidates if answer.abstention else [])
    assert any("laws of the Province of British Columbia" in _words(c.text) for c in shown)
    for c in shown:
        assert len(_CLAUSE_4.findall(c.text)) <= 1, c.text
        if c.context is not None:
            assert len(_CLAUSE_4.findall(c.context.text)) <= 1, c.context.text
