"""Three pieces of document-reference grammar used by :mod:`core.docrefs`, kept apart to keep that module
readable: questions about the whole collection, names written in several words that a file name
writes as one compound, and the whole title a question names its document by.

**Collection** (:func:`collection_question`): "which of these agreements", "all the contracts",
"¿cuáles de estos contratos?" — a plural document noun after a quantifier, "which (of)" or a
demonstrative, or a singular one after "each/every/cada" (closed-class grammar, English and Spanish).

**Joined names** (:func:`joined_names`): "MJ Biotech" is the file "MJBIOTECH,INC_…", "Holiday RV" the
file "HOLIDAYRVSUPERSTORESINC_…": two to four adjacent question words that, written together, are a
file-name compound of a document (or its start, at least :data:`MIN_JOINED_SHARE` of it) name that
document as a whole. Each word alone may name nothing ("biotech") or little ("mj", typed as a short
name); together they are the document's own name, stronger evidence than words several documents
share ("joint venture"). Nothing is fitted: the share is the one of a compound's start written as
one word (:data:`core.docrefs.MIN_PREFIX_SHARE`).

**Title spans** (:func:`complete_title_spans`, :func:`title_end`): "the Supply Agreement between Florida
Chemical Company, LLC and Flotek Chemistry, LLC for Terpene Products" is removed whole, not only its
parties' names ("Whose law controls the interpretation Products?" scored the recitals). Hand-written
closed-class grammar (no library parses a title span in English and Spanish offline): see the comment
above :data:`TITLE_JOINERS`; the figures are in bench/README.md ("The whole title …", 2026-12-02).
"""

from __future__ import annotations

import bisect
import re

from core.docnames import KIND_ABBREVIATIONS, KIND_ES_EN, KIND_ES_EN_PHRASES, KIND_WORDS, NAME_WORD, fold, fold_words, name_word
from core.polarity.lexicon import NEGATION_WORDS

MIN_JOINED_SHARE = 0.6
"""Shortest start of a compound (share of its letters) that a joined name may be."""
MAX_JOINED = 4
"""Most adjacent words joined."""
MIN_JOINED_LEN = 5
"""Shortest joined word looked up (letters)."""

# A question about the collection: a plural document noun after a quantifier, "which (of)", or a
# demonstrative ("which of these agreements", "all the contracts", "¿cuáles de estos contratos?",
# "todos los acuerdos"), or a singular one after "each/every/cada" (closed-class grammar).
_DOC_PLURAL = (r"(?:agreements|contracts|documents|files|deals|ndas|leases|"
               r"acuerdos|contratos|convenios|documentos|archivos|ficheros)")
_DOC_SINGULAR = r"(?:agreement|contract|document|file|deal|nda|lease|acuerdo|contrato|convenio|documento)"
_COLLECTION = re.compile(
    r"\b(?:(?:which|what|how many|any|all|none|each|every|most|many|some)(?: of)?(?: (?:the|these|those|my|our|your))?"
    r"|these|those|across(?: all)?(?: the| these| my| our)?|in all(?: the)?"
    r"|(?:cuales|cuantos|cuantas|todos|todas|ninguno|ninguna|alguno|alguna|varios|varias)(?: de)?"
    r"(?: (?:los|las|estos|estas|esos|esas|mis|nuestros|nuestras))?"
    r"|estos|estas|esos|esas)"
    r"(?: \w+){0,2}? " + _DOC_PLURAL + r"\b"
    r"|\b(?:each|every|cada|any other)(?: \w+)? " + _DOC_SINGULAR + r"\b"
    # "¿En qué contratos…?", "¿Qué acuerdos…?": "que" right before the plural noun only ("dice que los
    # contratos anteriores…" is about one document)
    r"|\bque " + _DOC_PLURAL + r"\b")


def collection_question(question: str) -> bool:
    """Whether ``question`` asks about the documents as a collection ("Which of these agreements are
    governed by Florida law?", "Do all contracts have a cap?", "¿Cuáles de estos contratos…?"):
    then no single document is its scope."""
    return _COLLECTION.search(" ".join(fold_words(question))) is not None


_EACH = frozenset({"each", "every", "cada", "any", "other"})
_SINGULAR_NOUN = re.compile(rf"^{_DOC_SINGULAR}$")


def singular_reference(question: str) -> bool:
    """Whether ``question`` refers to a document in the singular ("the Flotek agreement", "el contrato de
    Flotek"), not after "each/every/any (other)/cada": a question about the collection by its grammar ("all
    prior agreements") may still be about the one document it names (:meth:`core.docrefs.DocResolver.resolve`)."""
    words = fold_words(question)
    return any(_SINGULAR_NOUN.match(w) and not _EACH & set(words[max(0, i - 2):i]) for i, w in enumerate(words))


def joined_names(words: list[str], compounds: list[str], generic: frozenset[str]) -> dict[int, tuple[str, float]]:
    """Question word index → ``(compound, share)`` for the runs of 2 to :data:`MAX_JOINED` adjacent
    ``words`` (folded) that, joined, are a compound of ``compounds`` (sorted): share 1.0 when equal,
    else the joined word's share of the compound, when it starts it and is at least
    :data:`MIN_JOINED_SHARE` of it (the longest run wins). A run never starts or ends on a word of
    ``generic`` (articles, "agreement": "the MJ" is not "themj")."""
    out: dict[int, tuple[str, float]] = {}
    for i in range(len(words)):
        for n in range(MAX_JOINED, 1, -1):
            run = words[i:i + n]
            if len(run) < n or run[0] in generic or run[-1] in generic:
                continue
            joined = "".join(run)
            if len(joined) < MIN_JOINED_LEN:
                continue
            k = bisect.bisect_left(compounds, joined)
            best = None
            while k < len(compounds) and compounds[k].startswith(joined):
                c = compounds[k]
                share = len(joined) / len(c)
                if share >= MIN_JOINED_SHARE and (best is None or share > best[1]):
                    best = (c, 1.0 if c == joined else share)
                k += 1
            if best is not None:
                for j in range(i, i + n):
                    if j not in out or out[j][1] < best[1]:
                        out[j] = best
                break
    return out


# --- Title spans ------------------------------------------------------------------------------
# A question that names its document by its title writes the whole title as one title-cased span:
# "the Supply Agreement between Florida Chemical Company, LLC and Flotek Chemistry, LLC for Terpene
# Products", "the Sponsorship Agreement between R. C. Boyd Enterprises, LLC and Cano Petroleum, Inc. for
# 'Honey Hole'", "el contrato de agencia entre GE Capital y Duckwall-ALCO". The naming words the resolver
# knows (parties, file-name words) are only part of it: the product in "for Terpene Products", a position
# ("for Chief Business Officer Position"), initials ("R. C."). Closed-class grammar (English and Spanish),
# nothing fitted: capitalised words, the function words that join the words of a title (only between two
# capitalised words), company forms after a comma, abbreviation periods, parentheses and quotes. A span
# grows only when it is a title — it holds a document noun or follows one ("Agreement between …",
# "contrato de agencia de GE Capital"): capitalised words next to a name are not a title by themselves
# ("Who won Super Bowl XLIX?" keeps "XLIX"). It never crosses a word of the clause asked about (a
# document noun included: "transfer the … Agreement" keeps "Agreement" for assignment), an identifier,
# a possessive ("Glamis's Mexican properties"), a kind abbreviation before a lower-case document noun
# ("the MJ Biotech JV agreement"), nor a comma that no company form follows.

#: Function words inside a title, crossed only between two capitalised words ("Agreement between General",
#: "Products for 'Honey Hole'", "contrato de Nigel"). Not "with/in/on": "the Acme agreement with New York law".
TITLE_JOINERS = frozenset("of for and & between among the a an de del y e entre para la las el los".split())
#: An article, and a preposition before it, that attach a title to the question ("under the …", "of the …",
#: "según el …"): removed with the title.
TITLE_ARTICLES = frozenset("the this that said el la los las este esta dicho dicha".split())
TITLE_PREPOSITIONS = frozenset(
    "under of in over to for by from on within throughout en de del bajo segun con sobre para por".split())
#: Company forms written after a comma inside a name ("Duckwall-Alco Stores, Inc.").
COMPANY_FORMS = frozenset("inc incorporated corp corporation co llc ltd limited plc lp llp sa sl sau slu gmbh ag nv bv srl spa".split())
_DOC_NOUN_WORD = re.compile(r"^(?:" + _DOC_SINGULAR + r"|" + _DOC_PLURAL + r")$")
_SEPARATOR = re.compile(r"^[\s,\-&'\"“”‘’«»().]*$")


def complete_title_spans(text: str, words: list[tuple[str, int, int, bool]], cuts: list[tuple[int, int]],
                         stop: set[int]) -> list[tuple[int, int]]:
    """The word ranges ``cuts`` (inclusive word indexes into ``words``) grown to the whole title span they
    lie in (see the comment above), sorted and merged.

    Args:
        text: the question.
        words: ``(folded word, start, end, capitalised)`` for each word of ``text`` (character offsets;
            capitalised: written with a capital and not at a sentence start).
        cuts: the naming runs found by :func:`core.docrefs.strip_reference`.
        stop: word indexes a span never crosses (clause words the question asks about, identifiers).
    Returns:
        The grown ranges, inclusive, non-overlapping, in order.
    """
    def joins(i: int, j: int) -> bool:  # words i and j = i + 1 are in one span (nothing but separators)
        gap = text[words[i][2]:words[j][1]]
        if not _SEPARATOR.match(gap):
            return False
        if "," in gap and words[j][0] not in COMPANY_FORMS:
            return False  # "…Equipment Leasing, can either side": a comma ends a title unless "…, Inc."
        if "." in gap and text[words[j][1]].isupper() and not words[j][3]:
            return False  # a period before a sentence's first word, not an abbreviation's ("R. C. Boyd")
        return True

    def doc_noun(k: int) -> bool:  # a document noun written in lower case: a description, not a title
        return 0 <= k < len(words) and text[words[k][1]].islower() and _DOC_NOUN_WORD.match(words[k][0]) is not None

    def title_word(k: int) -> bool:
        # a capitalised word, not the modifier of a lower-case description ("the MJ Biotech JV agreement",
        # "el acuerdo de PI de Premier": the kind the question asks about stays)
        return k not in stop and words[k][3] and words[k][0] not in KIND_ABBREVIATIONS and not (doc_noun(k + 1) and joins(k, k + 1)) and not (
            k >= 2 and words[k - 1][0] in ("de", "del") and doc_noun(k - 2))

    def titled(i: int, j: int) -> bool:
        """Whether words i..j hold a document noun, or follow one through joining and kind words
        ("Agreement between R. C. Boyd", "contrato de agencia de GE Capital")."""
        if any(_DOC_NOUN_WORD.match(words[k][0]) for k in range(i, j + 1)):
            return True
        k = i - 1
        while k >= 0 and joins(k, k + 1):
            if _DOC_NOUN_WORD.match(words[k][0]):
                return True
            if words[k][0] not in TITLE_JOINERS and words[k][0] not in KIND_WORDS and words[k][0] not in KIND_ES_EN:
                return False
            k -= 1
        return False

    def possessive(k: int) -> bool:  # "Glamis's Mexican properties": a name ends at its possessive
        end = words[k][2]
        if text[end - 2:end] in ("'s", "’s"):
            return True
        # "Industries' obligations", not the closing quote of "for 'Honey Hole'"
        return text[end - 1] in "'’" and text[end - 2] in "sS" and text[:end - 1].count(text[end - 1]) % 2 == 0

    out = []
    for i0, j0 in cuts:
        i, j = i0, j0
        # rightwards: capitalised words, and joiners between two capitalised words
        while j + 1 < len(words) and joins(j, j + 1) and not possessive(j):
            k = j + 1
            if title_word(k):
                j = k
                continue
            if not words[j][3]:
                break
            m = k
            while m < len(words) and m not in stop and words[m][0] in TITLE_JOINERS and not words[m][3] \
                    and (m == k or joins(m - 1, m)):
                m += 1
            if m > k and m < len(words) and joins(m - 1, m) and title_word(m):
                j = m
                continue
            break
        # leftwards: the same
        while i > 0 and joins(i - 1, i):
            k = i - 1
            if title_word(k):
                i = k
                continue
            if not words[i][3]:
                break
            m = k
            while m >= 0 and m not in stop and words[m][0] in TITLE_JOINERS and not words[m][3] \
                    and (m == k or joins(m, m + 1)):
                m -= 1
            if m < k and m >= 0 and joins(m, m + 1) and title_word(m):
                i = m
                continue
            break
        # only a title: a span holding a document noun ("the Supply Agreement between … for Terpene Products",
        # "el contrato de agencia de GE Capital"). Capitalised words next to a name are not a title by
        # themselves: "Who won Super Bowl XLIX?", "the General Manager for the Broncos" keep them.
        if not titled(i, j):
            i, j = i0, j0
        # then the article and the preposition that attach the name
        # (not before a possessive: "over Acme's records" — the preposition governs "records")
        if i > 0 and not possessive(j) and i - 1 not in stop and words[i - 1][0] in TITLE_ARTICLES and joins(i - 1, i):
            i -= 1
        if i > 0 and not possessive(j) and i - 1 not in stop and words[i - 1][0] in TITLE_PREPOSITIONS and joins(i - 1, i):
            i -= 1
        out.append((i, j))
    out.sort()
    merged: list[tuple[int, int]] = []
    for i, j in out:
        if merged and (i <= merged[-1][1] or i == merged[-1][1] + 1 and joins(i - 1, i)):
            merged[-1] = (merged[-1][0], max(merged[-1][1], j))
        else:
            merged.append((i, j))
    return merged


def title_end(text: str, start: int, end: int, last: str) -> int:
    """``end`` (character offset) moved past the punctuation the removed span ``text[start:end]`` owns: the
    period of a final initial or company form (``last``, folded: "Inc."), a closing parenthesis or quote
    it opened."""
    if text[end:end + 1] == "." and (len(last) == 1 or last in COMPANY_FORMS):
        end += 1
    piece = text[start:end]
    while end < len(text):
        c = text[end]
        if c == ")" and piece.count("(") > piece.count(")"):
            pass
        elif c in "\"”’»'" and sum(piece.count(q) for q in "\"“‘«'") % 2 == 1:
            pass
        else:
            break
        piece += c
        end += 1
    return end


def _kind_content(question: str, names: frozenset[str], proper: frozenset[str]) -> frozenset[str]:
    """Words of ``question`` naming a kind of contract used as content, not as a reference (see
    :func:`strip_reference`): typed in lower case, naming words of the document but none of its
    proper names, and not qualifying a document noun (the first word after the run of kind words
    is not "agreement", "contract", "deal", "contrato"…)."""
    words = [(name_word(m.group(0)), m.group(0)) for m in NAME_WORD.finditer(question)]
    out = set()
    for i, (f, raw) in enumerate(words):
        if not (raw.islower() and f in names and f in KIND_WORDS and f not in proper):
            continue
        j = i + 1
        while j < len(words) and words[j][0] in KIND_WORDS:
            j += 1
        if j < len(words) and _DOC_NOUN_WORD.match(words[j][0]):
            continue
        out.add(f)
    return frozenset(out)


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


# --- The kind of a document named by its noun ------------------------------------------------
# "¿A qué derecho se somete el acuerdo de propiedad intelectual?", "Does King receive a share under the
# co-promotion agreement?": the words that qualify a document noun say which document is meant (its kind,
# its title), not which clause is asked about, although "propiedad intelectual", "promotion", "license"
# are also a clause vocabulary's words. Closed-class grammar (English and Spanish), nothing fitted: in
# English the words between a definite determiner or a possessive and the noun ("the intellectual property
# agreement", "Acme's supply contract"), and a capitalised title that goes on after the noun ("Agreement
# for Market Data Software", "Agreement and Right of First Offer"); in Spanish the words after the noun
# and "de/del" ("el contrato de prestación de servicios", "el acuerdo de modificación y terminación del
# joint venture") up to a preposition that starts another complement ("entre", "con", "sobre"…) or a
# punctuation mark. A noun followed by "clause", "cláusula"… names a clause ("the entire agreement
# clause"), and "entire/whole" say how much of the document, not its kind: both are left alone.

_KIND_NOUN_EN = frozenset("agreement agreements contract contracts deal deals nda ndas lease leases".split())
_KIND_NOUN_ES = frozenset("acuerdo acuerdos contrato contratos convenio convenios".split())
_DEFINITE = frozenset("the this that these those its their his her our your my".split())
#: Words after which a document noun names a clause or a part, not a document.
_CLAUSE_NOUNS = frozenset("clause clauses provision provisions section sections term terms language clausula clausulas "
                          "apartado estipulacion".split())
_TOTALITY = frozenset("entire whole complete full integro completo".split())
#: Spanish words that end the kind after "contrato de …": another complement, a verb's particle, a conjunction.
_ES_KIND_END = frozenset("entre con segun sobre para por en a al que cuando si hasta desde tras sin o u como "
                         "respecto".split())
_ES_KIND_JOINERS = frozenset("de del y e la el los las".split())
_MAX_KIND_WORDS = 6


def document_kind_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges ``(start, end)`` of ``text`` holding the words that qualify a document noun (see
    the comment above): the kind or title of the document meant, not the clause asked about. Sorted,
    possibly touching; ``[]`` when ``text`` names no document by a qualified noun."""
    words = [(name_word(m.group(0)), m.start(), m.end(), m.group(0)) for m in NAME_WORD.finditer(text)]

    def gap(i: int, j: int) -> str:
        return text[words[i][2]:words[j][1]]

    def plain(i: int, j: int) -> bool:  # words i and j = i + 1 are separated by spaces or a hyphen only
        return re.fullmatch(r"[\s\-]*", gap(i, j)) is not None

    def possessive(k: int) -> bool:  # "Acme's", "Industries'"
        return words[k][3].endswith(("'s", "’s", "s'", "s’"))

    def clause_after(i: int) -> bool:
        return i + 1 < len(words) and plain(i, i + 1) and words[i + 1][0] in _CLAUSE_NOUNS

    out: list[tuple[int, int]] = []
    for i, (w, _, _, raw) in enumerate(words):
        if w in _KIND_NOUN_EN and not clause_after(i):
            k = i - 1
            while k >= 0 and i - k <= _MAX_KIND_WORDS and plain(k, k + 1) and words[k][0] not in _DEFINITE \
                    and not possessive(k):
                k -= 1
            definite = k >= 0 and i - k > 1 and (words[k][0] in _DEFINITE or possessive(k))
            if definite and not _TOTALITY & {words[m][0] for m in range(k + 1, i)}:
                out.append((words[k + 1][1], words[i - 1][2]))
            if raw[:1].isupper():  # a title that goes on after its noun: capitalised words and their joiners
                j = i
                while j + 1 < len(words) and plain(j, j + 1):
                    m = j + 1
                    while m < len(words) and words[m][0] in TITLE_JOINERS and not words[m][3][:1].isupper() \
                            and plain(m - 1, m):
                        m += 1
                    if m < len(words) and plain(m - 1, m) and words[m][3][:1].isupper():
                        j = m
                    else:
                        break
                if j > i:
                    out.append((words[i + 1][1], words[j][2]))
        elif w in _KIND_NOUN_ES and not clause_after(i) and i + 1 < len(words) and words[i + 1][0] in ("de", "del") \
                and plain(i, i + 1):
            j, last = i + 1, None
            while j + 1 < len(words) and plain(j, j + 1) and j + 1 - i <= _MAX_KIND_WORDS + 1 \
                    and words[j + 1][0] not in _ES_KIND_END:
                j += 1
                if words[j][0] not in _ES_KIND_JOINERS:
                    last = j
            if last is not None and not _TOTALITY & {words[m][0] for m in range(i + 2, last + 1)}:
                out.append((words[i + 2][1], words[last][2]))
    return sorted(out)


def kind_words(text: str) -> frozenset[str]:
    """The folded words (:func:`core.docnames.name_word`) inside :func:`document_kind_spans` of ``text``."""
    spans = document_kind_spans(text)
    return frozenset(name_word(m.group(0)) for m in NAME_WORD.finditer(text)
                     if any(a <= m.start() < b for a, b in spans))


def without_words(text: str, words: frozenset[str]) -> str:
    """``text`` with every word whose folded form (:func:`core.docnames.name_word`) is in ``words`` blanked
    out (offsets kept): what a clause vocabulary reads in a question without the words naming the kind of
    its document (:func:`kind_words`)."""
    if not words:
        return text
    chars = list(text)
    for m in NAME_WORD.finditer(text):
        if name_word(m.group(0)) in words:
            chars[m.start():m.end()] = " " * (m.end() - m.start())
    return "".join(chars)


#: Negation words, folded (:data:`core.polarity.lexicon.NEGATION_WORDS`): never part of a naming run.
_NEGATIONS = frozenset(fold(w) for w in NEGATION_WORDS)


def negation_outside_name(question: str, tokens: list[re.Match], i: int) -> bool:
    """Whether ``tokens[i]`` (:data:`core.docnames.NAME_WORD` matches of ``question``) is a negation word of
    the question ("… con GE Capital sin causa"), which a naming run never takes
    (:func:`core.docrefs.strip_reference`), and not part of a name: a prefix ("Non-Competition Agreement")
    or the start of a Spanish kind of contract ("acuerdo de no competencia",
    :data:`core.docnames.KIND_ES_EN_PHRASES`)."""
    word = name_word(tokens[i].group(0))
    if word not in _NEGATIONS:
        return False
    end = tokens[i].end()
    if question[end:end + 1] in "-‐–":
        return False
    nxt = name_word(tokens[i + 1].group(0)) if i + 1 < len(tokens) else ""
    return not any(k[:2] == (word, nxt) for k in KIND_ES_EN_PHRASES)
