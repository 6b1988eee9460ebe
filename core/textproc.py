"""Language detection and BM25 tokenization (Snowball stemmers, es/en stopwords).

Tokenization is ours only in how it combines libraries: PyStemmer (Snowball)
stems, bm25s supplies the stopword lists, py3langid detects the language. We
tokenize by hand instead of calling ``bm25s.tokenize`` because bm25s applies one
stemmer to a whole corpus, and a workspace mixes Spanish and English documents:
each chunk is stemmed with its own language, and a query is stemmed with both
(its tokens are the union), so "devolución" and "returns" both find their stems.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import Stemmer
from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_SPANISH

SUPPORTED_LANGS = ("en", "es")
_STEMMER_NAMES = {"en": "english", "es": "spanish"}
_STOPWORDS = {
    "en": frozenset(STOPWORDS_EN),
    "es": frozenset(STOPWORDS_SPANISH),
}
# Words and identifiers: "ART-12.3(b)" yields the whole identifier and its parts.
_WORD = re.compile(r"\w+", re.UNICODE)
_IDENT = re.compile(r"\w+(?:[-./]\w+)+", re.UNICODE)
_lock = threading.Lock()

NUMBER = r"\d{1,3}(?:[ \u00a0\u202f\u2009.,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
"""A number in digits with English or Spanish grouping and decimal marks ("12,480.50",
"12.480,50", "12 480", "12480"); groups separated by spaces join (NBSP and narrow NBSP too)."""
_NUMBER_TOKEN = re.compile(rf"(?<![\w.,])(?:{NUMBER})(?!\d)")


@lru_cache(maxsize=65536)  # a pure function of the token; amounts and dates repeat within a workspace
def number_readings(token: str) -> frozenset[Decimal]:
    """The values a number written in digits can mean, whatever the convention.

    ``"1,000"`` and ``"1.000"`` are ambiguous (one thousand in English or Spanish
    grouping, or one with a decimal part) and carry both readings; ``"1,5"`` is only
    1.5; ``"1.000,50"`` / ``"1,000.50"`` are 1000.5; ``"12 480"`` is 12480. Values are
    normalized (``Decimal("12480.00")`` → ``12480``). Empty for a token that is no number.
    """
    t = re.sub(r"[ \u00a0\u202f\u2009]", "", token)
    seps = [c for c in t if c in ".,"]
    out: set[Decimal] = set()
    try:
        if not seps:
            out.add(Decimal(t))
        elif len(set(seps)) == 2:
            dec = t[max(t.rfind("."), t.rfind(","))]
            grp = "," if dec == "." else "."
            out.add(Decimal(t.replace(grp, "").replace(dec, ".")))
        else:
            sep = seps[0]
            parts = t.split(sep)
            if len(parts) > 2:
                out.add(Decimal("".join(parts)))
            else:
                out.add(Decimal(t.replace(sep, ".")))
                if len(parts[1]) == 3 and parts[0] != "0":
                    out.add(Decimal("".join(parts)))
    except InvalidOperation:
        return frozenset()
    return frozenset(v.normalize() for v in out)


def _canonical(value: Decimal) -> str:
    return format(value, "f")


def number_tokens(text: str) -> list[str]:
    """Canonical tokens of the numbers in ``text`` written with separators, one per reading.

    "12.480,00 €", "EUR 12,480" and "12480 euros" all give the token ``12480`` (the last
    one as its plain word), so BM25 treats one amount written in different conventions as
    the same term and different amounts as different ones; an ambiguous "12,480" also
    gives ``12.48``. Numbers without separators give nothing here (their word token is
    already canonical).
    """
    out: list[str] = []
    for m in _NUMBER_TOKEN.finditer(text):
        if not any(c in m[0] for c in ".,  \u202f\u2009"):
            continue
        out.extend(_canonical(v) for v in sorted(number_readings(m[0])))
    return out


def _strip_accents(token: str) -> str:
    decomposed = unicodedata.normalize("NFD", token)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def _stemmer(lang: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(_STEMMER_NAMES.get(lang, "english"))


def detect_language(text: str) -> str:
    """ISO 639-1 code of ``text``, restricted to ``SUPPORTED_LANGS`` (default ``"en"``).

    Uses py3langid on at most the first 5,000 characters.
    """
    sample = text[:5000]
    if not sample.strip():
        return "en"
    import py3langid

    with _lock:  # py3langid's module-level identifier is not documented as thread-safe
        lang, _ = py3langid.classify(sample)
    return lang if lang in SUPPORTED_LANGS else "en"


def tokenize(text: str, lang: str, stops: frozenset[str] | None = None) -> list[str]:
    """BM25 tokens of ``text`` in language ``lang``.

    Lowercased, stopwords of ``lang`` removed, Snowball-stemmed, accents stripped
    after stemming (so an unaccented query matches accented text). Identifiers
    with inner ``-./`` are also kept whole (lowercased, unstemmed), and numbers
    written with separators add their canonical value (:func:`number_tokens`).
    """
    lower = text.casefold()
    if stops is None:
        stops = _STOPWORDS.get(lang, _STOPWORDS["en"])
    words = [w for w in _WORD.findall(lower) if w not in stops]
    stemmer = _stemmer(lang)
    tokens = [s if s.isascii() else _strip_accents(s) for s in stemmer.stemWords(words)]
    # An identifier never spans whitespace, so only whitespace-separated pieces holding one
    # of its separators are searched (same result as on the whole text, a third of the time).
    tokens += [m for piece in lower.split() if "-" in piece or "." in piece or "/" in piece
               for m in _IDENT.findall(piece)]
    tokens += number_tokens(text)
    return tokens


def all_stopwords() -> frozenset[str]:
    """The union of the English and Spanish stopword lists (bm25s'), lowercased."""
    return _ALL_STOPS


_ALL_STOPS = frozenset().union(*_STOPWORDS.values())


def tokenize_query(text: str) -> list[str]:
    """Query tokens: the union of the English and Spanish analyses, order kept, no duplicates.

    Words that are stopwords in either language are dropped before stemming.
    """
    all_stops = frozenset().union(*_STOPWORDS.values())
    seen: dict[str, None] = {}
    for lang in SUPPORTED_LANGS:
        for tok in tokenize(text, lang, stops=all_stops):
            seen.setdefault(tok, None)
    return list(seen)
