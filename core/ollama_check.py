"""Why Ollama cannot answer: the host, the HTTP status or network error, and whether it is local.

:func:`diagnose` asks ``GET /api/tags`` once and reports what happened as data; the window
and the command line word it (``desktop.ollama_texts``). Which fix fits depends on where
the server is: a host on this machine (loopback) is started with ``ollama serve``; a
remote one is checked there (the machine, its firewall, ``OLLAMA_HOST=0.0.0.0`` so it
listens beyond loopback, the model installed) — advising ``ollama serve`` for a remote
host that answers 404 sent users to the wrong machine (issue #24).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

import httpx

#: Seconds to wait for ``/api/tags``: a host that does not answer fast is reported, not waited for.
DEFAULT_TIMEOUT_S = 3.0


@dataclass
class OllamaDiagnosis:
    """What one ``GET /api/tags`` on ``host`` found.

    Attributes:
        host: the configured host URL, as configured.
        local: the host is this machine (``localhost``, ``127.0.0.0/8``, ``::1``).
        kind: ``ok`` (answered, model installed or none asked), ``no_model`` (answered, the
            model is not installed), ``http`` (answered with a non-200 status), ``network``
            (no HTTP answer: refused, timed out, name not resolved), ``bad_reply`` (200 but
            not Ollama's JSON).
        status: the HTTP status (``http``), else ``None``.
        error: the network error or the server's text, short ('' when ``ok``).
        models: model names the server lists (``ok``/``no_model``).
        model: the model that was asked for ('' = none).
    """

    host: str
    local: bool
    kind: Literal["ok", "no_model", "http", "network", "bad_reply"]
    status: int | None = None
    error: str = ""
    models: list[str] = field(default_factory=list)
    model: str = ""

    @property
    def port(self) -> int:
        """The host's port (11434 when the URL names none, Ollama's default)."""
        return urlsplit(self.host).port or 11434


def is_local_host(host: str) -> bool:
    """True when ``host`` (a URL) names this machine: ``localhost`` or a loopback address."""
    name = (urlsplit(host).hostname or "").strip("[]").lower()
    if name in ("localhost", "localhost.localdomain") or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def unreachable_fix(host: str) -> str:
    """What to do when Ollama at ``host`` (a URL) cannot be reached, as one English sentence.

    A host on this machine is started with ``ollama serve``; a remote host is checked where it runs
    (started there, listening beyond loopback with ``OLLAMA_HOST=0.0.0.0``, not blocked by a
    firewall): advising ``ollama serve`` for a remote host sends the user to the wrong machine (issue #24).
    """
    if is_local_host(host):
        return "Start it with `ollama serve`."
    return (f"Check on the machine at {host} that Ollama runs and listens beyond loopback "
            "(OLLAMA_HOST=0.0.0.0) and that no firewall blocks its port.")


def _network_error(exc: Exception) -> str:
    """A short, stable name for a network error ("connection refused", "timed out after 3 s", …)."""
    text = str(exc) or type(exc).__name__
    low = text.lower()
    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    if "refused" in low:
        return "connection refused"
    if "name or service not known" in low or "nodename nor servname" in low or "getaddrinfo" in low \
            or "temporary failure in name resolution" in low:
        return "host name not found"
    if "unreachable" in low:
        return "network unreachable"
    return text.splitlines()[0][:160]


def diagnose(host: str, model: str = "", timeout_s: float = DEFAULT_TIMEOUT_S,
             transport: httpx.BaseTransport | None = None) -> OllamaDiagnosis:
    """Ask ``host``'s ``/api/tags`` once and say what happened (never raises).

    Args:
        host: Ollama URL (``http://127.0.0.1:11434``).
        model: the model that should be installed ('' = do not check).
        timeout_s: seconds for the whole request.
        transport: an ``httpx`` transport (tests replay recorded exchanges); ``None``: the network.
    """
    local = is_local_host(host)
    kwargs = {"transport": transport} if transport is not None else {}
    try:
        with httpx.Client(timeout=timeout_s, **kwargs) as client:
            r = client.get(host.rstrip("/") + "/api/tags")
    except httpx.HTTPError as exc:
        return OllamaDiagnosis(host, local, "network", error=_network_error(exc), model=model)
    if r.status_code != 200:
        text = r.text.strip()
        try:
            text = str(r.json().get("error", text))
        except ValueError:
            pass
        return OllamaDiagnosis(host, local, "http", status=r.status_code, error=text[:160], model=model)
    try:
        models = [m.get("model") or m.get("name") for m in r.json().get("models", [])]
    except (ValueError, AttributeError):
        return OllamaDiagnosis(host, local, "bad_reply", status=200, error=r.text.strip()[:160], model=model)
    models = [m for m in models if m]
    if model:
        wanted = model if ":" in model else f"{model}:latest"
        if model not in models and wanted not in models:
            return OllamaDiagnosis(host, local, "no_model", models=models, model=model)
    return OllamaDiagnosis(host, local, "ok", models=models, model=model)
