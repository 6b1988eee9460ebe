"""Retrieval latency of document-aware retrieval (issue #12) against the retrieval before it, one run.

Usage::

    python bench/retrieval_latency.py [--chunks 10000] [--runs 3] [--work DIR]

A synthetic workspace of about ``--chunks`` chunks (``bench/scale.py``'s contract-like TXT
corpus, indexed through ``Workspace.index`` with its hashed stand-in embedder, so indexing
takes about a minute) is searched with the **real** all-MiniLM-L6-v2 embedding each query
(the stored vectors are the stand-in's: rankings are meaningless, timings are not — a query
costs the same whatever vectors it meets). Variants:

* ``before #12``: ``resolve_references`` and ``clause_expansion`` off (hybrid BM25 + dense, RRF);
* ``#12 default``: a question naming a contract is searched inside it, clause wording searched too;
* ``#12 + HyDE-like extra dense query``: one more dense query per question (as ``hyde`` adds).

Questions: clause questions over the whole workspace, and the same questions naming one
contract by its two rarest naming words ("In the agreement with Pinecrest and Upland, …"). Printed: ``core.retrieval.retrieve``
wall time p50/p90 per variant and question kind (medians over ``--runs`` passes; the first
pass warms caches and is not counted), and the ratio to ``before #12``. Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from scale import QUERIES, HashEmbedder, make_corpus  # noqa: E402

WS = "latency12"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "verbatim-scale")
    args = parser.parse_args()
    folder = args.work / f"corpus-{args.chunks}"
    files = make_corpus(folder, args.chunks)
    os.environ["VERBATIM_HOME"] = str(args.work / "home-latency12")

    from core.pipeline import index_folders, run
    from core.retrieval import retrieve
    from core.settings import Settings
    from core.store import Workspace, embedding
    from core.types import Trace

    settings = Settings()
    embedding.use_embedder(HashEmbedder())
    ws = Workspace(WS, settings, create=True)
    t = time.perf_counter()
    run(index_folders(ws, [folder]))
    print(f"indexed {files} files, {ws.chunk_count()} chunks in {time.perf_counter() - t:.0f} s (stand-in embedder)")

    embedding.use_embedder(None)  # the real model embeds every query from here on
    embedding.get_embedder().get_query_embedding("warm up")
    # A contract is named as people do, by its rarest names (parties, places): the two of
    # its profile's naming words held by the fewest documents.
    profiles, _ = ws.doc_profiles()
    df: dict[str, int] = {}
    for prof in profiles.values():
        for w in prof.names:
            df[w] = df.get(w, 0) + 1
    chosen = sorted(profiles)[:: max(1, len(profiles) // len(QUERIES))]
    naming = [" and ".join(sorted(profiles[d].names - {"txt"}, key=lambda w: (df[w], w))[:2]).title() for d in chosen]
    questions = {
        "whole workspace": [f"What does the contract say about {q}?" for q in QUERIES],
        "naming a contract": [f"In the agreement with {n}, what does it say about {q}?" for n, q in zip(naming, QUERIES)],
    }
    variants = {
        "before #12": settings.model_copy(update={"resolve_references": False, "clause_expansion": False}),
        "#12 default": settings,
    }
    results: dict[tuple[str, str], list[float]] = {}
    scoped: dict[tuple[str, str], int] = {}
    for run_no in range(args.runs + 1):
        for vname, vs in variants.items():
            for kind, qs in questions.items():
                for extra in ([None, ["a hypothetical clause: either party may terminate on notice"]]
                              if vname == "#12 default" else [None]):
                    label = vname if extra is None else "#12 + one extra dense query"
                    for q in qs:
                        trace = Trace()
                        t = time.perf_counter()
                        retrieve(ws, q, vs, trace, extra_dense=extra)
                        ms = (time.perf_counter() - t) * 1000
                        if run_no:  # the first pass warms caches
                            results.setdefault((label, kind), []).append(ms)
                            scoped[(label, kind)] = scoped.get((label, kind), 0) + bool(trace.scope.doc_ids)

    print(f"\nretrieve() on {ws.chunk_count()} chunks, real MiniLM query embeddings, {args.runs} runs "
          f"x {len(QUERIES)} questions (machine shared: ratios are what to read)\n")
    print("| variant | questions | p50 ms | p90 ms | vs before #12 (p50) | searched in one contract |")
    print("|---|---|---|---|---|---|")
    for kind in questions:
        base = statistics.median(results[("before #12", kind)])
        for label in ("before #12", "#12 default", "#12 + one extra dense query"):
            xs = sorted(results[(label, kind)])
            p50, p90 = statistics.median(xs), xs[int(0.9 * (len(xs) - 1))]
            print(f"| {label} | {kind} | {p50:.0f} | {p90:.0f} | {p50 / base:.2f}× | "
                  f"{scoped[(label, kind)]}/{len(xs)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
