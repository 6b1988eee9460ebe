"""Small-to-big delivery, measured offline (issue #20 item 2): how many gold quotes would k delivered chunks
hold if each were joined to the rest of a sentence that runs over its boundary into the neighbouring chunk
of the same document (bounded)?

No product code changes: this reads the ``--json`` reports of ``verbatim eval --retrieval-only -k 6`` and
the index folder they were run on (``<index>/<workspace>/manifest.sqlite``, chunk order ``ord``), rebuilds
each case's delivered chunks with their bounded continuation / beginning, and judges them with the
evaluator's own :func:`core.eval_judge.quote_retrieved`. recall@k keeps its meaning: k retrieved chunks,
each with at most ``bound`` characters added after it and ``bound`` before it.

Join rule (per delivered chunk ``c``, neighbours ``c.ord ± 1`` in the same document):

* after: the next chunk's text past its overlap with ``c`` is appended up to the end of the sentence
  it continues (the first ``. ! ?`` followed by a space and a capital, or the end of a line that ends
  in one), when ``c`` does not end a sentence (last non-space character not ``. ! ?``, allowing a
  closing quote/bracket) — at most ``bound`` characters; a sentence that does not end within ``bound``
  is cut at ``bound`` (the part shown is still the document's text, in order).
* before: symmetrically, when ``c`` starts inside a sentence (the previous chunk does not end one at
  ``c``'s start), the previous chunk's tail from its last sentence start is prepended, at most ``bound``.

The bound is chosen by 5-fold cross-validation grouped by CUAD contract (seed 0, folds as
``bench/ranking.py``): every phrasing of a contract's cases in one fold.

Usage::

    python bench/small_to_big.py --index <index folder> nat=REPORT.json es=... pdf=...
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.eval_judge import quote_retrieved  # noqa: E402
from core.types import Chunk  # noqa: E402

_END = re.compile(r"[.!?][\"'”’)\]]?(?=\s+[\"“(A-ZÁÉÍÓÚÑ0-9]|\s*$)")
_ENDS = re.compile(r"[.!?][\"'”’)\]]?\s*$")
BOUNDS = (0, 200, 400, 600, 1000)


def overlap(a: str, b: str) -> int:
    """Length of the longest suffix of ``a`` that is a prefix of ``b`` (chunk overlap, characters)."""
    for k in range(min(len(a), len(b)), 0, -1):
        if a.endswith(b[:k]):
            return k
    return 0


def extended(text: str, prev: str | None, nxt: str | None, bound: int) -> tuple[str, int]:
    """``text`` joined to the bounded rest of the sentences cut at its ends; returns (text, chars added)."""
    if bound <= 0:
        return text, 0
    after = before = ""
    if nxt is not None and not _ENDS.search(text):
        rest = nxt[overlap(text, nxt):]
        m = _END.search(rest)
        after = rest[: min(m.end() if m else len(rest), bound)]
    if prev is not None:
        head = prev[: len(prev) - overlap(prev, text)]
        if head and not _ENDS.search(head):
            starts = [m.end() for m in re.finditer(r"[.!?][\"'”’)\]]?\s+", head)]
            cut = max([s for s in starts if len(head) - s <= bound] or [len(head) - bound])
            before = head[max(cut, 0):]
    return before + ("\n" if before else "") + text + ("\n" if after else "") + after, len(before) + len(after)


def case_hits(report: dict, index: Path, bound: int) -> tuple[dict[str, list[bool]], list[int]]:
    """Per case id: per gold quote, whether the k delivered chunks (extended by ``bound``) hold it; and the
    characters added per case."""
    cases = {json.loads(line)["case_id"]: json.loads(line) for line in open(report["cases_file"])}
    out, added = {}, []
    dbs: dict[str, sqlite3.Connection] = {}
    k = report["k"]
    for c in report["cases"]:
        case = cases[c["case_id"]]
        if not case.get("gold_quotes") or case.get("must_abstain"):
            continue
        db = dbs.setdefault(c["workspace"], sqlite3.connect(index / c["workspace"] / "manifest.sqlite"))
        units, plus = [], 0
        for cid in c["delivered"][:k]:
            row = db.execute("select doc_id, ord, text from chunks where chunk_id=?", (cid,)).fetchone()
            if row is None:
                continue
            doc, o, text = row
            nb = {r[0]: r[1] for r in db.execute(
                "select ord, text from chunks where doc_id=? and ord in (?, ?)", (doc, o - 1, o + 1))}
            t, n = extended(text, nb.get(o - 1), nb.get(o + 1), bound)
            plus += n
            units.append(Chunk(chunk_id=cid, doc_id=doc, path="x", page=1, start=0, end=len(t), text=t))
        # The evaluator's own verdict on the chunks as they are stays (appending text never removes any): a
        # quote counts when the report had it in the top k, or when the extended top k holds it.
        base = c["gold_retrieved_top_k"] or [False] * len(case["gold_quotes"])
        out[c["case_id"]] = [ok or (bound > 0 and quote_retrieved(q, units))
                             for q, ok in zip(case["gold_quotes"], base)]
        added.append(plus)
    return out, added


def contract(case_id: str) -> str:
    return case_id.split("-")[1] if case_id.startswith("cuad-") else case_id


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("reports", nargs="+", help="NAME=report.json")
    args = ap.parse_args()
    reports = {n: json.load(open(p)) for n, p in (r.split("=", 1) for r in args.reports)}
    res = {b: {n: case_hits(rep, args.index, b) for n, rep in reports.items()} for b in BOUNDS}
    print("bound  " + "  ".join(f"{n:>14}" for n in reports) + "   mean chars added / case (max)")
    for b in BOUNDS:
        cells, adds = [], []
        for n in reports:
            hits, added = res[b][n]
            quotes = [x for v in hits.values() for x in v]
            cells.append(f"{sum(quotes) / len(quotes):.3f} ({sum(quotes)}/{len(quotes)})")
            adds += added
        print(f"{b:>5}  " + "  ".join(f"{x:>14}" for x in cells) + f"   {sum(adds) / len(adds):.0f} ({max(adds)})")
    for b in BOUNDS[1:]:
        for n in reports:
            base, now = res[0][n][0], res[b][n][0]
            diff = [(cid, i) for cid in base for i, (x, y) in enumerate(zip(base[cid], now[cid])) if x != y]
            if diff:
                print(f"  bound {b} {n}: " + ", ".join(f"{c}[{i}]{'+' if now[c][i] else '-'}" for c, i in diff))
    # 5-fold CV over contracts: choose the bound by pooled recall on 4/5 of the contracts, measure on 1/5
    contracts = sorted({contract(cid) for n in reports for cid in res[0][n][0] if cid.startswith("cuad-")})
    random.Random(0).shuffle(contracts)
    folds = [set(contracts[i::5]) for i in range(5)]
    held = {n: [] for n in reports}
    chosen = []
    for f in folds:
        def score(b, inside):
            q = [x for n in reports for cid, v in res[b][n][0].items() if (contract(cid) in f) == inside for x in v]
            return sum(q) / max(len(q), 1)
        best = max(BOUNDS, key=lambda b: (score(b, False), -b))
        chosen.append(best)
        for n in reports:
            held[n] += [x for cid, v in res[best][n][0].items() if contract(cid) in f for x in v]
    print("CV chosen bounds per fold:", chosen)
    print("held out, pooled: " + "  ".join(f"{n} {sum(v) / max(len(v), 1):.3f}" for n, v in held.items()))


if __name__ == "__main__":
    main()
