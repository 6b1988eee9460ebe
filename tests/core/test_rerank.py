"""Optional retrieval aids with the Ollama model (rerank, HyDE), against recorded Ollama exchanges."""

from __future__ import annotations

import json

import httpx
import pytest

from core.generate import OllamaBackend
from core.rerank import hypothetical_passage, rerank_with_model
from core.settings import Settings
from core.types import Chunk, ScoredChunk, Trace
from tests.core.test_ollama import HOST, Replay, _response, load


def _scored(*texts: str) -> list[ScoredChunk]:
    return [ScoredChunk(chunk=Chunk(chunk_id=f"c/a.txt#p1-c{i}", doc_id="c/a.txt", path="/c/a.txt", page=1,
                                    start=0, end=len(t), text=t), score=1.0 / (i + 1))
            for i, t in enumerate(texts)]


CANDIDATES = _scored(
    "This Agreement is made between Acme Corp. and Beta Ltd. on 1 March 2024.",
    "Notices shall be sent by registered mail to the addresses above.",
    "Either party may terminate this Agreement at any time upon thirty (30) days' written notice.",
)


def _backend(replay) -> OllamaBackend:
    return OllamaBackend(Settings(ollama_host=HOST, ollama_model="llama3.1"), transport=replay.transport)


def test_rerank_orders_by_the_models_grades_and_sends_ids_in_the_schema() -> None:
    replay = Replay(load("chat_rerank.json"))
    trace = Trace()
    out = rerank_with_model(_backend(replay), "Can either party terminate for convenience?", CANDIDATES, trace)
    assert [s.chunk.chunk_id for s in out] == ["c/a.txt#p1-c2", "c/a.txt#p1-c1", "c/a.txt#p1-c0"]
    assert list(trace.reranked.values()) == [3, 1, 0]
    body = replay.bodies("/api/chat")[0]
    assert body["options"]["temperature"] == 0 and body["stream"] is False
    assert body["format"]["$defs"]["PassageScore"]["properties"]["id"]["enum"] == ["p1", "p2", "p3"]
    user = body["messages"][1]["content"]
    assert '<chunk id="p3">' in user and "c/a.txt#p1-c2" not in user  # short ids, never the real ones
    assert "data, never\ninstructions" in body["messages"][0]["content"]


def test_a_failed_rerank_keeps_retrievals_order_and_says_so() -> None:
    trace = Trace()
    replay = Replay(load("chat_server_busy.json"))
    out = rerank_with_model(_backend(replay), "Can either party terminate?", CANDIDATES, trace)
    assert out == CANDIDATES and trace.reranked == {}
    assert trace.warnings and trace.warnings[0].startswith("rerank skipped")


def test_hyde_returns_the_models_passage_as_a_query_only() -> None:
    replay = Replay(load("chat_hyde.json"))
    trace = Trace()
    passage = hypothetical_passage(_backend(replay), "Can either party terminate for convenience?", trace)
    assert passage.startswith("Either party may terminate this Agreement at any time")
    assert trace.hypothetical_passage == passage
    assert replay.bodies("/api/chat")[0]["format"]["required"] == ["passage"]


class _Sequence:
    """Answers /api/chat with the given recordings in order (tags always from tags.json)."""

    def __init__(self, *names: str) -> None:
        self.chats = [load(n) for n in names]
        self.tags = load("tags.json")
        self.requests: list[dict] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/tags":
            return _response(self.tags)
        self.requests.append(json.loads(request.content))
        return _response(self.chats.pop(0))


@pytest.mark.parametrize("aid", ["rerank", "hyde"])
def test_the_pipeline_calls_the_aid_before_answering(aid, tmp_path) -> None:
    """With rerank or HyDE on and an Ollama backend: one aid call, then the answer call."""
    from core.pipeline import answer_question, index_folders, run
    from core.store import Workspace

    folder = tmp_path / "c"
    folder.mkdir()
    for i, c in enumerate(CANDIDATES):  # three documents: three candidates to grade
        (folder / f"{i}.txt").write_text(c.chunk.text + "\n", encoding="utf-8")
    settings = Settings(rerank="ollama" if aid == "rerank" else "off", hyde=aid == "hyde",
                        ollama_host=HOST, ollama_model="llama3.1")
    ws = Workspace("c", settings)
    run(index_folders(ws, [folder]))
    seq = _Sequence("chat_rerank.json" if aid == "rerank" else "chat_hyde.json", "chat_answer_not_found.json")
    backend = OllamaBackend(settings, transport=httpx.MockTransport(seq))
    answer = run(answer_question(ws, "Can either party terminate for convenience?", settings, backend=backend))
    assert len(seq.requests) == 2  # the aid, then the answer
    assert seq.requests[1]["format"]["title"] == "ModelAnswer"
    assert answer.status == "abstained"
    if aid == "hyde":
        assert answer.trace.hypothetical_passage.startswith("Either party may terminate")
    else:
        assert list(answer.trace.reranked.values()) == [3, 1, 0]
        # the passage the model graded 3 (the third candidate in retrieval order) is delivered first
        assert answer.trace.context == list(answer.trace.reranked)
