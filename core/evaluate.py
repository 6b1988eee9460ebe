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

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from core.errors import CoreError
from core.eval_passages import PASSAGE_COVERAGE, covered_by, judge_passages, passage_metrics, span_covers  # noqa: F401
from core.normalize import normalized
from core.paths import data_dir
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, Chunk, ProgressEvent, Trace
from core.verify import match_quote
from core.workspaces import WorkspacesConfig, index_workspace

Mode = Literal["retrieval", "live", "answers"]
FAILURE_ORDER = ("access", "retrieval", "citation", "abstention", "generation")
COVERAGE_FOR_LONG_QUOTES = 0.8
"""Share of a long quote's normalized characters that delivered chunks must cover (DESIGN.md)."""


class EvalCase(BaseModel):
    """One evaluation case (DESIGN.md, "Evaluation case")."""

    case_id: str
    workspace: str
    question: str
    must_abstain: bool
    gold_quotes: list[str] = Field(default_factory=list)
    expected_docs: list[str] = Field(default_factory=list)
    forbidden_docs: list[str] = Field(default_factory=list)
    scope_docs: list[str] = Field(
        default_factory=list,
        description="Optional: the documents the user would have chosen (paths matched like expected_docs); used "
        "only with use_scope_docs, since by default the evaluator measures automatic resolution.",
    )
    source: dict | None = None


class CitationCheck(BaseModel):
    """One citation of an answer, judged against the evaluator's own index."""

    chunk_id: str
    doc_id: str
    exists: bool = Field(description="The chunk exists in the case's workspace.")
    delivered: bool = Field(description="The chunk is in the answer's trace.context.")
    eligible: bool = Field(description="Its document is active in the workspace.")
    verified: bool = Field(description="The quote is found again in the chunk (match_quote).")
    other_workspace: bool = Field(False, description="Its document belongs only to another workspace.")

    @property
    def valid(self) -> bool:
        return self.exists and self.delivered and self.eligible and self.verified and not self.other_workspace


class CaseResult(BaseModel):
    """Everything judged for one case."""

    case_id: str
    workspace: str
    must_abstain: bool
    status: str = Field("", description="answered | partial | abstained; '' in retrieval mode or when missing.")
    delivered: list[str] = Field(default_factory=list, description="Chunk ids delivered (rank order).")
    gold_retrieved: list[bool] = Field(default_factory=list, description="Per gold quote: in the delivered chunks.")
    gold_retrieved_top_k: list[bool] = Field(
        default_factory=list, description="Per gold quote: in the first k delivered chunks (k = settings.top_k).")
    scope: list[str] = Field(default_factory=list, description="Doc ids the question was searched in (empty = all).")
    scope_method: str = Field("", description="How the scope was chosen (trace.scope.method).")
    gold_cited: list[bool] = Field(default_factory=list)
    gold_shown: list[bool] = Field(
        default_factory=list,
        description="Passages answers: per gold quote, whether a shown passage covers it (span_covers).",
    )
    gold_shown_sentence: list[bool] = Field(
        default_factory=list, description="Passages answers: per gold quote, whether a shown span alone (without "
        "its clause) covers it.")
    gold_weak: list[bool] = Field(
        default_factory=list, description="Passages abstentions: per gold quote, whether a weak passage "
        "(abstention.candidates, with its clause) covers it.")
    kind: str = Field("", description="The answer's kind: 'model' or 'passages'; '' without an answer.")
    candidates: int = Field(0, description="Weak passages the abstention showed (abstention.candidates).")
    passage_best_score: float | None = Field(
        None, description="Passages answers: the best span's score (trace.passage_best_score), to compare with "
        "the abstention threshold (passage_threshold)."
    )
    passage_threshold: float | None = Field(
        None, description="Passages answers: the threshold the best span's score was compared with (trace.passage_threshold)."
    )
    citations: list[CitationCheck] = Field(default_factory=list)
    leaks: list[str] = Field(default_factory=list, description="Chunk ids of documents outside the workspace.")
    exposures: list[str] = Field(default_factory=list, description="Chunk ids of quarantined/superseded documents.")
    forbidden: list[str] = Field(default_factory=list, description="Chunk ids of the case's forbidden documents.")
    failures: list[str] = Field(default_factory=list, description="Failure classes, first failing stage first.")
    notes: list[str] = Field(default_factory=list)

    @property
    def failure(self) -> str:
        return self.failures[0] if self.failures else ""


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


# --- inputs -------------------------------------------------------------------


def load_cases(path: str | Path) -> list[EvalCase]:
    """Read a JSONL cases file (blank lines skipped).

    Raises:
        CoreError: unreadable file, or a line that is not a valid case (names file and line).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CoreError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    cases: list[EvalCase] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cases.append(EvalCase.model_validate_json(line))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors()[:3])
            raise CoreError(f"{path}, line {n}: not a valid case ({problems})") from exc
    ids = [c.case_id for c in cases]
    if len(set(ids)) != len(ids):
        raise CoreError(f"{path}: duplicate case_id {sorted({i for i in ids if ids.count(i) > 1})}")
    return cases


def load_answers(path: str | Path) -> list[Answer]:
    """Read saved answers: a JSON array, JSON lines, or ``verbatim ask --json`` outputs concatenated.

    Raises:
        CoreError: unreadable file, or a record that is not an ``Answer`` (names file and record).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CoreError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    decoder = json.JSONDecoder()
    records: list = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            obj, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise CoreError(f"{path}: not JSON at character {pos} ({exc.msg})") from exc
        records.extend(obj if isinstance(obj, list) else [obj])
    answers: list[Answer] = []
    for n, rec in enumerate(records, start=1):
        try:
            answers.append(Answer.model_validate(rec))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
            raise CoreError(f"{path}, record {n}: not a verbatim Answer ({problems})") from exc
    return answers


def default_index_dir(workspaces_file: str | Path) -> Path:
    """The evaluator's own store folder for one workspaces file (inside the data folder)."""
    key = hashlib.sha1(str(Path(workspaces_file).resolve()).encode()).hexdigest()[:12]
    return data_dir() / "eval" / f"{Path(workspaces_file).parent.name}-{key}"


# --- judging ------------------------------------------------------------------


def _doc_of(chunk_id: str) -> str:
    return chunk_id.split("#", 1)[0]


def _covered(quote: str, chunks: list[Chunk]) -> float:
    """Share of the normalized quote's characters inside common runs of at least 20 characters
    with ``chunks`` (difflib matching blocks)."""
    return covered_by(quote, [chunk.text for chunk in chunks])


def quote_retrieved(quote: str, chunks: list[Chunk], fuzzy_threshold: float = 92.0) -> bool:
    """True when ``quote`` is in one of ``chunks`` (match_quote), or, for a quote longer than every
    chunk of a document, when that document's chunks cover :data:`COVERAGE_FOR_LONG_QUOTES` of it."""
    if any(match_quote(quote, c.text, fuzzy_threshold=fuzzy_threshold) for c in chunks):
        return True
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    n = len(normalized(quote))
    return any(
        n > max(len(normalized(c.text)) for c in cs) and _covered(quote, cs) >= COVERAGE_FOR_LONG_QUOTES
        for cs in by_doc.values()
    )


class _Judge:
    """Looks chunk ids up in every workspace of the file (to tell leaks from unknown ids)."""

    def __init__(self, workspaces: dict[str, Workspace], settings: Settings) -> None:
        self.workspaces = workspaces
        self.settings = settings
        self.docs = {name: {d["doc_id"]: d["status"] for d in ws.documents()} for name, ws in workspaces.items()}

    def judge(self, case: EvalCase, mode: Mode, delivered: list[str], answer: Answer | None,
              missing_answer: bool = False, trace: Trace | None = None) -> CaseResult:
        ws = self.workspaces[case.workspace]
        own = self.docs[case.workspace]
        others = {d for name, docs in self.docs.items() if name != case.workspace for d in docs}
        result = CaseResult(case_id=case.case_id, workspace=case.workspace, must_abstain=case.must_abstain,
                            delivered=list(delivered))
        cited_ids = [cit.chunk_id for claim in (answer.claims if answer else []) for cit in claim.citations]
        for cid in list(dict.fromkeys(delivered + cited_ids)):
            doc = _doc_of(cid)
            if doc not in own and doc in others:
                result.leaks.append(cid)
            if own.get(doc, "active") != "active":
                result.exposures.append(cid)
            if any(doc.endswith(f) for f in case.forbidden_docs):
                result.forbidden.append(cid)
        chunks = ws.get_chunks(delivered)
        delivered_chunks = [chunks[c] for c in delivered if c in chunks]
        # A missing answer tells nothing about retrieval: the case counts only as missing.
        answerable = not case.must_abstain and bool(case.gold_quotes) and not missing_answer
        if answerable:
            result.gold_retrieved = [
                quote_retrieved(q, delivered_chunks, self.settings.fuzzy_threshold) for q in case.gold_quotes
            ]
            top = delivered_chunks[: self.settings.top_k]
            result.gold_retrieved_top_k = [
                ok and (len(delivered_chunks) <= len(top) or quote_retrieved(q, top, self.settings.fuzzy_threshold))
                for q, ok in zip(case.gold_quotes, result.gold_retrieved)
            ]
        if trace is not None:
            result.scope, result.scope_method = list(trace.scope.doc_ids), trace.scope.method
        if answer is not None:
            if trace is None:
                result.scope, result.scope_method = list(answer.trace.scope.doc_ids), answer.trace.scope.method
            result.status = answer.status
            self._judge_answer(case, answer, set(delivered), own, others, result)
        # classification, first failing stage first
        if result.leaks or result.exposures or result.forbidden:
            result.failures.append("access")
        if answerable and not all(result.gold_retrieved):
            result.failures.append("retrieval")
            result.notes.append(
                "not retrieved: " + "; ".join(q[:60] for q, ok in zip(case.gold_quotes, result.gold_retrieved) if not ok)
            )
        if mode != "retrieval":
            if any(not c.valid for c in result.citations):
                result.failures.append("citation")
            abstained = result.status == "abstained"
            if missing_answer:
                result.failures.append("generation")
                result.notes.append("no answer for this case in the answers file")
            elif case.must_abstain and not abstained:
                result.failures.append("abstention")
                result.notes.append("answered a must-abstain case")
            elif not case.must_abstain and abstained:
                result.failures.append("abstention")
                result.notes.append("abstained on an answerable case")
            elif answerable and not all(result.gold_cited):
                result.failures.append("generation")
                result.notes.append("answer does not cite every gold quote")
        result.failures = [f for f in FAILURE_ORDER if f in result.failures]
        return result

    def _judge_answer(self, case: EvalCase, answer: Answer, delivered: set[str], own: dict[str, str],
                      others: set[str], result: CaseResult) -> None:
        ws = self.workspaces[case.workspace]
        result.passage_best_score = answer.trace.passage_best_score
        result.passage_threshold = answer.trace.passage_threshold
        result.kind = answer.kind
        result.candidates = len(answer.abstention.candidates) if answer.abstention is not None else 0
        cited = [cit for claim in answer.claims for cit in claim.citations]
        chunks = ws.get_chunks(c.chunk_id for c in cited)
        spans: list[tuple[str, int, int, int]] = []  # doc, page, start, end of valid citations (page offsets)
        for cit in cited:
            chunk = chunks.get(cit.chunk_id)
            doc = _doc_of(cit.chunk_id)
            found = None
            if chunk is not None and len(normalized(cit.quote)) >= self.settings.min_quote_chars:
                found = match_quote(cit.quote, chunk.text, fuzzy_threshold=self.settings.fuzzy_threshold)
            check = CitationCheck(
                chunk_id=cit.chunk_id, doc_id=doc, exists=chunk is not None, delivered=cit.chunk_id in delivered,
                eligible=own.get(doc) == "active", verified=found is not None,
                other_workspace=doc not in own and doc in others,
            )
            result.citations.append(check)
            if check.valid and chunk is not None and found is not None:
                spans += [(chunk.doc_id, sp.page, sp.start, sp.end) for sp in chunk.page_spans(found.start, found.end)]
        if case.must_abstain or not case.gold_quotes:
            return
        if answer.kind == "passages":
            result.gold_shown_sentence, result.gold_shown, result.gold_weak = judge_passages(
                ws, case.gold_quotes, answer, result.citations, delivered, self.settings.fuzzy_threshold)
        valid_chunks = ws.get_chunks(c.chunk_id for c, chk in zip(cited, result.citations) if chk.valid)
        for quote in case.gold_quotes:
            hit = False
            for chunk in valid_chunks.values():
                m = match_quote(quote, chunk.text, fuzzy_threshold=self.settings.fuzzy_threshold)
                if m is None:
                    continue
                if any(d == chunk.doc_id and p == g.page and s < g.end and g.start < e
                       for g in chunk.page_spans(m.start, m.end) for d, p, s, e in spans):
                    hit = True
                    break
            result.gold_cited.append(hit)


# --- metrics ------------------------------------------------------------------


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
        "recall_at_k": Metric(name=f"recall@{k} (gold quotes)", numerator=sum(quotes), denominator=len(quotes),
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
