"""Sentence units of indexed chunks that run across a clause start, and units split inside a clause reference.

Usage (from the repository root): ``PYTHONPATH=$PWD python bench/clause_units.py IDX/cuad-txt IDX/cuad-pdf
[--titles] [--show N]``. Reads each workspace's ``manifest.sqlite`` (chunk texts; nothing is written).

* spanning: a unit of :func:`core.sentences.sentence_spans` in which a readable sentence (6 words or more, ending
  in ``. ; ! ? " ” )``) is followed, at a line start or after ". ", by a numbered clause start
  (:func:`core.clause_heads.heading_number` kinds ``word``/``multi``/``single``), or with ``--titles`` also by a
  title-cased heading line (kind ``title``): "… each party hereto.\\n\\nGoverning Law and Attornment".
* reference splits: two units on one line where the first ends with a clause word or a joining word ("Section",
  "of", "and") or the second begins with a digit after no sentence end ("Section | 4.8 of this Agreement").
The judge is this tree's :func:`~core.clause_heads.heading_number`; to count an older segmenter, run it with that
tree's ``core.sentences`` first on ``PYTHONPATH`` and this tree's ``core.clause_heads`` as the judge.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3

from core.clause_heads import heading_number
from core.sentences import sentence_spans

_REF = re.compile(r"(?i)\b(sections?|articles?|clauses?|paragraphs?|exhibit|schedule|of|in|to|under|and)\s*$")


def spanning(text: str, s: int, e: int, titles: bool) -> bool:
    """Whether ``text[s:e]`` holds a clause start after a readable sentence (module docstring)."""
    for m in re.finditer(r"(?:\n|[.;]\s+)[ \t]*(?=\S)", text[s:e]):
        p = s + m.end()
        pre = text[s:p].rstrip()
        if p - s < 3 or len(pre.split()) < 6 or pre[-1] not in '.;!?"”)':
            continue
        head = heading_number(text[p:e])
        if head and head[0] in ("multi", "single", "word"):
            return True
        if titles and text[p - 1] == "\n" and heading_number(text[p:e], own_line=True):
            return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspaces", nargs="+", help="workspace folders of an index (each holds manifest.sqlite)")
    ap.add_argument("--titles", action="store_true", help="count title-cased heading lines as clause starts too")
    ap.add_argument("--show", type=int, default=0, help="print this many examples of each kind")
    a = ap.parse_args()
    units = span = ref = 0
    shown_span: list[str] = []
    shown_ref: list[str] = []
    for ws in a.workspaces:
        con = sqlite3.connect(f"file:{ws}/manifest.sqlite?mode=ro", uri=True)
        for cid, text, lang in con.execute("select chunk_id, text, lang from chunks order by doc_id, ord"):
            us = sentence_spans(text, lang)
            units += len(us)
            for s, e in us:
                if spanning(text, s, e, a.titles):
                    span += 1
                    shown_span.append(f"{cid}: {text[s:e][:200]!r}")
            for (s0, e0), (s1, e1) in zip(us, us[1:]):
                if "\n" in text[e0:s1]:
                    continue
                before = text[s0:e0]
                if _REF.search(before) or (text[s1].isdigit() and not re.search(r"[.;:!?)\"”]\s*$", before)):
                    ref += 1
                    shown_ref.append(f"{cid}: {before[-60:]!r} | {text[s1:e1][:60]!r}")
    print(json.dumps({"units": units, "spanning_clause_start": span, "reference_splits": ref}))
    for line in shown_span[:a.show] + shown_ref[:a.show]:
        print(line)


if __name__ == "__main__":
    main()
