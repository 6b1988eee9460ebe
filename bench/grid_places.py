"""Per-place evidence of the CUAD dev grid cells, for choosing what a cell shows and decides (issue #25).

    python bench/grid_places.py --index-dir DIR --out places.json

For every labelled cell (as core.grid_eval builds them: the case's clause question asked inside its
contract with the passages answer), records the answer's status and best score over threshold, and for
each retrieved chunk (``trace.context``, retrieval order) every candidate span of
:func:`core.passages.score_spans` (all sentences and adjacent pairs, with the clause type's wording)
with its scores, its best cosine with one wording phrase of the question's clause types (``form``;
``--first-type``: the first named type only), whether its clause's heading names the clause type, and whether what it would show covers a gold
quote (the evaluator's own test: span or checked clause, :func:`core.evaluate.span_covers`).
It also records whether a gold quote lies in any chunk of the contract (the retrieval cap).
No product setting is changed; the output feeds bench/grid_choose.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "eval" / "corpora" / "cuad"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--index-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--k", type=int, default=0, help="chunks retrieved (0: settings.scoped_top_k)")
    p.add_argument("--first-type", action="store_true", help="the form evidence against the question's first "
                   "named clause type only (default: every type the retriever searched, as core.grid for a free "
                   "question)")
    args = p.parse_args()

    from core.evaluate import load_cases, open_workspaces, span_covers
    from core.grid_eval import _texts, column_question
    from core.grid_places import clause_form_margin, place_candidates
    from core.passages import PassagesBackend
    from core.pipeline import answer_question, run
    from core.settings import Settings
    from core.workspaces import load_workspaces

    settings = Settings()
    if args.k:
        settings = settings.model_copy(update={"scoped_top_k": args.k})
    cases = load_cases(SHARED / "cases.jsonl")
    wss = open_workspaces(load_workspaces(SHARED / "workspaces.toml"), settings, Path(args.index_dir), None)
    out = []
    t0 = time.perf_counter()
    for case in cases:
        src = case.source or {}
        doc = case.expected_docs[0] if len(case.expected_docs) == 1 else src.get("doc")
        ws = wss.get(case.workspace)
        if ws is None or not src.get("category") or not doc:
            continue
        ids = [d["doc_id"] for d in ws.documents()]
        doc_id = next((i for i in ids if i.endswith(doc) or i.endswith("/" + Path(doc).name)), None)
        if doc_id is None:
            continue
        q = column_question(case)
        t = time.perf_counter()
        ans = run(answer_question(ws, q, settings, backend=PassagesBackend(), follow_up=False, scope=[doc_id]))
        types = list(ans.trace.clause_types[:1]) if args.first_type else None
        cands = place_candidates(ans, ws, settings, clause_types=types)
        # the product's own form evidence (core.grid_places.clause_form_margin: every sentence, headings too),
        # which since 2026-12-02 (grid2) differs from the best form_margin of the candidates (no heading spans)
        product_fm = clause_form_margin(ans, ws, types)
        took = time.perf_counter() - t
        rows = []
        for c in cands:
            texts = _texts(ws, [c.shown])
            rows.append({**c.features, "chunk_rank": c.rank, "chunk_id": c.shown.chunk_id,
                         "covered": any(span_covers(g, s) for g in case.gold_quotes for s in texts),
                         "text": c.shown.text[:200]})
        all_ids = [i for i in ws.stored_chunk_ids()["manifest"] if i.split("#", 1)[0] == doc_id]
        chunks = ws.get_chunks(all_ids)
        in_doc = any(span_covers(g, ch.text) for g in case.gold_quotes for ch in chunks.values())
        in_ctx = [i for i, cid in enumerate(ans.trace.context)
                  if cid in chunks and any(span_covers(g, chunks[cid].text) for g in case.gold_quotes)]
        out.append({"case_id": case.case_id, "doc_id": doc_id, "question": q, "category": src["category"],
                    "must_abstain": case.must_abstain, "status": ans.status,
                    "best": ans.trace.passage_best_score, "threshold": ans.trace.passage_threshold,
                    "clause_types": list(ans.trace.clause_types), "gold_in_doc": in_doc, "gold_ctx_ranks": in_ctx,
                    "n_doc_chunks": len(all_ids), "product_form_margin": product_fm, "seconds": round(took, 3), "candidates": rows})
        print(f"{len(out)} {case.case_id} {ans.status} {took:.2f}s ctx{in_ctx} doc={in_doc}", flush=True)
    Path(args.out).write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(f"{len(out)} cells in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
