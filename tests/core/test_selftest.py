"""The installation self-test: the real command in a subprocess, and its network guard."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core.selftest import _is_loopback, no_network
from tests.conftest import REPO


def test_guard_refuses_and_records_a_non_loopback_connection() -> None:
    blocked: list[str] = []
    real_connect = socket.socket.connect
    with no_network(blocked), socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        with pytest.raises(ConnectionRefusedError, match="self-test"):
            s.connect(("192.0.2.1", 443))  # TEST-NET-1: documentation range, never routed
        with pytest.raises(ConnectionRefusedError, match="self-test"):
            s.connect_ex(("192.0.2.2", 80))
    assert blocked == [repr(("192.0.2.1", 443)), repr(("192.0.2.2", 80))]
    assert socket.socket.connect is real_connect  # restored after the block


def test_guard_lets_loopback_through() -> None:
    blocked: list[str] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with no_network(blocked), socket.create_connection(server.getsockname(), timeout=2):
            pass
    assert blocked == []
    assert _is_loopback(("::1", 1, 0, 0)) and _is_loopback("/tmp/sock") and not _is_loopback(("ollama.example", 1))


def test_desktop_self_test_runs_headless_offline_and_passes(tmp_path: Path) -> None:
    """`python -m desktop --self-test` with no display, an empty HOME, and a user
    environment that asks for Ollama: it must use the embedded model, pass every
    check, and keep the highlighted page when asked to."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VERBATIM_", "QT_", "DISPLAY", "WAYLAND", "XDG_", "HF_", "TORCH_HOME",
                                "MPLCONFIGDIR", "LLAMA_INDEX"))}
    if "VERBATIM_EMBEDDING_MODEL" in os.environ:  # reuse the session's extracted model
        env["VERBATIM_EMBEDDING_MODEL"] = os.environ["VERBATIM_EMBEDDING_MODEL"]
    home = tmp_path / "home"
    home.mkdir()
    env.update(HOME=str(home), VERBATIM_BACKEND="ollama", VERBATIM_OLLAMA_HOST="http://192.0.2.1:11434",
               VERBATIM_TOP_K="6")
    png_dir = tmp_path / "png"
    proc = subprocess.run(
        [sys.executable, "-m", "desktop", "--self-test", "--self-test-png", str(png_dir)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=3600,  # ~2 min idle; 23 min at load 15 on 2 cores
    )
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr[-3000:]
    for check in ("models found", "sample indexed", "every shown citation verified",
                  "unanswerable question abstained", "engine process", "verifier", "page rendered with highlight",
                  "no network"):
        assert f"[ok] {check}" in out, out
    assert "[ok] answerable question" in out or "[note] answerable question" in out, out
    assert "FAILED" not in out, out
    assert "Self-test passed" in out
    png = png_dir / "selftest-page.png"
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    # The data and every dependency's cache went to the temporary folder (removed after):
    # nothing in HOME, not even the user's data folder (core.offline.cache_env).
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
