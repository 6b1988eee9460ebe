"""The embedding model: one per process, named cheaply for the index fingerprint."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from core.paths import EMBEDDING_MODEL_NAME, embedding_model_dir

#: Chunks per embedding call (sentence-transformers batch).
EMBED_BATCH = 32

_embedder = None
_embedder_lock = threading.Lock()


def get_embedder():
    """The process-wide llama-index ``HuggingFaceEmbedding`` over the local all-MiniLM-L6-v2.

    384-dimensional, L2-normalized vectors; inputs longer than the model's 256
    word-piece window are truncated by sentence-transformers.

    Raises:
        ModelUnavailableError: the embedding model package is missing.
    """
    global _embedder
    with _embedder_lock:
        if _embedder is None:
            _embedder = make_embedder("cpu")
        return _embedder


def make_embedder(device: str = "cpu"):
    """A new ``HuggingFaceEmbedding`` of the local all-MiniLM-L6-v2 on ``device`` (``"cpu"``, ``"cuda"``).

    What :func:`get_embedder` holds once per process; a cluster's embedding
    actors (``core.cluster``) make their own, on a GPU when they have one. Same
    vectors as :func:`get_embedder` (384 floats, L2-normalized).

    Raises:
        ModelUnavailableError: the embedding model package is missing.
    """
    import transformers
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    transformers.utils.logging.disable_progress_bar()  # no bars on the user's stderr

    return HuggingFaceEmbedding(
        model_name=str(embedding_model_dir()),
        device=device,
        normalize=True,
        embed_batch_size=EMBED_BATCH,
        show_progress_bar=False,
    )


def embedding_model_id() -> str:
    """Name of the embedding model in use: the ``VERBATIM_EMBEDDING_MODEL`` folder's name, else the packaged one.

    Cheap (no model load, no extraction), so opening a workspace can compare it.
    """
    override = os.environ.get("VERBATIM_EMBEDDING_MODEL")
    return Path(override).name if override else EMBEDDING_MODEL_NAME
