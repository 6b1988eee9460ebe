"""A list question that names nothing but a clause type ("Which of these agreements contain an arbitration
clause?"): a document is listed only with a passage that is that clause (core.collection.listed_passage;
issue #20 item 1). Tryout 2026-12-02: Canopetroleum was listed by "19. Other Agreements" and King by
"16.3 Entire Agreement" — neither an arbitration clause; of these contracts only Dynamex has one.

Real components: six CUAD contracts (tests/data/corpora/cuad/txt), the bundled embedding model, bm25s and
LanceDB on disk.
"""

from __future__ import annotations

import shutil

import pytest

from core.collection import ask
from core.collection_form import LIST_FORM_MARGIN, span_form_margins
from core.passages import PassagesBackend
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace
from tests.conftest import CORPORA, data_home

CANO = "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt"
KING = "KINGPHARMACEUTICALSINC_08_09_2006-EX-10.1-PROMOTION AGREEMENT.txt"  # mediation (JAMS), not arbitration
DYNAMEX = "DYNAMEXINC_06_06_1996-EX-10.4-TRANSPORTATION SERVICES AGREEMENT.txt"  # "39.0 ARBITRATION"
MJ = "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.txt"
FLOTEK = "FLOTEKINDUSTRIESINCCN_05_09_2019-EX-10.1-SUPPLY AGREEMENT.txt"
WESTERN = "WESTERN COPPER - NON-COMPETITION AGREEMENT.txt"
FILES = (CANO, KING, DYNAMEX, MJ, FLOTEK, WESTERN)


@pytest.fixture(scope="module")
def contracts(tmp_path_factory) -> Workspace:
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("docs") / "contracts"
    folder.mkdir()
    for name in FILES:
        shutil.copy(CORPORA / "cuad" / "txt" / name, folder / name)
    with data_home(home):
        workspace = Workspace("contracts", Settings())
        run(index_folders(workspace, [folder]))
    return workspace


def _ask(ws: Workspace, question: str):
    return run(ask(ws, question, Settings(backend="passages"), backend=PassagesBackend()))


def _listed(answer) -> dict[str, str]:
    return {f.doc_id.split("/")[-1]: answer.claims[f.claim].text for f in answer.documents if f.matches}


def test_a_clause_noun_is_not_the_subject() -> None:
    from core.collection import _subject

    assert "clause" not in _subject("Which of these agreements contain an arbitration clause?", []).lower()
    assert "arbitration" in _subject("Which of these agreements contain an arbitration clause?", [])
    assert "cláusula" not in _subject("¿Cuáles de estos contratos tienen una cláusula de no competencia?", [])


def _sentence(name: str, start: str, end: str) -> str:
    """The text of contract ``name`` from ``start`` to the first ``end`` after it (inclusive)."""
    text = (CORPORA / "cuad" / "txt" / name).read_text(encoding="utf-8")
    i = text.index(start)
    return text[i:text.index(end, i) + len(end)]


def test_a_passage_reads_like_its_clause_type_by_its_form_margin() -> None:
    arbitration = _sentence(DYNAMEX, "39.1", "in         this Article")
    other = _sentence(CANO, "19. Other Agreements.", "subject  matter.")
    entire = _sentence(KING, "16.3 Entire Agreement.", "subject matter hereof")
    m_arb, m_other, m_entire = span_form_margins([arbitration, other, entire], ["dispute_resolution"])
    assert m_arb >= LIST_FORM_MARGIN > max(m_other, m_entire)
    assert span_form_margins([arbitration], []) is None  # no clause type: nothing to compare with


def test_an_arbitration_list_leaves_out_the_contracts_listed_by_other_clauses(contracts: Workspace) -> None:
    answer = _ask(contracts, "Which of these agreements contain an arbitration clause?")
    assert len(answer.documents) == len(FILES)
    listed = _listed(answer)
    assert DYNAMEX in listed and "arbitrat" in listed[DYNAMEX].lower()
    assert CANO not in listed  # was listed by "19. Other Agreements"
    for doc, text in listed.items():  # each by a dispute clause that reads like one, never "Entire Agreement"
        assert "entire agreement" not in text.lower() and ("arbitrat" in text.lower() or "dispute" in text.lower()), doc
        assert span_form_margins([text], ["dispute_resolution"])[0] >= LIST_FORM_MARGIN, doc
    cano = next(f for f in answer.documents if f.doc_id.endswith(CANO))
    assert not cano.matches and cano.closest is not None  # searched, its closest passage shown as not an answer


def test_a_spanish_list_question_over_english_contracts(contracts: Workspace) -> None:
    answer = _ask(contracts, "¿Cuáles de estos contratos tienen una cláusula de no competencia?")
    listed = _listed(answer)
    assert MJ in listed and "competitive" in listed[MJ]  # "No Participant will engage in any business … competitive"
    assert CANO not in listed and FLOTEK not in listed and KING not in listed
    for doc, text in listed.items():
        assert span_form_margins([text], ["non_compete"])[0] >= LIST_FORM_MARGIN, doc


def test_a_shown_passage_is_located_in_its_chunk_by_its_text(contracts: Workspace) -> None:
    """Review of this change: a cell's first shown passage records the start and end of its clause, not of its
    span; listed by those offsets, the whole clause (1,105 characters) was sent to the verifier, which refused it,
    and a matching document (Theravance, "terminated for convenience") was left out of the list."""
    from core.collection import _located
    from core.pipeline import answer_question

    doc = next(d for d in contracts.eligible_doc_ids() if d.endswith(DYNAMEX))
    answer = run(answer_question(contracts, "Which disputes go to arbitration?", Settings(backend="passages"),
                                 backend=PassagesBackend(), follow_up=False, scope=[doc]))
    chunk = next(iter(contracts.get_chunks(answer.trace.context[:1]).values()))
    sentence = chunk.text[len(chunk.text) // 2:len(chunk.text) // 2 + 60]
    start = len(chunk.text) // 2
    first = chunk.text.find(sentence)
    assert _located(chunk, sentence, 0) == (chunk, first, first + 60)
    assert _located(chunk, sentence, start) == (chunk, start, start + 60)
    assert _located(chunk, sentence, len(chunk.text)) == (chunk, first, first + 60)  # not after: the first
    assert _located(chunk, "no such passage in this chunk at all", 0) is None
