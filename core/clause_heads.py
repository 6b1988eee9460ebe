"""Where a new numbered or titled clause starts among a chunk's sentences (issue #20, tryout 3 finding 5).

The passages answer scores single sentences and adjacent pairs of sentences (:func:`core.passages.score_spans`)
and shows the clause around a span (:func:`core.passage_context.clause_bounds`). Neither may join the end of one
clause to the start of the next: "10. Governing Law … conflicts of laws. 11. No Assignment. Neither …" as one
highlight cites the governing-law clause for an assignment answer. :func:`clause_starts` says which sentences open
a new clause; a pair, a joined sentence or a shown clause does not run across one.

A sentence opens a clause when it begins with a clause heading:

* a clause word and its number: "Section 4", "ARTICLE V", "Cláusula 3", "Artículo 12 bis" (the chunker's own
  heading words, :data:`core.chunking._CLAUSE_WORDS`);
* a Spanish ordinal heading: "TERCERA.", "Cuarta.-", "PRIMERO –";
* a multi-level number "19.0 TERMINATION", "11.2 The Licensee …" whose first number differs from the clause in
  force (the last heading before it in the chunk): "10.1 … consequential damages. 10.2 In no event … exceed …" is
  one clause, the cap after the exclusion still pairs, and so is a sub-number when no heading precedes it in the
  chunk (the chunk starts inside a clause);
* a single number or a Roman numeral followed by a short title: "11. No Assignment.", "12. Rights Cumulative.",
  "V. TERM" (a numbered list item "1. the Company shall pay …" is running text, not a title);
* a title-cased heading without a period, alone on its line or running inline into a numbered clause start:
  "Governing Law and Attornment\n\n4.8 This Agreement …", "Severability 4.9 The parties …" (tryout 5 finding 6,
  Western Copper: such a heading opens its clause whatever the number after it, so "4.8 …" and "Severability 4.9 …"
  of one part are two clauses, while "10.1 … 10.2 …" without headings still pair).

A sentence after a lead-in (one ending in ":") never opens a clause: list items under a lead-in still pair; nor
does one after a heading of fewer than :data:`MIN_WORDS` words standing alone ("15 INTELLECTUAL PROPERTY" before
"15.1 …"): a clause is not split from its own heading. A short piece that is no heading (a page number "- 8 -", a
footer "I62W.3") is no lead-in.
These are layout rules of the documents, written by hand (no library segments legal clauses); the patterns follow
the chunker's (:mod:`core.chunking`), which cuts chunks at the same headings.
"""

from __future__ import annotations

import re

from core.chunking import _CLAUSE_WORDS, _PATH_SEP, _shorten, sentence_starts
from core.ingest.text import _PARA_SPLIT

MIN_WORDS = 6
"""A piece of fewer words (a heading such as "12. Term.", a list label) cannot be read, nor be a clause, alone;
:data:`core.sentences.MIN_WORDS` is this value (defined here so that the two modules do not import each other)."""

_WORD_HEAD = re.compile(r"(?i:" + "|".join(p for _, p in _CLAUSE_WORDS) + r")(?=[ \t]*(?:[.:\u2013\u2014-]|$|\s+[A-ZÁÉÍÓÚÑ\"«(]))")
_ORDINALS = ("primer[oa]|segund[oa]|tercer[oa]|cuart[oa]|quint[oa]|sext[oa]|s[ée]ptim[oa]|octav[oa]|noven[oa]|"
             "d[ée]cim[oa](?:[ \t]*(?:primer[oa]|segund[oa]|tercer[oa]|cuart[oa]|quint[oa]|sext[oa]|s[ée]ptim[oa]|"
             "octav[oa]|noven[oa]))?|und[ée]cim[oa]|duod[ée]cim[oa]")
_ORDINAL_HEAD = re.compile(r"(?i:" + _ORDINALS + r")[ \t]*[.:\u2013\u2014-]")
_MULTI = re.compile(r"\(?(\d{1,3})((?:\.\d{1,3})+)\.?\)?[ \t\u00a0]+(?=[A-ZÁÉÍÓÚÑ(\"“])")
# a number without its period before an all-capitals title alone on its line ("15 INTELLECTUAL PROPERTY")
_BARE = re.compile(r"(\d{1,3})[ \t\u00a0]+(?=[A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑÜ ,;&'’/-]{2,60}(?:\n|$))")
_SINGLE = re.compile(r"\(?(\d{1,3}|[IVXLC]{1,6})[.)][ \t\u00a0]+")
# A title after a single number: up to 8 capitalised words (short joining words, "," and ";" allowed), ending in
# "." or ":" or the line's end ("11. No Assignment.", "5. Forecasts; Terpene Cost Information.", "7. TERM"), not
# running text ("1. the fee …").
_SMALL = r"(?:of|and|or|the|to|for|in|on|a|an|de|del|la|el|los|las|y|o|en|a|al)"
_CAP_WORD = r"[A-ZÁÉÍÓÚÑ][\w'’&/-]*"
_TITLE = re.compile(r"(?:" + _CAP_WORD + r")(?:[,;]?[ \t\u00a0]+(?:" + _CAP_WORD + r"|" + _SMALL + r")){0,7}"
                    r"[ \t\u00a0]*(?:[.:]|\n|$)")
# or any short line standing as its own paragraph ("5. Governing law" and a blank line)
_TITLE_LINE = re.compile(r"[A-ZÁÉÍÓÚÑ][^\n.;:]{0,60}(?:\n[ \t\u00a0]*\n|$)")
# A title-cased heading without a number (tryout 5 finding 6, Western Copper "Governing Law and Attornment" above
# "4.8 This Agreement …"): up to 8 capitalised words (short joining words, "," and ";" allowed), no final period,
# either standing alone on its line (_HEAD_LINE; the caller checks that the line begins there too) or running inline
# into a numbered clause start (_HEAD_RUN: "Governing Law and Attornment 4.8 This Agreement …").
_HEAD_WORDS = r"(?:" + _CAP_WORD + r")(?:[,;]?[ \t\u00a0]+(?:" + _CAP_WORD + r"|" + _SMALL + r")){0,7}"
_HEAD_LINE = re.compile(_HEAD_WORDS + r"[ \t\u00a0]*(?:\n|$)")
_HEAD_RUN = re.compile(_HEAD_WORDS + r"[ \t\u00a0]+(?=\(?\d{1,3}(?:(?:\.\d{1,3})+\.?|\.)\)?[ \t\u00a0]+[A-ZÁÉÍÓÚÑ])")


def heading_number(text: str, own_line: bool = False) -> tuple[str, tuple[int, ...] | None] | None:
    """The clause heading ``text`` begins with, if any: ``(kind, number)``.

    ``kind`` is ``"word"`` (a clause word and its number, or a Spanish ordinal), ``"multi"`` (a multi-level number,
    ``number`` its parts, "19.0" → ``(19, 0)``), ``"single"`` (a single number or Roman numeral and a title,
    ``number`` ``(11,)``, or ``None`` for a Roman numeral) or ``"title"`` (a title-cased heading without a period:
    alone on its line when ``own_line`` says ``text`` begins a line, or inline before a numbered clause start;
    ``number`` that clause's heading number when one follows, else ``None``). ``None``: ``text`` does not begin with
    a heading. Leading whitespace is skipped.
    """
    t = text.lstrip()
    m = (own_line and _HEAD_LINE.match(t)) or _HEAD_RUN.match(t)
    if m and not _WORD_HEAD.match(t) and not _ORDINAL_HEAD.match(t):
        after = heading_number(t[m.end():])
        return "title", after[1] if after else None
    return _numbered_head(t)


def _numbered_head(t: str) -> tuple[str, tuple[int, ...] | None] | None:
    """:func:`heading_number` of ``t`` (leading whitespace stripped) without titles."""
    if _WORD_HEAD.match(t) or _ORDINAL_HEAD.match(t):
        return "word", None
    m = _MULTI.match(t)
    if m:
        return "multi", (int(m.group(1)),) + tuple(int(p) for p in m.group(2).split(".")[1:])
    m = _BARE.match(t)
    if m:
        return "single", (int(m.group(1)),)
    m = _SINGLE.match(t)
    if m and (_TITLE.match(t, m.end()) or _TITLE_LINE.match(t, m.end())):
        n = m.group(1)
        return "single", (int(n),) if n.isdigit() else None
    return None


def begins_line(text: str, pos: int) -> bool:
    """Whether ``text[pos]`` is the first non-blank character of its line (or of ``text``)."""
    return not text[text.rfind("\n", 0, pos) + 1:pos].strip()


def head_at(text: str, s: int, e: int) -> tuple[str, tuple[int, ...] | None] | None:
    """:func:`heading_number` of the piece ``text[s:e]`` read to the end of its last line (a segmenter cuts "4."
    from "REMUNERATION" in "4. REMUNERATION"), ``own_line`` when the piece begins its line."""
    end = text.find("\n", e)
    return heading_number(text[s:max(e, end if end >= 0 else len(text))], own_line=begins_line(text, s))


def clause_starts(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """For each sentence ``text[s:e]`` of ``spans`` (in text order, character offsets), whether it opens a new
    clause after the sentence before it (see the module docstring); the first sentence follows unknown text (a
    single-number, Roman or clause-word heading opens a clause there, a sub-number "24.2" does not)."""
    out: list[bool] = []
    current: tuple[int, ...] | None = None
    for i, (s, e) in enumerate(spans):
        head = head_at(text, s, e)
        prev = text[spans[i - 1][0]:spans[i - 1][1]] if i else ""
        # after a lead-in, or after a piece too short to be a clause ("15 INTELLECTUAL PROPERTY", "ARTICLE V"),
        # a heading continues what came before
        listed = prev.rstrip().endswith(":")
        # (a short piece that is no heading, a page number "- 8 -" or a footer "I62W.3", is no lead-in)
        lead_in = i > 0 and (listed or (len(prev.split()) < MIN_WORDS
                                        and head_at(text, *spans[i - 1]) is not None))
        if head is None:
            out.append(False)
            continue
        kind, number = head
        # a sub-number continues the clause in force when it has the same first number, or when none is known
        # (the chunk starts inside a clause: "… giving statements. 24.2 If the Executive's employment …")
        # (a titled heading always opens: "Severability\n\n4.9 …" after "4.8 …" is its own clause)
        same = kind == "multi" and (current is None or (number is not None and number[0] == current[0]))
        out.append(not lead_in and not same)
        if not listed:
            current = number
    return out


def clause_openings(units: list[tuple[object, int, int]]) -> list[bool]:
    """:func:`clause_starts` over ``(chunk, start, end)`` sentences of several chunks (each chunk's sentences
    consecutive, in text order), one flag per sentence; a chunk's first sentence is always flagged."""
    out: list[bool] = []
    i = 0
    while i < len(units):
        chunk = units[i][0]
        j = i
        while j < len(units) and units[j][0] is chunk:
            j += 1
        flags = clause_starts(chunk.text, [(s, e) for _, s, e in units[i:j]])
        out += [True] + flags[1:]
        i = j
    return out


def split_crossing(chosen: list, spans: list) -> list:
    """``chosen`` (:class:`core.passages.Span`, shown order) with every pair that runs across a clause start
    (``crosses``) replaced by its two sentences, each its own passage in its own clause: the single-sentence spans
    of ``spans`` with the pair's chunk and ends (both are there: a pair is offered only when both of its sentences
    are candidates). A sentence already shown, or overlapping one shown, is not added twice."""
    out: list = []

    def add(sp) -> None:
        if not any(o.chunk.chunk_id == sp.chunk.chunk_id and o.start < sp.end and sp.start < o.end for o in out):
            out.append(sp)

    singles = {(sp.chunk.chunk_id, sp.start): sp for sp in spans if not sp.crosses}
    ends = {(sp.chunk.chunk_id, sp.end): sp for sp in spans if not sp.crosses}
    for sp in chosen:
        if not sp.crosses:
            add(sp)
            continue
        first, second = singles.get((sp.chunk.chunk_id, sp.start)), ends.get((sp.chunk.chunk_id, sp.end))
        for part in (first, second):
            if part is not None and part is not sp:
                add(part)
    return out


# a heading's rank among the kinds: a clause word ("PART 2", "ARTICLE V") holds numbered clauses, a single number
# ("11. No Assignment.") holds sub-numbers; a title-cased heading stands where a numbered clause does
_RANK = {"word": 0, "single": 1, "multi": 2, "title": 2}
_PARA_MARK = re.compile(r"(?:^| )¶ (\d+)$")


def quote_location(text: str, location: str, start: int) -> str:
    """Where a quote starting at ``text[start]`` (``text`` a chunk's text, ``start`` a chunk offset, characters)
    is, for display: ``location`` (the chunk's :attr:`core.types.Chunk.location`, where the chunk starts, e.g.
    "PART 2 › 4.5 No waiver of any provision… ¶ 92") with its clause replaced by the nearest clause heading at or
    after the chunk's start and at or before ``start`` (tryout 5 finding 6: a quote of clause 4.7 was labelled
    "4.5 No waiver …"; a lawyer cites the clause the quote is in).

    A heading is read where a sentence or a paragraph (after a blank line) begins (:func:`head_at`, the rules of
    the module docstring). Path elements of ``location`` that are headings of the found one's rank or deeper are
    dropped ("4.5 …" gives way to "4.7 …", "PART 2" stays); a trailing "¶ n" (plain-text paragraph, 1-based) is
    moved on by the blank-line paragraph breaks before the heading. ``location`` unchanged when the chunk holds no
    heading after its first character and before the quote. Never raises.
    """
    starts = {m.end() for m in _PARA_SPLIT.finditer(text, 0, start + 1)} | set(sentence_starts(text[:start + 1]))
    starts.add(start)
    for pos in sorted((p for p in starts if 0 < p <= start), reverse=True):
        head = head_at(text, pos, pos + 1)
        if head is None:
            continue
        line_end = text.find("\n", pos)
        name = _shorten(text[pos:line_end if line_end >= 0 else len(text)])
        para = _PARA_MARK.search(location)
        path = location[:para.start()] if para else location
        elems = [e for e in path.split(_PATH_SEP) if e]
        while elems and (h := heading_number(elems[-1].lstrip("# "))) is not None and _RANK[h[0]] >= _RANK[head[0]]:
            elems.pop()
        out = _PATH_SEP.join(elems + [name])
        if para:
            out += f" ¶ {int(para.group(1)) + sum(1 for _ in _PARA_SPLIT.finditer(text, 0, pos))}"
        return out
    return location
