"""The embedding model: one per process, named cheaply for the index fingerprint."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from core.embedding import VECTOR_FAMILY, select_backend
from core.paths import EMBEDDING_MODEL_NAME, embedding_model_dir

#: ``embedding_model`` setting prefix naming an Ollama embedding model (``ollama:bge-m3``).
OLLAMA_PREFIX = "ollama:"

#: Chunks per embedding call (sentence-transformers batch).
EMBED_BATCH = 32

_embedder = None
_embedder_lock = threading.Lock()


def get_embedder():
    """The process-wide embedder (:func:`make_embedder` on the CPU): all-MiniLM-L6-v2 by default.

    384-dimensional, L2-normalized vectors; inputs longer than the model's 256
    word-piece window are truncated.

    Raises:
        ModelUnavailableError: the embedding model package is missing.
    """
    global _embedder
    with _embedder_lock:
        if _embedder is None:
            _embedder = make_embedder("cpu")
        return _embedder


def make_embedder(device: str = "cpu", backend: str | None = None):
    """A new embedder of the configured model on ``device`` (``"cpu"``, ``"cuda"``).

    What :func:`get_embedder` holds once per process; a cluster's embedding actors
    (``core.cluster``) make their own, on a GPU when they have one. The model is
    ``VERBATIM_EMBEDDING_MODEL`` / the bundled all-MiniLM-L6-v2 (384 floats, L2-normalized), or,
    when that setting reads ``ollama:<model>``, Ollama's ``/api/embed``
    (:class:`core.embedding.ollama_embed.OllamaEmbedder`). The runtime of a model folder on a CPU
    is :func:`core.embedding.select_backend`'s (``backend`` overrides it): OpenVINO in bfloat16 on
    CPUs with bfloat16 units, else llama-index's ``HuggingFaceEmbedding`` over PyTorch (today's
    path, also every GPU). Both return the same vector family (see :mod:`core.embedding`).

    Raises:
        ModelUnavailableError: the embedding model package is missing.
    """
    spec = os.environ.get("VERBATIM_EMBEDDING_MODEL", "")
    if spec.startswith(OLLAMA_PREFIX):
        from core.embedding.ollama_embed import OllamaEmbedder

        from core.settings import Settings

        return OllamaEmbedder(spec[len(OLLAMA_PREFIX):], host=Settings.load().ollama_host)
    model_dir = embedding_model_dir()
    backend = backend or (select_backend() if device == "cpu" else "torch")
    if backend.startswith("openvino"):
        try:
            from core.embedding.openvino_model import OpenVINOEmbedder

            return OpenVINOEmbedder(model_dir, precision=backend.split("-", 1)[1])
        except (ImportError, OSError, RuntimeError, ValueError) as exc:  # no OpenVINO, no IR/torch to export
            # one, or a model folder whose pipeline the OpenVINO embedder does not reproduce
            logging.getLogger(__name__).warning("OpenVINO embedding unavailable (%s); using PyTorch", exc)
    import transformers
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    transformers.utils.logging.disable_progress_bar()  # no bars on the user's stderr

    embedder = HuggingFaceEmbedding(
        model_name=str(model_dir),
        device=device,
        normalize=True,
        embed_batch_size=EMBED_BATCH,
        show_progress_bar=False,
    )
    return embedder


def embedding_backend_name(embedder) -> str:
    """The backend name of an embedder made by :func:`make_embedder` (``"torch"``,
    ``"openvino-bf16"``, ``"openvino-f32"``, ``"ollama:<model>"``)."""
    name = getattr(embedder, "backend_name", None)
    if name:
        return name
    precision = getattr(embedder, "precision", None)
    return f"openvino-{precision}" if precision else "torch"


def embedding_model_id() -> str:
    """Name of the embedding model in use: ``ollama:<model>`` for Ollama's, the
    ``VERBATIM_EMBEDDING_MODEL`` folder's name, else the packaged one.

    Cheap (no model load, no extraction), so opening a workspace can compare it.
    """
    override = os.environ.get("VERBATIM_EMBEDDING_MODEL")
    if override and override.startswith(OLLAMA_PREFIX):
        return override
    return Path(override).name if override else EMBEDDING_MODEL_NAME


def embedding_vector_family() -> str:
    """The vector family of this process's backend for the configured model (see
    :mod:`core.embedding`): ``"float"`` for every backend adopted today; an Ollama model is told
    apart by :func:`embedding_model_id` instead. Cheap when no backend is forced (no OpenVINO
    import: every automatic choice is of the ``"float"`` family)."""
    choice = os.environ.get("VERBATIM_EMBEDDING_BACKEND", "auto").strip().lower()
    return VECTOR_FAMILY.get(choice, "float")


def loaded_backend_name() -> str:
    """:func:`embedding_backend_name` of the process-wide embedder, or ``""`` when none is loaded
    (never loads one): what a commit records in the manifest's ``meta.embedding_backend``."""
    with _embedder_lock:
        return embedding_backend_name(_embedder) if _embedder is not None else ""


def use_embedder(embedder) -> None:
    """Make ``embedder`` the process-wide embedding model (what :func:`get_embedder` returns).

    For writers that embed elsewhere or differently (a benchmark's stand-in, a
    cluster's GPU actors feeding :meth:`core.store.Workspace.commit_documents`):
    any object with llama-index's ``get_text_embedding_batch(texts)`` and
    ``get_query_embedding(text)``. The vectors must match the index's
    fingerprinted model, or searches compare unlike vectors.
    """
    global _embedder
    with _embedder_lock:
        _embedder = embedder
