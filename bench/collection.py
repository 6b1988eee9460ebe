"""Questions about the whole collection ("Which of these agreements are governed by Florida law?"):
which documents the answer lists, against the governing law of the 15 CUAD contracts.

Cases: ``bench/data/collection_governing_law.json`` (the jurisdictions from CUAD's gold quotes; three
contracts without a CUAD case read from their text, said there). For each jurisdiction and each
question form (English "Which of these agreements …", English "In which contracts …", Spanish
"¿Cuáles de estos contratos …?"), both, in the same run:

* **before** — the question answered as any question (:func:`core.pipeline.answer_question`, passages,
  whole workspace): the documents of its shown passages, when it answers;
* **after** — :func:`core.collection.collection_answer`: the documents listed as matching.

Micro precision / recall of the listed documents over all questions of a form (a document is right
when its governing law is the one asked). Nothing is fitted here: the bench only measures.

``--family presence`` (``bench/data/collection_presence.json``): questions that restrict by a clause
type only ("Which of these agreements can be terminated for convenience?"), where a document matches
when its own passages answer (a grid cell ``answered``); figures over the labelled (document,
category) pairs of CUAD's cases only (present: an answerable case; absent: a must-abstain case).

Usage: ``python bench/collection.py --index-dir <index copy> [--family law|presence]
[--forms en,en2,es] [--out R.json]`` (the ``cuad-txt`` workspace of a ``verbatim eval`` index dir).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _key(doc_id: str, laws: dict) -> str | None:
    name = Path(doc_id).name
    for k in laws:
        if name.startswith(k):
            return k
    return None


def _prf(rows: list[dict], field: str) -> dict:
    tp = sum(len(set(r[field]) & set(r["gold"])) for r in rows)
    listed = sum(len(r[field]) for r in rows)
    gold = sum(len(r["gold"]) for r in rows)
    return {"precision": round(tp / listed, 3) if listed else None, "recall": round(tp / gold, 3) if gold else None,
            "listed": listed, "right": tp, "gold": gold}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index-dir", required=True)
    ap.add_argument("--workspace", default="cuad-txt")
    ap.add_argument("--forms", default="en,en2,es")
    ap.add_argument("--family", default="law", choices=("law", "presence"))
    ap.add_argument("--out", default="")
    args = ap.parse_args()

    from core.collection import collection_answer
    from core.passages import PassagesBackend
    from core.pipeline import answer_question, run
    from core.settings import Settings
    from core.store import Workspace
    from core.types import Trace

    settings = Settings().model_copy(update={"backend": "passages"})
    ws = Workspace(args.workspace, settings, root=Path(args.index_dir), create=False, recover=False)
    if args.family == "presence":
        return _presence(ws, settings, args)
    data = json.loads((HERE / "data" / "collection_governing_law.json").read_text(encoding="utf-8"))
    laws = data["law"]
    by_key = {_key(d["doc_id"], laws): d["doc_id"] for d in ws.documents()}
    report = {}
    for form in args.forms.split(","):
        rows = []
        for law, names in data["names"].items():
            question = data["forms"][form].format(name=names["es" if form == "es" else "en"])
            gold = sorted(by_key[k] for k, v in laws.items() if law in v)
            t0 = time.perf_counter()
            old = run(answer_question(ws, question, settings, backend=PassagesBackend(), follow_up=False))
            t1 = time.perf_counter()
            new = run(collection_answer(ws, question, settings, Trace(), lambda: False))
            t2 = time.perf_counter()
            before = sorted({c.citations[0].doc_id for c in old.claims}) if old.status != "abstained" else []
            after = sorted(f.doc_id for f in new.documents if f.matches)
            rows.append({"question": question, "gold": gold, "before": before, "after": after,
                         "before_s": round(t1 - t0, 1), "after_s": round(t2 - t1, 1)})
            print(f"[{form}] {question}\n  gold   {[Path(d).name[:24] for d in gold]}\n"
                  f"  before {[Path(d).name[:24] for d in before]}\n  after  {[Path(d).name[:24] for d in after]}"
                  f"  ({t2 - t1:.1f} s)", flush=True)
        report[form] = {"before": _prf(rows, "before"), "after": _prf(rows, "after"), "rows": rows}
        print(form, "before", report[form]["before"], "after", report[form]["after"], flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")


def _presence(ws, settings, args) -> None:
    from core.collection import collection_answer
    from core.passages import PassagesBackend
    from core.pipeline import answer_question, run
    from core.types import Trace

    data = json.loads((HERE / "data" / "collection_presence.json").read_text(encoding="utf-8"))
    corpora = Path(__file__).resolve().parents[1] / ".." / "shared" / "eval" / "corpora"
    cases = [json.loads(x) for x in (corpora / "cuad" / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x]
    docs = {Path(d["doc_id"]).name: d["doc_id"] for d in ws.documents()}
    rows = []
    for category, question in data["questions"].items():
        labels = {docs[c["source"]["doc"]]: not c["must_abstain"] for c in cases
                  if c["source"]["category"] == category and c["source"]["doc"] in docs}
        old = run(answer_question(ws, question, settings, backend=PassagesBackend(), follow_up=False))
        new = run(collection_answer(ws, question, settings, Trace(), lambda: False))
        before = {c.citations[0].doc_id for c in old.claims} if old.status != "abstained" else set()
        after = {f.doc_id for f in new.documents if f.matches}
        row = {"category": category, "question": question, "present": sorted(d for d, v in labels.items() if v),
               "absent": sorted(d for d, v in labels.items() if not v)}
        for name, listed in (("before", before), ("after", after)):
            row[name] = {"tp": len(listed & set(row["present"])), "fp": len(listed & set(row["absent"])),
                         "fn": len(set(row["present"]) - listed), "tn": len(set(row["absent"]) - listed)}
        rows.append(row)
        print(category, "before", row["before"], "after", row["after"], flush=True)
    out = {}
    for name in ("before", "after"):
        tp, fp, fn, tn = (sum(r[name][k] for r in rows) for k in ("tp", "fp", "fn", "tn"))
        out[name] = {"precision": round(tp / (tp + fp), 3) if tp + fp else None,
                     "recall": round(tp / (tp + fn), 3) if tp + fn else None, "tp": tp, "fp": fp, "fn": fn, "tn": tn}
    print("presence", out, flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"summary": out, "rows": rows}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
