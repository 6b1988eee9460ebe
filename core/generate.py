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
import re
import threading
from dataclasses import dataclass
from typing import Protocol

import httpx

from core.errors import ModelUnavailableError
from core.paths import gguf_model_path
from core.settings import Settings

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


@dataclass
class GenerationResult:
    """Raw model text plus what the backend reported (tokens are the model's tokens)."""

    text: str
    prompt_tokens: int
    completion_tokens: int = 0


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
        # No tokenizer is available locally for an arbitrary Ollama model; 1 token per
        # 3 characters over-estimates for English and Spanish BPE vocabularies, so
        # the budget errs on the side of dropping a chunk rather than truncating.
        return len(text) // 3 + 1

    def chat_json(self, messages: list[dict], schema: dict, *, num_ctx: int, max_tokens: int) -> GenerationResult:
        import ollama

        try:
            resp = self._client.chat(
                model=self.model,
                messages=messages,
                format=schema,
                stream=False,
                options={
                    "temperature": 0,
                    "seed": self.settings.seed,
                    "num_ctx": num_ctx,
                    "num_predict": max_tokens,
                },
            )
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise ModelUnavailableError(
                    f"Ollama has no model '{self.model}'. Install it with: ollama pull {self.model}"
                ) from exc
            raise ModelUnavailableError(f"Ollama returned an error ({exc.status_code}): {exc.error}") from exc
        except httpx.TimeoutException as exc:
            raise ModelUnavailableError(
                f"Ollama did not answer within {self.settings.request_timeout_s:.0f} s"
            ) from exc
        except (httpx.HTTPError, ConnectionError) as exc:
            raise ModelUnavailableError(
                f"Ollama is not reachable at {self.settings.ollama_host} ({exc}). Start it with `ollama serve`."
            ) from exc
        return GenerationResult(
            text=strip_thinking(resp.message.content or ""),
            prompt_tokens=resp.prompt_eval_count or 0,
            completion_tokens=resp.eval_count or 0,
        )


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
                llm = llama_cpp.Llama(
                    model_path=str(path), n_ctx=self.context_window, seed=settings.seed, verbose=False,
                    n_threads=max(1, min(4, __import__("os").cpu_count() or 1)),
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
        return GenerationResult(
            text=strip_thinking(out["choices"][0]["message"]["content"] or ""),
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
        )


def ollama_reachable(settings: Settings, timeout_s: float = 1.5) -> bool:
    """True if ``GET /api/tags`` answers on the configured host within ``timeout_s``."""
    try:
        r = httpx.get(settings.ollama_host.rstrip("/") + "/api/tags", timeout=timeout_s)
        return r.status_code == 200
    except httpx.HTTPError:
        return False


def make_backend(settings: Settings, backend: str | None = None) -> Backend:
    """The backend to use: ``ollama``, ``embedded``, or ``auto`` (Ollama if it answers with the model).

    Raises:
        ModelUnavailableError: the requested backend cannot run; the message says how to fix it.
    """
    choice = backend or settings.backend
    if choice == "ollama":
        ob = OllamaBackend(settings)
        ob.check()
        return ob
    if choice == "auto" and ollama_reachable(settings):
        ob = OllamaBackend(settings)
        try:
            ob.check()
            return ob
        except ModelUnavailableError:
            pass
    return EmbeddedBackend(settings)
