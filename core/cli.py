"""Command line: ``verbatim index FOLDER``, ``verbatim ask "QUESTION"``, ``verbatim eval CASES``, ``verbatim
selftest`` and ``verbatim grid``: the parser and the entry point.

Each command lives in its own module — :mod:`core.cli_index`, :mod:`core.cli_ask`,
:mod:`core.cli_grid` — over :mod:`core.cli_format` (what is printed); none imports this one.
Argument parsing is the standard library's argparse; stages of ``ask`` go to stderr, the answer
to stdout.
Exit codes: 0 success (an abstention is a successful, honest answer), 1 a
reported error (message on stderr) or, for ``eval``, a failed gate (a leak,
exposure, invalid citation, false answer, or a missed threshold), 2 usage
error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import core  # noqa: F401  (offline switches first)
from core.cli_ask import ask_op, cmd_ask, match_documents  # noqa: F401 - re-exported (tests, engine)
from core.cli_format import ASK_STAGES, REASON_TEXT, ask_stage_line, format_answer, reason_words  # noqa: F401
from core.cli_index import _ray_address, cmd_index  # noqa: F401 - re-exported (tests)
from core.errors import Cancelled, CoreError
from core.settings import Settings

__all__ = ["ASK_STAGES", "REASON_TEXT", "ask_op", "ask_stage_line", "build_parser", "cmd_ask", "cmd_index",
           "format_answer", "main", "match_documents", "reason_words"]

# core.pipeline, core.store and core.passages are imported where they are used: ``verbatim ask``
# answered by a warm engine (core.engine_server) never loads them, nor the libraries behind them.


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
                       help="search only this document (repeatable): its file path or a part of its file name "
                            "(any case; spaces, underscores and punctuation ignored), e.g. contracts/msa.pdf, "
                            "canopetroleum; a part of several names lists them; default: the documents the question names")
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
