"""The engine process (core/engine.py): real spawn, real indexing, real embedded model, real crash."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from core.engine import STARTING_STAGE, Engine, LocalEngine, answer_op, index_op, ping, rebuild_op, remove_folder_op
from core.errors import Cancelled, EngineError, IndexMismatchError, WorkspaceNotFoundError
from core.selftest import SELFTEST_SETTINGS
from core.settings import Settings
from core.store import KILL_AT_ENV, Workspace
from core.types import Answer, IndexReport, ProgressEvent
from tests.conftest import CORPORA


@pytest.fixture
def engine():
    eng = Engine(warm_up=False)
    yield eng
    eng.close(timeout=20)


def _folder(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(CORPORA / "pdfs" / name, folder)
    return folder


def _drain(gen):
    events = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return events, stop.value


def test_index_ask_and_errors_cross_the_process_boundary(tmp_path: Path) -> None:
    engine = Engine(warm_up=True)  # as the window starts it
    try:
        settings = Settings(**SELFTEST_SETTINGS)  # embedded model, short turn (top_k 1, 256 tokens)
        folder = _folder(tmp_path, "NIST.FIPS.199.pdf")
        # Asked at once, as `verbatim-desktop --sample` does: the call waits for the warm-up
        # (run concurrently, the two threads' imports of llama_index failed: circular import).
        events, report = _drain(engine.run(index_op, "nist", [str(folder)], settings))
        assert isinstance(report, IndexReport) and report.documents == 1 and report.total_chunks > 0
        assert events and all(isinstance(e, ProgressEvent) for e in events)
        assert events[0].stage == STARTING_STAGE  # the window shows "waiting for the engine…"
        assert any(e.stage == "embed" for e in events)
        assert engine.wait_ready(timeout=0)  # ready before the call ran
        assert engine.warm_up_timings["total"] > 0 and "embedding model" in engine.warm_up_timings
        info = engine.call(ping)
        assert info["pid"] != os.getpid() and engine.pid == info["pid"]
        # this process reads what the engine committed
        assert Workspace("nist", settings, create=False).chunk_count() == report.total_chunks

        events, answer = _drain(engine.run(answer_op, "nist", "What are the potential impact levels?", settings))
        assert isinstance(answer, Answer) and answer.workspace == "nist"
        assert answer.trace.backend == "embedded"
        assert [e.stage for e in events][:1] == ["retrieving"]

        # core's errors arrive as the same classes, fields intact
        with pytest.raises(WorkspaceNotFoundError) as missing:
            engine.call(answer_op, "nowhere", "anything?", settings)
        assert missing.value.workspace == "nowhere"
        other = Settings(**SELFTEST_SETTINGS, chunk_tokens=settings.chunk_tokens // 2)
        with pytest.raises(IndexMismatchError) as mismatch:
            engine.call(index_op, "nist", [str(folder)], other)
        assert mismatch.value.workspace == "nist" and mismatch.value.differences

        # the way out: rebuild under the new settings, in the engine
        report = engine.call(rebuild_op, "nist", other)
        assert report.documents == 1
        assert engine.call(remove_folder_op, "nist", str(folder), other) == 1
        assert Workspace("nist", other, create=False).chunk_count() == 0
    finally:
        engine.close(timeout=20)
    assert engine.pid is None


def test_cancel_reaches_the_engine(tmp_path: Path, engine: Engine) -> None:
    folder = _folder(tmp_path, "BOE-A-1978-31229-consolidado.pdf", "NIST.CSWP.29.pdf", "NIST.FIPS.199.pdf")
    seen: list[ProgressEvent] = []

    def cancel() -> bool:
        return len(seen) >= 1

    gen = engine.run(index_op, "two", [str(folder)], Settings(), cancel=cancel)
    report = None
    while True:
        try:
            seen.append(next(gen))
        except StopIteration as stop:
            report = stop.value
            break
        except Cancelled:
            break
    # index_folders reports a cancelled run (or core raised Cancelled): either way it stopped early
    assert report is None or (report.cancelled and report.documents < 3)
    if report is not None:
        assert Workspace("two", Settings(), create=False).chunk_count() == report.total_chunks
    assert engine.call(ping)["pid"] == engine.pid  # the engine is still serving


def test_engine_crash_is_an_error_and_the_next_call_restarts_and_resumes(tmp_path: Path, engine: Engine,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _folder(tmp_path, "NIST.FIPS.199.pdf")
    monkeypatch.setenv(KILL_AT_ENV, "after_vectors")  # SIGKILL between the vectors and the manifest commit
    with pytest.raises(EngineError, match="stopped unexpectedly"):
        engine.call(index_op, "crash", [str(folder)], Settings())
    assert engine.pid is None
    monkeypatch.delenv(KILL_AT_ENV)
    report = engine.call(index_op, "crash", [str(folder)], Settings())
    assert engine.restarts == 1
    assert report.documents == 1 and report.total_chunks > 0
    ws = Workspace("crash", Settings(), create=False)
    assert ws.chunk_count() == report.total_chunks


def test_local_engine_has_the_same_contract(tmp_path: Path) -> None:
    local = LocalEngine()
    assert local.call(ping)["pid"] == os.getpid()
    folder = _folder(tmp_path, "NIST.FIPS.199.pdf")
    events, report = _drain(local.run(index_op, "here", [str(folder)], Settings()))
    assert report.documents == 1 and events
    with pytest.raises(WorkspaceNotFoundError):
        local.call(answer_op, "nowhere", "anything?", Settings())


@pytest.mark.parametrize("module", ["core.__main__", "desktop.__main__"])
def test_main_modules_can_be_reimported_by_spawn(module: str) -> None:
    """multiprocessing's spawn imports the parent's main module as ``__mp_main__`` in the engine."""
    import runpy

    runpy.run_module(module, run_name="__mp_main__")  # must define things, not run (or exit) the program


def test_warm_workspace_op_reads_the_indexes_a_first_question_needs(tmp_path, verbatim_home) -> None:
    # Issue #15: what the window has the engine read when a workspace is shown.
    import core.store.vectors as vectors
    from core.engine import warm_workspace_op
    from core.pipeline import index_folders, run

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text("The Tenant pays the rent on the first business day of each month.\n",
                                    encoding="utf-8")
    run(index_folders(Workspace("warm"), [docs]))
    before = vectors._session().approx_num_items
    assert warm_workspace_op("warm", Settings(), cancel=lambda: False) > 0
    assert vectors._session().approx_num_items > before  # the vectors were read into the shared cache
    assert warm_workspace_op("warm", Settings(), cancel=lambda: True) == 0.0  # cancelled before it began
    Workspace("empty")
    cached = vectors._session().approx_num_items
    warm_workspace_op("empty", Settings(), cancel=lambda: False)
    assert vectors._session().approx_num_items == cached  # an empty workspace reads nothing
    with pytest.raises(WorkspaceNotFoundError):
        warm_workspace_op("missing", Settings(), cancel=lambda: False)
