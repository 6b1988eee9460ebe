"""Bilingual legal vocabulary (English ↔ Spanish): carry a question's words into the other language.

The bundled embedding model (all-MiniLM-L6-v2) is English-only, and BM25 matches words: a
Spanish question ("¿Puede cederse el contrato?") shares no term with the English clause that
answers it ("Neither party may assign this Agreement…"), and an English question shares none
with a Spanish contract. ``resources/lexicon/legal_en_es.toml`` lists, per concept, its words and
phrases in both languages — contract terms and the everyday words people use around them
("walk away", "salirse del contrato") — with the sources named in the file's header. This
module finds the concepts a text names and returns the other language's (and the same
language's other) wordings of them, for:

- the keyword query of retrieval (:func:`expand_query`: one more BM25 query, fused), and
- the passages scorer's term coverage across languages (:func:`term_groups`: a sentence covers
  a question term when it holds the term or one of its translations).

This is dictionary-based cross-language query translation, the classic baseline of
cross-language IR (Ballesteros & Croft, "Phrasal translation and query expansion techniques
for cross-language information retrieval", SIGIR 1997; Pirkola, "The effects of query
structure and dictionary setups in dictionary-based cross-language information retrieval",
SIGIR 1998, whose "structured query" — a term and its translations count as one — is what
:class:`TermGroup` gives the passages scorer). It never produces evidence: the words found
are only ever searched for.

**Matching.** Phrases and texts are analysed like :mod:`core.textproc` analyses a query:
casefolded, stopwords of both languages dropped, Snowball-stemmed in the phrase's own language,
accents folded. A phrase matches when all its content stems occur in the text's analysis in
the same language within a window of ``len(phrase) + MAX_GAP`` content words (order free:
"assign the contract" matches "the contract may be assigned"). When one match's words are a
strict subset of another's ("liability" inside "limitation of liability"), only the longer
one is kept: the specific concept is what the text names.
"""

from __future__ import annotations

import re
import threading
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from core.docrefs import fold
from core.errors import CoreError
from core.paths import resource_path
from core.textproc import SUPPORTED_LANGS, all_stopwords, tokenize

#: Content words (beyond the phrase's own) that may come between a phrase's words in a text.
MAX_GAP = 2

_WORD = re.compile(r"\w+", re.UNICODE)
_lock = threading.Lock()

#: Function words that bm25s' stopword lists keep (auxiliaries, question words, quantifiers,
#: particles) in both languages, folded. A phrase made only of them and of stopwords ("does
#: not", "no puede") says nothing about a concept and is not matched; inside a longer phrase
#: they still count ("how long", "walk away"). Written by hand: no library lists them for both
#: languages with the same scope as bm25s' lists.
FUNCTION_WORDS = frozenset("""
how what which who whom whose when where why whether can cannot could would should shall may might
must will do does did done doing much many any each either neither both other else another
away out up down off over under again further once only same so than too very all few
more most some own nor also just even ever still yet there here get gets got make makes
puede pueden podra podran podria deberia debe deben debera deberan hay existe existen es son
esta estan tiene tienen hace hacen que cual cuales quien quienes cuando cuanto cuanta cuantos
donde como algun alguno alguna algunos cada otro otra otros otras mismo misma tan muy todo
toda todos todas ya aun
""".split())


@dataclass(frozen=True)
class Concept:
    """One concept of the vocabulary: its phrases in English and in Spanish (usual term first)."""

    index: int
    topic: str
    en: tuple[str, ...]
    es: tuple[str, ...]
    parallel: bool = False
    """The i-th English phrase translates the i-th Spanish one (lists of related items)."""

    def phrases(self, lang: str) -> tuple[str, ...]:
        """The concept's phrases in ``lang`` (``"en"`` or ``"es"``; anything else: ``()``)."""
        return self.en if lang == "en" else self.es if lang == "es" else ()

    def rendering(self, phrase: str, lang: str, dst_lang: str) -> str:
        """The ``dst_lang`` phrase to write for ``phrase`` (a ``lang`` phrase of this concept):
        the same item of a parallel concept, else the usual term (the first); ``""`` if none."""
        dst = self.phrases(dst_lang)
        src = self.phrases(lang)
        if self.parallel and phrase in src and len(dst) == len(src):
            return dst[src.index(phrase)]
        return dst[0] if dst else ""


@dataclass(frozen=True)
class LexiconMatch:
    """A phrase of the vocabulary found in a text."""

    concept: Concept
    lang: str
    """Language of the matched phrase (and of the analysis it matched in)."""
    phrase: str
    """The vocabulary's phrase, as written in the file."""
    stems: frozenset[str]
    """The phrase's content stems (analysis of ``lang``): the text's words it covered."""
    positions: frozenset[int]
    """0-based indices, among the text's content words, of the words it covered."""


@dataclass(frozen=True)
class TermGroup:
    """A concept a text names, as alternatives of stems: the text's own and each translation's.

    ``alternatives[lang]`` holds one frozenset of stems per phrase of the concept in ``lang``
    (stemmed in ``lang``); ``source`` is the matched phrase's stems. Pirkola's structured query
    (SIGIR 1998): the group counts as one term, present when any alternative is.
    """

    concept: Concept
    lang: str
    source: frozenset[str]
    alternatives: dict[str, tuple[frozenset[str], ...]]

    def covered_by(self, tokens: set[str] | frozenset[str]) -> bool:
        """Whether ``tokens`` (stems, e.g. :func:`core.textproc.tokenize_query` of a sentence)
        hold the source phrase or any alternative phrase entirely."""
        if self.source <= tokens:
            return True
        return any(alt <= tokens for alts in self.alternatives.values() for alt in alts)


def _content_stems(text: str, lang: str) -> list[str]:
    """The content words of ``text`` stemmed in ``lang``, in order, one stem per word.

    Each word goes through :func:`core.textproc.tokenize` (stopwords of both languages
    dropped), so stems equal those of the BM25 index and of query tokenization."""
    stops = all_stopwords()
    out: list[str] = []
    for word in _WORD.findall(text.casefold()):
        if word in stops:
            continue
        toks = tokenize(word, lang, stops=stops)
        if toks:
            out.append(toks[0])
    return out


class Lexicon:
    """The concepts, their phrases analysed, and an index stem → phrases holding it."""

    def __init__(self, concepts: list[Concept]) -> None:
        self.concepts = concepts
        # (concept, lang, phrase, ordered stems) for every phrase with at least one content word
        self._phrases: list[tuple[Concept, str, str, tuple[str, ...]]] = []
        self._by_stem: dict[tuple[str, str], list[int]] = {}
        self._stems_of: dict[tuple[int, str], tuple[frozenset[str], ...]] = {}
        for c in concepts:
            for lang in SUPPORTED_LANGS:
                per_phrase = []
                for phrase in c.phrases(lang):
                    stems = tuple(dict.fromkeys(_content_stems(phrase, lang)))
                    if not stems or _only_function_words(phrase):
                        continue
                    per_phrase.append(frozenset(stems))
                    n = len(self._phrases)
                    self._phrases.append((c, lang, phrase, stems))
                    for s in stems:
                        self._by_stem.setdefault((lang, s), []).append(n)
                self._stems_of[(c.index, lang)] = tuple(dict.fromkeys(per_phrase))

    def phrase_stems(self, concept: Concept, lang: str) -> tuple[frozenset[str], ...]:
        """The content stems of each of ``concept``'s phrases in ``lang`` (duplicates removed)."""
        return self._stems_of.get((concept.index, lang), ())

    def find(self, text: str, lang: str | None = None) -> list[LexiconMatch]:
        """Phrases of the vocabulary that ``text`` contains (module docstring, "Matching").

        Args:
            text: any text (a question, usually).
            lang: the text's language (``"en"``/``"es"``): only that language's phrases are
                matched. ``None`` matches English phrases on the English analysis and Spanish
                ones on the Spanish analysis (for short questions, whose language detection
                is unreliable).

        Returns:
            Matches in order of their first word in the text, longest-first among those that
            overlap; a match whose covered words are a strict subset of another's is dropped.
        """
        langs = [lang] if lang in SUPPORTED_LANGS else list(SUPPORTED_LANGS)
        found: list[LexiconMatch] = []
        for lg in langs:
            seq = _content_stems(text, lg)
            where: dict[str, list[int]] = {}
            for i, s in enumerate(seq):
                where.setdefault(s, []).append(i)
            candidates = sorted({n for s in where for n in self._by_stem.get((lg, s), ())})
            matches = []
            for n in candidates:
                concept, _, phrase, stems = self._phrases[n]
                if not all(s in where for s in stems):
                    continue
                span = _best_window(stems, where, len(stems) + MAX_GAP)
                if span is not None:
                    matches.append(LexiconMatch(concept, lg, phrase, frozenset(stems), span))
            found.extend(_prefer_exact(_maximal(matches), _folded(text)))
        found.sort(key=lambda m: (m.lang != (lang or m.lang), min(m.positions), -len(m.positions)))
        return found


def _best_window(stems: tuple[str, ...], where: dict[str, list[int]], width: int) -> frozenset[int] | None:
    """Positions of one occurrence of every stem within ``width`` consecutive words, or None.

    Tries each occurrence of the first stem as an anchor and takes, for every other stem, its
    occurrence nearest to the anchor (enough for phrases of 1–4 words)."""
    for anchor in where[stems[0]]:
        pos = {anchor}
        for s in stems[1:]:
            pos.add(min(where[s], key=lambda p: abs(p - anchor)))
        if max(pos) - min(pos) < width:
            return frozenset(pos)
    return None


def _folded(text: str) -> str:
    """``text`` casefolded, accents removed, words joined by single spaces, padded with spaces."""
    return " " + " ".join(_WORD.findall(fold(text))) + " "


def _only_function_words(phrase: str) -> bool:
    stops = all_stopwords()
    return all(w in stops or fold(w) in FUNCTION_WORDS for w in _WORD.findall(phrase.casefold()))


def _prefer_exact(matches: list[LexiconMatch], folded_text: str) -> list[LexiconMatch]:
    """Among matches covering the same words, keep those whose phrase the text holds verbatim
    (folded), when there is one: Snowball conflates "contrato" with "contratar" and
    "contratista", and the concept written as such is the one the text names."""
    exact = {id(m) for m in matches if _folded(m.phrase) in folded_text}
    by_pos: dict[frozenset[int], list[LexiconMatch]] = {}
    for m in matches:
        by_pos.setdefault(m.positions, []).append(m)
    out = []
    for m in matches:
        same = by_pos[m.positions]
        if id(m) in exact or not any(id(o) in exact for o in same):
            out.append(m)
    return out


def _maximal(matches: list[LexiconMatch]) -> list[LexiconMatch]:
    """Drop matches whose positions are a strict subset of another match's positions."""
    return [m for m in matches if not any(m.positions < o.positions for o in matches)]


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The vocabulary of ``resources/lexicon/legal_en_es.toml``, loaded and analysed once (~0.1 s).

    Raises:
        CoreError: the file is missing or not valid (names the file).
    """
    path = resource_path("lexicon", "legal_en_es.toml")
    with _lock:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            concepts = [Concept(index=i, topic=str(t.get("topic", "")), en=tuple(t["en"]), es=tuple(t["es"]),
                                parallel=bool(t.get("parallel", False)))
                        for i, t in enumerate(data["term"])]
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
            raise CoreError(f"{path}: the bilingual vocabulary cannot be read ({exc})") from exc
    return Lexicon(concepts)


def find_terms(text: str, lang: str | None = None) -> list[LexiconMatch]:
    """The vocabulary's phrases found in ``text`` (:meth:`Lexicon.find`)."""
    return lexicon().find(text, lang)


def cross_language_terms(text: str, lang: str | None = None) -> dict[str, list[str]]:
    """Each vocabulary phrase found in ``text`` → its concept's phrases in the other language.

    Example: ``cross_language_terms("Can they assign the contract?", "en")`` →
    ``{"assign": ["ceder", "cesión", …], …}``. Keys are the vocabulary's phrases (as written
    in the file), values in file order without duplicates. ``lang`` as in :meth:`Lexicon.find`.
    """
    out: dict[str, list[str]] = {}
    for m in find_terms(text, lang):
        other = "es" if m.lang == "en" else "en"
        out.setdefault(m.phrase, [])
        out[m.phrase] = list(dict.fromkeys(out[m.phrase] + list(m.concept.phrases(other))))
    return out


def expand_query(text: str, src_lang: str | None = None,
                 dst_langs: tuple[str, ...] | list[str] = SUPPORTED_LANGS) -> list[str]:
    """Phrases in ``dst_langs`` of the concepts ``text`` names: a keyword query across languages.

    For a destination language equal to the matched phrase's, the concept's other phrases are
    returned (synonyms: "walk away" → "terminate", "termination"…); the matched phrase itself
    never is. Concepts in order of their place in ``text``; phrases in file order, no duplicates.
    Returns ``[]`` when ``text`` names no concept. ``src_lang`` as ``lang`` in :meth:`Lexicon.find`.
    """
    out: dict[str, None] = {}
    seen: set[int] = set()
    for m in find_terms(text, src_lang):
        if m.concept.index in seen:
            continue
        seen.add(m.concept.index)
        for lang in dst_langs:
            for p in m.concept.phrases(lang):
                if p != m.phrase:
                    out.setdefault(p, None)
    return list(out)


def term_groups(text: str, lang: str | None = None) -> list[TermGroup]:
    """The concepts ``text`` names, as :class:`TermGroup` s (one per concept, first match wins).

    For the passages scorer: a question term of a group is present in a sentence when
    ``group.covered_by(sentence_stems)``, whatever the sentence's language.
    """
    lex = lexicon()
    groups: dict[int, TermGroup] = {}
    for m in lex.find(text, lang):
        if m.concept.index in groups:
            continue
        groups[m.concept.index] = TermGroup(
            concept=m.concept, lang=m.lang, source=m.stems,
            alternatives={lg: lex.phrase_stems(m.concept, lg) for lg in SUPPORTED_LANGS})
    return list(groups.values())


def gloss(text: str, dst_lang: str, src_lang: str | None = None) -> str:
    """A word-for-word rendering of ``text`` in ``dst_lang`` through the vocabulary.

    Each phrase found (analysis of ``src_lang``, default: the language
    :func:`core.textproc.detect_language` gives the text) is replaced by its concept's first
    phrase in ``dst_lang`` (the usual term); words no phrase covers — names, numbers — are kept
    as written; stopwords are dropped. Meant for the English-only embedding model: "¿Puede
    alguna de las partes desistir del contrato?" → "either party … terminate for convenience
    contract". Returns ``text`` unchanged when ``src_lang`` equals ``dst_lang`` or nothing is
    found.
    """
    from core.textproc import detect_language

    src = src_lang if src_lang in SUPPORTED_LANGS else detect_language(text)
    if src == dst_lang:
        return text
    matches = [m for m in lexicon().find(text, src) if m.lang == src]
    if not matches:
        return text
    stops = all_stopwords()
    words = [w for w in _WORD.findall(text) if w.casefold() not in stops]
    first: dict[int, LexiconMatch] = {}
    covered: set[int] = set()
    for m in matches:
        start = min(m.positions)
        if start in covered or any(p in covered for p in m.positions):
            continue
        first[start] = m
        covered |= set(m.positions)
    out: list[str] = []
    for i, w in enumerate(words):
        if i in first:
            m = first[i]
            rendered = m.concept.rendering(m.phrase, m.lang, dst_lang)
            if rendered:
                out.append(rendered)
        elif i not in covered:
            out.append(w)
    return " ".join(out)
