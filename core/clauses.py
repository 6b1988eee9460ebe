"""Standard contract clause types: recognise one in a question, search with the contract's wording.

A question is worded unlike the clause that answers it ("Can this contract be terminated for
convenience?" against "either party may terminate this Agreement at any time upon thirty days'
written notice"): BM25 finds no shared word and the embedding model, trained on general
sentences, rates the two as unrelated. The vocabulary in
``resources/clauses/clause_types.toml`` (data with its sources, reviewed by people, not fitted
to test questions) lists for each clause type the phrases people ask with (``ask``) and the
phrases contracts use (``wording``), in English and Spanish. :func:`match_clause_types` finds
the types a question asks about; the retriever (:mod:`core.retrieval`) then also searches
with their wording — one more BM25 ranking and one more dense ranking per type, fused with the
question's own rankings. The wording is only ever a search query: evidence still comes from
the documents and is verified as always.

This is query expansion with a controlled vocabulary, the oldest remedy for the vocabulary
mismatch problem in IR (Furnas et al., "The vocabulary problem in human-system communication",
CACM 1987); the dense side is a hand-written counterpart of HyDE's hypothetical document
(Gao et al., "Precise Zero-Shot Dense Retrieval without Relevance Labels", ACL 2023).
"""

from __future__ import annotations

import math
import threading
import tomllib
from dataclasses import dataclass
from functools import lru_cache
import re

from core.errors import CoreError
from core.polarity import lexicon as polarity_lexicon
from core.paths import resource_path
from core.docrefs import fold
from core.textproc import SUPPORTED_LANGS, all_stopwords, tokenize

#: A type is kept when its match score is at least this share of the best type's score (two
#: types at most), so "exceptions to the non-compete" keeps both the exception and the
#: non-compete type, while an incidental one-word match beside a specific phrase is dropped.
RELATIVE_KEEP = 0.75
MAX_TYPES = 2
#: A match needs about one word specific to its type ("covenant", "indemnify").
MIN_SCORE = 0.6
#: A match scoring this much (a specific two-word phrase) searches the wording at full weight;
#: a weaker one ("penalty" alone, which a question about football also uses) at a share of it.
FULL_STRENGTH = 1.5


@dataclass(frozen=True)
class ClauseType:
    """One clause type of the vocabulary (see the TOML file's header for the fields)."""

    id: str
    label_en: str
    label_es: str
    ask: tuple[str, ...]
    wording: tuple[str, ...]

    def label(self, lang: str = "en") -> str:
        """The type's name for the user, in ``lang`` (``en`` or ``es``)."""
        return self.label_es if lang == "es" else self.label_en

    @property
    def wording_text(self) -> str:
        """The wording phrases as one text: the BM25 query and the dense query of this type."""
        return ". ".join(self.wording)


@dataclass(frozen=True)
class ClauseMatch:
    """A clause type a question asks about, with the question's words that named it."""

    clause: ClauseType
    score: float
    words: frozenset[str] = frozenset()
    """Casefolded, accent-stripped words of the question that belong to the matched phrase."""

    @property
    def strength(self) -> float:
        """0–1: how surely the question asks about this type (score / :data:`FULL_STRENGTH`, capped)."""
        return min(1.0, self.score / FULL_STRENGTH)


_lock = threading.Lock()
_STOP_FOLDED = frozenset(fold(w) for w in all_stopwords())
_WORDS = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)


#: Negation words of both languages (:data:`core.polarity.lexicon.NEGATION_WORDS`). The stopword lists
#: drop them, so "no license granted" (no licence) and "licenses granted" (licence grant), "sin límite de
#: responsabilidad" (uncapped) and "límite de responsabilidad" (cap) had the same content words: a phrase
#: holding one matches only a question holding one.
NEGATIONS = polarity_lexicon.NEGATION_WORDS


def _negated(text: str) -> bool:
    """Whether ``text`` holds a negation word (:data:`NEGATIONS`, or a contracted "…n't") standing alone:
    "non-compete" and "no-hire" are words of their own."""
    return any(w in NEGATIONS or w.endswith(("n't", "n’t")) for w in _WORDS.findall(text.casefold()))


def _phrase_tokens(text: str) -> dict[str, frozenset[str]]:
    """Stemmed content tokens of ``text`` per language (a phrase matches in either analysis)."""
    stops = all_stopwords()
    return {lang: frozenset(t for t in tokenize(text, lang, stops=stops) if not _is_ident(t))
            for lang in SUPPORTED_LANGS}


@lru_cache(maxsize=1)
def _document_tokens() -> frozenset[str]:
    """Stems of the words that name documents in general ("contract", "agreement", "clause",
    "contrato"…, :data:`core.docrefs.GENERIC`): a phrase still requires them ("entire agreement"),
    but they add nothing to its score, since every question about a contract has them."""
    from core.docnames import HONORIFICS  # "Sr.", "Dr.", "don": no word naming documents
    from core.docrefs import GENERIC

    words = " ".join(w for w in GENERIC - HONORIFICS if w not in all_stopwords())
    return frozenset(t for lang in SUPPORTED_LANGS for t in tokenize(words, lang, stops=all_stopwords()))


def _is_ident(token: str) -> bool:
    return any(c in token for c in "-./")


class Vocabulary:
    """The clause types, their ask phrases tokenized, and each token's specificity.

    Specificity of a token = log(1 + T / n) / log(1 + T), with T the number of types and n the
    number of types whose ask phrases contain the token: a word found in one type's phrases
    ("covenant") weighs 1, one found in many ("rights", "clause") weighs little.
    """

    def __init__(self, clauses: list[ClauseType]) -> None:
        self.clauses = clauses
        self._phrases: list[list[tuple[str, dict[str, frozenset[str]]]]] = [
            [(p, _phrase_tokens(p)) for p in c.ask] for c in clauses
        ]
        self._negated = {p for c in clauses for p in c.ask if _negated(p)}
        owners: dict[str, set[int]] = {}
        for i, phrases in enumerate(self._phrases):
            for _, per_lang in phrases:
                for toks in per_lang.values():
                    for t in toks:
                        owners.setdefault(t, set()).add(i)
        total = max(len(clauses), 1)
        generic = _document_tokens()
        self._weight = {t: 0.0 if t in generic else math.log(1 + total / len(o)) / math.log(1 + total)
                        for t, o in owners.items()}

    def match(self, question: str) -> list[ClauseMatch]:
        """Clause types ``question`` asks about, best first (at most :data:`MAX_TYPES`).

        A phrase matches when, in the English or the Spanish analysis, every one of its content
        tokens is among the question's, and, if it holds a negation word (:data:`NEGATIONS`), the
        question holds one too; its score is the sum of its tokens' specificity, and a
        type's score is its best phrase's. Types scoring under :data:`RELATIVE_KEEP` × the best
        are dropped. Returns ``[]`` when no phrase matches.
        """
        q = _phrase_tokens(question)
        negated = _negated(question)
        found: list[ClauseMatch] = []
        for clause, phrases in zip(self.clauses, self._phrases):
            best, best_words = 0.0, frozenset()
            for phrase, per_lang in phrases:
                if not negated and phrase in self._negated:
                    continue
                for lang, toks in per_lang.items():
                    if toks and toks <= q[lang]:
                        score = sum(self._weight.get(t, 0.0) for t in toks)
                        if score > best:
                            best, best_words = score, _words_of(phrase)
            if best >= MIN_SCORE:
                found.append(ClauseMatch(clause, best, best_words))
        if not found:
            return []
        found.sort(key=lambda m: -m.score)
        top = found[0].score
        return [m for m in found if m.score >= RELATIVE_KEEP * top][:MAX_TYPES]


def _words_of(phrase: str) -> frozenset[str]:
    from core.docrefs import fold_words

    return frozenset(fold_words(phrase)) - _STOP_FOLDED


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The vocabulary in ``resources/clauses/clause_types.toml``, loaded once.

    Raises:
        CoreError: the file is missing or not valid (names the file).
    """
    path = resource_path("clauses", "clause_types.toml")
    with _lock:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            clauses = [
                ClauseType(id=c["id"], label_en=c["label"]["en"], label_es=c["label"]["es"],
                           ask=tuple(c["ask"]), wording=tuple(c["wording"]))
                for c in data["clause"]
            ]
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
            raise CoreError(f"{path}: the clause vocabulary cannot be read ({exc})") from exc
    return Vocabulary(clauses)


def match_clause_types(question: str) -> list[ClauseMatch]:
    """Clause types ``question`` asks about (see :meth:`Vocabulary.match`)."""
    return vocabulary().match(question)


# --- matching by meaning ---------------------------------------------------------------------
#
# The listed ``ask`` phrases are examples, not the only way to name a clause type: "walk away
# from the deal early" names termination for convenience without any listed phrase. The
# question's embedding (the model the search already uses) is compared with the embedding of
# every ask phrase and label of every type; a type whose nearest phrase is close enough, and
# clearly closer than the next type's, is matched by meaning. This is nearest-neighbour intent
# classification over a few labelled examples per class (the usual few-shot baseline, e.g.
# Casanueva et al., "Efficient Intent Detection with Dual Sentence Encoders", NLP4ConvAI 2020);
# the threshold and margin were chosen by 5-fold cross-validation over contracts
# (bench/wording.py, bench/README.md), never on every case.

#: Cosine of the question to a type's nearest ask phrase needed to match the type by meaning.
SEMANTIC_MIN = 0.40
#: ... and by this much above the next type's nearest phrase.
SEMANTIC_MARGIN = 0.0


class _PhraseVectors:
    """Embeddings of every ask phrase and label of the vocabulary, computed once per process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: tuple[list[int], object] | None = None

    def get(self) -> tuple[list[int], object]:
        """``(owner type index per phrase, matrix of unit vectors, one row per phrase)``."""
        with self._lock:
            if self._data is None:
                import numpy as np

                from core.store import get_embedder

                vocab = vocabulary()
                owners, texts = [], []
                for i, c in enumerate(vocab.clauses):
                    for p in (c.label_en, c.label_es, *c.ask):
                        owners.append(i)
                        texts.append(p)
                vecs = np.asarray(get_embedder().get_text_embedding_batch(texts), dtype=np.float32)
                vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
                self._data = (owners, vecs)
            return self._data


_phrase_vectors = _PhraseVectors()


def semantic_scores(vector: list[float]) -> list[tuple[ClauseType, float]]:
    """Every clause type with the cosine of ``vector`` (a question's embedding, 384 floats for
    the bundled model) to its nearest ask phrase or label, best first. Loads the phrases'
    embeddings on first use (~1 s)."""
    import numpy as np

    owners, vecs = _phrase_vectors.get()
    q = np.asarray(vector, dtype=np.float32)
    q /= max(float(np.linalg.norm(q)), 1e-9)
    sims = vecs @ q
    best: dict[int, float] = {}
    for i, s in zip(owners, sims.tolist()):
        if s > best.get(i, -1.0):
            best[i] = s
    clauses = vocabulary().clauses
    return sorted(((clauses[i], s) for i, s in best.items()), key=lambda cs: -cs[1])


def match_by_meaning(vector: list[float], min_score: float = SEMANTIC_MIN,
                     margin: float = SEMANTIC_MARGIN) -> list[ClauseMatch]:
    """The clause type ``vector`` (a question's embedding) is nearest to, when near enough.

    Returns at most one :class:`ClauseMatch` (empty ``words``: no question word is claimed),
    whose ``score`` is scaled so that ``strength`` grows from 0 at ``min_score`` to 1 at
    ``min_score + 0.15``; ``[]`` when the nearest type's cosine is under ``min_score`` or within
    ``margin`` of the next type's.
    """
    scores = semantic_scores(vector)
    if not scores:
        return []
    (top, s1), s2 = scores[0], (scores[1][1] if len(scores) > 1 else -1.0)
    if s1 < min_score or s1 - s2 < margin:
        return []
    strength = min(1.0, 0.34 + (s1 - min_score) / 0.15 * 0.66)
    return [ClauseMatch(top, strength * FULL_STRENGTH)]
