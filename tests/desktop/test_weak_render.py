"""Issue #20 in the answer view: weak passages of an abstention and the clause around a passage
(pure rendering over core models; the window-level test is in test_answer_flow.py)."""

from __future__ import annotations

from core.passages import PASSAGES_HEADER, WEAK_HEADER, WEAK_MESSAGE
from core.types import Abstention, Answer, Citation, Claim, ConsultedDoc, MatchKind, PassageContext, WeakPassage

CLAUSE = ("NEITHER PARTY SHALL BE LIABLE FOR CONSEQUENTIAL DAMAGES. "
          "IN NO EVENT SHALL EITHER PARTY'S TOTAL LIABILITY EXCEED THE FEES PAID.")
FIRST = CLAUSE[:CLAUSE.index(".") + 1]


def _context() -> PassageContext:
    return PassageContext(chunk_id="c.txt#p1-c0", text=CLAUSE, start=100, end=100 + len(CLAUSE), page=2,
                          highlights=[(0, len(FIRST))])


def _weak_answer() -> Answer:
    weak = WeakPassage(chunk_id="c.txt#p1-c0", doc_id="c.txt", path="/docs/c.txt", page=2, text=FIRST, start=100,
                       end=100 + len(FIRST), score=0.41, context=_context())
    return Answer(question="Is liability capped?", workspace="w", status="abstained", kind="passages",
                  abstention=Abstention(message=WEAK_MESSAGE, query="Is liability capped?",
                                        consulted=[ConsultedDoc(doc_id="c.txt", path="/docs/c.txt", pages=[2])],
                                        candidates=[weak]))


def test_weak_passages_are_shown_marked_with_their_clause_and_open_their_page(qapp) -> None:
    from desktop.render import Entry, entry_html, entry_markdown

    entry = Entry(answer=_weak_answer())
    html = entry_html(0, entry)
    assert WEAK_HEADER in html and WEAK_MESSAGE in html and "[weak]" in html
    assert "IN NO EVENT SHALL" in html  # the next sentence, the one that decides, is shown
    assert "href='cite:0:1'" in html  # clickable to its page
    assert PASSAGES_HEADER not in html  # not presented as an answer
    [cit] = entry.citations()  # the viewer's input only: the answer has no citation
    assert entry.answer.claims == [] and cit.quote == FIRST and cit.page == 2 and cit.match == MatchKind.exact
    md = entry_markdown(entry)
    assert WEAK_HEADER in md and f"**{FIRST}**" in md and "IN NO EVENT" in md


def test_a_passage_is_shown_in_its_clause_with_its_sentence_highlighted(qapp) -> None:
    from desktop.render import Entry, entry_html

    cit = Citation(chunk_id="c.txt#p1-c0", doc_id="c.txt", path="/docs/c.txt", page=2, quote=FIRST,
                   match=MatchKind.exact, score=100, start=100, end=100 + len(FIRST))
    answer = Answer(question="q", workspace="w", status="answered", kind="passages",
                    claims=[Claim(text=FIRST, citations=[cit], passage_score=0.8, context=_context())])
    html = entry_html(0, Entry(answer=answer))
    assert PASSAGES_HEADER in html and "IN NO EVENT SHALL" in html
    assert f"<b>{FIRST}</b>" in html.replace("&#x27;", "'")  # the scored sentence highlighted
