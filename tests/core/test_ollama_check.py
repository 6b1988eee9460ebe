"""core.ollama_check: what one GET /api/tags says, against recorded exchanges served on loopback
(and, for a remote host, replayed through httpx.MockTransport: nothing leaves the machine)."""

from __future__ import annotations

import core  # noqa: F401  (offline switches first)

import httpx
import pytest

from core.ollama_check import diagnose, is_local_host
from tests.ollama_stub import OllamaStub, closed_port_host, recording


@pytest.mark.parametrize("host,local", [
    ("http://127.0.0.1:11434", True), ("http://localhost:11434", True), ("http://[::1]:11434", True),
    ("http://127.0.1.1", True), ("http://gpu-box.lan:11434", False), ("http://10.0.0.7:11434", False),
])
def test_local_or_remote(host, local):
    assert is_local_host(host) is local


def test_models_listed_and_the_model_checked():
    with OllamaStub(recording("tags.json")) as stub:
        ok = diagnose(stub.host, "llama3")
        missing = diagnose(stub.host, "qwen2.5:7b")
    assert (ok.kind, ok.local, ok.models) == ("ok", True, ["codellama:13b", "llama3:latest"])
    assert (missing.kind, missing.model) == ("no_model", "qwen2.5:7b")


def test_http_status_and_server_error_text():
    with OllamaStub(recording("tags_not_found.json")) as stub:
        d404 = diagnose(stub.host, "llama3")
    with OllamaStub(recording("tags_server_error.json")) as stub:
        d500 = diagnose(stub.host, "llama3")
    assert (d404.kind, d404.status, d404.error) == ("http", 404, "404 page not found")
    assert (d500.kind, d500.status) == ("http", 500)
    assert d500.error == "open /root/.ollama/models/manifests: permission denied"


def test_nothing_listening_is_connection_refused():
    d = diagnose(closed_port_host(), "llama3", timeout_s=2)
    assert (d.kind, d.error, d.local) == ("network", "connection refused", True)


def test_remote_host_errors_are_named():
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    d = diagnose("http://gpu-box.lan:11434", "llama3", transport=httpx.MockTransport(refuse))
    assert (d.kind, d.error, d.local, d.port) == ("network", "timed out", False, 11434)
    rec = recording("tags_not_found.json")["response"]
    replay = httpx.MockTransport(lambda r: httpx.Response(rec["status"], headers=rec["headers"], content=rec["body"]))
    d = diagnose("http://gpu-box.lan:8080", "llama3", transport=replay)
    assert (d.kind, d.status, d.local, d.port) == ("http", 404, False, 8080)


def test_unreachable_advice_fits_the_host():
    """The generation and embedding clients name the fix that fits where the server is (issue #24):
    `ollama serve` on this machine, the remote machine's own checks for a remote host."""
    from core.embedding.ollama_embed import OllamaEmbedder
    from core.errors import ModelUnavailableError
    from core.ollama_check import unreachable_fix

    assert "ollama serve" in unreachable_fix("http://127.0.0.1:11434")
    remote = unreachable_fix("http://gpu-box.lan:11434")
    assert "ollama serve" not in remote and "gpu-box.lan" in remote and "OLLAMA_HOST" in remote

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    for host, local in ((closed_port_host(), True), ("http://gpu-box.lan:11434", False)):
        embedder = OllamaEmbedder("nomic-embed-text", host=host, transport=httpx.MockTransport(refuse))
        with pytest.raises(ModelUnavailableError) as err:
            embedder.get_query_embedding("rent")
        assert host in str(err.value)
        assert ("ollama serve" in str(err.value)) is local
