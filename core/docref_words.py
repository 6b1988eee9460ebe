"""The words of a question that name a document: the question's tokens, which of them name a
given document (:func:`_strong`), and the question without them (:func:`strip_reference`).

Split out of :mod:`core.docrefs` (which scores documents with these words and re-exports
:func:`strip_reference`); the rules are described there, in its module docstring ("Cleaning").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.commonwords import ordinary_word
from core.docnames import (GENERIC, KIND_ES_EN, KIND_ES_EN_PHRASES, KIND_WORDS, NAME_WORD, DocProfile,
                           expand_kind_abbreviations, fold_words, name_word, sentence_start, title_words,
                           word_spans)
from core.docref_grammar import (
    _in_identifier, _kind_content, complete_title_spans, negation_outside_name, title_end)

# Sentence punctuation ends a naming run; commas, periods of abbreviations, ampersands and
# hyphens do not ("Duckwall-Alco Stores, Inc. for Equipment Leasing").
_RUN_BREAK = re.compile(r"[;?!:¿¡\n]|\.\s+(?=[A-ZÁÉÍÓÚÑ¿¡])")


@dataclass
class _Token:
    word: str
    start: int
    end: int
    as_name: bool
    """Written as a name: capitalised, not at a sentence start."""
    alts: tuple[str, ...] = ()
    """English title words of a Spanish kind of contract ("patrocinio" → "sponsorship")."""
    initials: bool = False
    """Written in capitals, 2 to 4 letters: maybe the initials of a longer name ("GE" Capital)."""


def _question_tokens(question: str) -> list[_Token]:
    """The question's words (:func:`core.docnames.name_word` forms) with their offsets, whether each
    is written as a name, and the English title words of a Spanish kind of contract."""
    out = []
    for w, start, end, raw in word_spans(question):
        out.append(_Token(w, start, end, raw[0].isupper() and not sentence_start(question, start),
                          KIND_ES_EN.get(w, ()), raw.isupper() and raw.isalpha() and 2 <= len(raw) <= 4))
    words = [t.word for t in out]
    for phrase, english in KIND_ES_EN_PHRASES.items():
        n = len(phrase)
        for i in range(len(words) - n + 1):
            if tuple(words[i:i + n]) == phrase:
                for t in out[i:i + n]:
                    t.alts = tuple(dict.fromkeys(t.alts + english))
    return out



def _strong(tokens: list[_Token], held: dict[int, tuple[str, float]], profile: DocProfile,
            protected: frozenset[str] = frozenset()) -> set[int]:
    """Indexes of the tokens that name ``profile`` in the question (see :meth:`DocResolver.resolve`).

    A token is strong when the naming word it meets is one of the document's proper names
    (:data:`core.docnames.DocProfile.proper`: "purolator" in lower case), when it is written as a
    name and most of the capitalised run it belongs to names the document ("General Electric
    Capital" does; in "the General Manager of the Broncos" the word "General" is part of a name
    the document does not hold), or when another naming word of the same document is next to it,
    only generic words between — or a number of the document's title ("draft 3 of the supply
    agreement") — at most :data:`_NEAR` tokens away: "the promotion agreement with King", "el
    contrato de patrocinio de Cano". Honorifics are generic (:data:`core.docnames.HONORIFICS`): "la
    Sra. García" is a run of one name.
    """
    strong: set[int] = set()
    in_run: set[int] = set()
    i = 0
    while i < len(tokens):
        if not tokens[i].as_name:
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and tokens[j + 1].as_name:
            j += 1
        run = [k for k in range(i, j + 1)
               if tokens[k].word not in GENERIC and tokens[k].word not in KIND_WORDS and tokens[k].word not in protected]
        found = [k for k in run if k in held]
        # initials that start one of the document's initialisms or words ("GE Capital" for "General
        # Electric Capital Corporation", initialism "gecc") belong to its name: they count for the
        # run, and score nothing themselves
        initials = [k for k in run if k not in held and tokens[k].initials
                    and any(len(n) > len(tokens[k].word) and n.startswith(tokens[k].word) for n in profile.names)]
        if len(run) > 1:
            in_run.update(run)
        if found and (len(found) + len(initials)) * 2 > len(run):
            strong.update(found)
        i = j + 1
    # a proper name of the document names it, unless it stands in a longer name that does not
    # ("Florida" in "the Florida Chemical supply agreement" for a contract with a Florida company)
    # (a word naming a kind of document, "JV", "NDA", is never a party's proper name)
    # nor is an ordinary word of the language typed in lower case ("unused holiday" for "Holiday RV
    # Superstores", :mod:`core.commonwords`) unless it is a word of the document's file name or title
    # and another one stands in the question too ("can king assign the promotion agreement"; not the
    # defined term "employee" beside "service"): alone it is the question's subject, not a name
    titled = title_words(profile)
    with_title = {name for name, _ in held.values() if name in titled}
    strong |= {i for i, (name, _) in held.items()
               if name in profile.proper and i not in in_run and tokens[i].word not in KIND_WORDS
               and (not ordinary_word(tokens[i].word) or name in titled and with_title - {name})}
    # between two naming words: generic words, or a number of the document's title ("draft 3 of the
    # supply agreement" for "Supply agreement draft 3 with review notes": the title's own words)
    numbers = {w for w in titled if w.isdigit()}
    for i in held:
        for j in held:
            if j != i and held[j][0] != held[i][0] and abs(j - i) <= _NEAR and all(
                    tokens[k].word in GENERIC or tokens[k].word in numbers for k in range(min(i, j) + 1, max(i, j))):
                strong.add(i)
    return strong


#: Farthest apart (in words) two naming words of one document strengthen each other.
_NEAR = 4


def _question_words(question: str) -> list[tuple[str, bool]]:
    """The question's words, folded, each with whether it is written as a name."""
    return [(t.word, t.as_name) for t in _question_tokens(question)]


def _strong_positions(tokens: list[tuple[str, bool]], names: frozenset[str]) -> set[int]:
    """Indexes of the naming words among ``tokens`` written as names or next to another naming
    word (the test of :func:`_strong` without a profile's proper names), for :func:`strip_reference`."""
    toks = [_Token(w, 0, 0, as_name) for w, as_name in tokens]
    held = {i: (w, 1.0) for i, (w, _) in enumerate(tokens) if w in names and w not in GENERIC}
    return _strong(toks, held, DocProfile("", "", frozenset()))


def strip_reference(question: str, names: frozenset[str], protected: frozenset[str] = frozenset(),
                    also: frozenset[str] = frozenset(), proper: frozenset[str] | None = None) -> str:
    """``question`` without the runs of words that name a document.

    A run is a maximal sequence of words each either in ``names`` or generic
    (:data:`GENERIC`), holding at least one word of ``names``, not crossing sentence
    punctuation (``; ? ! :``) and holding a word written as a name (see :meth:`DocResolver.resolve`);
    the whole run goes, generic words included ("the Duckwall agreement"). Protected words end a run,
    and so do the words of an identifier (a whitespace-delimited piece mixing letters and digits,
    "REF-7731-B", "ART-12.3(b)"): it is the question's subject even where it also names the
    document that lists it; a negation word ends a run too ("… con GE Capital sin causa" keeps "sin"). Each run then grows to the whole title span it lies in
    (:func:`core.docref_grammar.complete_title_spans`: "… for Terpene Products", "R. C. Boyd", "(Dynamex
    Inc.)", with the article and preposition attaching it), clause words still ending it. ``also``: question words known to name the document in this
    question (:meth:`DocResolver.resolve` found them: a proper name typed in lower case, a
    misspelling, a Spanish kind of contract such as "patrocinio"), removed as if written as names. Returns the question
    itself when the result would be empty or hold no word outside the removed runs.

    ``proper``: the proper names of the documents named (:attr:`core.docnames.DocProfile.proper`).
    When given, a word naming a kind of contract (:data:`core.docnames.KIND_WORDS`: "franchise",
    "joint venture", "supply"…) typed in lower case and none of them — a common word, which the
    document itself writes in lower case — is what the question asks about as much as a name of
    the document ("how long is the Roanoke Gas franchise granted for", "when did the Veoneer
    joint venture end"): it is kept (it ends a run). Only the words that name and nothing else
    (parties, file-name compounds, capitalised titles, proper names in any case, misspellings)
    are removed. A kind word that qualifies a document noun ("the endorsement agreement", "the
    joint venture deal") names the document and goes with it.
    """
    content = frozenset() if proper is None else _kind_content(question, names, proper)
    clause_words = protected
    protected = protected | content
    names = (names | also) - content
    tokens = list(NAME_WORD.finditer(question))
    # by position: "disclosure" in a quoted file name names it, "allow disclosure to advisers" does not
    strong = _strong_positions(_question_words(question), names)
    kinds = []
    for m in tokens:
        f = name_word(m.group(0))
        if _in_identifier(question, m.start(), m.end()):
            kinds.append("o")  # "REF-7731-B" is what the question asks about, even if its document lists it
        elif f in protected or negation_outside_name(question, tokens, len(kinds)):
            kinds.append("o")  # a negation is the question's ("… de Brett Haumann sin causa"), not a name's
        elif f in names:
            kinds.append("n")
        elif f in GENERIC or f.isdigit():
            kinds.append("g")
        else:
            kinds.append("o")
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if kinds[i] == "o":
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and kinds[j + 1] != "o" and not _RUN_BREAK.search(
                question[tokens[j].end():tokens[j + 1].start()]):
            j += 1
        if any(kinds[x] == "n" and (x in strong or name_word(tokens[x].group(0)) in also) for x in range(i, j + 1)):
            runs.append((i, j))
        i = j + 1
    if not runs:
        return expand_kind_abbreviations(question)
    # the whole title the question names the document by, not only the words the resolver knows
    # ("… for Terpene Products", "R. C. Boyd", "(Dynamex Inc.)"): core.docref_grammar
    words = [(name_word(m.group(0)), m.start(), m.end(), m.group(0)[0].isupper()
              and not sentence_start(question, m.start())) for m in tokens]
    stop = {x for x, m in enumerate(tokens) if _in_identifier(question, m.start(), m.end())
            or words[x][0] in clause_words}
    runs = complete_title_spans(question, words, runs, stop)
    kept = [kinds[x] for x in range(len(tokens)) if not any(a <= x <= b for a, b in runs)]
    cut = [(tokens[a].start(), title_end(question, tokens[a].start(), tokens[b].end(), words[b][0]))
           for a, b in runs]
    out, pos = [], 0
    for a, b in cut:
        out.append(question[pos:a])
        pos = b
    out.append(question[pos:])
    cleaned = re.sub(r"\s+", " ", "".join(out))
    cleaned = re.sub(r"[\"“'‘«`]\s*[\"”'’»`]", "", cleaned)  # the quotes a removed file name leaves
    cleaned = re.sub(r"\s+([,.;:?!])", r"\1", cleaned).strip(" ,")
    cleaned = re.sub(r"^[;:]\s*", "", cleaned)  # "Consider <title>; What is …" → "What is …"
    cleaned = re.sub(r",+(?=[.;:?!])", "", cleaned)  # "…, and by whom, under the X Agreement?"
    return expand_kind_abbreviations(cleaned if any(k == "o" for k in kept) and fold_words(cleaned) else question)

