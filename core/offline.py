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


def enforce_offline() -> None:
    """Set the offline/telemetry environment variables (idempotent; user values win)."""
    for key, value in _OFFLINE_ENV.items():
        if value:
            os.environ.setdefault(key, value)


enforce_offline()
