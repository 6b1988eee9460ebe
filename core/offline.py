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


def _block_openvino_telemetry() -> None:
    """Keep ``openvino_telemetry`` from loading.

    OpenVINO (the embedding runtime on CPUs with bfloat16 units, :mod:`core.embedding`) ships
    its usage-statistics client as a separate package; its model converter (``convert_model``,
    run once to export the embedding model) imports it, sends events (Google Analytics) without
    asking when no consent file exists, and writes a client id under ``~/intel``. OpenVINO
    imports it inside ``try/except ImportError`` and falls back to its own no-op stub
    (``openvino/tools/ovc/telemetry_utils.py``), so the import is made to fail as for onnxruntime.
    """
    import sys

    if "openvino_telemetry" not in sys.modules:
        sys.modules["openvino_telemetry"] = None  # type: ignore[assignment]


#: Cache locations of our dependencies, relative to the data folder. Each library
#: creates (and may fill) its folder in HOME otherwise; found by running the frozen
#: self-test and the window with HOME an empty folder (`.ci/build-frozen` fails on
#: anything left outside the data folder):
#:
#: * ``LLAMA_INDEX_CACHE_DIR``: llama-index's ``get_cache_dir()`` (created by
#:   ``HuggingFaceEmbedding`` even for a local model folder);
#: * ``HF_HOME``: huggingface_hub / transformers / sentence-transformers (token,
#:   hub cache; nothing is downloaded with ``HF_HUB_OFFLINE=1``, but paths are created);
#: * ``TORCH_HOME``: torch.hub and sentence-transformers' default model folder;
#: * ``MPLCONFIGDIR``: matplotlib's font cache, should any dependency import it;
#: * ``XDG_CACHE_HOME``: everything else that follows the XDG base-directory
#:   specification (fontconfig's per-user font cache written when Qt first lists fonts,
#:   Qt's own cache locations, platformdirs' ``user_cache_dir``). Only read on Linux/BSD;
#:   on macOS and Windows the variables above cover the libraries we use.
_CACHE_DIRS = {
    "LLAMA_INDEX_CACHE_DIR": ("cache", "llama_index"),
    "HF_HOME": ("cache", "huggingface"),
    "TORCH_HOME": ("cache", "torch"),
    "MPLCONFIGDIR": ("cache", "matplotlib"),
    "XDG_CACHE_HOME": ("cache",),
}


def cache_env(data_folder: str | os.PathLike[str]) -> dict[str, str]:
    """Environment variables that put every dependency's cache inside ``data_folder``.

    Returns ``{variable: absolute path}`` (folders are not created: the libraries
    create what they use). :mod:`core.selftest` applies it to its temporary data
    folder so a self-test leaves nothing behind.
    """
    base = os.path.abspath(os.fspath(data_folder))
    return {var: os.path.join(base, *parts) for var, parts in _CACHE_DIRS.items()}


def _cache_dirs_inside_data() -> None:
    """Point the dependencies' caches inside Verbatim's data folder (``VERBATIM_HOME`` or
    ``platformdirs.user_data_dir("Verbatim")``); a variable the user set wins."""
    home = os.environ.get("VERBATIM_HOME")
    if not home:
        import platformdirs

        home = platformdirs.user_data_dir("Verbatim", appauthor=False)
    for key, value in cache_env(home).items():
        os.environ.setdefault(key, value)


def enforce_offline() -> None:
    """Set the offline/telemetry environment variables (idempotent; user values win),
    keep onnxruntime's and OpenVINO's telemetry from loading and the dependencies' caches inside the data folder."""
    for key, value in _OFFLINE_ENV.items():
        if value:
            os.environ.setdefault(key, value)
    _block_onnxruntime()
    _block_openvino_telemetry()
    _cache_dirs_inside_data()


enforce_offline()
