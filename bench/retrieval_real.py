"""Retrieval on real data: recall@1/3/6/10 of gold quotes, variants side by side, in one run.

Corpora (``--corpora``, default ``../shared/eval/corpora``): CUAD contracts (txt and pdf
workspaces, the same questions), XQuAD-es (Spanish questions and their English twins against
the Spanish articles). Retrieval only, no generation; everything is indexed into a temporary
``VERBATIM_HOME`` (or ``--cache DIR``, kept between runs: unchanged files are not re-indexed),
never the user's data folder.

Variants (each one call of ``core.retrieval.retrieve``, the app's own retriever):

* ``hybrid (before #12)`` — BM25 ∥ dense, RRF, no scope, no clause wording (what the app did);
* ``+ scope`` — the documents a question names are resolved (``core.docrefs``) and searched;
* ``+ clause wording`` — and the contract wording of the clause types asked about (the default);
* ``oracle scope`` — the default with each case's expected document as an explicit scope: the
  ceiling of document resolution.

A gold quote counts at k when one of the first k chunks contains it (``core.evaluate.quote_retrieved``,
as ``verbatim eval --retrieval-only`` counts it); must-abstain cases are skipped. "in some chunk"
is the chunking ceiling: the quote is in some chunk of its own document. Also printed: document
resolution (top-1 accuracy, wrong restrictions), per-category recall@6 for CUAD txt, and retrieval
latency p50 per variant.

``--cv`` also chooses the fusion (``wording_weight`` × ``rrf_k``) by 5-fold cross-validation over
documents on CUAD txt and prints the held-out mean and spread — how the defaults in
``core.settings`` were chosen (never by fitting every case).

``--chunk-overlap N`` indexes with another ``chunk_overlap_tokens`` (the chunk-overlap rows of
bench/README.md; one run per value).

Usage: ``python bench/retrieval_real.py [--corpora DIR] [--cache DIR] [--cv] [--only cuad-txt,...] [--chunk-overlap N]``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

KS = (1, 3, 6, 10)
HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=HERE.parents[1] / "shared" / "eval" / "corpora")
    parser.add_argument("--cache", type=Path, help="keep the indexed workspaces here between runs")
    parser.add_argument("--cv", action="store_true", help="choose the fusion weights by cross-validation")
    parser.add_argument("--only", default="", help="comma-separated rows: cuad-txt,cuad-pdf,xquad-es,xquad-en")
    parser.add_argument("--chunk-overlap", type=int, help="index with this chunk_overlap_tokens (own store folder)")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        parser.error(f"{args.corpora}: no such folder (give --corpora)")
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-") as tmp:
        home = args.cache or Path(tmp)
        os.environ["VERBATIM_HOME"] = str(home / "home")  # before core reads it
        sys.path.insert(0, str(HERE.parent))
        return run(args, home)


def run(args, home: Path) -> int:
    from core.evaluate import load_cases, open_workspaces, quote_retrieved
    from core.retrieval import retrieve
    from core.settings import Settings
    from core.store import embedding_model_id
    from core.types import Trace
    from core.workspaces import load_workspaces

    base = Settings() if args.chunk_overlap is None else Settings(chunk_overlap_tokens=args.chunk_overlap)
    stores = "stores" if args.chunk_overlap is None else f"stores-overlap{args.chunk_overlap}"
    variants = {
        "hybrid (before #12)": base.model_copy(update={"resolve_references": False, "clause_expansion": False}),
        "+ scope": base.model_copy(update={"clause_expansion": False}),
        "+ clause wording": base,
    }
    rows = [
        ("cuad-txt", "CUAD txt (en)", "cuad", "cuad-txt", "doc", lambda c: c.question),
        ("cuad-pdf", "CUAD pdf (en)", "cuad", "cuad-pdf", "pdf", lambda c: c.question),
        ("xquad-es", "XQuAD es, questions es", "xquad_es", "xquad_es-txt", "doc", lambda c: c.question),
        ("xquad-en", "XQuAD es, questions en", "xquad_es", "xquad_es-txt", "doc",
         lambda c: (c.source or {})["question_en"]),
    ]
    only = {x for x in args.only.split(",") if x}
    opened: dict[str, dict] = {}
    table, resolution, latency = [], [], defaultdict(list)
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    t_start = time.perf_counter()
    cv_data = None
    for key, label, corpus, ws_name, source_key, question_of in rows:
        if only and key not in only:
            continue
        folder = args.corpora / corpus
        if corpus not in opened:
            t0 = time.perf_counter()
            opened[corpus] = open_workspaces(load_workspaces(folder / "workspaces.toml"), base, home / stores / corpus)
            print(f"indexed {corpus} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        ws = opened[corpus][ws_name]
        docs = ws.documents()
        by_name = {Path(d["path"]).name: d["doc_id"] for d in docs}
        all_chunks = ws.get_chunks(ws.stored_chunk_ids()["manifest"])
        own: dict[str, list] = defaultdict(list)
        for chunk in all_chunks.values():
            own[chunk.doc_id].append(chunk)
        cases = [c for c in load_cases(folder / "cases.jsonl") if not c.must_abstain and c.gold_quotes]
        expected_doc = {c.case_id: by_name.get((c.source or {}).get(source_key, ""), "") for c in cases}
        n_quotes = sum(len(c.gold_quotes) for c in cases)
        ceiling = sum(quote_retrieved(q, own[expected_doc[c.case_id]], base.fuzzy_threshold)
                      for c in cases for q in c.gold_quotes)
        runs = dict(variants)
        runs["oracle scope"] = base
        for name, settings in runs.items():
            hits = {k: 0 for k in KS}
            resolved = wrong = 0
            for case in cases:
                trace = Trace()
                scope = [expected_doc[case.case_id]] if name == "oracle scope" else None
                t0 = time.perf_counter()
                ranked = retrieve(ws, question_of(case), settings, trace, k=max(KS), scope=scope)
                latency[name].append((time.perf_counter() - t0) * 1000)
                ids = [s.chunk for s in ranked]
                if trace.scope.doc_ids and name != "oracle scope":
                    resolved += trace.scope.doc_ids[0] == expected_doc[case.case_id]
                    wrong += expected_doc[case.case_id] not in trace.scope.doc_ids
                for quote in case.gold_quotes:
                    for k in KS:
                        ok = quote_retrieved(quote, ids[:k], base.fuzzy_threshold)
                        hits[k] += ok
                        if k == 6 and key == "cuad-txt" and name == "+ clause wording":
                            cat = (case.source or {}).get("category", "?")
                            per_category[cat][0] += ok
                            per_category[cat][1] += 1
            cells = " | ".join(f"{hits[k] / n_quotes:.2f} ({hits[k]}/{n_quotes})" for k in KS)
            table.append(f"| {label} | {name} | {cells} | {ceiling / n_quotes:.2f} ({ceiling}/{n_quotes}) |")
            if name in ("+ scope", "+ clause wording"):
                resolution.append(f"| {label} | {name} | {resolved}/{len(cases)} | {wrong}/{len(cases)} |")
        print(f"{label}: {len(cases)} cases, {n_quotes} gold quotes", file=sys.stderr)
        if key == "cuad-txt" and args.cv:
            cv_data = (ws, cases, expected_doc)

    print(f"Embedding model: {embedding_model_id()}; candidates {base.bm25_candidates}/{base.dense_candidates}, "
          f"rrf_k {base.rrf_k}, wording_weight {base.wording_weight}, top_k {base.top_k} "
          f"(scoped {base.scoped_top_k}); {platform.machine()}, {os.cpu_count()} cores; "
          f"{time.perf_counter() - t_start:.0f} s in all")
    print()
    print("| corpus / questions | variant | " + " | ".join(f"recall@{k}" for k in KS) + " | in some chunk |")
    print("|---|---|" + "---|" * (len(KS) + 1))
    print("\n".join(table))
    print()
    print("| corpus / questions | variant | document resolution, top-1 right | wrong restrictions |")
    print("|---|---|---|---|")
    print("\n".join(resolution))
    if per_category:
        print()
        print("CUAD txt, recall@6 per category (default variant):")
        print()
        print("| category | recall@6 |")
        print("|---|---|")
        for cat, (h, n) in sorted(per_category.items(), key=lambda kv: (kv[1][0] / kv[1][1], kv[0])):
            print(f"| {cat} | {h}/{n} |")
    print()
    print("| variant | retrieve p50 ms | p90 ms |")
    print("|---|---|---|")
    for name, ms in latency.items():
        ms = sorted(ms)
        print(f"| {name} | {statistics.median(ms):.0f} | {ms[int(0.9 * (len(ms) - 1))]:.0f} |")
    if cv_data:
        cross_validate(*cv_data, base)
    return 0


def cross_validate(ws, cases, expected_doc, base) -> None:
    """Choose (wording_weight, rrf_k) on 4/5 of the documents, measure recall@6 on the rest."""
    from core.evaluate import quote_retrieved
    from core.retrieval import retrieve
    from core.types import Trace

    grid = list(itertools.product([0.5, 1.0, 1.5, 2.0], [10, 30, 60]))
    hits: dict[tuple, dict[str, int]] = {}
    for ww, rk in grid:
        settings = base.model_copy(update={"wording_weight": ww, "rrf_k": rk})
        per_case = {}
        for case in cases:
            ranked = retrieve(ws, case.question, settings, Trace(), k=6)
            per_case[case.case_id] = sum(quote_retrieved(q, [s.chunk for s in ranked], base.fuzzy_threshold)
                                         for q in case.gold_quotes)
        hits[(ww, rk)] = per_case
    docs = sorted(set(expected_doc.values()))
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]
    quotes = {c.case_id: len(c.gold_quotes) for c in cases}
    held, chosen = [], []
    for fold in folds:
        train = [c.case_id for c in cases if expected_doc[c.case_id] not in fold]
        test = [c.case_id for c in cases if expected_doc[c.case_id] in fold]
        best = max(grid, key=lambda g: (sum(hits[g][c] for c in train), g == (base.wording_weight, base.rrf_k)))
        chosen.append(best)
        held.append(sum(hits[best][c] for c in test) / max(1, sum(quotes[c] for c in test)))
    print()
    print("Fusion chosen by 5-fold cross-validation over CUAD txt documents (wording_weight, rrf_k):")
    print(f"chosen per fold {chosen}; held-out recall@6 per fold {[round(h, 2) for h in held]}, "
          f"mean {statistics.mean(held):.3f}, spread {min(held):.2f}–{max(held):.2f}")
    total = sum(quotes.values())
    print("| wording_weight | rrf_k | recall@6, all cases |")
    print("|---|---|---|")
    for g in grid:
        print(f"| {g[0]} | {g[1]} | {sum(hits[g].values()) / total:.3f} |")


if __name__ == "__main__":
    raise SystemExit(main())
