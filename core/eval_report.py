"""``verbatim eval``'s metrics and report: the metrics from the judged cases (each with its own
count, never blended; defined in :mod:`core.evaluate`'s docstring), the gate that decides the exit
status, the Markdown report and the per-case comparison with an earlier report.

Split from :mod:`core.evaluate` by concern.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.eval_judge import CaseResult, Mode
from core.eval_passages import passage_metrics

class Metric(BaseModel):
    """A ratio with its counts; ``value`` is ``None`` when the denominator is 0."""

    name: str
    numerator: int
    denominator: int
    unit: str = Field(description="What is counted, e.g. 'gold quotes', 'cases'.")
    target: str = ""

    @property
    def value(self) -> float | None:
        return self.numerator / self.denominator if self.denominator else None


class EvalReport(BaseModel):
    """The evaluator's output (``--json``)."""

    mode: str
    k: int
    backend: str = ""
    cases_file: str
    workspaces_file: str
    metrics: dict[str, Metric]
    failures_by_class: dict[str, int]
    cases: list[CaseResult]
    problems: list[str] = Field(default_factory=list, description="Why the run fails (exit status 1).")

    @property
    def passed(self) -> bool:
        return not self.problems


def compute_metrics(results: list[CaseResult], mode: Mode, k: int,
                    expected: dict[str, list[str]] | None = None) -> dict[str, Metric]:
    """The report's metrics from per-case results (see the module docstring).

    Args:
        expected: case id → ``expected_docs`` paths, for the document-resolution metrics.
    """
    expected = expected or {}
    answerable = [r for r in results if r.gold_retrieved]
    quotes = [ok for r in answerable for ok in (r.gold_retrieved_top_k or r.gold_retrieved)]
    delivered = [ok for r in answerable for ok in r.gold_retrieved]
    m: dict[str, Metric] = {
        # recall@k: the k retrieved chunks as delivered, each with its bounded continuation
        # (core.small_to_big.CONTINUATION_CHARS characters at most on each side), judged by eval_judge
        "recall_at_k": Metric(name=f"recall@{k} (gold quotes, chunks with their continuation)", numerator=sum(quotes), denominator=len(quotes),
                              unit="gold quotes", target="1.0 on the lab"),
        "recall_delivered": Metric(name="recall, all delivered chunks (more when a question names its document)",
                                   numerator=sum(delivered), denominator=len(delivered), unit="gold quotes"),
        "cases_fully_retrieved": Metric(name="cases with every gold quote delivered",
                                        numerator=sum(all(r.gold_retrieved) for r in answerable),
                                        denominator=len(answerable), unit="answerable cases"),
        "cross_workspace_leaks": Metric(name="cross-workspace leaks", numerator=sum(bool(r.leaks) for r in results),
                                        denominator=len(results), unit="cases", target="0"),
        "ineligible_exposure": Metric(name="quarantined/superseded content delivered or cited",
                                      numerator=sum(bool(r.exposures) for r in results), denominator=len(results),
                                      unit="cases", target="0"),
    }
    named = [(r, expected[r.case_id]) for r in results if expected.get(r.case_id)]
    m["document_resolution"] = Metric(
        name="document resolution (first scoped document is an expected one)",
        numerator=sum(bool(r.scope) and any(r.scope[0].endswith(e) for e in exp) for r, exp in named),
        denominator=len(named), unit="cases with expected documents")
    m["wrong_restrictions"] = Metric(
        name="  wrong restrictions (scope holds no expected document)",
        numerator=sum(bool(r.scope) and not any(d.endswith(e) for d in r.scope for e in exp) for r, exp in named),
        denominator=len(named), unit="cases with expected documents", target="0")
    m["forbidden_documents"] = Metric(name="forbidden documents delivered or cited",
                                      numerator=sum(bool(r.forbidden) for r in results),
                                      denominator=len(results), unit="cases", target="0")
    if mode != "retrieval":
        cits = [c for r in results for c in r.citations]
        m["citation_validity"] = Metric(name="citation validity (exists, delivered, eligible, verified)",
                                        numerator=sum(c.valid for c in cits), denominator=len(cits),
                                        unit="citations", target="1.0")
        for key, label in (("exists", "exist"), ("delivered", "delivered"), ("eligible", "eligible"),
                           ("verified", "verified")):
            m[f"citations_{key}"] = Metric(name=f"  citations {label}", numerator=sum(getattr(c, key) for c in cits),
                                           denominator=len(cits), unit="citations")
        gold = [ok for r in results for ok in r.gold_cited]
        m["claim_coverage"] = Metric(name="claim coverage (gold quotes cited)", numerator=sum(gold),
                                     denominator=sum(len(r.gold_retrieved) for r in answerable), unit="gold quotes")
        judged = [r for r in results if r.status]
        must = [r for r in judged if r.must_abstain]
        can = [r for r in judged if not r.must_abstain]
        false_answers = sum(r.status != "abstained" for r in must)
        false_abst = sum(r.status == "abstained" for r in can)
        if any(r.kind == "passages" for r in results):
            m.update({key: Metric(**fields) for key, fields in passage_metrics(
                results, [r for r in answerable if r.status]).items()})
        m["abstention_accuracy"] = Metric(name="abstention accuracy", numerator=len(judged) - false_answers - false_abst,
                                          denominator=len(judged), unit="answered cases")
        m["false_answers"] = Metric(name="  false answers (must abstain, answered)", numerator=false_answers,
                                    denominator=len(must), unit="must-abstain cases", target="0")
        m["must_abstain_accuracy"] = Metric(name="  abstained when it must", numerator=len(must) - false_answers,
                                            denominator=len(must), unit="must-abstain cases")
        m["false_abstentions"] = Metric(name="  false abstentions (answerable, abstained)", numerator=false_abst,
                                        denominator=len(can), unit="answerable cases")
        m["missing_answers"] = Metric(name="cases without an answer", numerator=len(results) - len(judged),
                                      denominator=len(results), unit="cases")
    return m


Thresholds = dict[str, float]
"""Metric key → minimum value (ratios) from the command line, e.g. ``{"recall_at_k": 1.0}``."""


def gate(metrics: dict[str, Metric], mode: Mode, thresholds: Thresholds | None = None) -> list[str]:
    """Why the run fails: always on a leak, an exposure, an invalid citation or a false answer;
    otherwise on a metric under its threshold."""
    problems: list[str] = []
    for key in ("cross_workspace_leaks", "ineligible_exposure", "forbidden_documents"):
        if metrics[key].numerator:
            problems.append(f"{metrics[key].name}: {metrics[key].numerator} case(s)")
    if mode != "retrieval":
        cv = metrics["citation_validity"]
        if cv.numerator < cv.denominator:
            problems.append(f"invalid citations: {cv.denominator - cv.numerator} of {cv.denominator}")
        if metrics["false_answers"].numerator:
            problems.append(f"false answers: {metrics['false_answers'].numerator} must-abstain case(s) answered")
    for key, minimum in (thresholds or {}).items():
        metric = metrics.get(key)
        if metric is None:
            problems.append(f"threshold on unknown metric {key!r}")
        elif metric.value is not None and metric.value < minimum:
            problems.append(f"{metric.name}: {metric.value:.3f} < {minimum}")
    return problems

def format_report(report: EvalReport) -> str:
    """Markdown: the metrics table, failures by class, and one row per failing case."""
    lines = [f"Evaluation ({report.mode}{', ' + report.backend if report.backend else ''}, k={report.k}): "
             f"{len(report.cases)} cases", "", "| metric | value | count | target |", "|---|---|---|---|"]
    for metric in report.metrics.values():
        value = "n/a" if metric.value is None else f"{metric.value:.3f}"
        lines.append(f"| {metric.name} | {value} | {metric.numerator}/{metric.denominator} {metric.unit} | "
                     f"{metric.target} |")
    if report.mode != "retrieval":
        lines.append("| support (NLI/judge) | not computed | | |")
    lines += ["", "Failures by class: " + ", ".join(f"{k} {v}" for k, v in report.failures_by_class.items())]
    failing = [r for r in report.cases if r.failures]
    if failing:
        lines += ["", "| case | workspace | class | detail |", "|---|---|---|---|"]
        for r in failing:
            detail = []
            if r.leaks:
                detail.append("other workspace: " + ", ".join(r.leaks[:3]))
            if r.exposures:
                detail.append("ineligible: " + ", ".join(r.exposures[:3]))
            if r.forbidden:
                detail.append("forbidden: " + ", ".join(r.forbidden[:3]))
            bad = [c for c in r.citations if not c.valid]
            for c in bad[:3]:
                why = [w for w, ok in (("missing", c.exists), ("not delivered", c.delivered),
                                       ("ineligible", c.eligible), ("unverified", c.verified)) if not ok]
                if c.other_workspace:
                    why.append("other workspace")
                detail.append(f"citation {c.chunk_id}: {', '.join(why)}")
            detail += r.notes
            lines.append(f"| {r.case_id} | {r.workspace} | {', '.join(r.failures)} | {'; '.join(detail)} |")
    lines += ["", "PASS" if report.passed else "FAIL: " + "; ".join(report.problems)]
    return "\n".join(lines)


def compare(report: EvalReport, baseline: EvalReport) -> list[str]:
    """Per-case differences against an earlier report: ``better``/``worse``/``changed`` lines."""
    before = {r.case_id: r for r in baseline.cases}
    out: list[str] = []
    for r in report.cases:
        b = before.get(r.case_id)
        if b is None:
            out.append(f"new     {r.case_id}: {r.failure or 'pass'}")
        elif bool(b.failures) and not r.failures:
            out.append(f"better  {r.case_id}: {b.failure} -> pass")
        elif not b.failures and r.failures:
            out.append(f"worse   {r.case_id}: pass -> {r.failure}")
        elif b.failure != r.failure:
            out.append(f"changed {r.case_id}: {b.failure} -> {r.failure}")
    return out
