"""Background jobs deliver every report, in order, in the GUI thread (desktop/workers.py)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThreadPool

from core.errors import Cancelled
from desktop.workers import CallWorker, GeneratorWorker, Jobs


def test_no_result_is_lost_when_workers_finish_while_the_gui_thread_is_busy(qtbot) -> None:
    # Regression (issue #6): a worker was released when *another* worker's "finished"
    # arrived, if its own result was still queued; PySide6 then dropped the queued
    # call to its lambda and the window waited forever (seen as a rename that never
    # reported back). Here every worker finishes before the GUI thread looks.
    pool = QThreadPool()
    pool.setMaxThreadCount(2)
    jobs = Jobs(pool=pool)
    results: list[int] = []
    for i in range(40):
        jobs.call(lambda i=i: i * i, lambda value: results.append(value))
    pool.waitForDone()  # the GUI thread processes nothing meanwhile
    qtbot.waitUntil(lambda: jobs.running == 0, timeout=10_000)
    assert sorted(results) == sorted(i * i for i in range(40))


def test_reports_arrive_in_order_in_the_gui_thread(qtbot) -> None:
    gui = threading.get_ident()
    seen: list[tuple[str, object, bool]] = []

    def gen(cancel):
        yield from range(3)
        return "done"

    jobs = Jobs()
    worker = GeneratorWorker(gen)
    jobs.start(worker,
               on_progress=lambda e: seen.append(("progress", e, threading.get_ident() == gui)),
               on_result=lambda v: seen.append(("returned", (v, worker.done), threading.get_ident() == gui)),
               on_finished=lambda: seen.append(("finished", worker.done, threading.get_ident() == gui)))
    qtbot.waitUntil(lambda: len(seen) == 5, timeout=10_000)
    assert seen == [("progress", 0, True), ("progress", 1, True), ("progress", 2, True),
                    ("returned", ("done", True), True), ("finished", True, True)]


def test_errors_and_cancellation_are_reported_separately(qtbot) -> None:
    jobs = Jobs()
    outcomes: list[tuple[str, object]] = []

    def fail():
        raise ValueError("bad page 3")

    def cancelled():
        raise Cancelled()

    jobs.start(CallWorker(fail), on_result=lambda v: outcomes.append(("returned", v)),
               on_error=lambda exc: outcomes.append(("errored", str(exc))))
    jobs.start(CallWorker(cancelled), on_error=lambda exc: outcomes.append(("errored", str(exc))),
               on_cancelled=lambda: outcomes.append(("cancelled", None)))
    qtbot.waitUntil(lambda: jobs.running == 0, timeout=10_000)
    assert sorted(outcomes) == [("cancelled", None), ("errored", "bad page 3")]
