"""Entry point of the desktop window: ``python -m desktop`` or ``verbatim-desktop``."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from pathlib import Path
from typing import get_args

import core  # noqa: F401  (offline switches before any ML import)
from core.errors import CoreError
from core.paths import sample_corpus_dir
from core.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    """Command-line options of the window."""
    parser = argparse.ArgumentParser(prog="verbatim-desktop", description="Verbatim desktop window")
    parser.add_argument(
        "--sample", action="store_true",
        help="index the bundled sample corpus into workspace 'sample' on start",
    )
    parser.add_argument("--workspace", default=None, help="workspace to open (default: the first one; 'sample' with --sample)")
    parser.add_argument(
        # the values of Settings' "Answer with" (the README lists them), never a copy that can drift from it
        "--backend", choices=list(get_args(Settings.model_fields["backend"].annotation)), default=None,
        help="what answers: %(choices)s (default: the saved setting, 'auto' out of the box)",
    )
    parser.add_argument(
        "--self-test", action="store_true",
        help="check the installation headless (index the sample, ask, verify, render; no network) and exit",
    )
    parser.add_argument(
        "--in-process", action="store_true",
        help="index and answer in the window's own process instead of a separate engine process "
             "(debugging; the window may then pause while the search libraries load or work)",
    )
    parser.add_argument("--self-test-png", type=Path, default=None, metavar="DIR",
                        help="with --self-test: keep the rendered page in DIR")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, open the window, run the event loop; returns the exit code."""
    # The engine process is started with multiprocessing's "spawn": in a frozen
    # (PyInstaller) app the child re-runs this entry point, and freeze_support()
    # turns it into the engine there. A no-op when not frozen.
    multiprocessing.freeze_support()
    args = build_parser().parse_args(argv)
    if args.self_test:  # headless: runs before (and without) any Qt import
        from core.selftest import run_selftest

        return 0 if run_selftest(png_dir=args.self_test_png).ok else 1

    from desktop.qtcheck import qt_libraries_message

    missing = qt_libraries_message()  # before Qt loads its platform plugin (which aborts without them)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.main_window import MainWindow
    from desktop.qtcheck import refcount_defect

    defect = refcount_defect()
    if defect:
        print(defect, file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Verbatim")
    app.setOrganizationName("Verbatim")
    try:
        settings = Settings.load()
    except CoreError as exc:
        QMessageBox.warning(None, "Verbatim", f"{exc}\n\nDefault settings are used.")
        settings = Settings()
    if args.backend:
        settings.backend = args.backend
    if settings.embedding_model and "VERBATIM_EMBEDDING_MODEL" not in os.environ:
        os.environ["VERBATIM_EMBEDDING_MODEL"] = settings.embedding_model  # read by core.paths
    from desktop.i18n import install_translator

    install_translator(app, settings.ui_language)
    from core.engine import Engine, LocalEngine

    # The engine process loads the heavy libraries while the window is already usable.
    engine = LocalEngine() if args.in_process else Engine()
    workspace = args.workspace or ("sample" if args.sample else None)
    window = MainWindow(settings, workspace=workspace, engine=engine)
    window.show()
    if args.sample:
        window.start_indexing(str(sample_corpus_dir()))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
