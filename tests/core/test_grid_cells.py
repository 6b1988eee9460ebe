"""What a grid cell shows and asks (core/grid_cells.py, core/grid.py): a clause-type cell's place in a chunk is found
among all its sentences, not only those sharing the question's words; one clause delivered by two overlapping chunks
is one place; a column's own clause type, not the types its question's words name, is what the cell looks for.
Real text contracts, the real chunker, embedding model, bm25s and LanceDB index, the passages answer."""

from __future__ import annotations

import pytest

from core.grid import GridColumn, closeness, run_grid
from core.grid_cells import ShownPassage, _overlaps, place_passages
from core.grid_decision import FORM_THRESHOLD, present_log_odds
from core.grid_places import clause_form_margin
from core.passages import PassagesBackend
from core.passage_context import clause_context
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace

# Written for these tests (not from an evaluation set). One section whose other sentences repeat "date" and
# "contract" (the words of an expiration question), beside the term clause, which shares none of them.
TERMS = """SERVICES AGREEMENT

This Services Agreement is made between Boyd Services LLC ("Boyd") and Cano Petroleum, Inc. ("Cano").

5. Miscellaneous. The date of each invoice under this contract is the date of its delivery. Each party shall keep a signed copy of this contract at its offices from the date of signature. This contract may be signed in counterparts, each dated on the date of its signature. Any notice under this contract shall state its date and the contract it concerns. The term of this Agreement shall be one (1) year, commencing January 1, 2008 and ending on December 31, 2008. Amendments to this contract take effect on the date both parties sign the contract.
"""

# One long section with no blank lines, so the chunker continues it with an overlap (the last sentences of a
# chunk repeated at the start of the next).
LONG = "SUPPLY AGREEMENT\n\n1. Supply. " + " ".join(
    f"Clause {n}: the Supplier shall deliver lot {n} of the Products to the Buyer's warehouse number {n} within "
    f"{n + 5} days of the Buyer's written order for lot {n}, packed as the specification of lot {n} requires."
    for n in range(1, 40)) + "\n"

# Two NDAs alike but for a survival clause; the column asks how long the confidentiality obligations last
# (clause type nda_survival), in words that name "confidentiality".
NDA_HEAD = """MUTUAL NON-DISCLOSURE AGREEMENT

This Mutual Non-Disclosure Agreement is made between Orchard Analytics Ltd and Pinewood Robotics Inc.

1. Confidential Information. "Confidential Information" means any business, technical or financial information disclosed by one party to the other, marked as confidential.

2. Obligations. The Recipient shall hold the Confidential Information in strict confidence, use it only to evaluate the proposed collaboration and not disclose it to any third party.

3. Return. On request, the Recipient shall return or destroy all Confidential Information in its possession.
"""
NDA_SURVIVAL = NDA_HEAD + """
4. Survival. The obligations of confidentiality under this Agreement shall survive for three (3) years after the termination or expiration of this Agreement.

5. Governing Law. This Agreement is governed by the laws of the State of New York.
"""
NDA_PLAIN = NDA_HEAD + """
4. Notices. Notices under this Agreement shall be given in writing to the addresses stated above.

5. Governing Law. This Agreement is governed by the laws of the State of New York.
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    import os

    home = tmp_path_factory.mktemp("home")
    old = os.environ.get("VERBATIM_HOME")
    os.environ["VERBATIM_HOME"] = str(home)
    folder = tmp_path_factory.mktemp("contracts")
    (folder / "terms_services.txt").write_text(TERMS, encoding="utf-8")
    (folder / "long_supply.txt").write_text(LONG, encoding="utf-8")
    (folder / "nda_survival.txt").write_text(NDA_SURVIVAL, encoding="utf-8")
    (folder / "nda_plain.txt").write_text(NDA_PLAIN, encoding="utf-8")
    w = Workspace("cells", Settings())
    run(index_folders(w, [folder]))
    yield w
    if old is None:
        os.environ.pop("VERBATIM_HOME", None)
    else:
        os.environ["VERBATIM_HOME"] = old


def _doc_chunks(w, name: str):
    doc = next(d["doc_id"] for d in w.documents() if d["doc_id"].endswith(name))
    ids = [i for i in w.stored_chunk_ids()["manifest"] if i.split("#", 1)[0] == doc]
    chunks = w.get_chunks(ids)
    return sorted(chunks.values(), key=lambda c: (c.page, c.start))


def test_a_clause_type_cell_finds_its_clause_among_every_sentence_of_a_chunk(ws) -> None:
    """The term clause shares no word with "What is the expiration date of this contract?"; four other sentences
    of its chunk share two: the free question's place (the four sentences sharing most terms) misses it, the
    clause-type cell's place (every sentence, with the type's contract wording) is it."""
    question = "What is the expiration date of this contract?"
    chunks = [c for c in _doc_chunks(ws, "terms_services.txt") if "one (1) year" in c.text]
    assert len(chunks) == 1
    free = place_passages(question, chunks, ws, ws.settings)
    typed = place_passages(question, chunks, ws, ws.settings, clause_types=["expiration_date"])
    assert len(free) == len(typed) == 1
    assert "one (1) year" not in free[0].text  # the term preselection leaves the clause out
    assert "The term of this Agreement shall be one (1) year" in typed[0].text
    chunk = chunks[0]
    assert chunk.text[typed[0].start:typed[0].end] == typed[0].text  # source text, its own offsets
    assert typed[0].context is not None and typed[0].text in typed[0].context.text


def test_one_clause_delivered_by_two_overlapping_chunks_is_one_place(ws) -> None:
    """Consecutive chunks of a long section repeat text (the chunker's overlap): the same clause shown from each,
    cut differently, is one place; clauses of chunks apart are two."""
    chunks = _doc_chunks(ws, "long_supply.txt")
    assert len(chunks) >= 3
    a, b = chunks[0], chunks[1]
    head = b.text[:60]
    assert head in a.text, "the second chunk starts with text repeated from the first (overlap)"
    # a sentence of the overlap, as a span of each chunk (its own offsets, so its own clause cut)
    s_b = b.text.index("Clause", 1) if b.text.startswith("Clause") else b.text.index("Clause")
    e_b = b.text.index("requires.", s_b) + len("requires.")
    sentence = b.text[s_b:e_b]
    s_a = a.text.index(sentence)

    def shown(chunk, s, e) -> ShownPassage:
        return ShownPassage(chunk_id=chunk.chunk_id, text=chunk.text[s:e], start=s, end=e, source="place",
                            context=clause_context(chunk, [(s, e)]))

    p_a = shown(a, s_a, s_a + len(sentence))
    # in b, the span is the sentence and the next one: a different span text of the same clause
    e_b2 = b.text.index("requires.", e_b) + len("requires.")
    p_b = shown(b, s_b, e_b2)
    assert p_a.text != p_b.text and p_a.chunk_id != p_b.chunk_id
    assert _overlaps(p_a, p_b) and _overlaps(p_b, p_a)
    far = chunks[-1]
    s_f = far.text.rindex("Clause")
    p_f = shown(far, s_f, far.text.index("requires.", s_f) + len("requires."))
    assert not _overlaps(p_a, p_f)


def test_a_column_looks_for_its_own_clause_type_not_the_types_its_words_name(ws) -> None:
    """"How long do the confidentiality obligations last?" names confidentiality; its column asks nda_survival.
    Read against the question's types, every NDA's confidentiality clause looks like the answer (the plain NDA
    would show one); read against the column's type, the NDA without a survival clause is "not found" and the
    other shows its survival clause."""
    docs = {d["doc_id"].rsplit("/", 1)[-1]: d["doc_id"] for d in ws.documents()}
    col = GridColumn(id="survival", question="How long do the confidentiality obligations last?", clause="nda_survival")
    cells = run(run_grid(ws, [col], grid="nda", doc_ids=[docs["nda_survival.txt"], docs["nda_plain.txt"]],
                         settings=ws.settings, backend=PassagesBackend()))
    by = {c.doc_id.rsplit("/", 1)[-1]: c for c in cells}
    for cell in cells:
        assert cell.searched_clauses[0] == "nda_survival"
        assert cell.evidence["form_margin"] == round(clause_form_margin(cell.answer, ws, ["nda_survival"]), 4)
    plain, surv = by["nda_plain.txt"], by["nda_survival.txt"]
    assert "nda_survival" != plain.answer.trace.clause_types[0]  # the question's words name another type first
    # what the question's own types would have decided for the plain NDA: present (the failure this fixes)
    assert present_log_odds(clause_form_margin(plain.answer, ws), closeness(plain.answer)) >= FORM_THRESHOLD
    assert plain.status == "not_found" and plain.shown == []
    assert surv.status in ("answered", "weak")
    assert "shall survive for three (3) years" in surv.shown[0].shown_text
