"""Hybrid retrieval: BM25 ∥ dense → reciprocal rank fusion → eligibility filter.

Split out of :mod:`core.pipeline` so retrieval can grow (document scope, ranking inside
a document) without touching generation; :mod:`core.pipeline` re-exports its names.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from core.settings import Settings
from core.store import Workspace
from core.types import ScoredChunk, Trace


def reciprocal_rank_fusion(rankings: list[list[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = Σ 1 / (k + rank_i(d)), ranks 1-based.

    Source: Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
    Condorcet and individual Rank Learning Methods", SIGIR 2009 (k = 60).
    Ties keep first-seen order.
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def retrieve(workspace: Workspace, question: str, settings: Settings, trace: Trace, k: int | None = None) -> list[ScoredChunk]:
    """Hybrid retrieval: BM25 ∥ dense → RRF → eligibility → top ``k`` (default ``settings.top_k``).

    Ineligible documents (status other than ``active``) are excluded inside both
    store queries, and again after fusion against the manifest, so a chunk the
    manifest does not know (e.g. left by an interrupted write) never reaches
    the model. Fills ``trace.bm25/dense/fused/eligible/eligible_docs``.
    """
    k = k or settings.top_k
    exclude = workspace.ineligible_doc_ids()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        f_bm25 = pool.submit(workspace.bm25_search, question, settings.bm25_candidates, exclude)
        f_dense = pool.submit(workspace.dense_search, question, settings.dense_candidates, exclude)
        bm25, dense = f_bm25.result(), f_dense.result()
    trace.timings_ms["retrieve"] = round((time.perf_counter() - t0) * 1000, 1)
    fused = reciprocal_rank_fusion([bm25, dense], k=settings.rrf_k)
    trace.bm25, trace.dense, trace.fused = bm25, dense, [cid for cid, _ in fused]
    chunks = workspace.get_chunks(trace.fused)
    eligible_docs = workspace.eligible_doc_ids()
    eligible = [(cid, s) for cid, s in fused if cid in chunks and chunks[cid].doc_id in eligible_docs]
    trace.eligible = [cid for cid, _ in eligible]
    trace.eligible_docs = sorted(eligible_docs)
    bm25_rank = {c: i for i, c in enumerate(bm25, 1)}
    dense_rank = {c: i for i, c in enumerate(dense, 1)}
    return [
        ScoredChunk(chunk=chunks[cid], score=s, bm25_rank=bm25_rank.get(cid), dense_rank=dense_rank.get(cid))
        for cid, s in eligible[:k]
    ]
