"""Claims of a model's JSON answer, read as the text streams in.

The growing reply is parsed with pydantic-core's partial JSON mode
(``pydantic_core.from_json(text, allow_partial=True)``: an unfinished object or
array is returned as far as it goes, an unfinished string is left out). A claim
object is *closed* once a later element of the ``claims`` array has begun, or once
a key after ``claims`` has appeared (``missing``, the next field of the schema), or
when the reply ends. Each closed claim is handed out once, in order, so the pipeline
can verify it and show it while the model is still writing the rest.

What is streamed is a preview: the answer itself is parsed and verified again from
the whole reply, exactly as without streaming (:func:`core.pipeline._generate`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pydantic_core

from core.errors import Cancelled
from core.generate import REASONING_TAG, UnclosedReasoningError, final_answer
from core.types import ProgressEvent

ClaimHandler = Callable[[dict], Iterator[ProgressEvent]]
"""``on_claim(claim_dict)``: verifies one closed claim object and yields what to report about it."""

#: Seconds between two "tokens" progress events of a streamed reply.
TOKENS_EVERY_S = 0.5


class ClaimStream:
    """Feed it the reply's text pieces; it returns each claim object (a ``dict``) once it is closed.

    Reasoning blocks, in every form :func:`core.replies.final_answer` knows, are skipped;
    an unfinished one holds everything back until it ends, and so does a reply that
    begins with prose before any reasoning tag has appeared (its opening tag may have been
    written by the chat template, case B39-a): a draft inside reasoning is never handed
    out. A reply that is not (yet) a JSON object yields nothing.
    """

    def __init__(self) -> None:
        self.text = ""
        self.emitted = 0

    def feed(self, piece: str) -> list[dict]:
        """Add ``piece`` to the reply; returns the claims closed by it (possibly none)."""
        self.text += piece
        if not any(c in piece for c in '{}]"'):
            return []  # nothing closes or begins without one of these
        return self._closed(final=False)

    def finish(self) -> list[dict]:
        """The reply ended: every claim not handed out yet."""
        return self._closed(final=True)

    def _closed(self, final: bool) -> list[dict]:
        lead = self.text.lstrip()[:1]
        if not final and lead and lead not in "{`" and not REASONING_TAG.search(self.text):
            return []  # prose first: perhaps reasoning whose opening tag the template wrote
        try:
            body = final_answer(self.text)
        except UnclosedReasoningError:
            return []
        start = body.find("{")
        if start < 0:
            return []
        try:
            obj = pydantic_core.from_json(body[start:], allow_partial=True)
        except ValueError:
            # A complete object followed by other text (a closing code fence, padding), or raw
            # control characters inside a string: read the first complete object, if any.
            try:
                obj, _end = json.JSONDecoder(strict=False).raw_decode(body, start)
            except ValueError:
                return []
        if not isinstance(obj, dict) or not isinstance(obj.get("claims"), list):
            return []
        claims = obj["claims"]
        keys = list(obj)
        after = keys.index("claims") < len(keys) - 1
        closed = len(claims) if (final or after) else len(claims) - 1
        new = [c for c in claims[self.emitted:closed] if isinstance(c, dict)]
        self.emitted = max(self.emitted, closed)
        return new


def call_backend(backend, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int,
                 cancel: Callable[[], bool], on_claim: ClaimHandler | None = None):
    """One generation call, streamed when the backend can and ``on_claim`` is given.

    A generator: yields a ``"tokens"`` ProgressEvent (``done``: tokens so far, at most every
    :data:`TOKENS_EVERY_S` seconds), and what ``on_claim(claim_dict)`` yields for each claim as its
    object closes (the pipeline verifies it and yields a ``"claim"`` ProgressEvent),
    and returns the backend's :class:`core.generate.GenerationResult` — the same
    result :meth:`chat_json` would return, so everything decided from it is the same.

    Raises:
        Cancelled: ``cancel()`` turned true between two pieces; the stream is closed,
            which stops the generation (Ollama: the HTTP response is closed; llama.cpp:
            no further token is computed).
    """
    stream = getattr(backend, "chat_json_stream", None)
    if stream is None or on_claim is None:
        return backend.chat_json(messages, schema, num_ctx=num_ctx, max_tokens=max_tokens)
    claims = ClaimStream()
    pieces = stream(messages, schema, num_ctx=num_ctx, max_tokens=max_tokens)
    tokens, reported = 0, 0.0
    try:
        while True:
            try:
                piece = next(pieces)
            except StopIteration as stop:
                result = stop.value
                break
            if cancel():
                raise Cancelled()
            # Both streams deliver one token a piece; the count says how far the model has
            # written (the window: "generating — N tokens so far"), at most twice a second.
            tokens += 1
            now = time.monotonic()
            if now - reported >= TOKENS_EVERY_S:
                reported = now
                yield ProgressEvent(stage="tokens", done=tokens, total=max_tokens, message=f"{tokens} tokens")
            for claim in claims.feed(piece):
                yield from on_claim(claim)
    finally:
        pieces.close()
    for claim in claims.finish():
        yield from on_claim(claim)
    return result
