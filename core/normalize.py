"""The normalized view of a text, with an offset map back to the original.

This is Verbatim's own idea (the quote check is the product), so it is written
here rather than taken from a library: no library we know of normalizes *and*
keeps a per-character map back to the source, which highlighting needs.

``normalize(text)`` returns ``(norm, origin)`` where ``norm[j]`` was produced by
``text[origin[j]]``. Rules, applied in one pass (DESIGN.md step 6):

* Unicode NFKC per character (ligatures ``ﬁ`` → ``fi``, full-width forms,
  ``NBSP`` → space), then ``str.casefold`` (``ß`` → ``ss``).
* Combining marks are composed with the preceding character (NFD ``i`` + U+0301
  and NFC ``í`` normalize identically).
* Typographic quotes (``‘ ’ ‚ ‛ “ ” „ ‟ « » ‹ › ′ ″``) become ``'`` or ``"``; dashes
  and minus signs (U+2010–U+2015, U+2212, U+FE58, U+FE63, U+FF0D) become ``-``.
* Soft hyphens (U+00AD) and zero-width characters are dropped.
* Line-break hyphenation: a hyphen (or soft hyphen) followed by a line break (with optional
  spaces) and a lowercase letter is dropped together with the break, so
  ``obliga-\\nción`` reads ``obligación``.
* Bracketed reference markers such as ``[9]``, ``[12, 13]`` or ``[4-6]`` are dropped.
* A superscript or subscript character right after a digit is a marker, not part of the
  number: a space is put before it, so ``320¹`` reads ``320 1``, never ``3201`` (case B37:
  "EUR 320¹" must never match a quote "EUR 3201"); elsewhere NFKC applies (``m²`` → ``m2``).
* Every run of whitespace becomes one space; leading and trailing spaces are removed.
"""

from __future__ import annotations

import re
import unicodedata

_QUOTES = {c: "'" for c in "‘’‚‛‹›′`´"} | {c: '"' for c in "“”„‟«»″"}
_DASHES = {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"}
_DROP = set("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_HYPHENS = set("-\u2010\u2011")
MARKS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
"""Superscript and subscript characters: footnote markers and exponents (see the module docstring)."""
_REF_MARKER = re.compile(r"\[\s*\d{1,3}(?:\s*[,\u2013\-]\s*\d{1,3})*\s*\]")
_LINEBREAK_HYPHEN = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010\u2011][ \t]*\r?\n[ \t]*(?=[^\W\d_])")


def _dropped_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` removed wholesale: reference markers and line-break hyphenation."""
    spans = [m.span() for m in _REF_MARKER.finditer(text)]
    spans += [m.span() for m in _LINEBREAK_HYPHEN.finditer(text) if text[m.end()].islower()]
    spans.sort()
    return spans


def normalize(text: str) -> tuple[str, list[int]]:
    """Normalize ``text`` for quote matching, keeping an origin index per output char.

    Returns:
        ``(norm, origin)`` with ``len(norm) == len(origin)``; ``origin[j]`` is the
        index in ``text`` of the character that produced ``norm[j]`` (characters).
    """
    out: list[str] = []
    origin: list[int] = []
    spans = _dropped_spans(text)
    span_i = 0
    pending_space = -1  # index of the first whitespace char of a pending run, or -1
    i = 0
    n = len(text)
    while i < n:
        if span_i < len(spans) and i >= spans[span_i][0]:
            start, end = spans[span_i]
            span_i += 1
            if i < end:
                i = end
                continue
        ch = text[i]
        if ch in _DROP:
            i += 1
            continue
        if ch.isspace():
            if pending_space < 0:
                pending_space = i
            i += 1
            continue
        if unicodedata.combining(ch) and out:
            composed = unicodedata.normalize("NFC", out[-1] + ch)
            if len(composed) == 1:
                out[-1] = composed.casefold() if len(composed.casefold()) == 1 else composed
                i += 1
                continue
        if pending_space >= 0:
            if out:
                out.append(" ")
                origin.append(pending_space)
            pending_space = -1
        elif ch in MARKS and out and out[-1].isdigit() and text[i - 1] not in MARKS:
            out.append(" ")
            origin.append(i)
        if ch in _QUOTES:
            piece = _QUOTES[ch]
        elif ch in _DASHES:
            piece = "-"
        else:
            piece = unicodedata.normalize("NFKC", ch).casefold()
            piece = "".join(_QUOTES.get(c, _DASHES.get(c, c)) for c in piece)
        for c in piece:
            if c.isspace():
                if out and out[-1] != " ":
                    out.append(" ")
                    origin.append(i)
            else:
                out.append(c)
                origin.append(i)
        i += 1
    while out and out[-1] == " ":
        out.pop()
        origin.pop()
    return "".join(out), origin


def normalized(text: str) -> str:
    """Only the normalized string of :func:`normalize` (for quotes and lookups)."""
    return normalize(text)[0]


def to_original_span(origin: list[int], text: str, start: int, end: int) -> tuple[int, int]:
    """Map a normalized span ``[start, end)`` back to ``[orig_start, orig_end)`` of ``text``.

    The end is extended over any combining marks that follow the last mapped
    character, so a highlighted ``í`` written in NFD keeps its accent.
    """
    if end <= start:
        raise ValueError("empty span")
    o_start = origin[start]
    o_end = origin[end - 1] + 1
    while o_end < len(text) and unicodedata.combining(text[o_end]):
        o_end += 1
    return o_start, o_end
