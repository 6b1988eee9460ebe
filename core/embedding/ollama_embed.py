"""Ollama's ``/api/embed`` as a workspace's embedding model (e.g. a multilingual model the user pulled).

Chosen with the ``embedding_model`` setting ``ollama:<model>`` (``VERBATIM_EMBEDDING_MODEL``);
the workspace's fingerprint then records ``embedding_model = "ollama:<model>"``, so a workspace
indexed with it opens only under the same setting and any other model asks for the rebuild a
model change needs (:class:`core.errors.IndexMismatchError`).

Request and reply shapes are Ollama's documented ones (ollama/ollama docs/api.md, "Generate
Embeddings"): ``POST /api/embed {"model", "input": [str, ...]}`` answers
``{"model", "embeddings": [[float, ...], ...], ...}``, one vector per input in order. Sent through
the official ``ollama`` client (``Client.embed``), like :class:`core.generate.OllamaBackend`.
"""

from __future__ import annotations

import httpx
import numpy as np

from core.errors import ModelUnavailableError
from core.ollama_check import unreachable_fix

#: Inputs per ``/api/embed`` request.
OLLAMA_EMBED_BATCH = 32
DEFAULT_HOST = "http://127.0.0.1:11434"


class OllamaEmbedder:
    """Embeddings from an Ollama server's ``/api/embed``, L2-normalized here (whatever the server does).

    Offers ``get_text_embedding_batch(texts) -> list[list[float]]`` and
    ``get_query_embedding(text) -> list[float]`` like llama-index's embeddings; the width is the
    model's. ``backend_name`` is ``"ollama:<model>"``.

    Args:
        model: the Ollama model name (``ollama pull <model>``).
        host: server URL (default the loopback one).
        transport: an ``httpx`` transport (tests replay recorded exchanges); ``None`` for the network.
        timeout: seconds per request.

    Raises (from the embedding calls):
        ModelUnavailableError: the server is unreachable, the model is not pulled, or the reply has
            not one vector per input.
    """

    def __init__(self, model: str, host: str | None = None, transport: httpx.BaseTransport | None = None,
                 timeout: float = 120.0) -> None:
        import ollama

        if not model:
            raise ValueError("an Ollama embedding model name is needed (ollama:<model>)")
        self.model = model
        self.host = host or DEFAULT_HOST
        self.backend_name = f"ollama:{model}"
        kwargs = {"transport": transport} if transport is not None else {}
        self._client = ollama.Client(host=self.host, timeout=timeout, **kwargs)

    def _embed(self, texts: list[str]) -> list[list[float]]:
        import ollama

        try:
            resp = self._client.embed(model=self.model, input=texts)
        except ollama.ResponseError as exc:
            raise ModelUnavailableError(
                f"Ollama could not embed with '{self.model}' ({exc.error}). Pull it with: ollama pull {self.model}"
            ) from exc
        except (httpx.HTTPError, ConnectionError) as exc:
            raise ModelUnavailableError(
                f"Ollama is not reachable at {self.host} ({exc}). " + unreachable_fix(self.host)
            ) from exc
        vectors = [list(v) for v in (resp.embeddings or [])]
        if len(vectors) != len(texts):
            raise ModelUnavailableError(
                f"Ollama returned {len(vectors)} embeddings for {len(texts)} inputs with '{self.model}'")
        arr = np.asarray(vectors, dtype=np.float32)
        arr /= np.clip(np.linalg.norm(arr, axis=1, keepdims=True), 1e-12, None)
        return arr.tolist()

    def get_text_embedding_batch(self, texts: list[str], **_: object) -> list[list[float]]:
        """Vectors of ``texts``, in order (requests of :data:`OLLAMA_EMBED_BATCH` inputs)."""
        out: list[list[float]] = []
        texts = list(texts)
        for b in range(0, len(texts), OLLAMA_EMBED_BATCH):
            out += self._embed(texts[b:b + OLLAMA_EMBED_BATCH])
        return out

    def get_text_embedding(self, text: str) -> list[float]:
        """Vector of one text."""
        return self._embed([text])[0]

    def get_query_embedding(self, query: str) -> list[float]:
        """Vector of a question (sent as is: no instruction prefix)."""
        return self._embed([query])[0]
