"""Answers as HTML (for the conversation view); their Markdown (copy, export) is
:mod:`desktop.render_markdown`.

Pure functions over core models: no widgets, no I/O. Links in the HTML use
private schemes the conversation view interprets:

* ``cite:<entry>:<n>``  citation ``n`` (1-based chip number) of entry ``entry``
* ``doc:<entry>:<i>``   consulted document ``i`` (0-based) of an abstention
* ``toggle:<entry>``    show or hide the removed sentences of an entry
* ``aswritten:<entry>`` ask the entry's question again, searched as the user wrote it
  (undoes the follow-up rewrite)
* ``alldocs:<entry>``   ask the entry's question again in the whole workspace (its answer
  searched only the documents the question named, or those the user selected)
* ``passages:<entry>``  show the passages that match entry ``entry``'s question (no model)
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from core.followup import fallback_previous
from core.passage_context import same_clause_groups
from core.passage_decision import BELOW_NOTE, below_bar
from core.passages import PASSAGES_HEADER, WEAK_HEADER
from core.types import Answer, Citation
from desktop.render_places import citation_place as citation_place  # re-exported (copy, export)
from desktop.render_collection import collection_html
from desktop.texts import abstention_text, answer_status_text, model_text, plurals, reason_text, warning_text

_CTX = "Render"

CHIP_STYLE = "background-color:#fde68a; color:#6b4300; text-decoration:none; font-weight:600;"
WEAK_CHIP_STYLE = "background-color:#e5e7eb; color:#374151; text-decoration:none; font-weight:600;"
WEAK_HIGHLIGHT_STYLE = "background-color:#e5e7eb;"
HIGHLIGHT_STYLE = "background-color:#fef3c7;"
STALE_CHIP_STYLE = "background-color:#e5e7eb; color:#6b7280; text-decoration:line-through; font-weight:600;"
CONFLICT_STYLE = "background-color:#fee2e2; color:#991b1b; font-weight:700;"
CONFLICT_NOTE = ("Verbatim gives no single answer: the passages below say different things about this question. "
                 "Each sentence reports one passage; read them and decide.")
WEAK_NOTE = ("No passage scored high enough to answer. These came closest; the matching sentences are marked "
             "inside their clause. Read them before concluding that the documents are silent.")
UNSHOWN_CONFLICT_NOTE = ("The model reported that the documents disagree, but fewer than two verified passages "
                         "show it; the verified sentences are shown as they are.")


def _read_as(answer: Answer) -> str:
    """The standalone question a follow-up was rewritten into, if it differs from the question ('' if none)."""
    rewrite = getattr(answer.trace, "standalone_question", "")
    return rewrite if rewrite and rewrite.strip() != answer.question.strip() else ""


def read_as_text(answer: Answer) -> str:
    """How the window says what a follow-up was searched as, in its own language ('' without a rewrite).

    The model's rewrite is quoted as written; core's deterministic fallback form
    ("… (follow-up to: …)", English) is worded here instead.
    """
    rewrite = _read_as(answer)
    if not rewrite:
        return ""
    previous = fallback_previous(rewrite, answer.question)
    if previous is not None:
        return QCoreApplication.translate(_CTX, "Read together with the previous question: “{previous}”").format(
            previous=previous)
    return QCoreApplication.translate(_CTX, "Read as: {rewrite}").format(rewrite=rewrite)


def scope_text(answer: Answer) -> str:
    """Where a question was searched when not in the whole workspace, in the window's words ('' if it was).

    Issue #12: a question that names a document is searched inside it; that is never done
    silently. ``trace.scope.method``: ``named`` (one document), ``ambiguous`` (two or three
    documents named about equally, all searched), ``explicit`` (the user's selection).
    """
    scope = getattr(answer.trace, "scope", None)
    if scope is None or not scope.doc_ids:
        return ""
    names = ", ".join(scope.doc_ids)
    if scope.method == "ambiguous":
        return QCoreApplication.translate(
            _CTX, "Your question could mean any of {n} documents; searched in all of them: {names}").format(
            n=len(scope.doc_ids), names=names)
    if scope.method == "explicit":
        return QCoreApplication.translate(_CTX, "Searched in the documents you chose: {names}").format(names=names)
    return QCoreApplication.translate(_CTX, "Searching in: {names} (the document your question names)").format(
        names=names)


#: Names of the languages core detects (``core.translate``), as they read inside a sentence.
_LANGUAGE_NAMES = {"en": "English", "es": "Spanish"}
LANGUAGE_STYLE = "color:#8a5a00; font-size:9pt"
LANGUAGE_NOTE = ("Your question is in {question} and the documents are in {documents}: the search by meaning cannot "
                 "relate the two languages, so only keywords translated by the legal vocabulary were searched. Ask "
                 "in the documents' language, or set up Ollama to translate the question.")


def language_text(answer: Answer) -> str:
    """The warning that the question's language is not the documents' and nothing bridged the two
    (issue #20, 3c), in the UI language; ``""`` when there is nothing to say.

    Worded here from ``trace.language``'s fields (not core's English ``notice``) so it follows the
    window's language. Shown when core set a notice: the languages differ
    (``differs``) and neither a model translation nor a multilingual embedding model bridged them
    (``bridged_by == ""``), so only the bilingual keyword vocabulary searched across languages.
    """
    lang = getattr(answer.trace, "language", None)
    if lang is None or not (lang.notice or (lang.differs and not lang.bridged_by)):
        return ""
    documents = lang.documents[0] if lang.documents else ""

    def name(code: str) -> str:
        return QCoreApplication.translate(_CTX, _LANGUAGE_NAMES[code]) if code in _LANGUAGE_NAMES else code

    return QCoreApplication.translate(_CTX, LANGUAGE_NOTE).format(question=name(lang.question),
                                                                   documents=name(documents))


def query_text(answer: Answer, query: str) -> str:
    """The text searched (an abstention's ``query``) in the window's words: a fallback rewrite shows
    the question and, in parentheses, the previous question it was read with."""
    previous = fallback_previous(query, answer.question)
    if previous is None:
        return query
    return QCoreApplication.translate(_CTX, "{question} (with the previous question: {previous})").format(
        question=answer.question, previous=previous)


def display_quote(text: str) -> str:
    """A quote for display: runs of whitespace (line breaks of the page) shown as one space.

    Display only: the stored quote and its offsets stay the source's exact characters.
    """
    return " ".join(text.split())


def _t(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


@dataclass
class Entry:
    """One question and its answer in a workspace's conversation.

    Attributes:
        answer: the verified answer.
        history_id: its row in :class:`core.history.History`, or ``None`` if not stored.
        asked_at: Unix time, seconds (0 if unknown).
        stale: doc ids cited by the answer whose content changed since it was given.
        expanded: whether the removed sentences are shown.
        streaming: a preview of a model answer being written: its sentences verified so far
            (``answer`` holds them); replaced by the final answer when it arrives.
    """

    answer: Answer
    history_id: int | None = None
    asked_at: float = 0.0
    stale: set[str] = field(default_factory=set)
    expanded: bool = False
    streaming: bool = False

    def citations(self) -> list[Citation]:
        """The answer's citations in chip order (1-based chip ``n`` is ``citations()[n-1]``).

        An abstention has none; one that shows weak passages (``abstention.candidates``, issue #20)
        gives their places instead, so that their chips open the page like a citation's
        (:meth:`core.types.WeakPassage.viewer_citation`): display only, never counted as citations.
        """
        if self.shows_weak:
            return [w.viewer_citation() for w in self.answer.abstention.candidates]
        return [c for claim in self.answer.claims for c in claim.citations]

    @property
    def shows_weak(self) -> bool:
        """True when the entry's chips are weak passages (an abstention's closest passages), not
        citations of an answer: the page viewer must say so (issue #20)."""
        ab = self.answer.abstention
        return not self.answer.claims and ab is not None and bool(getattr(ab, "candidates", None))


def _chip(entry_index: int, n: int, stale: bool, weak: bool = False) -> str:
    style = STALE_CHIP_STYLE if stale else WEAK_CHIP_STYLE if weak else CHIP_STYLE
    title = _t("the document changed since this answer") if stale else ""
    return f"<a href='cite:{entry_index}:{n}' style='{style}' title='{html.escape(title)}'>&nbsp;{n}&nbsp;</a>"


def entry_html(entry_index: int, entry: Entry) -> str:
    """HTML of one conversation entry (question, claims with chips, sources, removed, abstention)."""
    a = entry.answer
    esc = html.escape
    parts = [
        f"<a name='entry-{entry_index}'></a>",
        f"<p style='font-size:12pt; font-weight:600; margin-top:10px'>{esc(a.question)}</p>",
    ]
    read_as = read_as_text(a)
    if read_as:
        # The rewrite is shown, and one click searches the question as the user wrote it.
        undo = QCoreApplication.translate(_CTX, "search as I wrote it")
        parts.append(f"<p style='color:gray; font-size:9pt'>{esc(read_as)} · "
                     f"<a href='aswritten:{entry_index}'>{esc(undo)}</a></p>")
    where = scope_text(a)
    if where:
        # The scope is shown with one click to search the whole workspace instead.
        everywhere = QCoreApplication.translate(_CTX, "search all documents")
        parts.append(f"<p style='color:#1e40af; font-size:9pt'>{esc(where)} · "
                     f"<a href='alldocs:{entry_index}'>{esc(everywhere)}</a></p>")
    language = language_text(a)
    if language:
        parts.append(f"<p style='{LANGUAGE_STYLE}'>⚠ {esc(language)}</p>")
    parts.append(collection_html(entry_index, a))  # a question about the whole collection: every document, each alone
    if entry.streaming:
        parts.append(f"<p style='color:#8a5a00'><b>{esc(_t('Verifying each sentence as the model writes…'))}</b> "
                     f"{esc(_t('{n} verified so far').format(n=len(a.claims)))}</p>")
    if a.kind == "passages" and a.status != "abstained":
        parts.append(f"<p style='color:#374151; font-weight:600'>{esc(_t(PASSAGES_HEADER))}</p>")
        contexts = [claim.context for claim in a.claims for _ in claim.citations]
        groups = _weaker_groups(a, _passage_groups(entry.citations(), contexts))
        if any(weak for _, weak in groups):
            parts.append(f"<p style='color:#6b7280; font-size:9pt'>{esc(_t(BELOW_NOTE))}</p>")
        for group, weak in groups:
            parts.append(_block(entry_index, entry, group, _t("weaker") if weak else ""))
    elif a.status == "abstained" and a.abstention is not None:
        ab = a.abstention
        # The marker in words (NO_EVIDENCE stays in the Answer JSON, the CLI and exports).
        badge = QCoreApplication.translate(_CTX, "No evidence in the documents")
        parts.append(
            f"<p><span style='background-color:#e5e7eb; color:#374151; font-weight:700;' title='{esc(ab.marker)}'>"
            f"&nbsp;{esc(badge)}&nbsp;</span>&nbsp;{esc(answer_status_text(a.status))}</p>"
        )
        parts.append(f"<p style='font-size:11pt'>{esc(abstention_text(ab.message))}</p>")
        parts.append(f"<p><b>{esc(_t('Searched for'))}:</b> {esc(query_text(a, ab.query))}</p>")
        if ab.consulted:
            parts.append(f"<p><b>{esc(_t('Documents consulted'))}:</b></p><ul>")
            for i, doc in enumerate(ab.consulted):
                pages = ", ".join(str(p) for p in doc.pages)
                parts.append(
                    f"<li><a href='doc:{entry_index}:{i}'>{esc(doc.doc_id)}</a> — {esc(_t('pages'))} {pages}</li>"
                )
            parts.append("</ul>")
        else:
            parts.append(f"<p>{esc(_t('No document matched the question.'))}</p>")
        if getattr(ab, "candidates", None):
            parts.append(_weak_html(entry_index, entry))
    else:
        if a.conflicting_evidence:
            parts.append(
                f"<p><span style='{CONFLICT_STYLE}'>&nbsp;{esc(_t('CONFLICT'))}&nbsp;</span>"
                f"&nbsp;<b>{esc(_t('The cited passages disagree'))}</b></p>"
                f"<p style='font-size:11pt'>{esc(_t(CONFLICT_NOTE))}</p>"
                f"<p><b>{esc(_t('What each passage says'))}:</b></p>"
            )
        elif a.trace.model_conflicting_evidence:
            parts.append(f"<p style='color:#8a5a00'>{esc(_t(UNSHOWN_CONFLICT_NOTE))}</p>")
        if a.status == "partial":
            parts.append(
                f"<p style='color:#8a5a00'><b>{esc(answer_status_text('partial'))}</b> — "
                f"{esc(_t('some sentences were removed because no quote could be verified.'))}</p>"
            )
        n = 0
        for claim in a.claims:
            chips = []
            for cit in claim.citations:
                n += 1
                chips.append(_chip(entry_index, n, cit.doc_id in entry.stale))
            bullet = "◆&nbsp;" if a.conflicting_evidence else ""
            parts.append(f"<p style='font-size:11pt'>{bullet}{esc(claim.text)} {' '.join(chips)}</p>")
            if claim.warning is not None:  # shown, but a check could not tell: say so beside it
                parts.append(f"<p style='color:#8a5a00; margin-top:0'>⚠ {esc(warning_text(claim.warning.reason))}</p>")
        parts.append(f"<p style='margin-top:6px'><b>{esc(_t('Sources'))}</b></p><table cellspacing='3'>")
        for n, cit in enumerate(entry.citations(), 1):
            parts.append(
                f"<tr><td valign='top'>{_chip(entry_index, n, cit.doc_id in entry.stale)}</td><td>"
                f"{esc(cit.doc_id)}, {esc(citation_place(cit))}{_marks(cit, entry)}<br>"
                f"<i>“{esc(display_quote(cit.quote))}”</i></td></tr>"
            )
        parts.append("</table>")
    if any(r.claim for r in a.rejected):
        # A rejection of the whole output (claim "") is the abstention's own message: no second line.
        parts.append(_rejected_html(entry_index, entry))
    if entry.streaming:
        parts.append("<hr>")
        return "".join(parts)
    if a.kind == "model" and a.trace.context:
        parts.append(f"<p><a href='passages:{entry_index}'>{esc(_t('Show matching passages'))}</a> "
                     f"<span style='color:gray; font-size:9pt'>— {esc(_t('the sentences of the documents that match the question, without a model'))}</span></p>")
    t = a.trace
    footer = [answer_status_text(a.status)]
    if t.backend:
        footer.append(model_text(t.backend, t.model))
    if "total" in t.timings_ms:
        footer.append(f"{t.timings_ms['total'] / 1000:.1f} s")
    parts.append(f"<p style='color:gray; font-size:9pt'>{esc(' · '.join(footer))}</p><hr>")
    return "".join(parts)


def _context_html(context, style: str) -> str:
    """A passage's clause as HTML, its best sentences (``context.highlights``) on a ``style`` background."""
    esc = html.escape
    out, pos = [], 0
    for s, e in context.highlights:
        s, e = max(s, pos), max(e, pos)
        out.append(esc(display_quote(context.text[pos:s])))
        out.append(f"<span style='{style}'><b>{esc(display_quote(context.text[s:e]))}</b></span>")
        pos = e
    out.append(esc(display_quote(context.text[pos:])))
    return " ".join(x for x in out if x)


def _passage_groups(citations: list[Citation], contexts: list) -> list[list]:
    """``[(n, citation, context)]`` groups (``n`` the 1-based chip) of passages shown once: passages
    whose clause is the same (core.passages gives spans of one clause the same context) share it
    (:func:`core.passage_context.same_clause_groups`, as the CLI groups them)."""
    contexts = contexts[:len(citations)]
    return [[(i + 1, citations[i], contexts[i]) for i in group] for group in same_clause_groups(contexts)]


def _weaker_groups(answer: Answer, groups: list[list]) -> list[tuple[list, bool]]:
    """Passage groups of an answered passages result in their shown order, each with whether every passage of
    it scores under the answer's threshold (:func:`core.passage_decision.below_bar`: marked weaker)."""
    below = below_bar([c.passage_score for c in answer.claims for _ in c.citations], answer.trace.passage_threshold)
    return [(g, all(below[m - 1] for m, _, _ in g)) for g in groups]


def _weak_html(entry_index: int, entry: Entry) -> str:
    """The weak passages of a passages abstention (issue #20): what came closest, marked as not an
    answer, each clickable to its page (grey chips; ``Entry.citations`` gives their places)."""
    esc = html.escape
    ab = entry.answer.abstention
    out = [f"<p style='color:#374151; font-weight:600; margin-top:8px'>{esc(_t(WEAK_HEADER))}</p>",
           f"<p style='color:#6b7280; font-size:9pt'>{esc(_t(WEAK_NOTE))}</p>"]
    for group in _passage_groups(entry.citations(), [w.context for w in ab.candidates]):
        out.append(_block(entry_index, entry, group, _t("weak")))
    return "".join(out)


def _block(entry_index: int, entry: Entry, group: list, badge: str) -> str:
    """One shown clause (HTML) with the chips of its passages; ``badge`` (``[weak]``, ``[weaker]``): grey,
    not presented as a match; ``""``: a matching passage (yellow)."""
    esc = html.escape
    n, cit, context = group[0]
    chips = " ".join(_chip(entry_index, m, c.doc_id in entry.stale, weak=bool(badge)) for m, c, _ in group)
    body = _context_html(context, WEAK_HIGHLIGHT_STYLE if badge else HIGHLIGHT_STYLE) if context else esc(
        display_quote(cit.quote))
    head = f"<span style='color:#6b7280; font-weight:700'>[{esc(badge)}]</span> " if badge else ""
    return (f"<blockquote style='margin-left:12px; font-size:{'10pt; color:#4b5563' if badge else '11pt'}'>"
            f"{head}“{body}” {chips}<br><span style='color:gray; font-size:9pt'>{esc(cit.doc_id)}, "
            f"{esc(citation_place(cit))}{_marks(cit, entry)}</span></blockquote>")


def _marks(cit: Citation, entry: Entry) -> str:
    """" · OCR — check the page · changed since this answer" as they apply to ``cit`` (HTML)."""
    esc = html.escape
    marks = []
    if getattr(cit, "modality", "text") == "ocr":
        marks.append(f"<span style='color:#b45309; font-weight:600'>{esc(_t('OCR — check the page'))}</span>")
    if cit.doc_id in entry.stale:
        marks.append(f"<span style='color:#b00020; font-weight:600'>{esc(_t('changed since this answer'))}</span>")
    return (" · " + " · ".join(marks)) if marks else ""


def _rejected_groups(answer: Answer) -> dict[str, list]:
    groups: dict[str, list] = {}
    for r in answer.rejected:
        groups.setdefault(r.claim, []).append(r)
    return groups


def _shown(items: list) -> list:
    """Reasons worth showing for one sentence: drop the generic no_citation if a specific one exists."""
    shown = [r for r in items if getattr(r.reason, "value", r.reason) != "no_citation"] or items[:1]
    return list({(r.reason, r.chunk_id, r.quote): r for r in shown}.values())


def _rejected_html(entry_index: int, entry: Entry) -> str:
    a = entry.answer
    esc = html.escape
    kept = {c.text for c in a.claims}
    groups = _rejected_groups(a)
    removed = sum(1 for claim in groups if claim and claim not in kept)
    dropped = sum(1 for claim in groups if claim in kept)
    summary = rejected_summary(removed, dropped)
    arrow = "▾" if entry.expanded else "▸"
    action = _t("hide") if entry.expanded else _t("show why")
    out = [
        (f"<p style='color:#8a5a00'><a href='toggle:{entry_index}' style='color:#8a5a00'>{arrow} "
         f"<b>{esc(_t('Not verified'))}</b>: {esc(summary)} ({esc(action)})</a></p>")
    ]
    if not entry.expanded:
        return "".join(out)
    # Qt's rich text flattens nested lists and gives the outer list's bottom margin to its last
    # item, which put a blank line between the last removed sentence and its reasons.
    out.append("<ul style='margin-bottom:0px'>")
    for claim, items in groups.items():
        what = esc(claim) if claim else esc(_t("(the whole answer)"))
        status = _t("citation dropped, sentence kept") if claim in kept else _t("sentence removed")
        out.append(f"<li>{what} <span style='color:gray'>({esc(status)})</span><ul>")
        for r in _shown(items):
            cited = f" [{esc(r.chunk_id)}]" if r.chunk_id else ""
            quote = f"<br><i>“{esc(display_quote(r.quote))}”</i>" if r.quote else ""
            out.append(f"<li><span style='color:#b00020'>{esc(reason_text(r.reason))}</span>{cited}{quote}</li>")
        out.append("</ul></li>")
    out.append("</ul>")
    return "".join(out)


def rejected_summary(removed: int, dropped: int) -> str:
    """"2 sentences removed, 1 citation dropped" with Qt's plural forms; a zero count is left out."""
    parts = []
    if removed:
        parts.append(plurals().sentences_removed(removed))
    if dropped:
        parts.append(plurals().citations_dropped(dropped))
    return ", ".join(parts)


def citation_check(cit: Citation) -> str:
    """How the quote was verified against the source: "verified: exact match" or "verified: fuzzy match, 93/100"."""
    kind = getattr(cit.match, "value", str(cit.match))
    if kind in ("exact", "normalized"):
        return _t("verified: {kind} match").format(kind=_t(kind))
    return _t("verified: {kind} match, {score}/100").format(kind=_t(kind), score=f"{cit.score:.0f}")


# Strings used inside f-strings or through a helper, listed for pyside6-lupdate
# (it reads only literal tr()/translate() calls outside f-strings).
_LUPDATE = (
    QT_TRANSLATE_NOOP("Render", "Passages that match your question — not an answer written by a model"),
    QT_TRANSLATE_NOOP("Render", "Verifying each sentence as the model writes…"),
    QT_TRANSLATE_NOOP("Render", "{n} verified so far"),
    QT_TRANSLATE_NOOP("Render", "Show matching passages"),
    QT_TRANSLATE_NOOP("Render", "Closest passages (not an answer)"),  # core.passages.WEAK_HEADER
    QT_TRANSLATE_NOOP("Render", "No passage scored high enough to answer. These came closest; the matching sentences are marked inside their clause. Read them before concluding that the documents are silent."),  # noqa: E501
    QT_TRANSLATE_NOOP("Render", "weak"),
    QT_TRANSLATE_NOOP("Render", "weaker"),
    QT_TRANSLATE_NOOP("Render", "Passages marked “weaker” score under what an answer needs: read them as the closest text, not as matches."),  # noqa: E501
    QT_TRANSLATE_NOOP("Render", "the sentences of the documents that match the question, without a model"),
    QT_TRANSLATE_NOOP("Render", "the document changed since this answer"),
    QT_TRANSLATE_NOOP("Render", "Searched for"),
    QT_TRANSLATE_NOOP("Render", "Documents consulted"),
    QT_TRANSLATE_NOOP("Render", "pages"),
    QT_TRANSLATE_NOOP("Render", "No document matched the question."),
    QT_TRANSLATE_NOOP("Render", "some sentences were removed because no quote could be verified."),
    QT_TRANSLATE_NOOP("Render", "Sources"),
    QT_TRANSLATE_NOOP("Render", "OCR — check the page"),
    QT_TRANSLATE_NOOP("Render", "changed since this answer"),
    QT_TRANSLATE_NOOP("Render", "page"),
    QT_TRANSLATE_NOOP("Render", "verified: {kind} match"),
    QT_TRANSLATE_NOOP("Render", "verified: {kind} match, {score}/100"),
    QT_TRANSLATE_NOOP("Render", "exact"),
    QT_TRANSLATE_NOOP("Render", "normalized"),
    QT_TRANSLATE_NOOP("Render", "fuzzy"),
    QT_TRANSLATE_NOOP("Render", "Workspace"),
    QT_TRANSLATE_NOOP("Render", "Exported"),
    QT_TRANSLATE_NOOP("Render", "Asked"),
    QT_TRANSLATE_NOOP("Render", "hide"),
    QT_TRANSLATE_NOOP("Render", "show why"),
    QT_TRANSLATE_NOOP("Render", "Not verified"),
    QT_TRANSLATE_NOOP("Render", "(the whole answer)"),
    QT_TRANSLATE_NOOP("Render", "citation dropped, sentence kept"),
    QT_TRANSLATE_NOOP("Render", "sentence removed"),
    QT_TRANSLATE_NOOP("Render", "Read together with the previous question: “{previous}”"),
    QT_TRANSLATE_NOOP("Render", "Read as: {rewrite}"),
    QT_TRANSLATE_NOOP("Render", "{question} (with the previous question: {previous})"),
    QT_TRANSLATE_NOOP("Render", "search as I wrote it"),
    QT_TRANSLATE_NOOP("Render", "search all documents"),
    QT_TRANSLATE_NOOP("Render", "Your question could mean any of {n} documents; searched in all of them: {names}"),
    QT_TRANSLATE_NOOP("Render", "Searched in the documents you chose: {names}"),
    QT_TRANSLATE_NOOP("Render", "Searching in: {names} (the document your question names)"),
    QT_TRANSLATE_NOOP("Render", "No evidence in the documents"),
    QT_TRANSLATE_NOOP("Render", "Your question is in {question} and the documents are in {documents}: the search by meaning cannot relate the two languages, so only keywords translated by the legal vocabulary were searched. Ask in the documents' language, or set up Ollama to translate the question."),  # noqa: E501  # LANGUAGE_NOTE
    QT_TRANSLATE_NOOP("Render", "English"),
    QT_TRANSLATE_NOOP("Render", "Spanish"),
    QT_TRANSLATE_NOOP("Render", "CONFLICT"),
    QT_TRANSLATE_NOOP("Render", "The cited passages disagree"),
    QT_TRANSLATE_NOOP("Render", "What each passage says"),
    QT_TRANSLATE_NOOP("Render", "Verbatim gives no single answer: the passages below say different things about this question. Each sentence reports one passage; read them and decide."),  # noqa: E501
    QT_TRANSLATE_NOOP("Render", "The model reported that the documents disagree, but fewer than two verified passages show it; the verified sentences are shown as they are."),  # noqa: E501
)
