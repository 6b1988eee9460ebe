"""Offline guarantee: ingestion, indexing and answering with every non-loopback connection refused.

Runs in a fresh interpreter so that import-time network attempts (hub checks,
telemetry) are caught too, with ``HOME`` pointed at an empty folder that must
hold nothing but the data folder afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import LAB, REPO

_GUARD = textwrap.dedent(
    r'''
    import ipaddress, socket, sys, json
    ATTEMPTS = []

    def _loopback(host):
        if host in (None, "", "localhost", "localhost.localdomain"):
            return True
        try:
            return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
        except ValueError:
            return False

    def _check(what, address):
        if isinstance(address, (str, bytes)):  # AF_UNIX path
            return
        host = address[0] if isinstance(address, tuple) else address
        if not _loopback(host):
            ATTEMPTS.append(f"{what} {address!r}")
            raise OSError(f"network blocked by test: {what} {address!r}")

    _connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
    _create, _gai = socket.create_connection, socket.getaddrinfo

    def connect(self, address):
        _check("connect", address)
        return _connect(self, address)

    def connect_ex(self, address):
        _check("connect_ex", address)
        return _connect_ex(self, address)

    def create_connection(address, *a, **k):
        _check("create_connection", address)
        return _create(address, *a, **k)

    def getaddrinfo(host, *a, **k):
        _check("getaddrinfo", (host,))
        return _gai(host, *a, **k)

    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
    socket.create_connection, socket.getaddrinfo = create_connection, getaddrinfo
    '''
)

_RUN = textwrap.dedent(
    r'''
    import core
    from core.generate import make_backend
    from core.pipeline import answer_question, index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    folders = sys.argv[1:]
    settings = Settings(backend="embedded", top_k=3, embedded_answer_tokens=96)  # small: the machine is shared
    ws = Workspace("offline", settings)
    report = run(index_folders(ws, folders))
    answer = run(answer_question(ws, "¿Cuál es el plazo para solicitar una devolución?", settings,
                                 backend=make_backend(settings, "embedded")))
    statuses = {d["doc_id"]: d["status"] for d in ws.documents()}
    print(json.dumps({"attempts": ATTEMPTS, "documents": report.documents, "failures": len(report.failures),
                      "backend": answer.trace.backend, "context": answer.trace.context, "statuses": statuses}))
    '''
)


def test_index_and_answer_with_network_blocked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    script = tmp_path / "offline_run.py"
    script.write_text(_GUARD + _RUN, encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HF_", "XDG_", "TRANSFORMERS", "SENTENCE_TRANSFORMERS", "LLAMA_INDEX", "NLTK",
                                "TIKTOKEN", "LANCE"))}
    env.update(HOME=str(home), VERBATIM_HOME=str(home / "data"), PYTHONPATH=str(REPO))
    out = subprocess.run(
        [sys.executable, str(script), str(LAB / "corpus" / "public"), str(LAB / "corpus" / "norte")],
        capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["attempts"] == []
    assert result["documents"] == 7 and result["failures"] == 0
    assert result["backend"] == "embedded" and result["context"]
    assert result["statuses"]["norte/nota-proveedor-externo.md"] == "quarantined"
    assert not any(c.startswith("norte/nota-proveedor-externo.md") for c in result["context"])
    # Nothing written outside the data folder.
    assert sorted(p.name for p in home.iterdir()) == ["data"]


def test_offline_switches_reach_every_library(tmp_path: Path) -> None:
    code = textwrap.dedent(
        '''
        import json, os
        import core
        import huggingface_hub.constants as hub
        import transformers.utils.hub as thub
        import sys
        import core.store, core.generate, llama_index.core, lancedb, sentence_transformers  # noqa: F401
        import openvino, openvino.tools.ovc.telemetry_utils as ovc_tm  # noqa: F401 (the embedding runtime's converter)
        print(json.dumps({
            "env": {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY",
                                                   "DO_NOT_TRACK", "LANCE_TELEMETRY", "LANCEDB_TELEMETRY")},
            "hub_offline": hub.HF_HUB_OFFLINE, "hub_telemetry_off": hub.HF_HUB_DISABLE_TELEMETRY,
            "transformers_offline": thub.is_offline_mode(),
            "onnxruntime_loaded": sys.modules.get("onnxruntime") is not None,
            "openvino_telemetry_loaded": sys.modules.get("openvino_telemetry") is not None,
            "ovc_telemetry_is_stub": ovc_tm.tm.__name__.endswith("telemetry_stub"),
            "llama_index_cache_in_data": os.environ["LLAMA_INDEX_CACHE_DIR"].startswith(os.environ["VERBATIM_HOME"]),
        }))
        '''
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS", "DO_NOT_TRACK", "LANCE"))}
    env.update(PYTHONPATH=str(REPO), VERBATIM_HOME=str(tmp_path / "data"))
    env.pop("LLAMA_INDEX_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {
        "env": {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
                "DO_NOT_TRACK": "1", "LANCE_TELEMETRY": "0", "LANCEDB_TELEMETRY": "0"},
        "hub_offline": True, "hub_telemetry_off": True, "transformers_offline": True,
        "onnxruntime_loaded": False, "openvino_telemetry_loaded": False, "ovc_telemetry_is_stub": True,
        "llama_index_cache_in_data": True,
    }


def test_importing_core_caps_glibc_malloc_arenas_unless_the_environment_chose() -> None:
    # Issue #15: threads' malloc arenas held 530 MB freed memory after 16 questions at 1M chunks.
    code = "import core, core.memory as m; print(m.arenas_limited)"
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    capped = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert capped.stdout.strip() == str(sys.platform.startswith("linux"))
    chosen = subprocess.run([sys.executable, "-c", code], env=dict(env, MALLOC_ARENA_MAX="8"), capture_output=True,
                            text=True, check=True)
    assert chosen.stdout.strip() == "False"  # the user's setting is left alone
