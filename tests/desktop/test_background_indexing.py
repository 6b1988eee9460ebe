"""The selected workspace's panel stops saying another workspace is indexing once that run has
ended (tryout 5, finding 13: "Indexing in the background: clienteA" stayed over 80 s after a
2-document run). Real window, real engine in process, real index."""

from __future__ import annotations

import core  # noqa: F401
from core.settings import Settings

TIMEOUT_MS = 300_000


def test_the_background_title_goes_when_the_other_workspaces_run_ends(qtbot, tmp_path) -> None:
    from desktop.main_window import MainWindow

    docs = tmp_path / "ClienteA"
    docs.mkdir()
    (docs / "contrato.txt").write_text("La renta mensual es de 950 euros, pagadera el día 5 de cada mes.\n" * 3,
                                       encoding="utf-8")
    window = MainWindow(Settings(backend="passages"), workspace="alpha")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "alpha", timeout=TIMEOUT_MS)
    panel = window.workspaces_panel
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(docs), workspace="clienteA")
        assert panel.progress_title.text() == "Indexing in the background: clienteA"
    qtbot.waitUntil(lambda: not window.indexing.active(), timeout=TIMEOUT_MS)
    assert window.workspace_name == "alpha"
    assert panel.progress_title.text() == ""
    assert not panel.cancel_button.isEnabled()
