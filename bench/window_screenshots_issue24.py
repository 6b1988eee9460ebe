"""Screenshots of issue #24's states at 1440×900 and 1280×720, for looking at them.

States (each saved as ``i24_<state>_<width>x<height>.png``):

* ``still_indexing`` — a question asked while the first index is written: "still being indexed",
  not "scanned pages need OCR";
* ``answered`` — a verified answer, the column at its question (not its end), the cited page open;
* ``long_quote`` — a citation with a long quote: it wraps and scrolls in its box, the window
  keeps its size;
* ``scope_two`` — two documents chosen in the list: the chip names both;
* ``settings_404`` — Settings' Refresh against a host that answers 404: host, status and fix;
* ``fallback`` — "Automatic" answered with passages: the status bar says so, and why;
* ``spanish_status`` — the language switched to Spanish after an answer: the state line and the
  indexing summary follow it;
* ``language_notice`` / ``language_notice_es`` — a Spanish question over English documents with no
  model to translate it: the answer view says so (issue #20, 3c), in English, then in Spanish.

Answers come from bench/window_screenshots.py's scripted generator (retrieval, verification and
rendering are real); the Ollama host of the last two states is a loopback stub replaying
tests/fixtures/ollama/tags_not_found.json. Run offscreen (``QT_QPA_PLATFORM=offscreen``) or under Xvfb.

Usage: ``python bench/window_screenshots_issue24.py [OUT_DIR]`` (default ``bench/screenshots``).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SIZES = [(1440, 900), (1280, 720)]
LONG_TXT = "ARCONICROLLEDPRODUCTSCORP_10_20_2016-EX-10.2-SUPPLY AGREEMENT.txt"
SUPPLY = " ".join(f"Clause {i}: the supplier shall deliver the goods described in schedule {chr(65 + i)} within "
                  "the agreed period and notify the buyer in writing of any delay." for i in range(14))


def main() -> int:
    """Save the screenshots; prints their paths."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-shots24-")
    from PySide6.QtWidgets import QApplication

    import core  # noqa: F401
    from core.engine import LocalEngine, index_op
    from core.settings import Settings
    from desktop.i18n import install_translator
    from desktop.main_window import MainWindow
    from desktop.settings_dialog import SettingsDialog
    from tests.ollama_stub import OllamaStub, recording
    from window_screenshots import ANSWERED, ANSWERED_Q, _Scripted, _settle, _wait, _with_dialog

    app = QApplication.instance() or QApplication([])

    class GatedIndex(LocalEngine):
        """Indexing waits for :attr:`gate`: the state of a first index still being written."""

        def __init__(self) -> None:
            self.gate = threading.Event()

        def run(self, fn, *args, cancel=None, **kwargs):
            if fn is index_op:
                self.gate.wait(600)
            return (yield from super().run(fn, *args, cancel=cancel, **kwargs))

    def shoot(window, state: str, pixmap=None) -> None:
        for w, h in SIZES:
            window.resize(w, h)
            _settle(app, 0.8)
            path = out / f"i24_{state}_{w}x{h}.png"
            (pixmap() if pixmap else window.grab()).save(str(path))
            print(path, "min height", window.minimumSizeHint().height(), flush=True)

    docs = Path(tempfile.mkdtemp(prefix="verbatim-docs24-")) / "contracts"
    docs.mkdir()
    shutil.copy(ROOT / "resources" / "sample" / "docs" / "NIST.FIPS.199.pdf", docs)
    (docs / LONG_TXT).write_text(SUPPLY, encoding="utf-8")

    backend = _Scripted()
    engine = GatedIndex()
    window = MainWindow(Settings(ollama_host="http://127.0.0.1:9"), workspace="Contracts", backend=backend,
                        engine=engine)
    window.show()
    _wait(app, lambda: window.workspace_name == "Contracts")
    reports, answers, pages = [], [], []
    window.indexing_finished.connect(reports.append)
    window.answer_ready.connect(answers.append)
    window.page_rendered.connect(lambda: pages.append(1))

    window.start_indexing(str(docs))
    backend.script = ANSWERED
    window.ask(ANSWERED_Q)
    _wait(app, lambda: bool(answers))
    shoot(window, "still_indexing")
    engine.gate.set()
    _wait(app, lambda: bool(reports))
    _wait(app, lambda: window.documents_view.topLevelItemCount() == 2)

    backend.script, backend.missing = ANSWERED, []
    window.ask(ANSWERED_Q)
    _wait(app, lambda: len(answers) > 1)
    _wait(app, lambda: window.conversation.entries[-1].history_id is not None)
    before = len(pages)
    window.open_citation(1)
    _wait(app, lambda: len(pages) > before)
    shoot(window, "answered")

    cit = window.citations[0].model_copy(update={"quote": " ".join([window.citations[0].quote] * 12)})
    before = len(pages)
    window.side_panel.show_citation(cit, 1, len(window.citations))
    _wait(app, lambda: len(pages) > before)
    shoot(window, "long_quote")

    view = window.documents_view
    for i in range(view.topLevelItemCount()):
        view.topLevelItem(i).setSelected(True)
    shoot(window, "scope_two")
    window.scope.clear()

    install_translator(app, "es")
    shoot(window, "spanish_status")
    install_translator(app, "en")

    with OllamaStub(recording("tags_not_found.json")) as stub:
        dialog = SettingsDialog(Settings(ollama_host=stub.host), window)
        dialog.show()
        loaded = []
        dialog.models_loaded.connect(loaded.append)
        dialog.fetch_models()
        _wait(app, lambda: bool(loaded))
        shoot(window, "settings_404", pixmap=lambda: _with_dialog(window, dialog))
        dialog.reject()

        auto = MainWindow(Settings(backend="auto", ollama_host=stub.host), workspace="Contracts")
        auto.show()
        said = []
        auto.fallback_explained.connect(said.append)
        _wait(app, lambda: auto.workspace_name == "Contracts" and auto.documents_view.topLevelItemCount() == 2)
        auto.ask("When must the supplier deliver the goods?")
        _wait(app, lambda: bool(said))
        shoot(auto, "fallback")
        got = []
        auto.answer_ready.connect(got.append)
        auto.ask("¿Cuándo debe el proveedor entregar las mercancías?")
        _wait(app, lambda: bool(got))
        shoot(auto, "language_notice")
        install_translator(app, "es")
        shoot(auto, "language_notice_es")
        install_translator(app, "en")
        auto.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
