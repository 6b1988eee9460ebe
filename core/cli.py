"""Command line: ``verbatim index FOLDER``, ``verbatim ask "QUESTION"`` and ``verbatim eval CASES``.

Argument parsing is the standard library's argparse; the progress bar is tqdm on a
terminal, one line per file elsewhere (:class:`_IndexLines`); stages of ``ask`` go to
stderr, the answer to stdout.
Exit codes: 0 success (an abstention is a successful, honest answer), 1 a
reported error (message on stderr) or, for ``eval``, a failed gate (a leak,
exposure, invalid citation, false answer, or a missed threshold), 2 usage
error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from typing import TYPE_CHECKING

import core  # noqa: F401  (offline switches first)
from core.errors import Cancelled, CoreError, WorkspaceNotFoundError
from core.settings import Settings
from core.types import Answer, IndexReport

if TYPE_CHECKING:  # pragma: no cover
    from core.store import Workspace

# core.pipeline, core.store and core.passages are imported where they are used: ``verbatim ask``
# answered by a warm engine (core.engine_server) never loads them, nor the libraries behind them.


def _print_report(report: IndexReport) -> None:
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
    from core.passage_context import marked_text

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
            lines.append("  (the closest the documents hold, under the score a passage needs to answer; "
                         "\u00bb \u00ab mark the closest sentences inside their clause)")
            for n, weak in enumerate(answer.abstention.candidates, 1):
                text = marked_text(weak.context) if weak.context else " ".join(weak.text.split())
                lines.append(f"  (weak {n}) \u201c{text}\u201d \u2014 {weak.doc_id}, page {weak.page} "
                             f"(score {weak.score:.2f})")
    else:
        if answer.kind == "passages":
            from core.passages import PASSAGES_HEADER

            lines.append(PASSAGES_HEADER + ":")
            if any(c.context for c in answer.claims):
                lines.append("(\u00bb \u00ab mark the sentences that match; around them, the clause they are in)")
            lines.append("")
        if answer.conflicting_evidence:
            lines.append("CONFLICT: the cited passages disagree. No single answer is given; "
                         "each sentence below reports one passage:")
        elif answer.trace.model_conflicting_evidence:
            lines.append("(The model reported that the documents disagree, but fewer than two verified "
                         "passages show it.)")
        n = 0
        notes: list[str] = []
        for claim in answer.claims:
            marks = []
            for cit in claim.citations:
                n += 1
                marks.append(f"[{n}]")
                notes.append(f"[{n}] {cit.doc_id}, {cit.cited_page} ({cit.match.value}): \u201c{cit.quote}\u201d")
            if answer.kind == "passages":  # the passage is its own quote: say where it is, once
                cit = claim.citations[0]
                # the clause the passage sits in, its matching sentences between » « (small-to-big)
                text = marked_text(claim.context) if claim.context else " ".join(claim.text.split())
                lines.append(f"{''.join(marks)} \u201c{text}\u201d \u2014 {cit.doc_id}, {cit.cited_page}")
                notes.pop()
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


def _show_claim(event) -> None:
    """Print a streamed claim (verified as the model writes) on stderr; stdout keeps the answer."""
    if event.stage != "claim":
        return
    if event.claim is not None:
        cit = event.claim.citations[0]
        print(f"  verified: {event.claim.text} [{cit.doc_id}, {cit.cited_page}]", file=sys.stderr, flush=True)
    elif event.rejected:
        r = event.rejected[0]
        print(f"  removed:  {r.claim} ({r.reason.value})", file=sys.stderr, flush=True)


class _IndexLines:
    """Progress of ``verbatim index`` on stderr.

    On a terminal, a tqdm bar (pages of work, with :class:`core.progress.IndexProgress`'s
    estimate). Elsewhere (a log, a pipe, CI) one line per file read and one per
    :data:`CHUNK_LINE_EVERY` chunks of a long file, and a line per
    :data:`SKIPPED_LINE_EVERY` unchanged files skipped; tqdm's in-place bar would write
    nothing readable there (issue #16: "prints nothing but the final summary").
    """

    CHUNK_LINE_EVERY = 256
    SKIPPED_LINE_EVERY = 500

    def __init__(self, plan, quiet: bool, tty: bool) -> None:
        from core.progress import IndexProgress

        self.progress = IndexProgress(plan)
        self.quiet, self.tty = quiet, tty
        self.reading = {p.doc_id for p in plan if p.read}
        self.total_pages = sum(p.pages for p in plan if p.read)
        self.bar = None
        self._last_item = ""
        self._chunk_line = 0
        self._skipped = 0
        if tty and not quiet:
            from tqdm import tqdm

            self.bar = tqdm(total=max(1, self.total_pages), unit="page", file=sys.stderr,
                            bar_format="{l_bar}{bar}| {n:.0f}/{total_fmt} pages {postfix}")

    def eta_text(self) -> str:
        from core.progress import format_eta

        return format_eta(self.progress.eta_s)

    def __call__(self, event) -> None:
        self.progress.update(event)
        if event.stage == "wait":  # another writer holds the workspace: say who, even with --quiet
            print(event.message, file=sys.stderr, flush=True)
            return
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.n = self.progress.fraction * self.bar.total
            self.bar.set_postfix_str(f"{event.item or event.message}"[-40:] + f" · {self.eta_text()}")
            return
        if event.stage not in ("index", "embed") or not event.total:
            return
        where = f"[{event.done + 1}/{event.total}]"
        if event.item != self._last_item and event.stage == "index":
            self._last_item, self._chunk_line = event.item, 0
            if event.item in self.reading:
                print(f"{where} {event.item} · {self.eta_text()}", file=sys.stderr, flush=True)
            else:
                self._skipped += 1
                if self._skipped % self.SKIPPED_LINE_EVERY == 0:
                    print(f"{where} {self._skipped} unchanged files skipped", file=sys.stderr, flush=True)
        elif event.stage == "embed":
            from core.progress import CHUNKS_DONE

            m = CHUNKS_DONE.search(event.message)
            if m and int(m.group(1)) - self._chunk_line >= self.CHUNK_LINE_EVERY and int(m.group(1)) < int(m.group(2)):
                self._chunk_line = int(m.group(1))
                print(f"{where} {event.item}: {m.group(1)}/{m.group(2)} chunks · {self.eta_text()}",
                      file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _StopOnInterrupt:
    """Ctrl+C during ``verbatim index``: the first press asks the run to stop at its next cancellation
    point (within one embedding batch) and keep what it embedded — committed, a large file's parts
    included, so the next run goes on from there; a second press stops at once (``KeyboardInterrupt``:
    what was committed is kept). Called as the run's ``cancel`` check."""

    def __init__(self) -> None:
        self.requested = False
        self._old = None

    def __call__(self) -> bool:
        return self.requested

    def __enter__(self) -> _StopOnInterrupt:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, _signum, _frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print("stopping: saving what is embedded (Ctrl+C again to stop at once)", file=sys.stderr, flush=True)

    def __exit__(self, *_exc) -> None:
        if self._old is not None:
            import signal

            signal.signal(signal.SIGINT, self._old)


def cmd_index(args: argparse.Namespace, settings: Settings) -> int:
    from core.progress import manifest_files, plan_index

    # Without --rebuild, an index built with other settings raises IndexMismatchError,
    # whose message (printed by main) names the --rebuild command.
    # Check the folders before opening (and so creating) the workspace: a typo must not
    # leave an empty workspace behind (tester, session 3).
    ray_address = _ray_address(args)
    not_folders = [f for f in args.folders or [] if not Path(f).is_dir()]
    if not_folders:
        print("error: not a folder: " + ", ".join(str(f) for f in not_folders), file=sys.stderr)
        return 2
    from core.pipeline import index_folders, run
    from core.store import Workspace

    ws = Workspace.reset(args.workspace, settings) if args.rebuild else Workspace(args.workspace, settings)
    folders = args.folders or ws.folders()
    if not folders:
        print("error: no folder given and the workspace has none recorded", file=sys.stderr)
        return 2
    lines = _IndexLines(plan_index(folders, manifest_files(ws.dir), ws.dir, settings.follow_links), quiet=args.quiet, tty=sys.stderr.isatty())
    stop = _StopOnInterrupt()
    if ray_address is None:
        work = index_folders(ws, folders, cancel=stop)
    else:
        from core.cluster import ray_index

        work = ray_index(ws, folders, None if ray_address == "local" else ray_address, cancel=stop,
                         num_cpus=args.ray_cpus, embed_actors=args.ray_actors)
    try:
        with stop:
            report = run(work, lines)
    finally:
        lines.close()
    _print_report(report)
    if stop.requested:
        print("interrupted: what was embedded is kept; run 'verbatim index' again to go on", file=sys.stderr)
        return 130
    excluded = [d for d in ws.documents() if d["status"] != "active"]
    if excluded:  # quarantined or superseded: indexed, but never searched until released
        print(f"  not searched ({len(excluded)}):")
        for d in excluded:
            print(f"    {d['doc_id']}: {d['status']}" + (f" — {d['reason']}" if d.get("reason") else ""))
    return 0


def _ray_address(args: argparse.Namespace) -> str | None:
    """The Ray address of ``index --ray [ADDRESS]`` (``"local"``, ``"auto"``, ``HOST:PORT``), or ``None`` without ``--ray``.

    ``--ray`` takes an optional value, so ``index --ray FOLDER`` would read the
    folder as the address: a value that is neither ``local``/``auto`` nor an
    address (addresses have a ``:``) is given back to the folders.
    """
    value = getattr(args, "ray", None)
    if value is None or value in ("local", "auto") or ":" in value:
        return value
    args.folders = [value, *(args.folders or [])]
    return "local"


#: What ``verbatim ask`` prints on stderr for each stage of the pipeline (the window says the same).
ASK_STAGES = {
    "starting": "Waiting for the engine to load the search libraries…",
    "loading": "Loading the model…",
    "rewriting": "Reading the question in the light of the conversation…",
    "retrieving": "Searching the documents…",
    "reading": "Reading {n} passages…",
    "scoring": "Choosing the passages that match…",
    "generating": "Generating the answer…",
    "verifying": "Verifying every quote…",
}


def ask_stage_line(event) -> str:
    """The stderr line for one progress event of ``answer_question`` ('' for unknown stages)."""
    text = ASK_STAGES.get(event.stage, "")
    if event.stage == "reading":
        text = text.format(n=event.done)
    elif event.stage == "generating" and event.message.startswith("Generating with "):
        text = f"{text[:-1]} ({event.message[len('Generating with '):]})…"
    return text


def ask_op(params: dict, settings: Settings, *, cancel=lambda: False):
    """``verbatim ask``'s work, run in a warm engine (:mod:`core.engine_server`) or in this process;
    a generator: progress events, then ``("answer", Answer)`` or ``("usage", message, exit code)``.

    ``params``: ``workspace``, ``question``, ``backend`` (``None``: the settings'), ``all_docs``,
    ``new``, ``follow_up`` (bool), ``doc`` (list of paths or ``None``). The answer is stored in
    the workspace's history, as the window does.

    Raises:
        CoreError: as :func:`core.pipeline.answer_question` (the model cannot run, …).
    """
    from core.generate import make_backend
    from core.history import History
    from core.pipeline import MAX_HISTORY_TURNS, answer_question, turn_of
    from core.store import Workspace, list_workspaces

    name = params["workspace"]
    try:
        # asking never creates a workspace, and reads only committed data (never recovers)
        ws = Workspace(name, settings, create=False, recover=False)
    except WorkspaceNotFoundError:
        known = ", ".join(list_workspaces()) or "none yet"
        return ("usage", f"error: no workspace named '{name}' (existing: {known}). "
                f"Create it with: verbatim index FOLDER --workspace {name}", 2)
    backend = make_backend(settings, params["backend"]) if params.get("backend") else None
    if params.get("all_docs"):
        settings = settings.model_copy(update={"resolve_references": False})
    history = History(ws.dir)
    if params.get("new"):
        history.start_new_conversation()
    # The conversation so far gives context; core decides whether the question points back at it.
    turns = [] if params.get("new") else [turn_of(e.answer) for e in history.conversation()[-MAX_HISTORY_TURNS:]]
    if params.get("follow_up") and not turns:
        return ("usage", f"error: --follow-up: workspace '{name}' has no earlier question", 2)
    scope = None
    if params.get("doc"):
        scope, unknown = match_documents(ws, params["doc"])
        if unknown:
            docs = ws.documents()
            names = ", ".join(d["doc_id"] for d in docs[:8]) or "none"
            return ("usage", f"error: --doc {', '.join(unknown)}: no such document in workspace '{name}' "
                    f"(documents: {names}{', …' if len(docs) > 8 else ''})", 2)
    answer = yield from answer_question(ws, params["question"], settings, backend=backend, history=turns or None,
                                        follow_up=True if params.get("follow_up") else None, scope=scope,
                                        cancel=cancel)
    history.add(answer)  # as the window does: the next question (here or there) continues from it
    return ("answer", answer)


def _ask_warm(params: dict, settings: Settings, on_progress):
    """``ask_op``'s result from this data folder's warm engine, or ``None`` when there is none
    (or it went away: then the question is answered here)."""
    from core.engine_server import call, connect
    from core.errors import EngineError

    conn = connect()
    if conn is None:
        return None
    try:
        return call(conn, ask_op, params, settings, on_progress=on_progress)
    except EngineError:
        return None


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    params = {"workspace": args.workspace, "question": args.question, "backend": args.backend,
              "all_docs": args.all_docs, "new": args.new, "follow_up": args.follow_up, "doc": args.doc}
    last = [""]

    def on_progress(event) -> None:
        if args.quiet:
            return
        if event.stage == "claim":  # a sentence verified (or removed) while the model writes
            _show_claim(event)
            return
        line = ask_stage_line(event)
        if line and line != last[0]:
            last[0] = line
            print(line, file=sys.stderr, flush=True)

    from core.engine_server import idle_seconds, spawn

    result = _ask_warm(params, settings, on_progress) if idle_seconds() > 0 and not args.no_engine else None
    if result is None:  # no warm engine: answer here, then leave one for the next question
        from core.pipeline import run

        result = run(ask_op(params, settings), on_progress)
        if not args.no_engine:
            spawn()
    if result[0] == "usage":
        print(result[1], file=sys.stderr)
        return result[2]
    answer = result[1]
    if args.json:
        print(answer.model_dump_json(indent=2))
    else:
        print(format_answer(answer))
    return 0


def match_documents(ws: Workspace, paths: list[str]) -> tuple[list[str], list[str]]:
    """Doc ids of ``ws`` named by ``paths``, and the paths that named none.

    Each path names, in order of preference (the first kind that matches decides): the file at
    that path; a doc id, or the end of one at a folder boundary (``contracts/msa.pdf``,
    ``msa.pdf``); else the end of a file name, in any case, with or without its extension, with
    ``%20`` or underscores for spaces (``Acme Corp.pdf``, ``nda acme corp``, ``v3``). A partial
    name that ends several file names names them all (``ask`` prints every document searched).
    """
    from pathlib import Path

    from core.docrefs import file_stem

    docs = ws.documents()
    found, unknown = [], []
    for p in paths:
        absolute = str(Path(p).expanduser().resolve())
        hits = [d["doc_id"] for d in docs if d["path"] == absolute or d["doc_id"] == p or d["doc_id"].endswith("/" + p)]
        if not hits:
            end = p.replace("\\", "/").casefold()
            stem = file_stem(p) if "/" not in end else ""  # a path with folders names only its own end
            hits = [d["doc_id"] for d in docs
                    if end and (d["doc_id"].casefold().endswith(end)
                                or (stem and (" " + file_stem(d["doc_id"])).endswith(" " + stem)))]
        (found.extend(hits) if hits else unknown.append(p))
    return list(dict.fromkeys(found)), unknown


def cmd_selftest(args: argparse.Namespace, settings: Settings | None) -> int:
    from core.selftest import run_selftest

    return 0 if run_selftest(png_dir=args.png_dir).ok else 1


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from core.evaluate import EvalReport, compare, evaluate, format_report, load_answers, load_cases
    from core.workspaces import load_workspaces

    if args.k:
        settings = settings.model_copy(update={"top_k": args.k})
    if args.grid:
        from core.cli_grid import cmd_eval_grid

        return cmd_eval_grid(args, settings)
    cases = load_cases(args.cases)
    config = load_workspaces(args.workspaces, base=args.root)
    answers, backend, mode = None, None, "retrieval"
    if args.answers:
        mode, answers = "answers", load_answers(args.answers)
    elif args.backend:
        from core.generate import make_backend

        mode, backend = "live", make_backend(settings, args.backend)
    thresholds = {key: value for key, value in (
        ("recall_at_k", args.min_recall), ("citation_validity", args.min_citation_validity),
        ("claim_coverage", args.min_claim_coverage), ("abstention_accuracy", args.min_abstention_accuracy),
    ) if value is not None}
    report = evaluate(cases, config, mode=mode, settings=settings, index_dir=Path(args.index_dir) if args.index_dir else None, answers=answers,
                      backend=backend, thresholds=thresholds, cases_file=str(args.cases),
                      use_scope_docs=args.use_scope_docs)
    print(format_report(report))
    if args.baseline:
        try:
            base = EvalReport.model_validate_json(Path(args.baseline).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CoreError(f"{args.baseline}: not a readable evaluation report ({exc})") from exc
        diff = compare(report, base)
        print("", f"Against {args.baseline}: " + ("no per-case change" if not diff else ""), *diff, sep="\n")
    if args.json:
        Path(args.json).write_text(report.model_dump_json(indent=2), encoding="utf-8")
    return 0 if report.passed else 1


def build_parser() -> argparse.ArgumentParser:
    """The ``verbatim`` argument parser."""
    parser = argparse.ArgumentParser(prog="verbatim", description="Grounded answers over your own documents.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_index = sub.add_parser("index", help="index folders into a workspace (incremental)")
    p_index.add_argument(
        "folders", nargs="*", help="folders to index recursively (default: the folders the workspace already indexes)"
    )
    p_index.add_argument("--workspace", "-w", default="default")
    p_index.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr (bar or lines)")
    p_index.add_argument(
        "--rebuild", action="store_true",
        help="discard the workspace's index and re-index its folders (needed after changing the embedding "
        "model or chunking settings)",
    )
    p_index.add_argument(
        "--ray", nargs="?", const="local", metavar="ADDRESS",
        help="read, chunk, screen and embed on Ray (pip install 'verbatim[cluster]'); this process alone "
        "writes the workspace. ADDRESS: none or 'local' = a local Ray on this machine, 'auto' = the cluster "
        "started here with 'ray start', HOST:PORT or ray://HOST:PORT = a remote one. The folders must be "
        "readable at the same path on every node",
    )
    p_index.add_argument("--ray-cpus", type=int, help="CPUs of a local Ray (default: all)")
    p_index.add_argument(
        "--ray-actors", type=int,
        help="embedding actors (default: one per GPU of the cluster, else half its CPUs)",
    )
    p_index.set_defaults(func=cmd_index)
    p_ask = sub.add_parser("ask", help="answer a question with verified quotes, or abstain")
    p_ask.add_argument("question")
    p_ask.add_argument("--workspace", "-w", default="default")
    p_ask.add_argument("--json", action="store_true", help="print the verified Answer as JSON")
    p_ask.add_argument("--backend", choices=["ollama", "passages", "embedded"],
                       help="what answers: an Ollama model, the matching passages themselves (no model), or the "
                            "embedded demo model (default: settings; 'auto' = Ollama if it answers, else passages)")
    p_ask.add_argument("--all-docs", action="store_true",
                       help="search every document even when the question names one")
    p_ask.add_argument("--doc", action="append", metavar="PATH",
                       help="search only this document (repeatable): its file path or the end of its name "
                            "in the workspace, e.g. contracts/msa.pdf; default: the documents the question names")
    context = p_ask.add_mutually_exclusive_group()
    context.add_argument("--new", action="store_true",
                         help="start a new conversation: earlier questions give no context to this one or the next")
    context.add_argument("--follow-up", action="store_true",
                         help="read the question as a follow-up of the conversation (by default Verbatim decides: a "
                              "question that points back, 'and the deposit?', is rewritten into a standalone question "
                              "before retrieval; one that stands on its own is searched as written)")
    p_ask.add_argument("--quiet", "-q", action="store_true", help="no stage lines on stderr")
    p_ask.add_argument("--no-engine", action="store_true",
                       help="answer in this process: neither use nor leave a warm engine (core.engine_server)")
    p_ask.set_defaults(func=cmd_ask)
    p_self = sub.add_parser("selftest", help="check the installation offline on the bundled sample (exit 1 names the failed check)")
    p_self.add_argument("--png-dir", type=Path, default=None, help="keep the rendered page here")
    p_self.set_defaults(func=cmd_selftest)
    p_eval = sub.add_parser(
        "eval", help="judge retrieval and answers on evaluation cases (one metric per line, never blended)"
    )
    p_eval.add_argument("cases", help="cases, JSON lines (DESIGN.md 'Evaluation case')")
    p_eval.add_argument("--workspaces", required=True, help="workspaces.toml declaring the cases' workspaces")
    p_eval.add_argument("--root", help="folder the file's relative folders resolve against (default: beside it)")
    source = p_eval.add_mutually_exclusive_group(required=True)
    source.add_argument("--retrieval-only", action="store_true", help="no generation: judge access and retrieval")
    source.add_argument("--backend", choices=["ollama", "passages", "embedded"], help="answer live with this backend")
    source.add_argument("--answers", help="saved Answer records (verbatim ask --json outputs) to judge")
    p_eval.add_argument("--json", help="write the full report (per-case details) to this file")
    p_eval.add_argument("--baseline", help="an earlier --json report: print per-case better/worse")
    p_eval.add_argument("-k", type=int, help="chunks delivered per question (default: settings top_k)")
    p_eval.add_argument("--index-dir", help="where the evaluator indexes the workspaces (default: data folder)")
    p_eval.add_argument("--use-scope-docs", action="store_true",
                        help="search each case inside its scope_docs (default: resolve the documents the question names)")
    for name in ("recall", "citation-validity", "claim-coverage", "abstention-accuracy"):
        p_eval.add_argument(f"--min-{name}", type=float, metavar="RATIO", help=f"fail (exit 1) below this {name}")
    p_eval.add_argument("--grid", action="store_true",
                        help="score review-grid cells (each case's clause question inside its document; core/grid_eval.py)")
    p_eval.set_defaults(func=cmd_eval)
    from core.cli_grid import add_grid_parser

    add_grid_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``verbatim`` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "selftest":  # independent of the user's saved settings
            return args.func(args, None)
        settings = Settings.load()
        return args.func(args, settings)
    except Cancelled:
        return 130
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except CoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
