"""Embedding backends: which runtime turns chunk texts into vectors, and whether two agree.

Backends (names recorded in a workspace's fingerprint through their *vector family*):

* ``"torch"`` — today's path: sentence-transformers over PyTorch in float32 through
  llama-index's ``HuggingFaceEmbedding`` (:func:`core.store.embedding.make_embedder`).
* ``"openvino-bf16"`` — the same weights converted offline to an OpenVINO IR
  (:mod:`core.embedding.openvino_model`), run with bfloat16 inference precision on CPUs
  whose matrix units do bfloat16 (Intel AMX or AVX512-BF16; OpenVINO's own
  ``OPTIMIZATION_CAPABILITIES`` reports ``"BF16"``). Measured in ``bench/embedding_backends.py``
  (bench/README.md, issue #26): cosine to the float32 vectors ≥ 0.9999 on CUAD chunks.
* ``"openvino-f32"`` — the same IR in float32 (forced with ``VERBATIM_EMBEDDING_BACKEND``).
* ``"ollama:<model>"`` — Ollama's ``/api/embed`` (:mod:`core.embedding.ollama_embed`), chosen
  by the ``embedding_model`` setting; a different model, so a different fingerprint.

Vector families: backends whose vectors agree with the float32 reference closely enough that
retrieval does not move (bench/README.md: recall@6 within 0.01 on every dev set) share the
family ``"float"``, and a workspace indexed by one opens with another. A backend of another
family (an int8 model whose vectors drift) would change the fingerprint and ask for a rebuild.
"""

from __future__ import annotations

import os

#: Backend names accepted by ``VERBATIM_EMBEDDING_BACKEND`` (``auto``: see :func:`select_backend`).
BACKENDS = ("auto", "torch", "openvino-bf16", "openvino-f32")

#: Vector family of each backend (see the module docstring). Only ``"float"`` exists today.
VECTOR_FAMILY = {"torch": "float", "openvino-bf16": "float", "openvino-f32": "float"}


def openvino_bf16_supported() -> bool:
    """Whether OpenVINO is importable and reports bfloat16 hardware support on this CPU.

    OpenVINO's ``CPU`` device lists ``"BF16"`` in ``OPTIMIZATION_CAPABILITIES`` when the CPU has
    AVX512-BF16 or AMX-BF16 (portable: Linux, Windows and macOS alike, unlike /proc/cpuinfo).
    ``False`` when the package is missing or the query fails.
    """
    try:
        import openvino as ov

        return "BF16" in ov.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    except Exception:  # noqa: BLE001 — no OpenVINO or no CPU plugin: today's path
        return False


def select_backend() -> str:
    """The backend this process embeds with for a sentence-transformers model folder.

    ``VERBATIM_EMBEDDING_BACKEND`` (one of :data:`BACKENDS`) wins; ``auto`` (the default) is
    ``"openvino-bf16"`` where :func:`openvino_bf16_supported`, else ``"torch"``: today's path
    stays where bfloat16 units are missing (OpenVINO float32 measured 1.3x PyTorch on this AMX
    machine, but not on a CPU without them, so it is not made the default there).
    """
    choice = os.environ.get("VERBATIM_EMBEDDING_BACKEND", "auto").strip().lower() or "auto"
    if choice not in BACKENDS:
        raise ValueError(f"VERBATIM_EMBEDDING_BACKEND={choice!r}: expected one of {', '.join(BACKENDS)}")
    if choice != "auto":
        return choice
    return "openvino-bf16" if openvino_bf16_supported() else "torch"
