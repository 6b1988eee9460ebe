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
    with inner ``-./`` are also kept whole (lowercased, unstemmed).
    """
    lower = text.casefold()
    if stops is None:
        stops = _STOPWORDS.get(lang, _STOPWORDS["en"])
    words = [w for w in _WORD.findall(lower) if w not in stops]
    stemmer = _stemmer(lang)
    tokens = [_strip_accents(s) for s in stemmer.stemWords(words)]
    tokens += _IDENT.findall(lower)
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
