"""Retrieval on real data (issue #5): recall@1/3/6/10 of gold quotes for BM25 alone, dense alone
and the fused hybrid, on CUAD (txt and pdf workspaces) and XQuAD-es (Spanish questions, and their
English twins against the same Spanish corpus).

Retrieval-only, no generation. Everything is indexed into a temporary ``VERBATIM_HOME`` that is
deleted at the end, so the user's data folder is never touched. For each case one call to
``core.pipeline.retrieve`` (the app's own hybrid retriever) yields all three rankings:
``trace.bm25`` and ``trace.dense`` are the retrievers' candidate lists (``settings.bm25_candidates``
/ ``settings.dense_candidates``, 30 each) and the returned list is their reciprocal rank fusion
after the eligibility filter. A gold quote counts as retrieved at k when one of the top k chunks
contains it (``core.evaluate.quote_retrieved`` → ``core.verify.match_quote``), exactly as
``verbatim eval --mode retrieval`` counts it. Must-abstain cases (no gold quote) are skipped.
The last column is the ceiling: gold quotes found in *some* chunk of their own document
(extraction and chunking lose nothing when it is 1.0), the same for every retriever.

Usage: ``python bench/retrieval_real.py [--corpora /work/shared/eval/corpora]``.
Prints one Markdown table; the embedding model is whatever ``VERBATIM_EMBEDDING_MODEL`` names
(default: the packaged all-MiniLM-L6-v2).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

KS = (1, 3, 6, 10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared/eval/corpora")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        # worktrees live next to /work/shared; fall back to the absolute lab location
        args.corpora = Path("/work/shared/eval/corpora")

    with tempfile.TemporaryDirectory(prefix="verbatim-bench-") as tmp:
        os.environ["VERBATIM_HOME"] = tmp  # before core imports anything that reads it
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from core.evaluate import load_cases, open_workspaces, quote_retrieved
        from core.pipeline import retrieve
        from core.settings import Settings
        from core.store import embedding_model_id
        from core.types import Trace
        from core.workspaces import load_workspaces

        settings = Settings()
        root = Path(tmp) / "stores"
        # (row label, corpus folder, workspace, question getter)
        runs = [
            ("CUAD txt (en)", "cuad", "cuad-txt", lambda c: c.question),
            ("CUAD pdf (en)", "cuad", "cuad-pdf", lambda c: c.question),
            ("XQuAD es, questions es", "xquad_es", "xquad_es-txt", lambda c: c.question),
            ("XQuAD es, questions en", "xquad_es", "xquad_es-txt", lambda c: (c.source or {})["question_en"]),
        ]
        opened: dict[str, dict] = {}
        rows: list[str] = []
        t_start = time.perf_counter()
        for label, corpus, ws_name, question_of in runs:
            folder = args.corpora / corpus
            if corpus not in opened:
                t0 = time.perf_counter()
                config = load_workspaces(folder / "workspaces.toml")
                opened[corpus] = open_workspaces(config, settings, root / corpus)
                print(f"indexed {corpus} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
            ws = opened[corpus][ws_name]
            # Ceiling: is each gold quote inside some chunk of its own document at all?
            all_chunks = ws.get_chunks(ws.stored_chunk_ids()["manifest"])
            by_path: dict[str, list] = {}
            paths = {d["doc_id"]: Path(d["path"]).name for d in ws.documents()}
            for chunk in all_chunks.values():
                by_path.setdefault(paths.get(chunk.doc_id, ""), []).append(chunk)
            source_key = "pdf" if ws_name.endswith("-pdf") else "doc"
            # The cases file names the txt workspace; the pdf workspace holds the same contracts.
            cases = [c for c in load_cases(folder / "cases.jsonl") if not c.must_abstain and c.gold_quotes]
            hits = {name: {k: 0 for k in KS} for name in ("BM25", "dense", "hybrid (RRF)")}
            n_quotes = ceiling = 0
            for case in cases:
                trace = Trace()
                fused = retrieve(ws, question_of(case), settings, trace, k=max(KS))
                ids = {"BM25": trace.bm25[: max(KS)], "dense": trace.dense[: max(KS)],
                       "hybrid (RRF)": [s.chunk.chunk_id for s in fused]}
                chunks = ws.get_chunks({cid for lst in ids.values() for cid in lst})
                for quote in case.gold_quotes:
                    n_quotes += 1
                    own_doc = by_path.get((case.source or {}).get(source_key, ""), [])
                    ceiling += quote_retrieved(quote, own_doc, settings.fuzzy_threshold)
                    for name, ranked in ids.items():
                        for k in KS:
                            top = [chunks[c] for c in ranked[:k] if c in chunks]
                            hits[name][k] += quote_retrieved(quote, top, settings.fuzzy_threshold)
            for name, by_k in hits.items():
                cells = " | ".join(f"{by_k[k] / n_quotes:.2f} ({by_k[k]}/{n_quotes})" for k in KS)
                rows.append(f"| {label} | {name} | {cells} | {ceiling / n_quotes:.2f} ({ceiling}/{n_quotes}) |")
            print(f"{label}: {len(cases)} cases, {n_quotes} gold quotes", file=sys.stderr)

        print(f"Embedding model: {embedding_model_id()}; bm25/dense candidates "
              f"{settings.bm25_candidates}/{settings.dense_candidates}, rrf_k {settings.rrf_k}; "
              f"{platform.machine()}, {os.cpu_count()} cores; {time.perf_counter() - t_start:.0f} s in all")
        print()
        print("| corpus / questions | retriever | " + " | ".join(f"recall@{k}" for k in KS)
              + " | quote in some chunk of its document |")
        print("|---|---|" + "---|" * (len(KS) + 1))
        print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
