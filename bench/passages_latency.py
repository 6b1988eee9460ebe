"""Passages answer latency on a 10k-chunk workspace (issue #13 target: p50 ≤ 1 s), retrieval and span
scoring apart; and, with ``--embedded``, when the first verified sentence of an embedded answer
arrives against when the model finishes.

The workspace: the 15 CUAD contracts (txt) copied until about ``--chunks`` chunks, each copy
with its own first line so every file is a document of its own. Indexing uses a hashed
stand-in for the embedding model (what is measured is the question, not indexing: at 2.5
chunks/s on this loaded machine 10k real embeddings take over an hour), so dense retrieval
ranks noise but costs what it costs; the question's embedding, BM25, LanceDB, fusion, span
scoring (the real all-MiniLM-L6-v2 on the retrieved chunks' sentences) and verification are
the product's. Each CUAD question is asked once through ``answer_question`` with the passages
backend under each variant in turn (every sentence scored with torch's default threads and
nothing cached, as before; the app's candidate sentences with one thread, nothing cached; the
app: the same, sentences embedded for the earlier questions reused);
printed: p50/p90 of ``trace.timings_ms`` retrieve, score, verify and total per variant.

Usage: ``python bench/passages_latency.py [--chunks 10000] [--work DIR] [--questions 40] [--embedded]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class HashEmbedder:
    """Hashed bag of words, 384 dimensions, L2-normalized: a stand-in for indexing only."""

    def get_text_embedding_batch(self, texts, **_kw):
        import numpy as np

        out = []
        for text in texts:
            h = np.fromiter((zlib.crc32(w.encode()) for w in text.lower().split()), dtype=np.uint32)
            vec = np.bincount(h % 384, minlength=384).astype(float)
            out.append((vec / (np.linalg.norm(vec) or 1.0)).tolist())
        return out


def _shared() -> Path:
    for cand in (ROOT.parents[0] / "shared",):
        if (cand / "eval").is_dir():
            return cand
    raise SystemExit("shared/eval not found next to the repository")


def build(work: Path, chunks: int) -> "object":
    import core.store.indexing as indexing
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    ws_name = f"latency{chunks}"
    folder = work / "docs" / ws_name
    src = sorted((_shared() / "eval" / "corpora" / "cuad" / "txt").glob("*.txt"))
    copies = max(1, round(chunks / 591))  # 591 chunks for one copy of the 15 contracts
    if not folder.is_dir():
        folder.mkdir(parents=True)
        for n in range(copies):
            for path in src:
                text = path.read_text(encoding="utf-8")
                (folder / f"{n:03d}-{path.name}").write_text(f"Register copy {n}.\n" + text, encoding="utf-8")
    ws = Workspace(ws_name, Settings())
    if ws.chunk_count() == 0:
        real = indexing.get_embedder
        indexing.get_embedder = HashEmbedder
        t = time.perf_counter()
        try:
            run(index_folders(ws, [folder]))
        finally:
            indexing.get_embedder = real
        print(f"indexed {ws.chunk_count()} chunks in {time.perf_counter() - t:.0f} s (hashed stand-in)", file=sys.stderr)
    return ws


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=10000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/verbatim-bench-latency"))
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--embedded", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("VERBATIM_HOME", str(args.work / "home"))
    import torch

    from core.evaluate import load_cases
    from core.passages import PassagesBackend
    from core.pipeline import answer_question, run
    from core.settings import Settings
    from core.store import get_embedder

    ws = build(args.work, args.chunks)
    cases = [c for c in load_cases(_shared() / "eval" / "corpora" / "cuad" / "cases.jsonl")
             if c.workspace == "cuad-txt"][:args.questions]
    get_embedder().get_query_embedding("warm up")
    import core.passages as passages

    app_threads = passages.SCORING_THREADS
    per = Settings().passages_candidates_per_chunk
    variants = [  # (label, settings, span-scoring torch threads, sentence vectors kept between questions)
        ("every sentence, torch default threads, nothing cached (before)", Settings(passages_candidates_per_chunk=0),
         None, False),
        (f"{per} candidates per chunk, {app_threads} thread, nothing cached", Settings(), app_threads, False),
        (f"the same, sentences of earlier questions reused (after: the app)", Settings(), app_threads, True),
    ]
    rows = {label: {"retrieve": [], "score": [], "verify": [], "total": []} for label, *_ in variants}
    caches = {label: passages._SentenceVectors() for label, *_ in variants}  # each variant its own session
    app_cache = passages._sentence_vectors
    for case in cases:  # each question under every variant in turn
        for label, settings, threads, keep in variants:
            passages.SCORING_THREADS = threads
            passages._sentence_vectors = caches[label]
            if not keep:
                caches[label].clear()
            answer = run(answer_question(ws, case.question, settings, backend=PassagesBackend()))
            for key in rows[label]:
                rows[label][key].append(answer.trace.timings_ms.get(key, 0.0))
    passages.SCORING_THREADS, passages._sentence_vectors = app_threads, app_cache
    print(f"torch's default: {torch.get_num_threads()} threads")
    print("| variant | questions | retrieve p50 / p90 ms | score p50 / p90 ms | verify p50 ms | total p50 / p90 ms |")
    print("|---|---|---|---|---|---|")
    for label, r in rows.items():
        print(f"| {label} | {len(cases)} | {statistics.median(r['retrieve']):.0f} / {pct(r['retrieve'], .9):.0f} | "
              f"{statistics.median(r['score']):.0f} / {pct(r['score'], .9):.0f} | "
              f"{statistics.median(r['verify']):.0f} | "
              f"{statistics.median(r['total']):.0f} / {pct(r['total'], .9):.0f} |")
    print(f"({ws.chunk_count()} chunks; os.getloadavg() at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    if args.embedded:
        embedded(args.work)
    return 0


def embedded(work: Path) -> None:
    """First verified sentence of an embedded answer against the end of its generation (sample corpus)."""
    from core.generate import EmbeddedBackend
    from core.paths import sample_corpus_dir
    from core.pipeline import answer_question, index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    settings = Settings(backend="embedded", top_k=2)
    ws = Workspace("sample", settings)
    if ws.chunk_count() == 0:
        run(index_folders(ws, [sample_corpus_dir()]))
    model = EmbeddedBackend(settings)
    for question in ("What are the potential impact levels?", "What does a loss of availability mean?",
                     "What is the purpose of FIPS 199?"):
        answer = run(answer_question(ws, question, settings, backend=model))
        t = answer.trace.timings_ms
        first = t.get("first_claim")
        print(f"embedded: {question!r}: generation {t.get('generate', 0) / 1000:.1f} s, first verified sentence "
              + (f"at {first / 1000:.1f} s" if first is not None else "never (no claim closed)")
              + f"; status {answer.status}, {len(answer.claims)} kept, {len(answer.rejected)} rejected")


if __name__ == "__main__":
    sys.exit(main())
