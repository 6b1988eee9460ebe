"""Streamed model answers: each claim verified as its JSON object closes; the final Answer is the
non-streamed one. Ollama against a recorded NDJSON stream (tests/fixtures/ollama), the
embedded llama.cpp model live."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from core.errors import Cancelled, ModelUnavailableError
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.streaming import ClaimStream
from core.types import MatchKind, RejectReason
from tests.conftest import data_home
from tests.core.test_ollama import HOST, Replay, backend, load

LEASE = (
    "The Tenant shall pay the monthly rent of 1,200 euros on the first business day of each month. "
    "The lease runs for a term of three (3) years from 1 March 2024. "
    "Either party may terminate the lease with ninety (90) days written notice.\n"
)
QUESTION = "When is the rent paid and how can the lease end?"


def _content(rec: dict) -> list[str]:
    return [line["message"]["content"] for line in rec["response"]["ndjson"] if not line.get("error") and not line["done"]]


@pytest.fixture(scope="module")
def lease_ws(tmp_path_factory) -> Workspace:
    folder = tmp_path_factory.mktemp("docs") / "matter"
    folder.mkdir()
    (folder / "lease.txt").write_text(LEASE, encoding="utf-8")
    with data_home(tmp_path_factory.mktemp("home")):
        ws = Workspace("matter", Settings())
        run(index_folders(ws, [folder]))
    assert "matter/lease.txt#p1-c0" in ws.get_chunks(["matter/lease.txt#p1-c0"])  # the id the recording cites
    return ws


def _settings(**kw) -> Settings:
    return Settings(ollama_host=HOST, ollama_model="llama3.2", top_k=3, **kw)


# --- the partial-JSON reader ------------------------------------------------------


def test_claims_come_out_once_each_as_their_objects_close() -> None:
    pieces = _content(load("chat_stream_answer.json"))
    full = "".join(pieces)
    stream = ClaimStream()
    out: list[tuple[int, dict]] = []
    seen = 0
    for piece in pieces:
        seen += len(piece)
        out += [(seen, c) for c in stream.feed(piece)]
    out += [(seen, c) for c in stream.finish()]
    whole = json.loads(full)["claims"]
    assert [c for _, c in out] == whole
    # the first claim is out when the second begins, long before the reply ends
    assert out[0][0] < full.index('"Either party can end')
    # the last claim is out once "missing" follows the closed array, before the final brace
    assert out[1][0] < len(full)


def test_a_reasoning_block_holds_the_claims_back_until_it_ends() -> None:
    stream = ClaimStream()
    body = '{"claims": [{"text": "a"}, {"text": "b"}], "missing": ""}'
    assert stream.feed("<think>{\"claims\": [{\"text\": \"x\"}, {") == []
    assert stream.feed("</think>" + body) == [{"text": "a"}, {"text": "b"}]
    assert stream.finish() == []


# --- Ollama, recorded stream ------------------------------------------------------


def test_ollama_stream_verifies_each_claim_before_the_reply_ends(lease_ws) -> None:
    rec = load("chat_stream_answer.json")
    replay = Replay(rec)
    events: list = []
    answer = run(answer_question(lease_ws, QUESTION, _settings(), backend=backend("llama3.2", replay)),
                 events.append)

    [sent] = replay.bodies("/api/chat")
    assert sent["stream"] is True and sent["think"] is False and "format" in sent
    claims = [e for e in events if e.stage == "claim"]
    assert [e.done for e in claims] == [1, 2] and {e.attempt for e in claims} == {11}
    first, second = claims
    assert first.claim is not None and first.rejected == []
    [cit] = first.claim.citations
    assert cit.match == MatchKind.exact and cit.quote in LEASE
    assert LEASE[cit.start:cit.end] == cit.quote  # offsets into the page text
    assert second.claim is None  # "sixty days notice" is not in the lease: removed, with its reason
    assert {r.reason for r in second.rejected} == {RejectReason.quote_not_found, RejectReason.no_citation}
    # the streamed verdicts are the final answer's
    assert [c.text for c in answer.claims] == [first.claim.text]
    assert answer.status == "partial" and answer.rejected == second.rejected
    assert answer.trace.generations[0].completion_tokens == len(_content(rec))
    assert answer.trace.timings_ms["first_claim"] <= answer.trace.timings_ms["generate"]


def test_streamed_answer_equals_the_non_streamed_one(lease_ws) -> None:
    rec = load("chat_stream_answer.json")
    streamed = run(answer_question(lease_ws, QUESTION, _settings(), backend=backend("llama3.2", Replay(rec))))
    # The same reply, not streamed: the recorded structured-output envelope with this content.
    plain = load("chat_structured.json")
    plain["response"]["body"]["message"]["content"] = "".join(_content(rec))
    plain["response"]["body"]["prompt_eval_count"] = 26
    plain["response"]["body"]["eval_count"] = len(_content(rec))
    replay = Replay(plain)
    whole = run(answer_question(lease_ws, QUESTION, _settings(stream_answers=False), backend=backend("llama3.2", replay)))
    assert replay.bodies("/api/chat")[0]["stream"] is False

    def comparable(a):
        d = a.model_dump()
        d["trace"].pop("timings_ms")
        return d

    assert comparable(streamed) == comparable(whole)


def test_cancel_mid_stream_stops_reading_the_reply(lease_ws) -> None:
    rec = load("chat_stream_answer.json")
    lines = rec["response"]["ndjson"]
    sent: list[int] = []

    def body():
        for i, line in enumerate(lines):
            sent.append(i)
            yield (json.dumps(line) + "\n").encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "application/x-ndjson"}, content=body())

    stop = {"now": False}
    gen = answer_question(lease_ws, QUESTION, _settings(), backend=backend("llama3.2", httpx.MockTransport(handler)),
                          cancel=lambda: stop["now"])
    with pytest.raises(Cancelled):
        for event in gen:
            if event.stage == "claim":
                stop["now"] = True  # the user presses Stop after the first verified sentence
    assert 0 < len(sent) < len(lines)  # the rest of the reply was never read


def test_error_line_mid_stream_is_reported_as_model_unavailable() -> None:
    rec = load("chat_stream_error.json")
    b = backend("llama3.2", Replay(rec))
    pieces = []
    with pytest.raises(ModelUnavailableError, match="an error was encountered while running the model"):
        for piece in b.chat_json_stream(rec["request"]["body"]["messages"], {"type": "object"},
                                        num_ctx=2048, max_tokens=64):
            pieces.append(piece)
    assert pieces == ["The"]


# --- the embedded llama.cpp model, live ----------------------------------------------------


def test_embedded_stream_gives_the_same_answer_and_claims_before_the_end(lease_ws) -> None:
    from core.generate import EmbeddedBackend

    settings = Settings(top_k=1, embedded_answer_tokens=160)
    model = EmbeddedBackend(settings)
    stamps: list[tuple[str, float]] = []
    gen = answer_question(lease_ws, "When is the monthly rent paid?", settings, backend=model)
    while True:
        try:
            event = next(gen)
        except StopIteration as stop:
            streamed = stop.value
            break
        stamps.append((event.stage, time.perf_counter()))
    end = time.perf_counter()
    whole = run(answer_question(lease_ws, "When is the monthly rent paid?",
                                settings.model_copy(update={"stream_answers": False}), backend=model))

    def comparable(a):
        d = a.model_dump()
        d["trace"].pop("timings_ms")
        return d

    assert comparable(streamed) == comparable(whole)
    gen_record = streamed.trace.generations[0]
    assert gen_record.prompt_tokens == whole.trace.generations[0].prompt_tokens > 0
    claim_times = [t for stage, t in stamps if stage == "claim"]
    closed = [g for g in streamed.trace.generations if g.outcome == "valid"]
    if closed and (streamed.claims or any(r.claim for r in streamed.rejected)):
        # a claim closed before the reply's end: it was verified and reported while the model wrote on
        assert claim_times and claim_times[0] < end
        assert streamed.trace.timings_ms["first_claim"] < streamed.trace.timings_ms["generate"]


def test_a_draft_inside_any_reasoning_form_is_never_streamed() -> None:
    """B39's replies fed piece by piece: the preview hands out only the final answer's claims
    (the whole reply is parsed again afterwards; the preview must not show the draft either)."""
    import json as _json

    from tests.conftest import CASES

    samples = _json.loads((CASES / "B39_reasoning_raw_outputs.json").read_text(encoding="utf-8"))
    for sample in samples:
        stream = ClaimStream()
        got = []
        raw = sample["raw"]
        for i in range(0, len(raw), 7):
            got += stream.feed(raw[i : i + 7])
        got += stream.finish()
        texts = [c.get("text") for c in got]
        assert "The monthly rent is 1,200 euros." not in texts, sample["id"]
        if "no answer" not in sample["expected"]:
            assert texts == ["The monthly rent is 1,350 euros."], sample["id"]
