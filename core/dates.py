"""Dates in every written form, for the facts check (:mod:`core.facts`).

Read here (English and Spanish; a date is ``(year, month, day)`` with ``None`` for a part
the text does not state):

* ISO ``2024-03-01`` and ``2024/03/01``;
* numeric ``01/03/2024``, ``01.03.24``, ``01-03-2024`` — read in the *document's
  convention* (``date_order``, below), never assumed;
* day before month: ``1 March 2024``, ``1st March``, ``1-Mar-2024``, ``the 5th day of
  January, 2015``, ``5 de enero de 2015``, ``a los 31 días del mes de mayo de 2024``,
  ``1º de enero`` (number words are turned into digits before, by ``text2num``: "el día
  cinco de enero de dos mil quince" → "el día 5 de enero de 2015");
* month before day: ``March 1, 2024``, ``January 5th, 2015``;
* month and year: ``March 2024``, ``marzo de 2024``;
* day ranges in one month: ``1-15 March``, ``del 1 al 15 de marzo``, ``March 1-15, 2024``
  (a date of either day agrees with it).

"May" is a month only when written "May" (or "MAY" followed by a year): "the Licensee may
..." and "On2 may ..." are verbs (issue #21: "On2 may" was read as 2 May); a day glued to
letters before it ("On2") is never a day.

Numeric dates and the document's convention (issue #21): ``01/02/2024`` is 1 February in
a document written day-first and 2 January in one written month-first. :func:`date_order`
reads the convention from the document's text — another numeric date that can only be
read one way ("13/02/2024" proves day-first, "02/13/2024" month-first) — else from its
language (Spanish writes day-first); an English document with no such proof, or with
proofs both ways, has no known order (``""``), and its ambiguous dates carry both
readings with :attr:`DateReading.ambiguous` set: the facts check then neither accepts
nor silently drops a claim that depends on the reading (see :mod:`core.facts`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Month names: English and Spanish, full and three-letter forms (a small closed list).
MONTHS: dict[str, int] = {}
for _i, (_en, _es) in enumerate(
    zip(
        "january february march april may june july august september october november december".split(),
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    ),
    start=1,
):
    MONTHS[_en] = MONTHS[_es] = _i
    MONTHS.setdefault(_en[:3], _i)
    MONTHS.setdefault(_es[:3], _i)
MONTHS["setiembre"] = 9
MONTHS["sept"] = 9

DAY_FIRST, MONTH_FIRST = "dmy", "mdy"

_MONTH_RE = "|".join(sorted((re.escape(m) for m in MONTHS), key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th|º|ª|°|o|a|er|ᵒ|ᵃ)?"
# "the 5th day of", "a los 31 días del mes de", "5 de", "5th of"
_DAY_OF = r"(?:(?:day|días?)\s+(?:of|del?)\s+(?:(?:the\s+)?month\s+of\s+|mes\s+de\s+)?|(?:of|de|del)\s+)?"
_YEAR_TAIL = r"(?:,?\s+(?:(?:of|de|del)\s+)?(?:the\s+year\s+|año\s+)?(\d{4}))?"

_ISO = re.compile(r"(?<![\d.,/])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d/])")
_NUMERIC = re.compile(r"(?<![\d.,/])(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/])")
_DAY_MONTH = re.compile(
    rf"(?<![\w.,])(\d{{1,2}}){_ORD}\.?(?:\s+|-)(?:{_DAY_OF})({_MONTH_RE})\.?(?![^\W\d_])"
    rf"(?:-(\d{{4}}|\d{{2}})|{_YEAR_TAIL})(?!\d)",
    re.IGNORECASE,
)
# Day ranges inside one month: "1-15 March", "del 1 al 15 de marzo", "between 1 and 15 March 2024",
# "March 1-15, 2024": both days are dates of that month.
_RANGE_SEP = r"\s*(?:-|to|through|until|al|a|hasta|and|y)\s*"
_DAY_RANGE = re.compile(
    rf"(?<![\w.,])(\d{{1,2}}){_ORD}{_RANGE_SEP}(\d{{1,2}}){_ORD}\.?\s+(?:{_DAY_OF})({_MONTH_RE})\.?(?![^\W\d_])"
    rf"{_YEAR_TAIL}(?!\d)",
    re.IGNORECASE,
)
_MONTH_DAY_RANGE = re.compile(
    rf"(?<![^\W\d_])({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}{_RANGE_SEP}(\d{{1,2}}){_ORD}(?![\d.,]\d)(?:,?\s+(\d{{4}}))?(?!\d)",
    re.IGNORECASE,
)
_MONTH_DAY = re.compile(
    rf"(?<![^\W\d_])({_MONTH_RE})\.?\s+(?:the\s+)?(\d{{1,2}}){_ORD}(?![\d.,]\d)(?:,?\s+(\d{{4}}))?(?!\d)",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(rf"(?<![^\W\d_])({_MONTH_RE})\.?,?\s+(?:(?:of|de|del)\s+)?(\d{{4}})(?!\d)", re.IGNORECASE)


@dataclass(frozen=True)
class DateReading:
    """One date found in a text.

    Attributes:
        span: ``(start, end)`` character offsets in the scanned text.
        values: the readings, ``(year, month, day)`` tuples (``None`` = not stated).
        ambiguous: a numeric date whose two readings differ and whose document's
            convention is unknown.
    """

    span: tuple[int, int]
    values: frozenset
    ambiguous: bool = False


def _year(text: str) -> int:
    y = int(text)
    if len(text) == 2:
        y += 2000 if y < 50 else 1900
    return y


def _valid(y: int | None, m: int | None, d: int | None) -> bool:
    return (m is None or 1 <= m <= 12) and (d is None or 1 <= d <= 31)


def _is_month(word: str, year: str | None) -> bool:
    """``word`` names a month here: the English modal "may" does not, unless written "May"
    or followed by a year ("MAY 2024")."""
    if word.casefold() != "may":
        return True
    return word == "May" or bool(year)


def numeric_orders(text: str) -> tuple[int, int]:
    """``(day_first, month_first)``: how many numeric dates of ``text`` can only be read
    day-first ("13/02/2024") or only month-first ("02/13/2024")."""
    dmy = mdy = 0
    for m in _NUMERIC.finditer(text):
        a, b = int(m[1]), int(m[3])
        if a > 12 >= b >= 1:
            dmy += 1
        elif b > 12 >= a >= 1 and b <= 31:
            mdy += 1
    return dmy, mdy


def has_numeric_date(*texts: str) -> bool:
    """True if any of ``texts`` holds a numeric date ("01/02/2024"), whose reading needs a convention."""
    return any(_NUMERIC.search(t) for t in texts)


def date_order(texts: Iterable[str], lang: str = "") -> str:
    """The numeric-date convention of a document, from its texts (pages or chunks).

    Args:
        texts: the document's text, in any number of pieces.
        lang: the document's language (``"en"``/``"es"``; ``""`` unknown).

    Returns:
        ``"dmy"`` or ``"mdy"`` when a numeric date of the document can only be read
        that way and none only the other way; else ``"dmy"`` for Spanish (which writes
        dates day-first); else ``""`` (unknown: English with no proof, or proofs both ways).
    """
    dmy = mdy = 0
    for text in texts:
        a, b = numeric_orders(text)
        dmy, mdy = dmy + a, mdy + b
    if dmy and not mdy:
        return DAY_FIRST
    if mdy and not dmy:
        return MONTH_FIRST
    if not dmy and not mdy and lang == "es":
        return DAY_FIRST
    return ""


class DocumentDateOrders:
    """The numeric-date convention of whole documents, read on demand and cached (a ``get`` mapping).

    Args:
        read: ``doc_id`` → ``(lang, texts)`` of the document (e.g.
            :meth:`core.store.manifest.Manifest.document_texts`); called once per document asked.
    """

    def __init__(self, read: Callable[[str], tuple[str, list[str]]]) -> None:
        self._read = read
        self._cache: dict[str, str | None] = {}

    def get(self, doc_id: str, default: str | None = None) -> str | None:
        """:func:`date_order` of the document, or ``default`` when it has no text (unknown document)."""
        if doc_id not in self._cache:
            lang, texts = self._read(doc_id)
            self._cache[doc_id] = date_order(texts, lang) if texts else None
        found = self._cache[doc_id]
        return default if found is None else found


def scan_dates(text: str, order: str = "") -> list[DateReading]:
    """Every date of ``text`` (number words already digits), longest forms first, without overlaps.

    Args:
        text: the prepared text (see :func:`core.facts.facts_of`).
        order: the numeric-date convention of the text's document (:func:`date_order`):
            ``"dmy"``, ``"mdy"`` or ``""`` (unknown: both readings, flagged ambiguous).
    """
    found: list[DateReading] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    def add(span: tuple[int, int], values: set, ambiguous: bool = False) -> None:
        found.append(DateReading(span, frozenset(values), ambiguous))
        taken.append(span)

    for m in _ISO.finditer(text):
        y, mo, d = int(m[1]), int(m[3]), int(m[4])
        if _valid(y, mo, d):
            add(m.span(), {(y, mo, d)})
    for m in _NUMERIC.finditer(text):
        if not free(*m.span()):
            continue
        a, b, y = int(m[1]), int(m[3]), _year(m[4])
        dmy, mdy = (y, b, a), (y, a, b)
        if order == DAY_FIRST:
            vals = {dmy} if _valid(*dmy) else set()
        elif order == MONTH_FIRST:
            vals = {mdy} if _valid(*mdy) else set()
        else:
            vals = {v for v in (dmy, mdy) if _valid(*v)}
        if vals:
            add(m.span(), vals, ambiguous=len(vals) > 1)
    for m in _DAY_RANGE.finditer(text):
        if not free(*m.span()) or not _is_month(m[3], m[4]):
            continue
        mo, y = MONTHS[m[3].casefold()], (int(m[4]) if m[4] else None)
        vals = {(y, mo, int(d)) for d in (m[1], m[2]) if _valid(y, mo, int(d))}
        if vals:
            add(m.span(), vals)
    for m in _MONTH_DAY_RANGE.finditer(text):
        if not free(*m.span()) or not _is_month(m[1], m[4]):
            continue
        mo, y = MONTHS[m[1].casefold()], (int(m[4]) if m[4] else None)
        vals = {(y, mo, int(d)) for d in (m[2], m[3]) if _valid(y, mo, int(d))}
        if vals:
            add(m.span(), vals)
    for m in _DAY_MONTH.finditer(text):
        year = m[4] or m[3]
        if not free(*m.span()) or not _is_month(m[2], year):
            continue
        d, mo = int(m[1]), MONTHS[m[2].casefold()]
        y = _year(year) if year else None
        if _valid(y, mo, d):
            add(m.span(), {(y, mo, d)})
    for m in _MONTH_DAY.finditer(text):
        if not free(*m.span()) or not _is_month(m[1], m[3]):
            continue
        mo, d = MONTHS[m[1].casefold()], int(m[2])
        y = int(m[3]) if m[3] else None
        if _valid(y, mo, d):
            add(m.span(), {(y, mo, d)})
    for m in _MONTH_YEAR.finditer(text):
        if not free(*m.span()) or not _is_month(m[1], m[2]):
            continue
        add(m.span(), {(int(m[2]), MONTHS[m[1].casefold()], None)})
    return found
