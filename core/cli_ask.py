"""``verbatim ask``: one question, answered by this data folder's warm engine when one runs
(:mod:`core.engine_server`), else here (and then an engine is left warm for the next question).

:func:`ask_op` is the work itself, a generator the engine runs by reference; the pipeline and the
store are imported inside it, so the asking process never loads them when an engine answers.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from core.cli_format import ask_stage_line, format_answer, show_claim
from core.errors import WorkspaceNotFoundError
from core.settings import Settings

if TYPE_CHECKING:  # pragma: no cover
    from core.store import Workspace


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
            show_claim(event)
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
            spawn(args.workspace)  # it reads this workspace ahead: the next question pays neither
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

