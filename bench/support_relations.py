"""Metamorphic probes of the checks that read contradictions without a negation (issue #21).

Two readers are probed (engineer "contra", 2026-12-02): the rate period and duration anchor of
:mod:`core.fact_context` (used by :func:`core.facts.check_facts`) and the opposite words and
swapped roles of :mod:`core.relations`. The support pairs (``../shared/eval/support``) are about
negation and hold almost none of these, so each probe takes real sentences and rewrites one
phrase of each, the claim being the rewritten sentence and its quote the original:

* same meaning (must still be accepted): "per annum" → "per year" / "a year" / "annually",
  "per month" → "a month" / "each month" / "monthly", "prior to" → "before" / "preceding",
  "following" → "after", "after" → "following"; for opposite words a same-side synonym
  ("increase" → "raise", "reduce" → "decrease", "expire" → "terminate", …); for roles the
  sentence itself with "hereby" inserted after the modal;
* each sentence citing itself must be accepted;
* changed (must be removed): the period swapped (month ↔ year, week ↔ month, quarter ↔ year),
  the anchor swapped (before ↔ after), the opposite word for the word, the two roles swapped.

"Accepted" is the verifier's whole-claim decision (:func:`core.verify._whole_claim_problem`:
facts, opposite words and roles, polarity) with the quote as the only citation. Sentences come
from the 15 CUAD contracts of ``../shared/eval/corpora/cuad/txt`` (the held-out third's contracts,
``bench/support.HELD_OUT_SEED``, counted apart and never listed), the lab's Spanish documents
(``tests/data/lab/corpus``) and the Spanish Constitution's articles (BOE anchors).

Also: the faithful pool pairs on which either reader fires at all (must be none).

Run: ``PYTHONPATH=$PWD python bench/support_relations.py [--list]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

import support  # noqa: E402  (bench/support.py: pairs, held-out contracts)

from core.relations import OPPOSITES, ROLES, check_relations  # noqa: E402
from core.verify import _whole_claim_problem  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PERIODS = {
    "year": ["per annum", "per year", "a year", "annually"], "month": ["per month", "a month", "each month", "monthly"],
    "week": ["per week", "a week", "weekly"], "quarter": ["per quarter", "quarterly"],
    "year_es": ["anuales", "al año", "por año"], "month_es": ["mensuales", "al mes", "por mes"],
}
SWAP_PERIOD = {"year": "month", "month": "year", "week": "month", "quarter": "year", "year_es": "month_es",
               "month_es": "year_es"}
ANCHORS = {"before": ["prior to", "before", "preceding"], "after": ["after", "following"],
           "before_es": ["antes de", "con anterioridad a"], "after_es": ["después de", "tras"]}
SWAP_ANCHOR = {"before": "after", "after": "before", "before_es": "after_es", "after_es": "before_es"}
SYNONYMS = {"increase": "raise", "raise": "increase", "reduce": "decrease", "decrease": "reduce", "expire": "terminate",
            "terminate": "expire", "minimum": "minimal", "greater": "larger", "larger": "greater", "earlier": "earliest",
            "aumentar": "incrementar", "incrementar": "aumentar", "reducir": "disminuir", "disminuir": "reducir",
            "before": "prior to", "after": "following", "following": "after", "prior to": "before"}
_NUM = r"(?:\d[\d,.]*\s*(?:%|percent|dollars|euros|€)\)?|[$€]\s?\d[\d,.]*)"
_UNIT = r"(?:days?|months?|years?|weeks?|d[ií]as|meses|años)\)?"


def _parties(text: str) -> frozenset[str]:
    """A document's party names: capitalised words written before "shall"/"will"/"may"/"must" at
    least three times, case-folded (not "Agreement"/"Party" and other nouns of core.relations)."""
    from collections import Counter

    from core.relations import _NOT_PARTIES

    counts = Counter(w.casefold() for w in re.findall(r"\b([A-Z][A-Za-z0-9&]+)\s+(?:shall|will|may|must)\b", text))
    return frozenset(w for w, n in counts.items() if n >= 3 and w not in _NOT_PARTIES)


def sentences() -> list[tuple[str, str, frozenset[str]]]:
    """``(group, sentence, parties)``: group is ``working`` | ``held-out`` (CUAD) | ``lab`` | ``boe``."""
    rows = support.load("pool")
    held = {Path(d).name for d in support.held_out_docs([r["source_doc"] for r in rows])}
    out = []
    split = re.compile(r"(?<=[.;])\s+|\n\s*\n")
    for path in sorted((support.SHARED / "eval" / "corpora" / "cuad" / "txt").glob("*.txt")):
        group = "held-out" if path.name in held else "working"
        text = path.read_text(encoding="utf-8")
        out += [(group, " ".join(s.split()), _parties(text)) for s in split.split(text)]
    for path in sorted((ROOT / "tests" / "data" / "lab" / "corpus").rglob("*.md")):
        out += [("lab", " ".join(s.split()), frozenset()) for s in split.split(path.read_text(encoding="utf-8"))]
    anchors = support.SHARED / "eval" / "corpora" / "pdfs" / "boe_constitution_anchors.jsonl"
    for line in anchors.read_text(encoding="utf-8").splitlines():
        out += [("boe", " ".join(s.split()), frozenset()) for s in split.split(json.loads(line)["anchor_text"])]
    return [(g, s, p) for g, s, p in out if 30 <= len(s) <= 600]


def accepted(claim: str, quote: str) -> bool:
    """The verifier's whole-claim decision for ``claim`` citing ``quote`` alone."""
    return _whole_claim_problem(claim, [SimpleNamespace(quote=quote)], None, True, True) is None


def _rewrites(sentence: str, parties: frozenset[str] = frozenset()) -> list[tuple[str, str, str]]:
    """``(probe, same|changed, claim)`` for every rewritable phrase of ``sentence``; ``parties``: the
    party names of its document (case-folded), whose swaps are probed like the roles'."""
    out = []
    for period, forms in PERIODS.items():
        for form in forms:
            for m in re.finditer(rf"{_NUM}(\s+{re.escape(form)})\b", sentence, re.IGNORECASE):
                for other in PERIODS[period]:
                    if other != form:
                        out.append(("period", "same", sentence[: m.start(1)] + " " + other + sentence[m.end(1):]))
                out.append(("period", "changed", sentence[: m.start(1)] + " " + PERIODS[SWAP_PERIOD[period]][0]
                            + sentence[m.end(1):]))
    for anchor, forms in ANCHORS.items():
        for form in forms:
            for m in re.finditer(rf"\d\)?\s+{_UNIT}(\s+{re.escape(form)})\b", sentence, re.IGNORECASE):
                for other in ANCHORS[anchor]:
                    if other != form:
                        out.append(("anchor", "same", sentence[: m.start(1)] + " " + other + sentence[m.end(1):]))
                out.append(("anchor", "changed", sentence[: m.start(1)] + " " + ANCHORS[SWAP_ANCHOR[anchor]][0]
                            + sentence[m.end(1):]))
    for a, b, _ in OPPOSITES:
        for side, other in ((a, b), (b, a)):
            for word in side:
                w = word.replace("_", " ")
                for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", sentence, re.IGNORECASE):
                    if w.casefold() in SYNONYMS:
                        out.append(("opposite", "same", sentence[: m.start()] + SYNONYMS[w.casefold()] + sentence[m.end():]))
                    # a changed word is a test only where the sentence holds one side, not negated,
                    # not the adjective "the following" (the reader's stated limits; counted apart)
                    words = re.findall(r"[^\W\d_]+", sentence.casefold())
                    if (any(o.split("_")[0] in words for o in other) or re.search(
                            r"\b(?:not|no|never|without|non|sin|nunca|ni)\W+(?:\w+\W+){0,3}$", sentence[: m.start()],
                            re.IGNORECASE) or re.search(r"\bthe\s+$", sentence[: m.start()], re.IGNORECASE) and w == "following"):
                        out.append(("opposite", "untestable", ""))
                        continue
                    lang = _lang(w)
                    repl = next((o for o in other if _lang(o.replace("_", " ")) == lang), other[0])
                    out.append(("opposite", "changed", sentence[: m.start()] + repl.replace("_", " ") + sentence[m.end():]))
    pairs = list(ROLES) + [(a, b) for a in parties for b in parties if a < b]
    for a, b in pairs:
        if re.search(rf"\b{a}\b", sentence, re.IGNORECASE) and re.search(rf"\b{b}\b", sentence, re.IGNORECASE):
            if re.search(rf"\b(?:{a}|{b})\s+(?:shall|will|may|must)\s+\w", sentence, re.IGNORECASE):
                swapped = re.sub(rf"\b({a}|{b})\b", lambda m: _swap_case(m[1], b if m[1].casefold() == a else a),
                                 sentence, flags=re.IGNORECASE)
                out.append(("roles", "changed", swapped))
                out.append(("roles", "same", re.sub(r"\b(shall|will|must)\s+(?!not\b)", r"\1 hereby ", sentence, count=1)))
    return out


def _lang(word: str) -> str:
    """``"en"`` or ``"es"``: the language in which ``word`` is more frequent (wordfreq)."""
    from wordfreq import zipf_frequency

    return "es" if zipf_frequency(word, "es") > zipf_frequency(word, "en") else "en"


def _swap_case(old: str, new: str) -> str:
    return new.capitalize() if old[:1].isupper() and not old.isupper() else new.upper() if old.isupper() else new


def probe(listing: bool) -> None:
    counts: dict[tuple[str, str, str], list[int]] = {}
    selves: dict[str, list[int]] = {}
    for group, sentence, parties in sentences():
        c = selves.setdefault(group, [0, 0])
        c[0] += accepted(sentence, sentence)
        c[1] += 1
        for kind, sense, claim in _rewrites(sentence, parties):
            if sense == "untestable":
                counts.setdefault((group, kind, sense), [0, 0])[1] += 1
                continue
            ok = accepted(claim, sentence)
            right = ok if sense == "same" else not ok
            c = counts.setdefault((group, kind, sense), [0, 0])
            c[0] += right
            c[1] += 1
            if listing and not right and group != "held-out":
                print(f"[{group} {kind} {sense}] C: {claim[:220]}\n    Q: {sentence[:220]}")
    print("each sentence citing itself, accepted: " + ", ".join(f"{g} {support.pct(*c)}" for g, c in selves.items()))
    print("| sentences | probe | same meaning still accepted | changed caught (removed) | changed, not a test (both sides, negated) |")
    print("|---|---|---|---|---|")
    for group in ("working", "held-out", "lab", "boe"):
        for kind in ("period", "anchor", "opposite", "roles"):
            same, changed = counts.get((group, kind, "same"), [0, 0]), counts.get((group, kind, "changed"), [0, 0])
            if same[1] or changed[1]:
                print(f"| {group} | {kind} | {support.pct(*same)} | {support.pct(*changed)} | "
                      f"{counts.get((group, kind, 'untestable'), [0, 0])[1]} |")


def pool_fires() -> None:
    """Faithful and contradicted pool pairs on which a reader of this probe fires (working pairs listed)."""
    from core.facts import check_facts

    rows = support.load("pool")
    held = support.held_out_docs([r["source_doc"] for r in rows])
    fired = {"keep": 0, "remove": 0}
    for r in rows:
        relation = check_relations(r["claim"], r["quotes"]).outcome == "contradict"
        context = any(f.period or f.anchor for f in check_facts(r["claim"], r["quotes"]).missing)
        if relation or context:
            fired[r["label"]] += 1
            if r["source_doc"] not in held:
                print(f"  fires on {r['id']} ({r['label']}): {r['claim'][:120]}")
    print(f"pool pairs where the opposite/role reader fires, or a claim with a period or anchor is removed: "
          f"faithful {fired['keep']}/125, contradicted {fired['remove']}/128")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the wrong outcomes (not the held-out contracts')")
    args = ap.parse_args()
    probe(args.list)
    pool_fires()


if __name__ == "__main__":
    main()
