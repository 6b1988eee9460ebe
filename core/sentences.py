"""Sentences of a chunk for the passages answer: ``sentencex`` boundaries, pieces too short to
read alone joined to their neighbour (split from :mod:`core.passages`, which re-exports them)."""

from __future__ import annotations

import re

from core.clause_heads import MIN_WORDS, clause_starts, head_at

# MIN_WORDS (6): a sentence of fewer words (a heading such as "12. Term.", a list label) is joined to the sentence
# after it (the one before it at the end of a chunk): it cannot be read alone.

MAX_PAIR_CHARS = 700
"""Joined pieces (:func:`sentence_spans`) and adjacent sentences offered as one span stay this short."""


def _ends_open(text: str) -> bool:
    """True if ``text`` does not end a sentence: no final ``. ! ? ; …`` (closing quotes and brackets
    aside), or it ends with ``: — – - ,`` (a heading without a period, "The impact is HIGH if—")."""
    end = text.rstrip().rstrip("\"'”’»)]")
    return not end or end[-1] not in ".!?;…"


# a line that may begin a clause inside a segmenter piece: after a blank line, or after a line that ends a sentence
# or a lead-in (". ; :"); a line after one that ends mid-sentence ("… under Section\n4.6 (to the extent …") is
# wrapped text, never a clause start
_LINE_AFTER_BREAK = re.compile(r"(?:\n[ \t\u00a0]*\n|[.;:][\"'”’)\]]?[ \t\u00a0]*\n)[ \t\u00a0\n]*(?=\S)")


def _split_at_heads(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """``text[s:e]`` (one segmenter piece) cut before every line inside it that opens a numbered or titled clause
    (:func:`core.clause_heads.head_at` at a line start after a break, :data:`_LINE_AFTER_BREAK`).
    sentencex ends sentences at ". " only; "… each party hereto\n\nGoverning Law and Attornment\n\n4.8 This …"
    or a heading line without a period before its clause stays one piece (tryout 5 finding 6). Pieces whitespace
    trimmed; short ones are joined again by :func:`sentence_spans` (a heading to its clause)."""
    cuts = [s]
    for m in _LINE_AFTER_BREAK.finditer(text, s, e):
        p = m.end()
        if s < p < e and head_at(text, p, e) is not None:
            cuts.append(p)
    out = []
    for a, b in zip(cuts, cuts[1:] + [e]):
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    return out


def sentence_spans(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """Readable sentences of ``text`` as ``[start, end)`` character offsets, whitespace trimmed, in text order;
    they cover the text but for a heading that ends it.

    Segmentation is ``sentencex.get_sentence_boundaries`` (Wikimedia's rule-based segmenter,
    language-aware abbreviations: "Art. 5", "U.S.", "Sr."); a library rather than our own
    rules, which legal abbreviations would defeat. What is ours is when a piece cannot be
    read alone and is joined to its neighbour, as long as the joined span stays within
    :data:`MAX_PAIR_CHARS`:

    * a piece of fewer than :data:`MIN_WORDS` words (a heading such as "12. Term.") or one
      that does not end a sentence (:func:`_ends_open`: a heading without a period, a line
      ending in "if—" or ":") is joined to the piece after it;
    * a piece that starts with a lower-case letter continues the one before it;
    * but a piece that opens a new numbered or titled clause (:func:`core.clause_heads.clause_starts`) is never
      joined to the piece before it (a short piece before it that is no heading, a page number "- 8 -", stays
      alone); a last short piece that is a heading ("20.0 NOTICE", its clause in the next chunk) is no unit;
    * and a segmenter piece is first cut before every line inside it that opens a numbered or titled clause
      (:func:`_split_at_heads`: "… hereto\n\nGoverning Law and Attornment\n\n4.8 This …", tryout 5 finding 6).
    """
    import sentencex

    raw: list[tuple[int, int]] = []
    for b in sentencex.get_sentence_boundaries(lang if lang in ("en", "es") else "en", text):
        s, e = int(b["start_index"]), int(b["end_index"])
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            raw += _split_at_heads(text, s, e)
    opens = clause_starts(text, raw)
    units: list[tuple[int, int]] = []
    last_opens = False  # whether the last unit begins with a piece that opens a clause
    for (s, e), new_clause in zip(raw, opens):
        if units and e - units[-1][0] <= MAX_PAIR_CHARS:
            prev = text[units[-1][0]:units[-1][1]]
            if not new_clause and (len(prev.split()) < MIN_WORDS or _ends_open(prev) or text[s].islower()):
                units[-1] = (units[-1][0], e)
                continue
        units.append((s, e))
        last_opens = new_clause
    # a last short piece that is a heading ("20.0 NOTICE", "Governing Law and Attornment" where the chunk ends before
    # its clause) belongs to the clause in the next chunk, neither to the sentence before it nor to the answer alone
    # (kept as a unit, a bare "Duty of Loyalty" outscored the clauses that answer: cuad-0127-es lost its gold)
    if len(units) > 1 and len(text[units[-1][0]:units[-1][1]].split()) < MIN_WORDS:
        if last_opens or head_at(text, *units[-1]) is not None:
            units.pop()
        elif units[-1][1] - units[-2][0] <= MAX_PAIR_CHARS:
            units[-2:] = [(units[-2][0], units[-1][1])]
    return units


#: A part or chapter number line alone ("PART 2", "Parte II", "CHAPTER IV"), which
#: :func:`core.labels.label_kind` does not list among clause words.
_PART = re.compile(r"(?i)(?:part|parte|chapter|cap[ií]tulo|t[ií]tulo|title)\s+(?:[0-9]+|[ivxlc]+)")


def is_label(line: str) -> bool:
    """True when ``line`` is only a heading, clause number or defined term (:func:`core.labels.label_kind`)
    or a part/chapter number ("PART 2")."""
    from core.labels import label_kind

    return label_kind(line) is not None or bool(_PART.fullmatch(line.strip(" .:-–—")))


def ends_in_label(text: str) -> bool:
    """True when the last non-blank line of ``text`` is a label (:func:`is_label`): a heading of what follows."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    return bool(lines) and is_label(lines[-1])


def clause_spans(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """:func:`sentence_spans` that can be a clause's passage: headings are never the clause.

    A unit whose every line is a label (a heading, a clause number or a defined term alone,
    :func:`core.labels.label_kind`: "PART 2 / NON COMPETITION AND RIGHT OF FIRST REFUSAL") is left out, and
    label lines at a unit's end are cut off it: a heading names the clause *after* it, so a heading at the
    end of a chunk (which :func:`sentence_spans` joins to the sentence before, its last short piece) belongs
    to a clause the chunk does not hold. Before this, the heading's words made such a span the best match for
    the clause it names: a grid cell quoted "4.7 This Agreement will enure … / Governing Law and Attornment"
    for governing law, the 4.8 clause itself being in the next chunk, and "Non-Competition by Western Copper"
    alone for non-compete (tryout 5 finding 1, bench/README.md, 2026-12-02 afternoon, engineer "grid2").
    A heading *before* its clause's sentence in one unit ("Successors and Assigns / 4.7 This Agreement …")
    is kept: it tells where the clause is. Spans are ``[start, end)`` offsets of ``text``, whitespace trimmed.
    """
    out: list[tuple[int, int]] = []
    for s, e in sentence_spans(text, lang):
        while e > s:
            cut = text.rfind("\n", s, e)
            if cut <= s or not is_label(text[cut:e]):
                break
            e = cut
            while e > s and text[e - 1].isspace():
                e -= 1
        lines = [ln for ln in text[s:e].split("\n") if ln.strip()]
        if lines and not all(is_label(ln) for ln in lines):
            out.append((s, e))
    return out
