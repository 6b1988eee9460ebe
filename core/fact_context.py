"""What the words around a number say about it: the period of a rate, the anchor of a duration.

The facts check (:mod:`core.facts`) finds "1.5 %" in "one and a half percent (1.5%) per month",
so a claim "interest accrues at 1.5 % per annum" passed it, and "notice 30 days after the
Effective Date" passed against "thirty (30) days prior to the Effective Date" (issue #21: silent
contradictions that are not a negation). Two readings are added here, each a closed word list
(English and Spanish) over the text right beside the number:

* **period** of an amount or a percentage — ``"hour" | "day" | "week" | "month" | "quarter" |
  "half" | "year"`` or ``""`` (none stated): after it ("per month", "a month", "each month", "monthly",
  "/month", "per annum", "p.a.", "al mes", "por año", "mensuales", "anual") or before it, as an
  adjective of the noun the number is the value of ("a monthly fee of $2,000", "an annual rate of
  5 %", "renta mensual de 1.200 euros", at most two words between). "biweekly"/"bimonthly"/
  "bimensual" are left out on purpose: they mean twice a period or every two periods.
* **anchor** of a duration — ``"before" | "after"`` or ``""``: the preposition right after the
  unit ("30 days prior to", "before", "preceding", "in advance (of)", "ahead of", "previous to";
  "30 days after", "following", "from", "subsequent to", "thereafter"; "30 días antes de", "con
  anterioridad a", "de antelación"; "después de", "tras", "siguientes a", "a partir de",
  "desde", "contados desde"). "within 30 days of X" has no anchor ("of" is read both ways in
  contracts), "30 days before or after" neither, and "30 days' prior written notice" none
  ("prior" there qualifies the notice, and "terminate 30 days after giving notice" says the same).

How the facts check uses them (:func:`core.facts.check_facts`): a claim's amount, percentage or
duration with a period or anchor is found only if some quote states the same value with the same
period or anchor, or states it only without one (the claim then adds a detail, which is not a
contradiction); a quote that states the value only with another period or anchor contradicts it.
A duration's anchor conflicts only with one said of the same event (:func:`event_of`, the first
content words after the anchor): "the Effective Date is at least 30 days after the notice" says what
"notice 30 days prior to the Effective Date" says (the converse), and is found in it.
No conversion between periods: "1.5 % per month" is not "18 % per annum" (simple and compound
interest differ), and "EUR 100 per month" is not "EUR 1,200 per annum" to this check.

Why by hand: no library tags the period of a rate or the anchor of a legal duration; the lists
are the ordinary English and Spanish forms (Black's Law Dictionary's "per annum", "per diem" left
out as a daily allowance, not a rate; RAE's "mensual", "anual", "semestral", "trimestral").
"""

from __future__ import annotations

import re

# Period words → the period. Closed lists; a word meaning "twice"/"every two" is not here.
_PERIOD_NOUNS = {
    "hour": "hour", "hora": "hour",
    "day": "day", "days": "day", "día": "day", "dia": "day",
    "week": "week", "semana": "week",
    "month": "month", "mes": "month", "calendar month": "month",
    "quarter": "quarter", "trimestre": "quarter",
    "semester": "half", "semestre": "half",
    "year": "year", "annum": "year", "año": "year", "ano": "year", "calendar year": "year",
}
_PERIOD_ADJECTIVES = {
    "hourly": "hour",
    "daily": "day", "diario": "day", "diaria": "day", "diarios": "day", "diarias": "day",
    "weekly": "week", "semanal": "week", "semanales": "week",
    "monthly": "month", "mensual": "month", "mensuales": "month", "mensualmente": "month",
    "quarterly": "quarter", "trimestral": "quarter", "trimestrales": "quarter", "trimestralmente": "quarter",
    "semiannual": "half", "semi-annual": "half", "semiannually": "half", "semi-annually": "half",
    "half-yearly": "half", "semestral": "half", "semestrales": "half", "semestralmente": "half",
    "annual": "year", "annually": "year", "yearly": "year", "anual": "year", "anuales": "year",
    "anualmente": "year",
}
_NOUNS = "|".join(sorted((re.escape(w) for w in _PERIOD_NOUNS), key=len, reverse=True))
_ADJS = "|".join(sorted((re.escape(w) for w in _PERIOD_ADJECTIVES), key=len, reverse=True))
# Right after the amount or percentage (its currency word, "%" or a closing parenthesis skipped;
# "interest"/"de interés" may sit between: "1.5 % interest per month").
_SKIP = (r"(?:\s*(?:%|[€$£)]|\b(?:usd|eur|gbp|dollars?|euros?|pounds?|d[óo]lares|libras)\b))*"
         r"(?:\s+(?:of\s+)?(?:interest|de\s+inter[ée]s|inter[ée]s))?")
_PERIOD_AFTER = re.compile(
    rf"{_SKIP}\s*(?:(?:per|a|an|each|every|por|al|cada|by\s+the)\s+(?:calendar\s+)?({_NOUNS})\b|"
    rf"/\s*({_NOUNS}|yr|mo)(?![\w])|({_ADJS})(?![\w-])|(p\.\s?a\.|p/a)(?!\w))",
    re.IGNORECASE)
# Before the number: an adjective of the noun whose value it is, at most two words between, then
# an optional "of"/"de"/"at"/"equal to"/"is"/":" and an optional currency sign or code ("Monthly Fee: $2,000",
# the colon right after the noun, as schedules write it).
_PERIOD_BEFORE = re.compile(
    rf"(?<![\w-])({_ADJS})\s+(?:[^\W\d_]+(?:\s+|(?=:))){{0,2}}(?:(?:of|de|del|at|is|es|será\s+de|equal\s+to|igual\s+a|:)\s*)?"
    r"(?:[€$£]|US\$|\b(?:USD|EUR|GBP)\b)?\s*$",
    re.IGNORECASE)

# Anchors right after a duration's unit. The unit itself (and a possessive) is consumed first.
_BEFORE = (r"prior\s+to|before|preceding|previous\s+to|ahead\s+of|in\s+advance(?:\s+of)?|"
           r"antes\s+del?|con\s+anterioridad\s+al?|previos?\s+al?|previas?\s+al?|anteriores\s+al?|"
           r"de\s+antelaci[óo]n|de\s+anticipaci[óo]n|con\s+antelaci[óo]n")
_AFTER = (r"after|following|from|subsequent\s+to|succeeding|thereafter|"
          r"despu[ée]s\s+del?|tras|siguientes\s+al?|posteriores\s+al?|a\s+partir\s+del?|desde|"
          r"contad[oa]s\s+(?:desde|a\s+partir\s+del?)|a\s+contar\s+(?:desde|del?)")
_UNIT = (r"(?:days?|d[ií]as?|weeks?|semanas?|months?|mes|meses|years?|a[ñn]os?|hours?|horas?|quarters?|"
         r"trimestres?)")
_ANCHOR = re.compile(
    rf"\s*(?:\)\s*)?(?:-\s*)?(?:[^\W\d_]+\s+)?{_UNIT}\b(?:['\u2019]s?)?\s*(?:,\s*)?(?:(?:or\s+more|or\s+less|o\s+m[áa]s)\s+)?"
    rf"(?:(?:h[áa]biles|naturales|laborables|calendario|corridos)\s+)?(?:({_BEFORE})|({_AFTER}))\b",
    re.IGNORECASE)
_EITHER = re.compile(rf"\s*(?:or|and/or|o|y/o)\s+(?:{_BEFORE}|{_AFTER})\b", re.IGNORECASE)


def period_of(text: str, start: int, end: int) -> str:
    """The period of the amount or percentage written at ``text[start:end]`` (see the module
    docstring): ``"hour" | "day" | "week" | "month" | "quarter" | "half" | "year"``, or ``""`` when the
    text beside it states none. ``end`` is where the number (with an attached currency word, if
    any) ends; the currency or "%" after it is skipped here."""
    m = _PERIOD_AFTER.match(text, end)
    if m:
        if m[1]:
            return _PERIOD_NOUNS[" ".join(m[1].casefold().split())]
        if m[2]:
            word = m[2].casefold()
            return {"yr": "year", "mo": "month"}.get(word) or _PERIOD_NOUNS.get(word, "")
        if m[3]:
            return _PERIOD_ADJECTIVES[m[3].casefold()]
        return "year"  # "p.a.", "p/a": per annum
    b = _PERIOD_BEFORE.search(text[max(0, start - 60) : start])
    return _PERIOD_ADJECTIVES[b[1].casefold()] if b else ""


def anchor_of(text: str, end: int) -> str:
    """The anchor of the duration whose number ends at ``end`` in ``text`` (the unit follows):
    ``"before"`` ("30 days prior to"), ``"after"`` ("30 days following"), or ``""`` (none, or
    both: "30 days before or after")."""
    m = _ANCHOR.match(text, end)
    if not m:
        return ""
    if _EITHER.match(text, m.end()):
        return ""
    return "before" if m[1] else "after"


def same_event(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two events (:func:`event_of`) may be one: a shared stem, or a shared five-letter start ("expiry" /
    "expiration": Snowball's "expiri" / "expir"), or either unknown (empty: read strictly)."""
    if not a or not b or a & b:
        return True
    return bool({w[:5] for w in a if len(w) >= 5} & {w[:5] for w in b if len(w) >= 5})


# Words that name no particular event: "the date of X" is X's date ("30 days after the date of invoice").
_GENERIC = frozenset("date dates fecha fechas day days dia dias día días".split())


def event_of(text: str, end: int) -> frozenset[str]:
    """The event a duration is anchored to (:func:`anchor_of`), as the stems (:func:`core.textproc.tokenize`,
    English and Spanish) of the first three content words after the anchor, up to a punctuation mark;
    ``frozenset()`` when there is no anchor or nothing after it ("30 days thereafter"). "30 days prior to
    the Effective Date" → the stems of "effective". Generic words ("date", "fecha", "day") are left out:
    "30 days after the date of invoice" is anchored to the invoice."""
    from core.textproc import all_stopwords, tokenize

    m = _ANCHOR.match(text, end)
    if not m:
        return frozenset()
    rest = re.split(r"[,.;:()\[\]]", text[m.end() : m.end() + 120], maxsplit=1)[0]
    stops = all_stopwords()
    words = [w for w in re.findall(r"[^\W\d_]+", rest.casefold()) if w not in stops and w not in _GENERIC][:3]
    return frozenset(x for w in words for lang in ("en", "es") for x in tokenize(w, lang, stops=stops))
