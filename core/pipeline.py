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
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from core.errors import Cancelled
from core.generate import Backend, backend_choice, make_backend, parse_model_answer, validation_summary
from core.ingest import span_rects_cached
from core.passages import passages_answer
from core.prompts import (
    EXPANDED_QUESTION,
    RETRY_PROMPT,
    SYSTEM_PROMPT,
    TRUNCATED_PROMPT,
    render_chunk,
    user_message,
)
from core.settings import Settings
from core.small_to_big import deliver_in_budget
from core.followup import (  # noqa: F401 - re-exported: callers import them from here
    FALLBACK_FORM,
    MAX_HISTORY_TURNS,
    condense_question,
    detect_follow_up,
    fallback_standalone,
    turn_of,
)
from core.rerank import hypothetical_passage, rerank_with_model
from core.retrieval import default_k, reciprocal_rank_fusion, retrieve  # noqa: F401 - re-exported
from core.store import Workspace
from core.streaming import ClaimHandler, call_backend
from core.translate import translation_round
from core.types import (
    Abstention,
    Answer,
    Chunk,
    ConsultedDoc,
    GenerationAttempt,
    IndexReport,
    ModelAnswer,
    ModelClaim,
    ProgressEvent,
    Rejected,
    RejectReason,
    RetrievalRound,
    Trace,
    Turn,
    answer_schema,
)
from core.dates import DocumentDateOrders
from core.claims import distinct_passages, name_duplicates  # noqa: F401 - distinct_passages re-exported
from core.verify import judge_claims, verify_claims

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


def _consulted(chunks: list[Chunk]) -> list[ConsultedDoc]:
    by_doc: dict[str, ConsultedDoc] = {}
    for c in chunks:
        doc = by_doc.setdefault(c.doc_id, ConsultedDoc(doc_id=c.doc_id, path=c.path, pages=[]))
        doc.pages.extend(p for p in c.pages if p not in doc.pages)  # a chunk may cross a page break
    for doc in by_doc.values():
        doc.pages.sort()
    return list(by_doc.values())


def _suggestion(context: list[Chunk]) -> str:
    if not context:
        return "Index the folder that holds the answer, or check that its files have extractable text."
    return "Try the words the document itself would use, or name the document or clause you mean."


def _abstain(question: str, workspace: str, message: str, context: list[Chunk], trace: Trace,
             rejected: list[Rejected] | None = None) -> Answer:
    """An abstention: zero claims, ``NO_EVIDENCE``, the query and the documents (with pages) consulted."""
    return Answer(
        question=question,
        workspace=workspace,
        status="abstained",
        claims=[],
        rejected=rejected or [],
        abstention=Abstention(message=message, query=question, consulted=_consulted(context),
                              suggestion=_suggestion(context)),
        trace=trace,
    )


def fit_context(backend: Backend, question: str, ranked: list[Chunk], budget_tokens: int) -> tuple[list[Chunk], list[Chunk], int]:
    """Keep the best-ranked chunks whose prompt fits ``budget_tokens``.

    Tokens are counted with ``backend.count_tokens`` (the model's tokenizer for
    the embedded backend; for Ollama an estimate fitted on real tokenizers and corrected by the
    server's counts, :mod:`core.tokens`), over the system
    prompt, the user message and each chunk rendered in its tag, plus a margin
    for the chat template (16 tokens) and per chunk (8).

    Returns:
        ``(kept, dropped, prompt_tokens)``; dropped chunks are the lowest-ranked,
        never truncated: once one chunk does not fit, every lower-ranked one is
        dropped too, so the context is always a prefix of the ranking.
    """
    kept: list[Chunk] = []
    dropped: list[Chunk] = []
    base = backend.count_tokens(SYSTEM_PROMPT) + backend.count_tokens(user_message(question, [])) + 16
    used = base
    for chunk in ranked:
        cost = backend.count_tokens(render_chunk(chunk)) + 8
        if used + cost <= budget_tokens and not dropped:
            kept.append(chunk)
            used += cost
        else:
            dropped.append(chunk)
    return kept, dropped, used


def _generate(
    backend: Backend, messages: list[dict], schema: dict, *, prompt_tokens: int, answer_tokens: int,
    trace: Trace, round_no: int, cancel: CancelCheck, on_claim: Callable[[int], ClaimHandler] | None = None,
) -> Generator[ProgressEvent, None, ModelAnswer | RejectReason]:
    """At most two calls; returns the parsed answer or the reason it failed.

    With ``on_claim`` (a factory taking ``round * 10 + attempt``), a backend that can
    stream is called streamed (:func:`core.streaming.call_backend`) and each claim is
    handed to the factory's handler as its JSON object closes; the reply is parsed and
    judged below exactly as a non-streamed one.

    * Invalid output: the second call carries the validation errors.
    * Output cut at the token budget (``finish_reason == "length"`` and not
      parseable): repeating the same budget would be cut again, so the second
      call gets a larger budget — twice the first, bounded by what is left of
      the context window beside the prompt — and is asked for fewer claims. If
      the window leaves room for less than 1.5 times the budget, or the backend
      is the embedded model (whose cut outputs are repetition loops), the round
      ends at once with ``model_output_truncated`` instead of a call that would
      be cut again. A complete object followed by padding up
      to the limit (case B20-a) parses and is accepted.
    * After each call the backend's prompt count is compared with ours; more
      prompt tokens than fit beside the answer budget means the server may have
      cut the prompt silently (Ollama does, keeping the end): flagged in
      ``trace.server_truncated`` with a warning.
    """
    max_tokens = answer_tokens
    num_ctx = min(backend.context_window, prompt_tokens + max_tokens)
    for attempt in (1, 2):
        if cancel():
            raise Cancelled()
        yield ProgressEvent(stage="generating", done=attempt - 1, total=2,
                            message=f"Generating with {backend.name} ({backend.model})")
        handler = on_claim(round_no * 10 + attempt) if on_claim is not None else None
        result = yield from call_backend(backend, messages, schema, num_ctx=num_ctx, max_tokens=max_tokens,
                                         cancel=cancel, on_claim=handler)
        trace.attempts += 1
        trace.num_ctx = num_ctx
        record = GenerationAttempt(
            round=round_no, attempt=attempt, max_tokens=max_tokens, num_ctx=num_ctx,
            finish_reason=result.finish_reason, prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
        )
        trace.generations.append(record)
        if result.prompt_tokens:
            trace.prompt_tokens = result.prompt_tokens
            # Ollama sizes its window per call (num_ctx) and cuts an overlong prompt without
            # an error; llama.cpp's window is fixed at load time and it refuses overflow.
            window = num_ctx if getattr(backend, "sizes_window_per_call", True) else backend.context_window
            if result.prompt_tokens + max_tokens > window:
                trace.server_truncated = True
                trace.warnings.append(
                    f"{backend.name} counted {result.prompt_tokens} prompt tokens; {prompt_tokens} were budgeted "
                    f"in a window of {window}: the prompt may have been truncated by the server."
                )
        try:
            return parse_model_answer(result.text)
        except (ValidationError, ValueError) as exc:
            record.error = validation_summary(exc)
            if result.finish_reason == "length":
                record.outcome = "truncated"
                room = backend.context_window - prompt_tokens - 64  # 64: the added instruction
                if attempt == 2 or room < 1.5 * max_tokens:  # a slightly larger budget would be cut again
                    return RejectReason.model_output_truncated
                if backend.name == "embedded":
                    # The 135M embedded model runs to its limit in degenerate repetition
                    # (observed: '"text": "... are: 1.1.1.1.1...' for 384 tokens, 441 s on a
                    # loaded 2-core machine); twice the budget would only repeat it for twice
                    # as long, so its cut output ends the round at once.
                    return RejectReason.model_output_truncated
                max_tokens = min(2 * max_tokens, room)
                # The cut-off reply is not sent back: it would only take room from the answer.
                note = TRUNCATED_PROMPT.format(max_claims=3)
                messages = [messages[0], {"role": "user", "content": messages[1]["content"] + "\n\n" + note}]
                prompt_tokens += backend.count_tokens(note) + 4
            else:
                record.outcome = "invalid"
                feedback = {"role": "user", "content": RETRY_PROMPT.format(errors=record.error)}
                previous = {"role": "assistant", "content": result.text[:2000]}
                extra = backend.count_tokens(feedback["content"]) + 16
                if prompt_tokens + extra + backend.count_tokens(previous["content"]) + max_tokens <= backend.context_window:
                    extra += backend.count_tokens(previous["content"])
                    messages = messages + [previous, feedback]
                else:  # no room to show the reply again: the errors alone
                    messages = messages + [feedback]
                prompt_tokens += extra
            num_ctx = min(backend.context_window, prompt_tokens + max_tokens)
    return RejectReason.model_output_invalid



class _Round:
    """What one retrieve → generate → verify round produced."""

    def __init__(self, info: RetrievalRound, context: list[Chunk]) -> None:
        self.info = info
        self.context = context
        self.model_answer: ModelAnswer | None = None
        self.failure: RejectReason | None = None
        self.claims: list = []
        self.rejected: list[Rejected] = []
        self.retrieval: dict = {}


def _run_round(
    workspace: Workspace, question: str, query: str, settings: Settings, backend_ref: list, trace: Trace,
    round_no: int, cancel: CancelCheck, scope: list[str] | None = None, reference: str | None = None,
) -> Generator[ProgressEvent, None, _Round | None]:
    """Retrieve with ``query`` (inside ``scope`` when given), generate for ``question``, verify.
    ``None`` when nothing was retrieved. ``reference``: the user's own words of a rewritten
    follow-up (:func:`core.retrieval.retrieve`)."""
    yield ProgressEvent(stage="retrieving", message="Searching the documents" if round_no == 1
                        else "The answer was incomplete: searching wider")
    k = None  # the retriever's own: more chunks when the question names its document
    if round_no > 1:
        f = settings.widen_factor
        settings = settings.model_copy(update={
            "bm25_candidates": settings.bm25_candidates * f, "dense_candidates": settings.dense_candidates * f,
        })
        k = settings.top_k * f
    translation = ""
    if settings.translate_questions and settings.backend in ("auto", "ollama"):
        translation = yield from translation_round(workspace, query, settings, backend_ref, trace, scope)
    aided = settings.rerank == "ollama" or settings.hyde  # optional retrieval aids (core.rerank), Ollama only
    if aided and backend_ref[0] is None:
        yield ProgressEvent(stage="loading", message="Loading the model")
        backend_ref[0] = make_backend(settings)
    aid = backend_ref[0] if aided and getattr(backend_ref[0], "name", "") == "ollama" else None
    extra = []
    if aid is not None and settings.hyde:
        yield ProgressEvent(stage="retrieving", message="Writing the passage a document would hold, to search with it")
        extra = [p for p in [hypothetical_passage(aid, query, trace)] if p]
    rerank = aid is not None and settings.rerank == "ollama"
    ranked = retrieve(workspace, query, settings, trace, k=max(k or 0, settings.rerank_candidates) if rerank else k,
                      scope=scope, extra_dense=extra, reference=reference, translation=translation)
    if rerank and len(ranked) > 1:
        yield ProgressEvent(stage="retrieving", message="Ranking the passages with the model")
        ranked = rerank_with_model(aid, question, ranked, trace)[: k or default_k(settings, trace.scope)]
    retrieval = {"bm25": trace.bm25, "dense": trace.dense, "fused": trace.fused, "eligible": trace.eligible}
    if cancel():
        raise Cancelled()
    if not ranked:
        return None
    if backend_ref[0] is None:
        yield ProgressEvent(stage="loading", message="Loading the model")
        backend_ref[0] = make_backend(settings)
    backend: Backend = backend_ref[0]
    trace.backend, trace.model = backend.name, backend.model
    answer_tokens = settings.answer_tokens if backend.name != "embedded" else settings.embedded_answer_tokens
    budget = backend.context_window - answer_tokens
    context, dropped, prompt_tokens = fit_context(backend, question, [s.chunk for s in ranked], budget)
    context, prompt_tokens = deliver_in_budget(workspace.manifest, context, backend.count_tokens, prompt_tokens, budget)
    info = RetrievalRound(
        round=round_no, query=query, candidates=settings.bm25_candidates,
        context=[c.chunk_id for c in context], dropped=[c.chunk_id for c in dropped], prompt_tokens=prompt_tokens,
    )
    trace.rounds.append(info)
    rnd = _Round(info, context)
    rnd.retrieval = retrieval
    if not context:
        rnd.failure = RejectReason.no_citation
        return rnd
    yield ProgressEvent(stage="reading", done=len(context), total=len(context),
                        message=f"Reading {len(context)} passages")
    delivered = {c.chunk_id: c for c in context}
    messages = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_message(question, context)},
    ]
    t_gen = time.perf_counter()

    rects = span_rects_cached()  # each cited page extracted once per round, streamed or not
    date_orders = DocumentDateOrders(workspace.manifest.document_texts)  # read only for a numeric date

    def verify(answer: ModelAnswer) -> tuple[list, list[Rejected]]:
        return verify_claims(
            answer, delivered,
            min_quote_chars=settings.min_quote_chars,
            fuzzy_threshold=settings.fuzzy_threshold,
            rects=rects,
            check_facts=settings.check_facts,
            check_polarity=settings.check_facts,
            date_orders=date_orders,
        )

    def on_claim(key: int) -> ClaimHandler:
        """Verify each streamed claim as it closes (the same funnel as the whole answer's)."""
        count = [0]

        def handle(obj: dict) -> Generator[ProgressEvent, None, None]:
            try:
                claim = ModelClaim.model_validate(obj)
            except ValidationError:
                return  # the whole reply is judged at the end
            kept, rejected = verify(ModelAnswer.model_construct(claims=[claim]))
            count[0] += 1
            if "first_claim" not in trace.timings_ms:
                trace.timings_ms["first_claim"] = round((time.perf_counter() - t_gen) * 1000, 1)
            yield ProgressEvent(stage="claim", done=count[0], attempt=key, claim=kept[0] if kept else None,
                                rejected=rejected, message="Verified as the model writes")

        return handle

    outcome = yield from _generate(
        backend, messages, answer_schema(list(delivered)), prompt_tokens=prompt_tokens,
        answer_tokens=answer_tokens, trace=trace, round_no=round_no, cancel=cancel,
        on_claim=on_claim if settings.stream_answers else None,
    )
    trace.timings_ms[f"generate{'' if round_no == 1 else round_no}"] = round((time.perf_counter() - t_gen) * 1000, 1)
    if isinstance(outcome, RejectReason):
        rnd.failure = outcome
        return rnd
    rnd.model_answer = outcome
    info.answer_found, info.complete_answer = outcome.answer_found, outcome.complete_answer
    info.model_missing = outcome.missing.strip()
    if cancel():
        raise Cancelled()
    yield ProgressEvent(stage="verifying", message="Checking every quote against the source")
    t_ver = time.perf_counter()
    rnd.claims, rnd.rejected = verify(outcome)
    trace.timings_ms[f"verify{'' if round_no == 1 else round_no}"] = round((time.perf_counter() - t_ver) * 1000, 1)
    name_duplicates(workspace, rnd.claims, trace.duplicates)
    if settings.support_check == "judge" and backend.name != "embedded" and rnd.claims:
        yield ProgressEvent(stage="verifying", message="Checking that each quote supports its sentence")
        t_sup = time.perf_counter()
        rnd.claims, judged_out = judge_claims(backend, rnd.claims, cancel)
        rnd.rejected += judged_out
        trace.timings_ms[f"support{'' if round_no == 1 else round_no}"] = round((time.perf_counter() - t_sup) * 1000, 1)
    info.claims, info.rejected = len(rnd.claims), len(rnd.rejected)
    return rnd


def _better(first: _Round, second: _Round | None) -> _Round:
    """The round whose answer is shown: the wider one if it kept at least as many verified claims."""
    if second is None or second.model_answer is None or not second.claims:
        return first
    if first.model_answer is None or len(second.claims) >= len(first.claims):
        return second
    return first


def answer_question(
    workspace: Workspace,
    question: str,
    settings: Settings | None = None,
    backend: Backend | None = None,
    cancel: CancelCheck | None = None,
    history: list[Turn] | list[tuple[str, str]] | None = None,
    follow_up: bool | None = None,
    scope: list[str] | None = None,
) -> Generator[ProgressEvent, None, Answer]:
    """Answer ``question`` from ``workspace`` with verified citations, or abstain.

    Stages (each announced by a ProgressEvent): retrieving, generating,
    verifying. Malformed model output is retried once with the validation
    errors; output cut at the token budget is retried once with a larger
    budget; a second failure abstains with reason ``model_output_invalid`` or
    ``model_output_truncated``. When the model reports ``complete_answer=false``
    for an answer of which at least one claim verified (and
    ``settings.widen_on_incomplete``), one wider round runs: more
    candidates (``widen_factor``), the query expanded with what the model said
    was missing, a second generation; the round with more verified claims is
    shown and ``trace.rounds`` keeps both. When the model reports
    ``conflicting_evidence`` and the verified claims cite at least two separate
    passages (:func:`distinct_passages`), ``Answer.conflicting_evidence`` is true
    and the answer is shown as a conflict between those passages, not as an
    answer; with fewer, the report stays in ``trace.model_conflicting_evidence``
    and ``trace.warnings``.

    With a conversation ``history``, :func:`detect_follow_up` first decides (no model
    call) whether the question points back at it; a question that stands on its own
    is searched as written (``trace.follow_up_cue`` says why). A follow-up is
    rewritten into a standalone question (:func:`condense_question`: the model's rewrite, or a
    deterministic fallback); that rewrite is what is retrieved for and what the
    model answers, while ``Answer.question`` stays the user's own words. The
    trace records it (``standalone_question``, ``rewrite_method``,
    ``rewrite_detail``, ``history_turns``) and ``abstention.query`` is the text
    searched. No history, no rewrite (and no extra model call).

    Args:
        backend: generator to use; ``None`` picks one with :func:`make_backend`.
        cancel: polled between stages; raises :class:`Cancelled` when True.
        history: earlier turns of the conversation, oldest first, as :class:`Turn`
            or ``(question, answer text)`` pairs (see :func:`turn_of`).
        follow_up: ``None`` lets :func:`detect_follow_up` decide; ``True`` rewrites
            whenever there is a history (``verbatim ask --follow-up``); ``False``
            searches the question as written.
        scope: doc ids to search in (the user's choice); ``None`` searches the documents the
            question names, or the whole workspace (:func:`core.retrieval.retrieve`).

    Raises:
        ModelUnavailableError: no backend can run.
        Cancelled: the user stopped the operation.
    """
    settings = settings or workspace.settings
    cancel = cancel or (lambda: False)
    trace = Trace()
    t_all = time.perf_counter()
    question = question.strip()
    backend_ref: list = [backend]

    def finish() -> None:
        trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 1)

    turns = [t if isinstance(t, Turn) else Turn(question=t[0], answer=t[1]) for t in history or []]
    turns = [t for t in turns if t.question.strip()]
    if backend is None:
        # Resolve "auto" once (Ollama if it answers with the model, else passages).
        settings = settings.model_copy(update={"backend": backend_choice(settings)})
    passages = (backend.name if backend is not None else settings.backend) == "passages"
    standalone = question
    if turns:
        decision = detect_follow_up(question, turns)
        if follow_up is not None:
            decision = decision.__class__(follow_up, "read as a follow-up on request" if follow_up
                                          else "searched as written on request")
        trace.follow_up_cue = decision.cue
        if not decision.follow_up or workspace.chunk_count() == 0:
            turns = []  # stands on its own; or nothing to search: no model call for a rewrite
    if turns and passages:
        # A follow-up and no model to rewrite it: the deterministic form (core.followup).
        standalone = fallback_standalone(question, turns)
        trace.history_turns = min(len(turns), MAX_HISTORY_TURNS)
        trace.standalone_question, trace.rewrite_method = standalone, "fallback"
        trace.rewrite_detail = "passages answer: no model to rewrite the follow-up"
    elif turns:
        if backend_ref[0] is None:
            yield ProgressEvent(stage="loading", message="Loading the model")
            backend_ref[0] = make_backend(settings)
        yield ProgressEvent(stage="rewriting", message="Reading the question in the light of the conversation")
        t_rw = time.perf_counter()
        standalone, method, detail = condense_question(backend_ref[0], question, turns)
        trace.timings_ms["rewrite"] = round((time.perf_counter() - t_rw) * 1000, 1)
        trace.history_turns = min(len(turns), MAX_HISTORY_TURNS)
        trace.standalone_question, trace.rewrite_method, trace.rewrite_detail = standalone, method, detail
        if cancel():
            raise Cancelled()

    # a follow-up that names another document is searched in it (issue #20, core.docrefs)
    own_words = question if standalone != question else None

    def abstain(message: str, context: list[Chunk], rejected: list[Rejected] | None = None) -> Answer:
        answer = _abstain(question, workspace.name, message, context, trace, rejected)
        answer.abstention.query = standalone  # what was searched
        excluded = sorted(workspace.ineligible_doc_ids())
        if excluded:
            # A quarantined or superseded document may hold the answer: say it was left out.
            names = ", ".join(excluded[:3]) + (f" and {len(excluded) - 3} more" if len(excluded) > 3 else "")
            answer.abstention.suggestion += (f" Not searched (quarantined or superseded): {names}; "
                                             "review them in the workspace's document list.")
        return answer

    def nothing_found() -> Answer:
        finish()
        if workspace.chunk_count() == 0:  # case B27: say the index is empty, not "nothing matches"
            trace.warnings.append("index_empty")
            return abstain("This workspace has no indexed text yet: index a folder with documents that "
                           "contain text (scanned pages need OCR).", [])
        return abstain("Nothing in this workspace matches the question; no document was given to the model.", [])

    if passages:
        yield ProgressEvent(stage="retrieving", message="Searching the documents")
        ranked = retrieve(workspace, standalone, settings, trace, scope=scope, reference=own_words)
        if cancel():
            raise Cancelled()
        if not ranked:
            answer = nothing_found()
            answer.kind = "passages"
            return answer
        answer = yield from passages_answer(workspace, question, standalone, settings, trace,
                                            [s.chunk for s in ranked], abstain, cancel,
                                            fused=[s.score for s in ranked])
        name_duplicates(workspace, answer.claims, trace.duplicates)
        finish()
        return answer
    first = yield from _run_round(workspace, standalone, standalone, settings, backend_ref, trace, 1, cancel, scope,
                                  own_words)
    if first is None:
        return nothing_found()
    second = None
    ma = first.model_answer
    # Widen only when the first round verified part of an answer: if nothing verified, the
    # model's "incomplete" is not a finding to complete (and a second round costs minutes
    # on the embedded model, whose answers rarely verify).
    if (settings.widen_on_incomplete and ma is not None and ma.answer_found and not ma.complete_answer
            and first.claims and not cancel()):
        missing = " ".join(ma.missing.split())[:200]
        query = EXPANDED_QUESTION.format(question=standalone, missing=missing) if missing else standalone
        second = yield from _run_round(workspace, standalone, query, settings, backend_ref, trace, 2, cancel, scope,
                                       own_words)
    chosen = _better(first, second)
    chosen.info.chosen = True
    trace.bm25, trace.dense = chosen.retrieval["bm25"], chosen.retrieval["dense"]
    trace.fused, trace.eligible = chosen.retrieval["fused"], chosen.retrieval["eligible"]
    trace.context = chosen.info.context
    trace.dropped = chosen.info.dropped
    trace.truncated = bool(chosen.info.dropped)
    trace.prompt_tokens_expected = chosen.info.prompt_tokens
    if not trace.prompt_tokens:
        trace.prompt_tokens = chosen.info.prompt_tokens
    finish()
    context = chosen.context
    if not context:
        return abstain("The question is too long for the model's context window.", [])
    if chosen.failure is not None:
        message = {
            RejectReason.model_output_truncated:
                "The model's answer was cut off at its token limit; no answer can be shown.",
        }.get(chosen.failure, "The model's output was not valid twice; no answer can be shown.")
        return abstain(message, context, [Rejected(claim="", reason=chosen.failure)])
    model_answer = chosen.model_answer
    assert model_answer is not None
    claims, rejected = chosen.claims, chosen.rejected
    # The model's own "missing" text is unverified: it goes to the trace, never
    # into the message a user could read as a finding.
    trace.model_missing = model_answer.missing.strip()
    if not model_answer.answer_found or not claims:
        if not model_answer.answer_found or not model_answer.claims:
            # The model's judgement, not a finding about the documents: a small model
            # misses answers that are there (tester, session 3: FIPS 199 p. 6).
            message = "The model found no answer in the passages consulted."
        elif rejected and all(r.reason == RejectReason.fact_not_in_quote for r in rejected):
            message = "The model answered, but its sentences state figures that its quotes do not contain."
        elif rejected and all(r.reason == RejectReason.polarity_mismatch for r in rejected):
            message = "The model answered, but its sentences negate what its quotes state, or the reverse."
        elif rejected and all(r.reason == RejectReason.not_supported for r in rejected):
            message = "The model answered, but its quotes do not support its sentences."
        else:
            message = "The model answered, but none of its quotes could be found in the cited passages."
        return abstain(message, context, rejected)
    dropped_claims = any(
        r.reason in (RejectReason.no_citation, RejectReason.fact_not_in_quote, RejectReason.not_supported,
                     RejectReason.polarity_mismatch, RejectReason.heading_only, RejectReason.date_ambiguous)
        for r in rejected
    )
    conflict = trace.model_conflicting_evidence = model_answer.conflicting_evidence
    if conflict and distinct_passages(claims) < 2:
        # A conflict is shown as the disagreeing passages side by side; with fewer than two
        # verified passages there is nothing to set side by side, so the model's report stays
        # a warning and the verified sentences are shown as they are.
        conflict = False
        trace.warnings.append("The model reported conflicting evidence, but fewer than two verified passages show it.")
    return Answer(
        question=question,
        workspace=workspace.name,
        status="partial" if dropped_claims else "answered",
        claims=claims,
        rejected=rejected,
        abstention=None,
        conflicting_evidence=conflict,
        trace=trace,
    )
