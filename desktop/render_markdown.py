"""Answers as Markdown (copy one entry, export a conversation).

Split out of :mod:`desktop.render` (which keeps the HTML); the helpers and the translated
strings (context "Render", listed in ``desktop.render._LUPDATE``) are shared from there.
Pure functions over core models: no widgets, no I/O.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.passage_context import marked_text
from core.passage_decision import BELOW_NOTE
from core.passages import PASSAGES_HEADER, WEAK_HEADER
from desktop.render import (
    _CTX, CONFLICT_NOTE, UNSHOWN_CONFLICT_NOTE, WEAK_NOTE, Entry, _passage_groups, _read_as, _rejected_groups,
    _shown, _t, _weaker_groups, citation_check, citation_place, display_quote, language_text, query_text,
    read_as_text, scope_text)
from desktop.render_collection import collection_markdown
from desktop.texts import abstention_text, answer_status_text, reason_text, warning_text


def entry_markdown(entry: Entry) -> str:
    """Markdown of one entry: the question, claims with ``[n]``, sources with quotes, removed sentences."""
    a = entry.answer
    lines = [f"## {a.question}", ""]
    if _read_as(a):
        lines += [f"*{read_as_text(a)}*", ""]
    if scope_text(a):
        lines += [f"*{scope_text(a)}*", ""]
    if language_text(a):
        lines += [f"> {language_text(a)}", ""]
    lines += collection_markdown(a)
    if a.kind == "passages" and a.status != "abstained":
        lines += [f"*{_t(PASSAGES_HEADER)}*", ""]
        contexts = [claim.context for claim in a.claims for _ in claim.citations]
        groups = _weaker_groups(a, _passage_groups(entry.citations(), contexts))
        if any(weak for _, weak in groups):
            lines += [f"*{_t(BELOW_NOTE)}*", ""]
        for group, weak in groups:
            n, cit, context = group[0]
            text = marked_text(context, "**", "**") if context else display_quote(cit.quote)
            refs = "".join(f"[{m}]" for m, _, _ in group)
            lines += [f"> {'[' + _t('weaker') + '] ' if weak else ''}“{text}” {refs}", ">", f"> — {cit.doc_id}, {citation_place(cit)} · {citation_check(cit)}", ""]
    elif a.status == "abstained" and a.abstention is not None:
        ab = a.abstention
        badge = QCoreApplication.translate(_CTX, "No evidence in the documents")
        lines += [f"**{badge}** ({ab.marker}) — {abstention_text(ab.message)}", "",
                  f"*{_t('Searched for')}:* {query_text(a, ab.query)}", ""]
        for doc in ab.consulted:
            lines.append(f"- {doc.doc_id} — {_t('pages')} {', '.join(str(p) for p in doc.pages)}")
        lines.append("")
        if getattr(ab, "candidates", None):
            lines += [f"**{_t(WEAK_HEADER)}** — *{_t(WEAK_NOTE)}*", ""]
            for w in ab.candidates:
                text = marked_text(w.context, "**", "**") if w.context else display_quote(w.text)
                lines += [f"> [{_t('weak')}] “{text}”", ">", f"> — {w.doc_id}, {citation_place(w)}", ""]
    else:
        if a.conflicting_evidence:
            lines += [f"**{_t('CONFLICT')} — {_t('The cited passages disagree')}.** {_t(CONFLICT_NOTE)}", ""]
        elif a.trace.model_conflicting_evidence:
            lines += [f"*{_t(UNSHOWN_CONFLICT_NOTE)}*", ""]
        if a.status == "partial":
            lines += [f"*{answer_status_text('partial')}*", ""]
        n = 0
        for claim in a.claims:
            refs = []
            for _ in claim.citations:
                n += 1
                refs.append(f"[{n}]")
            lines.append(f"{'- ' if a.conflicting_evidence else ''}{claim.text} {''.join(refs)}")
            if claim.warning is not None:
                lines.append(f"{'  ' if a.conflicting_evidence else ''}*⚠ {warning_text(claim.warning.reason)}*")
        lines += ["", f"**{_t('Sources')}**", ""]
        for n, cit in enumerate(entry.citations(), 1):
            marks = ""
            if getattr(cit, "modality", "text") == "ocr":
                marks += f" ({_t('OCR — check the page')})"
            if cit.doc_id in entry.stale:
                marks += f" ({_t('changed since this answer')})"
            # Named by the document id (the workspace folder's label and the path inside it), never
            # the full local path: pasted into a mail, that named the firm's client folders (tryout 5).
            lines.append(f"{n}. {cit.doc_id}, {citation_place(cit)}{marks} · {citation_check(cit)}: "
                         f"“{display_quote(cit.quote)}”")
        lines.append("")
    if any(r.claim for r in a.rejected):
        kept = {c.text for c in a.claims}
        lines += [f"**{_t('Not verified')}**", ""]
        for claim, items in _rejected_groups(a).items():
            if claim in kept:
                continue
            why = "; ".join(reason_text(r.reason) for r in _shown(items))
            lines.append(f"- ~~{claim or _t('(the whole answer)')}~~ — {why}")
        lines.append("")
    return "\n".join(lines)


def _when(seconds: float) -> str:
    """Local date and time, ISO order (unambiguous in every locale): "2026-12-01 23:40"."""
    import time as _time

    return _time.strftime("%Y-%m-%d %H:%M", _time.localtime(seconds))


def conversation_markdown(workspace: str, entries: list[Entry], exported_at: float | None = None) -> str:
    """Markdown of a whole conversation for an export: titled with the workspace, dated, and each
    entry with the time it was asked and its verification status under its question.

    Args:
        exported_at: Unix time, seconds, of the export (``None``: now).
    """
    import time as _time

    when = _when(exported_at if exported_at is not None else _time.time())
    head = [f"# Verbatim — {workspace}", "",
            f"*{_t('Workspace')}: {workspace} · {_t('Exported')}: {when}*", ""]
    parts = []
    for e in entries:
        question, _, rest = entry_markdown(e).partition("\n")
        meta = [answer_status_text(e.answer.status)]
        if e.asked_at:
            meta.insert(0, f"{_t('Asked')}: {_when(e.asked_at)}")
        parts.append("\n".join([question, "", f"*{' · '.join(meta)}*", rest]))
    return "\n".join(head + parts)
