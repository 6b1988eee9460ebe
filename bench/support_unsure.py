"""Would another policy for the polarity check's unsure cases show fewer warnings without more silent errors?

Issue #21 (engineer "warn", 2026-12-02 afternoon). A warning (``polarity_unsure``) is shown when the
reader finds conflicting negation it cannot call a flip. Each variant below turns some of those
warnings into a plain "kept" (it never removes, so the correct-removed rate cannot move): a variant
helps only if it clears warnings on faithful claims while clearing none on contradicted ones.

Variants (each a predicate on :class:`core.polarity.compare.Comparison`; "structural" = roles swapped,
what an exception requires flipped, a rule flipped around an exception, another actor, a widened act —
never cleared by any variant):

* ``weak_only``     — conflicts only on subjects / arguments of a negated inclusion (no strong conflict);
* ``off_predicate`` — the negation scopes differ only off the predicate (no strong conflict on a
  predicate, none on the same verb on both sides, no bound): "warn only when the quote's negation
  scope covers the claim's predicate";
* ``shared_neg``    — off the predicate and at least one word negated on both sides;
* ``same_parity``   — off the predicate and the two texts have the same parity of negation cues;
* ``restated``      — off the predicate and the claim uses a restating word its quotes lack.

Sets: the working two thirds of ``pairs_dev_pool.jsonl`` (each judged with its fold's policy, as
``bench/support.py --cv``), the held-out third (totals only: its pairs are never listed), the fresh
licence pairs ``bench/data/support_fresh*.jsonl`` (shipped policy), and contradiction probes written
for this run (:data:`PROBES`, each a claim that says the opposite of its quote) — a probe that the
shipped check flags and a variant clears is a contradiction shown silently.

Run: ``PYTHONPATH=$PWD python bench/support_unsure.py [--list]`` (``--list``: the cleared pairs of the
working and fresh sets and the cleared probes; never the held-out third's).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import support as S  # noqa: E402  (bench/support.py)

from core.polarity import check_polarity  # noqa: E402
from core.polarity.compare import Comparison, compare  # noqa: E402

PROBES: list[tuple[str, str]] = [
    # the six of tests/core/test_polarity_reader.py::test_contradictions_a_shortcut_would_clear_stay_flagged
    ("The Licensee shall not use the Software for non-commercial purposes.",
     "The Licensee shall not use the Software for commercial purposes."),
    ("The Distributor may not sell outside the Territory.", "The Distributor may not sell within the Territory."),
    ("Neither party may disclose the terms of this Agreement to its advisers.",
     "Neither party may disclose the terms of this Agreement, except to its advisers."),
    ("The terms of this Agreement are not confidential.", "Neither Party shall disclose the terms of this Agreement"),
    ("The Parties need not keep the terms of this Agreement confidential.",
     "Neither Party shall disclose the terms of this Agreement"),
    ("The terms of this Agreement remain public.", "Neither Party shall disclose the terms of this Agreement"),
    # written for this run (2026-12-02, engineer "warn"), before any variant was measured
    ("Saturdays are Business Days under this Agreement.",
     "Business Day means a day which is not a Saturday, Sunday or public holiday."),
    ("Works that link to the interfaces of the Software are Derivative Works.",
     "Derivative Works shall not include works that merely link to the interfaces of the Software."),
    ("The Licensee may not sublicense the Software to its Affiliates.",
     "The Licensee may not sublicense the Software, except to its Affiliates."),
    ("The Agreement grants the Distributor rights in the Licensor's trademarks.",
     "Nothing in this Agreement grants the Distributor any right in the Licensor's trademarks."),
    ("The warranty covers damage caused by misuse or accident.",
     "The warranty does not cover damage caused by misuse or accident."),
    ("Only the Licensor, not the Licensee, bears the cost of any repair.",
     "The Licensee (not the Licensor) assumes the cost of any necessary repair."),
    ("Documents created using the Software must remain under this license.",
     "The requirement to remain under this license does not apply to documents created using the Software."),
    ("The Supplier is not liable for acts done in good faith but is liable for errors of judgment.",
     "The Supplier will not be liable for any error in judgment or for any act done in good faith."),
    ("Employees of the Customer may not access the Service.",
     "Only employees of the Customer may access the Service."),
    ("Contributions submitted to the Licensor carry additional terms.",
     "Contributions submitted to the Licensor shall be under the terms of this License, without any additional "
     "terms or conditions."),
    ("The Receiving Party may disclose the existence of this Agreement to third parties.",
     "The Receiving Party shall not disclose to third parties the existence of this Agreement."),
    ("Holidays count as days of the notice period.",
     "The notice period shall not include Saturdays, Sundays or public holidays."),
]


def _structural(c: Comparison) -> bool:
    return bool(c.swapped or c.required or c.cond_flips or c.actors or c.widened)


def _off_predicate(c: Comparison) -> bool:
    return not _structural(c) and c.headed == 0 and c.aligned == 0 and not c.bound


VARIANTS = {
    "weak_only": lambda c: not _structural(c) and not c.strong and bool(c.weak),
    "off_predicate": _off_predicate,
    "shared_neg": lambda c: _off_predicate(c) and c.agreements > 0,
    "same_parity": lambda c: _off_predicate(c) and c.claim_cues % 2 == c.quote_cues % 2,
    "restated": lambda c: _off_predicate(c) and bool(c.restated),
}


def _rows() -> dict[str, list[dict]]:
    """The sets, each row with ``outcome`` (removed | warned | kept) under the shipped decision."""
    pool, _ = S.cross_validate(0.3)
    for r in pool:
        r["outcome"] = r["after"]
    out = {"working two thirds": [r for r in pool if not r["held_out"]],
           "held-out third (totals only)": [r for r in pool if r["held_out"]]}
    here = Path(__file__).resolve().parent / "data"
    out["fresh licences (116)"] = [r for f in ("support_fresh.jsonl", "support_fresh2.jsonl")
                                   for r in S.run(str(here / f)) if r["outcome"] != "unmatched"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list cleared pairs (working, fresh, probes)")
    args = ap.parse_args()
    sets = _rows()
    print("| set | variant | warned | correct removed | contradicted shown without warning |")
    print("|---|---|---|---|---|")
    listing = []
    for title, rows in sets.items():
        comps = [compare(r["claim"], tuple(r["quotes"])) for r in rows]
        keeps = sum(r["label"] == "keep" for r in rows)
        removes = len(rows) - keeps
        base_w = sum(r["outcome"] == "warned" for r in rows)
        base_s = sum(r["label"] == "remove" and r["outcome"] == "kept" for r in rows)
        base_r = sum(r["label"] == "keep" and r["outcome"] == "removed" for r in rows)
        print(f"| {title} | shipped | {S.pct(base_w, len(rows))} | {S.pct(base_r, keeps)} | {S.pct(base_s, removes)} |")
        for name, clear in VARIANTS.items():
            cleared = [(r, c) for r, c in zip(rows, comps) if r["outcome"] == "warned"
                       and "polarity_unsure" in (r.get("detail") or "polarity_unsure") and clear(c)]
            ck = sum(r["label"] == "keep" for r, _ in cleared)
            cr = len(cleared) - ck
            print(f"| {title} | {name} | {S.pct(base_w - len(cleared), len(rows))} (−{ck} faithful, −{cr} "
                  f"contradicted) | {S.pct(base_r, keeps)} | {S.pct(base_s + cr, removes)} |")
            if args.list and not title.startswith("held-out"):
                listing += [f"{title} {name}: {r['id']} [{r['label']}] {r['claim']}" for r, _ in cleared]
    flagged = [(cl, q) for cl, q in PROBES if check_polarity(cl, [q]).outcome != "agree"]
    print(f"| contradiction probes ({len(PROBES)}) | shipped | flagged {len(flagged)}, silent "
          f"{len(PROBES) - len(flagged)} | - | {S.pct(len(PROBES) - len(flagged), len(PROBES))} |")
    for name, clear in VARIANTS.items():
        cleared = [(cl, q) for cl, q in flagged if check_polarity(cl, [q]).outcome == "unsure"
                   and clear(compare(cl, (q,)))]
        print(f"| contradiction probes ({len(PROBES)}) | {name} | - | - | "
              f"{S.pct(len(PROBES) - len(flagged) + len(cleared), len(PROBES))} |")
        if args.list:
            listing += [f"probe {name}: {cl}" for cl, _ in cleared]
    if args.list:
        print("\n" + "\n".join(listing))
        silent = [cl for cl, q in PROBES if check_polarity(cl, [q]).outcome == "agree"]
        print("\nprobes the shipped check shows silently:\n" + "\n".join(silent))


if __name__ == "__main__":
    main()
