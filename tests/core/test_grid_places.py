"""The grid's own "not found" (core/grid_places.py, core/grid_decision.py): whether a retrieved span reads like
the asked clause type rather than its neighbours, on real text contracts, the real embedding model, bm25s
and LanceDB and the passages answer (no model)."""

from __future__ import annotations

import pytest

from core.grid import GridColumn, cell_from_answer, run_grid, templates
from core.grid_export import status_text
from core.grid_decision import FORM_THRESHOLD, form_margin, present_log_odds
from core.grid_places import clause_form_margin, heading_of, place_candidates
from core.passages import PassagesBackend
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.types import Abstention, Answer, Citation, Claim, Trace
from tests.conftest import data_home

# Written for these tests (not from an evaluation set): a sponsorship agreement whose "Government
# Regulation" section repeats the words "laws" and "state" of a governing-law question, beside the
# governing-law clause itself; and a franchise whose term is a numbered heading "2. TERM".
SPONSOR = """SPONSORSHIP AGREEMENT

This Sponsorship Agreement is made between Lakeside Media LLC (the "Company") and Redrock Oil, Inc. ("Sponsor").

1. Sponsorship. Sponsor shall sponsor the weekly outdoor television show produced by the Company.

2. Logo. The Company shall display the Sponsor's logo during each episode of the show.

3. Fees. Sponsor shall pay the Company five thousand dollars for each episode, within thirty days of the invoice.

4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of Texas.

5. Government Regulation. This Agreement is subject to all applicable federal, state and local laws, rules and regulations, and each party shall comply with them.

6. Notices. Notices shall be given in writing to the addresses stated above.
"""

FRANCHISE = """GAS FRANCHISE AGREEMENT

This Franchise Agreement is made between the Town of Millbrook ("Grantor") and Valley Gas Company ("Grantee").

1. GRANT. Grantor grants to Grantee a non-exclusive franchise to build and operate a gas distribution system in the streets of the Town.

2. TERM. This franchise shall remain in effect for a term of twenty (20) years from the Effective Date.

3. FRANCHISE FEE. Grantee shall pay to Grantor a franchise fee equal to three percent of its gross receipts in the Town, each quarter.

4. NONDISCRIMINATION. Grantee shall not discriminate against any person in the provision of its services.

5. NOTICE. All notices under this Agreement shall be in writing and delivered to the Town Clerk.
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("places")
    folder = root / "contracts"
    folder.mkdir()
    (folder / "sponsorship.txt").write_text(SPONSOR, encoding="utf-8")
    (folder / "franchise.txt").write_text(FRANCHISE, encoding="utf-8")
    # a module fixture runs before the per-test data folder (conftest verbatim_home): without its own, the
    # workspace went to the user's data folder and kept the documents of every earlier run
    with data_home(root / "home"):
        ws = Workspace("places", Settings())
        run(index_folders(ws, [folder]))
        docs = {d["doc_id"].rsplit("/", 1)[-1]: d["doc_id"] for d in ws.documents()}
        yield ws, docs


def test_headings_of_numbered_and_line_sections() -> None:
    text = "11. Governing Law. This Agreement shall be governed by the laws of Texas."
    assert heading_of(text, text.index("This")) == "Governing Law"
    text = "ARTICLE 7\nTERMINATION\n\n7.1 Either party may terminate this Agreement on notice."
    assert heading_of(text, text.index("Either")) == "TERMINATION"
    assert heading_of("Section 4.2 Assignment. Neither party may assign.", 30) == "Assignment"
    assert heading_of("Cláusula 3ª. Duración. El contrato durará dos años.", 25) == "Duración"
    # no heading: a plain sentence, a lettered item that is a sentence, a first paragraph with nothing above
    assert heading_of("The parties agree. This is binding.", 20) == ""
    assert heading_of("(a) the Company shall pay the fee.", 20) == ""


def test_the_governing_law_clause_reads_like_its_type_and_the_regulation_clause_does_not(workspace) -> None:
    ws, docs = workspace
    answer = run(answer_question(ws, "Which law governs the agreement?", ws.settings, backend=PassagesBackend(),
                                 follow_up=False, scope=[docs["sponsorship.txt"]]))
    assert "governing_law" in answer.trace.clause_types
    cands = place_candidates(answer, ws, ws.settings)
    assert cands and all(ws.get_chunks([c.shown.chunk_id])[c.shown.chunk_id].doc_id == docs["sponsorship.txt"]
                         for c in cands)
    law = max((c for c in cands if "State of Texas" in c.shown.text), key=lambda c: c.features["form_margin"])
    reg = max((c for c in cands if "applicable federal" in c.shown.text and "Texas" not in c.shown.text),
              key=lambda c: c.features["form_margin"])
    # the governing-law sentence reads like governing-law wording, more than any other type's and more than
    # the regulation sentence that shares its words does ...
    print(law.features, reg.features)
    assert law.features["form_margin"] > reg.features["form_margin"] + 0.05 and law.features["form_margin"] > 0.1
    assert law.features["head"] > reg.features["head"]  # "Governing Law" names the type; "Government Regulation" less
    # ... and the cell's evidence is the best span's margin, the grid's fast path giving the same value
    assert form_margin(cands) == pytest.approx(max(c.features["form_margin"] for c in cands))
    assert clause_form_margin(answer, ws) == pytest.approx(form_margin(cands), abs=1e-4)
    for c in cands:  # every candidate is source text of its chunk, in its clause
        chunk = ws.get_chunks([c.shown.chunk_id])[c.shown.chunk_id]
        assert chunk.text[c.shown.start:c.shown.end] == c.shown.text and c.shown.text in c.shown.context.text


def test_a_present_term_is_shown_and_an_absent_insurance_clause_is_not_found(workspace) -> None:
    """The franchise's "2. TERM … twenty (20) years" is shown (answered or weak), never "not found"; the
    franchise has no insurance clause: "not found", saying what was searched."""
    ws, docs = workspace
    cols = {c.id: c for c in templates("en")["commercial"].columns}
    cells = {c.column_id: c for c in run(run_grid(ws, [cols["term"], cols["insurance"]], grid="t",
                                                   doc_ids=[docs["franchise.txt"]], settings=ws.settings,
                                                   backend=PassagesBackend()))}
    term, ins = cells["term"], cells["insurance"]
    assert term.status in ("answered", "weak")
    assert any("twenty (20) years" in p.shown_text for p in term.shown)
    assert term.evidence["log_odds"] >= FORM_THRESHOLD
    assert ins.status == "not_found" and ins.shown == []
    assert ins.evidence["log_odds"] < FORM_THRESHOLD
    assert ins.searched_clauses == ["insurance"] and ins.searched_passages >= 1
    assert status_text(ins) == ("not found in this document (searched: the wording of insurance clauses and the "
                                f"question; {ins.searched_passages} passages)")
    assert status_text(term) in ("answered", "weak (closest passage, not an answer)")


def _passages_answer(status: str, best: float) -> Answer:
    cit = Citation(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, quote="Notices shall be in writing.",
                   match="exact", score=100.0, start=0, end=28)
    claims = [Claim(text=cit.quote, citations=[cit], passage_score=best)] if status == "answered" else []
    abst = None if claims else Abstention(message="m", query="q", consulted=[])
    return Answer(question="Which law governs?", workspace="w", status=status, kind="passages", claims=claims,
                  abstention=abst, trace=Trace(passage_best_score=best, passage_threshold=0.7,
                                               clause_types=["governing_law"], context=["d#p1-c0"]))


def test_the_grid_decides_answered_passages_cells_too() -> None:
    """A passages answer over its threshold is still 'not found' in the grid when no retrieved span reads like
    the clause type (the grid knows the type; a chat question does not); with such a span it stays answered,
    and an abstained one is weak. Without the clause's evidence the older rules decide (answered stays)."""
    col = GridColumn(id="law", question="Which law governs?", clause="governing_law")
    answered = _passages_answer("answered", 0.8)
    low, high = -0.2, 0.1  # form margins: every span reads more like another type / one reads like this type
    assert present_log_odds(low, 0.8 / 0.7) < FORM_THRESHOLD <= present_log_odds(high, 0.8 / 0.7)
    nf = cell_from_answer("d", col, answered, place_scores=[0.8], clause_form_margin=low)
    assert nf.status == "not_found" and nf.shown == [] and nf.text == ""
    assert nf.searched_clauses == ["governing_law"] and nf.searched_passages == 1
    assert nf.evidence["log_odds"] == pytest.approx(present_log_odds(low, 0.8 / 0.7), abs=1e-3)
    ok = cell_from_answer("d", col, answered, place_scores=[0.8], clause_form_margin=high)
    assert ok.status == "answered" and ok.text == "Notices shall be in writing."
    weak = cell_from_answer("d", col, _passages_answer("abstained", 0.6), place_scores=[0.6],
                            clause_form_margin=high,
                            passages=[ok.passages[0]])
    assert weak.status == "weak" and weak.text == ok.passages[0].text
    assert cell_from_answer("d", col, answered, place_scores=[0.8]).status == "answered"
