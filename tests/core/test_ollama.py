"""OllamaBackend against recorded Ollama API exchanges.

Every exchange lives in ``tests/fixtures/ollama/*.json`` with the request
(method, path, body), the response (status, headers, body or NDJSON chunks) and
a ``source`` naming where in the ollama/ollama repository that shape comes from
(docs/api.md examples, docs/api/errors.mdx, server/routes.go). The fixtures are
replayed through ``httpx.MockTransport`` under the official ``ollama`` client,
so the client's real request encoding and response parsing are exercised.
"""

from __future__ import annotations

import core  # noqa: F401  (offline switches first)

import functools
import json
from pathlib import Path

import httpx
import ollama
import pytest

import core.generate as generate
from core.errors import ModelUnavailableError
from core.generate import GenerationResult, OllamaBackend, make_backend, strip_thinking
from core.settings import Settings
from core.types import answer_schema

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ollama"
HOST = "http://127.0.0.1:11434"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _response(rec: dict) -> httpx.Response:
    resp = rec["response"]
    if "ndjson" in resp:
        # The server writes json.Marshal(chunk) + "\n" per chunk (server/routes.go streamResponse).
        content = "".join(json.dumps(c, separators=(",", ":")) + "\n" for c in resp["ndjson"]).encode()
    else:
        content = json.dumps(resp["body"], separators=(",", ":")).encode()
    return httpx.Response(resp["status"], headers=resp["headers"], content=content)


class Replay:
    """An ``httpx.MockTransport`` handler that answers from recordings and keeps every request."""

    def __init__(self, *recordings: dict) -> None:
        self.recordings = list(recordings)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        for rec in self.recordings:
            if rec["request"]["method"] == request.method and rec["request"]["path"] == request.url.path:
                return _response(rec)
        raise AssertionError(f"no recording for {request.method} {request.url.path}")

    def bodies(self, path: str) -> list[dict]:
        return [json.loads(r.content) for r in self.requests if r.url.path == path]

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


def backend(model: str, replay: Replay | httpx.MockTransport, **kw) -> OllamaBackend:
    transport = replay.transport if isinstance(replay, Replay) else replay
    return OllamaBackend(Settings(ollama_host=HOST, ollama_model=model, **kw), transport=transport)


# --- fixtures are well formed -------------------------------------------------


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.name)
def test_every_recording_cites_its_source(path: Path) -> None:
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert "ollama/ollama" in rec["source"]
    assert rec["request"]["method"] in {"GET", "POST"}
    assert rec["request"]["path"].startswith("/api/")
    assert isinstance(rec["response"]["status"], int)
    assert ("body" in rec["response"]) != ("ndjson" in rec["response"])


# --- (1) /api/tags: list_models and check ------------------------------------


def test_list_models_returns_the_recorded_names() -> None:
    replay = Replay(load("tags.json"))
    assert backend("llama3", replay).list_models() == ["codellama:13b", "llama3:latest"]
    [req] = replay.requests
    assert (req.method, req.url.path) == ("GET", "/api/tags")


@pytest.mark.parametrize("model", ["llama3", "llama3:latest", "codellama:13b"])
def test_check_passes_for_an_installed_model(model: str) -> None:
    backend(model, Replay(load("tags.json"))).check()  # no exception


def test_check_names_the_pull_command_for_a_missing_model() -> None:
    with pytest.raises(ModelUnavailableError) as info:
        backend("llama3.2", Replay(load("tags.json"))).check()
    assert "ollama pull llama3.2" in str(info.value)
    assert "'llama3.2'" in str(info.value)


def test_make_backend_ollama_runs_check(monkeypatch: pytest.MonkeyPatch) -> None:
    replay = Replay(load("tags.json"))
    monkeypatch.setattr(generate, "OllamaBackend", functools.partial(OllamaBackend, transport=replay.transport))
    ok = make_backend(Settings(ollama_host=HOST, ollama_model="llama3"), "ollama")
    assert (ok.name, ok.model) == ("ollama", "llama3")
    with pytest.raises(ModelUnavailableError, match="ollama pull llama3.2"):
        make_backend(Settings(ollama_host=HOST, ollama_model="llama3.2"), "ollama")
    assert [r.url.path for r in replay.requests] == ["/api/tags", "/api/tags"]


# --- (2) chat_json: request body and parsed result ---------------------------


def test_chat_json_sends_schema_and_options_and_parses_the_recorded_answer() -> None:
    rec = load("chat_structured.json")
    recorded = rec["request"]["body"]
    replay = Replay(rec)
    b = backend("llama3.1", replay, seed=1234)

    result = b.chat_json(recorded["messages"], recorded["format"], num_ctx=4096, max_tokens=256)

    [sent] = replay.bodies("/api/chat")
    assert sent["model"] == "llama3.1"
    assert sent["messages"] == recorded["messages"]
    assert sent["stream"] is False
    assert sent["think"] is False  # reasoning off; accepted by models without it (server/routes.go)
    assert sent["format"] == recorded["format"]
    assert sent["options"] == {"temperature": 0, "seed": 1234, "num_ctx": 4096, "num_predict": 256}
    # The documented request is contained in ours (we only add seed/num_ctx/num_predict options).
    for key, value in recorded.items():
        if key == "options":
            assert value.items() <= sent["options"].items()
        elif key == "think":
            continue
        else:
            assert sent[key] == value, key
    assert replay.requests[0].method == "POST"
    assert replay.requests[0].headers["content-type"] == "application/json"

    assert result == GenerationResult(
        text='{"age": 22, "available": false}', prompt_tokens=34, completion_tokens=12, finish_reason="stop"
    )
    assert json.loads(result.text) == {"age": 22, "available": False}


def test_chat_json_passes_the_project_schema_through_unchanged() -> None:
    schema = answer_schema(["doc.pdf#p3-c1", "doc.pdf#p4-c2"])
    replay = Replay(load("chat_structured.json"))
    messages = [{"role": "system", "content": "Answer from the chunks."}, {"role": "user", "content": "Q?"}]

    backend("llama3.1", replay).chat_json(messages, schema, num_ctx=8192, max_tokens=700)

    [sent] = replay.bodies("/api/chat")
    assert sent["format"] == schema
    assert sent["format"]["$defs"]["ModelCitation"]["properties"]["chunk_id"]["enum"] == [
        "doc.pdf#p3-c1",
        "doc.pdf#p4-c2",
    ]
    assert sent["messages"] == messages
    assert sent["options"] == {"temperature": 0, "seed": 42, "num_ctx": 8192, "num_predict": 700}


# --- (3) recorded 404 ----------------------------------------------------------


def test_recorded_404_names_the_pull_command() -> None:
    rec = load("chat_model_not_found.json")
    replay = Replay(rec)
    with pytest.raises(ModelUnavailableError) as info:
        backend("llama3.2", replay).chat_json(rec["request"]["body"]["messages"], {"type": "object"},
                                              num_ctx=2048, max_tokens=64)
    assert "ollama pull llama3.2" in str(info.value)
    cause = info.value.__cause__
    assert isinstance(cause, ollama.ResponseError)
    assert cause.status_code == 404
    assert cause.error == 'model "llama3.2" not found, try pulling it first'
    [sent] = replay.bodies("/api/chat")
    assert sent["model"] == rec["request"]["body"]["model"]


# --- (4) server down / timeout -------------------------------------------------


def _refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


def test_connection_refused_on_chat_says_not_reachable() -> None:
    b = backend("llama3.2", httpx.MockTransport(_refuse))
    with pytest.raises(ModelUnavailableError) as info:
        b.chat_json([{"role": "user", "content": "hi"}], {"type": "object"}, num_ctx=2048, max_tokens=64)
    msg = str(info.value)
    assert "not reachable at http://127.0.0.1:11434" in msg
    assert "ollama serve" in msg


def test_connection_refused_on_check_says_not_reachable() -> None:
    b = backend("llama3.2", httpx.MockTransport(_refuse))
    with pytest.raises(ModelUnavailableError, match=r"not reachable at http://127\.0\.0\.1:11434.*ollama serve"):
        b.check()


def test_read_timeout_on_chat_says_how_long_it_waited() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    b = backend("llama3.2", httpx.MockTransport(slow), request_timeout_s=120)
    with pytest.raises(ModelUnavailableError, match="did not answer within 120 s"):
        b.chat_json([{"role": "user", "content": "hi"}], {"type": "object"}, num_ctx=2048, max_tokens=64)


# --- (5) <think> before the JSON ---------------------------------------------


def test_think_block_is_stripped_from_the_answer() -> None:
    rec = load("chat_think.json")
    raw = rec["response"]["body"]["message"]["content"]
    assert raw.startswith("<think>\n")
    replay = Replay(rec)

    result = backend("deepseek-r1", replay).chat_json(
        rec["request"]["body"]["messages"], rec["request"]["body"]["format"], num_ctx=4096, max_tokens=512
    )

    assert result.text == '{"age": 22, "available": false}'
    assert result.text == strip_thinking(raw)
    assert json.loads(result.text) == {"age": 22, "available": False}
    assert (result.prompt_tokens, result.completion_tokens) == (26, 298)


# --- (6) the streamed shape, read by the plain ollama client ------------------


def test_recorded_stream_is_consumed_by_the_ollama_client() -> None:
    rec = load("chat_stream.json")
    replay = Replay(rec)
    client = ollama.Client(host=HOST, transport=replay.transport)

    parts = list(client.chat(model="llama3.2", messages=rec["request"]["body"]["messages"], stream=True))

    [sent] = replay.bodies("/api/chat")
    # The client's request is the documented one; ollama-python adds an empty "tools" list.
    assert sent.pop("tools") == []
    assert sent == rec["request"]["body"]
    assert [p.message.content for p in parts] == ["The", ""]
    assert [p.done for p in parts] == [False, True]
    assert "".join(p.message.content or "" for p in parts) == "The"
    final = parts[-1]
    assert final.message.role == "assistant"
    assert (final.prompt_eval_count, final.eval_count) == (26, 282)
    assert final.total_duration == 4883583458
    assert all(p.prompt_eval_count is None for p in parts[:-1])


def test_error_line_mid_stream_raises_response_error() -> None:
    rec = load("chat_stream_error.json")
    client = ollama.Client(host=HOST, transport=Replay(rec).transport)
    seen: list[str] = []
    with pytest.raises(ollama.ResponseError) as info:
        for part in client.chat(model="llama3.2", messages=rec["request"]["body"]["messages"], stream=True):
            seen.append(part.message.content)
    assert seen == ["The"]
    assert info.value.error == "an error was encountered while running the model"


# --- (7) other HTTP errors name the status and the server's words -------------


def test_recorded_503_names_status_and_server_message() -> None:
    rec = load("chat_server_busy.json")
    b = backend("llama3.2", Replay(rec))
    with pytest.raises(ModelUnavailableError) as info:
        b.chat_json(rec["request"]["body"]["messages"], {"type": "object"}, num_ctx=2048, max_tokens=64)
    msg = str(info.value)
    assert "HTTP 503" in msg and "'llama3.2'" in msg and HOST in msg
    assert "server busy, please try again." in msg


def test_list_models_when_the_server_is_down_says_how_to_start_it() -> None:
    with pytest.raises(ModelUnavailableError, match="ollama serve"):
        backend("llama3.2", httpx.MockTransport(_refuse)).list_models()


# --- (8) token estimate: calibrated against real tokenizers (tests/core/test_tokens.py) ---------


def test_the_recorded_count_of_a_tiny_prompt_leaves_the_calibration_alone() -> None:
    """The documented exchange reports 34 prompt tokens for one short message: too short to
    calibrate on (template tokens dominate), so the model's correction stays at 1.0."""
    from core.generate import calibration_for, estimate_tokens

    rec = load("chat_structured.json")
    replay = Replay(rec)
    b = backend("llama3.1", replay)
    assert calibration_for(HOST, "llama3.1").factor == 1.0
    result = b.chat_json(rec["request"]["body"]["messages"], rec["request"]["body"]["format"], num_ctx=2048, max_tokens=64)
    assert result.prompt_tokens == 34
    assert b.calibration.factor == 1.0
    text = "The Supplier shall deliver the goods within thirty (30) days of the Order. " * 20
    assert b.count_tokens(text) == estimate_tokens(text, "llama3.1")


# --- (9) the optional support check (judge) over the structured-output exchange ---------------


def test_judge_support_sends_the_verdict_schema_and_reads_the_label() -> None:
    from core.types import Citation, Claim, MatchKind, SupportVerdict
    from core.verify import judge_support

    rec = load("chat_judge_verdict.json")
    replay = Replay(rec)
    claim = Claim(text="Delivery is due within 60 days.", citations=[Citation(
        chunk_id="c#p1-c0", doc_id="c", path="/c.pdf", page=1, quote="deliver the goods within thirty (30) days",
        match=MatchKind.exact, score=100, start=0, end=41)])

    verdict = judge_support(backend("llama3.1", replay), claim)

    assert verdict.label == "contradicted" and "60 days" in verdict.reason
    [sent] = replay.bodies("/api/chat")
    assert sent["format"] == SupportVerdict.model_json_schema()
    assert sent["think"] is False and sent["options"]["temperature"] == 0
    assert "deliver the goods within thirty (30) days" in sent["messages"][1]["content"]
    assert "Delivery is due within 60 days." in sent["messages"][1]["content"]
    assert sent["options"]["num_ctx"] >= sent["options"]["num_predict"] + 50


def test_judge_reply_that_does_not_parse_counts_as_unsupported() -> None:
    from core.types import Citation, Claim, MatchKind
    from core.verify import judge_support

    replay = Replay(load("chat_structured.json"))  # the docs' {age, available}: not a verdict
    claim = Claim(text="x", citations=[Citation(chunk_id="c", doc_id="c", path="/c", page=1, quote="q" * 20,
                                                match=MatchKind.exact, score=100, start=0, end=20)])
    assert judge_support(backend("llama3.1", replay), claim).label == "neutral"
