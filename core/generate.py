"""Generation backends: one interface, Ollama (default) and embedded llama.cpp.

Both return the model's raw JSON text constrained by the ``ModelAnswer`` JSON
schema, at temperature 0 with a fixed seed:

* :class:`OllamaBackend` — the official ``ollama`` client (thin, standard; its
  ``format=`` takes the JSON schema, ``options`` carry temperature, seed,
  ``num_ctx`` and ``num_predict``). Tested against recorded Ollama exchanges.
* :class:`EmbeddedBackend` — ``llama-cpp-python`` on a local GGUF file;
  ``response_format={"type": "json_object", "schema": ...}`` compiles the schema
  to a grammar, so the output always parses.

We call these clients directly rather than through llama-index's LLM wrappers
because neither wrapper passes a JSON schema through to Ollama's ``format`` or
llama.cpp's grammar together with ``num_ctx``/seed control.
"""

from __future__ import annotations

import atexit
import math
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import httpx

from core.errors import ModelUnavailableError
from core.ollama_check import unreachable_fix
from core.paths import gguf_model_path
from core.settings import Settings
from core import tokens
from core.replies import (  # noqa: F401  (re-exported: the backends' reply parsing)
    REASONING_TAG,
    UnclosedReasoningError,
    final_answer,
    parse_json_object,
    parse_model_answer,
    strip_thinking,
    validation_summary,
)

@dataclass
class GenerationResult:
    """Raw model text plus what the backend reported (tokens are the model's tokens).

    ``finish_reason`` is the backend's stop reason: ``"stop"`` (the model ended
    its answer), ``"length"`` (it hit ``max_tokens``; the JSON is probably cut
    off), or ``""`` when the backend did not say.
    """

    text: str
    prompt_tokens: int
    completion_tokens: int = 0
    finish_reason: str = ""


def estimate_tokens(text: str, model: str = "") -> int:
    """Estimated tokens of ``text`` for an Ollama model whose tokenizer does not run here.

    Ollama's documented API has no tokenize endpoint, and the embedded GGUF's tokenizer is
    a different model's, so the count is :func:`core.tokens.estimate` for the model's family
    (:func:`core.tokens.family_of`; the largest of the known families when the name is not
    recognised), fitted on real tokenizers of Qwen 2.5, Llama 3, Mistral and Gemma and set
    about 5 % above their counts (figures: ``bench/README.md``, issue #21). Before issue #21
    this was a hand-set over-estimate about twice the real count on English contracts, which
    made a widened round drop chunks that fitted.
    """
    return tokens.estimate(text, tokens.family_of(model) if model else tokens.GENERIC)


_calibrations: dict[tuple[str, str], tokens.Calibration] = {}
_calibrations_lock = threading.Lock()

CHAT_TEMPLATE_TOKENS = (4, 4)
"""``(per message, per prompt)``: tokens a chat template adds around the messages' contents
(role headers and end markers; Llama 3 ``<|start_header_id|>role<|end_header_id|>\\n\\n ...
<|eot_id|>``, ChatML ``<|im_start|>role\\n ... <|im_end|>\\n``), used only to compare our
estimate with the server's count."""


def calibration_for(host: str, model: str) -> tokens.Calibration:
    """The on-the-fly correction for one model on one server (shared by its backends)."""
    with _calibrations_lock:
        return _calibrations.setdefault((host, model), tokens.Calibration())


class Backend(Protocol):
    """What the pipeline needs from a generator."""

    name: str
    model: str
    context_window: int

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in the model's tokenizer (an upper estimate where none is local)."""

    def chat_json(self, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int) -> GenerationResult:
        """One chat call constrained to ``schema``; raises ModelUnavailableError on transport errors."""


class OllamaBackend:
    """Ollama over HTTP (``/api/tags``, ``/api/chat``).

    Args:
        settings: host, model, timeout, seed, context bounds.
        transport: an ``httpx`` transport (tests pass ``httpx.MockTransport`` replaying
            recorded exchanges); ``None`` for the network.
    """

    name = "ollama"
    sizes_window_per_call = True  # num_ctx is sent with every request

    def __init__(self, settings: Settings, transport: httpx.BaseTransport | None = None) -> None:
        import ollama

        self.settings = settings
        self.model = settings.ollama_model
        self.context_window = settings.max_context_tokens
        kwargs = {"transport": transport} if transport is not None else {}
        self._client = ollama.Client(host=settings.ollama_host, timeout=settings.request_timeout_s, **kwargs)

    def list_models(self) -> list[str]:
        """Names of the models installed on the server.

        Raises:
            ModelUnavailableError: the server cannot be reached.
        """
        import ollama

        try:
            resp = self._client.list()
        except (httpx.HTTPError, ConnectionError, ollama.ResponseError) as exc:
            raise ModelUnavailableError(
                f"Ollama is not reachable at {self.settings.ollama_host} ({exc}). " + unreachable_fix(self.settings.ollama_host)
            ) from exc
        # ollama-python reads each entry's "model" key, which servers send since
        # 2024 beside "name"; an older server that sends only "name" lists nothing.
        return [m.model for m in resp.models if m.model]

    def check(self) -> None:
        """Raise :class:`ModelUnavailableError` unless the server answers and has the model."""
        models = self.list_models()
        wanted = self.model if ":" in self.model else f"{self.model}:latest"
        if self.model not in models and wanted not in models:
            raise ModelUnavailableError(
                f"Ollama has no model '{self.model}'. Install it with: ollama pull {self.model}"
            )

    def count_tokens(self, text: str) -> int:
        """Estimated tokens of ``text`` (:func:`estimate_tokens`, no tokenizer for the Ollama model runs
        here), corrected by the counts this server reported for this model (:class:`core.tokens.Calibration`)."""
        return math.ceil(estimate_tokens(text, self.model) * self.calibration.factor)

    @property
    def calibration(self) -> tokens.Calibration:
        """This model's on-the-fly correction (:func:`calibration_for`)."""
        return calibration_for(self.settings.ollama_host, self.model)

    def _observe(self, messages: list[dict], result: GenerationResult, num_ctx: int, max_tokens: int) -> None:
        """Feed the server's prompt count of one call to :attr:`calibration`."""
        per_message, per_prompt = CHAT_TEMPLATE_TOKENS
        estimated = sum(estimate_tokens(m.get("content") or "", self.model) + per_message for m in messages) + per_prompt
        self.calibration.observe(estimated, result.prompt_tokens,
                                 maybe_cut=result.prompt_tokens + max_tokens >= num_ctx)

    def chat_json(self, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int) -> GenerationResult:
        """One non-streamed ``/api/chat`` call with ``format=schema`` and ``think: false``.

        ``think: false`` turns reasoning off on models that support it and is
        accepted by the others (ollama/ollama server/routes.go, ChatHandler,
        answers 400 "does not support thinking" only when ``think`` is true).
        ``<think>`` blocks that a model writes into its content anyway are stripped.

        Raises:
            ModelUnavailableError: server down, timeout, model missing (names
                the ``ollama pull`` command), or any other HTTP error (status and
                the server's ``error`` text).
        """
        options = {"temperature": 0, "seed": self.settings.seed, "num_ctx": num_ctx, "num_predict": max_tokens}
        with self._errors():
            resp = self._client.chat(
                model=self.model, messages=messages, format=schema, stream=False, think=False, options=options
            )
        result = GenerationResult(
            text=strip_thinking(resp.message.content or ""),
            prompt_tokens=resp.prompt_eval_count or 0,
            completion_tokens=resp.eval_count or 0,
            finish_reason=resp.done_reason or "",
        )
        self._observe(messages, result, num_ctx, max_tokens)
        return result

    def chat_json_stream(self, messages: list[dict], schema: dict, *, num_ctx: int,
                         max_tokens: int) -> Generator[str, None, GenerationResult]:
        """The same call as :meth:`chat_json`, streamed: yields the reply's text pieces as they come
        and returns the :class:`GenerationResult` (counts and ``done_reason`` from the final chunk).

        Ollama streams NDJSON, one ``ChatResponse`` per line, the last with ``done: true`` and the
        counts (ollama/ollama docs/api.md, "Chat Request (Streaming)"); an error after the first
        chunk arrives as an ``{"error": ...}`` line, raised by the client as ``ResponseError``.
        Closing the generator closes the HTTP response, which stops the generation on the server.

        Raises:
            ModelUnavailableError: as :meth:`chat_json`, also for an error line mid-stream.
        """
        options = {"temperature": 0, "seed": self.settings.seed, "num_ctx": num_ctx, "num_predict": max_tokens}
        parts: list[str] = []
        final = None
        with self._errors():
            stream = self._client.chat(
                model=self.model, messages=messages, format=schema, stream=True, think=False, options=options
            )
            try:
                for chunk in stream:
                    piece = chunk.message.content or "" if chunk.message else ""
                    if piece:
                        parts.append(piece)
                        yield piece
                    if chunk.done:
                        final = chunk
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
        result = GenerationResult(
            text=strip_thinking("".join(parts)),
            prompt_tokens=(final.prompt_eval_count or 0) if final else 0,
            completion_tokens=(final.eval_count or 0) if final else 0,
            finish_reason=(final.done_reason or "") if final else "",
        )
        self._observe(messages, result, num_ctx, max_tokens)
        return result

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Map the client's errors to :class:`ModelUnavailableError` with what to do about them."""
        import ollama

        try:
            yield
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise ModelUnavailableError(
                    f"Ollama has no model '{self.model}'. Install it with: ollama pull {self.model}"
                ) from exc
            raise ModelUnavailableError(
                f"Ollama at {self.settings.ollama_host} returned HTTP {exc.status_code} for model "
                f"'{self.model}': {exc.error}"
            ) from exc
        except httpx.TimeoutException as exc:
            raise ModelUnavailableError(
                f"Ollama did not answer within {self.settings.request_timeout_s:.0f} s"
            ) from exc
        except (httpx.HTTPError, ConnectionError) as exc:
            raise ModelUnavailableError(
                f"Ollama is not reachable at {self.settings.ollama_host} ({exc}). " + unreachable_fix(self.settings.ollama_host)
            ) from exc


_llama_cache: dict[tuple[str, int], object] = {}
_llama_lock = threading.Lock()


@atexit.register
def _close_llama_models() -> None:
    """Free llama.cpp models before interpreter teardown (avoids errors from ``Llama.__del__``)."""
    with _llama_lock:
        for llm in _llama_cache.values():
            try:
                llm.close()
            except Exception:  # noqa: BLE001 - best effort at exit
                pass
        _llama_cache.clear()


class EmbeddedBackend:
    """llama.cpp in-process on a GGUF file (default: SmolLM2-135M-Instruct Q4_1).

    Raises:
        ModelUnavailableError: llama-cpp-python or the GGUF file is missing.
    """

    name = "embedded"
    sizes_window_per_call = False  # n_ctx is fixed when the model is loaded

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        path = gguf_model_path()
        self.model = path.name
        self.context_window = settings.embedded_context_tokens
        try:
            import llama_cpp
        except ImportError as exc:
            raise ModelUnavailableError(
                "llama-cpp-python is not installed: CMAKE_ARGS=-DGGML_NATIVE=OFF pip install llama-cpp-python"
            ) from exc
        key = (str(path), self.context_window)
        with _llama_lock:
            llm = _llama_cache.get(key)
            if llm is None:
                # n_threads: llama-cpp-python's default (cpu_count // 2, at least 1). We used
                # min(4, cpu_count); on 2 busy cores both threads spin-wait at every barrier
                # when one is descheduled: one answer took 22-43 s with 2 threads against
                # 11-12 s with 1 at load 4 (bench/README.md, "llama.cpp under load").
                # flash_attn: llama.cpp's fused attention; on this project's 2-core machine it
                # read a ~2,700-token grid prompt at 96 tokens per CPU-second against 54 without
                # (bench/README.md, "Review grid: the embedded model", 2026-12-02).
                llm = llama_cpp.Llama(
                    model_path=str(path), n_ctx=self.context_window, seed=settings.seed, verbose=False,
                    flash_attn=True,
                )
                _llama_cache[key] = llm
        self._llm = llm
        self._call_lock = threading.Lock()  # one llama context: calls are serialized

    def count_tokens(self, text: str) -> int:
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def chat_json(self, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int) -> GenerationResult:
        with self._call_lock:
            self._llm.reset()
            out = self._llm.create_chat_completion(
                messages=messages,
                response_format={"type": "json_object", "schema": schema},
                temperature=0.0,
                seed=self.settings.seed,
                max_tokens=max_tokens,
            )
        usage = out.get("usage") or {}
        choice = out["choices"][0]
        return GenerationResult(
            text=strip_thinking(choice["message"]["content"] or ""),
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            finish_reason=choice.get("finish_reason") or "",
        )

    def chat_json_stream(self, messages: list[dict], schema: dict, *, num_ctx: int,
                         max_tokens: int) -> Generator[str, None, GenerationResult]:
        """The same call as :meth:`chat_json` with ``stream=True``: yields text pieces as llama.cpp
        produces them, returns the :class:`GenerationResult`.

        llama-cpp-python's streamed chunks carry no usage, so the counts are read from
        the context afterwards: ``n_tokens`` (the tokens evaluated: the prompt and the
        generated tokens, less the last one after a stop at ``max_tokens``) minus the
        pieces generated (one token each). Closing the generator
        stops the generation at the next token and releases the model.
        """
        parts: list[str] = []
        finish = ""
        generated = 0
        with self._call_lock:
            self._llm.reset()
            stream = self._llm.create_chat_completion(
                messages=messages,
                response_format={"type": "json_object", "schema": schema},
                temperature=0.0,
                seed=self.settings.seed,
                max_tokens=max_tokens,
                stream=True,
            )
            try:
                for chunk in stream:
                    choice = chunk["choices"][0]
                    piece = (choice.get("delta") or {}).get("content") or ""
                    if piece:
                        generated += 1
                        parts.append(piece)
                        yield piece
                    finish = choice.get("finish_reason") or finish
            finally:
                stream.close()
            total = int(getattr(self._llm, "n_tokens", 0) or 0)
        # After a stop on the end-of-generation token every generated token was evaluated; after
        # a stop at max_tokens the last one was sampled but not evaluated (llama.cpp evaluates a
        # token when it samples the next). Measured equal to the non-streamed usage on SmolLM2.
        prompt = total - generated + (1 if finish == "length" else 0)
        return GenerationResult(
            text=strip_thinking("".join(parts)),
            prompt_tokens=max(0, prompt),
            completion_tokens=generated,
            finish_reason=finish,
        )


def ollama_reachable(settings: Settings, timeout_s: float = 1.5) -> bool:
    """True if ``GET /api/tags`` answers on the configured host within ``timeout_s``."""
    try:
        r = httpx.get(settings.ollama_host.rstrip("/") + "/api/tags", timeout=timeout_s)
        return r.status_code == 200
    except httpx.HTTPError:
        return False


def backend_choice(settings: Settings, backend: str | None = None) -> str:
    """What answers: ``ollama``, ``embedded`` or ``passages``, resolving ``auto``.

    ``auto`` is Ollama when it answers with the configured model (``/api/tags``
    within 1.5 s and the model installed), else ``passages`` (no model: the
    matching passages themselves, :mod:`core.passages`) — no longer the 135M demo
    model, which abstained on 11 of 12 lab questions.
    """
    choice = backend or settings.backend
    if choice != "auto":
        return choice
    if ollama_reachable(settings):
        try:
            OllamaBackend(settings).check()
            return "ollama"
        except ModelUnavailableError:
            pass
    return "passages"


def make_backend(settings: Settings, backend: str | None = None) -> Backend:
    """The backend to use: ``ollama``, ``embedded``, ``passages`` or ``auto`` (see :func:`backend_choice`).

    ``passages`` gives a :class:`core.passages.PassagesBackend`, which generates
    nothing: the pipeline answers with passages when it is given one.

    Raises:
        ModelUnavailableError: the requested backend cannot run; the message says how to fix it.
    """
    choice = backend or settings.backend
    if choice == "ollama":
        ob = OllamaBackend(settings)
        ob.check()
        return ob
    if choice == "auto":
        choice = backend_choice(settings)
        if choice == "ollama":
            return OllamaBackend(settings)
    if choice == "passages":
        from core.passages import PassagesBackend

        return PassagesBackend(settings)
    return EmbeddedBackend(settings)
