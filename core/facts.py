"""Facts check (funnel step 4): the numbers in a claim must be in its quotes.

A claim that passes the literal check can still state a fact its quotes do not
carry ("within 60 days" citing "within thirty (30) days"). This module extracts
the *facts* of a text — plain numbers, percentages, amounts with a currency,
durations, dates and alphanumeric identifiers — and checks that every fact of a
claim appears in at least one of its verified quotes, in whatever form the quote
writes it.

Number words are converted by ``text2num`` (``alpha2digit``, English and
Spanish, "catorce" → 14, "thirty-five" → 35, "catorce mil cuatrocientos" → 14400,
"the fifth day" → "the 5th day"). Dates are read by :mod:`core.dates`. What is
written here by hand is only the comparison logic, which no library provides:
reading digit groups with either decimal convention, attaching units, currencies,
cents, multipliers and percent signs to numbers, ranges, and deciding when two
facts are the same.

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
  (€, EUR, euros; $, USD, dollars, dólares; £, GBP, pounds, libras), with its cents
  ("14400 euros con 50 céntimos", "14400 and 50/100 dollars" = 14400.50) and a
  multiplier word ("EUR 1.5 million", "1,5 millones de euros" = 1500000); found only
  as an amount of the same value in the same currency.
* ``duration`` — a number followed by a unit of time (days/días, weeks/semanas,
  fortnights/quincenas, months/meses, quarters/trimestres, semesters/semestres,
  years/años, hours/horas, minutes/minutos), optionally with one qualifier between
  ("30 calendar days") or a hyphen ("30-day", "two-year"); found as a duration of the
  same length: the same value and unit, or an exact conversion ("12 months" = "one (1)
  year", "2 weeks" = "14 days", "48 hours" = "2 days"; months and years are never
  converted to days or weeks). A business day ("business", "working", "banking" days,
  "días hábiles", "laborables") is its own unit, never converted and never equal to a
  plain day; a calendar day ("calendar", "natural", "días naturales", "corridos") is a
  plain day, since a contract's unqualified "days" are calendar days. So "25 calendar
  days" is missing from "25 working days", "45 days" from "forty-five (45) Business
  Days", and "30 calendar days" is found in "thirty (30) days". The count may be a
  small word: "one"/"two"/"three", "un"/"una"/"dos"/"tres" before a unit ("two months",
  "one year's notice", "dos meses", "un mes") and "a"/"an" before a possessive unit ("a
  month's notice") are durations in a claim too, and "two (2) years" is 2 years, not a
  bare 2 that any unit would match (issue #21, tryout3 finding 1).
* ``date`` — see :mod:`core.dates`; found if a date of the quotes agrees on every
  part the claim states. A numeric date ("01/02/2024") is read in its document's
  convention (``date_order``); when that is unknown it carries both readings, and a
  claim date that agrees with only one of them is *uncertain*, not found
  (:func:`check_facts`).
* ``ident`` — letters glued to digits ("K-40", "PO-2024-0017", "v2.1", "R3"),
  with sub-division letters in parentheses ("ART-12.3(b)", "12.3(b)"); found only
  as the same identifier (case-folded, dashes unified), so "v2.10" never matches
  "v2.1" and "ART-12.3(b)" never "ART-12.3(a)".

Periods and anchors (:mod:`core.fact_context`): an amount or percentage carries the period it is
a rate per ("1.5 % per month", "a monthly fee of $2,000", "1.200 euros anuales"), a duration the
event side it counts to ("30 days prior to" / "following"); a claim's period or anchor must be one
its quotes give the same value, unless they give it none ("1.5 % per annum" is missing from "1.5%
per month", found in "1.5%").

Ranges: in "30 to 60 days", "30-60 days", "between 30 and 60 days", "entre 30 y 60
días", "5-10 %" both numbers take the unit written after the second, and in "EUR 5 to
10" both take the currency written before the first.

Number words are read in the claim's language (py3langid via
:func:`core.textproc.detect_language`), isolated words only from four upwards
(``alpha2digit``'s default threshold, so "one of the parties" states no fact),
ordinal words up to "tenth"/"décimo" not at all unless they name a day of a month
("third parties" and "first refusal" state no fact; "the fifth day of January" does),
and in the quotes in both languages from zero upwards, so a quote offers every
reading it can support. Bracketed reference markers ("[3]") are ignored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from text_to_num import alpha2digit

from core.dates import MONTHS, scan_dates
from core.fact_context import anchor_of, event_of, period_of, same_event
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
    "fortnight": "fortnight", "fortnights": "fortnight", "quincena": "quincena", "quincenas": "quincena",
    "month": "month", "months": "month", "mes": "month", "meses": "month",
    "mensualidad": "month", "mensualidades": "month",  # "tres mensualidades de renta" = three months' rent
    "quarter": "quarter", "quarters": "quarter", "trimestre": "quarter", "trimestres": "quarter",
    "semester": "semester", "semesters": "semester", "semestre": "semester", "semestres": "semester",
    "year": "year", "years": "year", "año": "year", "años": "year", "ano": "year", "anos": "year",
    "hour": "hour", "hours": "hour", "hora": "hour", "horas": "hour",
    "minute": "minute", "minutes": "minute", "minuto": "minute", "minutos": "minute",
}
# Exact conversions between units: (family, size in the family's smallest unit). Days and
# months are different families: a month is not a fixed number of days.
_UNIT_SIZE = {
    "minute": ("clock", 1), "hour": ("clock", 60), "day": ("clock", 1440), "week": ("clock", 10080),
    "fortnight": ("clock", 20160), "quincena": ("clock", 21600),
    "month": ("calendar", 1), "quarter": ("calendar", 3), "semester": ("calendar", 6), "year": ("calendar", 12),
    "business day": ("business", 1),
}
_QUALIFIERS = {"calendar", "business", "working", "consecutive", "full", "clear", "banking", "bank", "natural",
               "hábiles", "habiles", "hábil", "habil", "naturales", "laborables", "laborable", "calendario",
               "corridos"}
# Qualifiers that make a day a business day (written before the unit in English, after it in
# Spanish: "30 business days", "30 días hábiles"). A business day is its own unit ("business
# day"), never converted: 10 business days are not 2 weeks. "calendar"/"natural"/"naturales"/
# "corridos" days, and "clear"/"full"/"consecutive" days, are plain days: in a contract "days"
# without a qualifier are calendar days, so "30 calendar days" is found in "30 days".
_BUSINESS = {"business", "working", "banking", "bank", "hábiles", "habiles", "hábil", "habil", "laborables", "laborable"}
_MULTIPLIERS = {
    "thousand": 10**3, "thousands": 10**3, "mil": 10**3,
    "million": 10**6, "millions": 10**6, "millón": 10**6, "millon": 10**6, "millones": 10**6, "mio": 10**6,
    "billion": 10**9, "billions": 10**9, "bn": 10**9,  # English billion; Spanish "billón" (10^12) is not read
}
_CENTS = r"(?:céntimos?|centimos?|cents?|centavos?)"
# Ordinal words that are vocabulary more often than facts ("third parties", "first refusal"):
# a claim's are left as words unless they name a day of a month.
_ORDINAL_WORDS = (r"(?<![\w-])(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                  r"primer[oa]?s?|segund[oa]s?|tercer[oa]?s?|cuart[oa]s?|quint[oa]s?|sext[oa]s?|s[ée]ptim[oa]s?|"
                  r"octav[oa]s?|noven[oa]s?|d[ée]cim[oa]s?)(?![\w-])")
_BEFORE_MONTH = (r"\s+(?:day\s+of\s+|d[ií]a\s+del?\s+|of\s+|de\s+|del\s+mes\s+de\s+)?(?:the\s+month\s+of\s+)?"
                 r"(?:(?-i:May|MAY)|" + "|".join(sorted((m for m in MONTHS if m != "may"), key=len, reverse=True))
                 + r")\b")
_SMALL_ORDINALS = re.compile(_ORDINAL_WORDS + rf"(?!{_BEFORE_MONTH})", re.IGNORECASE)
_DAY_ORDINAL = re.compile(_ORDINAL_WORDS + rf"(?={_BEFORE_MONTH})", re.IGNORECASE)
_ORDINAL_VALUE = {w: i for i, ws in enumerate([
    ("first", "primer", "primero", "primera"), ("second", "segundo", "segunda"), ("third", "tercer", "tercero", "tercera"),
    ("fourth", "cuarto", "cuarta"), ("fifth", "quinto", "quinta"), ("sixth", "sexto", "sexta"),
    ("seventh", "séptimo", "septimo", "séptima", "septima"), ("eighth", "octavo", "octava"),
    ("ninth", "noveno", "novena"), ("tenth", "décimo", "decimo", "décima", "decima")], start=1) for w in ws}

_NUM = NUMBER
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
# Between the two numbers of a range: "30 to 60", "30-60", "30 a 60", "30 or 60", "30 through 60".
_RANGE_GAP = re.compile(r"\s*(?:-|to|a|al|hasta|through|or|o|and|y"
                        # the two bounds of a range written out: "not less than 30 nor more than 60 days",
                        # "no menos de 30 ni más de 60 días"
                        r"|,?\s*(?:and|or|nor|but)\s+(?:not\s+|no\s+)?(?:more|greater|less|fewer|later|earlier)\s+than"
                        r"|,?\s*(?:y|ni|o)\s+(?:no\s+)?(?:m[áa]s|menos)\s+de)\s*", re.IGNORECASE)
_RANGE_AND = re.compile(r"(?:between|entre)\s+$", re.IGNORECASE)


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
        ambiguous: a numeric date whose readings depend on an unknown convention.
        period: of an amount or percentage, the period it is a rate per ("month", "year", …;
            ``""`` none stated; :func:`core.fact_context.period_of`).
        anchor: of a duration, ``"before"``/``"after"`` the event it counts from (``""`` none
            stated; :func:`core.fact_context.anchor_of`).
        event: of an anchored duration, the stems of the event it counts from
            (:func:`core.fact_context.event_of`; empty when none is written after the anchor).
    """

    kind: str
    values: frozenset
    unit: str = ""
    text: str = ""
    ambiguous: bool = field(default=False, compare=False)
    period: str = ""
    anchor: str = ""
    event: frozenset = frozenset()

    def describe(self) -> str:
        """Short human text of the fact, for rejection messages."""
        unit = f" {self.unit}" if self.unit else ""
        context = f" per {self.period}" if self.period else f" {self.anchor}" if self.anchor else ""
        return f"{self.kind} '{self.text.strip()}'{unit}{context}"


# "one thousand, one hundred": a comma inside a number written in words (num2words writes it so)
# would split it in two numbers for text2num.
_WORD_NUMBER_COMMA = re.compile(
    r"(?i)\b(thousand|million|billion)\s*,\s+(?=(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety)\b)"
)


# A multiplier word right after digits ("EUR 1.5 million", "2 millones de euros") is read by
# _attach with its number; text2num 3.1 would turn the lone word into its own number ("1.5 1000000"),
# so a claim "$2 million" stated 2 dollars and a separate 1000000 (bug found 2026-12-02).
_DIGIT_MULTIPLIER = re.compile(r"(?<=\d)\s+(?:" + "|".join(sorted(_MULTIPLIERS, key=len, reverse=True)) + r")\b",
                               re.IGNORECASE)


def _words_to_digits(text: str, lang: str, threshold: float, keep_ordinals: bool = False) -> str:
    # text2num reads "veintiuno" but not the apocopated "veintiún" before a noun.
    text = re.sub(r"(?i)veintiún\b", "veintiuno", text)
    text = _WORD_NUMBER_COMMA.sub(r"\1 ", text)
    text = _WORD_HYPHEN_UNIT.sub(" ", text)
    try:
        if keep_ordinals:
            # a small ordinal naming a day of a month is a date part ("the first of May"): its digits
            text = _DAY_ORDINAL.sub(lambda m: f"{_ORDINAL_VALUE.get(m[0].casefold(), m[0])}º"
                                    if m[0].casefold() in _ORDINAL_VALUE else m[0], text)
        # text2num 3.1 converts ordinals whatever the threshold, and a multiplier after digits on its
        # own: convert around them.
        kept = sorted([m.span() for m in _DIGIT_MULTIPLIER.finditer(text)]
                      + ([m.span() for m in _SMALL_ORDINALS.finditer(text)] if keep_ordinals else []))
        out, pos = [], 0
        for start, end in kept:
            if start < pos:
                continue
            out += [alpha2digit(text[pos:start], lang, threshold=threshold) if start > pos else "", text[start:end]]
            pos = end
        out.append(alpha2digit(text[pos:], lang, threshold=threshold) if pos < len(text) else "")
        return _small_counts("".join(out))
    except Exception:  # noqa: BLE001 - a parser failure must not break verification
        return text


# text2num's threshold is one number for the whole text: a claim is read with threshold 3 so that
# "one of the parties" states no fact, which also left "two months", "one year's notice", "dos
# meses", "un mes" without a fact, and "two (2) years" as a bare 2 (tryout3 finding 1). text2num
# has no option to convert small numbers only before a unit noun, so that step is written here:
# after alpha2digit (so "thirty one days" and "treinta y un días" are already 31), an isolated word
# zero..three (en/es) right before a unit of time, optionally with its "(2)" repeat, a hyphen
# ("two-year") or a qualifier ("two business days", "dos días hábiles"), becomes its digits; and
# "a"/"an" before a possessive unit ("a month's notice", "a year's salary") becomes 1.
_SMALL_COUNTS = {"zero": 0, "cero": 0, "one": 1, "un": 1, "una": 1, "uno": 1, "two": 2, "dos": 2,
                 "three": 3, "tres": 3}
_UNIT_WORDS = "|".join(sorted(_UNITS, key=len, reverse=True))
_QUALIFIER_WORDS = "|".join(sorted(_QUALIFIERS, key=len, reverse=True))
_SMALL_COUNT = re.compile(
    rf"(?<![\w-])({'|'.join(_SMALL_COUNTS)})(?=(?:\s*\(\s*\d+\s*\))?(?:\s+|\s*-\s*)(?:(?:{_QUALIFIER_WORDS})\s+)?"
    rf"(?:{_UNIT_WORDS})\b)", re.IGNORECASE)
_A_UNIT_POSSESSIVE = re.compile(rf"(?<![\w-])an?(?=\s+(?:(?:{_QUALIFIER_WORDS})\s+)?(?:{_UNIT_WORDS})['\u2019]s\b)",
                                re.IGNORECASE)


# "five-year", "two-month": text2num leaves a number word hyphenated to a noun as it is; a space
# there lets it read the number ("five year" -> "5 year"), and _attach reads "5 year" like "5-year".
_WORD_HYPHEN_UNIT = re.compile(rf"(?<=[^\W\d_])-(?=(?:(?:{_QUALIFIER_WORDS})-)?(?:{_UNIT_WORDS})\b)", re.IGNORECASE)


def _small_count(m: re.Match) -> str:
    # A small word that ends a longer number ("treinta y un días", "thirty one days" read in the
    # other language, so not converted by alpha2digit) is left alone rather than read as 1.
    before = " ".join(m.string[max(0, m.start() - 30) : m.start()].split()[-3:])
    if before:
        for code in SUPPORTED_LANGS:
            read = alpha2digit(f"{before} {m[1]}", code, threshold=0).split()
            if read and read[-1].isdigit() and int(read[-1]) != _SMALL_COUNTS[m[1].casefold()]:
                return m[0]
    return str(_SMALL_COUNTS[m[1].casefold()])


def _small_counts(text: str) -> str:
    text = _SMALL_COUNT.sub(_small_count, text)
    return _A_UNIT_POSSESSIVE.sub("1", text)


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


@dataclass
class _Num:
    """A number being read: its span, readings, and what was attached to it."""

    start: int
    end: int
    values: frozenset
    kind: str = "number"
    unit: str = ""
    prefix_currency: bool = False


def _attach(text: str, n: _Num) -> None:
    """Attach to ``n`` what follows or precedes it: cents, a multiplier, %, a currency, a unit."""
    after = text[n.end : n.end + 60]
    # a number alone in parentheses ("(2) years" after a number word left as a word) takes
    # what follows the closing parenthesis
    if n.start and text[n.start - 1] == "(" and after.startswith(")"):
        after = after[1:]
    # "14400 and 50/100 dollars" (US cheque style)
    if (c := re.match(r"\s+(?:and|y|con)\s+(\d{2})/100\b", after, re.IGNORECASE)):
        n.values = frozenset(v + Decimal(c[1]) / 100 for v in n.values)
        n.end += c.end()
        after = text[n.end : n.end + 60]
    if (mul := re.match(r"\s*([^\W\d_]+)\b", after)) and mul[1].casefold() in _MULTIPLIERS:
        factor = _MULTIPLIERS[mul[1].casefold()]
        n.values = frozenset((v * factor).normalize() for v in n.values)
        n.end += mul.end()
        after = text[n.end : n.end + 60]
    before = text[max(0, n.start - 12) : n.start]
    if re.match(r"\s*%", after):
        n.kind = "percent"
    # "2,000 U.S. dollars", "United States dollars": the country read with its dollar (a "Canadian dollar" is not one)
    elif (w := re.match(r"\s*(?:de\s+)?(?:U\.\s?S\.|US(?=\s)|United\s+States)?\s*([€$£]|[^\W\d_]+)", after, re.IGNORECASE)) \
            and w[1].casefold() in _CURRENCY_WORDS:
        n.kind, n.unit = "money", _CURRENCY_WORDS[w[1].casefold()]
        rest = text[n.end + w.end() : n.end + w.end() + 40]
        if (c := re.match(rf"\s*(?:,|con|y|and)\s+(\d{{1,2}})\s+{_CENTS}\b", rest, re.IGNORECASE)):
            n.values = frozenset(v + Decimal(c[1]) / 100 for v in n.values)
    elif (b := re.search(r"([€$£]|\b[A-Za-z]{3}|US\$)\s*$", before)) and b[1].casefold() in _CURRENCY_WORDS:
        n.kind, n.unit, n.prefix_currency = "money", _CURRENCY_WORDS[b[1].casefold()], True
    elif (w := re.match(r"\s*-?\s*([^\W\d_]+)(?:\s+([^\W\d_]+))?", after)):
        first, second = w[1].casefold(), (w[2] or "").casefold()
        if first in _UNITS:
            n.kind, n.unit = "duration", _UNITS[first]
            if n.unit == "day" and second in _BUSINESS:  # "30 días hábiles"
                n.unit = "business day"
        elif first in _QUALIFIERS and second in _UNITS:
            n.kind, n.unit = "duration", _UNITS[second]
            if n.unit == "day" and first in _BUSINESS:  # "30 business days"
                n.unit = "business day"


def _ranges(text: str, nums: list[_Num]) -> None:
    """Give both numbers of a range the unit, percent sign or currency written once."""
    for a, b in zip(nums, nums[1:]):
        gap = text[a.end : b.start]
        if not _RANGE_GAP.fullmatch(gap):
            continue
        word = gap.strip().casefold()
        if word in ("and", "y") and not _RANGE_AND.search(text[max(0, a.start - 12) : a.start]):
            continue  # "5 and 30 days" is a range only after "between"/"entre"
        if a.kind == "number" and b.kind in ("duration", "percent") or (b.kind == "money" and not b.prefix_currency):
            if a.kind == "number":
                a.kind, a.unit = b.kind, b.unit
        elif a.kind == "money" and a.prefix_currency and b.kind == "number":
            b.kind, b.unit = a.kind, a.unit


def _scan(text: str, date_order: str) -> list[Fact]:
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
    for d in scan_dates(text, date_order):
        facts.append(Fact("date", d.values, text=text[d.span[0] : d.span[1]], ambiguous=d.ambiguous))
        take(*d.span)
    # identifiers: letters glued to digits
    for m in _IDENT.finditer(text):
        if not free(*m.span()):
            continue
        ident = m[0].casefold().rstrip(".-")
        plain = _ORDINAL_OR_UNIT.fullmatch(ident)
        if plain and (plain[1] is None or plain[1] in _UNITS or plain[1] in _QUALIFIERS or plain[1] in _CURRENCY_WORDS
                      or plain[1] in _MULTIPLIERS):
            continue  # "1st", "30-day", "36-month", "100euros", "5m": a number with a suffix, read below
        facts.append(Fact("ident", frozenset({ident}), text=m[0]))
        take(*m.span())
    # numbers with what surrounds them
    numbers = [m for m in _NUMBER.finditer(text) if free(*m.span())]
    nums: list[_Num] = []
    skip: set[int] = set()
    for idx, m in enumerate(numbers):
        if idx in skip:
            continue
        values = number_readings(m[1])
        if not values:
            continue
        n = _Num(m.start(), m.end(), values)
        # "thirty (30) days": a parenthesised repeat of the same number is the same fact
        if idx + 1 < len(numbers):
            nxt = numbers[idx + 1]
            gap = text[n.end : nxt.start()]
            if re.fullmatch(r"\s*\(", gap) and text[nxt.end() : nxt.end() + 1] == ")" and number_readings(nxt[1]) & values:
                skip.add(idx + 1)
                n.end = nxt.end() + 1
        _attach(text, n)
        nums.append(n)
    _ranges(text, nums)
    facts += [Fact(n.kind, n.values, n.unit, text=text[n.start : n.end],
                   period=period_of(text, n.start, n.end) if n.kind in ("money", "percent") else "",
                   anchor=anchor_of(text, n.end) if n.kind == "duration" else "",
                   event=event_of(text, n.end) if n.kind == "duration" else frozenset()) for n in nums]
    return facts


@lru_cache(maxsize=4096)
def facts_of(text: str, lang: str | None = None, *, permissive: bool = False, date_order: str = "") -> tuple[Fact, ...]:
    """Facts of ``text``.

    Args:
        text: a claim or a quote (raw text; it is prepared here).
        lang: language of the number words (``"en"``/``"es"``); ``None`` detects it.
        permissive: read number words in every supported language and from zero
            upwards, ordinals too (for quotes, which should offer every reading they
            support); otherwise only ``lang``, isolated words above three and no
            ordinal word up to "tenth" outside a date (for claims, whose facts are
            requirements).
        date_order: the numeric-date convention of the text's document
            (:func:`core.dates.date_order`: ``"dmy"``, ``"mdy"``, ``""`` unknown).

    Returns:
        The facts, in no particular order (a tuple, so results can be cached).
    """
    prepared = _prepare(text)
    if permissive:
        seen: dict[Fact, None] = {}
        for f in _scan(prepared, date_order):
            seen.setdefault(f, None)
        for code in SUPPORTED_LANGS:
            # with ordinal words read and kept: "thirty second" is 32nd or 30 seconds, and a claim
            # citing the sentence reads the latter (found in a self-citation probe, 2026-12-02)
            for keep in (False, True):
                for f in _scan(_words_to_digits(prepared, code, 0, keep_ordinals=keep), date_order):
                    seen.setdefault(f, None)
        return tuple(seen)
    code = lang or detect_language(prepared)
    return tuple(_scan(_words_to_digits(prepared, code, 3, keep_ordinals=True), date_order))


def _numeric_values(f: Fact) -> frozenset:
    if f.kind == "date":
        return frozenset(Decimal(p) for v in f.values for p in v if p is not None)
    if f.kind == "ident":
        return frozenset()
    return f.values


def _lengths(f: Fact) -> tuple[str, frozenset]:
    family, size = _UNIT_SIZE[f.unit]
    return family, frozenset(v * size for v in f.values)


def _agree(c: tuple, q: tuple) -> bool:
    return all(cp is None or cp == qp for cp, qp in zip(c, q))


def _match(fact: Fact, offered: tuple[Fact, ...]) -> int:
    """2: a quote carries ``fact``; 1: only under one reading of an ambiguous numeric date; 0: none.

    A claim's rate period or duration anchor (:mod:`core.fact_context`) must be among those the
    quotes state with the same value, unless they state that value only without one: "1.5 % per
    annum" is not carried by "1.5% per month", is by "1.5%" alone. An anchor said of another event
    than the claim's (both events written, no stem shared) is no conflict: "the Effective Date is 30
    days after the notice" is carried by "notice 30 days prior to the Effective Date" (the converse)."""
    context = fact.period or fact.anchor
    if context and fact.kind in ("money", "percent", "duration"):
        same = [q for q in offered if _match(Fact(fact.kind, fact.values, fact.unit), (q,)) == 2]
        if fact.anchor:
            same = [q for q in same if not (q.anchor and q.anchor != fact.anchor and not same_event(fact.event, q.event))]
            if not same:  # only the converse, said of other events: found, as without an anchor
                return 2 if _match(Fact(fact.kind, fact.values, fact.unit), offered) == 2 else 0
        stated = {q.period or q.anchor for q in same}
        return 2 if context in stated or (same and stated == {""}) else 0
    best = 0
    for q in offered:
        if fact.kind == "number":
            if fact.values & _numeric_values(q):
                return 2
        elif fact.kind == "date":
            if q.kind != "date" or not any(_agree(c, v) for c in fact.values for v in q.values):
                continue
            if not (fact.ambiguous or q.ambiguous):
                return 2
            # certain only if every reading of either side agrees with a reading of the other
            if all(any(_agree(c, v) for v in q.values) for c in fact.values) and all(
                any(_agree(c, v) for c in fact.values) for v in q.values
            ):
                return 2
            best = 1
        elif fact.kind == "duration":
            if q.kind == "duration":
                (fam, lens), (qfam, qlens) = _lengths(fact), _lengths(q)
                if fam == qfam and lens & qlens:
                    return 2
        elif q.kind == fact.kind and q.unit == fact.unit and fact.values & q.values:
            return 2
    return best


@dataclass(frozen=True)
class FactsCheck:
    """What :func:`check_facts` found.

    Attributes:
        missing: facts of the claim that no quote carries.
        uncertain: dates of the claim that a quote carries only under one reading of
            a numeric date whose document's convention is unknown ("1 February 2024"
            against "01/02/2024" in an English document with no other proof).
    """

    missing: list[Fact]
    uncertain: list[Fact]


def check_facts(claim: str, quotes: list[str], lang: str | None = None, date_order: str = "") -> FactsCheck:
    """Check every fact of ``claim`` against ``quotes``.

    Args:
        claim: the sentence shown to the user.
        quotes: the verified quotes (the source's text at the matched spans).
        lang: the claim's language; ``None`` detects it.
        date_order: the numeric-date convention of the quotes' document
            (:func:`core.dates.date_order`); the claim's own numeric dates are read in
            the same convention (the model wrote them from that document).
    """
    required = facts_of(claim, lang, date_order=date_order)
    if not required:
        return FactsCheck([], [])
    offered = tuple(f for q in quotes for f in facts_of(q, permissive=True, date_order=date_order))
    missing, uncertain = [], []
    for f in required:
        found = _match(f, offered)
        if found == 0:
            missing.append(f)
        elif found == 1:
            uncertain.append(f)
    return FactsCheck(missing, uncertain)


def carries(text: str, fact: Fact, date_order: str = "") -> bool:
    """Whether ``text`` carries ``fact`` in any form, as :func:`check_facts` finds a claim's fact in a quote
    (``text`` read permissively: "thirty-six (36) months" carries the duration 3 years)."""
    return _match(fact, facts_of(text, permissive=True, date_order=date_order)) == 2


def missing_facts(claim: str, quotes: list[str], lang: str | None = None, date_order: str = "") -> list[Fact]:
    """Facts of ``claim`` that none of ``quotes`` carries (empty list: the check passes).

    A date carried only under one reading of an ambiguous numeric date counts as
    missing here (use :func:`check_facts` to tell the two apart).

    Args:
        claim: the sentence shown to the user.
        quotes: the verified quotes (the source's text at the matched spans).
        lang: the claim's language; ``None`` detects it.
        date_order: see :func:`check_facts`.
    """
    result = check_facts(claim, quotes, lang, date_order)
    return result.missing + result.uncertain
