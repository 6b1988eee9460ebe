"""Wording-robust ranking: recall@6 on CUAD asked four ways and XQuAD-es, fusion chosen by cross-validation.

Sets (``--corpora``, default ``../shared/eval/corpora``): ``orig`` (CUAD's template questions),
``nat`` / ``es`` / ``para`` (``cuad_natural``: a lawyer's reference, a Spanish question, a
paraphrase with the exact title), all over the CUAD txt workspace (``--pdf`` adds ``orig`` over
the pdf one), and ``xq-es`` / ``xq-en`` (XQuAD-es articles, Spanish questions and their English
twins). Every ranking of :func:`core.retrieval.plan_searches` is run once per case — with each
case's expected document as the scope ("oracle scope", which isolates ranking from document
resolution) and with the scope the question resolves to — and stored; the fusion is then
recomputed offline for every point of a grid (wording, vocabulary and rendering weights,
clause-by-meaning threshold), so choosing the weights costs no more searches.

Choice of the defaults: 5-fold cross-validation over contracts (the folds split CUAD's 15
contracts; every variant of a case stays in its contract's fold), choosing on 4/5 of the
contracts by mean recall@6 over the four CUAD sets and measuring the other 1/5; held-out means
are printed, never the fit on all cases. A gold quote counts when one of the first 6 chunks
contains it (``core.evaluate.quote_retrieved``); duplicate collapsing is not applied here, so
the final figures come from ``verbatim eval --retrieval-only`` (bench/README.md).

Run with ``OMP_NUM_THREADS=1`` on a shared machine (torch's thread pool thrashes under load:
one query embedding took 4 s instead of 0.2 s at load average 15 on 2 cores).

Usage: ``python bench/wording.py --index-dir DIR [--corpora DIR] [--sets orig,nat,es,para,xq-es,xq-en]
[--cache FILE] [--pdf]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
K = 6
SETS = {
    "orig": ("cuad", "cases.jsonl", "cuad-txt", lambda c: c.question),
    "nat": ("cuad_natural", "cases_nat.jsonl", "cuad-txt", lambda c: c.question),
    "es": ("cuad_natural", "cases_es.jsonl", "cuad-txt", lambda c: c.question),
    "para": ("cuad_natural", "cases_para.jsonl", "cuad-txt", lambda c: c.question),
    "orig-pdf": ("cuad", "cases.jsonl", "cuad-pdf", lambda c: c.question),
    "xq-es": ("xquad_es", "cases.jsonl", "xquad_es-txt", lambda c: c.question),
    "xq-en": ("xquad_es", "cases.jsonl", "xquad_es-txt", lambda c: (c.source or {})["question_en"]),
}
CUAD_SETS = ("orig", "nat", "es", "para")
#: Scopes recorded per set: CUAD with each case's expected document (ranking alone; document
#: resolution is measured by ``verbatim eval``), XQuAD over the whole workspace as users ask.
MODES = {s: ("oracle",) for s in ("orig", "nat", "es", "para", "orig-pdf")} | {"xq-es": ("resolved",),
                                                                               "xq-en": ("resolved",)}


def collect(args) -> dict:
    """Run every ranking of every case once; returns the records (JSON-serialisable)."""
    sys.path.insert(0, str(HERE.parent))
    from core.clauses import semantic_scores
    from core.evaluate import load_cases, open_workspaces, quote_retrieved
    from core.retrieval import plan_searches
    from core.settings import Settings
    from core.store import get_embedder
    from core.workspaces import load_workspaces

    base = Settings(clause_meaning=False)
    opened: dict[str, dict] = {}
    out: dict[str, list] = {}
    for name in args.sets:
        corpus, file, ws_name, question_of = SETS[name]
        folder = args.corpora / corpus
        if corpus not in opened:
            opened[corpus] = open_workspaces(load_workspaces(folder / "workspaces.toml"), base, args.index_dir)
        ws = opened[corpus][ws_name]
        all_chunks = ws.get_chunks(ws.stored_chunk_ids()["manifest"])
        by_doc: dict[str, list] = defaultdict(list)
        for ch in all_chunks.values():
            by_doc[ch.doc_id].append(ch)
        cases = [c for c in load_cases(folder / file) if not c.must_abstain and c.gold_quotes]
        if ws_name == "cuad-pdf":
            docs = {Path(d["path"]).name: d["doc_id"] for d in ws.documents()}
            expected = {c.case_id: [docs.get((c.source or {}).get("pdf", ""), "")] for c in cases}
        else:
            expected = {c.case_id: list(c.expected_docs) for c in cases}
        records = []
        t0 = time.perf_counter()
        for case in cases:
            q = question_of(case)
            gold = [[cid for d in expected[case.case_id] for cid in (x.chunk_id for x in by_doc[d])
                     if quote_retrieved(quote, [all_chunks[cid]], base.fuzzy_threshold)] for quote in case.gold_quotes]
            rec = {"id": case.case_id, "doc": expected[case.case_id][0], "gold": gold, "runs": {}}
            for mode in MODES[name]:
                plan = plan_searches(ws, q, base, scope=expected[case.case_id] if mode == "oracle" else None)
                run = [{"name": s.name, "kind": s.kind, "strength": s.strength, "ranking": s.run()}
                       for s in plan.searches]
                lexical = {m.clause.id for m in plan.matches}
                probe = next((s for s in plan.searches if s.name == "dense:gloss"), None)
                probe_text = plan.keyword_query
                if probe is not None:
                    from core.lexicon import gloss
                    from core.translate import question_language
                    probe_text = gloss(plan.keyword_query, plan.language.documents[0], question_language(q))
                scores = semantic_scores(get_embedder().get_query_embedding(probe_text))
                (top, s1), (_, s2) = scores[0], scores[1]
                sem = None
                if not lexical:
                    text = top.wording_text
                    sem = {"id": top.id, "s1": s1, "s2": s2,
                           "bm25": ws.bm25_search(text, base.bm25_candidates, plan.exclude, plan.only),
                           "dense": ws.dense_search(text, base.dense_candidates, plan.exclude, plan.only)}
                rec["runs"][mode] = {"searches": run, "semantic": sem,
                                     "scope": plan.scope.doc_ids, "differs": plan.language.differs}
            records.append(rec)
        print(f"{name}: {len(records)} cases in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        out[name] = records
    return out


def fuse(run: dict, p: dict) -> list[str]:
    """The top-K chunk ids of one recorded run under parameters ``p``."""
    from core.clauses import FULL_STRENGTH  # noqa: F401  (same scale as match_by_meaning)

    scores: dict[str, float] = {}

    def add(ranking, w):
        if w <= 0:
            return
        for r, cid in enumerate(ranking, 1):
            scores[cid] = scores.get(cid, 0.0) + w / (p["rrf_k"] + r)

    for s in run["searches"]:
        kind = s["kind"]
        if kind == "question":
            w = 1.0
        elif kind == "lexicon":
            w = p["lexicon_weight"]
        elif kind == "gloss":
            w = p["gloss_weight"]
        else:
            w = p["wording_weight"] * s["strength"]
        add(s["ranking"], w)
    sem = run.get("semantic")
    if sem and p["tau"] is not None and sem["s1"] >= p["tau"] and sem["s1"] - sem["s2"] >= p["margin"]:
        strength = min(1.0, 0.34 + (sem["s1"] - p["tau"]) / 0.15 * 0.66)
        add(sem["bm25"], p["wording_weight"] * strength)
        add(sem["dense"], p["wording_weight"] * strength)
    return [cid for cid, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:K]]


def hits(rec: dict, mode: str, p: dict) -> tuple[int, int]:
    top = set(fuse(rec["runs"][mode], p))
    return sum(1 for g in rec["gold"] if top & set(g)), len(rec["gold"])


def recall(records, mode, p) -> float:
    h = n = 0
    for r in records:
        a, b = hits(r, mode, p)
        h, n = h + a, n + b
    return h / max(n, 1)


BEFORE = {"rrf_k": 60, "wording_weight": 1.0, "lexicon_weight": 0.0, "gloss_weight": 0.0, "tau": None, "margin": 0.0}


def grid() -> list[dict]:
    out = []
    for ww, lw, gw, tau, margin in itertools.product([1.0, 1.5, 2.0, 3.0], [0.0, 0.25, 0.5, 1.0], [0.0, 0.5, 1.0, 2.0],
                                                     [None, 0.35, 0.4, 0.45, 0.5], [0.0, 0.03]):
        if tau is None and margin:
            continue
        out.append({"rrf_k": 60, "wording_weight": ww, "lexicon_weight": lw, "gloss_weight": gw, "tau": tau,
                    "margin": margin})
    return out


def cross_validate(data: dict, mode: str) -> None:
    sets = [s for s in CUAD_SETS if s in data]
    if not sets:
        return
    docs = sorted({r["doc"] for s in sets for r in data[s]})
    random.Random(0).shuffle(docs)
    folds = [set(docs[i::5]) for i in range(5)]
    points = grid()
    # per point, per set, per contract: (hits, quotes)
    table: list[dict] = []
    for p in points:
        per: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for s in sets:
            for r in data[s]:
                a, b = hits(r, mode, p)
                per[(s, r["doc"])][0] += a
                per[(s, r["doc"])][1] += b
        table.append(per)

    def score(per, doc_set):  # mean over sets of recall on these contracts
        vals = []
        for s in sets:
            h = sum(v[0] for (ss, d), v in per.items() if ss == s and d in doc_set)
            n = sum(v[1] for (ss, d), v in per.items() if ss == s and d in doc_set)
            vals.append(h / max(n, 1))
        return statistics.mean(vals)

    held: dict[str, list[tuple[int, int]]] = defaultdict(list)
    chosen = []
    for fold in folds:
        train = set(docs) - fold
        best = max(range(len(points)), key=lambda i: score(table[i], train))
        chosen.append(points[best])
        for s in sets:
            h = sum(v[0] for (ss, d), v in table[best].items() if ss == s and d in fold)
            n = sum(v[1] for (ss, d), v in table[best].items() if ss == s and d in fold)
            held[s].append((h, n))
    print(f"\n### {mode} scope: parameters chosen per fold (5-fold CV over {len(docs)} contracts)\n")
    for c in chosen:
        print(f"- {c}")
    print(f"\n| set | held-out recall@{K} (pooled over folds) | before (same records) |")
    print("|---|---|---|")
    for s in sets:
        h = sum(a for a, _ in held[s])
        n = sum(b for _, b in held[s])
        print(f"| {s} | {h / n:.3f} ({h}/{n}) | {recall(data[s], mode, BEFORE):.3f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=HERE.parents[1] / "shared" / "eval" / "corpora")
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--sets", default="orig,nat,es,para,xq-es,xq-en")
    parser.add_argument("--cache", type=Path, help="folder of records, one JSON per set: read if present, else written")
    parser.add_argument("--params", help="JSON parameters to report beside 'before' (default: core.settings')")
    args = parser.parse_args()
    args.sets = [s for s in args.sets.split(",") if s]
    data = {}
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        path = args.cache / f"{name}.json" if args.cache else None
        if path and path.exists():
            data[name] = json.loads(path.read_text())
            continue
        sub = argparse.Namespace(**{**vars(args), "sets": [name]})
        data[name] = collect(sub)[name]
        if path:
            path.write_text(json.dumps(data[name]))
    sys.path.insert(0, str(HERE.parent))
    from core.clauses import SEMANTIC_MARGIN, SEMANTIC_MIN
    from core.settings import Settings

    for s in ("xq-es", "xq-en"):  # the probe is Spanish there: core.retrieval matches no type by meaning
        for r in data.get(s, []):
            for run in r["runs"].values():
                run["semantic"] = None
    st = Settings()
    after = json.loads(args.params) if args.params else {
        "rrf_k": st.rrf_k, "wording_weight": st.wording_weight, "lexicon_weight": st.lexicon_weight,
        "gloss_weight": st.gloss_weight, "tau": SEMANTIC_MIN, "margin": SEMANTIC_MARGIN}
    print(f"after = {after}\n")
    print(f"| set | scope | before recall@{K} | after recall@{K} |")
    print("|---|---|---|---|")
    for s, records in data.items():
        for mode in MODES[s]:
            print(f"| {s} | {mode} | {recall(records, mode, BEFORE):.3f} | {recall(records, mode, after):.3f} |")
    cross_validate(data, "oracle")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
