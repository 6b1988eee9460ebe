"""Lists of documents for questions about the collection with no name or number ("Which of these agreements
contain an arbitration clause?"): what decides that a document is listed (issue #20 item 1, engineer "lists").

``record``: for every question of ``bench/data/collection_presence.json`` (the set the presence rule was built on:
"dev") and ``bench/data/collection_lists_new.json`` (other wordings, English and Spanish, written before looking at
which documents answer: "new"), every document of the workspace's review-grid cell (:func:`core.grid.compute_cell`,
what :func:`core.collection.collection_answer` reads) with the passages :func:`core.collection.listed_passage` tries
(the answer's over its threshold, the cell's places, and the span most like the clause type,
:func:`core.collection_form.form_span`), each with its form margin and whether it holds the question's subject.
Gold: CUAD's labelled (document, category) pairs of ../shared/eval/corpora/cuad/cases.jsonl (present: answerable
case; absent: must-abstain); unlabelled pairs are recorded but not counted.

``choose``: the cut on the listed passage's form margin (:data:`core.collection_form.LIST_FORM_MARGIN`), by 5-fold
CV grouped by contract on "dev": in each fold the strictest cut of a fixed grid that lists at least as many present
documents of the training contracts as the rule before (a list's false entries mislead: be stricter, but do not
miss more), applied to the held-out contracts; held-out P/R pooled over the folds. Then "new" with the cut chosen
on all of "dev" (reported apart, nothing chosen on it; looked at when the variants were compared). ``passage_right``: of
the present documents listed, those listed with a passage of CUAD's gold clause (:func:`passage_right`).

Usage: ``python bench/collection_lists.py record --index-dir <index copy> --out R.json [--sets dev,new]``;
``python bench/collection_lists.py choose R.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[0] / ".." / "shared" / "eval" / "corpora"


def _questions(sets: list[str]) -> list[dict]:
    out = []
    if "dev" in sets:
        data = json.loads((HERE / "data" / "collection_presence.json").read_text(encoding="utf-8"))
        out += [{"set": "dev", "lang": "en", "category": c, "question": q} for c, q in data["questions"].items()]
    if "new" in sets:
        data = json.loads((HERE / "data" / "collection_lists_new.json").read_text(encoding="utf-8"))
        out += [{"set": "new", "lang": lang, "category": c, "question": q}
                for c, v in data["questions"].items() for lang, q in v.items()]
    return out


def record(args) -> None:
    from core.collection import _span_tokens, _subject
    from core.collection_form import form_span, span_form_margins
    from core.grid import GridColumn, compute_cell
    from core.grid_cells import rested_on
    from core.passage_terms import QuestionTerms
    from core.passages import PassagesBackend
    from core.settings import Settings
    from core.store import Workspace

    settings = Settings().model_copy(update={"backend": "passages"})
    ws = Workspace(args.workspace, settings, root=Path(args.index_dir), create=False, recover=False)
    cases = [json.loads(x) for x in (CORPORA / "cuad" / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x]
    docs = {Path(d["doc_id"]).name: d["doc_id"] for d in ws.documents()}
    _, hashes = ws.doc_profiles()
    rows = []
    for q in _questions(args.sets.split(",")):
        labels = {docs[c["source"]["doc"]]: not c["must_abstain"] for c in cases
                  if c["source"]["category"] == q["category"] and c["source"]["doc"] in docs}
        gold = {docs[c["source"]["doc"]]: c["gold_quotes"] for c in cases
                if c["source"]["category"] == q["category"] and c["source"]["doc"] in docs}
        subject = QuestionTerms(_subject(q["question"], []), ws)
        about = bool(subject.plain or subject.words or subject.groups)
        t0 = time.perf_counter()
        column = GridColumn(id="question", question=q["question"])
        for doc_id in sorted(docs.values()):
            cell = compute_cell(ws, doc_id, column, settings, PassagesBackend(), hashes.get(doc_id, ""), lambda: False)
            a = cell.answer
            types = list(a.trace.clause_types) if a is not None and a.kind == "passages" else []
            own = [c for c in rested_on(a) if c.citations] if a is not None and cell.status == "answered" else []
            chunks = ws.get_chunks(list({p.chunk_id for p in cell.passages} | {c.citations[0].chunk_id for c in own}))
            cands = [("answer", c.text, chunks[c.citations[0].chunk_id].lang if c.citations[0].chunk_id in chunks
                      else "en") for c in own]
            cands += [("place", p.text, chunks[p.chunk_id].lang if p.chunk_id in chunks else "en")
                      for p in cell.passages]
            fs = form_span(a, ws) if types else None
            if fs is not None:
                cands.append(("form_span", fs[0].text[fs[1]:fs[2]], fs[0].lang))
            margins = span_form_margins([t for _s, t, _l in cands], types) if types and cands else None
            rows.append({**q, "doc_id": doc_id, "label": labels.get(doc_id), "gold": gold.get(doc_id, []),
                         "status": cell.status, "types": types, "log_odds": cell.evidence.get("log_odds"),
                         "cands": [{"source": src, "text": t, "margin": margins[k] if margins else None,
                                    "covers": (not about) or subject.coverage(_span_tokens(t), lang) > 0}
                                   for k, (src, t, lang) in enumerate(cands)]})
        print(f"{q['set']} {q['lang']} {q['category']}: {time.perf_counter() - t0:.0f} s", flush=True)
        Path(args.out).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


def listed(row: dict, cut: float | None, *, covers: bool = True, form_span: bool = True,
           weak: bool = True) -> str | None:
    """The passage a rule lists the row's document with, ``None`` when not listed. ``cut`` ``None``: the rule
    before (the cell answered; its first passage at the answer's threshold). Else :func:`core.collection.listed_passage`
    with ``LIST_FORM_MARGIN = cut`` for a question with a clause type: the cell answered or weak, and the first of
    its passages (the answer's, then the cell's places) with a form margin of at least ``cut`` that holds the
    question's subject (``covers=False``: whether it does or not), the span of the retrieved chunks most like the
    clause type tried last (``form_span=False``: not tried); without a clause type, the rule before."""
    answer = next((c["text"] for c in row["cands"] if c["source"] == "answer"), None)
    if cut is None or not row["types"] or all(c["margin"] is None for c in row["cands"]):
        return answer if row["status"] == "answered" else None
    if row["status"] not in (("answered", "weak") if weak else ("answered",)):
        return None
    for c in row["cands"]:
        if c["source"] == "form_span" and not form_span:
            continue
        if c["margin"] >= cut and (c["covers"] or not covers):
            return c["text"]
    return None


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def passage_right(passage: str, gold: list[str]) -> bool:
    """Whether a listed passage is (part of) a gold clause: at least half of its words (3+ letters, first 300
    characters) are in one gold quote. Descriptive: CUAD's quotes are the annotated clauses."""
    words = _words(passage[:300])
    return bool(words) and any(len(words & _words(g)) >= 0.5 * len(words) for g in gold)


def prf(rows: list[dict], cut: float | None, **variant) -> dict:
    """Micro precision / recall / F0.5 of the listed documents over the labelled rows, and ``passage_right``: of
    the present documents listed, how many with a passage of the gold clause."""
    tp = fp = fn = right = 0
    for r in rows:
        p = listed(r, cut, **variant)
        tp += bool(r["label"] and p)
        fp += bool(r["label"] is False and p)
        fn += bool(r["label"] and not p)
        right += bool(r["label"] and p and passage_right(p, r["gold"]))
    p = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f = 1.25 * p * rec / (0.25 * p + rec) if p + rec else 0.0
    return {"precision": round(p, 3), "recall": round(rec, 3), "f05": round(f, 3), "tp": tp, "fp": fp, "fn": fn,
            "passage_right": right}


GRID = [round(-0.10 + 0.01 * i, 2) for i in range(31)]
"""Cuts tried: form margins -0.10 … 0.20 (a difference of cosines; 0 = the span reads as much like another type)."""


def _best(rows: list[dict], **variant) -> float:
    """The strictest cut of :data:`GRID` that lists at least as many of ``rows``' present documents as the rule
    before (the cell answered): precision bought without losing recall against what the list did before
    (criterion fixed before the CV). The lowest cut when none does."""
    floor = prf(rows, None)["recall"]
    ok = [c for c in GRID if prf(rows, c, **variant)["recall"] >= floor]
    return max(ok) if ok else GRID[0]


VARIANTS = {"rule": {}, "without the most clause-like span": {"form_span": False},
            "without the subject test": {"covers": False}, "answered cells only": {"weak": False}}
"""``rule`` is :func:`core.collection.listed_passage`; the others are reported for comparison (held out on "dev",
the rule keeps the before rule's recall at the highest precision of the three: bench/README.md)."""


def _held_out(dev: list[dict], **variant) -> tuple[list[float], dict]:
    """5-fold CV grouped by contract (3 contracts a fold, doc_id order): each fold's cut chosen on the other
    contracts (:func:`_best`), applied to its own; pooled counts."""
    contracts = sorted({r["doc_id"] for r in dev})
    cuts, tot = [], {"tp": 0, "fp": 0, "fn": 0, "passage_right": 0}
    for test in (contracts[i::5] for i in range(5)):
        cut = _best([r for r in dev if r["doc_id"] not in test], **variant)
        cuts.append(cut)
        got = prf([r for r in dev if r["doc_id"] in test], cut, **variant)
        for k in tot:
            tot[k] += got[k]
    tp, fp, fn = tot["tp"], tot["fp"], tot["fn"]
    return cuts, {"precision": round(tp / (tp + fp), 3) if tp + fp else None, "recall": round(tp / (tp + fn), 3), **tot}


def choose(args) -> None:
    rows = [r for r in json.loads(Path(args.report).read_text(encoding="utf-8")) if r["label"] is not None]
    dev = [r for r in rows if r["set"] == "dev"]
    print("dev before (cell answered, its first passage)", prf(dev, None))
    for lang in ("en", "es"):
        print(f"new {lang} before", prf([r for r in rows if r["set"] == "new" and r["lang"] == lang], None))
    for name, variant in VARIANTS.items():
        cuts, held = _held_out(dev, **variant)
        final = _best(dev, **variant)
        print(f"== {name}: fold cuts {cuts}; dev held out {held}; cut on all dev {final}")
        for lang in ("en", "es"):
            print(f"   new {lang}", prf([r for r in rows if r["set"] == "new" and r["lang"] == lang], final, **variant))


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--index-dir", required=True)
    r.add_argument("--workspace", default="cuad-txt")
    r.add_argument("--sets", default="dev,new")
    r.add_argument("--out", required=True)
    c = sub.add_parser("choose")
    c.add_argument("report")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args)
    else:
        choose(args)


if __name__ == "__main__":
    main()
