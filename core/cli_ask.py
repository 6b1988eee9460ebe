"""``verbatim ask``: one question, answered by this data folder's warm engine when one runs
(:mod:`core.engine_server`), else here (and then an engine is left warm for the next question).

:func:`ask_op` is the work itself, a generator the engine runs by reference; the pipeline and the
store are imported inside it, so the asking process never loads them when an engine answers.
"""

from __future__ import annotations

import argparse
import re
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
    from core.collection import ask
    from core.pipeline import MAX_HISTORY_TURNS, turn_of
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
        scope, unknown, several = match_documents(ws, params["doc"])
        if several:
            lines = [f"error: --doc {p} matches {len(ids)} documents in workspace '{name}':\n"
                     + "\n".join(f"  {d}" for d in ids) for p, ids in several.items()]
            return ("usage", "\n".join(lines) + "\nGive more of the name (or the whole path), or one --doc per document.", 2)
        if unknown:
            return ("usage", f"error: --doc {', '.join(unknown)}: no such document in workspace '{name}' "
                    f"({documents_hint(ws, unknown)})", 2)
    answer = yield from ask(ws, params["question"], settings, backend=backend, history=turns or None,
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


def match_documents(ws: Workspace, paths: list[str]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Doc ids of ``ws`` named by ``paths``, the paths that named none, and the paths that named
    several (path → their doc ids, none of them chosen).

    Each path names, in order of preference (the first kind that matches decides): the file at
    that path; a doc id, or the end of one at a folder boundary (``contracts/msa.pdf``,
    ``msa.pdf``); else a part of a file name — its start, middle or end — in any case, with or
    without its extension, ignoring spaces, underscores, ``%20`` and punctuation
    (``canopetroleum`` for "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.PDF",
    ``sponsorship agreement``, ``acme_corp``). A part of several file names names none of them
    unless one file name is exactly that part (``msa`` for "msa.txt" beside "msa_v2.txt"): the
    caller lists them and the user says which (a lawyer's scope is never guessed).
    """
    from pathlib import Path

    from core.docrefs import file_stem

    docs = ws.documents()
    found: list[str] = []
    unknown: list[str] = []
    several: dict[str, list[str]] = {}
    for p in paths:
        absolute = str(Path(p).expanduser().resolve())
        hits = [d["doc_id"] for d in docs if d["path"] == absolute or d["doc_id"] == p or d["doc_id"].endswith("/" + p)]
        if not hits:
            if "/" in p.replace("\\", "/"):  # a path with folders names only its own end
                end = p.replace("\\", "/").casefold()
                hits = [d["doc_id"] for d in docs if d["doc_id"].casefold().endswith(end)]
            else:
                part = _name_key(p)
                hits = [d["doc_id"] for d in docs if part and part in _name_key(Path(d["doc_id"]).name)]
                if len(hits) > 1:  # a whole file name (with or without extension) is no part
                    whole = [d for d in hits if part in (_name_key(Path(d).name), _name_key(file_stem(d)))]
                    hits = whole if len(whole) == 1 else hits
        if len(hits) > 1 and not any(d["doc_id"] == p or d["path"] == absolute for d in docs):
            several[p] = hits
        elif hits:
            found.extend(hits)
        else:
            unknown.append(p)
    return list(dict.fromkeys(found)), unknown, several


#: Most document names an error about an unknown ``--doc``/``--docs`` lists.
HINT_NAMES = 8


def documents_hint(ws: Workspace, unknown: list[str]) -> str:
    """What an error about ``unknown`` document names lists: the workspace's documents when there are
    at most :data:`HINT_NAMES`, else the ones whose file names come closest to what was typed
    (``difflib``, on the :func:`_name_key` forms), and how many there are. The first 8 in id order
    left out the one meant ("WESTERN COPPER" among 32 documents, tryout 5)."""
    import difflib
    from pathlib import Path

    ids = [d["doc_id"] for d in ws.documents()]
    if len(ids) <= HINT_NAMES:
        return "documents: " + (", ".join(ids) or "none")
    keys = {d: _name_key(Path(d).name) for d in ids}
    scored = sorted(ids, key=lambda d: -max(difflib.SequenceMatcher(None, _name_key(u), keys[d]).ratio()
                                              for u in unknown))
    return f"{len(ids)} documents; closest: " + ", ".join(scored[:HINT_NAMES])


def _name_key(name: str) -> str:
    """``name`` as ``--doc`` compares it: ``%20`` decoded, folded (case and accents), without
    spaces, underscores or punctuation ("Acme_Corp%20NDA.pdf" → "acmecorpndapdf")."""
    from urllib.parse import unquote

    from core.docrefs import fold

    return re.sub(r"[\W_]+", "", fold(unquote(name)))
