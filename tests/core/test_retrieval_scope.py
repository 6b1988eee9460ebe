"""Document-aware retrieval on a real index: scope from the question, explicit scope, clause
wording, duplicates, and the document profiles kept in step with the manifest."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from core.pipeline import answer_question, index_folders, run
from core.retrieval import retrieve
from core.settings import Settings
from core.store import Workspace
from core.types import Trace
from tests.conftest import CORPORA, ScriptedBackend, data_home, whole_words

TXT = CORPORA / "cuad" / "txt"
ALCO = "ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt"
RGC = "RgcResourcesInc_20151216_8-K_EX-10.3_9372751_EX-10.3_Franchise Agreement.txt"
CANO = "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt"
VEON = "VEONEER,INC_02_21_2020-EX-10.11-JOINT VENTURE AGREEMENT.txt"
CASES = {json.loads(line)["case_id"]: json.loads(line)
         for line in (CORPORA / "cuad" / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """Four real contracts, and a copy of one of them under another name (a duplicate)."""
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("docs") / "contracts"
    folder.mkdir()
    for name in (ALCO, RGC, CANO, VEON):
        shutil.copy(TXT / name, folder / name)
    shutil.copy(TXT / RGC, folder / "franchise (copy).txt")
    with data_home(home):
        ws = Workspace("contracts", Settings())
        run(index_folders(ws, [folder]))
        yield ws, folder, home


def _doc(name: str) -> str:
    return f"contracts/{name}"


def test_a_question_naming_its_contract_is_searched_inside_it(indexed) -> None:
    ws, _, _ = indexed
    case = CASES["cuad-0001"]  # termination for convenience in the GE / Duckwall-Alco agency agreement
    trace = Trace()
    ranked = retrieve(ws, case["question"], Settings(), trace)
    assert trace.scope.method == "named" and trace.scope.doc_ids == [_doc(ALCO)]
    assert "Duckwall" not in trace.scope.query and "terminated for convenience" in trace.scope.query
    assert {s.chunk.doc_id for s in ranked} == {_doc(ALCO)}
    # more passages of the named contract than the workspace-wide default (issue #12)
    assert Settings().top_k < len(ranked) <= Settings().scoped_top_k
    assert "termination_for_convenience" in trace.clause_types
    top6 = " ".join(s.chunk.text for s in ranked[:6])
    assert "either party may terminate this Agreement at any time" in top6


def test_without_resolution_the_names_pull_in_the_cover_page(indexed) -> None:
    """The failure document-aware retrieval fixes: the party names dominate the query."""
    ws, _, _ = indexed
    case = CASES["cuad-0001"]
    plain = Settings(resolve_references=False, clause_expansion=False)
    trace = Trace()
    ranked = retrieve(ws, case["question"], plain, trace)
    assert trace.scope.method == "" and len(ranked) == plain.top_k
    assert "either party may terminate this Agreement at any time" not in " ".join(s.chunk.text for s in ranked[:1])


def test_inside_a_contract_its_own_defined_terms_do_not_outrank_the_clause(indexed) -> None:
    """A scope is searched with its own BM25 statistics: "Agent" and "Agreement" occur all over
    the agency agreement, so they no longer pull in its signature block (which repeats the party
    names) ahead of the termination section; with the workspace's statistics they did."""
    ws, _, _ = indexed
    top = ws.bm25_search("Agent terminate Agreement", 1, set(), {_doc(ALCO)})
    text = ws.get_chunks(top)[top[0]].text
    assert "Section 3.01 Termination" in text and "/s/" not in text


def test_an_explicit_scope_is_searched_even_when_the_question_names_another(indexed) -> None:
    ws, _, _ = indexed
    trace = Trace()
    ranked = retrieve(ws, CASES["cuad-0001"]["question"], Settings(), trace, scope=[_doc(CANO)])
    assert trace.scope.method == "explicit" and trace.scope.doc_ids == [_doc(CANO)]
    assert {s.chunk.doc_id for s in ranked} == {_doc(CANO)}
    assert trace.scope.titles and trace.scope.titles[0]


def test_an_explicit_scope_never_reaches_an_ineligible_document(indexed) -> None:
    ws, _, _ = indexed
    ws.set_status(_doc(CANO), "superseded")
    try:
        trace = Trace()
        assert retrieve(ws, "What is the governing law?", Settings(), trace, scope=[_doc(CANO)]) == []
        assert trace.scope.doc_ids == []
    finally:
        ws.set_status(_doc(CANO), "active")


def test_a_question_naming_no_document_searches_them_all(indexed) -> None:
    ws, _, _ = indexed
    trace = Trace()
    ranked = retrieve(ws, "Which law governs the agreement?", Settings(), trace)
    assert trace.scope.method == "" and trace.scope.doc_ids == []
    assert len(ranked) == Settings().top_k and len({s.chunk.doc_id for s in ranked}) > 1


def test_a_copy_takes_one_place_and_is_named(indexed) -> None:
    """Byte-identical copies: one place among the delivered chunks, the other file named as 'also in'."""
    ws, _, _ = indexed
    trace = Trace()
    ranked = retrieve(ws, "What franchise fee does the grantee pay to the town?", Settings(), trace)
    texts = [" ".join(s.chunk.text.split()) for s in ranked]
    assert len(texts) == len(set(texts))
    with_copies = [s for s in ranked if s.also_in]
    assert with_copies and all(len(s.also_in) == 1 for s in with_copies)
    pair = {with_copies[0].chunk.doc_id, with_copies[0].also_in[0]}
    assert pair == {_doc(RGC), _doc("franchise (copy).txt")}
    assert trace.duplicates[with_copies[0].chunk.chunk_id] == with_copies[0].also_in


def test_a_citation_of_a_duplicated_passage_lists_the_other_file(indexed) -> None:
    ws, folder, _ = indexed

    def reply(chunks: dict[str, str]) -> str:
        cid, text = next(iter(chunks.items()))
        quote = whole_words(text, 0, 80)
        return json.dumps({"answer_found": True, "complete_answer": True, "conflicting_evidence": False,
                           "missing": "", "claims": [{"text": "The fee is set out here.",
                                                      "citations": [{"chunk_id": cid, "quote": quote}]}]})

    answer = run(answer_question(ws, "What franchise fee does the grantee pay to the town?",
                                 backend=ScriptedBackend(reply)))
    cited = answer.claims[0].citations[0]
    if cited.chunk_id in answer.trace.duplicates:
        assert len(cited.also_in) == 1 and cited.also_in[0].endswith(".txt") and cited.also_in[0] != cited.path
    else:  # the first delivered chunk has no copy: the field stays empty
        assert cited.also_in == []
    assert any(answer.trace.duplicates.values())


def test_profiles_are_written_with_each_commit_and_follow_renames(indexed, tmp_path) -> None:
    ws, folder, home = indexed
    profiles, hashes = ws.doc_profiles()
    assert set(profiles) == {d["doc_id"] for d in ws.documents()}
    assert {"duckwall", "alco", "electric"} <= profiles[_doc(ALCO)].names
    assert hashes[_doc(RGC)] == hashes[_doc("franchise (copy).txt")] != hashes[_doc(ALCO)]
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        stored = {r[0] for r in db.execute("SELECT doc_id FROM doc_profiles")}
    assert stored == set(profiles)
    # a renamed file keeps its chunks; its profile follows it
    (folder / "franchise (copy).txt").rename(folder / "franchise-2.txt")
    with data_home(home):
        report = run(index_folders(ws, [folder]))
    assert report.renamed == 1
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        stored = {r[0] for r in db.execute("SELECT doc_id FROM doc_profiles")}
    assert _doc("franchise-2.txt") in stored and _doc("franchise (copy).txt") not in stored
    # a removed file takes its profile with it
    (folder / "franchise-2.txt").unlink()
    with data_home(home):
        run(index_folders(ws, [folder]))
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        stored = {r[0] for r in db.execute("SELECT doc_id FROM doc_profiles")}
    assert stored == {_doc(n) for n in (ALCO, RGC, CANO, VEON)}


def test_an_index_without_profiles_derives_them(indexed) -> None:
    """A workspace indexed before profiles existed: read from the chunks, same result, nothing written."""
    ws, _, _ = indexed
    before, _ = ws.doc_profiles()
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        saved = db.execute("SELECT doc_id, profile FROM doc_profiles").fetchall()
        db.execute("DELETE FROM doc_profiles")
        db.execute("UPDATE meta SET value = value || 'x' WHERE key = 'generation'")  # a new cache key
    try:
        after, _ = ws.doc_profiles()
        assert {d: p.names for d, p in after.items()} == {d: p.names for d, p in before.items()}
    finally:
        with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
            db.executemany("INSERT INTO doc_profiles VALUES (?, ?)", saved)
            db.execute("UPDATE meta SET value = substr(value, 1, length(value) - 1) WHERE key = 'generation'")


def test_a_follow_up_naming_another_contract_is_searched_in_it(indexed) -> None:
    """Issue #20: "And in the … deal?" after a question about another contract was searched in the
    previous contract, whose words the (fallback) rewrite carries."""
    ws, _, home = indexed
    history = [("Can the Cano Petroleum sponsorship agreement with Boyd be terminated early?", "")]
    with data_home(home):
        answer = run(answer_question(ws, "And in the Duckwall-Alco agency agreement with GE Capital?",
                                     Settings(backend="passages"), history=history))
    assert answer.trace.standalone_question != answer.question  # read as a follow-up, rewritten
    assert answer.trace.scope.doc_ids == [_doc(ALCO)]
    assert "Cano" not in answer.trace.scope.query and "terminated" in answer.trace.scope.query
    # a question about the collection is no follow-up and is searched everywhere
    with data_home(home):
        answer = run(answer_question(ws, "Which of these agreements are governed by Texas law?",
                                     Settings(backend="passages"), history=history))
    assert answer.trace.scope.doc_ids == [] and answer.trace.follow_up_cue == "asks about the documents as a whole"


def test_profiles_of_an_earlier_version_are_derived_again(indexed) -> None:
    """Profiles stored under an earlier definition of the naming words (no proper names, no
    version) are derived from the chunks again when read, nothing written; the text hash is kept."""
    ws, _, _ = indexed
    before, hashes = ws.doc_profiles()
    assert "purolator" not in before[_doc(ALCO)].names and "duckwall" in before[_doc(ALCO)].proper
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        saved = db.execute("SELECT doc_id, profile FROM doc_profiles").fetchall()
        old = [(d, json.dumps({"title": json.loads(p)["title"], "names": ["x"], "text_hash": json.loads(p)["text_hash"]}))
               for d, p in saved]
        db.execute("DELETE FROM doc_profiles")
        db.executemany("INSERT INTO doc_profiles VALUES (?, ?)", old)
        db.execute("UPDATE meta SET value = value || 'x' WHERE key = 'generation'")  # a new cache key
    try:
        after, hashes_after = ws.doc_profiles()
        assert {d: (p.names, p.proper) for d, p in after.items()} == {d: (p.names, p.proper) for d, p in before.items()}
        assert hashes_after == hashes
        with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
            assert sorted(db.execute("SELECT doc_id, profile FROM doc_profiles").fetchall()) == sorted(old)
    finally:
        with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
            db.execute("DELETE FROM doc_profiles")
            db.executemany("INSERT INTO doc_profiles VALUES (?, ?)", saved)
            db.execute("UPDATE meta SET value = substr(value, 1, length(value) - 1) WHERE key = 'generation'")
