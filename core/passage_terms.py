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

Same-language pairs keep the plain coverage (:attr:`QuestionTerms.same_language_groups` turns the
vocabulary on for them too: a paraphrase's synonyms, "walk away" for "terminate").
"""

from __future__ import annotations

import math
import re

COGNATE_PREFIX = 5
"""Characters two stems must share at their start to count as cognates (cross-language pairs only)."""

_WORD = re.compile(r"\w+", re.UNICODE)


def _idf(df: int, n: int) -> float:
    """Robertson–Spärck Jones IDF as bm25s computes it: ``log((N - df + 0.5) / (df + 0.5) + 1)``."""
    return math.log((n - df + 0.5) / (df + 0.5) + 1.0)


class QuestionTerms:
    """The question's terms, their IDF weights in the workspace, and the coverage of a span.

    Args:
        question: the text the spans are scored against.
        workspace: gives document frequencies (``document_frequencies(tokens) -> (df, n)``);
            ``None`` or a failure weighs every term 1.0.
        lexicon: use the bilingual vocabulary (cross-language pairs; see ``same_language_groups``).
        cognates: count cognate stems across languages.
        same_language_groups: use the vocabulary's concepts for same-language pairs as well.

    Attributes:
        lang: the question's language (``"en"``/``"es"``).
        plain: question tokens (:func:`core.textproc.tokenize_query`) → IDF.
        groups: the vocabulary's concepts the question names, with their IDF: the concept's most
            frequent phrase's (a phrase occurs at most as often as its rarest word).
    """

    def __init__(self, question: str, workspace=None, *, lexicon: bool = True, cognates: bool = True,
                 same_language_groups: bool = False) -> None:
        from core.textproc import detect_language, tokenize_query

        self.question = question
        self.lang = detect_language(question)
        self.cognates = cognates
        self.same_language_groups = same_language_groups
        tokens = list(dict.fromkeys(tokenize_query(question)))
        self.groups_raw = _term_groups(question) if lexicon else []
        grouped = set().union(*(g.source for g in self.groups_raw)) if self.groups_raw else set()
        stems = {s for g in self.groups_raw for alts in g.alternatives.values() for alt in alts for s in alt}
        stems |= grouped
        df, n = _frequencies(workspace, tokens + sorted(stems))
        weigh = (lambda d: _idf(d, n)) if n > 0 else (lambda d: 1.0)
        self.plain = {t: weigh(df.get(t, 0)) for t in tokens}
        self.plain_cross = {t: w for t, w in self.plain.items() if t not in grouped}
        self.groups = []
        for g in self.groups_raw:
            phrases = [g.source] + [alt for alts in g.alternatives.values() for alt in alts]
            d = max(min(df.get(s, 0) for s in p) for p in phrases if p)
            self.groups.append((g, weigh(d)))
        self.total = sum(self.plain.values()) or 1.0
        self.total_cross = (sum(self.plain_cross.values()) + sum(w for _, w in self.groups)) or 1.0

    def is_cross(self, lang: str) -> bool:
        """Whether a span in ``lang`` is in another language than the question."""
        return lang != self.lang

    def coverage(self, tokens: set[str], lang: str) -> float:
        """Share (0–1) of the question's weighted terms that a span's ``tokens`` hold.

        Args:
            tokens: the span's BM25 tokens (stems of both analyses, :func:`core.textproc.tokenize`).
            lang: the span's language: another than the question's adds the vocabulary's concepts
                and cognates (module docstring).
        """
        cross = self.is_cross(lang)
        if not cross and not (self.same_language_groups and self.groups):
            return sum(w for t, w in self.plain.items() if t in tokens) / self.total
        covered = sum(w for t, w in self.plain_cross.items() if t in tokens)
        if cross and self.cognates:
            prefixes = {x[:COGNATE_PREFIX] for x in tokens if len(x) >= COGNATE_PREFIX and not x.isdigit()}
            covered += sum(w for t, w in self.plain_cross.items() if t not in tokens
                           and len(t) >= COGNATE_PREFIX and not t.isdigit() and t[:COGNATE_PREFIX] in prefixes)
        covered += sum(w for g, w in self.groups if g.covered_by(tokens))
        return covered / self.total_cross

    def gloss(self, lang: str) -> str:
        """The question glossed into ``lang`` (:func:`gloss`); ``""`` when that is the question's language
        or the vocabulary names nothing in it."""
        if not self.is_cross(lang) or not self.groups_raw:
            return ""
        return gloss(self.question, lang)


def _term_groups(question: str) -> list:
    from core.lexicon import term_groups

    return term_groups(question)


def _frequencies(workspace, tokens: list[str]) -> tuple[dict[str, int], int]:
    if workspace is None:
        return {}, 0
    try:
        return workspace.document_frequencies(tokens)
    except (AttributeError, OSError, ValueError):
        return {}, 0


def gloss(question: str, lang: str) -> str:
    """A word-by-word gloss of ``question`` in ``lang``: each phrase of the bilingual vocabulary the
    question holds (in the other language) replaced by its concept's usual term in ``lang`` (the
    first listed), the other content words kept as written (names, numbers, cognates).

    Dictionary-based query translation (Ballesteros & Croft, SIGIR 1997), for the embedding
    model's side of the score only: "¿Qué ley rige el contrato de suministro?" → "governing law
    supply agreement…". Returns ``""`` when nothing is translated.
    """
    from core.lexicon import find_terms
    from core.textproc import all_stopwords, tokenize

    src = "es" if lang == "en" else "en"
    matches = [m for m in find_terms(question, src) if m.lang == src]
    if not matches:
        return ""
    stops = all_stopwords()
    words = [w for w in _WORD.findall(question.casefold()) if w not in stops and tokenize(w, src, stops=stops)]
    start_of: dict[int, str] = {}
    covered: set[int] = set()
    for m in matches:
        covered |= m.positions
        target = m.concept.phrases(lang)
        if target:
            start_of.setdefault(min(m.positions), target[0])
    out = []
    for i, word in enumerate(words):
        if i in start_of:
            out.append(start_of[i])
        if i not in covered:
            out.append(word)
    return " ".join(out)
