"""Ranking inside a scoped contract on a real index: sentence-level rankings (small-to-big) and the
scoped RRF constant (issue #20, engineer "ranking")."""

from __future__ import annotations

import pytest

from core.retrieval import fusion_k, plan_searches, reciprocal_rank_fusion, retrieve
from core.sentence_rank import sentence_index
from core.settings import Settings
from core.types import Trace
# The same two real CUAD contracts, indexed once per module, as test_wording uses.
from tests.core.test_wording import ALCO, CONVENIENCE, indexed  # noqa: F401  (indexed: a fixture)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_sentences_rank_the_chunk_holding_the_sentence_and_stay_in_scope(indexed) -> None:
    ws = indexed
    doc = f"contracts/{ALCO}"
    index = sentence_index(ws, [doc])
    assert index.chunk_ids and set(index.owners) <= set(index.chunk_ids)
    assert len(index.owners) > len(index.chunk_ids)  # several sentences per chunk
    ranked = index.rank("either party may terminate at any time upon days written notice", 30)
    chunks = ws.get_chunks(ranked)
    assert CONVENIENCE in _flat(chunks[ranked[0]].text)
    assert {c.doc_id for c in chunks.values()} == {doc}
    assert index.rank("zzzz qqqq", 30) == []  # no word of the scope: no ranking, not an error
    assert sentence_index(ws, [doc]) is index  # built once per document text


def test_parallel_rankings_of_one_scope_build_its_sentence_index_once(indexed, monkeypatch) -> None:
    """The retriever runs its keyword rankings in parallel threads; each asked for the same scope's
    sentence index and built it (review, 2026-12-02): one build per scope."""
    from concurrent.futures import ThreadPoolExecutor

    import core.sentence_rank as sr

    ws = indexed
    doc = f"contracts/{ALCO}"
    sr._cache.clear()
    builds: list[list[str]] = []
    real = sr._build

    def counted(workspace, doc_ids):
        builds.append(doc_ids)
        return real(workspace, doc_ids)

    monkeypatch.setattr(sr, "_build", counted)
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda _: sentence_index(ws, [doc]), range(4)))
    assert len(builds) == 1 and all(g is got[0] for g in got)

def test_sentence_rankings_are_searched_only_inside_a_small_scope(indexed) -> None:
    ws = indexed
    q = "Can either party terminate the agency agreement without cause?"
    scoped = plan_searches(ws, q, Settings(), scope=[f"contracts/{ALCO}"])
    kinds = {s.name: s for s in scoped.searches}
    assert "sent:bm25" in kinds and kinds["sent:bm25"].kind == "sentence" and kinds["sent:bm25"].of == "question"
    s = Settings(sentence_weight=0.5, wording_weight=3.0)
    wording = next(x for x in scoped.searches if x.kind == "sentence" and x.of == "wording")
    assert wording.weight(s) == pytest.approx(0.5 * 3.0 * wording.strength)
    lexicon = next(x for x in scoped.searches if x.kind == "lexicon")  # "terminate" → "rescindir", …
    st = Settings(lexicon_weight=0.5, scoped_lexicon_weight=1.0)
    assert lexicon.weight(st) == pytest.approx(0.5) and lexicon.weight(st, scoped=True) == pytest.approx(1.0)
    assert not any(x.kind == "sentence" for x in plan_searches(ws, q, Settings(sentence_weight=0),
                                                              scope=[f"contracts/{ALCO}"]).searches)
    unscoped = plan_searches(ws, "Can either party terminate without cause?", Settings(resolve_references=False))
    assert not any(x.kind == "sentence" for x in unscoped.searches)


def test_the_rrf_constant_is_the_scoped_one_inside_a_scope(indexed) -> None:
    ws = indexed
    st = Settings(rrf_k=60, scoped_rrf_k=5)
    q = "Can either party terminate without cause?"
    assert fusion_k(st, plan_searches(ws, q, st, scope=[f"contracts/{ALCO}"])) == 5
    assert fusion_k(st, plan_searches(ws, q, st.model_copy(update={"resolve_references": False}))) == 60


def test_a_small_rrf_constant_trusts_each_rankings_top() -> None:
    # "a" is first in three of five rankings; "b" is 10th in all five. With k = 60 the steady "b"
    # wins (5/70 > 3/61); with k = 5 the rankings' top decides (3/6 > 5/15).
    rankings = [[*(f"f{n}{i}" for i in range(9)), "b"] for n in range(5)]
    for r in rankings[:3]:
        r[0] = "a"
    assert reciprocal_rank_fusion(rankings, k=60)[0][0] == "b"
    assert reciprocal_rank_fusion(rankings, k=5)[0][0] == "a"


def test_a_scoped_question_still_finds_its_clause_with_the_defaults(indexed) -> None:
    ws = indexed
    trace = Trace()
    ranked = retrieve(ws, "can either side get out of the agency agreement early without giving a reason?",
                      Settings(), trace, k=6, scope=[f"contracts/{ALCO}"])
    assert CONVENIENCE in " ".join(_flat(s.chunk.text) for s in ranked)
