"""Indexing progress (core.progress): the plan of a run, its documents' states, and the ETA on
recorded progress sequences (tests/data/progress/: one real run with its event times)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from core.progress import EtaEstimator, IndexProgress, PlannedFile, fit_file_time, manifest_files, plan_index
from core.types import ProgressEvent
from tests.conftest import CORPORA, DATA

RECORDED = DATA / "progress" / "cuad15.json"


def _recorded() -> tuple[list[PlannedFile], list[tuple[float, ProgressEvent]]]:
    """The plan and the events of a real run: `verbatim index` of the 15 CUAD contracts of tests/data,
    on the 2-core development machine at load average 6.5 (events timed as they arrived)."""
    import pymupdf

    data = json.loads(RECORDED.read_text(encoding="utf-8"))
    plan = []
    for doc_id, size, read in data["plan"]:
        with pymupdf.open(CORPORA / "cuad" / doc_id) as doc:
            plan.append(PlannedFile(doc_id, str(CORPORA / "cuad" / doc_id), size, read, doc.page_count))
    events = [(t, ProgressEvent(stage=st, done=d, total=n, item=item, message=msg))
              for t, st, d, n, item, msg in data["events"]]
    return plan, events


def _replay(plan, events):
    progress = IndexProgress(plan)
    out = []
    for t, event in events:
        progress.update(event, now=t)
        out.append((t, progress.eta_s, progress.fraction))
    return out


def test_recorded_run_says_estimating_first_then_tracks_the_time_left() -> None:
    plan, events = _recorded()
    end = events[-1][0]
    trace = _replay(plan, events)
    # "estimating…" while less than 3 % of the pages or 5 s are behind
    assert all(eta is None for t, eta, frac in trace if t < 5.0 or frac < 0.03)
    shown = [(t, eta, frac) for t, eta, frac in trace if eta is not None]
    assert shown and shown[0][0] < 0.2 * end  # not "estimating" for long either
    for t, eta, frac in shown:
        if frac >= 0.3 and t < end:
            truth = end - t
            assert abs(eta - truth) <= max(20.0, 0.6 * truth), (t, eta, truth)
    assert trace[-1][1] == 0.0


def _swings(trace) -> list[tuple[float, float, float]]:
    """Updates where the estimate moved by more than the bound the work left allows:
    more than a quarter of the time that was left (after counting down the elapsed time) plus 1 s.
    Reaching 0 once no work is left is no swing."""
    bad = []
    prev = None
    for t, eta, frac in trace:
        if eta is None or frac >= 1.0:
            continue
        if prev is not None:
            expected = max(0.0, prev[1] - (t - prev[0]))
            if abs(eta - expected) > max(1.0, 0.25 * expected) + 1e-6:
                bad.append((t, prev[1], eta))
        prev = (t, eta)
    return bad


def test_recorded_run_never_swings_while_files_per_second_did() -> None:
    plan, events = _recorded()
    assert _swings(_replay(plan, events)) == []
    # The estimate the window used before (files done per second since the first tick, issue #16:
    # "1 min 09 s left", then "8 min 42 s", then "15 s") swings on the very same events.
    naive, first = [], None
    for t, event in events:
        if event.stage in ("index", "embed") and event.total:
            if first is None:
                first = (t, event.done)
            elapsed, done = t - first[0], event.done - first[1]
            naive.append((t, elapsed / done * (event.total - event.done) if done > 0 and elapsed >= 2 else None,
                          event.done / event.total))
    assert len(_swings(naive)) >= 3


def test_unchanged_files_cost_no_estimated_time() -> None:
    """A catch-up run: 40 unchanged files are skipped in no time, then 2 changed files are read;
    the work is the changed files' pages only, the estimate the time to read them."""
    plan = [PlannedFile(f"d/old{i}.pdf", f"/d/old{i}.pdf", 10_000, False, 0) for i in range(40)]
    plan += [PlannedFile("d/new1.pdf", "/d/new1.pdf", 50_000, True, 10),
             PlannedFile("d/new2.pdf", "/d/new2.pdf", 50_000, True, 10)]
    progress = IndexProgress(plan)
    assert progress.pending() == ["d/new1.pdf", "d/new2.pdf"]
    assert progress.state("d/new2.pdf") == "queued" and progress.state("d/old3.pdf") == ""
    t = 0.0
    for i in range(40):
        progress.update(ProgressEvent(stage="index", done=i, total=42, item=f"d/old{i}.pdf"), now=t)
        t += 0.01
    assert progress.fraction == 0.0  # no page of work done yet
    for k in range(1, 11):  # new1: 10 s, its chunks embedded in steps
        progress.update(ProgressEvent(stage="embed", done=40, total=42, item="d/new1.pdf",
                                      message=f"new1.pdf: {k * 4}/40 chunks"), now=t + k)
    assert progress.state("d/new1.pdf") == "indexing"
    assert progress.fraction == pytest.approx(0.5)
    assert progress.eta_s == pytest.approx(10.0, abs=2.5)  # the second file, same size, same rate
    progress.update(ProgressEvent(stage="index", done=41, total=42, item="d/new2.pdf"), now=t + 10.1)
    assert progress.state("d/new1.pdf") == "visited" and progress.pending() == ["d/new2.pdf"]
    progress.update(ProgressEvent(stage="done", done=42, total=42), now=t + 20)
    assert progress.finished and progress.eta_s == 0.0 and progress.fraction == 1.0
    assert progress.chunks_done == 40


def test_estimator_bounds_each_move_by_the_time_left() -> None:
    est = EtaEstimator(min_seconds=1.0, min_fraction=0.0)
    est.update(0, 100, now=0.0)
    assert est.update(10, 100, now=10.0) == pytest.approx(90.0)  # first estimate: 90 s left
    # the next second suddenly looks 10× slower: the estimate may rise only within its bound
    eta = est.update(10.1, 100, now=11.0)
    assert 89.0 - 0.1 * 89.0 - 1e-9 <= eta <= 89.0 + 0.1 * 89.0 + 1e-9
    assert est.update(100, 100, now=12.0) == 0.0


def test_fit_file_time_separates_per_file_and_per_page_cost() -> None:
    a, b = fit_file_time([(1, 3.0), (10, 12.0), (20, 22.0), (40, 42.0)])
    assert a == pytest.approx(2.0) and b == pytest.approx(1.0)
    assert fit_file_time([]) is None
    assert fit_file_time([(5, 10.0)]) == (0.0, 2.0)  # one file: the mean rate alone
    # bigger files were faster: no per-page cost measurable, the mean time per file
    assert fit_file_time([(5, 10.0), (10, 5.0), (20, 1.0)]) == (pytest.approx(16 / 3), 0.0)


def test_plan_names_files_as_the_index_does_and_marks_unchanged_ones(tmp_path, verbatim_home) -> None:
    from core.pipeline import index_folders, run
    from core.store import Workspace

    folder = tmp_path / "matter"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(CORPORA / "pdfs" / "NIST.FIPS.199.pdf", folder / "sub")
    (folder / "notes.txt").write_text("The rent is due on the fifth day of each month.\n" * 200, encoding="utf-8")
    ws = Workspace("plan")
    before = plan_index([folder], manifest_files(ws.dir))
    assert [p.doc_id for p in before] == ["matter/notes.txt", "matter/sub/NIST.FIPS.199.pdf"]
    assert all(p.read for p in before)
    assert before[1].pages == 13 and before[0].pages == round(before[0].size / 3000)
    run(index_folders(ws, [folder]))
    assert {d["doc_id"] for d in ws.documents()} == {p.doc_id for p in before}
    os.utime(folder / "notes.txt", (1, 1))  # changed mtime: to be read again
    after = plan_index([folder], manifest_files(ws.dir))
    assert [(p.doc_id, p.read) for p in after] == [("matter/notes.txt", True), ("matter/sub/NIST.FIPS.199.pdf", False)]
    assert plan_index([tmp_path / "missing"], {}) == []
