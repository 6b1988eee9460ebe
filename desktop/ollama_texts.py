"""Ollama problems in the window's words: the host, what went wrong, and the fix that fits.

Formats a :class:`core.ollama_check.OllamaDiagnosis` (the probe itself is core's, no Qt):
a local host is started with ``ollama serve``; a remote one is checked on its machine
(on, listening beyond loopback, port open, model pulled there) — issue #24.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from core.ollama_check import OllamaDiagnosis

_CTX = "OllamaTexts"

# One literal per message (pyside6-lupdate does not join implicitly concatenated strings).
NOT_RUNNING = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama is not running at {host} ({error}). Start it with: ollama serve")
REMOTE_SILENT = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} did not answer ({error}). Check that the machine is on, that Ollama there listens on the network (OLLAMA_HOST=0.0.0.0) and that no firewall blocks port {port}.")  # noqa: E501
NO_MODEL = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} has no model '{model}'. Install it with: ollama pull {model}")
REMOTE_NO_MODEL = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} has no model '{model}'. Install it on that machine (ollama pull {model}) or choose one of its models.")  # noqa: E501
NOT_OLLAMA = QT_TRANSLATE_NOOP("OllamaTexts", "{host} answered HTTP 404 to /api/tags: it is not an Ollama server, or not its address. Check the host and port (Ollama's default port is 11434).")  # noqa: E501
LOCAL_HTTP = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} answered HTTP {status} ({error}). Restart it: ollama serve")
REMOTE_HTTP = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} answered HTTP {status} ({error}). Check the Ollama server on that machine.")  # noqa: E501
BAD_REPLY = QT_TRANSLATE_NOOP("OllamaTexts", "{host} answered, but not as Ollama does. Check the host and port.")
NO_MODELS = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama at {host} has no models installed (ollama pull <model>).")
FALLBACK = QT_TRANSLATE_NOOP("OllamaTexts", "Automatic: answered with passages (no model). {reason}")
FALLBACK_UNKNOWN = QT_TRANSLATE_NOOP("OllamaTexts", "Ollama did not answer with the model when the question was asked.")
#: Network error names core.ollama_check reports.
ERRORS = (
    QT_TRANSLATE_NOOP("OllamaTexts", "connection refused"),
    QT_TRANSLATE_NOOP("OllamaTexts", "timed out"),
    QT_TRANSLATE_NOOP("OllamaTexts", "host name not found"),
    QT_TRANSLATE_NOOP("OllamaTexts", "network unreachable"),
)


def _t(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


def problem_text(d: OllamaDiagnosis) -> str:
    """What is wrong with Ollama at ``d.host`` and how to fix it ('' when it answers with the model)."""
    host, error, model = d.host, _t(d.error) if d.error in ERRORS else d.error, d.model
    if d.kind == "ok":
        return ""
    if d.kind == "network":
        return (_t(NOT_RUNNING) if d.local else _t(REMOTE_SILENT)).format(host=host, error=error, port=d.port)
    if d.kind == "no_model":
        return (_t(NO_MODEL) if d.local else _t(REMOTE_NO_MODEL)).format(host=host, model=model)
    if d.kind == "http" and d.status == 404:
        return _t(NOT_OLLAMA).format(host=host)
    if d.kind == "http":
        return (_t(LOCAL_HTTP) if d.local else _t(REMOTE_HTTP)).format(host=host, status=d.status, error=error)
    return _t(BAD_REPLY).format(host=host)


def models_text(d: OllamaDiagnosis) -> str:
    """Settings' line after Refresh: how many models the host lists, or what is wrong."""
    if d.kind in ("ok", "no_model"):
        if not d.models:
            return _t(NO_MODELS).format(host=d.host)
        return QCoreApplication.translate("OllamaTexts", "Ollama at {host} reports %n models.", "",
                                          len(d.models)).format(host=d.host)
    return problem_text(d)


def fallback_text(d: OllamaDiagnosis | None) -> str:
    """The status bar's line when "Automatic" answered with passages, with the reason."""
    reason = (problem_text(d) if d is not None else "") or _t(FALLBACK_UNKNOWN)
    return _t(FALLBACK).format(reason=reason)
