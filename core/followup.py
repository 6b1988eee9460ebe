"""Follow-up questions: rewrite a question that depends on the conversation into a standalone one.

Split out of :mod:`core.pipeline`; :mod:`core.pipeline` re-exports its names.
"""

from __future__ import annotations

from pydantic import ValidationError

from core.errors import ModelUnavailableError
from core.generate import Backend, validation_summary
from core.normalize import normalized
from core.prompts import CONDENSE_PROMPT, condense_message
from core.textproc import tokenize_query
from core.types import Answer, StandaloneQuestion, Turn


MAX_HISTORY_TURNS = 3
"""Most recent turns given to the follow-up rewrite; older ones rarely carry the referent."""
MAX_TURN_ANSWER_CHARS = 400
"""Each earlier answer is cut to this many characters in the rewrite prompt."""
REWRITE_MAX_TOKENS = 96
"""Answer budget of the rewrite call: one question in a small JSON object."""
MAX_REWRITE_CHARS = 400
"""A rewrite longer than this (or than twice the follow-up and the previous question
together, plus 80) is not a question but a runaway output: the fallback is used."""
FALLBACK_FORM = "{question} (follow-up to: {previous})"
"""The deterministic standalone form used when the model's rewrite is unusable: the
follow-up, then the previous question, so retrieval sees the referent's words."""


def turn_of(answer: Answer) -> Turn:
    """The :class:`Turn` of an earlier answer: its question and its *verified* claims' text."""
    return Turn(question=answer.question, answer=" ".join(c.text for c in answer.claims))


def fallback_standalone(question: str, history: list[Turn]) -> str:
    """:data:`FALLBACK_FORM` with the most recent previous question (the question itself when it
    repeats that question)."""
    previous = history[-1].question.strip()
    if normalized(previous) == normalized(question):
        return question
    return FALLBACK_FORM.format(question=question, previous=previous)


def _rewrite_problem(rewrite: str, question: str, history: list[Turn], finish_reason: str) -> str:
    """Why a model rewrite cannot be used ('' when it can)."""
    if finish_reason == "length":
        return "cut off at its token budget"
    if not rewrite or not any(ch.isalpha() for ch in rewrite):
        return "empty"
    limit = min(MAX_REWRITE_CHARS, 2 * (len(question) + len(history[-1].question)) + 80)
    if len(rewrite) > limit:
        return f"too long ({len(rewrite)} characters, limit {limit})"
    words = rewrite.casefold().split()
    if len(words) >= 8 and len(set(words)) <= len(words) // 3:
        return "repetitive"
    previous = history[-1].question
    if normalized(rewrite) == normalized(previous) and normalized(question) != normalized(previous):
        return "repeats the previous question"
    own, new = set(tokenize_query(question)), set(tokenize_query(rewrite))
    if not new:
        return "no content word to search for"
    if own and not own & new:
        return "drops every content word of the follow-up"
    return ""


def condense_question(backend: Backend, question: str, history: list[Turn]) -> tuple[str, str, str]:
    """Rewrite a follow-up ``question`` into a standalone question, with the conversation ``history``.

    One call at temperature 0 (the backends' ``chat_json``) with ``core.prompts.CONDENSE_PROMPT``
    (adapted from llama-index's ``CondenseQuestionChatEngine``), the last
    :data:`MAX_HISTORY_TURNS` turns (answers cut to :data:`MAX_TURN_ANSWER_CHARS` characters)
    and a reply constrained to :class:`StandaloneQuestion`. The rewrite is *used* only if it is
    not empty, not cut off, not longer than its limit (:data:`MAX_REWRITE_CHARS`), not a
    repetition loop, has content words to search for (BM25 query tokens, both languages),
    keeps at least one content word of the follow-up when the follow-up has any, and is not
    merely the previous question again; otherwise — and when the reply does not parse —
    the deterministic :func:`fallback_standalone` is used (the embedded 135M model often
    returns an empty, copied or runaway string).

    Args:
        history: earlier turns, oldest first; must not be empty.

    Returns:
        ``(standalone, method, detail)``: ``method`` is ``"model"`` or ``"fallback"``; ``detail``
        says why the model's rewrite was rejected (with its text), ``""`` when it was used.

    Raises:
        ModelUnavailableError: the backend cannot be reached (any other failure of the
            call falls back, with the error in ``detail``).
    """
    from core.generate import parse_json_object

    turns = [(t.question.strip(), " ".join(t.answer.split())[:MAX_TURN_ANSWER_CHARS]) for t in history[-MAX_HISTORY_TURNS:]]
    while True:
        messages = [
            {"role": "system", "content": CONDENSE_PROMPT},
            {"role": "user", "content": condense_message(turns, question)},
        ]
        prompt_tokens = sum(backend.count_tokens(m["content"]) for m in messages) + 16
        if prompt_tokens + REWRITE_MAX_TOKENS <= backend.context_window or len(turns) == 1:
            break
        turns = turns[1:]  # the oldest turn goes first
    if prompt_tokens + REWRITE_MAX_TOKENS > backend.context_window:
        return fallback_standalone(question, history), "fallback", "the conversation does not fit the context window"
    try:
        result = backend.chat_json(messages, StandaloneQuestion.model_json_schema(),
                                   num_ctx=prompt_tokens + REWRITE_MAX_TOKENS, max_tokens=REWRITE_MAX_TOKENS)
    except ModelUnavailableError:
        raise  # the answer call would fail the same way: the user must hear it
    except Exception as exc:  # noqa: BLE001 - the rewrite is an aid: any other failure falls back, recorded
        return fallback_standalone(question, history), "fallback", f"the rewrite call failed: {exc!r}"[:200]
    try:
        rewrite = " ".join(StandaloneQuestion.model_validate(parse_json_object(result.text)).question.split())
    except (ValidationError, ValueError) as exc:
        return fallback_standalone(question, history), "fallback", f"not valid: {validation_summary(exc)[:160]}"
    problem = _rewrite_problem(rewrite, question, history, result.finish_reason)
    if problem:
        return fallback_standalone(question, history), "fallback", f"{problem}: {rewrite[:160]!r}"
    return rewrite, "model", ""
