"""Issue #20, second pass: where the passages answer loses the gold quote, and which evidence
brings it back (the chunk's fused rank, the clause type's wording, same-language synonyms).

Phase 1 (``retrieve``): every case of ``cuad_natural`` (``-nat``, ``-es``, ``-para``), the CUAD
template cases and XQuAD-es (Spanish and English questions) is retrieved once with the app's
retriever (``core.retrieval.retrieve``); the delivered chunk ids with their RRF score and the
trace's scope and clause types are saved (``--save``), so phase 2 replays the scoring without
retrieving again.

Phase 2 (``report``): the delivered chunks are read back from the stores and every sentence is
scored (``core.passages.score_spans`` with every sentence a candidate), once per scoring variant;
each miss is classified (gold not delivered / delivered but another chunk's passage shown / the
right chunk, another sentence / abstained with the gold among the weak passages) and the passage
hit of each variant is reported held out: thresholds chosen by 5-fold cross-validation over
documents (a CUAD contract's four phrasings and an XQuAD article's two languages in one fold).

Usage::

    python bench/passages_rank.py retrieve --index-dir DIR --save retrieved.json
    python bench/passages_rank.py report --index-dir DIR --retrieved retrieved.json --out scored.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def _shared() -> Path:
    import passages_natural as pn

    return pn._shared()


def runs(shared: Path) -> list[tuple]:
    corpora = shared / "eval" / "corpora"
    nat = corpora / "cuad_natural"
    return [
        ("xquad_en", corpora / "xquad_es", corpora / "xquad_es" / "cases.jsonl", "question_en"),
        ("xquad_es", corpora / "xquad_es", corpora / "xquad_es" / "cases.jsonl", None),
        ("cuad_nat", nat, nat / "cases_nat.jsonl", None),
        ("cuad_es", nat, nat / "cases_es.jsonl", None),
        ("cuad_para", nat, nat / "cases_para.jsonl", None),
        ("cuad", nat, corpora / "cuad" / "cases.jsonl", None),
    ]


def open_all(shared: Path, index_dir: Path, settings) -> dict:
    from core.evaluate import open_workspaces
    from core.workspaces import load_workspaces

    opened = {}
    for _, folder, _, _ in runs(shared):
        if str(folder) in opened:
            continue
        config = load_workspaces(folder / "workspaces.toml")
        config.spec.workspaces = {k: v for k, v in config.spec.workspaces.items() if not k.endswith("-pdf")}
        opened[str(folder)] = open_workspaces(config, settings, index_dir)
    return opened


def retrieve_all(shared: Path, index_dir: Path, save: Path, only: set[str] | None) -> None:
    """Phase 1: one record per case with the delivered chunks (ids, RRF score, ranks)."""
    from core.evaluate import load_cases
    from core.retrieval import retrieve
    from core.settings import Settings
    from core.types import Trace

    settings = Settings()
    opened = open_all(shared, index_dir, settings)
    records = json.loads(save.read_text()) if save.exists() else []
    done = {(r["corpus"], r["case_id"]) for r in records}
    for corpus, folder, cases_file, alt in runs(shared):
        if only and corpus not in only:
            continue
        workspaces = opened[str(folder)]
        t0 = time.perf_counter()
        for case in load_cases(cases_file):
            if case.workspace not in workspaces or (corpus, case.case_id) in done:
                continue
            question = (case.source or {}).get(alt, "") if alt else case.question
            if not question:
                continue
            trace = Trace()
            ranked = retrieve(workspaces[case.workspace], question, settings, trace)
            records.append({
                "corpus": corpus, "case_id": case.case_id, "workspace": case.workspace, "folder": str(folder),
                "question": question, "must_abstain": case.must_abstain,
                "gold": [] if case.must_abstain else case.gold_quotes,
                "doc": (case.source or {}).get("doc") or (case.expected_docs[0] if case.expected_docs else case.case_id),
                "scope": trace.scope.model_dump(), "clause_types": trace.clause_types,
                "chunks": [{"id": s.chunk.chunk_id, "rrf": s.score, "bm25": s.bm25_rank, "dense": s.dense_rank}
                           for s in ranked],
            })
        print(f"{corpus}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        save.write_text(json.dumps(records), encoding="utf-8")


# --- phase 2: features of every span ------------------------------------------


def synonym_coverage(query: str, workspace, lang: str):
    """``(tokens) -> share``: the same-language term coverage with the vocabulary's concepts as units
    (a concept the question names is present when any of its phrases is) — a candidate for core."""
    from core.lexicon import term_groups
    from core.passage_terms import QuestionTerms

    terms = QuestionTerms(query, workspace, lexicon=False, cognates=False)
    groups = term_groups(query, terms.lang)
    grouped = set().union(*(g.source for g in groups)) if groups else set()
    weights = [(g, sum(terms.plain.get(s, 0.0) for s in g.source)) for g in groups]
    rest = {t: w for t, w in terms.plain.items() if t not in grouped}

    def cov(tokens: set[str]) -> float:
        c = sum(w for t, w in rest.items() if t in tokens)
        c += sum(w for g, w in weights if g.covered_by(tokens))
        return c / terms.total
    return cov


def features(record: dict, ws, settings) -> list[dict]:
    """Every sentence and adjacent pair of the delivered chunks with its scores (module docstring)."""
    import numpy as np

    from core.clauses import vocabulary
    from core.eval_passages import span_covers
    from core.passage_context import clause_bounds
    from core.passages import _embed_default, _sentence_vectors, is_cross_language, score_spans, scoring_query
    from core.store import get_embedder
    from core.textproc import tokenize
    from core.types import ScopeInfo

    ids = [c["id"] for c in record["chunks"]]
    got = ws.get_chunks(ids)
    chunks = [got[i] for i in ids if i in got]
    query = scoring_query(record["question"], ScopeInfo.model_validate(record["scope"]))
    record["query"] = query
    spans = score_spans(query, chunks, ws, candidates_per_chunk=None, bridge=True, threads=1)
    app = {(s.chunk.chunk_id, s.start, s.end) for s in
           score_spans(query, chunks, ws, candidates_per_chunk=settings.passages_candidates_per_chunk, bridge=True,
                       threads=1)}
    model = get_embedder()
    types = {c.id: c for c in vocabulary().clauses}
    wording = [types[t].wording_text for t in record.get("clause_types", []) if t in types]
    w_vecs = _embed_default("x", wording, 1, cache=True)[1] if wording else np.zeros((0, 384), np.float32)
    syn = synonym_coverage(query, ws, "en")
    rank = {c.chunk_id: i for i, c in enumerate(chunks)}
    sentences = {}
    out = []
    for s in spans:
        c = s.chunk
        if c.chunk_id not in sentences:
            from core.sentences import sentence_spans
            sentences[c.chunk_id] = sentence_spans(c.text, c.lang)
        parts = [(a, b) for a, b in sentences[c.chunk_id] if a >= s.start and b <= s.end]
        vecs = _sentence_vectors.get(model, [c.text[a:b] for a, b in parts])
        if any(v is None for v in vecs) or not parts:
            cos_w = 0.0
        else:
            v = np.sum(vecs, axis=0)
            v = v / (np.linalg.norm(v) or 1.0)
            cos_w = float(max(w_vecs @ v)) if len(w_vecs) else 0.0
        tokens = set(tokenize(s.text, c.lang)) | set(tokenize(s.text, "en" if c.lang == "es" else "es"))
        c0, c1 = clause_bounds(c, s.start, s.end, sentences[c.chunk_id])
        page, p0, p1 = s.page_span
        out.append({"chunk": c.chunk_id, "doc": c.doc_id, "page": page, "start": p0, "end": p1,
                    "rank": rank[c.chunk_id], "cos": s.cosine, "terms": s.terms, "syn": syn(tokens),
                    "cos_w": cos_w, "pair": len(parts) > 1, "cand": (c.chunk_id, s.start, s.end) in app,
                    "cross": is_cross_language(query, c),
                    "hit": [span_covers(q, s.text) for q in record["gold"]],
                    "hit_ctx": [span_covers(q, c.text[c0:c1]) for q in record["gold"]]})
    return out


def score_all(shared: Path, index_dir: Path, retrieved: Path, out: Path) -> None:
    from core.evaluate import quote_retrieved
    from core.passages import _sentence_vectors
    from core.settings import Settings
    from core.verify import match_quote

    _sentence_vectors._size = 200_000
    settings = Settings()
    opened = open_all(shared, index_dir, settings)
    records = json.loads(retrieved.read_text())
    t0 = time.perf_counter()
    for n, r in enumerate(records):
        ws = opened[r["folder"]][r["workspace"]]
        got = ws.get_chunks([c["id"] for c in r["chunks"]])
        chunks = [got[c["id"]] for c in r["chunks"] if c["id"] in got]
        r["retrieved"] = [bool(quote_retrieved(q, chunks)) for q in r["gold"]]
        r["gold_chunks"] = [[c.chunk_id for c in chunks if match_quote(q, c.text)] for q in r["gold"]]
        r["spans"] = features(r, ws, settings)
        if n % 50 == 0:
            print(f"{n}/{len(records)} {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    out.write_text(json.dumps(records), encoding="utf-8")


# --- phase 3: misses classified, orders cross-validated -----------------------

RANK_GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)
WORDING_GRID = (0.0, 0.25, 0.5, 1.0)


def _overlap(a: dict, b: dict) -> bool:
    return a["doc"] == b["doc"] and a["page"] == b["page"] and a["start"] < b["end"] and b["start"] < a["end"]


def _select(spans: list[dict], key, limit: int, per_chunk: int) -> list[dict]:
    """``core.passages.select_spans`` on span records."""
    out: list[dict] = []
    per: dict[str, int] = {}
    for s in sorted(spans, key=lambda s: -key(s)):
        if len(out) >= limit:
            break
        if per.get(s["chunk"], 0) >= per_chunk or any(_overlap(s, c) for c in out):
            continue
        out.append(s)
        per[s["chunk"]] = per.get(s["chunk"], 0) + 1
    return out


def _score(s: dict) -> float:
    return s["cos"] + 0.5 * s["terms"]


def decide(r: dict, settings) -> tuple[bool, list[dict]]:
    """The app's decision (``core.passages.passages_answer``): the best candidate span's score against
    ``core.passages.min_score``; and the candidate pool (``Settings.passages_candidates_per_chunk``)."""
    from core.passages import min_score

    pool = [s for s in r["spans"] if s["cand"]]
    if not pool:
        return False, pool
    top = max(pool, key=_score)
    return _score(top) >= min_score(settings, cleaned=r["query"] != r["question"], cross=top["cross"]), pool


def classify(r: dict, settings) -> list[str]:
    """Per gold quote of an answerable case: hit, or why not (module docstring)."""
    from core.passages import WEAK_MAX

    answered, pool = decide(r, settings)
    shown = _select(pool, _score, settings.passages_max if answered else WEAK_MAX, settings.passages_per_chunk)
    out = []
    for i, _ in enumerate(r["gold"]):
        if answered and any(s["hit"][i] for s in shown):
            out.append("hit (sentence)")
        elif answered and any(s["hit_ctx"][i] for s in shown):
            out.append("hit (its clause only)")
        elif not r["retrieved"][i]:
            out.append("gold chunk not delivered")
        elif not any(s["hit_ctx"][i] for s in r["spans"]):
            out.append("delivered, no span or clause covers half of it (long quote)")
        elif not answered:
            out.append("abstained (under the threshold), gold among the weak passages"
                       if any(s["hit_ctx"][i] for s in shown) else "abstained, gold not among the weak passages")
        elif not any(s["hit_ctx"][i] for s in pool):
            out.append("answered, the gold sentence not a candidate (term-coverage prefilter)")
        elif any(s["chunk"] in r["gold_chunks"][i] for s in shown):
            out.append("answered, right chunk, another sentence shown")
        else:
            out.append("answered, other chunks' passages shown")
    return out


def _key(rank_w: float, wording_w: float, synonyms: bool):
    def key(s: dict) -> float:
        terms = s["syn"] if synonyms else s["terms"]
        return s["cos"] + 0.5 * terms + wording_w * s["cos_w"] + rank_w / (1 + s["rank"])
    return key


def _hits(r: dict, settings, key, prefilter: bool) -> tuple[int, int, int]:
    """(gold quotes hit with their clause, hit by the sentence, shown only as weak) of one case."""
    from core.passages import WEAK_MAX

    answered, pool = decide(r, settings)
    shown = _select(pool if prefilter else r["spans"], key, settings.passages_max if answered else WEAK_MAX,
                    settings.passages_per_chunk)
    n = range(len(r["gold"]))
    clause = sum(answered and any(s["hit_ctx"][i] for s in shown) for i in n)
    sentence = sum(answered and any(s["hit"][i] for s in shown) for i in n)
    weak = sum((not answered) and any(s["hit_ctx"][i] for s in shown) for i in n)
    return clause, sentence, weak


def report(features_path: Path, folds: int = 5, repeats: int = 10, rank_grid: tuple[float, ...] = RANK_GRID) -> None:
    import itertools
    import random
    from collections import Counter

    from core.settings import Settings

    settings = Settings()
    records = json.loads(features_path.read_text())
    corpora = list(dict.fromkeys(r["corpus"] for r in records))
    print("## Misses classified (the app's order: score; decision and candidates as the app)\n")
    for corpus in corpora:
        rs = [r for r in records if r["corpus"] == corpus]
        counts = Counter(x for r in rs if not r["must_abstain"] for x in classify(r, settings))
        fa = sum(decide(r, settings)[0] for r in rs if r["must_abstain"])
        print(f"### {corpus}: {sum(counts.values())} gold quotes; false answers {fa}/{sum(r['must_abstain'] for r in rs)}")
        for k, v in counts.most_common():
            print(f"  {v:4d}  {k}")
        print()
    can = [r for r in records if not r["must_abstain"] and r["gold"]]
    combos = list(itertools.product(rank_grid, WORDING_GRID, (False, True), (True, False)))
    base = (0.0, 0.0, False, True)
    table = {c: [_hits(r, settings, _key(*c[:3]), c[3]) for r in can] for c in combos}

    def group(r: dict) -> tuple[str, str]:
        return r["corpus"].split("_")[0], r["doc"]

    docs = sorted({group(r) for r in can})
    held = {c: [0, 0, 0] for c in corpora}
    chosen: Counter = Counter()
    for rep in range(repeats):
        order = list(docs)
        random.Random(rep).shuffle(order)
        fold = {d: i % folds for i, d in enumerate(order)}
        for f in range(folds):
            train = [i for i, r in enumerate(can) if fold[group(r)] != f]
            best = max(combos, key=lambda c: (sum(table[c][i][0] for i in train), -combos.index(c)))
            chosen[best] += 1
            if rep == 0:
                for i, r in enumerate(can):
                    if fold[group(r)] == f:
                        for k in range(3):
                            held[r["corpus"]][k] += table[best][i][k]
    print(f"## Orders by {folds}-fold cross-validation over documents ({repeats} partitions), objective: gold "
          "quotes hit with their clause\n")
    print("chosen (rank weight, wording weight, synonyms, term prefilter): "
          + ", ".join(f"{c} ×{n}" for c, n in chosen.most_common(6)) + "\n")
    print("| set | gold quotes | before: sentence / clause / weak | held out: sentence / clause / weak |")
    print("|---|---|---|---|")
    for corpus in corpora:
        idx = [i for i, r in enumerate(can) if r["corpus"] == corpus]
        q = sum(len(can[i]["gold"]) for i in idx)
        b = [sum(table[base][i][k] for i in idx) for k in range(3)]
        h = held[corpus]
        print(f"| {corpus} | {q} | {b[1] / q:.2f} / {b[0] / q:.2f} / {b[2] / q:.2f} "
              f"| {h[1] / q:.2f} / {h[0] / q:.2f} / {h[2] / q:.2f} |")
    print("\nin-sample, gold quotes hit with their clause per set, a few settings:")
    for c in [c for c in [base, (0.0, 0.0, True, True), (0.1, 0.0, False, True), (0.2, 0.0, False, True),
                          (0.0, 0.5, False, True), (0.1, 0.5, True, True), (0.3, 1.0, True, True), (0.0, 0.0, False, False),
                          chosen.most_common(1)[0][0]] if c in table]:
        print(f"  {c}: " + ", ".join(f"{corpus} {sum(table[c][i][0] for i, r in enumerate(can) if r['corpus'] == corpus)}"
                                     for corpus in corpora))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("retrieve")
    r.add_argument("--index-dir", type=Path, required=True)
    r.add_argument("--save", type=Path, required=True)
    r.add_argument("--only", action="append")
    f = sub.add_parser("features")
    f.add_argument("--index-dir", type=Path, required=True)
    f.add_argument("--retrieved", type=Path, required=True)
    f.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("report")
    p.add_argument("--features", type=Path, required=True)
    p.add_argument("--rank-grid", default=",".join(map(str, RANK_GRID)),
                   help="rank weights tried, comma-separated (the setting: 0,0.05,0.1; bench/README.md)")
    args = parser.parse_args()
    if args.cmd == "report":
        report(args.features, rank_grid=tuple(float(x) for x in args.rank_grid.split(",")))
    elif args.cmd == "features":
        score_all(_shared(), args.index_dir, args.retrieved, args.out)
    elif args.cmd == "retrieve":
        retrieve_all(_shared(), args.index_dir, args.save, set(args.only) if args.only else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
