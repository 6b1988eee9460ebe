"""Ordinary words of the language: the test that keeps a common noun from naming a document.

A document's proper names (:attr:`core.docnames.DocProfile.proper`: words its first pages never
write in lower case) name it even when a question types them in lower case ("can purolator
terminate…"). But a company may be named with an ordinary word — "Holiday RV Superstores",
"Loop Industries", "King Pharmaceuticals" — and then "what happens to unused holiday at the end of
the year?" is about holiday, not about the Holiday RV agreement. What tells "purolator" from
"holiday" typed in lower case is knowledge of the language, which no single document gives: a
word list does.

:func:`ordinary_word` reads the word frequencies of the ``wordfreq`` package (Speer et al., a
multi-source frequency list: subtitles, Wikipedia, news, books, web text) in English and Spanish,
the two languages of the product, on the Zipf scale (log10 of occurrences per billion words).
Zipf :data:`ORDINARY_ZIPF` is the boundary between low-frequency (1–3) and high-frequency (4–7)
words proposed with the scale (van Heuven, Mandera, Keuleers & Brysbaert 2014, "SUBTLEX-UK",
QJEP 67(6), p. 1176–1190); it was not tuned on this project's questions. Why a package rather than
a list written here: the frequencies of hundreds of thousands of words in two languages are data,
kept and versioned by their authors.

Proper names of people and places are frequent words too ("john", "florida"): typed in lower case
and alone they do not scope a question either; written as names, or next to another naming word
of the same document ("papa john's"), they still do (:func:`core.docrefs._strong`).
"""

from __future__ import annotations

from functools import lru_cache

#: A word at least this frequent (Zipf scale) in English or Spanish is an ordinary word (module docstring).
ORDINARY_ZIPF = 4.0
#: Languages whose words are looked up (the questions' languages).
LANGUAGES = ("en", "es")
#: wordfreq's "small" lists hold every word of Zipf 3 and more (enough for the test at Zipf 4), 0.3 MB
#: for both languages (the "large" ones are 3 MB; the frozen app bundles only these two, build.spec).
WORDLIST = "small"


@lru_cache(maxsize=65536)
def ordinary_word(word: str) -> bool:
    """Whether ``word`` (one word, any case) is an ordinary word of English or Spanish: its Zipf
    frequency in either (``wordfreq``, :data:`WORDLIST` lists) is at least :data:`ORDINARY_ZIPF`.
    Words with digits and words of one or two letters are never ordinary here (identifiers,
    initials: "rv", "3at" are names when a document holds them)."""
    if len(word) < 3 or any(c.isdigit() for c in word):
        return False
    from wordfreq import zipf_frequency  # imported on first use: 0.3 s, not paid at start-up

    return any(zipf_frequency(word, lang, wordlist=WORDLIST) >= ORDINARY_ZIPF for lang in LANGUAGES)
