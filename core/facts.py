"""Facts check (funnel step 3): the numbers in a claim must be in its quotes.

A claim that passes the literal check can still state a fact its quotes do not
carry ("within 60 days" citing "within thirty (30) days"). This module extracts
the *facts* of a text — plain numbers, percentages, amounts with a currency,
durations, dates and alphanumeric identifiers — and checks that every fact of a
claim appears in at least one of its verified quotes.

Number words are converted by ``text2num`` (``alpha2digit``, English and
Spanish, "catorce" → 14, "thirty-five" → 35, "mil" → 1000). What is written here
by hand is only the comparison logic, which no library provides: reading digit
groups with either decimal convention, attaching units, currencies and percent
signs to numbers, reading dates, and deciding when two facts are the same.

Rules (``Fact.kind``):

* ``number`` — any number not recognised as one of the kinds below. Values are
  :class:`~decimal.Decimal`; ``"1,000"`` and ``"1.000"`` are ambiguous (one
  thousand in English, one thousand in Spanish, or one with a decimal part) and
  carry both readings; ``"1,5"`` is only 1.5; ``"1.000,50"`` / ``"1,000.50"``
  are 1000.5; groups separated by spaces (including NBSP and narrow NBSP) join.
  A number in parentheses right after the same number ("thirty (30)") is the
  same fact. A claim's plain number is found if any fact of the quotes carries
  that value (as number, amount, percentage, duration or date part).
* ``percent`` — a number followed by ``%``, "percent", "per cent", "por ciento"
  ("por 100"); found only as a percentage of the same value.
* ``money`` — a number with a currency symbol, code or word before or after it
  (€, EUR, euros; $, USD, dollars, dólares; £, GBP, pounds, libras); found only
  as an amount of the same value in the same currency.
* ``duration`` — a number followed by a unit of time (days/días, weeks/semanas,
  months/meses, years/años, hours/horas, minutes/minutos), optionally with one
  qualifier between ("30 calendar days") or a hyphen ("30-day"); found only as
  a duration of the same value and unit.
* ``date`` — ISO ``2024-03-01``, numeric ``01/03/2024`` (both day-first and
  month-first readings when ambiguous), and month names in English and Spanish
  ("1 March 2024", "March 1, 2024", "1 de marzo de 2024", "marzo de 2024");
  found if a date of the quotes agrees on every part the claim states.
* ``ident`` — letters glued to digits ("K-40", "PO-2024-0017", "v2.1", "R3"),
  with sub-division letters in parentheses ("ART-12.3(b)", "12.3(b)"); found only
  as the same identifier (case-folded, dashes unified), so "v2.10" never matches
  "v2.1" and "ART-12.3(b)" never "ART-12.3(a)".

Number words are read in the claim's language (py3langid via
:func:`core.textproc.detect_language`), isolated words only from four upwards
(``alpha2digit``'s default threshold, so "one of the parties" states no fact),
and in the quotes in both languages from zero upwards, so a quote offers every
reading it can support. Bracketed reference markers ("[3]") are ignored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from text_to_num import alpha2digit

from core.normalize import MARKS
from core.textproc import NUMBER, SUPPORTED_LANGS, detect_language, number_readings

# --- vocabularies (small closed lists; see module docstring for why by hand) ---

_CURRENCY_WORDS = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "$": "USD", "usd": "USD", "us$": "USD", "dollar": "USD", "dollars": "USD", "dólar": "USD", "dólares": "USD",
    "dolar": "USD", "dolares": "USD",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "libra": "GBP", "libras": "GBP",
}
_UNITS = {
    "day": "day", "days": "day", "día": "day", "días": "day", "dia": "day", "dias": "day",
    "week": "week", "weeks": "week", "semana": "week", "semanas": "week",
    "month": "month", "months": "month", "mes": "month", "meses": "month",
    "mensualidad": "month", "mensualidades": "month",  # "tres mensualidades de renta" = three months' rent
    "year": "year", "years": "year", "año": "year", "años": "year", "ano": "year", "anos": "year",
    "hour": "hour", "hours": "hour", "hora": "hour", "horas": "hour",
    "minute": "minute", "minutes": "minute", "minuto": "minute", "minutos": "minute",
}
_QUALIFIERS = {"calendar", "business", "working", "consecutive", "full", "clear", "banking", "natural"}
# Month names: English and Spanish, full and three-letter forms.
_MONTHS: dict[str, int] = {}
for _i, (_en, _es) in enumerate(
    zip(
        "january february march april may june july august september october november december".split(),
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    ),
    start=1,
):
    _MONTHS[_en] = _MONTHS[_es] = _i
    _MONTHS.setdefault(_en[:3], _i)
    _MONTHS.setdefault(_es[:3], _i)
_MONTHS["setiembre"] = 9
_MONTHS["sept"] = 9

_NUM = NUMBER
_MONTH_RE = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th|º|ª|°|o|a|er|ᵒ|ᵃ)?"

_ISO_DATE = re.compile(r"(?<![\d.,])(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_NUM_DATE = re.compile(r"(?<![\d.,/])(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/])")
_DAY_MONTH = re.compile(
    rf"(?<![\d.,])(\d{{1,2}}){_ORD}\.?\s+(?:(?:of|de|del)\s+)?({_MONTH_RE})\.?(?![^\W\d_])"
    rf"(?:,?\s+(?:(?:of|de|del)\s+)?(\d{{4}}))?(?!\d)",
    re.IGNORECASE,
)
_MONTH_DAY = re.compile(
    rf"(?<![^\W\d_])({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}(?![\d.,]\d)(?:,?\s+(\d{{4}}))?(?!\d)",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(rf"(?<![^\W\d_])({_MONTH_RE})\.?,?\s+(?:(?:of|de|del)\s+)?(\d{{4}})(?!\d)", re.IGNORECASE)
# A token of word characters joined by "-" or "." that holds both a digit and a letter,
# with any sub-division letters in parentheses glued to it ("ART-12.3(b)", "5(a)(ii)"):
# "ART-12.3(b)" must not be found as "ART-12.3(a)" (case B09 of shared/cases).
_SUBDIV = r"(?:\(\w{1,4}\))"
_IDENT = re.compile(
    rf"(?<![\w.-])(?:(?=[\w.-]*\d)(?=[\w.-]*[^\W\d_])\w+(?:[-.]\w+)*{_SUBDIV}*|\d+(?:\.\d+)*{_SUBDIV}+)",
    re.UNICODE,
)
_ORDINAL_OR_UNIT = re.compile(r"\d+(?:st|nd|rd|th|º|ª|er|o|a|ᵒ|ᵃ|ᵒˢ|ᵃˢ)|\d+-?([^\W\d_]+)", re.UNICODE)
_NUMBER = re.compile(rf"(?<![\w.,])(?:({_NUM}))(?![\d])")
_REF_MARKER = re.compile(r"\[\s*\d{1,3}(?:\s*[,\u2013\-]\s*\d{1,3})*\s*\]")
_WORD = re.compile(r"[^\W\d_]+|[€$£%]")


@dataclass(frozen=True)
class Fact:
    """One fact of a text.

    Attributes:
        kind: ``number | percent | money | duration | date | ident``.
        values: the readings of the number (``Decimal``), or of the date as
            ``(year, month, day)`` tuples with ``None`` for an unstated part,
            or the normalized identifier string.
        unit: currency code (money), time unit (duration), else ``""``.
        text: the span of the (digit-converted) text the fact was read from.
    """

    kind: str
    values: frozenset
    unit: str = ""
    text: str = ""

    def describe(self) -> str:
        """Short human text of the fact, for rejection messages."""
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.kind} '{self.text.strip()}'{unit}"


def _readings(token: str) -> frozenset[Decimal]:
    """Numeric readings of a digit token (:func:`core.textproc.number_readings`)."""
    return number_readings(token)


def _year(text: str) -> int:
    y = int(text)
    if len(text) == 2:
        y += 2000 if y < 50 else 1900
    return y


def _valid(y: int | None, m: int | None, d: int | None) -> bool:
    return (m is None or 1 <= m <= 12) and (d is None or 1 <= d <= 31)


def _words_to_digits(text: str, lang: str, threshold: float) -> str:
    # text2num reads "veintiuno" but not the apocopated "veintiún" before a noun.
    text = re.sub(r"(?i)veintiún\b", "veintiuno", text)
    try:
        return alpha2digit(text, lang, threshold=threshold)
    except Exception:  # noqa: BLE001 - a parser failure must not break verification
        return text


_MARK_AFTER_DIGIT = re.compile("(?<=\\d)[" + "".join(sorted(MARKS)) + "]+")


def _prepare(text: str) -> str:
    # A superscript or subscript right after a digit is a footnote marker, never part of the
    # number: "EUR 320¹" states 320, not 3201 (case B37); elsewhere it is a digit ("m²" = "m2").
    text = _MARK_AFTER_DIGIT.sub(" ", text)
    text = unicodedata.normalize("NFKC", text) if any(c in MARKS for c in text) else text
    text = unicodedata.normalize("NFC", text)
    text = _REF_MARKER.sub(" ", text)
    # Unify dashes; a soft hyphen counts as a hyphen, so "01-2301" typed with "-" equals the
    # source's "01\u00ad2301" (a soft hyphen inside a word only splits an ident-free word).
    text = text.replace("\u00ad", "-")
    return re.sub("[\u2010\u2011\u2012\u2013\u2014\u2212]", "-", text)


def _scan(text: str) -> list[Fact]:
    """Facts of a text whose number words are already digits."""
    # alpha2digit turns "por ciento" into "por 100"; both, and "per cent", are a percent sign
    text = re.sub(r"(?i)\b(?:por\s+(?:ciento|100)|per\s*cent|percent)\b", "%", text)
    facts: list[Fact] = []
    taken = [False] * len(text)

    def free(a: int, b: int) -> bool:
        return not any(taken[a:b])

    def take(a: int, b: int) -> None:
        for i in range(a, b):
            taken[i] = True

    # dates first: they contain numbers that are not amounts
    for m in _ISO_DATE.finditer(text):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        if _valid(y, mo, d):
            facts.append(Fact("date", frozenset({(y, mo, d)}), text=m[0]))
            take(*m.span())
    for m in _NUM_DATE.finditer(text):
        if not free(*m.span()):
            continue
        a, b, y = int(m[1]), int(m[3]), _year(m[4])
        vals = {(y, mo, d) for d, mo in ((a, b), (b, a)) if _valid(y, mo, d)}
        if vals:
            facts.append(Fact("date", frozenset(vals), text=m[0]))
            take(*m.span())
    for m in _DAY_MONTH.finditer(text):
        if not free(*m.span()):
            continue
        d, mo = int(m[1]), _MONTHS[m[2].casefold()]
        y = int(m[3]) if m[3] else None
        if _valid(y, mo, d):
            facts.append(Fact("date", frozenset({(y, mo, d)}), text=m[0]))
            take(*m.span())
    for m in _MONTH_DAY.finditer(text):
        if not free(*m.span()):
            continue
        mo, d = _MONTHS[m[1].casefold()], int(m[2])
        y = int(m[3]) if m[3] else None
        if _valid(y, mo, d):
            facts.append(Fact("date", frozenset({(y, mo, d)}), text=m[0]))
            take(*m.span())
    for m in _MONTH_YEAR.finditer(text):
        if not free(*m.span()):
            continue
        facts.append(Fact("date", frozenset({(int(m[2]), _MONTHS[m[1].casefold()], None)}), text=m[0]))
        take(*m.span())
    # identifiers: letters glued to digits
    for m in _IDENT.finditer(text):
        if not free(*m.span()):
            continue
        ident = m[0].casefold().rstrip(".-")
        plain = _ORDINAL_OR_UNIT.fullmatch(ident)
        if plain and (plain[1] is None or plain[1] in _UNITS or plain[1] in _QUALIFIERS or plain[1] in _CURRENCY_WORDS):
            continue  # "1st", "30-day", "36-month", "100euros": a number with a suffix, read below
        facts.append(Fact("ident", frozenset({ident}), text=m[0]))
        take(*m.span())
    # numbers with what surrounds them
    numbers = [m for m in _NUMBER.finditer(text) if free(*m.span())]
    skip: set[int] = set()
    for idx, m in enumerate(numbers):
        if idx in skip:
            continue
        values = _readings(m[1])
        if not values:
            continue
        end = m.end()
        # "thirty (30) days": a parenthesised repeat of the same number is the same fact
        if idx + 1 < len(numbers):
            nxt = numbers[idx + 1]
            gap = text[end : nxt.start()]
            if re.fullmatch(r"\s*\(", gap) and text[nxt.end() : nxt.end() + 1] == ")" and _readings(nxt[1]) & values:
                skip.add(idx + 1)
                end = nxt.end() + 1
        before = text[max(0, m.start() - 12) : m.start()]
        after = text[end : end + 40]
        kind, unit = "number", ""
        if (w := re.match(r"\s*(%)", after, re.IGNORECASE)):
            kind = "percent"
        elif (w := re.match(r"\s*([€$£]|[^\W\d_]+)", after)) and w[1].casefold() in _CURRENCY_WORDS:
            kind, unit = "money", _CURRENCY_WORDS[w[1].casefold()]
        elif (b := re.search(r"([€$£]|\b[A-Za-z]{3}|US\$)\s*$", before)) and b[1].casefold() in _CURRENCY_WORDS:
            kind, unit = "money", _CURRENCY_WORDS[b[1].casefold()]
        else:
            w = re.match(r"\s*-?\s*([^\W\d_]+)(?:\s+([^\W\d_]+))?", after)
            if w:
                first = w[1].casefold()
                second = (w[2] or "").casefold()
                if first in _UNITS:
                    kind, unit = "duration", _UNITS[first]
                elif first in _QUALIFIERS and second in _UNITS:
                    kind, unit = "duration", _UNITS[second]
        facts.append(Fact(kind, values, unit, text=text[m.start() : end]))
    return facts


@lru_cache(maxsize=4096)
def facts_of(text: str, lang: str | None = None, *, permissive: bool = False) -> tuple[Fact, ...]:
    """Facts of ``text``.

    Args:
        text: a claim or a quote (raw text; it is prepared here).
        lang: language of the number words (``"en"``/``"es"``); ``None`` detects it.
        permissive: read number words in every supported language and from zero
            upwards (for quotes, which should offer every reading they support);
            otherwise only ``lang`` and isolated words above three (for claims,
            whose facts are requirements).

    Returns:
        The facts, in no particular order (a tuple, so results can be cached).
    """
    prepared = _prepare(text)
    if permissive:
        seen: dict[Fact, None] = {}
        for f in _scan(prepared):
            seen.setdefault(f, None)
        for code in SUPPORTED_LANGS:
            for f in _scan(_words_to_digits(prepared, code, 0)):
                seen.setdefault(f, None)
        return tuple(seen)
    code = lang or detect_language(prepared)
    return tuple(_scan(_words_to_digits(prepared, code, 3)))


def _numeric_values(f: Fact) -> frozenset:
    if f.kind == "date":
        return frozenset(Decimal(p) for v in f.values for p in v if p is not None)
    if f.kind == "ident":
        return frozenset()
    return f.values


def _found(fact: Fact, offered: tuple[Fact, ...]) -> bool:
    for q in offered:
        if fact.kind == "number":
            if fact.values & _numeric_values(q):
                return True
        elif fact.kind == "date":
            if q.kind == "date" and any(
                all(c is None or c == qc for c, qc in zip(cv, qv)) for cv in fact.values for qv in q.values
            ):
                return True
        elif q.kind == fact.kind and q.unit == fact.unit and fact.values & q.values:
            return True
    return False


def missing_facts(claim: str, quotes: list[str], lang: str | None = None) -> list[Fact]:
    """Facts of ``claim`` that none of ``quotes`` carries (empty list: the check passes).

    Args:
        claim: the sentence shown to the user.
        quotes: the verified quotes (the source's text at the matched spans).
        lang: the claim's language; ``None`` detects it.
    """
    required = facts_of(claim, lang)
    if not required:
        return []
    offered = tuple(f for q in quotes for f in facts_of(q, permissive=True))
    return [f for f in required if not _found(f, offered)]
