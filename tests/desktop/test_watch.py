"""Folder watching in the window: real files added, changed and removed re-index incrementally; the setting turns it off."""

from __future__ import annotations


from core.settings import Settings

TIMEOUT_MS = 180_000
LEASE = "The lease term is twelve months starting on the first of March 2024. Rent is due monthly.\n" * 4
NOTICE = "Either party may terminate this agreement with ninety days written notice to the other party.\n" * 4


def _wait_report(qtbot, reports: list, n: int):
    qtbot.waitUntil(lambda: len(reports) >= n, timeout=TIMEOUT_MS)
    return reports[n - 1]


def test_watched_folder_reindexes_added_changed_and_removed_files(qtbot, tmp_path):
    from desktop.main_window import MainWindow

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(LEASE, encoding="utf-8")
    window = MainWindow(Settings(), workspace="watched")
    window.WATCH_QUIET_S = 0.3
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "watched", timeout=TIMEOUT_MS)
    reports, changes, errors = [], [], []
    window.indexing_finished.connect(reports.append)
    window.folders_changed.connect(lambda name, paths: changes.append((name, paths)))
    window.error_occurred.connect(errors.append)

    window.start_indexing(str(docs))
    first = _wait_report(qtbot, reports, 1)
    assert first.documents == 1
    root = str(docs.resolve())
    qtbot.waitUntil(lambda: window.watched.get("watched") == [root], timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: window.is_watching("watched"), timeout=TIMEOUT_MS)  # events from now on are seen

    added = docs / "notice.txt"
    added.write_text(NOTICE, encoding="utf-8")
    report = _wait_report(qtbot, reports, 2)
    assert changes and changes[0][0] == "watched" and added.resolve() in {p.resolve() for p in changes[0][1]}
    assert (report.documents, report.unchanged, report.removed) == (1, 1, 0), report
    qtbot.waitUntil(lambda: "notice.txt" in _doc_ids(window), timeout=TIMEOUT_MS)

    (docs / "lease.txt").write_text(LEASE.replace("twelve", "eighteen"), encoding="utf-8")
    report = _wait_report(qtbot, reports, 3)
    assert (report.documents, report.unchanged, report.removed) == (1, 1, 0), report

    added.unlink()
    report = _wait_report(qtbot, reports, 4)
    assert (report.documents, report.unchanged, report.removed) == (0, 1, 1), report
    qtbot.waitUntil(lambda: "notice.txt" not in _doc_ids(window), timeout=TIMEOUT_MS)
    assert not errors, errors

    # The setting switches it off: the watcher stops and a new file is not indexed.
    window.apply_settings(window.settings.model_copy(update={"watch_folders": False}))
    assert window.watched == {} and not window.is_watching("watched")
    (docs / "late.txt").write_text(NOTICE.replace("ninety", "thirty"), encoding="utf-8")
    qtbot.wait(int(window.WATCH_QUIET_S * 1000) * 5 + 1500)
    assert len(reports) == 4 and len(changes) == 3

    # ...and back on: watching resumes (and the next change picks up the late file too).
    window.apply_settings(window.settings.model_copy(update={"watch_folders": True}))
    assert window.watched == {"watched": [root]}
    qtbot.waitUntil(lambda: window.is_watching("watched"), timeout=TIMEOUT_MS)


def _doc_ids(window) -> str:
    view = window.workspaces_panel.documents_view
    model = view.model()
    if model is not None:
        return " ".join(str(model.index(r, 0).data()) for r in range(model.rowCount()))
    return " ".join(view.topLevelItem(i).text(0) for i in range(view.topLevelItemCount()))


def test_workspaces_not_opened_this_session_are_watched_and_caught_up(qtbot, tmp_path):
    """A workspace indexed earlier (here by core, as the CLI would) is watched from start-up, unselected,
    and a file added while the window was closed is indexed by one catch-up run (fresh-user tester:
    such files were never picked up until another file changed)."""
    from core.pipeline import index_folders, run
    from core.store import Workspace
    from desktop.main_window import MainWindow

    shown, background = tmp_path / "shown", tmp_path / "background"
    for folder, text in ((shown, LEASE), (background, NOTICE)):
        folder.mkdir()
        (folder / "first.txt").write_text(text, encoding="utf-8")
    for name, folder in (("a-shown", shown), ("b-background", background)):
        run(index_folders(Workspace(name, Settings()), [folder]))
    (background / "while-closed.txt").write_text(LEASE.replace("twelve", "six"), encoding="utf-8")

    window = MainWindow(Settings(), workspace="a-shown")
    window.WATCH_QUIET_S = 0.3
    qtbot.addWidget(window)
    window.show()
    reports, changes, errors = [], [], []
    window.indexing_finished.connect(reports.append)
    window.folders_changed.connect(lambda name, paths: changes.append(name))
    window.error_occurred.connect(errors.append)
    qtbot.waitUntil(lambda: window.is_watching("b-background") and window.is_watching("a-shown"), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(reports) >= 2, timeout=TIMEOUT_MS)  # one catch-up run per workspace
    by_name = {r.workspace: r for r in reports}
    assert (by_name["b-background"].documents, by_name["b-background"].unchanged) == (1, 1)
    assert (by_name["a-shown"].documents, by_name["a-shown"].unchanged) == (0, 1)
    assert changes == []  # caught up without any file event

    (background / "later.txt").write_text(NOTICE.replace("ninety", "thirty"), encoding="utf-8")
    report = _wait_report(qtbot, reports, 3)
    assert changes == ["b-background"]
    assert (report.workspace, report.documents, report.unchanged) == ("b-background", 1, 2), report
    assert Workspace("b-background", Settings(), create=False).chunk_count() > 0
    assert window.workspace_name == "a-shown" and not errors, errors
    qtbot.wait(1500)
    assert len(reports) == 3  # no further catch-up runs
