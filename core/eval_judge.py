"""``verbatim eval``'s judging: each case's delivered chunks and answer against the evaluator's own
index (recall, citations, access, passages shown), and its failures classified, first failing stage
first (:data:`FAILURE_ORDER`).

Split from :mod:`core.evaluate` by concern; the metrics are defined in :mod:`core.evaluate`'s
docstring and computed by :mod:`core.eval_report`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from core.eval_cases import EvalCase
from core.eval_passages import covered_by, judge_passages
from core.small_to_big import deliver
from core.normalize import normalized
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, Chunk, Trace
from core.verify import match_quote

Mode = Literal["retrieval", "live", "answers"]
FAILURE_ORDER = ("access", "retrieval", "citation", "abstention", "generation")
COVERAGE_FOR_LONG_QUOTES = 0.8
"""Share of a long quote's normalized characters that delivered chunks must cover (DESIGN.md)."""


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
    gold_retrieved: list[bool] = Field(
        default_factory=list, description="Per gold quote: in the delivered chunks, each with its bounded continuation "
        "(core.small_to_big: the rest of a sentence cut at the chunk's ends, at most CONTINUATION_CHARS a side).")
    gold_retrieved_top_k: list[bool] = Field(
        default_factory=list, description="Per gold quote: in the first k delivered chunks (k = settings.top_k), each "
        "with its bounded continuation as delivered (recall@k counts k retrieved chunks, not k + neighbours).")
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
        plain = [chunks[c] for c in delivered if c in chunks]
        # Judged as delivered: each chunk with its bounded continuation (core.small_to_big). The chunks as
        # stored are judged too, since an extension only adds text: a long quote that 80 % coverage found
        # in them stays found although the extended chunks are longer than it.
        # A passages answer (no model) is handed the chunks as stored: nothing was added to judge.
        delivered_chunks = plain if answer is not None and answer.kind == "passages" else deliver(ws.manifest, plain)
        fuzzy = self.settings.fuzzy_threshold

        def held(q: str, n: int | None = None) -> bool:
            return quote_retrieved(q, delivered_chunks[:n], fuzzy) or quote_retrieved(q, plain[:n], fuzzy)

        # A missing answer tells nothing about retrieval: the case counts only as missing.
        answerable = not case.must_abstain and bool(case.gold_quotes) and not missing_answer
        if answerable:
            result.gold_retrieved = [held(q) for q in case.gold_quotes]
            k = self.settings.top_k
            result.gold_retrieved_top_k = [
                ok and (len(delivered_chunks) <= k or held(q, k))
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
