"""Issue #20: the passages answer on questions as people ask them, in either language, before and
after the cross-language scoring, with the thresholds chosen by cross-validation over documents.

Phase 1 (``collect``): every case of ``cuad_natural`` (``-nat``, ``-es``, ``-para``), the original
CUAD template cases, XQuAD-es with its Spanish questions and with the English ones
(``source.question_en``, same gold) and B46 (``shared/cases/B46_questions.json``) is retrieved with
the app's retriever (``core.retrieval.retrieve``, top ``settings.top_k``) and the spans of the
delivered chunks are scored once as the app scores them (``core.passages.score_spans`` against
``core.passages.scoring_query``, the clause type's wording of ``trace.clause_types``). Each span keeps
its cosine, term coverage, same-language synonym coverage, cosine with the clause wording, its chunk's
rank and the clause it would be shown in (``core.passage_context.clause_bounds``), so phase 2 replays
any threshold and any order without a model. Two variants share the spans (issue #20, second pass):
``before`` shows the spans ordered by their score (the app at the start of that pass), ``after`` by
``core.passages.Span.order`` (:func:`order_of`); the decision (best score against the threshold) is the
same for both. (The first pass of issue #20 compared the scoring without and with the cross-language
bridge here; bench/README.md keeps its figures.)

Phase 2 (``report``):

* thresholds by 5-fold cross-validation over documents (cases grouped by document; 10 partitions),
  objective ``budget`` of ``bench/passages.py`` (the highest threshold keeping false abstentions within
  5 % of the training part's answerable cases), one threshold per group of cases scored alike:
  ``cleaned`` (the document's names removed) x ``cross`` (question and document in different
  languages) — the groups ``core.passages.min_score`` applies;
* per corpus and variant, held-out (each case judged once, with the threshold its fold chose):
  false abstentions, false answers, passage hit (sentences only, and with their clause), and the
  gold quotes shown only as weak passages (the ``WEAK_MAX`` best spans of an abstention).

Usage::

    python bench/passages_natural.py --index-dir DIR --out records.json
    python bench/passages_natural.py --from records.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import passages as bp  # noqa: E402  (bench/passages.py: best, _pick, FOLDS, REPEATS)

VARIANTS = ("before", "after")


def _shared() -> Path:
    env = os.environ.get("VERBATIM_SHARED")
    for cand in ([Path(env)] if env else []) + [HERE.parents[1] / "shared"]:
        if (cand / "eval").is_dir():
            return cand
    raise SystemExit("shared/eval not found: set VERBATIM_SHARED")


def _b46_cases(shared: Path):
    from core.evaluate import EvalCase

    cases = []
    for case_id, question, expected, direction in json.loads((shared / "cases" / "B46_questions.json").read_text()):
        cases.append(EvalCase(case_id=case_id, workspace="b46", question=question, must_abstain=False,
                              gold_quotes=[expected], source={"direction": direction}))
    return cases


def collect(shared: Path, index_dir: Path, limit: int | None, only: set[str] | None,
            save: Path | None = None) -> list[dict]:
    """Retrieve and score every case both ways; one record per case and variant."""
    from core.evaluate import load_cases, open_workspaces, quote_retrieved
    from core.passage_context import clause_bounds
    from core.passages import clause_wording, is_cross_language, score_spans, scoring_query
    from core.retrieval import retrieve
    from core.sentences import sentence_spans
    from core.settings import Settings
    from core.textproc import detect_language
    from core.types import Trace
    from core.workspaces import WorkspacesConfig, WorkspacesFile, load_workspaces

    settings = Settings()
    per_chunk = settings.passages_candidates_per_chunk or None
    corpora = shared / "eval" / "corpora"
    nat = corpora / "cuad_natural"
    runs = [  # the cross-language sets first (the machine is shared: records are saved after each corpus)
        ("b46", None, None, None),
        ("xquad_en", corpora / "xquad_es", corpora / "xquad_es" / "cases.jsonl", "question_en"),
        ("cuad_es", nat, nat / "cases_es.jsonl", None),
        ("xquad_es", corpora / "xquad_es", corpora / "xquad_es" / "cases.jsonl", None),
        ("cuad_nat", nat, nat / "cases_nat.jsonl", None),
        ("cuad_para", nat, nat / "cases_para.jsonl", None),
        ("cuad", nat, corpora / "cuad" / "cases.jsonl", None),
        ("lab", shared / "eval" / "lab", shared / "eval" / "lab" / "cases.jsonl", None),  # checked, never fitted on
    ]
    records: list[dict] = []
    opened: dict[str, dict] = {}
    for corpus, folder, cases_file, alt in runs:
        if only and corpus not in only:
            continue
        if folder is None:  # B46: its own small workspace
            b46 = shared / "cases" / "B46_crosslingual"
            config = WorkspacesConfig(path=index_dir / "b46.toml", base=b46.parent,
                                      spec=WorkspacesFile.model_validate({"workspaces": {"b46": {"folders": [str(b46)]}}}))
            key, cases = "b46", _b46_cases(shared)
        else:
            config = load_workspaces(folder / "workspaces.toml")
            config.spec.workspaces = {k: v for k, v in config.spec.workspaces.items() if not k.endswith("-pdf")}
            key, cases = str(folder), load_cases(cases_file)
        if key not in opened:
            t0 = time.perf_counter()
            opened[key] = open_workspaces(config, settings, index_dir)
            print(f"{corpus}: opened in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        workspaces = opened[key]
        cases = [c for c in cases if c.workspace in workspaces][:limit]
        for case in cases:
            question = (case.source or {}).get(alt, "") if alt else case.question
            if not question:
                continue
            ws = workspaces[case.workspace]
            trace = Trace()
            ranked = retrieve(ws, question, settings, trace)
            chunks = [s.chunk for s in ranked]
            query = scoring_query(question, trace.scope)
            gold = [] if case.must_abstain else case.gold_quotes
            doc_lang = chunks[0].lang if chunks else "en"
            base = {"corpus": corpus, "case_id": case.case_id, "must_abstain": case.must_abstain,
                    "doc": (case.source or {}).get("doc") or (case.expected_docs[0] if case.expected_docs
                                                              else case.case_id),
                    "question": question, "query": query, "cleaned": query != question,
                    "cross": detect_language(query) != doc_lang,  # as core.passages.is_cross_language
                    "gold": gold, "retrieved": [quote_retrieved(q, chunks) for q in gold],
                    # case-level evidence for the answer/abstain decision (core.passage_decision)
                    "clause_types": list(trace.clause_types or []), "scoped": bool(trace.scope.doc_ids),
                    "fused": [s.score for s in ranked],
                    "bm25_rank": [s.bm25_rank for s in ranked], "dense_rank": [s.dense_rank for s in ranked]}
            sentences = {c.chunk_id: sentence_spans(c.text, c.lang) for c in chunks}
            # one scoring, as the app does it (core.passages.passages_answer); "before" orders the shown
            # spans by their score (the app at the start of issue #20's second pass), "after" by
            # core.passages' order (report: order_of), from the components kept here
            t1 = time.perf_counter()
            spans = score_spans(query, chunks, ws, candidates_per_chunk=per_chunk, bridge=True,
                                wording=clause_wording(trace.clause_types), wording_weight=1.0)
            ms = (time.perf_counter() - t1) * 1000
            out = []
            for s in spans:
                c0, c1 = clause_bounds(s.chunk, s.start, s.end, sentences[s.chunk.chunk_id])
                page, p0, p1 = s.page_span
                out.append({"chunk": s.chunk.chunk_id, "doc": s.chunk.doc_id, "page": page, "start": p0,
                            "end": p1, "cos": s.cosine, "terms": s.terms, "text": s.text,
                            "syn": s.synonyms, "cos_w": s.cos_wording, "rank": s.rank,
                            "cross": is_cross_language(query, s.chunk),
                            "ctx": s.chunk.text[c0:c1]})
            for variant in VARIANTS:
                records.append({**base, "variant": variant, "score_ms": ms, "spans": out})
        print(f"{corpus}: {len(cases)} cases", file=sys.stderr, flush=True)
        if save:
            save.write_text(json.dumps(records), encoding="utf-8")
    return records


# --- phase 2 ------------------------------------------------------------------


def group_of(record: dict, split: tuple[str, ...]) -> tuple:
    """The record's threshold group: ``cleaned`` and ``cross`` (the best span in another language than
    the question, as ``core.passages.passages_answer`` decides; records without the span's flag: the
    question against the first delivered chunk)."""
    key = ("grp", split, id(record["spans"]))
    if key not in _groups:
        top = max(record["spans"], key=lambda s: s["cos"] + 0.5 * s["terms"], default=None)
        cross = top["cross"] if top is not None and "cross" in top else record.get("cross")
        _groups[key] = tuple(bool(cross if k == "cross" else record.get(k)) for k in split)
    return _groups[key]


_groups: dict = {}


def shown(record: dict, weight: float, settings, limit: int) -> list[dict]:
    """The span records ``core.passages.select_spans`` would show (at most ``limit``)."""
    from core.passages import Span, select_spans

    spans = [(Span(bp._Chunk(s["chunk"], s["doc"], s["page"], 0), s["start"], s["end"],
                   s["cos"] + weight * s["terms"], s["cos"], s["terms"],
                   order=order_of(s, weight) if record["variant"] == "after" else None), s)
             for s in record["spans"]]
    by_id = {id(sp): s for sp, s in spans}
    # the records keep each span's clause (ctx), not its chunk's text, which counting clauses
    # (select_spans(clauses=True), the app's default since the selection pass) reads: spans are counted here
    chosen = select_spans([sp for sp, _ in spans], max_total=limit, per_chunk=settings.passages_per_chunk,
                          clauses=False)
    return [by_id[id(sp)] for sp in chosen]


def order_of(span: dict, weight: float, rank_weight: float | None = None, wording_weight: float | None = None) -> float:
    """A span record's :attr:`core.passages.Span.order` (the weights: ``core.passages``' constants by default)."""
    from core.passages import RANK_WEIGHT, SYNONYMS, WORDING_WEIGHT

    rw = RANK_WEIGHT if rank_weight is None else rank_weight
    ww = WORDING_WEIGHT if wording_weight is None else wording_weight
    syn = span.get("syn") if SYNONYMS else None
    return (span["cos"] + weight * (span["terms"] if syn is None else syn) + ww * span.get("cos_w", 0.0)
            + rw / (1 + span.get("rank", 0)))


def judge(record: dict, threshold: float, weight: float, settings) -> dict:
    """One case at ``threshold``: its decision and, per gold quote, whether it is shown."""
    from core.evaluate import span_covers
    from core.passages import WEAK_MAX

    answered = bp.best(record, weight) >= threshold
    texts = shown(record, weight, settings, settings.passages_max if answered else WEAK_MAX)
    sentence = [any(span_covers(q, s["text"]) for s in texts) for q in record["gold"]]
    clause = [any(span_covers(q, s["ctx"]) for s in texts) or ok for q, ok in zip(record["gold"], sentence)]
    return {"answered": answered, "sentence": sentence if answered else [False] * len(sentence),
            "clause": clause if answered else [False] * len(clause),
            "weak": [False] * len(clause) if answered else clause}


def fixed(group: tuple, split: tuple[str, ...]) -> bool:
    """Same-language groups keep the settings' thresholds (chosen by bench/passages.py on CUAD,
    XQuAD-es and the lab; the same-language scoring is unchanged) when the split separates them."""
    return "cross" in split and not dict(zip(split, group))["cross"]


def _setting(group: tuple, split: tuple[str, ...]) -> float:
    from core.passages import min_score
    from core.settings import Settings

    g = dict(zip(split, group))
    return min_score(Settings(), cleaned=g.get("cleaned", False), cross=g.get("cross", False))


def objective(group: tuple, split: tuple[str, ...], mixed: bool) -> str:
    """``budget`` (bench/passages.py), or with ``mixed`` ``balanced`` for cross-language questions scored as
    asked (the setting ``passages_min_score_cross``, bench/README.md)."""
    g = dict(zip(split, group))
    return "balanced" if mixed and g.get("cross") and not g.get("cleaned") else "budget"


def cross_validate(records: list[dict], weight: float, split: tuple[str, ...],
                   mixed: bool = False) -> tuple[dict, dict]:
    """Thresholds per group, chosen per fold over documents (``bench/passages.py``'s objective), and
    each case's threshold from the first partition (judged once, by the fold that held it out)."""
    import random

    docs = sorted({(r["corpus"].split("_")[0], r["doc"]) for r in records})
    grid = [round(x * 0.01, 2) for x in range(0, 151)]
    groups = sorted({group_of(r, split) for r in records})
    chosen: dict[tuple, list[float]] = {g: [] for g in groups}
    held: dict[int, float] = {}
    for rep in range(bp.REPEATS):
        order = list(docs)
        if rep:
            random.Random(rep).shuffle(order)
        fold_of = {d: i % bp.FOLDS for i, d in enumerate(order)}
        for f in range(bp.FOLDS):
            # B46 is never chosen on: it is judged with the thresholds the corpora chose
            train = [r for r in records if fold_of[(r["corpus"].split("_")[0], r["doc"])] != f
                     and r["corpus"] != "b46"]
            t = {g: _setting(g, split) if fixed(g, split) else
                 bp._pick([r for r in train if group_of(r, split) == g], weight, grid, objective(g, split, mixed))
                 for g in groups}
            for g in groups:
                chosen[g].append(t[g])
            if not rep:
                for r in records:
                    if fold_of[(r["corpus"].split("_")[0], r["doc"])] == f:
                        held[id(r)] = t[group_of(r, split)]
    return chosen, held


def report(records: list[dict]) -> None:
    from core.settings import Settings

    settings = Settings()
    w = settings.passages_term_weight
    corpora = list(dict.fromkeys(r["corpus"] for r in records))
    print(f"\nterm weight {w}; settings: as asked {settings.passages_min_score}, "
          f"without names {settings.passages_min_score_scoped}\n")
    from core.passages import RANK_WEIGHT, SYNONYMS, WORDING_WEIGHT

    # "before": the app at the start of issue #20's second pass (cross-language scoring, the settings' four
    # thresholds, shown spans ordered by score); "after": the same decisions, the shown spans ordered by
    # core.passages' Span.order (order_of)
    setups = [("before", None, "before: the settings' four thresholds (cross-language "
               f"{settings.passages_min_score_cross} / {settings.passages_min_score_cross_scoped}), shown spans ordered "
               "by score"),
              ("after", None, f"after: the same decisions, shown spans ordered by Span.order (rank weight {RANK_WEIGHT}, "
               f"wording weight {WORDING_WEIGHT}, synonyms {SYNONYMS})"),
              ("before", ("cleaned", "cross", "mixed"), "before, thresholds by 5-fold cross-validation over documents "
               "(held out; cleaned x cross, objective as the settings)"),
              ("after", ("cleaned", "cross", "mixed"), "after, thresholds by 5-fold cross-validation over documents "
               "(held out; cleaned x cross, objective as the settings)")]
    for variant, split, label in setups:
        recs = [r for r in records if r["variant"] == variant]
        if split is None:  # the settings, as the app applies them (core.passages.min_score)
            held = {id(r): _setting(group_of(r, ("cleaned", "cross")), ("cleaned", "cross")) for r in recs}
            chosen = {}
            split = ()
        else:
            mixed = "mixed" in split
            split = tuple(k for k in split if k != "mixed")
            chosen, held = cross_validate(recs, w, split, mixed)
        print(f"### {label}\n")
        if chosen:
            print("thresholds chosen over 50 folds (group: mean ± sd, min–max, cases):")
        for g, ts in chosen.items():
            n = sum(group_of(r, split) == g for r in recs)
            if fixed(g, split):
                print(f"  {dict(zip(split, g))}: the setting {_setting(g, split):.2f}, {n} cases")
                continue
            print(f"  {dict(zip(split, g))}: {statistics.mean(ts):.3f} ± {statistics.pstdev(ts):.3f} "
                  f"({min(ts):.2f}–{max(ts):.2f}), {n} cases")
        if chosen:
            print()
        print("| corpus | recall@k | false abst. | false answers | passage hit (sentences) | passage hit (with clause) "
              "| gold shown only as weak passages | hit or weak | no hit, no weak |")
        print("|---|---|---|---|---|---|---|---|---|")
        for corpus in corpora:
            rs = [r for r in recs if r["corpus"] == corpus]
            can = [r for r in rs if not r["must_abstain"] and r["gold"]]
            must = [r for r in rs if r["must_abstain"]]
            js = {id(r): judge(r, held[id(r)], w, settings) for r in rs}
            q = sum(len(r["gold"]) for r in can)
            ret = sum(sum(r["retrieved"]) for r in can)
            fa = sum(not js[id(r)]["answered"] for r in can)
            fans = sum(js[id(r)]["answered"] for r in must)
            sent = sum(sum(js[id(r)]["sentence"]) for r in can)
            cl = sum(sum(js[id(r)]["clause"]) for r in can)
            weak = sum(sum(js[id(r)]["weak"]) for r in can)
            print(f"| {corpus} | {ret}/{q} | {fa}/{len(can)} | {fans}/{len(must)} | {_r(sent, q)} | {_r(cl, q)} "
                  f"| {_r(weak, q)} | {_r(cl + weak, q)} | {q - cl - weak} |")
        print()
    ms = [r["score_ms"] for r in records if r["variant"] == "after"]
    mb = [r["score_ms"] for r in records if r["variant"] == "before"]
    if ms and mb:
        print(f"span scoring p50: before {statistics.median(mb):.0f} ms, after {statistics.median(ms):.0f} ms "
              f"(the after variant runs second on the same chunks: sentence vectors cached)")


def _r(n: int, d: int) -> str:
    return f"{n / d:.2f} ({n}/{d})" if d else "–"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, default=Path("/tmp/verbatim-bench-natural"))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--from", dest="source", type=Path)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    if args.source:
        records = json.loads(args.source.read_text(encoding="utf-8"))
    else:
        records = collect(_shared(), args.index_dir, args.limit, set(args.only) if args.only else None, args.out)
    report(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
