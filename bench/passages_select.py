"""Issue #20, selection pass: which spans the passages answer shows, and in what order.

Phase 1 (``collect``): every case of ``cuad_natural`` (``-nat``, ``-es``, ``-para``), the CUAD template
cases and XQuAD-es (Spanish and English questions) is retrieved once with the app's retriever; the spans
of the delivered chunks are scored as the app scores them (``core.passages.score_spans``, the app's
candidate prefilter), the app's decision is taken (``core.passages.decision_threshold``: answered or
abstained, unchanged by anything this bench tries), and every span is judged against the gold quotes
with the clause the app would show around it (the clause in the chunk as delivered with its
small-to-big continuation, ``core.passage_context.in_delivered``). Each span keeps its evidence:
cosine, term coverage, synonyms, cosine with the clause wording, the chunk's fused rank.

Phase 2 (``report``): orders and selection rules of the shown spans compared on the answered cases,
held out by 5-fold cross-validation grouped by document (a CUAD contract's four phrasings and an XQuAD
article's two languages in one fold, 10 partitions); the objective is the gold quotes shown with their
clause. The decision is the app's in every variant: false answers and false abstentions cannot move.

Usage::

    python bench/passages_select.py collect --index-dir DIR --out records.json
    python bench/passages_select.py report --records records.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def collect(index_dir: Path, out: Path, only: set[str] | None) -> None:
    """Phase 1 (module docstring): one record per case, saved after each corpus."""
    import passages_rank as pr

    from core.eval_passages import span_covers
    from core.evaluate import load_cases, quote_retrieved
    from core.passage_context import clause_bounds, in_delivered
    from core.passages import clause_wording, decision_threshold, score_spans, scoring_query
    from core.retrieval import retrieve
    from core.sentences import sentence_spans
    from core.settings import Settings
    from core.types import Trace

    settings = Settings()
    shared = pr._shared()
    opened = pr.open_all(shared, index_dir, settings)
    records = json.loads(out.read_text()) if out.exists() else []
    done = {(r["corpus"], r["case_id"]) for r in records}
    for corpus, folder, cases_file, alt in pr.runs(shared):
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
            ws = workspaces[case.workspace]
            trace = Trace()
            ranked = retrieve(ws, question, settings, trace)
            chunks = [s.chunk for s in ranked]
            query = scoring_query(question, trace.scope)
            wording = clause_wording(trace.clause_types)
            spans = score_spans(query, chunks, ws, term_weight=settings.passages_term_weight,
                                candidates_per_chunk=settings.passages_candidates_per_chunk or None,
                                threads=1, wording=wording)
            best = max((s.score for s in spans), default=None)
            threshold = decision_threshold(settings, spans, cleaned=query != question, question=query,
                                           clause_type=bool(wording))
            gold = [] if case.must_abstain else case.gold_quotes
            moved = in_delivered(ws.manifest, {f"{i}": (s.chunk, s.start, s.end) for i, s in enumerate(spans)})
            sentences: dict[str, list] = {}
            rows = []
            for i, s in enumerate(spans):
                ch, a, b = moved[f"{i}"]
                if ch.chunk_id not in sentences or sentences[ch.chunk_id][0] is not ch:
                    sentences[ch.chunk_id] = (ch, sentence_spans(ch.text, ch.lang))
                c0, c1 = clause_bounds(ch, a, b, sentences[ch.chunk_id][1])
                page, p0, p1 = s.page_span
                rows.append({"chunk": s.chunk.chunk_id, "doc": s.chunk.doc_id, "page": page, "start": p0,
                             "end": p1, "s": s.start, "e": s.end, "score": s.score, "cos": s.cosine,
                             "terms": s.terms, "syn": s.synonyms, "cos_w": s.cos_wording, "rank": s.rank,
                             "order": s.order_key, "text": s.text, "c0": c0, "c1": c1, "dchunk": ch.chunk_id,
                             "sentence_no": next((k for k, (x, y) in enumerate(sentences[ch.chunk_id][1]) if x <= a < y), -1),
                             "hit": [span_covers(q, s.text) for q in gold],
                             "hit_ctx": [span_covers(q, ch.text[c0:c1]) for q in gold]})
            # the order's question without the leftover title words (order_query), two variants of
            # what is kept: the words of the whole clause vocabulary ("vocab") or of the matched types ("types")
            for name, oq in (("vocab", order_query(query, trace.scope.titles if trace.scope.doc_ids else [])),
                             ("types", order_query(query, trace.scope.titles if trace.scope.doc_ids else [],
                                                   list(trace.clause_types or [])))):
                if oq == query:
                    for row in rows:
                        row[f"cos_{name}"], row[f"syn_{name}"] = row["cos"], row["syn"]
                    continue
                rescored = {(s.chunk.chunk_id, s.start, s.end): s for s in score_spans(
                    oq, chunks, ws, term_weight=settings.passages_term_weight, candidates_per_chunk=None, threads=1,
                    wording=wording)}
                for row in rows:
                    a = rescored.get((row["chunk"], row["s"], row["e"]))
                    row[f"cos_{name}"] = a.cosine if a is not None else row["cos"]
                    row[f"syn_{name}"] = a.synonyms if a is not None else row["syn"]
            records.append({"titles": list(trace.scope.titles),
                "corpus": corpus, "case_id": case.case_id, "doc": (case.source or {}).get("doc") or (
                    case.expected_docs[0] if case.expected_docs else case.case_id),
                "question": question, "query": query, "must_abstain": case.must_abstain, "gold": gold,
                "retrieved": [bool(quote_retrieved(q, chunks)) for q in gold],
                "clause_types": list(trace.clause_types or []), "best": best, "threshold": threshold,
                "answered": best is not None and best >= threshold,
                "fused": [s.score for s in ranked], "spans": rows})
        print(f"{corpus}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        out.write_text(json.dumps(records), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--index-dir", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--only", action="append")
    p = sub.add_parser("report")
    p.add_argument("--records", type=Path, required=True)
    p.add_argument("--queries", default="base")
    p.add_argument("--fused", default="0")
    p.add_argument("--fix", help="per chunk,clause rule,window fixed, e.g. 2,count,0 (only rank and wording tried)")
    args = parser.parse_args()
    if args.cmd == "collect":
        collect(args.index_dir, args.out, set(args.only) if args.only else None)
    else:
        global QUERIES, PER_CHUNK, CLAUSE_RULES, WINDOW_GRID, FUSED_GRID
        QUERIES = tuple(args.queries.split(","))
        FUSED_GRID = tuple(float(x) for x in args.fused.split(","))
        if args.fix:
            pc, rule, win = args.fix.split(",")
            PER_CHUNK, CLAUSE_RULES, WINDOW_GRID = (int(pc),), (rule if rule == "count" else rule == "True",), (float(win),)
        report(json.loads(args.records.read_text()))
    return 0


# --- the order's question without leftover title words (tried, not adopted) -----
# Inside a named document its title's words say nothing about which clause answers, and strip_reference
# leaves pieces of the title behind ("Whose law controls the interpretation Products?"). order_query removes
# the title words the clause vocabulary does not use, for the order only. Held out it changed nothing
# (bench/README.md "Issue #20, selection pass"), so core does not carry it.

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)


@lru_cache(maxsize=256)
def _vocabulary_stems(types: tuple[str, ...] | None = None) -> frozenset[str]:
    """BM25 stems (English and Spanish analyses) of every phrase of the clause vocabulary (``types`` ``None``)
    or of the clause types whose ids are ``types``; empty when the vocabulary cannot be read."""
    from core.clauses import vocabulary
    from core.errors import CoreError
    from core.textproc import tokenize_query

    try:
        clauses = vocabulary().clauses
    except CoreError:
        return frozenset()
    stems: set[str] = set()
    for c in clauses:
        if types is not None and c.id not in types:
            continue
        for phrase in (c.label_en, c.label_es, *c.ask, *c.wording):
            stems.update(tokenize_query(phrase))
    return frozenset(stems)


def order_query(query: str, titles: list[str], clause_types: list[str] | None = None) -> str:
    """``query`` without the words of ``titles`` (the documents the question was scoped to,
    ``trace.scope.titles``) that the clause vocabulary does not use; ``query`` itself when no title is given,
    nothing is removed, or nothing searchable would be left.

    A word is removed when each of its stems (:func:`core.textproc.tokenize_query`, English and Spanish) is a
    stem of a title and none is a stem of the clause vocabulary (:func:`_vocabulary_stems`: of every type, or
    of the types ``clause_types`` when given — ``trace.clause_types``); stopwords and punctuation are kept as
    they are (the embedding model reads the rest as a sentence).
    """
    from core.textproc import tokenize_query

    if not titles:
        return query
    title_stems = {s for t in titles for s in tokenize_query(t)}
    keep = _vocabulary_stems(None if clause_types is None else tuple(sorted(clause_types)))
    out, pos, removed = [], 0, False
    for m in _WORD.finditer(query):
        stems = tokenize_query(m.group())
        if stems and all(s in title_stems for s in stems) and not any(s in keep for s in stems):
            out.append(query[pos:m.start()])
            pos, removed = m.end(), True
    out.append(query[pos:])
    cleaned = " ".join("".join(out).split())
    if not removed or not tokenize_query(cleaned):
        return query
    return cleaned


# --- phase 2: selection rules compared, held out -------------------------------

RANK_GRID = (0.0, 0.05, 0.1)  # bounded as core.passages.RANK_WEIGHT (B47, bench/README.md second pass)
WORDING_GRID = (0.25, 0.5, 1.0)
CLAUSE_RULES = (False, True, "count")  # one shown span per clause (core.passages.select_spans, one_per_clause)
PER_CHUNK = (1, 2)
WINDOW_GRID = (0.0, 0.25, 0.5)
QUERIES = ("base",)  # report --queries base,vocab,types: the order's question (order_key)
FUSED_GRID = (0.0,)  # report --fused 0,0.5,...: weights of the chunk's relative fused score (order_key)
LIMIT, WEAK = 5, 3


def _overlap(a: dict, b: dict) -> bool:
    return a["doc"] == b["doc"] and a["page"] == b["page"] and a["start"] < b["end"] and b["start"] < a["end"]


def _same_clause(a: dict, b: dict) -> bool:
    return a["dchunk"] == b["dchunk"] and a["c0"] < b["c1"] and b["c0"] < a["c1"]


def order_key(rank_w: float, wording_w: float, window_w: float = 0.0, query: str = "base", fused_w: float = 0.0):
    """The order of the shown spans (``core.passages.Span.order``); ``window_w`` adds that share of the
    best neighbouring sentence's order in the same chunk (a sentence window, tried here); ``query``: the
    cosine and synonyms against the scoring query (``base``) or against ``order_query``
    keeping the whole vocabulary's words (``vocab``) or the matched types' (``types``); ``fused_w``: weight of
    the chunk's fused score over the best chunk's (``core.passages.FUSED_WEIGHT``)."""
    c, y = ("cos", "syn") if query == "base" else (f"cos_{query}", f"syn_{query}")

    def base(s: dict) -> float:
        return (s.get(c, s["cos"]) + 0.5 * s.get(y, s["syn"]) + wording_w * s["cos_w"] + rank_w / (1 + s["rank"])
                + fused_w * s["fz"])

    def key(s: dict) -> float:
        if not window_w:
            return base(s)
        nb = s.get("_nb")
        return base(s) + window_w * (base(nb) if nb is not None else 0.0)
    return key


def _neighbours(r: dict) -> None:
    """Each span's best single-sentence neighbour (previous or next sentence of its chunk), by cosine."""
    single = {(s["dchunk"], s["sentence_no"]): s for s in r["spans"] if not s["text"].count("\n\n") and
              s["sentence_no"] >= 0}
    for s in r["spans"]:
        cands = [single.get((s["dchunk"], s["sentence_no"] + d)) for d in (-1, 1)]
        cands = [c for c in cands if c is not None and c is not s and not _overlap(c, s)]
        s["_nb"] = max(cands, key=lambda c: c["cos"], default=None)


def select(spans: list[dict], key, limit: int, per_chunk: int, one_per_clause: bool) -> list[dict]:
    """``core.passages.select_spans`` on span records (the rule variants of phase 2)."""
    out: list[dict] = []
    per: dict[str, int] = {}
    clauses = 0
    for s in sorted(spans, key=lambda s: -key(s)):
        if per.get(s["chunk"], 0) >= per_chunk or any(_overlap(s, c) for c in out):
            continue
        same = any(_same_clause(s, c) for c in out)
        if one_per_clause == "count":  # a span in a clause already shown: one more highlight, no new slot
            if not same and clauses >= limit:
                continue
            clauses += not same
        elif len(out) >= limit:
            break
        elif one_per_clause and same:
            continue
        out.append(s)
        per[s["chunk"]] = per.get(s["chunk"], 0) + 1
    return out


def hits(r: dict, combo) -> tuple[int, int, int]:
    """(gold quotes shown with their clause, by the sentence, as weak passages) of one case."""
    rank_w, wording_w, per_chunk, clause, window_w, query, fused_w = combo
    # the clause rule applies to an answer's passages; an abstention's weak passages are counted one by one
    shown = select(r["spans"], order_key(rank_w, wording_w, window_w, query, fused_w), LIMIT if r["answered"] else WEAK, per_chunk,
                   clause if r["answered"] else False)
    n = range(len(r["gold"]))
    ok = r["answered"]
    return (sum(ok and any(s["hit_ctx"][i] for s in shown) for i in n),
            sum(ok and any(s["hit"][i] for s in shown) for i in n),
            sum((not ok) and any(s["hit_ctx"][i] for s in shown) for i in n))


def report(records: list[dict], folds: int = 5, repeats: int = 10) -> None:
    corpora = list(dict.fromkeys(r["corpus"] for r in records))
    can = [r for r in records if not r["must_abstain"] and r["gold"]]
    for r in records:
        _neighbours(r)
        top = max(r["fused"], default=0.0)
        for s in r["spans"]:  # the chunk's fused score over the best delivered chunk's (core.passages.score_spans)
            s["fz"] = r["fused"][s["rank"]] / top if top > 0 and s["rank"] < len(r["fused"]) else 0.0
    combos = list(itertools.product(RANK_GRID, WORDING_GRID, PER_CHUNK, CLAUSE_RULES, WINDOW_GRID, QUERIES,
                                    FUSED_GRID))
    app = (0.1, 0.5, 2, False, 0.0, "base", 0.0)
    table = {c: [hits(r, c) for r in can] for c in combos}
    listed = [app, *[(*c, "base", 0.0) for c in [(0.1, 0.5, 2, True, 0.0), (0.1, 0.5, 1, False, 0.0),
                                                  (0.1, 0.5, 1, True, 0.0), (0.1, 1.0, 1, True, 0.0),
                                                  (0.1, 1.0, 2, True, 0.0), (0.1, 0.5, 2, False, 0.25),
                                                  (0.1, 1.0, 2, "count", 0.0)]],
              *[(0.1, 1.0, 2, "count", 0.0, q, 0.0) for q in QUERIES if q != "base"],
              *[(r, w, 2, "count", 0.0, "base", f) for r, w, f in [(0.1, 1.0, 0.5), (0.1, 1.0, 1.0), (0.0, 0.25, 1.0),
                                                                    (0.0, 0.25, 1.5), (0.0, 0.25, 3.0)]]]
    for c in listed:
        if c not in table:
            table[c] = [hits(r, c) for r in can]
    print("## Where the gold quote is, the app's selection (answered cases)\n")
    for corpus in corpora:
        rs = [r for r in can if r["corpus"] == corpus]
        cnt: Counter = Counter()
        for r in rs:
            shown = select(r["spans"], order_key(0.1, 0.5), LIMIT if r["answered"] else WEAK, 2, False)
            for i in range(len(r["gold"])):
                if not r["answered"]:
                    cnt["abstained"] += 1
                elif any(s["hit_ctx"][i] for s in shown):
                    cnt["shown"] += 1
                elif any(s["hit_ctx"][i] for s in r["spans"]):
                    cnt["candidate span covers it, not shown"] += 1
                elif r["retrieved"][i]:
                    cnt["delivered, no candidate span covers it"] += 1
                else:
                    cnt["not delivered"] += 1
        print(f"{corpus}: " + ", ".join(f"{k} {v}" for k, v in cnt.most_common()))

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
            best = max(combos, key=lambda c: (sum(table[c][i][0] for i in train), c == app, -combos.index(c)))
            chosen[best] += 1
            if rep == 0:
                for i, r in enumerate(can):
                    if fold[group(r)] == f:
                        for k in range(3):
                            held[r["corpus"]][k] += table[best][i][k]
    print(f"\n## {folds}-fold CV grouped by document ({repeats} partitions), objective gold quotes shown with clause\n")
    print("chosen (rank w, wording w, per chunk, clause rule, window w, order query, fused w): "
          + ", ".join(f"{c} x{n}" for c, n in chosen.most_common(6)) + "\n")
    print("| set | gold quotes | app: sentence / clause / weak | held out: sentence / clause / weak |")
    print("|---|---|---|---|")
    for corpus in corpora:
        idx = [i for i, r in enumerate(can) if r["corpus"] == corpus]
        q = sum(len(can[i]["gold"]) for i in idx)
        b = [sum(table[app][i][k] for i in idx) for k in range(3)]
        h = held[corpus]
        print(f"| {corpus} | {q} | {b[1]} / {b[0]} / {b[2]} | {h[1]} / {h[0]} / {h[2]} |")
    print("\nin-sample, gold quotes shown with clause per set:")
    for c in dict.fromkeys(listed + [c for c, _ in chosen.most_common(3)]):
        print(f"  {c}: " + ", ".join(f"{corpus} {sum(table[c][i][0] for i, r in enumerate(can) if r['corpus'] == corpus)}"
                                     for corpus in corpora))


if __name__ == "__main__":
    sys.exit(main())
