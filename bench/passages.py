"""The passages answer on real data (issue #13): passage hit@k beside recall@k, the abstention
threshold calibrated by cross-validation over documents, its trade-off curve, and latency.

Phase 1 (``collect``): every case of CUAD (txt), XQuAD-es and the lab is retrieved with the
app's own retriever (``core.retrieval.retrieve``) and the spans of the delivered chunks are
scored (``core.passages.score_spans``) three times, timed: every sentence with torch's default
threads and nothing cached (before); the app's candidate sentences with one thread and nothing
cached (cold); the same as the app runs it, sentences embedded for the corpus's earlier
questions reused (a session). The spans' cosine and term coverage of the first (every sentence)
and the last (the app) are saved, so phase 2 can replay any term weight, threshold or number of
candidates per chunk without running a model again.

Phase 2 (``report``, printed after collecting, or alone with ``--from FILE``):

* the variants side by side: sentences embedded, retrieval and span-scoring p50/p90, passage
  hit and the false abstentions / answers at the setting; and, replayed from every sentence's
  scores, the passage hit for 1-6 candidates per chunk;

* passage hit@k: a gold quote counts when one of the shown spans (``select_spans`` with the
  settings' limits, at most 5; at the default weight nothing when the best span is under the
  threshold, as the app shows it) covers at least half of its characters
  (``core.evaluate.span_covers``), over answerable cases, beside recall@k of the same run
  (the quote is in a delivered chunk): the gap is what span selection loses;
* the abstention trade-off: for each threshold on the best span's score, false abstentions
  (answerable cases whose best span is under it) and false answers (must-abstain cases whose
  best span is over it), per corpus;
* the threshold chosen by 5-fold cross-validation over documents (cases grouped by their
  document, so no contract's questions are in both the fold that chooses and the fold that is
  judged): on each training part the threshold of each objective (``budget``, ``balanced``),
  judged on the held-out part. The lab is never used for choosing; it is the check.

Usage::

    python bench/passages.py [--corpora DIR] [--lab DIR] [--store DIR] [--out FILE]
    python bench/passages.py --from FILE          # phase 2 only
    python bench/passages.py --only lab           # one corpus (repeatable)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WEIGHTS = (0.0, 0.25, 0.5, 1.0)


def _shared() -> Path:
    env = os.environ.get("VERBATIM_SHARED")
    for cand in ([Path(env)] if env else []) + [HERE.parents[1] / "shared"]:
        if (cand / "eval").is_dir():
            return cand
    raise SystemExit("shared/eval not found: pass --corpora and --lab")


def collect(corpora: Path, lab: Path, store: Path, limit: int | None, only: set[str] | None = None) -> list[dict]:
    """Retrieve and score every case; returns one record per case."""
    sys.path.insert(0, str(HERE.parent))
    os.environ.setdefault("VERBATIM_HOME", str(store / "home"))
    from core.evaluate import load_cases, open_workspaces, quote_retrieved
    from core.passages import _sentence_vectors, score_spans
    from core.retrieval import retrieve
    from core.settings import Settings
    from core.types import Trace
    from core.workspaces import load_workspaces

    settings = Settings()
    per_chunk = settings.passages_candidates_per_chunk or None
    runs = [("cuad", corpora / "cuad", {"cuad-txt"}), ("xquad_es", corpora / "xquad_es", None), ("lab", lab, None)]
    records: list[dict] = []
    for corpus, folder, only_ws in runs:
        if only and corpus not in only:
            continue
        config = load_workspaces(folder / "workspaces.toml")
        if only_ws:
            config.spec.workspaces = {k: v for k, v in config.spec.workspaces.items() if k in only_ws}
        t0 = time.perf_counter()
        workspaces = open_workspaces(config, settings, store / corpus)
        print(f"{corpus}: indexed in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        cases = [c for c in load_cases(folder / "cases.jsonl") if c.workspace in workspaces][:limit]
        _sentence_vectors.clear()  # a new session: no sentence of these documents embedded yet
        for case in cases:
            ws = workspaces[case.workspace]
            trace = Trace()
            t1 = time.perf_counter()
            ranked = retrieve(ws, case.question, settings, trace)
            t2 = time.perf_counter()
            chunks = [s.chunk for s in ranked]
            question = case.question  # as core.passages.passages_answer scores them
            # both variants on the same chunks, one after the other: every sentence (before) and
            # the candidates the app embeds (after, Settings.passages_candidates_per_chunk)
            spans_all = score_spans(question, chunks, ws, candidates_per_chunk=None, threads=None, cache=False)
            t3 = time.perf_counter()
            score_spans(question, chunks, ws, candidates_per_chunk=per_chunk, cache=False)
            t4 = time.perf_counter()
            # the app: sentences embedded for this corpus's earlier questions are reused
            spans = score_spans(question, chunks, ws, candidates_per_chunk=per_chunk)
            t5 = time.perf_counter()
            gold = [] if case.must_abstain else case.gold_quotes
            rank = {c.chunk_id: i for i, c in enumerate(chunks)}
            records.append({
                "corpus": corpus, "case_id": case.case_id, "must_abstain": case.must_abstain,
                "doc": (case.source or {}).get("doc") or (case.expected_docs[0] if case.expected_docs else case.case_id),
                "gold": gold, "retrieved": [quote_retrieved(q, chunks) for q in gold],
                "retrieve_ms": (t2 - t1) * 1000, "score_all_ms": (t3 - t2) * 1000,
                "score_cold_ms": (t4 - t3) * 1000, "score_ms": (t5 - t4) * 1000,
                "spans_all": [_span_record(s, rank) for s in spans_all],
                "spans": [_span_record(s, rank) for s in spans],
            })
        print(f"{corpus}: {len(cases)} cases", file=sys.stderr)
    return records


def _span_record(span, rank: dict[str, int]) -> dict:
    where = span.page_span  # (start, end) on the chunk's page, or (page, start, end) where chunks cross pages
    page, start, end = where if len(where) == 3 else (span.chunk.page, *where)
    return {"chunk": span.chunk.chunk_id, "rank": rank[span.chunk.chunk_id], "doc": span.chunk.doc_id,
            "page": page, "start": start, "end": end, "cos": span.cosine, "terms": span.terms, "text": span.text}


# --- phase 2 ------------------------------------------------------------------


class _Chunk:  # the fields select_spans and Span.page_span read; the recorded offsets are the page's
    def __init__(self, chunk_id: str, doc_id: str, page: int, start: int) -> None:
        self.chunk_id, self.doc_id, self.page, self.start = chunk_id, doc_id, page, start

    def page_spans(self, start: int, end: int) -> list:
        from types import SimpleNamespace

        return [SimpleNamespace(page=self.page, start=self.start + start, end=self.start + end)]


def shown(record: dict, weight: float, settings, min_score: float = -1.0):
    """The spans shown for one case under term weight ``weight`` (as core.passages.select_spans)."""
    from core.passages import Span, select_spans

    spans = []
    for s in record["spans"]:
        chunk = _Chunk(s["chunk"], s["doc"], s["page"], 0)
        spans.append((Span(chunk, s["start"], s["end"], s["cos"] + weight * s["terms"], s["cos"], s["terms"]), s["text"]))
    by_id = {id(sp): text for sp, text in spans}
    chosen = select_spans([sp for sp, _ in spans], max_total=settings.passages_max,
                          per_chunk=settings.passages_per_chunk, min_score=min_score)
    return [(sp, by_id[id(sp)]) for sp in chosen]


def with_spans(records: list[dict], key: str) -> list[dict]:
    """The records with ``spans`` taken from ``record[key]`` (``spans_all``: every sentence scored)."""
    return [{**r, "spans": r[key]} for r in records]


def simulated(records: list[dict], per_chunk: int) -> list[dict]:
    """What ``score_spans(candidates_per_chunk=per_chunk)`` returns, replayed from every sentence's
    scores: per chunk the ``per_chunk`` sentences of highest term coverage (ties: the earlier one),
    and the pairs of two kept sentences (as ``core.passages.candidate_units``)."""
    out = []
    for r in records:
        by_chunk: dict[str, list[dict]] = {}
        for sp in r["spans_all"]:
            by_chunk.setdefault(sp["chunk"], []).append(sp)
        kept_spans = []
        for spans in by_chunk.values():
            units = [a for a in spans if not any(b is not a and a["start"] <= b["start"] and b["end"] <= a["end"]
                                                 for b in spans)]
            units.sort(key=lambda u: u["start"])
            order = sorted(range(len(units)), key=lambda i: (-units[i]["terms"], i))[:per_chunk]
            kept = [units[i] for i in sorted(order)]
            kept_spans += kept
            for a, b in zip(kept, kept[1:]):
                kept_spans += [sp for sp in spans if sp["start"] == a["start"] and sp["end"] == b["end"]
                               and units.index(b) == units.index(a) + 1]
        out.append({**r, "spans": kept_spans, "embedded": sum(len(v) and min(per_chunk, _n_units(v))
                                                              for v in by_chunk.values())})
    return out


def _n_units(spans: list[dict]) -> int:
    return sum(not any(b is not a and a["start"] <= b["start"] and b["end"] <= a["end"] for b in spans) for a in spans)


def hit_counts(records: list[dict], corpus: str, weight: float, settings) -> tuple[int, int]:
    """(quotes hit, quotes) of ``corpus`` as the app shows spans: nothing under the threshold."""
    from core.evaluate import span_covers

    hits = quotes = 0
    for r in records:
        if r["corpus"] != corpus or not r["gold"]:
            continue
        texts = [t for _, t in shown(r, weight, settings)] if best(r, weight) >= settings.passages_min_score else []
        got = [any(span_covers(q, t) for t in texts) for q in r["gold"]]
        quotes += len(got)
        hits += sum(got)
    return hits, quotes


def variants(records: list[dict], settings) -> None:
    """Before (every sentence scored) and after (the app's candidates) in one run: latency and quality."""
    from core.passages import SCORING_THREADS

    if "score_cold_ms" not in records[0]:  # records of an earlier version of this script
        return
    w, threshold = settings.passages_term_weight, settings.passages_min_score
    corpora = ["cuad", "xquad_es", "lab"]
    print(f"\n### Span scoring variants, same run, same retrieved chunks (term weight {w}, threshold {threshold})\n")
    print("| variant | sentences embedded per question (mean) | retrieval p50 ms | span scoring p50 / p90 ms | "
          "retrieval + scoring p50 ms | "
          + " | ".join(f"{c} passage hit" for c in corpora) + " | " + " | ".join(f"{c} false abst. / false answers" for c in corpora) + " |")
    print("|" + "---|" * (5 + 2 * len(corpora)))
    ret = [r["retrieve_ms"] for r in records]
    per = settings.passages_candidates_per_chunk
    threads = SCORING_THREADS
    for label, key, ms in (("every sentence, torch's default threads (before)", "spans_all", "score_all_ms"),
                           (f"{per} candidates per chunk by term coverage, {threads} torch thread, no sentence cached",
                            "spans", "score_cold_ms"),
                           (f"the same, sentences of the corpus's earlier questions reused (after: the app)",
                            "spans", "score_ms")):
        recs = with_spans(records, key)
        sc = [r[ms] for r in records]
        total = [r[ms] + r["retrieve_ms"] for r in records]
        n = statistics.mean(_n_units_record(r) for r in recs)
        cells = []
        for corpus in corpora:
            h, q = hit_counts(recs, corpus, w, settings)
            cells.append(f"{h / q:.2f} ({h}/{q})" if q else "—")
        for corpus in corpora:
            [(_, fa, nc, fans, nm)] = _curve([r for r in recs if r["corpus"] == corpus], w, [threshold])
            cells.append(f"{fa}/{nc} / {fans}/{nm}")
        print(f"| {label} | {n:.1f} | {statistics.median(ret):.0f} | {statistics.median(sc):.0f} / "
              f"{sorted(sc)[int(len(sc) * 0.9)]:.0f} | {statistics.median(total):.0f} | " + " | ".join(cells) + " |")
    print("\nReplayed from every sentence's scores (no timing): candidates per chunk against passage hit\n")
    print("| candidates per chunk | sentences embedded (mean) | " + " | ".join(f"{c} passage hit" for c in corpora) + " |")
    print("|" + "---|" * (2 + len(corpora)))
    for c in (1, 2, 3, 4, 6):
        recs = simulated(records, c)
        cells = []
        for corpus in corpora:
            h, q = hit_counts(recs, corpus, w, settings)
            cells.append(f"{h}/{q}")
        print(f"| {c} | {statistics.mean(r['embedded'] for r in recs):.1f} | " + " | ".join(cells) + " |")


def _n_units_record(record: dict) -> int:
    by_chunk: dict[str, list[dict]] = {}
    for sp in record["spans"]:
        by_chunk.setdefault(sp["chunk"], []).append(sp)
    return sum(_n_units(v) for v in by_chunk.values())


def best(record: dict, weight: float) -> float:
    return max((s["cos"] + weight * s["terms"] for s in record["spans"]), default=-1.0)


def _curve(records: list[dict], weight: float, thresholds: list[float]) -> list[tuple[float, int, int, int, int]]:
    can = [r for r in records if not r["must_abstain"]]
    must = [r for r in records if r["must_abstain"]]
    out = []
    for t in thresholds:
        fa = sum(best(r, weight) < t for r in can)
        fans = sum(best(r, weight) >= t for r in must)
        out.append((t, fa, len(can), fans, len(must)))
    return out


def _balanced(records: list[dict], weight: float, t: float) -> float:
    can = [r for r in records if not r["must_abstain"]]
    must = [r for r in records if r["must_abstain"]]
    a = sum(best(r, weight) >= t for r in can) / len(can) if can else 1.0
    b = sum(best(r, weight) < t for r in must) / len(must) if must else 1.0
    return (a + b) / 2


MAX_FALSE_ABSTENTIONS = 0.05
"""Objective ``budget``: the highest threshold whose false abstentions on the training part stay
within this share of its answerable cases (abstain as much as possible, within a budget of
answerable questions turned away)."""


def _pick(train: list[dict], weight: float, grid: list[float], objective: str) -> float:
    if objective == "balanced":
        return max(grid, key=lambda t: (_balanced(train, weight, t), -t))
    can = [r for r in train if not r["must_abstain"]]
    ok = [t for t in grid if sum(best(r, weight) < t for r in can) <= MAX_FALSE_ABSTENTIONS * len(can)]
    return max(ok) if ok else min(grid)


def cross_validate(records: list[dict], weight: float, folds: int = 5,
                   objective: str = "budget") -> tuple[list[float], int, int, int, int]:
    """Thresholds chosen per fold (documents grouped) and the held-out false abstentions / answers."""
    docs = sorted({(r["corpus"], r["doc"]) for r in records})
    fold_of = {d: i % folds for i, d in enumerate(docs)}
    grid = [round(x * 0.01, 2) for x in range(0, 151)]
    chosen, fa, n_can, fans, n_must = [], 0, 0, 0, 0
    for f in range(folds):
        train = [r for r in records if fold_of[(r["corpus"], r["doc"])] != f]
        test = [r for r in records if fold_of[(r["corpus"], r["doc"])] == f]
        t = _pick(train, weight, grid, objective)
        chosen.append(t)
        fa += sum(best(r, weight) < t for r in test if not r["must_abstain"])
        n_can += sum(not r["must_abstain"] for r in test)
        fans += sum(best(r, weight) >= t for r in test if r["must_abstain"])
        n_must += sum(r["must_abstain"] for r in test)
    return chosen, fa, n_can, fans, n_must


def report(records: list[dict]) -> None:
    sys.path.insert(0, str(HERE.parent))
    from core.evaluate import span_covers
    from core.settings import Settings

    settings = Settings()
    threshold = settings.passages_min_score
    corpora = [c for c in ("cuad", "xquad_es", "lab") if any(r["corpus"] == c for r in records)]  # --only
    if records and "spans_all" in records[0]:
        variants(records, settings)
        print("\nEverything below: the app's variant (candidates per chunk "
              f"{settings.passages_candidates_per_chunk}).")
    print(f"\n### Passage hit@k beside recall@{settings.top_k} (answerable cases; shown spans: at most "
          f"{settings.passages_max}, {settings.passages_per_chunk} per chunk)\n")
    print("| corpus | term weight | recall@6 (quote in a delivered chunk) | passage hit (a shown span covers ≥ half a quote) | cases with every quote hit |")
    print("|---|---|---|---|---|")
    for corpus in corpora:
        recs = [r for r in records if r["corpus"] == corpus and r["gold"]]
        for w in WEIGHTS:
            quotes = hits = full = 0
            ret = sum(ok for r in recs for ok in r["retrieved"])
            for r in recs:
                # as the app shows them at this weight: nothing under the threshold, else the top spans
                texts = [t for _, t in shown(r, w, settings)] if w != settings.passages_term_weight or \
                    best(r, w) >= threshold else []
                got = [any(span_covers(q, t) for t in texts) for q in r["gold"]]
                quotes += len(got)
                hits += sum(got)
                full += all(got)
            mark = " (default)" if w == settings.passages_term_weight else ""
            print(f"| {corpus} | {w}{mark} | {ret / quotes:.2f} ({ret}/{quotes}) | {hits / quotes:.2f} ({hits}/{quotes}) | "
                  f"{full}/{len(recs)} |")
    w = settings.passages_term_weight
    print(f"\n### Abstention trade-off (term weight {w}): false abstentions / false answers per threshold on the best span's score\n")
    grid = [round(0.3 + 0.05 * i, 2) for i in range(11)]
    head = "| threshold | " + " | ".join(f"{c}: false abst. | {c}: false answers" for c in corpora) + " |"
    print(head)
    print("|" + "---|" * (1 + 2 * len(corpora)))
    for t in grid:
        cells = []
        for corpus in corpora:
            [(_, fa, nc, fans, nm)] = _curve([r for r in records if r["corpus"] == corpus], w, [t])
            cells += [f"{fa}/{nc}", f"{fans}/{nm}"]
        mark = " (setting)" if abs(t - threshold) < 1e-9 else ""
        print(f"| {t}{mark} | " + " | ".join(cells) + " |")
    calib = [r for r in records if r["corpus"] != "lab"]
    print("\n### Threshold by 5-fold cross-validation over documents (CUAD txt + XQuAD-es; lab held out)\n")
    print(f"Objectives: `budget` = the highest threshold keeping false abstentions within "
          f"{MAX_FALSE_ABSTENTIONS:.0%} of the training part's answerable cases; `balanced` = the best balanced "
          "accuracy (mean of the answer rate on answerable and the abstention rate on must-abstain cases).\n")
    print("| objective | term weight | thresholds chosen per fold | held-out false abstentions | held-out false answers |")
    print("|---|---|---|---|---|")
    for objective in ("budget", "balanced"):
        for wt in WEIGHTS:
            chosen, fa, nc, fans, nm = cross_validate(calib, wt, objective=objective)
            print(f"| {objective} | {wt} | {', '.join(f'{t:.2f}' for t in chosen)} | {fa}/{nc} | {fans}/{nm} |")
    lab = [r for r in records if r["corpus"] == "lab"]
    print(f"\nLab at the setting ({threshold}, weight {w}):")
    for r in lab:
        b = best(r, w)
        texts = [t for _, t in shown(r, w, settings)] if b >= threshold else []
        hit = [any(span_covers(q, t) for t in texts) for q in r["gold"]]
        verdict = ("abstains" if b < threshold else "answers") + (f", hit {sum(hit)}/{len(hit)}" if r["gold"] else "")
        print(f"  {r['case_id']} {'must abstain' if r['must_abstain'] else 'answerable'}: best {b:.3f} -> {verdict}")
    ret = [r["retrieve_ms"] for r in records]
    sc = [r["score_ms"] for r in records]
    print(f"\nLatency over {len(records)} questions (small workspaces): retrieval p50 {statistics.median(ret):.0f} ms, "
          f"span scoring p50 {statistics.median(sc):.0f} ms (p90 {sorted(sc)[int(len(sc) * 0.9)]:.0f} ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path)
    parser.add_argument("--lab", type=Path)
    parser.add_argument("--store", type=Path, default=Path("/tmp/verbatim-bench-passages"))
    parser.add_argument("--out", type=Path, help="save the collected records (JSON)")
    parser.add_argument("--from", dest="source", type=Path, help="report on saved records only")
    parser.add_argument("--limit", type=int, help="first N cases per corpus (smoke run)")
    parser.add_argument("--only", action="append", choices=["cuad", "xquad_es", "lab"], help="this corpus only (repeatable)")
    args = parser.parse_args()
    if args.source:
        records = json.loads(args.source.read_text(encoding="utf-8"))
    else:
        shared = _shared() if not (args.corpora and args.lab) else None
        corpora = args.corpora or shared / "eval" / "corpora"
        lab = args.lab or shared / "eval" / "lab"
        print(f"{platform.machine()}, {os.cpu_count()} cores (shared with other jobs)", file=sys.stderr)
        records = collect(corpora, lab, args.store, args.limit, set(args.only) if args.only else None)
        if args.out:
            args.out.write_text(json.dumps(records), encoding="utf-8")
    report(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
