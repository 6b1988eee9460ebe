"""What ``verbatim`` prints: the index report, an answer with its citations and removed sentences, the
stage lines of ``ask`` on stderr. Pure formatting over core models (no pipeline, no store), so a
``verbatim ask`` answered by a warm engine loads nothing more to print its answer.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.types import Answer, IndexReport


def print_report(report: IndexReport) -> None:
    """Print ``verbatim index``'s summary of ``report`` on stdout (failures and unread files included)."""
    print(f"Workspace '{report.workspace}': {', '.join(report.folders)}")
    print(
        f"  documents indexed: {report.documents}  unchanged: {report.unchanged}  removed: {report.removed}"
        f"  renamed: {report.renamed}\n"
        f"  pages: {report.pages}  chunks embedded: {report.chunks}  chunks in workspace: {report.total_chunks}\n"
        f"  seconds: {report.seconds:.1f}" + ("  (cancelled)" if report.cancelled else "")
    )
    if report.failures:
        print(f"  failures ({len(report.failures)}):")
        for f in report.failures:
            where = f" (page {f.page})" if f.page else ""
            print(f"    {f.path}{where}: {f.reason}")
    for f in report.not_read:
        print(f"  not read: {Path(f.path).name} ({f.reason})")
    if report.resumed:
        print(f"  went on from an earlier stopped run: {report.resumed} document(s)")
    for p in report.partial:  # a large file committed in parts, stopped before its end; the next run goes on
        print(f"  {p.text()}")


#: Plain words for each rejection reason (the window shows the same, translated: desktop.texts.reason_text).
REASON_TEXT = {
    "unknown_chunk": "cites a passage that was not given to the model",
    "quote_too_short": "quote too short to check",
    "wrong_chunk": "quote comes from a different passage than the one cited",
    "quote_not_found": "quote not found in the cited passage",
    "no_citation": "no verified quote left for this sentence",
    "model_output_invalid": "the model's output was not valid",
    "fact_not_in_quote": "a number, date or name in the sentence is not in its quote",
    "number_not_in_quote": "number not in quote",
    "model_output_truncated": "the model's answer was cut off at its token limit",
    "not_supported": "the quote does not support the sentence",
    "polarity_mismatch": "the sentence negates what its quote says, or the reverse",
    "heading_only": "its only quote is a heading, a defined term or a clause number",
    "date_ambiguous": "the quoted date reads differently day-first and month-first",
}

#: Plain words for each warning reason (:class:`core.types.WarningReason`; the window: desktop.texts.warning_text).
WARNING_TEXT = {
    "polarity_unsure": "check the quote: the sentence may state the opposite of it",
}


def reason_words(reason: object) -> str:
    """:data:`REASON_TEXT` for a :class:`core.types.RejectReason` (or its value); unknown values spelled out."""
    value = getattr(reason, "value", reason)
    return REASON_TEXT.get(value, f"not verified ({str(value).replace('_', ' ')})")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def format_rejected(answer: Answer) -> list[str]:
    """What was not verified, as the window lists it: each sentence once, removed or kept
    without the dropped citation, with each reason in words (the generic "no verified
    quote left" only when no specific reason is known); ``[]`` when nothing was rejected."""
    if not answer.rejected:
        return []
    kept = {c.text for c in answer.claims}
    groups: dict[str, list] = {}
    for r in answer.rejected:
        groups.setdefault(r.claim, []).append(r)
    lines: list[str] = []
    if "" in groups:  # the model's whole output failed (invalid or cut off): no sentence to list
        reasons = sorted({reason_words(r.reason) for r in groups.pop("")})
        lines.append("The model's whole answer was discarded: " + "; ".join(reasons) + ".")
    removed = [c for c in groups if c not in kept]
    dropped = [c for c in groups if c in kept]
    if groups:
        parts = []
        if removed:
            parts.append(_plural(len(removed), "sentence removed", "sentences removed"))
        if dropped:
            parts.append(_plural(len(dropped), "citation dropped", "citations dropped"))
        lines.append("Not verified: " + ", ".join(parts) + ".")
    for claim, items in groups.items():
        status = "citation dropped, sentence kept" if claim in kept else "sentence removed"
        lines.append(f"  - {claim} ({status})")
        shown = [r for r in items if r.reason.value != "no_citation"] or items[:1]
        for r in {(r.reason, r.chunk_id, r.quote): r for r in shown}.values():
            cited = f" [{r.chunk_id}]" if r.chunk_id else ""
            detail = f" ({r.detail})" if r.detail else ""
            lines.append(f"      {reason_words(r.reason)}{cited}{detail}")
            if r.quote:
                lines.append(f"      \u201c{' '.join(r.quote.split())}\u201d")
    return lines


def format_answer(answer: Answer) -> str:
    """Human-readable answer: claims with numbered citations, or the abstention; then what was
    not verified (:func:`format_rejected`), as the window shows it."""
    from core.passage_context import highlight_marks, marked_text, same_clause_groups

    lines: list[str] = []
    if answer.trace.standalone_question and answer.trace.standalone_question != answer.question:
        lines.append(f"(read as: {answer.trace.standalone_question} — {answer.trace.rewrite_method} rewrite; "
                     "ask with --new to search it as written)")
        lines.append("")
    scope = answer.trace.scope
    if scope.doc_ids:
        titles = "; ".join(f"{t} ({d})" for t, d in zip(scope.titles, scope.doc_ids))
        why = {"named": "named in the question", "ambiguous": "the question could mean any of them",
               "explicit": "--doc"}.get(scope.method, "")
        lines.append(f"Searched in: {titles} — {why}")
        if scope.method != "explicit":
            lines.append("  (to search every document instead, ask again with --all-docs)")
        lines.append("")
    lines += collection_lines(answer)
    language = answer.trace.language
    if language.notice:
        lines.append(f"Note: {language.notice}")
        lines.append("")
    elif language.translation:
        lines.append(f"(also searched as translated by the model: {language.translation})")
        lines.append("")
    if answer.status == "abstained":
        assert answer.abstention is not None
        lines.append(f"{answer.abstention.marker}: {answer.abstention.message}")
        lines.append(f"Searched for: {answer.abstention.query}")
        if answer.abstention.consulted:
            lines.append("Documents consulted:")
            for doc in answer.abstention.consulted:
                lines.append(f"  - {doc.doc_id} (pages {', '.join(map(str, doc.pages))})")
        else:
            lines.append("No document matched the question.")
        if answer.abstention.candidates:
            lines.append("")
            from core.passages import WEAK_HEADER

            lines.append(f"{WEAK_HEADER}:")
            weak = answer.abstention.candidates
            left, right = highlight_marks([w.context.text for w in weak if w.context])
            lines.append("  (the closest the documents hold, under the score a passage needs to answer; "
                         f"{left} {right} mark the closest sentences inside their clause)")
            for group in same_clause_groups([w.context for w in weak]):
                first = weak[group[0]]
                text = marked_text(first.context, left, right) if first.context else " ".join(first.text.split())
                numbers = ", ".join(str(i + 1) for i in group)
                scores = ", ".join(f"{weak[i].score:.2f}" for i in group)
                lines.append(f"  (weak {numbers}) \u201c{text}\u201d \u2014 {first.doc_id}, page {first.page} "
                             f"(score {scores})")
    else:
        below: list[bool] = [False] * len(answer.claims)  # passages under the answer's threshold: marked weaker
        if answer.kind == "passages":
            from core.passage_decision import BELOW_NOTE, below_bar
            from core.passages import PASSAGES_HEADER

            below = below_bar([c.passage_score for c in answer.claims], answer.trace.passage_threshold)
            lines.append(PASSAGES_HEADER + ":")
            left, right = highlight_marks([c.context.text for c in answer.claims if c.context])
            if any(c.context for c in answer.claims):
                lines.append(f"({left} {right} mark the sentences that match; around them, the clause they are in)")
            if any(below):
                lines.append(f"({BELOW_NOTE})")
            lines.append("")
        if answer.conflicting_evidence:
            lines.append("CONFLICT: the cited passages disagree. No single answer is given; "
                         "each sentence below reports one passage:")
        elif answer.trace.model_conflicting_evidence:
            lines.append("(The model reported that the documents disagree, but fewer than two verified "
                         "passages show it.)")
        n = 0
        notes: list[str] = []
        shown_with: dict[int, list[int]] = {}  # passages answer: claim index -> citation numbers of its clause
        weaker: set[int] = set()  # first passages of clauses whose every passage is under the threshold
        if answer.kind == "passages":
            for group in same_clause_groups([c.context for c in answer.claims]):
                shown_with[group[0]] = group
                if all(below[i] for i in group):
                    weaker.add(group[0])
        for index, claim in enumerate(answer.claims):
            marks = []
            for cit in claim.citations:
                n += 1
                marks.append(f"[{n}]")
                notes.append(f"[{n}] {cit.doc_id}, {cit.cited_page} ({cit.match.value}): \u201c{cit.quote}\u201d")
            if answer.kind == "passages":  # the passage is its own quote: say where it is, once
                notes.pop()
                if index not in shown_with:  # its clause was printed with an earlier passage's
                    continue
                cit = claim.citations[0]
                # the clause the passage sits in, its matching sentences between marks it does not hold (small-to-big)
                text = marked_text(claim.context, left, right) if claim.context else " ".join(claim.text.split())
                marks = [f"[{i + 1}]" for i in shown_with[index]]
                score = (f" (score {', '.join(f'{answer.claims[i].passage_score:.2f}' for i in shown_with[index])})"
                         if index in weaker else "")
                lines.append(f"{'(weaker) ' if index in weaker else ''}{''.join(marks)} \u201c{text}\u201d "
                             f"\u2014 {cit.doc_id}, {cit.cited_page}{score}")
                continue
            lines.append(f"{'  - ' if answer.conflicting_evidence else ''}{claim.text} {''.join(marks)}")
            if claim.warning is not None:
                words = WARNING_TEXT.get(claim.warning.reason.value, claim.warning.reason.value)
                lines.append(f"    ⚠ {words} ({claim.warning.detail})" if claim.warning.detail else f"    ⚠ {words}")
        lines.append("")
        lines.extend(notes)
    rejected = format_rejected(answer)
    if rejected:
        lines.append("")
        lines.extend(rejected)
    if answer.trace.backend:
        lines.append("")
        lines.append(f"(model: {answer.trace.backend}, {answer.trace.model})")
    return "\n".join(lines)


def collection_lines(answer: Answer) -> list[str]:
    """What ``verbatim ask`` prints for a question about the whole collection (:mod:`core.collection`),
    before the passages: how many documents were searched each on its own, which match, and each
    document that does not with its closest passage (not an answer); ``[]`` for any other answer."""
    docs = answer.documents
    if not docs:
        return []
    matching = [f for f in docs if f.matches]
    lines = [f"Searched each of the {_plural(len(docs), 'document', 'documents')} on its own: "
             f"{len(matching)} {'has a passage that matches' if len(matching) == 1 else 'have a passage that matches'}."]
    required = sorted({w for f in docs for w in f.missing})
    if required:
        lines.append(f"  (a matching passage must name: {', '.join(required)}, with what the question asks)")
    if answer.trace.not_searched:
        from core.collection import MAX_DOCUMENTS

        lines.append(f"  ({_plural(answer.trace.not_searched, 'more document was', 'more documents were')} not searched: "
                     f"at most {MAX_DOCUMENTS} per question; `verbatim grid` searches them all)")
    if matching:
        lines.append("Matching: " + "; ".join(f.doc_id for f in matching))
    others = [f for f in docs if not f.matches]
    if others:
        lines.append(f"No matching passage in {_plural(len(others), 'document', 'documents')}:")
        for f in others:
            near = ""
            if f.closest is not None:
                text = " ".join(f.closest.text.split())
                text = text if len(text) <= 110 else text[:107] + "…"
                near = f" — closest, not an answer: \u201c{text}\u201d (page {f.closest.page})"
            lines.append(f"  - {f.doc_id}{near}")
    lines.append("")
    return lines


def show_claim(event) -> None:
    """Print a streamed claim (verified as the model writes) on stderr; stdout keeps the answer."""
    if event.stage != "claim":
        return
    if event.claim is not None:
        cit = event.claim.citations[0]
        print(f"  verified: {event.claim.text} [{cit.doc_id}, {cit.cited_page}]", file=sys.stderr, flush=True)
    elif event.rejected:
        r = event.rejected[0]
        print(f"  removed:  {r.claim} ({r.reason.value})", file=sys.stderr, flush=True)


#: What ``verbatim ask`` prints on stderr for each stage of the pipeline (the window says the same).
ASK_STAGES = {
    "starting": "Waiting for the engine to load the search libraries…",
    "loading": "Loading the model…",
    "rewriting": "Reading the question in the light of the conversation…",
    "retrieving": "Searching the documents…",
    "reading": "Reading {n} passages…",
    "scoring": "Choosing the passages that match…",
    "documents": "Searching each document on its own ({done} of {total})…",
    "generating": "Generating the answer…",
    "verifying": "Verifying every quote…",
}


def ask_stage_line(event) -> str:
    """The stderr line for one progress event of ``answer_question`` ('' for unknown stages)."""
    text = ASK_STAGES.get(event.stage, "")
    if event.stage == "reading":
        text = text.format(n=event.done)
    elif event.stage == "documents":
        text = text.format(done=event.done, total=event.total)
    elif event.stage == "generating" and event.message.startswith("Generating with "):
        text = f"{text[:-1]} ({event.message[len('Generating with '):]})…"
    return text

