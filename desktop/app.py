"""Entry point of the desktop window: ``python -m desktop`` or ``verbatim-desktop``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

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
        "--backend", choices=["auto", "ollama", "embedded"], default=None,
        help="generation backend (default: the saved setting, 'auto' out of the box)",
    )
    parser.add_argument(
        "--self-test", action="store_true",
        help="check the installation headless (index the sample, ask, verify, render; no network) and exit",
    )
    parser.add_argument(
        "--no-warmup", action="store_true",
        help="skip loading the search libraries behind the splash screen (they then load on first use, "
             "and the window may pause for up to a second while they do)",
    )
    parser.add_argument("--self-test-png", type=Path, default=None, metavar="DIR",
                        help="with --self-test: keep the rendered page in DIR")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, open the window, run the event loop; returns the exit code."""
    args = build_parser().parse_args(argv)
    if args.self_test:  # headless: runs before (and without) any Qt import
        from core.selftest import run_selftest

        return 0 if run_selftest(png_dir=args.self_test_png).ok else 1

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
    if not args.no_warmup:
        from desktop.warmup import warm_up_with_splash

        warm_up_with_splash(app)
    workspace = args.workspace or ("sample" if args.sample else None)
    window = MainWindow(settings, workspace=workspace)
    window.show()
    if args.sample:
        window.start_indexing(str(sample_corpus_dir()))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
