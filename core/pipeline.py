"""The two operations: index folders, answer a question. Both are generators.

Each yields :class:`~core.types.ProgressEvent` and *returns* its result
(``IndexReport`` / ``Answer``), so the CLI draws a progress bar, the window
forwards ticks to a progress bar, and cancelling is stopping the iteration (or
a ``cancel`` callback polled inside long loops). :func:`run` drives a generator
to completion for callers that want only the result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from core.errors import Cancelled
from core.generate import Backend, make_backend
from core.ingest import span_rects
from core.prompts import RETRY_PROMPT, SYSTEM_PROMPT, user_message
from core.settings import Settings
from core.store import Workspace
from core.types import (
    Abstention,
    Answer,
    Chunk,
    ConsultedDoc,
    IndexReport,
    ModelAnswer,
    ProgressEvent,
    Rejected,
    RejectReason,
    ScoredChunk,
    Trace,
    answer_schema,
)
from core.verify import verify_claims

T = TypeVar("T")
CancelCheck = Callable[[], bool]


def run(gen: Generator[ProgressEvent, None, T], on_progress: Callable[[ProgressEvent], None] | None = None) -> T:
    """Drive a pipeline generator to its return value, passing each event to ``on_progress``."""
    while True:
        try:
            event = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(event)


def index_folders(
    workspace: Workspace, folders: list[str | Path], cancel: CancelCheck | None = None
) -> Generator[ProgressEvent, None, IndexReport]:
    """Index ``folders`` into ``workspace`` (see :meth:`Workspace.index`)."""
    return (yield from workspace.index(folders, cancel=cancel))


def reciprocal_rank_fusion(rankings: list[list[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = Σ 1 / (k + rank_i(d)), ranks 1-based.

    Source: Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
    Condorcet and individual Rank Learning Methods", SIGIR 2009 (k = 60).
    Ties keep first-seen order.
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def retrieve(workspace: Workspace, question: str, settings: Settings, trace: Trace, k: int | None = None) -> list[ScoredChunk]:
    """Hybrid retrieval: BM25 ∥ dense → RRF → eligibility → top ``k`` (default ``settings.top_k``).

    Ineligible documents (status other than ``active``) are excluded inside both
    store queries, and again after fusion against the manifest, so a chunk the
    manifest does not know (e.g. left by an interrupted write) never reaches
    the model. Fills ``trace.bm25/dense/fused/eligible/eligible_docs``.
    """
    k = k or settings.top_k
    exclude = workspace.ineligible_doc_ids()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        f_bm25 = pool.submit(workspace.bm25_search, question, settings.bm25_candidates, exclude)
        f_dense = pool.submit(workspace.dense_search, question, settings.dense_candidates, exclude)
        bm25, dense = f_bm25.result(), f_dense.result()
    trace.timings_ms["retrieve"] = round((time.perf_counter() - t0) * 1000, 1)
    fused = reciprocal_rank_fusion([bm25, dense], k=settings.rrf_k)
    trace.bm25, trace.dense, trace.fused = bm25, dense, [cid for cid, _ in fused]
    chunks = workspace.get_chunks(trace.fused)
    eligible_docs = workspace.eligible_doc_ids()
    eligible = [(cid, s) for cid, s in fused if cid in chunks and chunks[cid].doc_id in eligible_docs]
    trace.eligible = [cid for cid, _ in eligible]
    trace.eligible_docs = sorted(eligible_docs)
    bm25_rank = {c: i for i, c in enumerate(bm25, 1)}
    dense_rank = {c: i for i, c in enumerate(dense, 1)}
    return [
        ScoredChunk(chunk=chunks[cid], score=s, bm25_rank=bm25_rank.get(cid), dense_rank=dense_rank.get(cid))
        for cid, s in eligible[:k]
    ]


def _consulted(chunks: list[Chunk]) -> list[ConsultedDoc]:
    by_doc: dict[str, ConsultedDoc] = {}
    for c in chunks:
        doc = by_doc.setdefault(c.doc_id, ConsultedDoc(doc_id=c.doc_id, path=c.path, pages=[]))
        if c.page not in doc.pages:
            doc.pages.append(c.page)
    for doc in by_doc.values():
        doc.pages.sort()
    return list(by_doc.values())


def _abstain(question: str, workspace: str, message: str, context: list[Chunk], trace: Trace,
             rejected: list[Rejected] | None = None) -> Answer:
    return Answer(
        question=question,
        workspace=workspace,
        status="abstained",
        claims=[],
        rejected=rejected or [],
        abstention=Abstention(message=message, query=question, consulted=_consulted(context)),
        trace=trace,
    )


def fit_context(backend: Backend, question: str, ranked: list[Chunk], budget_tokens: int) -> tuple[list[Chunk], list[Chunk], int]:
    """Keep the best-ranked chunks whose prompt fits ``budget_tokens``.

    Returns:
        ``(kept, dropped, prompt_tokens)``; dropped chunks are the lowest-ranked,
        never truncated.
    """
    kept: list[Chunk] = []
    dropped: list[Chunk] = []
    base = backend.count_tokens(SYSTEM_PROMPT) + backend.count_tokens(user_message(question, [])) + 16
    used = base
    for chunk in ranked:
        cost = backend.count_tokens(chunk.text) + 24  # tag and separators
        if used + cost <= budget_tokens and not dropped:
            kept.append(chunk)
            used += cost
        else:
            dropped.append(chunk)
    return kept, dropped, used


def answer_question(
    workspace: Workspace,
    question: str,
    settings: Settings | None = None,
    backend: Backend | None = None,
    cancel: CancelCheck | None = None,
) -> Generator[ProgressEvent, None, Answer]:
    """Answer ``question`` from ``workspace`` with verified citations, or abstain.

    Stages (each announced by a ProgressEvent): retrieving, generating,
    verifying. Malformed model output is retried once with the validation
    errors; a second failure abstains with reason ``model_output_invalid``.

    Args:
        backend: generator to use; ``None`` picks one with :func:`make_backend`.
        cancel: polled between stages; raises :class:`Cancelled` when True.

    Raises:
        ModelUnavailableError: no backend can run.
        Cancelled: the user stopped the operation.
    """
    settings = settings or workspace.settings
    cancel = cancel or (lambda: False)
    trace = Trace()
    t_all = time.perf_counter()
    question = question.strip()
    yield ProgressEvent(stage="retrieving", message="Searching the documents")
    ranked = retrieve(workspace, question, settings, trace)
    if cancel():
        raise Cancelled()
    if not ranked:
        trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 1)
        return _abstain(question, workspace.name,
                        "Nothing in this workspace matches the question; no document was given to the model.",
                        [], trace)
    if backend is None:
        yield ProgressEvent(stage="loading", message="Loading the model")
        backend = make_backend(settings)
    trace.backend, trace.model = backend.name, backend.model
    answer_tokens = settings.answer_tokens if backend.name != "embedded" else settings.embedded_answer_tokens
    budget = backend.context_window - answer_tokens
    context, dropped, prompt_tokens = fit_context(backend, question, [s.chunk for s in ranked], budget)
    trace.context = [c.chunk_id for c in context]
    trace.dropped = [c.chunk_id for c in dropped]
    trace.truncated = bool(dropped)
    trace.prompt_tokens = prompt_tokens
    if not context:
        return _abstain(question, workspace.name, "The question is too long for the model's context window.", [], trace)
    delivered = {c.chunk_id: c for c in context}
    schema = answer_schema(list(delivered))
    messages = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_message(question, context)},
    ]
    num_ctx = min(backend.context_window, prompt_tokens + answer_tokens)
    model_answer: ModelAnswer | None = None
    t_gen = time.perf_counter()
    for attempt in (1, 2):
        if cancel():
            raise Cancelled()
        yield ProgressEvent(stage="generating", done=attempt - 1, total=2,
                            message=f"Generating with {backend.name} ({backend.model})")
        result = backend.chat_json(messages, schema, num_ctx=num_ctx, max_tokens=answer_tokens)
        trace.attempts = attempt
        if result.prompt_tokens:
            trace.prompt_tokens = result.prompt_tokens
        try:
            model_answer = ModelAnswer.model_validate_json(result.text)
            break
        except ValidationError as exc:
            errors = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
            messages = messages + [
                {"role": "assistant", "content": result.text[:2000]},
                {"role": "user", "content": RETRY_PROMPT.format(errors=errors)},
            ]
    trace.timings_ms["generate"] = round((time.perf_counter() - t_gen) * 1000, 1)
    if model_answer is None:
        trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 1)
        return _abstain(
            question, workspace.name, "The model's output was not valid twice; no answer can be shown.",
            context, trace, [Rejected(claim="", reason=RejectReason.model_output_invalid)],
        )
    if cancel():
        raise Cancelled()
    yield ProgressEvent(stage="verifying", message="Checking every quote against the source")
    t_ver = time.perf_counter()
    claims, rejected = verify_claims(
        model_answer, delivered,
        min_quote_chars=settings.min_quote_chars,
        fuzzy_threshold=settings.fuzzy_threshold,
        rects=lambda chunk, s, e: span_rects(chunk.path, chunk.page, s, e),
    )
    trace.timings_ms["verify"] = round((time.perf_counter() - t_ver) * 1000, 1)
    trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 1)
    if not model_answer.answer_found or not claims:
        message = (
            "The documents consulted do not answer this question."
            if not model_answer.answer_found or not model_answer.claims
            else "The model answered, but none of its quotes could be found in the cited passages."
        )
        # The model's own "missing" text is unverified: it goes to the trace, never
        # into the message a user could read as a finding.
        trace.model_missing = model_answer.missing.strip()
        return _abstain(question, workspace.name, message, context, trace, rejected)
    dropped_claims = any(r.reason in (RejectReason.no_citation, RejectReason.fact_not_in_quote) for r in rejected)
    return Answer(
        question=question,
        workspace=workspace.name,
        status="partial" if dropped_claims else "answered",
        claims=claims,
        rejected=rejected,
        abstention=None,
        trace=trace,
    )
