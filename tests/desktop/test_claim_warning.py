"""A claim the polarity check could not decide is shown with a visible warning (issue #21), in English and Spanish."""

from __future__ import annotations

from core.types import Answer, Citation, Claim, ClaimWarning, MatchKind, WarningReason


def _answer() -> Answer:
    quote = "Neither Party shall disclose the terms of this Agreement to any third party"
    cit = Citation(chunk_id="d.pdf#p1-c0", doc_id="d.pdf", path="/x/d.pdf", page=1, quote=quote,
                   match=MatchKind.exact, score=100, start=0, end=len(quote))
    warned = Claim(text="The Parties must keep the terms confidential.", citations=[cit],
                   warning=ClaimWarning(reason=WarningReason.polarity_unsure, detail="'terms' is negated in the quotes"))
    plain = Claim(text="The terms are secret.", citations=[cit])
    return Answer(question="q", workspace="w", status="answered", claims=[warned, plain])


def test_warned_claim_shows_its_warning_in_the_answer_view_and_export(qapp):
    from PySide6.QtGui import QTextDocument

    from desktop.i18n import install_translator
    from desktop.render import Entry, entry_html
    from desktop.render_markdown import entry_markdown

    install_translator(qapp, "en")
    doc = QTextDocument()
    doc.setHtml(entry_html(0, Entry(answer=_answer())))
    lines = [line for line in doc.toPlainText().splitlines() if line.strip()]
    at = next(i for i, line in enumerate(lines) if line.startswith("The Parties must keep"))
    assert lines[at + 1] == "\u26a0 check the quote: the sentence may state the opposite of it"
    assert lines[at + 2].startswith("The terms are secret.")  # no warning under the other claim
    md = entry_markdown(Entry(answer=_answer()))
    assert "*\u26a0 check the quote: the sentence may state the opposite of it*" in md
    assert md.count("\u26a0") == 1
    try:
        assert install_translator(qapp, "es") == "es"
        doc.setHtml(entry_html(0, Entry(answer=_answer())))
        assert "\u26a0 compruebe la cita: la frase podría decir lo contrario" in doc.toPlainText()
    finally:
        install_translator(qapp, "en")
