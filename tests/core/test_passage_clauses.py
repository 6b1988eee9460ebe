"""A passage, and the clause shown around it, never joins the end of one numbered or titled clause to the start of
the next (issue #20, tryout 3 finding 5: Holiday RV "10. Governing Law … of conflicts of laws. 11. No Assignment.
Neither …" was one highlight, the assignment answer only the tail of the governing-law passage; B43
"TERCERA. Honorarios … CUARTA. Confidencialidad" cited "pp. 3–4" though the fee is on p. 3 only).

Real components: the CUAD PDF and the B43 case indexed with the default settings (PyMuPDF, the chunker, the
bundled embedding model), :func:`core.passages.score_spans` and :func:`core.passage_context.clause_bounds`.
"""

from __future__ import annotations

import shutil

import pytest

from core.clause_heads import clause_starts, split_crossing
from core.passage_context import clause_bounds
from core.passages import score_spans
from core.pipeline import index_folders, run
from core.sentences import sentence_spans
from core.settings import Settings
from core.store import Workspace
from core.types import Chunk
from tests.conftest import CASES, CORPORA, data_home

HOLIDAY = CORPORA / "cuad" / "pdf" / "HOLIDAYRVSUPERSTORESINC_04_15_2002-EX-10.13-ENDORSEMENT AGREEMENT.PDF"
B43 = CASES / "B43_printed_page_numbers.pdf"
COPPER = CORPORA / "cuad" / "pdf" / "WESTERN COPPER - NON-COMPETITION AGREEMENT.PDF"


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    folder = tmp_path_factory.mktemp("docs") / "matter"
    folder.mkdir()
    shutil.copy(HOLIDAY, folder / "holiday.pdf")
    shutil.copy(B43, folder / "b43.pdf")
    shutil.copy(COPPER, folder / "copper.pdf")
    with data_home(tmp_path_factory.mktemp("home")):
        workspace = Workspace("matter", Settings())
        run(index_folders(workspace, [folder]))
        yield workspace


def _chunks(ws: Workspace, doc: str) -> list[Chunk]:
    chunks = ws.get_chunks(ws.manifest.chunk_ids())
    return [c for c in chunks.values() if c.doc_id.endswith(doc)]


def _words(text: str) -> str:
    return " ".join(text.split())


def test_no_candidate_span_runs_from_governing_law_into_no_assignment(ws) -> None:
    [chunk] = [c for c in _chunks(ws, "holiday.pdf") if "No\xa0Assignment" in c.text or "No Assignment" in c.text]
    spans = score_spans("Can either party assign the agreement to someone else?", [chunk], ws,
                        candidates_per_chunk=None)
    texts = [_words(s.text) for s in spans]
    assert any(t.startswith("11. No Assignment. Neither this Agreement") for t in texts)
    # each span sits in one clause: none holds two clause headings (before: "10. Governing Law … 11. No Assignment")
    for t in texts:
        assert not ("Governing Law" in t and "No Assignment" in t), t
        assert not ("No Assignment" in t and "12. Counterparts" in t), t
    # asked for (the passages answer's decision evidence, calibrated with them), crossing pairs come flagged
    evidence = score_spans("Can either party assign the agreement to someone else?", [chunk], ws,
                           candidates_per_chunk=None, crossing=True)
    crossing = [s for s in evidence if s.crosses]
    assert crossing and all(not s.crosses for s in spans)
    [pair] = [s for s in crossing if "Governing Law" in _words(s.text) and "No Assignment" in _words(s.text)]
    # chosen for the answer, such a pair is shown as its two sentences, each its own passage
    shown = split_crossing([pair], evidence)
    assert [_words(s.text)[:20] for s in shown] == ["10. Governing Law. T", "11. No Assignment. N"]
    assert all(not s.crosses for s in shown) and shown[0].end < shown[1].start
    best = max(spans, key=lambda s: s.score)
    assert _words(best.text).startswith("11. No Assignment.")
    # the clause shown around the assignment sentence is clause 11 alone
    sentences = sentence_spans(chunk.text, chunk.lang)
    s, e = next(u for u in sentences if _words(chunk.text[u[0]:u[1]]).startswith("11. No Assignment"))
    c0, c1 = clause_bounds(chunk, s, e, sentences)
    shown = _words(chunk.text[c0:c1])
    assert shown.startswith("11. No Assignment.") and shown.endswith("the prior written consent of the other Party.")


def test_the_fee_clause_is_shown_on_its_own_page_without_the_next_clause(ws) -> None:
    chunks = _chunks(ws, "b43.pdf")
    [chunk] = [c for c in chunks if "Honorarios" in c.text]
    sentences = sentence_spans(chunk.text, chunk.lang)
    s, e = next(u for u in sentences if "3.250 euros" in chunk.text[u[0]:u[1]])
    assert "CUARTA" not in chunk.text[s:e]
    c0, c1 = clause_bounds(chunk, s, e, sentences)
    assert "CUARTA" not in chunk.text[c0:c1] and "3.250 euros" in chunk.text[c0:c1]
    assert {p.page for p in chunk.page_spans(c0, c1)} == {4}  # p. 3 printed, the PDF's 4th page
    spans = score_spans("¿Cuánto cobra el consultor de honorarios?", chunks, ws, candidates_per_chunk=None)
    assert not any("Honorarios" in sp.text and "CUARTA" in sp.text for sp in spans)


def test_a_cap_after_an_exclusion_and_list_items_under_a_lead_in_still_pair() -> None:
    cap = ("13. Limitation of Liability. Neither party shall be liable for any indirect or consequential damages "
           "arising out of this Agreement.\n\nIn no event shall either party's total liability exceed the fees paid "
           "in the twelve months before the claim.\n\n14. Notices. All notices shall be in writing and delivered.")
    assert clause_starts(cap, sentence_spans(cap)) == [True, False, True]
    sub = ("10.1 Neither party shall be liable for consequential damages of any kind. 10.2 In no event shall the "
           "total liability exceed the fees paid. 11.1 This Agreement is governed by the laws of New York.")
    assert clause_starts(sub, sentence_spans(sub)) == [False, False, True]
    # a chunk that starts inside clause 24: its sub-number continues it, clause 25 does not
    inside = ("including giving statements and meeting with legal advisers of the Company. 24.2 If the employment "
              "ends by reason of a reconstruction, the Executive shall have no claim.\n\n25. Notices. Notices shall be given in writing.")
    assert clause_starts(inside, sentence_spans(inside)) == [False, False, True]
    # a heading alone on its line opens its clause and stays with its first sub-clause (Bicycle's "15 INTELLECTUAL
    # PROPERTY" before "15.1 …")
    bare = ("14.3 The Employee shall return all property of the Company on termination.\n\n15 INTELLECTUAL PROPERTY"
            "\n\n15.1 For the purpose of this paragraph IPRs means all rights.\n\n15.2 You shall disclose all "
            "Inventions to the Company promptly.")
    assert clause_starts(bare, sentence_spans(bare)) == [False, True, False]
    items = ("The Supplier shall:\n1. Deliver the goods on time and in full.\n"
             "2. Replace any defective goods within ten days of notice.")
    assert clause_starts(items, sentence_spans(items)) == [False, False]
    es = ("TERCERA. Honorarios\n\nLa Empresa abonará al Consultor unos honorarios mensuales de 3.250 euros.\n\n"
          "CUARTA. Confidencialidad\n\nEl Consultor guardará secreto sobre la información de la Empresa.")
    assert clause_starts(es, sentence_spans(es, "es")) == [True, True]
    chunk = Chunk(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, start=0, end=len(cap), text=cap, lang="en")
    sentences = sentence_spans(cap)
    c0, c1 = clause_bounds(chunk, *sentences[0], sentences)
    assert cap[c0:c1].startswith("13. Limitation") and cap[c0:c1].endswith("before the claim.")


def test_the_cli_marks_highlights_with_brackets_the_clause_does_not_hold(ws) -> None:
    """Western Copper's OCR'd text holds "1I629«7J": with » « as the marks, the CLI's clause read as if a highlight
    ended there (tryout 3). The marks are now a pair of brackets that no printed clause holds."""
    from core.cli_format import format_answer
    from core.passage_context import clause_context, highlight_marks
    from core.types import Answer, Citation, Claim, Trace

    [chunk] = [c for c in _chunks(ws, "copper.pdf") if "«" in c.text]
    sentences = sentence_spans(chunk.text, chunk.lang)
    s, e = next(u for u in sentences if "«" in chunk.text[u[0]:u[1]])
    context = clause_context(chunk, [(s, e)], sentences)
    assert "«" in context.text and highlight_marks([context.text]) == ("⟦", "⟧")
    assert highlight_marks([context.text, "a ⟦bracket⟧"]) == ("⟪", "⟫")
    quote = chunk.text[s:e]
    cit = Citation(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, path=chunk.path, page=chunk.page, quote=quote,
                   match="exact", score=100, start=0, end=len(quote))
    answer = Answer(question="q", workspace="matter", status="answered", kind="passages",
                    claims=[Claim(text=quote, citations=[cit], context=context, passage_score=0.9)],
                    trace=Trace(backend="passages", model="m", passage_threshold=0.5))
    text = format_answer(answer)
    assert "(⟦ ⟧ mark the sentences that match" in text
    [line] = [ln for ln in text.splitlines() if ln.startswith("[1]")]
    assert line.count("⟦") == 1 and line.count("⟧") == 1 and "«" in line and "»" not in line
    assert _words(line[line.index("⟦") + 1:line.index("⟧")]) == _words(quote)


def test_the_passages_answer_shows_no_passage_across_two_clauses(ws) -> None:
    """The whole passages answer (retrieval, scoring, selection, verification, clauses): no passage and no clause
    shown runs from one numbered clause into the next. Before, both answers showed one: Holiday RV "10. Governing
    Law … 11. No Assignment …" (tryout 3 Q8), B43 "SEGUNDA. Duración … TERCERA. Honorarios …"."""
    from core.passages import PassagesBackend
    from core.pipeline import answer_question

    for question, wanted in [("Can Holiday RV assign the endorsement agreement without consent?",
                              "No Assignment. Neither this Agreement"),
                             ("¿Cuáles son los honorarios del consultor?", "3.250 euros")]:
        answer = run(answer_question(ws, question, Settings(), backend=PassagesBackend()))
        shown = answer.claims or (answer.abstention.candidates if answer.abstention else [])
        texts = [_words(c.text) for c in shown] + [_words(c.context.text) for c in shown if c.context]
        assert any(wanted in t for t in texts), question
        for t in texts:
            assert not ("Governing Law" in t and "No Assignment" in t), t
            assert sum(w in t for w in ("SEGUNDA.", "TERCERA.", "CUARTA.")) <= 1, t
