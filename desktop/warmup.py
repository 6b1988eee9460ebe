"""Load the heavy libraries before the window becomes interactive (behind a splash screen).

Why: core imports torch, transformers, sentence-transformers, LanceDB and PyMuPDF
lazily, so the first indexing or question paid for them in a worker thread. Import
work holds Python's GIL in long stretches the GUI thread cannot interrupt —
``dlopen`` of ``libtorch_cpu.so`` alone held it for 0.33 s here, and module
initialisation of torch/sympy/scipy for up to 0.6 s — and the window froze for
up to 1.4 s (measured with ``bench/gui_latency.py`` and ``py-spy dump``).
Loading them while a splash screen says so costs the same seconds, but before
the window claims to be usable.

Second cause, same fix: once those libraries are in memory the process holds
~570,000 objects tracked by the cyclic garbage collector, and every full
(generation-2) collection — triggered by the many small objects PyMuPDF's
``rawdict`` creates — walked all of them with the GIL held: 0.33 s per
``gc.collect()`` here. :func:`gc.freeze` (CPython ≥ 3.7, documented for exactly
this: "freeze everything after start-up") moves the start-up objects to a
permanent generation the collector skips; a full collection then costs ~0 ms.

Nothing here is required: a step that fails (model folder missing, library not
installed) is skipped silently and the real call reports the error later with
its usual message.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable

import core  # noqa: F401  (offline switches before any ML import)
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

log = logging.getLogger(__name__)


def _import(*names: str) -> Callable[[], None]:
    def run() -> None:
        for name in names:
            __import__(name)
    return run


def _tokenizer() -> None:
    from core.chunking import get_tokenizer

    get_tokenizer()


def _embedder() -> None:
    from core.store import get_embedder

    get_embedder()


def _language_model() -> None:
    from core.textproc import detect_language

    detect_language("warm up the language identifier / preparar el identificador de idioma")


# (message shown on the splash screen, step). Messages are translated in the "Warmup" context.
STEPS: list[tuple[str, Callable[[], None]]] = [
    (QT_TRANSLATE_NOOP("Warmup", "Loading the PDF reader…"), _import("pymupdf")),
    (QT_TRANSLATE_NOOP("Warmup", "Loading the search index…"),
     _import("pyarrow", "lancedb", "bm25s", "llama_index.core", "llama_index.vector_stores.lancedb")),
    (QT_TRANSLATE_NOOP("Warmup", "Loading the neural network runtime…"), _import("torch")),
    (QT_TRANSLATE_NOOP("Warmup", "Loading the embedding library…"),
     _import("transformers", "sentence_transformers", "llama_index.embeddings.huggingface")),
    (QT_TRANSLATE_NOOP("Warmup", "Loading the tokenizer…"), _tokenizer),
    (QT_TRANSLATE_NOOP("Warmup", "Loading the embedding model…"), _embedder),
    (QT_TRANSLATE_NOOP("Warmup", "Loading language detection…"), _language_model),
]


def warm_up(report: Callable[[str, int, int], None] | None = None) -> dict[str, float]:
    """Run every warm-up step in the calling thread, then freeze the garbage collector's start-up objects.

    Args:
        report: called before each step with (translated message, step index
            0-based, number of steps); the splash screen shows it.

    Returns:
        Seconds per step message (English), plus ``"total"``; failed steps count too.
    """
    timings: dict[str, float] = {}
    start = time.perf_counter()
    for i, (message, step) in enumerate(STEPS):
        if report is not None:
            report(QCoreApplication.translate("Warmup", message), i, len(STEPS))
        t = time.perf_counter()
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - optional: the real call reports the error
            log.info("warm-up step %r skipped: %s", message, exc)
        timings[message] = time.perf_counter() - t
    gc.collect()
    gc.freeze()
    timings["total"] = time.perf_counter() - start
    return timings


def warm_up_with_splash(app) -> dict[str, float]:
    """Show a splash screen with the current step while :func:`warm_up` runs in the GUI thread.

    The window does not exist yet, so nothing can look frozen; the splash repaints
    between steps (each step is one library, at most a few seconds).
    """
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
    from PySide6.QtWidgets import QSplashScreen

    ratio = app.primaryScreen().devicePixelRatio() if app.primaryScreen() is not None else 1.0
    pixmap = QPixmap(int(480 * ratio), int(200 * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(QColor("#1f2a36"))
    painter = QPainter(pixmap)
    painter.setPen(QColor("#ffffff"))
    font = QFont(app.font())
    font.setPointSizeF(font.pointSizeF() * 2.2)
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(24, 70, "Verbatim")
    painter.end()
    splash = QSplashScreen(pixmap)
    splash.setAccessibleName(QCoreApplication.translate("Warmup", "Starting Verbatim"))
    splash.show()
    app.processEvents()

    def report(message: str, i: int, n: int) -> None:
        splash.showMessage(f"{message}  ({i + 1}/{n})",
                           Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft, QColor("#d8e2ec"))
        app.processEvents()

    try:
        return warm_up(report)
    finally:
        splash.close()
