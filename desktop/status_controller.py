"""The window's status bar: which model answers, whether Ollama answers, chunk count, engine state.

Every label is re-rendered from its state on a language change, so nothing stays in
the language the window started with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from core.engine import LocalEngine
from desktop.hosts import StatusHost
from desktop.texts import backend_text
from desktop.workers import CallWorker

if TYPE_CHECKING:
    from core.types import Trace


class StatusController(QObject):
    """Owns the status bar's permanent labels and the engine and Ollama checks that fill them."""

    def __init__(self, window: StatusHost) -> None:
        super().__init__(window)
        self.w = window
        bar = window.statusBar()
        self.backend_label = QLabel()
        self.ollama_label = QLabel()
        self.chunks_label = QLabel()
        self.engine_label = QLabel()
        for label in (self.backend_label, self.ollama_label, self.chunks_label, self.engine_label):
            bar.addPermanentWidget(label)
        self.ollama_ok: bool | None = None
        self.engine_state = "local"  # local, loading, ready, failed, stopped
        self.engine_timings: dict = {}
        self.trace: Trace | None = None  # the current answer's, once there is one
        self.ollama_diagnosis = None  # the last check's core.ollama_check.OllamaDiagnosis
        self.fallback = None  # the OllamaDiagnosis of the last "Automatic" fallback to passages
        self._fallback_shown = ""  # the fallback's text while the status bar shows it
        self.retranslate()

    def retranslate(self) -> None:
        """Render every label from its state in the current language."""
        self.engine_label.setAccessibleName(self.tr("Engine state"))
        self.show_ollama()
        self.show_model(self.trace)
        self.show_engine()
        if self.fallback is not None:
            # Re-word the fallback's reason (issue #24: it stayed English in a Spanish window); the
            # status bar's message is shown again only while it is still there, the tooltip always.
            if self._fallback_shown and self.w.statusBar().currentMessage() == self._fallback_shown:
                self._show_fallback(20000)
            else:
                from desktop.ollama_texts import fallback_text

                self._fallback_shown = ""
                self.backend_label.setToolTip(fallback_text(self.fallback or None))
        if not self.chunks_label.text():
            self.chunks_label.setText(self.tr("Chunks: —"))

    # --- model and Ollama -------------------------------------------------------------

    def check_ollama(self) -> None:
        """Ask (network lane) whether the configured Ollama host answers."""
        from core.ollama_check import diagnose

        settings = self.w.settings
        self.w.jobs.call(lambda: diagnose(settings.ollama_host, timeout_s=1.5), self._on_ollama_checked,
                         pool=self.w.net_pool)

    def _on_ollama_checked(self, diagnosis) -> None:
        self.ollama_diagnosis = diagnosis
        self.ollama_ok = diagnosis.kind in ("ok", "no_model")
        self.show_ollama()
        self.w.welcome.set_ollama(self.ollama_ok, self.w.settings)
        if self.trace is None:
            self.show_model(None)

    def explain_fallback(self) -> None:
        """"Automatic" answered with passages: ask the host why (network lane), then say so in the
        status bar with the reason and its fix (issue #24: the fallback was silent)."""
        from core.ollama_check import diagnose

        settings = self.w.settings
        self.w.jobs.call(lambda: diagnose(settings.ollama_host, settings.ollama_model, timeout_s=1.5),
                         self._on_fallback_explained, lambda exc: self._on_fallback_explained(None),
                         pool=self.w.net_pool)

    def _on_fallback_explained(self, diagnosis) -> None:
        self.fallback = diagnosis if diagnosis is not None else False
        text = self._show_fallback(20000)
        self.w.fallback_explained.emit(text)

    def _show_fallback(self, timeout_ms: int) -> str:
        """Say in the status bar, in the current language, why "Automatic" answered with passages."""
        from desktop.ollama_texts import fallback_text

        text = fallback_text(self.fallback or None)
        self.w.statusBar().showMessage(text, timeout_ms)
        self.backend_label.setToolTip(text)
        self._fallback_shown = text
        return text

    def show_ollama(self) -> None:
        if self.ollama_ok is None:
            self.ollama_label.setText(self.tr("Ollama: checking…"))
        else:
            self.ollama_label.setText(self.tr("Ollama: reachable") if self.ollama_ok else self.tr("Ollama: not reachable"))
        from desktop.ollama_texts import problem_text

        d = self.ollama_diagnosis
        # The label stays short (a long error squeezed the window); the host and the reason are its tooltip.
        self.ollama_label.setToolTip(problem_text(d) if d is not None and not self.ollama_ok
                                     else self.w.settings.ollama_host)

    def show_model(self, trace: Trace | None) -> None:
        """Say which model answered the current answer (``trace``), or which one will answer."""
        self.trace = trace
        if trace is not None:
            if trace.backend == "passages":  # no model: the passages themselves, not the scoring's description
                self.backend_label.setText(self.tr("Answer with: {backend}").format(backend=backend_text("passages")))
            elif trace.backend:
                self.backend_label.setText(self.tr("Model: {backend} ({model})").format(
                    backend=backend_text(trace.backend), model=trace.model))
            else:
                self.backend_label.setText(self.tr("Model: not called"))
            return
        if self.ollama_ok is None:
            self.backend_label.setText(self.tr("Model: —"))
            return
        s = self.w.settings
        if s.backend == "ollama" or (s.backend == "auto" and self.ollama_ok):
            self.backend_label.setText(self.tr("Model: {backend} ({model})").format(
                backend=backend_text("ollama").lower(), model=s.ollama_model))
        elif s.backend == "embedded":
            self.backend_label.setText(self.tr("Model: {backend} ({model})").format(
                backend=backend_text("embedded"), model=self.tr("demo model")))
        else:  # "passages", or "auto" without Ollama (core.generate.backend_choice)
            self.backend_label.setText(self.tr("Answer with: {backend}").format(backend=backend_text("passages")))

    # --- engine ------------------------------------------------------------------------

    def watch_engine(self) -> None:
        """Start the engine (if it is a process) and show its state: loading, then ready.

        The wait runs in a daemon thread: the engine's warm-up takes ~10 s and
        must hold up neither the window nor its destruction.
        """
        engine = self.w.engine
        if isinstance(engine, LocalEngine):
            self.engine_state = "local"
            self.show_engine()
            return
        self.engine_state = "loading"
        self.show_engine()

        def wait() -> dict:
            engine.start()
            engine.wait_ready()
            try:  # `verbatim ask` for this data folder answers in this engine too (issue #24)
                from core.engine_server import share_engine_op

                engine.call(share_engine_op)
            except Exception:  # noqa: BLE001 - best effort: `ask` then starts its own warm engine
                pass
            return dict(engine.warm_up_timings)

        self.w.jobs.start(CallWorker(wait), self.w.watching.pool, on_result=self._on_engine_ready,
                          on_error=lambda exc: self._set_engine("failed"))

    def _set_engine(self, state: str) -> None:
        self.engine_state = state
        self.show_engine()

    def _on_engine_ready(self, timings: dict) -> None:
        self.engine_timings = timings
        self._set_engine("ready" if self.w.engine.pid is not None else "stopped")

    def show_engine(self) -> None:
        texts = {
            "local": self.tr("Engine: in this process"),
            "loading": self.tr("Engine: loading…"),
            "ready": self.tr("Engine: ready"),
            "failed": self.tr("Engine: failed to start"),
            "stopped": self.tr("Engine: stopped"),
        }
        self.engine_label.setText(texts[self.engine_state])
        if self.engine_state == "loading":
            self.engine_label.setToolTip(self.tr("Loading the search libraries and the embedding model in the "
                                                 "background; the window is usable meanwhile."))
        elif self.engine_state == "ready":
            self.engine_label.setToolTip(self.tr("Engine process {pid}; loaded in {s} s").format(
                pid=self.w.engine.pid, s=f"{self.engine_timings.get('total', 0.0):.1f}"))
