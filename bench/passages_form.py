"""Issue #20, abstain pass: does a passages answer's evidence have the *form* of the clause asked?

Phase 1 (``collect``): every case of a case file is answered as ``verbatim eval --backend passages -k 6``
answers it (``core.pipeline.answer_question`` with the passages backend, the evaluator's judge), and for
each answer the clause-form evidence of :mod:`core.grid_places` is recorded beside the judge's result:
per candidate span of the retrieved chunks (every sentence and adjacent pair) its score and
``form_margin`` (best cosine with the asked clause type's contract wording minus the best with any other
type's), and which of them the answer shows. One JSON line per case; phase 2 replays any decision rule
on the records without re-running the answers.

Phase 2 (``report``): ``bench/passages_form_cv.py``.

Usage::

    python bench/passages_form.py collect CASES --workspaces TOML [--root DIR] --index-dir DIR --out recs.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def collect(args) -> None:
    from core.eval_judge import _Judge
    from core.evaluate import load_cases, open_workspaces
    from core.generate import make_backend
    from core.grid_places import place_candidates
    from core.passages import is_cross_language, scoring_query
    from core.pipeline import answer_question, run
    from core.settings import Settings
    from core.workspaces import load_workspaces

    settings = Settings.load().model_copy(update={"top_k": 6})
    cases = load_cases(args.cases)
    config = load_workspaces(args.workspaces, base=args.root)
    workspaces = open_workspaces(config, settings, Path(args.index_dir))
    judge = _Judge(workspaces, settings)
    backend = make_backend(settings, "passages")
    out = open(args.out, "w", encoding="utf-8")
    t0 = time.time()
    for i, case in enumerate(cases):
        ws = workspaces[case.workspace]
        answer = run(answer_question(ws, case.question, settings, backend=backend))
        res = judge.judge(case, "live", answer.trace.context, answer)
        tr = answer.trace
        shown = [c.text for c in answer.claims]
        if answer.abstention is not None and answer.abstention.candidates:
            shown = [getattr(c, "text", "") for c in answer.abstention.candidates]
        scored = scoring_query(case.question, tr.scope) if tr.scope else case.question
        rec = {
            "case_id": case.case_id, "workspace": case.workspace, "must_abstain": case.must_abstain,
            "question": case.question, "status": answer.status, "n_gold": len(case.gold_quotes),
            "gold_shown": list(res.gold_shown), "gold_weak": list(res.gold_weak),
            "clause_types": list(tr.clause_types), "scope": list(tr.scope.doc_ids) if tr.scope else [],
            "cleaned": bool(tr.scope and scoring_query(case.question, tr.scope) != case.question),
            "best": tr.passage_best_score, "threshold": tr.passage_threshold, "shown": shown,
            "expected_docs": list(case.expected_docs),
        }
        spans = []
        if tr.clause_types and tr.context:
            for c in place_candidates(answer, ws, settings, headings=True):
                f = dict(c.features)
                f["text"] = c.shown.text
                f["chunk"] = c.shown.chunk_id
                f["start"] = c.shown.start
                spans.append(f)
            if spans:
                top_chunk = ws.get_chunks([spans[0]["chunk"]]).get(spans[0]["chunk"])
                rec["cross"] = bool(top_chunk is not None and is_cross_language(scored, top_chunk))
        rec["spans"] = spans
        out.write(json.dumps(rec) + "\n")
        out.flush()
        if (i + 1) % 10 == 0:
            print(f"{i + 1}/{len(cases)} {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    out.close()


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("cases")
    c.add_argument("--workspaces", required=True)
    c.add_argument("--root")
    c.add_argument("--index-dir", required=True)
    c.add_argument("--out", required=True)
    args = p.parse_args()
    collect(args)


if __name__ == "__main__":
    main()
