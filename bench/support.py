"""Claim-support figures with three outcomes: removed, kept with a visible warning, kept silently.

Extends ``../shared/eval/support/probe.py``'s counting with the warning state
(``Claim.warning``, :mod:`core.polarity`'s ``unsure``). For each hand-labelled (claim, quotes)
pair it builds what the pipeline has at verification time (a delivered chunk holding the source
file's text, a ModelAnswer with the claim citing its quotes) and runs
:func:`core.verify.verify_claims` with the pipeline's settings, exactly as probe.py does.

Splits (``--split``): ``dev`` = pairs_dev.jsonl (120, the held-out figure), ``train`` = the
pool rows whose id is no dev row's ``pool_id`` (133, the data the rules were developed on),
``pool`` = all 253.

Per kind it prints: for keep-kinds the share removed (target <= 2 %) and warned; for
remove-kinds the share shown *without* a warning (target <= 3 %) and warned; overall the share
of all pairs kept with a warning (target <= 10 %). ``--markdown`` prints the table for
bench/README.md; ``--errors`` lists the misjudged pairs.

Run from the checkout root (``PYTHONPATH=/other/checkout`` measures another tree's ``core``):
    PYTHONPATH=$PWD .venv/bin/python bench/support.py --split dev [--markdown] [--errors]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parents[1]))

from core.settings import Settings  # noqa: E402
from core.types import Chunk, ModelAnswer, ModelCitation, ModelClaim  # noqa: E402
from core.verify import verify_claims  # noqa: E402

SHARED = Path(os.environ.get("VERBATIM_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SUPPORT = SHARED / "eval" / "support"
KINDS = ["keep_paraphrase", "keep_positive_restatement", "keep_two_quote", "remove_flipped", "remove_scope",
         "remove_two_quote"]


def load(split: str) -> list[dict]:
    """The pairs of ``split`` (dev | train | pool)."""
    def rows(name: str) -> list[dict]:
        return [json.loads(x) for x in (SUPPORT / name).read_text(encoding="utf-8").splitlines() if x.strip()]

    dev = rows("pairs_dev.jsonl")
    if split == "dev":
        return dev
    pool = rows("pairs_dev_pool.jsonl")
    if split == "pool":
        return pool
    held = {d["pool_id"] for d in dev}
    return [p for p in pool if p["id"] not in held]


def judge(pair: dict, text: str, settings: Settings) -> tuple[str, str]:
    """``(outcome, detail)``: outcome is removed | warned | kept | unmatched."""
    doc = Path(pair["source_doc"]).stem
    chunk_id = f"{doc}#p1-c0"
    chunk = Chunk(chunk_id=chunk_id, doc_id=doc, path=doc, page=1, start=0, end=len(text), text=text)
    claim = ModelClaim.model_construct(
        text=pair["claim"], citations=[ModelCitation.model_construct(chunk_id=chunk_id, quote=q) for q in pair["quotes"]])
    answer = ModelAnswer.model_construct(answer_found=True, complete_answer=True, conflicting_evidence=False,
                                         claims=[claim], missing="")
    claims, rejected = verify_claims(answer, {chunk_id: chunk}, min_quote_chars=settings.min_quote_chars,
                                     fuzzy_threshold=settings.fuzzy_threshold, check_facts=settings.check_facts,
                                     check_polarity=settings.check_facts)
    lost = [r for r in rejected if r.quote and r.reason.value in
            {"quote_not_found", "wrong_chunk", "quote_too_short", "unknown_chunk"}]
    if lost:
        return "unmatched", lost[0].reason.value
    if claims:
        warning = getattr(claims[0], "warning", None)
        return ("warned", f"{warning.reason.value}: {warning.detail}") if warning else ("kept", "")
    return "removed", f"{rejected[-1].reason.value}: {rejected[-1].detail}"


def run(split: str) -> list[dict]:
    settings = Settings()
    texts: dict[str, str] = {}
    out = []
    for pair in load(split):
        src = pair["source_doc"]
        if src not in texts:
            texts[src] = (SHARED.parent / src).read_text(encoding="utf-8")
        outcome, detail = judge(pair, texts[src], settings)
        out.append({**pair, "outcome": outcome, "detail": detail})
    return out


def pct(k: int, n: int) -> str:
    return f"{k}/{n} = {100 * k / n:.1f} %" if n else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=["dev", "train", "pool"], default="dev")
    ap.add_argument("--markdown", action="store_true", help="print the per-kind table as markdown")
    ap.add_argument("--errors", action="store_true", help="list removed keep-pairs, silent remove-pairs, warnings")
    ap.add_argument("--json", type=Path, help="write per-pair results (JSONL) here")
    args = ap.parse_args()
    results = [r for r in run(args.split)]
    judged = [r for r in results if r["outcome"] != "unmatched"]
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in judged:
        by_kind[r["kind"]].append(r)
    print(f"split {args.split}: {len(results)} pairs, {len(results) - len(judged)} unmatched (left out)")
    if args.markdown:
        print("| kind | n | removed | warned | shown without warning |")
        print("|---|---|---|---|---|")
    for kind in KINDS:
        rows = by_kind.get(kind, [])
        n = len(rows)
        rem = sum(r["outcome"] == "removed" for r in rows)
        warn = sum(r["outcome"] == "warned" for r in rows)
        kept = sum(r["outcome"] == "kept" for r in rows)
        if args.markdown:
            print(f"| {kind} | {n} | {pct(rem, n)} | {pct(warn, n)} | {pct(kept, n)} |")
        elif kind.startswith("keep"):
            print(f"  {kind:28s} n={n:3d}  removed {pct(rem, n):16s} warned {pct(warn, n)}")
        else:
            print(f"  {kind:28s} n={n:3d}  shown without warning {pct(kept, n):16s} warned {pct(warn, n)}")
    keeps = [r for r in judged if r["label"] == "keep"]
    removes = [r for r in judged if r["label"] == "remove"]
    print(f"correct claims removed: {pct(sum(r['outcome'] == 'removed' for r in keeps), len(keeps))} (target <= 2 %)")
    print(f"contradicted claims shown without a warning: "
          f"{pct(sum(r['outcome'] == 'kept' for r in removes), len(removes))} (target <= 3 %)")
    print(f"pairs kept with a warning: {pct(sum(r['outcome'] == 'warned' for r in judged), len(judged))} "
          f"(target <= 10 %)")
    if args.errors:
        for title, rows in [("CORRECT CLAIMS REMOVED", [r for r in keeps if r["outcome"] == "removed"]),
                            ("CONTRADICTED CLAIMS SHOWN", [r for r in removes if r["outcome"] == "kept"]),
                            ("WARNED", [r for r in judged if r["outcome"] == "warned"])]:
            print(f"\n{title} ({len(rows)}):")
            for r in rows:
                print(f"- {r['id']} [{r['kind']}] {r['detail']}\n    C: {r['claim']}")
                for q in r["quotes"]:
                    print(f"    Q: {' '.join(q.split())[:240]}")
    if args.json:
        args.json.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results), encoding="utf-8")


if __name__ == "__main__":
    main()
