"""A loopback HTTP server that replays recorded Ollama exchanges (``tests/fixtures/ollama``).

The window and the Settings dialog talk to Ollama through the network, not through an
injectable transport: they get the stub's ``http://127.0.0.1:<port>`` as their host. Only
the recordings' status, headers and body are served; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ollama"


def recording(name: str) -> dict:
    """A recorded exchange from ``tests/fixtures/ollama``."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class OllamaStub:
    """Serve ``recordings`` (matched by method and path) on a free loopback port; a context manager.

    Attributes:
        host: ``http://127.0.0.1:<port>``.
        requests: ``(method, path)`` of every request received.
    """

    def __init__(self, *recordings: dict) -> None:
        self.recordings = list(recordings)
        self.requests: list[tuple[str, str]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                stub.requests.append(("GET", self.path))
                for rec in stub.recordings:
                    if rec["request"]["method"] == "GET" and rec["request"]["path"] == self.path:
                        resp = rec["response"]
                        raw = resp["body"]  # a JSON value, or a plain-text body as a string
                        body = raw.encode() if isinstance(raw, str) else json.dumps(raw, separators=(",", ":")).encode()
                        self.send_response(resp["status"])
                        for k, v in resp["headers"].items():
                            self.send_header(k, v)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                        return
                self.send_error(599, "no recording")

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "OllamaStub":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def closed_port_host() -> str:
    """``http://127.0.0.1:<port>`` of a port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
