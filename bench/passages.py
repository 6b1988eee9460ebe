"""The passages answer on real data (issue #13): passage hit@k beside recall@k, the abstention
threshold calibrated by cross-validation over documents, its trade-off curve, and latency.

Phase 1 (``collect``): every case of CUAD (txt), XQuAD-es and the lab is retrieved with the
app's own retriever (``core.retrieval.retrieve``) and the spans of the delivered chunks are
scored (``core.passages.score_spans``) against the text the app scores them against
(``core.passages.scoring_query``: the question without the words naming its document when
retrieval resolved a scope), timed as the app runs it (sentences embedded for the corpus's
earlier questions reused), and against the question as asked (the app before that change).
With ``--latency``, first also every sentence with torch's default threads and the app's
candidates with nothing cached (timed variants, slow). The spans' cosine and term coverage are
saved, so phase 2 can replay any term weight, threshold or number of candidates per chunk
without running a model again.

Phase 2 (``report``, printed after collecting, or alone with ``--from FILE``):

* with ``--latency`` records, the timed variants side by side (sentences embedded, retrieval and
  span-scoring p50/p90, passage hit, false abstentions / answers at the setting) and, replayed
  from every sentence's scores, the passage hit for 1-6 candidates per chunk;
* passage hit@k: a gold quote counts when one of the shown spans (``select_spans`` with the
  settings' limits, at most 5) covers at least half of its characters
  (``core.evaluate.span_covers``), over answerable cases, beside recall@k of the same run
  (the quote is in a delivered chunk): the gap is what span selection loses; without a
  threshold per term weight, and at the setting (nothing shown under the threshold);
* the abstention trade-off, both scorings: for each threshold on the best span's score, false
  abstentions (answerable cases whose best span is under it), false answers (must-abstain cases
  whose best span is over it) and passage hit, per corpus;
* the threshold chosen by 5-fold cross-validation over documents, CUAD + XQuAD-es + lab together
  (cases grouped by their document, so no document's questions are in both the part that
  chooses and the part that is judged), the partition drawn 10 times: per objective (``budget``,
  ``balanced``) and term weight, the thresholds chosen (mean, spread) and the held-out false
  abstentions / answers; then the lab's decisions and margins at the setting.

Usage::

    python bench/passages.py [--corpora DIR] [--lab DIR] [--store DIR] [--out FILE]
    python bench/passages.py --from FILE          # phase 2 only
    python bench/passages.py --only lab           # one corpus (repeatable)
    python bench/passages.py --from FILE --threshold 0.6   # the report at another threshold
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


def collect(corpora: Path, lab: Path, store: Path, limit: int | None, only: set[str] | None = None,
            latency: bool = False) -> list[dict]:
    """Retrieve and score every case; returns one record per case.

    Each case's delivered chunks are scored against the text the app scores them against
    (``core.passages.scoring_query``: the question without its document's naming words when
    retrieval resolved a scope; ``spans``, timed as the app runs it, sentences of the corpus's
    earlier questions reused) and against the question as asked (``spans_asked``: the app before
    the change). With ``latency``, before those two: every sentence, torch's default threads,
    nothing cached (``spans_all``) and the app's candidates with nothing cached (timed only).
    """
    sys.path.insert(0, str(HERE.parent))
    os.environ.setdefault("VERBATIM_HOME", str(store / "home"))
    from core.evaluate import load_cases, open_workspaces, quote_retrieved
    from core.passages import _sentence_vectors, score_spans, scoring_query
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
            query = scoring_query(case.question, trace.scope)  # as core.passages.passages_answer scores them
            record: dict = {}
            if latency:
                # before (every sentence) and the app's candidates, nothing cached, on the same chunks
                spans_all = score_spans(query, chunks, ws, candidates_per_chunk=None, threads=None, cache=False)
                t3 = time.perf_counter()
                score_spans(query, chunks, ws, candidates_per_chunk=per_chunk, cache=False)
                t4 = time.perf_counter()
                record = {"score_all_ms": (t3 - t2) * 1000, "score_cold_ms": (t4 - t3) * 1000}
            t4 = time.perf_counter()
            # the app: sentences embedded for this corpus's earlier questions are reused
            spans = score_spans(query, chunks, ws, candidates_per_chunk=per_chunk)
            t5 = time.perf_counter()
            spans_asked = score_spans(case.question, chunks, ws, candidates_per_chunk=per_chunk)
            gold = [] if case.must_abstain else case.gold_quotes
            rank = {c.chunk_id: i for i, c in enumerate(chunks)}
            record.update({
                "corpus": corpus, "case_id": case.case_id, "must_abstain": case.must_abstain,
                "doc": (case.source or {}).get("doc") or (case.expected_docs[0] if case.expected_docs else case.case_id),
                "question": case.question, "query": query, "scope": list(trace.scope.doc_ids),
                "gold": gold, "retrieved": [quote_retrieved(q, chunks) for q in gold],
                "retrieve_ms": (t2 - t1) * 1000, "score_ms": (t5 - t4) * 1000,
                "spans": [_span_record(s, rank) for s in spans],
                "spans_asked": [_span_record(s, rank) for s in spans_asked],
            })
            if latency:
                record["spans_all"] = [_span_record(s, rank) for s in spans_all]
            records.append(record)
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
    """The records with ``spans`` taken from ``record[key]`` (``spans_all``: every sentence scored;
    ``spans_asked``: scored against the question as asked) and ``cleaned``: whether those spans were
    scored against the question without its document's names (its threshold is then
    ``passages_min_score_scoped``, ``core.passages.min_score``)."""
    return [{**r, "spans": r[key], "cleaned": key != "spans_asked" and is_cleaned(r)} for r in records]


def is_cleaned(record: dict) -> bool:
    """The app scored this case's spans against the cleaned question (``core.passages.scoring_query``)."""
    return bool(record.get("scope")) and record.get("query", "") != record.get("question", record.get("query", ""))


def threshold_of(record: dict, settings) -> float:
    from core.passages import min_score

    return min_score(settings, cleaned=record.get("cleaned", False))


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


def hit_counts(records: list[dict], corpus: str, weight: float, settings, threshold: float | None = None) -> tuple[int, int]:
    """(quotes hit, quotes) of ``corpus`` as the app shows spans: nothing when the best span is under
    ``threshold`` (default the setting for the text the case was scored against; ``-inf``: no threshold)."""
    from core.evaluate import span_covers

    hits = quotes = 0
    for r in records:
        if r["corpus"] != corpus or not r["gold"]:
            continue
        t = threshold_of(r, settings) if threshold is None else threshold
        texts = [t for _, t in shown(r, weight, settings)] if best(r, weight) >= t else []
        got = [any(span_covers(q, t) for t in texts) for q in r["gold"]]
        quotes += len(got)
        hits += sum(got)
    return hits, quotes


def variants(records: list[dict], settings) -> None:
    """Before (every sentence scored) and after (the app's candidates) in one run: latency and quality."""
    from core.passages import SCORING_THREADS

    if "spans_all" not in records[0] or "score_cold_ms" not in records[0]:  # run without --latency
        return
    w, threshold = settings.passages_term_weight, settings.passages_min_score
    corpora = ["cuad", "xquad_es", "lab"]
    print(f"\n### Span scoring variants, same run, same retrieved chunks (term weight {w}, threshold {threshold} as asked, "
          f"{settings.passages_min_score_scoped} without the document's names)\n")
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
            fa, nc, fans, nm = _decisions([r for r in recs if r["corpus"] == corpus], w, settings)
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


_best: dict[tuple[int, float], float] = {}


def best(record: dict, weight: float) -> float:
    """The best span's score of ``record["spans"]`` at term weight ``weight`` (memoized per spans list)."""
    key = (id(record["spans"]), weight)
    if key not in _best:
        _best[key] = max((s["cos"] + weight * s["terms"] for s in record["spans"]), default=-1.0)
    return _best[key]


def _decisions(records: list[dict], weight: float, settings) -> tuple[int, int, int, int]:
    """(false abstentions, answerable, false answers, must-abstain) at the settings' thresholds."""
    can = [r for r in records if not r["must_abstain"]]
    must = [r for r in records if r["must_abstain"]]
    return (sum(best(r, weight) < threshold_of(r, settings) for r in can), len(can),
            sum(best(r, weight) >= threshold_of(r, settings) for r in must), len(must))


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


BEFORE_THRESHOLD = 0.77
"""The threshold before spans were scored against the cleaned question (every case scored as
asked), for the before/after tables of one run."""

MAX_FALSE_ABSTENTIONS = 0.05
"""Objective ``budget``: the highest threshold whose false abstentions on the training part stay
within this share of its answerable cases (abstain as much as possible, within a budget of
answerable questions turned away)."""

FOLDS = 5
REPEATS = 10
"""Cross-validation: :data:`FOLDS` folds over documents, the partition drawn :data:`REPEATS` times
(seeded shuffles of the documents; the first partition is the documents in sorted order dealt
round-robin), so the spread of the chosen threshold reflects which documents it was chosen on."""


def _pick(train: list[dict], weight: float, grid: list[float], objective: str) -> float:
    if objective == "balanced":
        return max(grid, key=lambda t: (_balanced(train, weight, t), -t))
    can = [r for r in train if not r["must_abstain"]]
    ok = [t for t in grid if sum(best(r, weight) < t for r in can) <= MAX_FALSE_ABSTENTIONS * len(can)]
    return max(ok) if ok else min(grid)


def cross_validate(records: list[dict], weight: float, folds: int = FOLDS, objective: str = "budget",
                   repeats: int = REPEATS, split: bool = False) -> dict:
    """Thresholds chosen per fold (cases grouped by document: no document's questions are both
    chosen on and judged) and the held-out false abstentions / false answers per corpus.

    ``split``: one threshold for the cases scored against the cleaned question and one for those
    scored as asked (``record["cleaned"]``), each chosen on its own training cases, as the app
    applies them (``core.passages.min_score``).

    Returns ``{"chosen": {group: [threshold per fold, every repeat]}, "first": {group: [the first
    partition's]}, "held": {corpus: [false abst., answerable, false answers, must-abstain]}}`` (group
    ``True``: cleaned, ``False``: as asked, or every case without ``split``), the held-out counts
    summed over the folds of the first partition (each case judged once).
    """
    import random

    docs = sorted({(r["corpus"], r["doc"]) for r in records})
    grid = [round(x * 0.01, 2) for x in range(0, 151)]
    groups = sorted({bool(r.get("cleaned")) and split for r in records})
    chosen: dict[bool, list[float]] = {g: [] for g in groups}
    first: dict[bool, list[float]] = {g: [] for g in groups}
    held: dict[str, list[int]] = {}
    for rep in range(repeats):
        order = list(docs)
        if rep:
            random.Random(rep).shuffle(order)
        fold_of = {d: i % folds for i, d in enumerate(order)}
        for f in range(folds):
            train = [r for r in records if fold_of[(r["corpus"], r["doc"])] != f]
            test = [r for r in records if fold_of[(r["corpus"], r["doc"])] == f]
            t = {}
            for g in groups:
                t[g] = _pick([r for r in train if (bool(r.get("cleaned")) and split) == g], weight, grid, objective)
                chosen[g].append(t[g])
                if not rep:
                    first[g].append(t[g])
            if rep:
                continue
            for r in test:
                tr = t[bool(r.get("cleaned")) and split]
                h = held.setdefault(r["corpus"], [0, 0, 0, 0])
                if r["must_abstain"]:
                    h[2] += best(r, weight) >= tr
                    h[3] += 1
                else:
                    h[0] += best(r, weight) < tr
                    h[1] += 1
    return {"chosen": chosen, "first": first, "held": held}


VARIANTS = (("asked", "spans_asked", "the question as asked (before)"),
            ("cleaned", "spans", "the question without its document's naming words (after: the app)"))


def report(records: list[dict], threshold: float | None = None, weight: float | None = None,
           threshold_scoped: float | None = None) -> None:
    """Phase 2 (module docstring); ``threshold``, ``threshold_scoped``, ``weight`` replace the settings' values."""
    sys.path.insert(0, str(HERE.parent))
    from core.evaluate import span_covers
    from core.settings import Settings

    settings = Settings()
    if threshold is not None:
        settings.passages_min_score = threshold
    if threshold_scoped is not None:
        settings.passages_min_score_scoped = threshold_scoped
    if weight is not None:
        settings.passages_term_weight = weight
    threshold, scoped_t, w = settings.passages_min_score, settings.passages_min_score_scoped, settings.passages_term_weight
    corpora = [c for c in ("cuad", "xquad_es", "lab") if any(r["corpus"] == c for r in records)]  # --only
    variants(records, settings)
    runs = {name: with_spans(records, key) for name, key, _ in VARIANTS if key in records[0]}
    labels = {name: label for name, _, label in VARIANTS}
    before = settings.model_copy(update={"passages_min_score": BEFORE_THRESHOLD})  # the asked variant: never cleaned
    app = {"asked": before, "cleaned": settings}
    n_clean = {c: sum(r["cleaned"] for r in runs["cleaned"] if r["corpus"] == c) for c in corpora} if "cleaned" in runs else {}
    print("\nCases scored against the question without its document's names (retrieval resolved a scope and "
          "removed naming words): " + ", ".join(f"{c} {n_clean[c]}/{sum(r['corpus'] == c for r in records)}"
                                                for c in n_clean))

    print(f"\n### Before / after at the settings (term weight {w}; before: every case scored as asked, threshold "
          f"{BEFORE_THRESHOLD}; after: threshold {threshold} as asked, {scoped_t} for a cleaned question)\n")
    print("| corpus | recall@6 | variant | false abstentions | false answers | passage hit |")
    print("|---|---|---|---|---|---|")
    for corpus in corpora:
        recs = [r for r in records if r["corpus"] == corpus and r["gold"]]
        n = sum(len(r["gold"]) for r in recs)
        ret = sum(ok for r in recs for ok in r["retrieved"])
        for name, vrecs in runs.items():
            fa, nc, fans, nm = _decisions([r for r in vrecs if r["corpus"] == corpus], w, app[name])
            h, q = hit_counts(vrecs, corpus, w, app[name])
            print(f"| {corpus} | {ret / n:.2f} ({ret}/{n}) | {name} | {fa}/{nc} | {fans}/{nm} | {h / q:.2f} ({h}/{q}) |")

    print(f"\n### Passage hit@k without a threshold, per term weight (answerable cases; shown spans: at most "
          f"{settings.passages_max}, {settings.passages_per_chunk} per chunk)\n")
    print("| corpus | spans scored against | " + " | ".join(f"w={x}" for x in WEIGHTS) + " |")
    print("|" + "---|" * (2 + len(WEIGHTS)))
    for corpus in corpora:
        for name, vrecs in runs.items():
            cells = []
            for x in WEIGHTS:
                h, q = hit_counts(vrecs, corpus, x, settings, float("-inf"))
                cells.append(f"{h / q:.2f} ({h}/{q})")
            print(f"| {corpus} | {name} | " + " | ".join(cells) + " |")

    curves = [("asked", lambda r: True, f"every case scored against {labels['asked']}", BEFORE_THRESHOLD, "before")]
    if "cleaned" in runs:
        curves += [("cleaned", lambda r: r["cleaned"], "the cases scored against the question without its document's "
                    "names (after)", scoped_t, "setting"),
                   ("cleaned", lambda r: not r["cleaned"], "the cases scored as asked, nothing named (after)",
                    threshold, "setting")]
    for name, keep, label, mark_t, mark in curves:
        vrecs = [r for r in runs[name] if keep(r)]
        cs = [c for c in corpora if any(r["corpus"] == c for r in vrecs)]
        grid = sorted({round(0.3 + 0.05 * i, 2) for i in range(11)} | {mark_t})
        print(f"\n### Trade-off, {label}, term weight {w}: per threshold on the best span's score, false "
              "abstentions (answerable cases turned away) / false answers (must-abstain cases answered) / passage hit\n")
        print("| threshold | " + " | ".join(f"{c}: false abst. | {c}: false answers | {c}: passage hit" for c in cs) + " |")
        print("|" + "---|" * (1 + 3 * len(cs)))
        for t in grid:
            cells = []
            for corpus in cs:
                [(_, fa, nc, fans, nm)] = _curve([r for r in vrecs if r["corpus"] == corpus], w, [t])
                h, q = hit_counts(vrecs, corpus, w, settings, t)
                cells += [f"{fa}/{nc}", f"{fans}/{nm}", f"{h}/{q}"]
            print(f"| {t}{f' ({mark})' if abs(t - mark_t) < 1e-9 else ''} | " + " | ".join(cells) + " |")

    print(f"\n### Threshold by {FOLDS}-fold cross-validation over documents ({' + '.join(corpora)} together; "
          f"{REPEATS} partitions)\n")
    print(f"Objectives: `budget` = the highest threshold keeping false abstentions within "
          f"{MAX_FALSE_ABSTENTIONS:.0%} of the training part's answerable cases; `balanced` = the best balanced "
          "accuracy (mean of the answer rate on answerable and the abstention rate on must-abstain cases). "
          "`two thresholds`: one chosen on the cases scored against the cleaned question, one on those scored "
          "as asked (as the app applies them). Held out: the first partition, each case judged once by the "
          "thresholds its fold chose.\n")
    print("| spans scored against | objective | term weight | thresholds, first partition | mean ± sd (min–max), "
          f"all {FOLDS * REPEATS} folds | held-out false abst. | held-out false answers | "
          + " | ".join(f"{c} held out (false abst.; false answers)" for c in corpora) + " |")
    print("|" + "---|" * (7 + len(corpora)))
    for name, vrecs in runs.items():
        for split in ((False, True) if name == "cleaned" else (False,)):
            for objective in ("budget", "balanced"):
                for wt in WEIGHTS:
                    cv = cross_validate(vrecs, wt, objective=objective, split=split)
                    held = cv["held"]
                    tot = [sum(h[i] for h in held.values()) for i in range(4)]
                    per = [f"{held[c][0]}/{held[c][1]}; {held[c][2]}/{held[c][3]}" for c in corpora]
                    firsts, spreads = [], []
                    for g in sorted(cv["chosen"], reverse=True):
                        ch = cv["chosen"][g]
                        tag = ("cleaned: " if g else "as asked: ") if split else ""
                        firsts.append(tag + ", ".join(f"{t:.2f}" for t in cv["first"][g]))
                        spreads.append(f"{tag}{statistics.mean(ch):.3f} ± {statistics.pstdev(ch):.3f} "
                                       f"({min(ch):.2f}–{max(ch):.2f})")
                    kind = f"{name}, two thresholds" if split else name
                    print(f"| {kind} | {objective} | {wt} | {'; '.join(firsts)} | {'; '.join(spreads)} | "
                          f"{tot[0]}/{tot[1]} | {tot[2]}/{tot[3]} | " + " | ".join(per) + " |")

    lab = {name: {r["case_id"]: r for r in vrecs if r["corpus"] == "lab"} for name, vrecs in runs.items()}
    if lab.get("cleaned"):
        print(f"\nLab at the settings (weight {w}; threshold {threshold} as asked, {scoped_t} cleaned), spans scored "
              f"as the app does (asked: the best span scored as asked, before):")
        for cid, r in lab["cleaned"].items():
            b, t = best(r, w), threshold_of(r, settings)
            texts = [x for _, x in shown(r, w, settings)] if b >= t else []
            hit = [any(span_covers(q, x) for x in texts) for q in r["gold"]]
            verdict = ("abstains" if b < t else "answers") + (f", hit {sum(hit)}/{len(hit)}" if r["gold"] else "")
            was = best(lab["asked"][cid], w) if "asked" in lab else float("nan")
            print(f"  {cid} {'must abstain' if r['must_abstain'] else 'answerable'}: best {b:.3f} against {t} "
                  f"(margin {b - t:+.3f}; asked {was:.3f}) -> {verdict}; scored against {r.get('query', '')!r}")
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
    parser.add_argument("--latency", action="store_true",
                        help="also score every sentence and the candidates with nothing cached (timed variants; slow)")
    parser.add_argument("--threshold", type=float, help="report at this threshold (questions scored as asked) instead of the setting")
    parser.add_argument("--threshold-scoped", type=float,
                        help="report at this threshold (questions scored without their document's names) instead of the setting")
    parser.add_argument("--weight", type=float, help="report at this term weight instead of the setting")
    args = parser.parse_args()
    if args.source:
        records = json.loads(args.source.read_text(encoding="utf-8"))
    else:
        shared = _shared() if not (args.corpora and args.lab) else None
        corpora = args.corpora or shared / "eval" / "corpora"
        lab = args.lab or shared / "eval" / "lab"
        print(f"{platform.machine()}, {os.cpu_count()} cores (shared with other jobs)", file=sys.stderr)
        records = collect(corpora, lab, args.store, args.limit, set(args.only) if args.only else None, args.latency)
        if args.out:
            args.out.write_text(json.dumps(records), encoding="utf-8")
    report(records, args.threshold, args.weight, args.threshold_scoped)
    return 0


if __name__ == "__main__":
    sys.exit(main())
