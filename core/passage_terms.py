"""The question's terms for the passages scorer's term coverage, across English and Spanish.

The scorer (:func:`core.passages.score_spans`) adds to each span's cosine the share of the
question's terms the span holds, weighted by their rarity in the workspace (IDF). Over the same
language that is the BM25 analysis of both texts. Across languages (a Spanish question about an
English contract, or the reverse) the two share almost no word and the bundled embedding model
(all-MiniLM-L6-v2) is English-only: on XQuAD-es with the English question the passages answer
found the passage 1 time in 41 (issue #20). Two bridges, used only when the span's language is
not the question's (:func:`core.textproc.detect_language`):

* **the bilingual legal vocabulary** (:mod:`core.lexicon`, ``resources/lexicon/legal_en_es.toml``):
  a concept the question names ("preaviso", "ley aplicable") is one term, present in a span that
  holds any of its phrases in either language — Pirkola's structured query for dictionary-based
  cross-language retrieval (SIGIR 1998), :class:`core.lexicon.TermGroup`; the question is also
  glossed into the span's language (:func:`gloss`: each concept replaced by its usual term there)
  and the span's cosine is the better of the question's and the gloss's;
* **cognates** for the words the vocabulary does not know: English and Spanish share much of
  their Latin vocabulary ("jurisdiction"/"jurisdicción", "kilometers"/"kilómetros"); two stems
  that begin with the same :data:`COGNATE_PREFIX` characters count as the same term. Simard,
  Foster & Isabelle, "Using cognates to align sentences in bilingual corpora" (1992), took a
  4-character prefix as the cognate test; 5 here, fixed a priori, because the test is applied to
  stems of every word of a span rather than to aligned sentences.

Same-language pairs keep the plain coverage for the abstention decision (its thresholds were
calibrated on it); :meth:`QuestionTerms.synonym_coverage` counts the vocabulary's concepts as units in
the same language too (a paraphrase's synonyms: "walk away" for "terminate"), used to order the spans
shown once the decision is taken (:mod:`core.passages`, issue #20 second pass).
"""

from __future__ import annotations

import math
import re

COGNATE_PREFIX = 5
"""Characters two stems must share at their start to count as cognates (cross-language pairs only)."""

_WORD = re.compile(r"\w+", re.UNICODE)


def function_words() -> frozenset[str]:
    """Function words of English and Spanish (NLTK's stopword lists, as bm25s ships them:
    ``STOPWORDS_EN_PLUS``, ``STOPWORDS_SPANISH``), accents stripped, for the cross-language word units
    of :class:`QuestionTerms`.

    Why a fuller list than BM25's (:func:`core.textproc.all_stopwords`, whose English list has 33 words):
    across languages a question's function word ("what", "how", "his", "because"; "cuál", "quién",
    "cómo", interrogatives written with their accent) never occurs in the other language's text, so
    the workspace gives it the highest IDF (document frequency 0) and it is a unit of the coverage
    that no span can hold: it lowered every cross-language span's term coverage, the more the more
    such words the question has (issue #20, engineer "xlang"). Within one language BM25's IDF already
    makes such words weigh little; the same-language coverage is unchanged."""
    return _FUNCTION_WORDS


def content_words(text: str) -> list[str]:
    """The words of ``text`` (casefolded, ``\\w+``) that are neither function words (:func:`function_words`) nor
    BM25 stopwords, in order: ``[]`` for "What did do?" (:func:`core.passages.scoring_query`)."""
    from core.textproc import all_stopwords

    stops = all_stopwords()
    return [w for w in _WORD.findall(text.casefold()) if w not in stops and _fold(w) not in _FUNCTION_WORDS]


def _fold(word: str) -> str:
    """``word`` without accents (NFKD, combining marks dropped)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _function_words() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH

    return frozenset(_fold(w.casefold()) for w in (*STOPWORDS_EN_PLUS, *STOPWORDS_SPANISH))


_FUNCTION_WORDS = _function_words()


def _idf(df: int, n: int) -> float:
    """Robertson–Spärck Jones IDF as bm25s computes it: ``log((N - df + 0.5) / (df + 0.5) + 1)``."""
    return math.log((n - df + 0.5) / (df + 0.5) + 1.0)


class QuestionTerms:
    """The question's terms, their IDF weights in the workspace, and the coverage of a span.

    Args:
        question: the text the spans are scored against.
        workspace: gives document frequencies (``document_frequencies(tokens) -> (df, n)``);
            ``None`` or a failure weighs every term 1.0.
        context: the BM25 tokens of each delivered chunk (both analyses): which of a concept's
            translations the documents use ("contrato de suministro" → "supply agreement", not
            the other agreement types its concept lists) — translation selection by the target
            text, after Ballesteros & Croft, "Resolving ambiguity for cross-language retrieval"
            (SIGIR 1998), who used co-occurrence in the target corpus.
        lexicon: use the bilingual vocabulary for spans in another language.
        cognates: count cognate stems across languages.

    Attributes:
        lang: the question's language (``"en"``/``"es"``, :func:`core.textproc.detect_language`).
        plain: question tokens (:func:`core.textproc.tokenize_query`) → IDF: the same-language
            coverage, unchanged by issue #20.
        words: cross-language units: each content word the vocabulary does not cover, as its stems
            in both analyses, with the IDF of its most frequent stem.
        groups: the vocabulary's concepts the question names, as ``(source stems, alternatives, IDF)``:
            the alternatives are the concept's phrases (stems) the delivered chunks use, or all of
            them when they use none; the IDF is the most frequent alternative's (a phrase occurs at
            most as often as its rarest word).
    """

    def __init__(self, question: str, workspace=None, *, context: list[set[str]] | None = None,
                 lexicon: bool = True, cognates: bool = True) -> None:
        from core.textproc import all_stopwords, detect_language, tokenize, tokenize_query

        self.question = question
        self.lang = detect_language(question)
        self.cognates = cognates
        self.context = context or []
        tokens = list(dict.fromkeys(tokenize_query(question)))
        stops = all_stopwords()
        function = function_words()
        words = [w for w in dict.fromkeys(_WORD.findall(question.casefold()))
                 if w not in stops and _fold(w) not in function]
        word_stems = [frozenset(tokenize(w, "en", stops=stops)) | frozenset(tokenize(w, "es", stops=stops))
                      for w in words]
        word_stems = [ws for ws in word_stems if ws]
        self.matches = _find_terms(question, self.lang) if lexicon else []
        raw: dict[int, tuple] = {}
        for m in self.matches:
            if m.concept.index not in raw:
                raw[m.concept.index] = (m, m.stems, [alt for alts in _alternatives(m.concept).values() for alt in alts])
        grouped = set().union(*(m.stems for m in self.matches)) if self.matches else set()
        stems = set(tokens) | {x for ws in word_stems for x in ws}
        stems |= {x for _, src, alts in raw.values() for alt in [src, *alts] for x in alt}
        df, n = _frequencies(workspace, sorted(stems))
        weigh = (lambda d: _idf(d, n)) if n > 0 else (lambda d: 1.0)
        self.plain = {t: weigh(df.get(t, 0)) for t in tokens}
        self.total = sum(self.plain.values()) or 1.0
        self.words = [(ws, weigh(max(df.get(x, 0) for x in ws))) for ws in word_stems if not ws & grouped]
        self.groups = []
        for m, src, alts in raw.values():
            used = [a for a in alts if self._occurrences(a)]
            chosen = used or alts
            d = max(min(df.get(x, 0) for x in p) for p in [src, *chosen] if p)
            self.groups.append((src, chosen, weigh(d)))
        self.total_cross = (sum(w for _, w in self.words) + sum(w for _, _, w in self.groups)) or 1.0
        self._synonyms: tuple[list, dict[str, float]] | None = None

    def _occurrences(self, stems: frozenset[str]) -> int:
        """Delivered chunks that hold every stem of ``stems``."""
        return sum(stems <= tokens for tokens in self.context) if stems else 0

    def is_cross(self, lang: str) -> bool:
        """Whether a span in ``lang`` is in another language than the question."""
        return lang != self.lang

    def coverage(self, tokens: set[str], lang: str) -> float:
        """Share (0–1) of the question's weighted terms that a span's ``tokens`` hold.

        Args:
            tokens: the span's BM25 tokens (stems of both analyses, :func:`core.textproc.tokenize`).
            lang: the span's language. The question's: its tokens' IDF share, as before issue #20.
                Another: word and concept units (a concept present when its source phrase or a
                chosen translation is; a word when one of its stems or a cognate is).
        """
        if not self.is_cross(lang):
            return sum(w for t, w in self.plain.items() if t in tokens) / self.total
        prefixes = ({x[:COGNATE_PREFIX] for x in tokens if len(x) >= COGNATE_PREFIX and not x.isdigit()}
                    if self.cognates else set())
        covered = 0.0
        for stems, w in self.words:
            if stems & tokens or any(len(x) >= COGNATE_PREFIX and not x.isdigit() and x[:COGNATE_PREFIX] in prefixes
                                     for x in stems):
                covered += w
        for src, alts, w in self.groups:
            if src <= tokens or any(a <= tokens for a in alts):
                covered += w
        return covered / self.total_cross

    def synonym_coverage(self, tokens: set[str], lang: str) -> float:
        """Share (0–1) of the question's weighted terms a same-language span holds, each concept of the
        bilingual vocabulary the question names (:func:`core.lexicon.term_groups`) counted as one unit
        present when any of its phrases is, in either language (Pirkola's structured query, as across
        languages), weighing the IDF of the question words it covers; the other words as in
        :meth:`coverage`. At least :meth:`coverage`'s value for the same span, never more than 1.
        Across languages: :meth:`coverage`.
        """
        if self.is_cross(lang):
            return self.coverage(tokens, lang)
        if self._synonyms is None:
            from core.lexicon import term_groups

            groups = term_groups(self.question, self.lang)
            grouped = set().union(*(g.source for g in groups)) if groups else set()
            self._synonyms = ([(g, sum(self.plain.get(t, 0.0) for t in g.source)) for g in groups],
                              {t: w for t, w in self.plain.items() if t not in grouped})
        groups, rest = self._synonyms
        covered = sum(w for t, w in rest.items() if t in tokens)
        covered += sum(w for g, w in groups if g.covered_by(tokens))
        return max(covered / self.total, self.coverage(tokens, lang))

    def gloss(self, lang: str) -> str:
        """The question glossed into ``lang`` (:func:`gloss`, each concept as the translation the
        delivered chunks use most); ``""`` when that is the question's language or nothing is translated."""
        if not self.is_cross(lang) or not self.matches:
            return ""
        return gloss(self.question, lang, self.matches, self._occurrences)


def _find_terms(question: str, lang: str) -> list:
    from core.lexicon import find_terms

    return find_terms(question, lang)


def _alternatives(concept) -> dict:
    from core.lexicon import lexicon

    lex = lexicon()
    return {lang: lex.phrase_stems(concept, lang) for lang in ("en", "es")}


def _frequencies(workspace, tokens: list[str]) -> tuple[dict[str, int], int]:
    if workspace is None:
        return {}, 0
    try:
        return workspace.document_frequencies(tokens)
    except (AttributeError, OSError, ValueError):
        return {}, 0


def gloss(question: str, lang: str, matches: list | None = None, occurrences=None) -> str:
    """A word-by-word gloss of ``question`` in ``lang``: each phrase of the bilingual vocabulary the
    question holds (in the other language) replaced by a translation of its concept, the other
    content words kept as written (names, numbers, cognates).

    Dictionary-based query translation (Ballesteros & Croft, SIGIR 1997), for the embedding
    model's side of the score only: "¿Qué ley rige el contrato de suministro?" → "governing law
    supply agreement". The translation is the concept's phrase in ``lang`` that ``occurrences``
    (phrase stems → count in the delivered chunks) counts highest, ties and no counts to the first
    listed (the vocabulary's usual term). Returns ``""`` when nothing is translated.
    """
    from core.lexicon import find_terms
    from core.textproc import all_stopwords, tokenize

    src = "es" if lang == "en" else "en"
    matches = [m for m in (matches if matches is not None else find_terms(question, src)) if m.lang == src]
    if not matches:
        return ""
    stops = all_stopwords()
    words = [w for w in _WORD.findall(question.casefold()) if w not in stops and tokenize(w, src, stops=stops)]
    start_of: dict[int, str] = {}
    covered: set[int] = set()
    for m in matches:
        covered |= m.positions
        phrases = m.concept.phrases(lang)
        if not phrases:
            continue
        best = 0
        if occurrences is not None:
            counts = [occurrences(_stems_of(p, lang)) for p in phrases]
            best = counts.index(max(counts))  # the first listed when none occurs
        start_of.setdefault(min(m.positions), phrases[best])
    out = []
    for i, word in enumerate(words):
        if i in start_of:
            out.append(start_of[i])
        if i not in covered:
            out.append(word)
    return " ".join(out)


def _stems_of(phrase: str, lang: str) -> frozenset[str]:
    """Content stems of a vocabulary phrase, analysed as :mod:`core.lexicon` analyses it."""
    from core.lexicon import _content_stems

    return frozenset(_content_stems(phrase, lang))
