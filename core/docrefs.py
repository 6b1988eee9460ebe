"""Document references in questions: which documents a question names, and the question without them.

A lawyer asks about one contract by name ("In the agency agreement with General Electric
Capital, can either party terminate for convenience?"). The words that name the contract then
dominate retrieval: BM25 and the embedding rank the cover page and the signature block — where
the party names repeat — above the clause asked about. Separating the document reference from
the question and retrieving inside the named document is the published remedy for exactly
this benchmark (the "query translator" that disentangles document references, arXiv
2508.13107, on LegalBench-RAG); this module is the deterministic, offline version of it.

**Profile.** Per document, the words a person would use to name it (:func:`build_profile`):
the words of its file name, of its title, and the capitalised words and identifiers of its
first :data:`HEAD_CHARS` characters — parties, defined names, products, places, reference
numbers — leaving out words capitalised only because they start a sentence, stopwords and
generic words of legal drafting ("Agreement", "Inc.", "S.L.", "Contrato"…, :data:`GENERIC`).

**Resolution** (:class:`DocResolver`). Each question word found in a document's profile counts
its specificity across the workspace, an inverse document frequency scaled so that a word in
one profile weighs 1 and a word in every profile about 0:
``log((N + 1) / (df + 0.5)) / log((N + 1) / 1.5)``. A document is the question's scope when its
score is at least :data:`MIN_SCORE` and at least :data:`MARGIN` times the next one's; two or
three documents that share the question's naming words, within :data:`AMBIGUOUS_SHARE` of the
best, are an ambiguous reference and all are searched (:meth:`DocResolver._ambiguous`). Questions that name no document (most questions in
a collection of articles) match no profile strongly enough and are searched everywhere.

**Cleaning** (:func:`strip_reference`). The runs of the question made of the resolved
documents' profile words, joined by generic words and connectors ("the Agency Agreement
between General Electric Capital Corporation and Duckwall-Alco Stores, Inc."), are removed;
words of a recognised clause type are never removed.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from core.textproc import all_stopwords

#: Characters of a document's start read for its profile (its title page and preamble).
HEAD_CHARS = 1500
#: Scope needs this much evidence: about one word found in that document's profile only.
MIN_SCORE = 1.0
#: ... and this many times the evidence for the next document.
MARGIN = 2.0
#: Documents within this share of the best score make the reference ambiguous ...
AMBIGUOUS_SHARE = 0.5
#: ... when each has at least this much evidence: about one name shared by two documents of
#: a small workspace (see :meth:`DocResolver._ambiguous`).
MIN_AMBIGUOUS_SCORE = 0.45
MAX_AMBIGUOUS = 3
#: Share of its weight a naming word keeps when the question does not write it as a name.
WEAK_WORD = 0.3

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# Sentence punctuation ends a naming run; commas, periods of abbreviations, ampersands and
# hyphens do not ("Duckwall-Alco Stores, Inc. for Equipment Leasing").
_RUN_BREAK = re.compile(r"[;?!:¿¡\n]|\.\s+(?=[A-ZÁÉÍÓÚÑ¿¡])")


def fold(text: str) -> str:
    """Casefolded, accents removed (NFD, combining marks dropped): how names are compared."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def fold_words(text: str) -> list[str]:
    """The folded words of ``text`` (letters and digits, inner apostrophes kept), in order."""
    return [fold(m.group(0)) for m in _WORD.finditer(text)]


#: Words that name a kind of document or company form, or connect the words of a name: never
#: evidence for one document, but allowed inside a naming run. English and Spanish.
GENERIC = frozenset(fold(w) for w in """
agreement agreements contract contracts exhibit schedule annex appendix amendment amended restated
inc incorporated corp corporation company companies co llc ltd limited plc lp llp pllc sa sl sau slu
gmbh ag nv bv srl spa sas pty holding holdings group party parties dated date effective consider
the this that between among and or of for with by to in on at as from under into its their whose
contrato contratos acuerdo acuerdos convenio anexo addenda adenda sociedad sociedades entidad
parte partes fecha cláusula clausula documento
""".split()) | frozenset(fold(w) for w in all_stopwords())


@dataclass(frozen=True)
class DocProfile:
    """What a person would call one document: its naming words and a display title."""

    doc_id: str
    title: str
    names: frozenset[str]
    """Folded naming words (see the module docstring)."""


def _file_words(path: str) -> set[str]:
    stem = Path(path).stem.replace("_", " ")
    stem = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", stem)  # "PcquoteComInc" -> "Pcquote Com Inc"
    return {f for f in fold_words(stem) if f not in GENERIC and not f.isdigit() and len(f) > 1}


def _capitalised_words(head: str) -> set[str]:
    """Words capitalised inside a sentence, all-capital words, and identifiers with digits."""
    out: set[str] = set()
    for m in _WORD.finditer(head):
        word = m.group(0)
        before = head[max(0, m.start() - 4):m.start()]
        sentence_start = m.start() == 0 or re.search(r"(?:^|[.!?:;¿¡\n])[\s\"“(]*$", before) is not None
        has_digit = any(ch.isdigit() for ch in word)
        if (word[0].isupper() and not sentence_start) or (word.isupper() and len(word) > 1) or has_digit:
            f = fold(word)
            if f not in GENERIC and len(f) > 1 and not f.isdigit():
                out.add(f)
    return out


def build_profile(doc_id: str, path: str, title: str, head: str) -> DocProfile:
    """The profile of one document.

    Args:
        doc_id: the document's id.
        path: its file path (the file name's words are naming words).
        title: its title as parsed (first heading, HTML title, e-mail subject or file name).
        head: the start of its text; only the first :data:`HEAD_CHARS` characters are read.
    """
    names = _file_words(path) | {f for f in fold_words(title) if f not in GENERIC and not f.isdigit()}
    names |= _capitalised_words(head[:HEAD_CHARS])
    return DocProfile(doc_id=doc_id, title=title.strip() or Path(path).name, names=frozenset(names))


@dataclass
class Resolution:
    """How a question's document reference was resolved."""

    doc_ids: list[str] = field(default_factory=list)
    """The documents to search (empty: no reference found, search everything)."""
    ambiguous: bool = False
    """Two or three documents matched about equally: all are searched, and the user is told."""
    scores: dict[str, float] = field(default_factory=dict)
    """Best candidates' scores (doc id → score), best first."""
    matched: list[str] = field(default_factory=list)
    """The question's words found in the chosen documents' profiles."""
    query: str = ""
    """The question with the naming words removed (the question itself when nothing was removed)."""


class DocResolver:
    """Resolves document references against the profiles of one workspace's eligible documents."""

    def __init__(self, profiles: list[DocProfile]) -> None:
        self.profiles = profiles
        n = len(profiles)
        # word → the profiles it names (an inverted index: a question touches only the documents
        # sharing one of its words, not every document of a 10,000-contract workspace)
        self.by_word: dict[str, list[DocProfile]] = {}
        for p in profiles:
            for w in p.names:
                self.by_word.setdefault(w, []).append(p)
        norm = math.log((n + 1) / 1.5) if n else 1.0
        self.weight = {w: math.log((n + 1) / (len(ps) + 0.5)) / norm for w, ps in self.by_word.items()}

    def _naming(self, words) -> list[DocProfile]:
        """The profiles that hold at least one of ``words`` (any order: callers sort or take a union)."""
        found = {id(p): p for w in words for p in self.by_word.get(w, ())}
        return list(found.values())

    def resolve(self, question: str, protected: frozenset[str] = frozenset()) -> Resolution:
        """Which documents ``question`` names (module docstring), and the question without the names.

        A word counts fully when the question writes it as a name — capitalised inside the
        sentence ("the Depomed agreement") or next to another of the document's naming words
        ("general electric capital") — and :data:`WEAK_WORD` of its weight otherwise:
        "security" typed in a question about a security deposit is not a reference to a
        standard titled "Security Categorization", nor "death" to a file named Black_Death.
        A workspace with one eligible document has nothing to resolve.

        Args:
            protected: folded words that must not count as naming words nor be removed (the
                words of a clause type the question asks about: "right of first offer" in a
                question is the clause, even when a contract's title says "Right of First Offer").
        """
        if len(self.profiles) < 2:
            return Resolution(query=question)
        tokens = _question_words(question)
        words = {f for f, _ in tokens if f not in GENERIC and f not in protected and not f.isdigit()}
        scored = []
        for p in self._naming(words):
            hit = words & p.names
            if hit:
                strong = _strong_words(tokens, p.names)
                score = sum(self.weight[w] * (1.0 if w in strong else WEAK_WORD) for w in hit)
                scored.append((score, p.doc_id, hit))
        scored.sort(key=lambda s: (-s[0], s[1]))
        res = Resolution(query=question, scores={d: round(s, 3) for s, d, _ in scored[:MAX_AMBIGUOUS + 1]})
        if not scored or scored[0][0] < MIN_AMBIGUOUS_SCORE:
            return res
        best = scored[0][0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        if best >= MIN_SCORE and best >= MARGIN * second:
            chosen = scored[:1]
        else:
            chosen = self._ambiguous(scored, words)
            if not chosen:
                return res
            res.ambiguous = True
        res.doc_ids = [d for _, d, _ in chosen]
        names = frozenset().union(*(hit for _, _, hit in chosen))
        res.matched = sorted(names)
        chosen_ids = set(res.doc_ids)
        names_all = frozenset().union(*(p.names for p in self._naming(names) if p.doc_id in chosen_ids))
        res.query = strip_reference(question, names_all - protected, protected)
        return res


    def _ambiguous(self, scored: list, words: set[str]) -> list:
        """Two or three documents that share the question's naming words, none of them clearly
        ahead: "the Acme agreement" when two contracts are with Acme. Each needs at least
        :data:`MIN_AMBIGUOUS_SCORE` and :data:`AMBIGUOUS_SHARE` of the best score, and every
        document holding one of the matched words must be among them (else the words are
        common ones, not a reference)."""
        best = scored[0][0]
        chosen = [s for s in scored if s[0] >= MIN_AMBIGUOUS_SCORE and s[0] >= AMBIGUOUS_SHARE * best]
        if not 2 <= len(chosen) <= MAX_AMBIGUOUS or len(chosen) >= len(self.profiles):
            return []
        hit = frozenset().union(*(h for _, _, h in chosen))
        ids = {d for _, d, _ in chosen}
        if any(p.doc_id not in ids for w in hit for p in self.by_word.get(w, ())):
            return []
        return chosen


def _question_words(question: str) -> list[tuple[str, bool]]:
    """The question's words, folded, each with whether it is written as a name (capitalised,
    not at a sentence start)."""
    out = []
    for m in _WORD.finditer(question):
        word = m.group(0)
        before = question[max(0, m.start() - 4):m.start()]
        sentence_start = m.start() == 0 or re.search(r"(?:^|[.!?:;¿¡\n])[\s\"“(]*$", before) is not None
        out.append((fold(word), word[0].isupper() and not sentence_start))
    return out


def _strong_words(tokens: list[tuple[str, bool]], names: frozenset[str]) -> set[str]:
    """Naming words of one document that the question writes as a name (see :meth:`DocResolver.resolve`).

    A capitalised word counts when most of the capitalised run it belongs to names the document:
    "General Electric Capital" does, while in "the General Manager of the Broncos" the word
    "General" is part of a name the document does not hold.
    """
    strong = set()
    i = 0
    while i < len(tokens):
        if not tokens[i][1]:
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and tokens[j + 1][1]:
            j += 1
        run = [f for f, _ in tokens[i:j + 1] if f not in GENERIC]
        found = [f for f in run if f in names]
        if found and len(found) * 2 > len(run):
            strong.update(found)
        i = j + 1
    for i, (f, _) in enumerate(tokens):
        if f in names and f not in GENERIC and any(
                0 <= j < len(tokens) and tokens[j][0] in names and tokens[j][0] not in GENERIC for j in (i - 1, i + 1)):
            strong.add(f)
    return strong


def _in_identifier(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies in a whitespace-delimited piece holding both letters and digits."""
    a = start
    while a > 0 and not text[a - 1].isspace():
        a -= 1
    b = end
    while b < len(text) and not text[b].isspace():
        b += 1
    piece = text[a:b]
    return any(c.isdigit() for c in piece) and any(c.isalpha() for c in piece)


def strip_reference(question: str, names: frozenset[str], protected: frozenset[str] = frozenset()) -> str:
    """``question`` without the runs of words that name a document.

    A run is a maximal sequence of words each either in ``names`` or generic
    (:data:`GENERIC`), holding at least one word of ``names``, not crossing sentence
    punctuation (``; ? ! :``) and holding a word written as a name (see :meth:`DocResolver.resolve`);
    the whole run goes, generic words included ("the Duckwall agreement"). Protected words end a run,
    and so do the words of an identifier (a whitespace-delimited piece mixing letters and digits,
    "REF-7731-B", "ART-12.3(b)"): it is the question's subject even where it also names the
    document that lists it. Returns the question itself when the result would be empty or hold
    no word outside the removed runs.
    """
    tokens = list(_WORD.finditer(question))
    strong = _strong_words(_question_words(question), names)
    kinds = []
    for m in tokens:
        f = fold(m.group(0))
        if _in_identifier(question, m.start(), m.end()):
            kinds.append("o")  # "REF-7731-B" is what the question asks about, even if its document lists it
        elif f in protected:
            kinds.append("o")
        elif f in names:
            kinds.append("n")
        elif f in GENERIC or f.isdigit():
            kinds.append("g")
        else:
            kinds.append("o")
    cut: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if kinds[i] == "o":
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and kinds[j + 1] != "o" and not _RUN_BREAK.search(
                question[tokens[j].end():tokens[j + 1].start()]):
            j += 1
        if any(kinds[x] == "n" and fold(tokens[x].group(0)) in strong for x in range(i, j + 1)):
            cut.append((tokens[i].start(), tokens[j].end()))
        i = j + 1
    if not cut:
        return question
    out, pos = [], 0
    for a, b in cut:
        out.append(question[pos:a])
        pos = b
    out.append(question[pos:])
    cleaned = re.sub(r"\s+", " ", "".join(out))
    cleaned = re.sub(r"\s+([,.;:?!])", r"\1", cleaned).strip(" ,")
    return cleaned if any(k == "o" for k in kinds) and fold_words(cleaned) else question

