"""``verbatim eval``: judge retrieval and answers case by case, every metric with its own count.

Inputs: evaluation cases (JSONL, DESIGN.md "Evaluation case"), a ``workspaces.toml``
(:mod:`core.workspaces`), and one source of answers:

* ``retrieval`` — no generation: each case's question is retrieved in its
  workspace and the top ``k`` eligible chunks count as delivered (access and
  retrieval are judged);
* ``live`` — the pipeline answers with a backend (embedded or Ollama);
* ``answers`` — saved :class:`~core.types.Answer` records (what ``verbatim ask
  --json`` prints) are judged without trusting them: every cited chunk is
  looked up in the evaluator's own index and every quote checked again.

Each workspace is indexed into its own store under the evaluator's index
folder (never the user's workspaces), then the file's statuses are applied.

Metrics (never blended; each reports numerator and denominator):

* ``recall@k`` — gold quotes found in delivered chunks / gold quotes of
  answerable cases. A quote is found when :func:`core.verify.match_quote`
  locates it in one delivered chunk, or — for a quote longer than every
  delivered chunk of its document — when those chunks together cover at least
  80 % of its normalized characters (DESIGN.md), so the metric does not depend
  on chunking. ``cases fully retrieved`` counts cases with all quotes found.
* ``citation validity`` — citations that exist in the case's workspace, were
  delivered (in ``trace.context``), belong to an eligible (active) document and
  whose quote is found again in the chunk / all citations.
* ``claim coverage`` — gold quotes overlapped by a valid citation / gold quotes
  of answerable cases. ``support`` (NLI/judge) is not computed.
* ``passage hit`` (passages answers, ``--backend passages``) — gold quotes of which
  a shown passage covers at least half the characters (:func:`span_covers`) / gold
  quotes of answerable cases; a passage is shown with its clause (``claim.context``,
  small-to-big), which counts when it is found again in its chunk; ``passage hit, sentences
  only`` counts the scored spans alone. ``abstained when it must`` counts must-abstain cases
  answered with NO_EVIDENCE.
* ``weak passages`` (passages answers, issue #20) — an abstention under the score threshold
  still shows the closest passages, marked weak (``abstention.candidates``): it counts as an
  abstention (false abstention on an answerable case) *with candidates*; ``gold shown as weak
  passages`` counts the gold quotes they cover, and ``passage hit or weak`` the gold quotes the
  user sees either way.
* ``abstention accuracy`` — correct decisions / cases, with ``false answers``
  (answered a must-abstain case) / must-abstain cases and ``false
  abstentions`` / answerable cases reported apart.
* ``cross-workspace leaks`` — cases where a chunk of a document that is not in
  the case's workspace was delivered or cited (target 0).
* ``ineligible exposure`` — cases where a chunk of a quarantined or superseded
  document was delivered or cited (target 0).
* ``forbidden documents`` — cases where a chunk of one of the case's
  ``forbidden_docs`` was delivered or cited.

Each failing case is classified, first failing stage first: ``access``,
``retrieval``, ``citation``, ``abstention``, ``generation``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.errors import CoreError
# the split modules' names, re-exported: ``from core.evaluate import ...`` is the public API
from core.eval_cases import EvalCase, default_index_dir, load_answers, load_cases
from core.eval_judge import (
    COVERAGE_FOR_LONG_QUOTES,
    FAILURE_ORDER,
    CaseResult,
    CitationCheck,
    Mode,
    _Judge,
    quote_retrieved,
)
from core.eval_passages import PASSAGE_COVERAGE, covered_by, judge_passages, passage_metrics, span_covers
from core.eval_report import EvalReport, Metric, Thresholds, compare, compute_metrics, format_report, gate
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, ProgressEvent, Trace
from core.workspaces import WorkspacesConfig, index_workspace

__all__ = [
    "COVERAGE_FOR_LONG_QUOTES", "FAILURE_ORDER", "PASSAGE_COVERAGE", "CaseResult", "CitationCheck", "EvalCase",
    "EvalReport", "Metric", "Mode", "Thresholds", "compare", "compute_metrics", "covered_by", "default_index_dir",
    "evaluate", "format_report", "gate", "judge_passages", "load_answers", "load_cases", "open_workspaces",
    "passage_metrics", "quote_retrieved", "span_covers",
]


# --- running ------------------------------------------------------------------


def open_workspaces(config: WorkspacesConfig, settings: Settings, root: Path,
                    on_progress: Callable[[ProgressEvent], None] | None = None) -> dict[str, Workspace]:
    """Index every workspace of ``config`` into ``root`` (incremental) and apply its statuses.

    Raises:
        CoreError: a declared document matches nothing (names the file), or indexing fails.
    """
    out: dict[str, Workspace] = {}
    for name in config.spec.workspaces:
        ws, report, unmatched = index_workspace(config, name, settings, root=root, on_progress=on_progress)
        if unmatched:
            raise CoreError(f"{config.path}: workspace {name!r} declares unknown documents {unmatched}")
        out[name] = ws
    return out


def evaluate(
    cases: list[EvalCase],
    config: WorkspacesConfig,
    *,
    mode: Mode,
    settings: Settings | None = None,
    index_dir: Path | None = None,
    answers: list[Answer] | None = None,
    backend=None,
    thresholds: Thresholds | None = None,
    cases_file: str = "",
    on_progress: Callable[[ProgressEvent], None] | None = None,
    use_scope_docs: bool = False,
) -> EvalReport:
    """Run the evaluation and return the report (its ``problems`` decide the exit status).

    Args:
        mode: ``retrieval`` | ``live`` (needs ``backend``) | ``answers`` (needs ``answers``).
        index_dir: where the workspaces' stores go; default :func:`default_index_dir`.
        use_scope_docs: search each case inside its ``scope_docs`` (the user's choice) instead of
            resolving the documents its question names.

    Raises:
        CoreError: a case names a workspace the file does not declare.
    """
    from core.pipeline import answer_question, retrieve, run

    settings = settings or Settings()
    unknown = sorted({c.workspace for c in cases} - set(config.spec.workspaces))
    if unknown:
        raise CoreError(f"{cases_file or 'cases'}: workspaces {unknown} are not declared in {config.path}")
    workspaces = open_workspaces(config, settings, index_dir or default_index_dir(config.path), on_progress)
    judge = _Judge(workspaces, settings)
    by_question = {(a.workspace, a.question.strip()): a for a in answers or []}
    results: list[CaseResult] = []
    for i, case in enumerate(cases):
        if on_progress:
            on_progress(ProgressEvent(stage="eval", done=i, total=len(cases), message=case.case_id))
        ws = workspaces[case.workspace]
        scope = _scope_ids(ws, case.scope_docs) if use_scope_docs and case.scope_docs else None
        if mode == "retrieval":
            trace = Trace()
            ranked = retrieve(ws, case.question, settings, trace, scope=scope)
            results.append(judge.judge(case, mode, [s.chunk.chunk_id for s in ranked], None, trace=trace))
        elif mode == "live":
            answer = run(answer_question(ws, case.question, settings, backend=backend, scope=scope))
            results.append(judge.judge(case, mode, answer.trace.context, answer))
        else:
            answer = by_question.get((case.workspace, case.question.strip()))
            results.append(judge.judge(case, mode, answer.trace.context if answer else [], answer,
                                       missing_answer=answer is None))
    metrics = compute_metrics(results, mode, settings.top_k, {c.case_id: c.expected_docs for c in cases})
    counts = {f: sum(r.failure == f for r in results) for f in FAILURE_ORDER}
    return EvalReport(
        mode=mode, k=settings.top_k, backend=getattr(backend, "name", "") if backend else "",
        cases_file=cases_file, workspaces_file=str(config.path), metrics=metrics, failures_by_class=counts,
        cases=results, problems=gate(metrics, mode, thresholds),
    )


# --- output -------------------------------------------------------------------


def _scope_ids(ws: Workspace, paths: list[str]) -> list[str]:
    """Doc ids of ``ws`` whose id ends with one of ``paths`` (as ``expected_docs`` match)."""
    return [d["doc_id"] for d in ws.documents() if any(d["doc_id"].endswith(p) for p in paths)]
