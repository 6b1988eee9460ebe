"""``verbatim grid``: ask every document of a workspace the same questions (:mod:`core.grid`).

Kept apart from :mod:`core.cli` (which only registers it) so the command line stays small rooms.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.errors import CoreError, WorkspaceNotFoundError
from core.settings import Settings


def add_grid_parser(sub) -> None:
    """Register ``grid`` on the ``verbatim`` sub-command parser ``sub``."""
    p = sub.add_parser("grid", help="ask every document the same questions; export CSV/XLSX/JSON/PDF")
    p.add_argument("--workspace", "-w", default="default")
    cols = p.add_mutually_exclusive_group(required=True)
    cols.add_argument("--questions", type=Path, metavar="FILE",
                      help="one question per line (text), or a JSON list of {id, question, clause}")
    cols.add_argument("--template", help="a built-in column set: 'commercial' or 'nda'")
    p.add_argument("--lang", choices=["en", "es"], default="en", help="language of a template's questions")
    p.add_argument("--docs", nargs="+", metavar="PATH",
                   help="only these documents: a path, a doc id, or any part of a file name (as ask's --doc)")
    p.add_argument("--name", default="", help="grid name kept in the workspace (default: the template or file name)")
    p.add_argument("--backend", choices=["ollama", "passages", "embedded"], help="what answers each cell")
    p.add_argument("--recompute", action="store_true", help="recompute every cell (default: only changed documents)")
    p.add_argument("--out", type=Path, help="write the grid: .xlsx, .csv, .json or .pdf")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_grid)


def cmd_grid(args: argparse.Namespace, settings: Settings) -> int:
    """Fill (or resume) a grid and print it; exit 2 on a bad argument, naming it."""
    from core.generate import make_backend
    from core.grid import columns_from_file, run_grid, templates
    from core.grid_export import export_grid, status_text
    from core.pipeline import run
    from core.store import Workspace, list_workspaces

    try:
        ws = Workspace(args.workspace, settings, create=False, recover=False)
    except WorkspaceNotFoundError:
        print(f"error: no workspace named '{args.workspace}' (existing: {', '.join(list_workspaces()) or 'none yet'})",
              file=sys.stderr)
        return 2
    if args.template:
        known = templates(args.lang)
        if args.template not in known:
            print(f"error: --template {args.template}: unknown (built-in: {', '.join(known)})", file=sys.stderr)
            return 2
        columns, name = known[args.template].columns, args.name or args.template
    else:
        try:
            columns = columns_from_file(args.questions)
        except (OSError, ValueError) as exc:
            print(f"error: --questions: {exc}", file=sys.stderr)
            return 2
        name = args.name or args.questions.stem
    doc_ids = None
    if args.docs:
        resolved = _resolve_docs(ws, args.docs)
        if isinstance(resolved, str):
            print(resolved, file=sys.stderr)
            return 2
        doc_ids = resolved
    backend = make_backend(settings, args.backend) if args.backend else None

    def on_progress(event) -> None:
        if not args.quiet and event.total:
            print(f"grid: {event.done}/{event.total} cells" + (f" · {event.item}" if event.item else ""),
                  file=sys.stderr, flush=True)

    try:
        cells = run(run_grid(ws, columns, grid=name, doc_ids=doc_ids, settings=settings, backend=backend,
                             recompute=args.recompute), on_progress)
    except ValueError as exc:
        raise CoreError(str(exc)) from exc
    by_key = {(c.doc_id, c.column_id): c for c in cells}
    rows = list(dict.fromkeys(c.doc_id for c in cells))
    for doc in rows:
        print(doc)
        for col in columns:
            cell = by_key.get((doc, col.id))
            if cell is None:
                continue
            where = ""
            if cell.page:
                where = f" (p. {cell.page_label}, PDF page {cell.page})" if cell.page_label and \
                    cell.page_label != str(cell.page) else f" (p. {cell.page})"
            short = " ".join(cell.text.split())
            text = f": {short[:160]}{'…' if len(short) > 160 else ''}{where}" if cell.text else ""
            print(f"  {col.id} — {status_text(cell)}{text}")
    if args.out:
        export_grid(args.out, columns, rows, by_key, workspace=ws.name)
        print(f"grid written to {args.out}", file=sys.stderr)
    return 0


def _resolve_docs(ws, names: list[str]) -> list[str] | str:
    """The doc ids ``names`` give (resolved as ``ask --doc`` does, :func:`core.cli_ask.match_documents`), or the
    error to print: a name that matches several documents lists them; a name that matches none lists every
    document of the workspace, the most alike first (rapidfuzz ``WRatio`` on the file name), so the one meant
    is never cut off."""
    from rapidfuzz import fuzz, process

    from core.cli_ask import match_documents

    found, unknown, several = match_documents(ws, names)
    if several:
        return "\n".join(f"error: --docs {p} matches {len(ids)} documents in workspace '{ws.name}':\n"
                         + "\n".join(f"  {d}" for d in ids) for p, ids in several.items()) + \
            "\nGive more of the name (or the whole path)."
    if unknown:
        docs = [d["doc_id"] for d in ws.documents()]
        alike = process.extract(" ".join(unknown), {d: Path(d).name for d in docs}, scorer=fuzz.WRatio,
                                processor=str.casefold, limit=None)
        listed = "\n".join(f"  {d}" for _name, _score, d in alike) or "  none"
        return f"error: --docs {', '.join(unknown)}: no such document in workspace '{ws.name}'. Documents:\n{listed}"
    return found


def cmd_eval_grid(args: argparse.Namespace, settings: Settings) -> int:
    """``verbatim eval CASES --grid``: score grid cells against labelled cases (:mod:`core.grid_eval`)."""
    from core.evaluate import default_index_dir, load_cases
    from core.generate import make_backend
    from core.grid_eval import evaluate_grid
    from core.workspaces import load_workspaces

    config = load_workspaces(args.workspaces, base=args.root)
    backend = make_backend(settings, args.backend or "passages")
    score = evaluate_grid(load_cases(args.cases), config, settings=settings,
                          index_dir=Path(args.index_dir) if args.index_dir else default_index_dir(config.path),
                          backend=backend)
    print(f"Grid evaluation ({getattr(backend, 'name', args.backend or 'passages')}): {args.cases}")
    print(*score.lines(), sep="\n")
    if args.json:
        Path(args.json).write_text(score.model_dump_json(indent=2), encoding="utf-8")
    return 0
