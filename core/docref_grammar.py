"""Two pieces of document-reference grammar used by :mod:`core.docrefs`, kept apart to keep that module
readable: questions about the whole collection, and names written in several words that a file name
writes as one compound.

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
"""

from __future__ import annotations

import bisect
import re

from core.docnames import fold_words

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
