"""Document references in questions: which documents a question names, and the question without them.

A lawyer asks about one contract by name ("In the agency agreement with General Electric
Capital, can either party terminate for convenience?", "Acme's NDA", "el contrato con Loop", "the
NDA in file 'Mutual_NDA_Acme.pdf'"). The words that name the contract then dominate retrieval:
BM25 and the embedding rank the cover page and the signature block — where the party names
repeat — above the clause asked about. Separating the document reference from the question and
retrieving inside the named document is the published remedy for exactly this benchmark (the
"query translator" that disentangles document references, arXiv 2508.13107, on LegalBench-RAG);
this module is the deterministic, offline version of it.

**Profiles**: :mod:`core.docnames` (the naming words of each document, their proper names,
file-name compounds, initialisms; re-exported here).

**Resolution** (:class:`DocResolver`), strongest evidence first:

1. *A question about the collection* ("Which of these agreements are governed by Florida law?",
   "all contracts", "¿cuáles de los contratos…?", :func:`collection_question`) names no single
   document: it is searched everywhere, whatever its capitalised words.
2. *A file name* written in the question — without or with its extension, with underscores,
   ``%20`` or spaces, in any case; a name of two words or more, or holding a digit; a name made
   only of words that name no document alone ("Non-Disclosure Agreement.pdf") only when written
   as a file name (extension, underscores or ``%20``: "a non-disclosure agreement" is a
   description) — or quoted in it (rapidfuzz ``fuzz.ratio`` ≥ :data:`FILE_QUOTE_RATIO` with the quoted text) names that
   document, whatever else the question's words match: a file literally named
   "Confidentiality_Non-Disclosure_Agreement" is that file, not another whose title is "Mutual
   Confidentiality and Non-Disclosure Agreement". A longer file name written wins over one it
   contains; two documents with the same file name are both searched, as ambiguous.
3. *Naming words*. Each question word found in a document's profile counts its specificity
   across the workspace, an inverse document frequency scaled so that a word in one profile
   weighs 1 and a word in every profile about 0: ``log((N + 1) / (df + 0.5)) / log((N + 1) /
   1.5)``, times :data:`WEAK_WORD` unless the word *names* that document in the question (a
   proper name of it, written capitalised as a name, or next to another of its naming words,
   :func:`_strong`; an ordinary word of the language typed in lower case — "unused holiday" against
   "Holiday RV Superstores", :func:`core.commonwords.ordinary_word` — is not a name however its
   document writes it, and initials starting one of the document's words or initialisms count
   with the name they start: "GE Capital"). A question word may also meet a naming word as the start of a file-name
   compound ("FLOTEKINDUSTRIES", :data:`PREFIX_WORD`), with a small misspelling of a proper name
   ("Purolater", "vayar": Levenshtein distance 1, or 2 from 8 letters, same first letter, not a plural
   nor an ordinary word: "premises" is no misspelled "Premier";
   two edits keep :data:`FUZZY_WORD` of the weight), or through the Spanish name of a kind of contract ("el contrato
   de patrocinio" → "sponsorship", :data:`core.docnames.KIND_ES_EN`). A document is the
   question's scope when its score is at least :data:`MIN_SCORE` and at least :data:`MARGIN`
   times the next one's, or when it passes the same test on the words that tell it from each other
   document (:meth:`DocResolver._distinct`: "the Veoneer joint venture" among three joint-venture
   agreements); two or three documents that share the question's naming words, within
   :data:`AMBIGUOUS_SHARE` of the best, are an ambiguous reference and all are searched
   (:meth:`DocResolver._ambiguous`). Questions that name no document (most questions in a
   collection of articles) match no profile strongly enough and are searched everywhere.
4. *The kind of contract* (:mod:`core.dockinds`), in either language: "el contrato de suministro"
   over an English "Supply Agreement", "the lease" over "Contrato de arrendamiento". Read only when
   the naming words name nothing (:meth:`DocResolver._by_kind`), or leave two or three documents of
   which one alone is of the kind ("the Vega Retail NDA" when Vega Retail signed every document);
   one document of the kind is the scope, two or three are searched together as ambiguous.

The thresholds (MIN_SCORE, MARGIN, AMBIGUOUS_SHARE, WEAK_WORD) date from issue #12 and were not
refitted; the new evidence weights are fixed a priori below 1 (weaker than an exact word), and
the misspelling distances are the usual ones of spelling correction (Damerau 1964: most typos
are one edit). bench/README.md ("Document references in any form") has the figures.

**Conversations** (:meth:`DocResolver.resolve_in_conversation`): a follow-up that names another
document ("And in the Papa John's endorsement deal?") is searched in that document, not in the
previous question's, whose words the rewritten question still carries.

**Cleaning** (:func:`strip_reference`). The runs of the question made of the resolved
documents' profile words, joined by generic words and connectors ("the Agency Agreement
between General Electric Capital Corporation and Duckwall-Alco Stores, Inc."), are removed;
words of a recognised clause type are never removed, nor a kind of contract typed in lower case
that the question asks about ("how long is the Roanoke Gas franchise granted for"); kind
abbreviations are written out ("JV" → "JV (joint venture)", :func:`expand_kind_abbreviations`).
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from core.commonwords import ordinary_word
from core.docref_grammar import (  # noqa: F401 - _in_identifier re-exported (core.passages' docs)
    _in_identifier, collection_question, joined_names, singular_reference)
from core.dockinds import document_kinds, question_kinds
from core.docref_words import (  # noqa: F401 - strip_reference re-exported: callers import it from here
    _question_tokens, _strong, _Token, strip_reference)
from core.docnames import (  # noqa: F401 - re-exported: callers import them from here
    GENERIC,
    HEAD_CHARS,
    KIND_ABBREVIATIONS,
    KIND_ES_EN,
    KIND_ES_EN_PHRASES,
    KIND_WORDS,
    NAME_WORD,
    PROFILE_VERSION,
    DocProfile,
    build_profile,
    expand_kind_abbreviations,
    file_stem,
    fold,
    fold_words,
    name_word,
    file_words,
    sentence_start,
    title_words,
    word_root,
    word_spans,
)

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
#: Share of its weight a naming word keeps when the question writes only its start (at least
#: :data:`MIN_PREFIX_SHARE` of it): "FLOTEKINDUSTRIES" for the file's "FLOTEKINDUSTRIESINCCN".
PREFIX_WORD = 0.9
MIN_PREFIX_SHARE = 0.6
#: Share of its weight a proper name keeps when the question misspells it by two edits (one edit,
#: the usual typo — Damerau 1964 — keeps all of it).
FUZZY_WORD = 0.8
#: Shortest question word looked up by its start or with a misspelling.
MIN_LOOKUP_LEN = 5
#: A quoted text this similar to a file name (rapidfuzz fuzz.ratio, 0-100) names that file.
FILE_QUOTE_RATIO = 90.0


_QUOTED = re.compile(r"(?:(?<=^)|(?<=[\s(\[:,]))([\"“”'‘’«`])(.{3,200}?)([\"“”'‘’»`])(?=$|[\s)\].,;:?!])")

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
    """The question's words found in the chosen documents' profiles (or the file names written)."""
    query: str = ""
    """The question with the naming words removed (the question itself when nothing was removed)."""
    evidence: str = ""
    """What decided: ``"file name"``, ``"naming words"``, ``"kind of document"`` (:meth:`DocResolver._by_kind`),
    ``"collection"`` (a question about the documents as a whole, searched everywhere), ``""`` (nothing named)."""


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
        # file-name compounds, looked up by their start ("FLOTEKINDUSTRIES")
        self.compounds = sorted({w for p in profiles for w in file_words(p.doc_id) if len(w) >= 8})
        # (a kind of contract is an ordinary word, not a name to misspell: "probation" is no "Promotion")
        self.proper_vocabulary = sorted({w for p in profiles for w in p.proper
                                         if len(w) >= MIN_LOOKUP_LEN and w not in KIND_WORDS})
        self.stems: dict[str, list[DocProfile]] = {}
        for p in profiles:
            stem = file_stem(p.doc_id)
            if len(stem.split()) >= 2 or any(c.isdigit() for c in stem):
                self.stems.setdefault(stem, []).append(p)
        # a file name of words that name no document alone ("Non-Disclosure Agreement.pdf") is a
        # description too: it names its file only when written as a file name (_file_named)
        self.generic_stems = {stem for stem in self.stems if not any(c.isdigit() for c in stem) and not any(
            w not in GENERIC and w not in KIND_WORDS and len(self.by_word.get(w, ())) <= 1 for w in stem.split())}
        # the kinds of contract each document is, from its title and file name (core.dockinds)
        self.kinds = {p.doc_id: document_kinds(p.title, p.doc_id) for p in profiles}

    def _naming(self, words) -> list[DocProfile]:
        """The profiles that hold at least one of ``words`` (any order: callers sort or take a union)."""
        found = {id(p): p for w in words for p in self.by_word.get(w, ())}
        return list(found.values())

    # --- evidence ------------------------------------------------------------------------

    def _file_named(self, question: str) -> list[list[DocProfile]]:
        """Groups of documents whose file name the question writes or quotes (module docstring, 2),
        one group per file name, longest first; a file name inside a longer one written is dropped."""
        text = unquote(question).replace("_", " ")
        plain = " " + " ".join(fold_words(text)) + " "
        file_form = re.search(r"_|%20|\.(?:pdf|docx?|txt|md|html?|eml|rtf|odt|xlsx?|pptx?)\b", question, re.I) is not None
        found: list[tuple[int, int, str]] = []  # (start, end, stem) in ``plain``
        for stem in self.stems:
            if stem in self.generic_stems and not file_form:
                continue
            at = plain.find(" " + stem + " ")
            while at >= 0:
                found.append((at, at + len(stem) + 2, stem))
                at = plain.find(" " + stem + " ", at + 1)
        quoted = {file_stem(m.group(2)) for m in _QUOTED.finditer(text)}
        quoted.discard("")
        for q in quoted:
            for stem in self.stems:
                if stem not in {s for _, _, s in found} and fuzz.ratio(q, stem) >= FILE_QUOTE_RATIO:
                    found.append((-1, -1, stem))
        kept = [f for f in found if f[0] < 0 or not any(
            g[0] >= 0 and g[0] <= f[0] and f[1] <= g[1] and (g[1] - g[0]) > (f[1] - f[0]) for g in found)]
        stems = sorted({s for _, _, s in kept}, key=lambda s: -len(s))
        return [self.stems[s] for s in stems]

    def _lookup(self, word: str) -> list[tuple[str, float]]:
        """Naming words a question word meets, each with the share of its weight it keeps: itself
        (1), a file-name compound it starts (:data:`PREFIX_WORD`), or a proper name it misspells
        slightly (:data:`FUZZY_WORD`)."""
        if word in self.by_word:
            return [(word, 1.0)]
        if len(word) < MIN_LOOKUP_LEN or word in GENERIC or word.isdigit():
            return []
        out = []
        i = bisect.bisect_left(self.compounds, word)
        while i < len(self.compounds) and self.compounds[i].startswith(word):
            name = self.compounds[i]
            if len(word) >= MIN_PREFIX_SHARE * len(name):
                out.append((name, PREFIX_WORD))
            i += 1
        if out:
            return out
        if ordinary_word(word):  # "employer" is a word, not a misspelled "Employee" (a proper name)
            return []
        limit = 1 if len(word) < 8 else 2
        for name, distance, _ in process.extract(word, self.proper_vocabulary, scorer=Levenshtein.distance,
                                                 score_cutoff=limit, limit=5):
            # "participant" is not a misspelled "Participants", nor "granted" a misspelled "Grantee":
            # another form of the same word (same root once an inflectional ending is dropped)
            if name[0] == word[0] and word_root(name) != word_root(word):
                out.append((name, 1.0 if distance == 1 else FUZZY_WORD))
        return out

    def _scored(self, tokens: list[_Token], protected: frozenset[str]) -> list[tuple[float, str, set[str], set[str]]]:
        """``(score, doc id, naming words hit → their evidence, question words naming it)`` of every
        document a question word meets, best first."""
        # token index -> [(naming word, share)], the Spanish kinds' English words included
        meets: dict[int, list[tuple[str, float]]] = {}
        for i, t in enumerate(tokens):
            if t.word in protected or t.word in GENERIC or t.word.isdigit():
                continue
            found = self._lookup(t.word) + [(w, 1.0) for a in t.alts if a not in protected for w in [a]
                                            if w in self.by_word]
            if found:
                meets[i] = found
        # a name written in words that a file name writes as one compound ("MJ Biotech"): core.docref_grammar
        joined = {i: m for i, m in joined_names([t.word for t in tokens], self.compounds, GENERIC | protected).items()
                  if tokens[i].word not in protected}
        for i, m in joined.items():
            meets[i] = [m] + meets.get(i, [])
        per_doc: dict[str, tuple[DocProfile, dict[int, tuple[str, float]]]] = {}
        for i, found in meets.items():
            for name, share in found:
                for p in self.by_word.get(name, ()):
                    _, held = per_doc.setdefault(p.doc_id, (p, {}))
                    if i not in held or held[i][1] < share:
                        held[i] = (name, share)
        scored = []
        for doc_id, (p, held) in per_doc.items():
            strong = _strong(tokens, held, p, protected) | {i for i, hit in held.items() if joined.get(i) == hit}
            best: dict[str, float] = {}
            for i, (name, share) in held.items():
                value = self.weight[name] * share * (1.0 if i in strong else WEAK_WORD)
                best[name] = max(best.get(name, 0.0), value)
            scored.append((sum(best.values()), doc_id, best, {tokens[i].word for i in strong}))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return scored

    # --- resolution ----------------------------------------------------------------------

    def resolve(self, question: str, protected: frozenset[str] = frozenset(), collection: bool = True) -> Resolution:
        """Which documents ``question`` names (module docstring), and the question without the names.

        A workspace with one eligible document has nothing to resolve.

        Args:
            protected: folded words that must not count as naming words nor be removed (the
                words of a clause type the question asks about: "right of first offer" in a
                question is the clause, even when a contract's title says "Right of First Offer").
            collection: ``False``: rule 1 off (the names are resolved whatever the grammar). With it, a
                question about the collection by its grammar that refers to a document in the singular
                and names exactly one (unambiguously) is that document's ("Does the Flotek agreement
                supersede all prior agreements?"; review 2026-12-02).
        """
        if len(self.profiles) < 2:
            return Resolution(query=question)
        if collection and collection_question(question):  # unless it names one document ("the X agreement")
            named = self.resolve(question, protected, collection=False) if singular_reference(question) else None
            if named is None or len(named.doc_ids) != 1 or named.ambiguous:
                return Resolution(query=question, evidence="collection")
            return named
        files = self._file_named(question)
        if files:
            chosen_profiles = list({p.doc_id: p for group in files for p in group}.values())
            res = Resolution(query=question, evidence="file name", doc_ids=[p.doc_id for p in chosen_profiles],
                             ambiguous=any(len(g) > 1 for g in files),
                             scores={p.doc_id: 1.0 for p in chosen_profiles},
                             matched=[file_stem(p.doc_id) for p in chosen_profiles])
            names = frozenset().union(*(p.names for p in chosen_profiles)) | frozenset(
                w for p in chosen_profiles for w in file_stem(p.doc_id).split())
            res.query = strip_reference(question, names - protected, protected,
                                        proper=frozenset().union(*(p.proper for p in chosen_profiles)))
            return res
        tokens = _question_tokens(question)
        scored = self._scored(tokens, protected)
        res = Resolution(query=question, scores={d: round(s, 3) for s, d, _, _ in scored[:MAX_AMBIGUOUS + 1]})
        kinds, said = question_kinds(question)
        if not scored or scored[0][0] < MIN_AMBIGUOUS_SCORE:
            return self._by_kind(res, kinds, said, scored)
        best = scored[0][0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        if best >= MIN_SCORE and (best >= MARGIN * second or self._distinct(scored)):
            chosen = scored[:1]
            if self._other_kind(chosen[0][1], kinds, chosen[0][2]):  # "how long does the lease last?"
                return self._by_kind(res, kinds, said, scored)
        else:
            chosen = self._ambiguous(scored)
            if not chosen:
                return self._by_kind(res, kinds, said, scored)
            # "the Acme NDA" when Acme signed an NDA and a supply agreement: the kind tells them apart
            of_kind = [s for s in chosen if self.kinds[s[1]] & kinds]
            if len(of_kind) == 1:
                chosen = of_kind
            else:
                res.ambiguous = True
        res.evidence = "naming words"
        res.doc_ids = [d for _, d, _, _ in chosen]
        names = frozenset().union(*(hit for _, _, hit, _ in chosen))
        res.matched = sorted(names)
        chosen_ids = set(res.doc_ids)
        names_all = frozenset().union(*(p.names for p in self._naming(names) if p.doc_id in chosen_ids))
        naming = frozenset().union(*(words for _, _, _, words in chosen))
        proper = frozenset().union(*(p.proper for p in self.profiles if p.doc_id in chosen_ids))
        res.query = strip_reference(question, names_all - protected, protected, naming - protected, proper)
        return res

    def resolve_in_conversation(self, question: str, standalone: str,
                                protected: frozenset[str] = frozenset()) -> Resolution:
        """The scope of a follow-up: the documents ``question`` itself names, else those of its
        rewrite ``standalone`` (which carries the earlier question's words, its document's included).

        "And in the Papa John's endorsement deal?" after a question about the Loop Industries
        agreement names Papa John's: that is the scope, and the keyword query is ``standalone``
        without the naming words of either document.
        """
        if question.strip() == standalone.strip():
            return self.resolve(standalone, protected)
        own = self.resolve(question, protected)
        if own.evidence == "collection":  # "and which of these agreements …?": the whole workspace
            return Resolution(query=standalone, evidence="collection")
        if not own.doc_ids:
            return self.resolve(standalone, protected)
        # the documents the rewrite names (the earlier question's among them): their words go too
        carried = {d for score, d, _, _ in self._scored(_question_tokens(standalone), protected) if score >= MIN_SCORE}
        ids = set(own.doc_ids) | carried
        names = frozenset().union(*(p.names for p in self.profiles if p.doc_id in ids))
        proper = frozenset().union(*(p.proper for p in self.profiles if p.doc_id in ids))
        own.query = strip_reference(standalone, names - protected, protected, proper=proper)
        return own

    def _by_kind(self, res: Resolution, kinds: frozenset[str], said: list[str], scored: list) -> Resolution:
        """``res`` scoped to the documents of the kinds the question names (:mod:`core.dockinds`:
        "the supply agreement", "el contrato de suministro", "the lease" over "Contrato de
        arrendamiento"), when the naming words named none.

        One document of those kinds is the scope; two or three are searched together, as an
        ambiguous reference (the user is told); none, more than :data:`MAX_AMBIGUOUS`, or every
        document of the workspace: no scope. Nor when the naming words lean, even weakly (at least
        :data:`MIN_AMBIGUOUS_SCORE`), towards a document of another kind more than towards any of
        this kind: the evidence disagrees, and a wrong scope is worse than none ("the Vega Retail
        NDA" when Vega Retail signed every document of the workspace is the NDA: the name ties, the
        kind decides). The reference ("según el contrato de suministro") is removed from ``res.query``
        (:func:`strip_reference`). Returns ``res`` itself, changed or not.
        """
        if not kinds:
            return res
        docs = [p.doc_id for p in self.profiles if self.kinds[p.doc_id] & kinds]
        if not docs or len(docs) > MAX_AMBIGUOUS or len(docs) >= len(self.profiles):
            return res
        named = {d: s for s, d, _, _ in scored}
        if scored and scored[0][0] >= MIN_AMBIGUOUS_SCORE and max(named.get(d, 0.0) for d in docs) < scored[0][0]:
            return res  # another document is named more than any of this kind
        res.doc_ids = sorted(docs, key=lambda d: (-named.get(d, 0.0), d))
        res.ambiguous = len(docs) > 1
        res.evidence = "kind of document"
        res.matched = said
        # the reference goes from the keyword and scoring query, as a name does ("¿Qué seguros debe mantener
        # el proveedor según el contrato de suministro?" → "¿Qué seguros debe mantener el proveedor?")
        words = frozenset(w for phrase in said for w in phrase.split())
        res.query = strip_reference(res.query, words, also=words)
        return res

    def _other_kind(self, doc_id: str, kinds: frozenset[str], hits: dict) -> bool:
        """Whether the question names a kind (``kinds``) that ``doc_id`` is known not to be while
        another document is: "How long does the lease last?" over an agency agreement whose naming
        words hold "lease" and "last" (its title says "Equipment Leasing") and a shop lease. The
        evidence disagrees; :meth:`_by_kind` then decides, and gives no scope when the naming words
        lean to the other document (a wrong scope is worse than none). A document of no known kind
        ("Exhibit 10.1") is never contradicted, nor a document named by one of its proper names
        (``hits``, its matched naming words: "the Flotek lease" is Flotek's supply agreement)."""
        own = self.kinds[doc_id]
        proper = next(p.proper for p in self.profiles if p.doc_id == doc_id)
        return bool(kinds and own and not own & kinds and not proper & hits.keys()
                    and any(self.kinds[p.doc_id] & kinds for p in self.profiles))

    @staticmethod
    def _distinct(scored: list) -> bool:
        """Whether the best document wins on the evidence that tells the documents apart.

        Naming words that the best document shares with another ("joint venture" in the titles of
        three joint-venture agreements) count for both and tell nothing; the test of
        :meth:`resolve` (at least :data:`MIN_SCORE`, :data:`MARGIN` times the next) is applied again
        to what is left: the best document's evidence from words the other does not hold ("Veoneer",
        a name only it has) against the other's from words the best does not hold, for every other
        document. "When did the Veoneer joint venture end?" is the Veoneer agreement, not an
        ambiguous reference to every joint venture; "the Acme agreement" over two Acme contracts
        stays ambiguous (nothing tells them apart). Nothing is fitted: the thresholds are
        :meth:`resolve`'s, read as "one name of this document alone, written as a name".
        """
        _, _, hits, _ = scored[0]
        for _, _, other, _ in scored[1:]:
            own = sum(v for w, v in hits.items() if w not in other)
            theirs = sum(v for w, v in other.items() if w not in hits)
            if own < MIN_SCORE or own < MARGIN * theirs:
                return False
        return True

    def _ambiguous(self, scored: list) -> list:
        """Two or three documents that share the question's naming words, none of them clearly
        ahead: "the Acme agreement" when two contracts are with Acme. Each needs at least
        :data:`MIN_AMBIGUOUS_SCORE` and :data:`AMBIGUOUS_SHARE` of the best score, and each must
        have at least :data:`MIN_AMBIGUOUS_SCORE` of it from words that no other document holds
        (else the words are common ones, not a reference). A common word beside them does not
        undo the reference: "the Vireo lease summary" names the two documents titled "Vireo
        Property Management – Lease summary", whatever other documents say "lease"."""
        best = scored[0][0]
        chosen = [s for s in scored if s[0] >= MIN_AMBIGUOUS_SCORE and s[0] >= AMBIGUOUS_SHARE * best]
        if not 2 <= len(chosen) <= MAX_AMBIGUOUS or len(chosen) >= len(self.profiles):
            return []
        ids = {d for _, d, _, _ in chosen}
        for _, _, hits, _ in chosen:
            own = sum(v for w, v in hits.items() if all(p.doc_id in ids for p in self.by_word.get(w, ())))
            if own < MIN_AMBIGUOUS_SCORE:
                return []
        return chosen
