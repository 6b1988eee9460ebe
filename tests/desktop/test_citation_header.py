"""The side panel's header names the cited file when the citation's place is a long heading path
(tryout of issue #20, 2026-12-02): real offscreen window, real index of a Spanish lease in Markdown
(tests/data/cases/B46_crosslingual), a passages answer (no model).

Found by the tryout: the header keeps its "where" part whole and elides only the file name, and for
a Markdown file the "where" was the whole heading path with its ``#`` marks ("# Contrato de
arrendamiento de local de negocio ¶ 1"): at the panel's width the file name was reduced to "…"."""

from __future__ import annotations

import shutil
from pathlib import Path

import core  # noqa: F401
from core.settings import Settings

TIMEOUT_MS = 240_000
LEASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "B46_crosslingual" / "Contrato_arrendamiento_local_Triana.md"


def test_the_header_keeps_the_file_name_and_shows_the_innermost_heading(qtbot, tmp_path) -> None:
    from desktop.citation_panel import short_location
    from desktop.main_window import MainWindow

    folder = tmp_path / "es"
    folder.mkdir()
    shutil.copy(LEASE, folder / LEASE.name)
    window = MainWindow(Settings(backend="passages"), workspace="es")
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitUntil(lambda: window.workspace_name == "es", timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.indexing_finished, timeout=TIMEOUT_MS):
        window.start_indexing(str(folder))
    with qtbot.waitSignal(window.answer_ready, timeout=TIMEOUT_MS) as blocker:
        window.ask("¿A qué juzgados se someten las partes del arrendamiento?")
    answer = blocker.args[0]
    assert answer.status == "answered"
    n = next(i for i, c in enumerate(window.citations, 1) if "Sevilla" in c.quote)
    cit = window.citations[n - 1]
    assert cit.location.startswith("# Contrato de arrendamiento de local de negocio")  # the whole path, as core gives it
    with qtbot.waitSignal(window.page_rendered, timeout=TIMEOUT_MS):
        window.open_citation(n)
    label = window.side_panel.page_label
    qtbot.waitUntil(lambda: label.width() > 100, timeout=5000)
    shown = label.shown_text()
    assert shown.startswith(f"[{n}] Contra") and "_Triana.md — " in shown  # the file name is readable, not "…"
    assert "Jurisdicción ¶" in shown and "#" not in shown  # the clause's own heading, no Markdown marks
    assert cit.location in window.side_panel.path_label.toolTip()  # the full place is one hover away
    # the header's shortening alone, on the shapes core writes (heading path › heading ¶ paragraph)
    assert short_location("# Lease › ## 5. Rent ¶ 3") == "5. Rent ¶ 3"
    assert short_location("¶ 2") == "¶ 2"
    assert short_location("# " + "x" * 80 + " ¶ 12") == "x" * 34 + "… ¶ 12"
