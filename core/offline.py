"""Switch off every hub download and telemetry channel of our dependencies.

Imported first by :mod:`core` so the variables are set before transformers,
huggingface_hub, sentence-transformers, llama-index or lancedb read them.
Verbatim's only permitted network peer is the configured Ollama host.
"""

from __future__ import annotations

import os

_OFFLINE_ENV = {
    # huggingface_hub / transformers / sentence-transformers: never reach the Hub.
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    # tokenizers: avoid fork warnings/deadlocks in worker threads.
    "TOKENIZERS_PARALLELISM": "false",
    # lancedb / lance telemetry.
    "LANCE_TELEMETRY": "0",
    "LANCEDB_TELEMETRY": "0",
    # llama-index: keep its NLTK/tiktoken caches inside our data dir is handled in paths;
    # ensure it never tries to fetch tokenizer files from the web.
    "TIKTOKEN_CACHE_DIR": os.environ.get("TIKTOKEN_CACHE_DIR", ""),
}


def _block_onnxruntime() -> None:
    """Keep onnxruntime (and its telemetry client) from loading.

    PyMuPDF >= 1.27 depends on ``pymupdf-layout`` and ``pymupdf4llm`` and imports
    both when installed; they import onnxruntime, whose native library starts its
    1DS telemetry client and writes a device id to ``~/.cache/Microsoft/DeveloperTools``
    on load (found by tests/core/test_offline.py: HOME must stay empty). There is
    no switch for it, and Verbatim uses neither layout analysis nor Markdown
    export, so the import is made to fail: ``sys.modules[name] = None`` makes
    ``import name`` raise ImportError, which PyMuPDF catches (its optional
    extras then stay unavailable).
    """
    import sys

    if "onnxruntime" not in sys.modules:
        sys.modules["onnxruntime"] = None  # type: ignore[assignment]


def _cache_dirs_inside_data() -> None:
    """Point llama-index's cache (``platformdirs.user_cache_dir("llama_index")`` by default,
    created on import) inside Verbatim's data folder."""
    if "LLAMA_INDEX_CACHE_DIR" in os.environ:
        return
    home = os.environ.get("VERBATIM_HOME")
    if not home:
        import platformdirs

        home = platformdirs.user_data_dir("Verbatim", appauthor=False)
    os.environ["LLAMA_INDEX_CACHE_DIR"] = os.path.join(home, "cache", "llama_index")


def enforce_offline() -> None:
    """Set the offline/telemetry environment variables (idempotent; user values win),
    keep onnxruntime's telemetry from loading and llama-index's cache inside the data folder."""
    for key, value in _OFFLINE_ENV.items():
        if value:
            os.environ.setdefault(key, value)
    _block_onnxruntime()
    _cache_dirs_inside_data()


enforce_offline()
