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
import json
import math
import re
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import httpx

from core.errors import ModelUnavailableError
from core.paths import gguf_model_path
from core.settings import Settings
from core.types import ModelAnswer

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^\s*```[a-zA-Z]*[ \t]*\r?\n(.*?)\r?\n?```\s*$", re.DOTALL)


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


def validation_summary(exc: Exception) -> str:
    """A short, readable summary of why a reply did not parse: the first five pydantic errors
    (``field.path: message``), or the exception's text cut to 300 characters."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
    return str(exc)[:300]


def parse_model_answer(text: str) -> ModelAnswer:
    """Parse the model's reply into :class:`ModelAnswer`, deterministically.

    Tolerated, because models produce them while the content is intact (cases
    B20-a/b/e/f of ``shared/cases/B20_llm_raw_outputs.json``): one surrounding
    markdown code fence; text after the first complete JSON object (discarded);
    raw control characters such as newlines inside strings (``json`` with
    ``strict=False``). Never tolerated: a JSON object that is cut off, prose
    instead of JSON, or any schema violation. Quotes are verified afterwards
    anyway, so a repaired string still has to occur in its chunk.

    Raises:
        pydantic.ValidationError: the object does not follow the schema.
        ValueError: no complete JSON object could be read (``json.JSONDecodeError``
            is a ``ValueError``).
    """
    return ModelAnswer.model_validate(parse_json_object(text))


def parse_json_object(text: str) -> object:
    """The first complete JSON value of a model reply (see :func:`parse_model_answer` for the rules).

    Raises:
        ValueError: no complete JSON object could be read.
    """
    body = strip_thinking(text)
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    start = body.find("{")
    if start < 0:
        raise ValueError("the reply contains no JSON object")
    obj, _end = json.JSONDecoder(strict=False).raw_decode(body, start)
    return obj


_PIECE = re.compile(r"[^\W\d_]+|\d|\s+|.", re.DOTALL)


def estimate_tokens(text: str) -> int:
    """Upper estimate of the tokens of ``text`` for a tokenizer we cannot run.

    Ollama's documented API has no tokenize endpoint, and the embedded GGUF's
    tokenizer is a different model's (SmolLM2's 49k vocabulary, not the Ollama
    model's), so neither can count exactly for an arbitrary Ollama model. The
    estimate is meant to *over*-count, so the budget drops a chunk rather than
    letting the server truncate the prompt silently. Per piece of text:

    * a word of Latin letters: 1 token per 2.5 letters, one per letter when it
      is all capitals ("LEGISLACIÓN" splits almost letter by letter), plus one
      per non-ASCII letter (accents often take a byte-level token of their own);
    * a CJK or other wide character: 3 tokens (byte-level fallback);
    * a digit: 1 token (Qwen 2.5 and others split numbers digit by digit);
    * ASCII punctuation: 1 token, other symbols 3; a single space 0 (merged into
      the next word), any other whitespace run 1 plus 1 per line break.

    Measured against SmolLM2's tokenizer (a smaller vocabulary than Llama 3's
    or Qwen 2.5's, so it needs more tokens than they do) on 1,000-character
    slices: 1.13–1.3× on the Spanish Constitution, 1.8–2.3× on English NIST
    text, 1.6× on CJK, where the previous ``len(text) / 3`` counted 0.89×,
    1.6× and 0.19×. ``tests/core/test_ollama.py`` holds the bound.
    """
    n = 1
    for m in _PIECE.finditer(text):
        piece = m[0]
        c = piece[0]
        if c.isalpha():
            wide = sum(1 for ch in piece if ord(ch) >= 0x2E80)
            latin = len(piece) - wide
            if latin:
                accented = sum(1 for ch in piece if 0x80 <= ord(ch) < 0x2E80)
                n += (latin if latin > 1 and piece.isupper() else math.ceil(latin / 2.5)) + accented
            n += 3 * wide
        elif c.isspace():
            n += 0 if piece == " " else 1 + piece.count("\n")
        else:
            n += 1 if c.isascii() else 3
    return n


class Backend(Protocol):
    """What the pipeline needs from a generator."""

    name: str
    model: str
    context_window: int

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in the model's tokenizer (an upper estimate where none is local)."""

    def chat_json(self, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int) -> GenerationResult:
        """One chat call constrained to ``schema``; raises ModelUnavailableError on transport errors."""


def strip_thinking(text: str) -> str:
    """Remove ``<think>…</think>`` blocks that reasoning models emit before their answer."""
    return _THINK.sub("", text).strip()


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
                f"Ollama is not reachable at {self.settings.ollama_host} ({exc}). Start it with `ollama serve`."
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
        """Conservative estimate, see :func:`estimate_tokens` (no tokenizer for the Ollama model runs here)."""
        return estimate_tokens(text)

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
        return GenerationResult(
            text=strip_thinking(resp.message.content or ""),
            prompt_tokens=resp.prompt_eval_count or 0,
            completion_tokens=resp.eval_count or 0,
            finish_reason=resp.done_reason or "",
        )

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
        return GenerationResult(
            text=strip_thinking("".join(parts)),
            prompt_tokens=(final.prompt_eval_count or 0) if final else 0,
            completion_tokens=(final.eval_count or 0) if final else 0,
            finish_reason=(final.done_reason or "") if final else "",
        )

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
                f"Ollama is not reachable at {self.settings.ollama_host} ({exc}). Start it with `ollama serve`."
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
                llm = llama_cpp.Llama(
                    model_path=str(path), n_ctx=self.context_window, seed=settings.seed, verbose=False,
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
