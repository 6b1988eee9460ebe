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
    from desktop.render import Entry, entry_html
    from desktop.render_markdown import entry_markdown

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


# --- an answered result's passages under its threshold (issue #20, tryout 2) ----------------------------

OTHER = "This Agreement shall be governed by the laws of the State of California."


def _answered_with_a_weaker_passage() -> Answer:
    """An answered passages result (threshold 0.5): the clause above scores 0.95, a governing-law sentence
    of another clause 0.20 — shown because it came next, under the answer's threshold."""
    from core.types import Trace

    def cit(text: str, start: int) -> Citation:
        return Citation(chunk_id="c.txt#p1-c0", doc_id="c.txt", path="/docs/c.txt", page=2, quote=text,
                        match=MatchKind.exact, score=100, start=start, end=start + len(text))

    other = PassageContext(chunk_id="c.txt#p1-c0", text=OTHER, start=900, end=900 + len(OTHER), page=2,
                           highlights=[(0, len(OTHER))])
    trace = Trace(passage_threshold=0.5, passage_best_score=0.95)
    return Answer(question="Is liability capped?", workspace="w", status="answered", kind="passages", trace=trace,
                  claims=[Claim(text=FIRST, citations=[cit(FIRST, 100)], passage_score=0.95, context=_context()),
                          Claim(text=OTHER, citations=[cit(OTHER, 900)], passage_score=0.2, context=other)])


def test_a_passage_under_the_answer_threshold_is_shown_as_weaker_not_as_a_match(qapp) -> None:
    """Window and Markdown: the 0.95 passage in the matching look (yellow chip); the 0.20 one in its place,
    badge "[weaker]", grey chip and highlight, and the line saying what "weaker" means above the passages."""
    from core.passage_decision import BELOW_NOTE
    from desktop.render import CHIP_STYLE, WEAK_CHIP_STYLE, Entry, entry_html
    from desktop.render_markdown import entry_markdown

    entry = Entry(answer=_answered_with_a_weaker_passage())
    html = entry_html(0, entry).replace("&#x27;", "'")
    assert html.index(PASSAGES_HEADER) < html.index(BELOW_NOTE) < html.index("IN NO EVENT SHALL") \
        < html.index("[weaker]") < html.index("State of California")
    assert html.count("[weaker]") == 1
    assert f"href='cite:0:1' style='{CHIP_STYLE}'" in html  # the match: yellow chip
    assert f"href='cite:0:2' style='{WEAK_CHIP_STYLE}'" in html  # the weaker one: grey chip
    md = entry_markdown(entry)
    assert BELOW_NOTE in md and "> [weaker] “**This Agreement shall be governed" in md
    assert "> [weaker] “**NEITHER PARTY" not in md


def test_without_a_passage_under_the_threshold_nothing_is_marked_weaker(qapp) -> None:
    from core.passage_decision import BELOW_NOTE
    from desktop.render import Entry, entry_html

    answer = _answered_with_a_weaker_passage()
    answer.trace.passage_threshold = 0.1
    html = entry_html(0, Entry(answer=answer))
    assert BELOW_NOTE not in html and "[weaker]" not in html and "State of California" in html


def test_the_cli_marks_a_passage_under_the_threshold_weaker_in_its_place() -> None:
    from core.cli_format import format_answer
    from core.passage_decision import BELOW_NOTE

    text = format_answer(_answered_with_a_weaker_passage())
    assert text.index(BELOW_NOTE) < text.index("\n[1] \u201c") < text.index("\n(weaker) [2] \u201c")
    assert "(score 0.20)" in text and "(weaker) [1]" not in text


def test_the_weaker_mark_is_translated_into_spanish(qapp) -> None:
    """The new strings are in the catalogue: Spanish from resources/translations/verbatim_es.qm."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    from core.passage_decision import BELOW_NOTE
    from core.paths import resource_path

    translator = QTranslator()
    assert translator.load(str(resource_path("translations", "verbatim_es.qm")))
    QCoreApplication.installTranslator(translator)
    try:
        assert QCoreApplication.translate("Render", BELOW_NOTE).startswith("Los pasajes marcados")
        assert QCoreApplication.translate("Render", "weaker") == "más débil"
    finally:
        QCoreApplication.removeTranslator(translator)
