"""Negation scope: which words of a text are stated negatively, positively, or conditionally.

A dependency-free approximation of cue-and-scope negation marking (the task of the
*SEM 2012 shared task; Morante & Blanco 2012), written by hand because no parser or
negation model installs offline (see :mod:`core.polarity.lexicon`). Each word gets a
polarity: ``0`` stated, ``1`` negated, ``None`` conditional (its polarity depends on an
exception: "may not assign *without consent*" neither allows nor forbids assigning outright).

Rules, in reading order (lists in :mod:`core.polarity.lexicon`):

* a sentential cue ("not", "never", "cannot", "-n't", "in no event", Spanish "no",
  "en ningún caso") negates the rest of its clause; a second cue in the same clause starts
  a new negation rather than cancelling the first ("a person who is not a party may not
  enforce");
* a negative determiner ("no party", "neither X nor Y", "nothing in this Agreement",
  "ningún") negates the predicate: the words up to the next auxiliary or modal ("shall",
  "may", "is", "podrá") are its subject and stay conditional; when no auxiliary follows
  ("has no authority to bind"), they are negated;
* a lexical negative ("excluded", "prohibited", "restricted from", "free of") and an upper
  bound ("not more than", "no later than", "within 30 days", "at most") flip the polarity of
  what follows them (so "not restricted" is stated, "not less than" = "at least");
* an exception inside a negation ("shall not … without / unless / except / other than Y")
  makes the negated words conditional and states Y; "only if" does the same to the words
  before it; outside a negation "without Y" negates Y only;
* a clause ends at . ; ? ! and at a word that starts a new clause, condition or relative
  clause (but, if, when, which, who, "that the …", "and that", "provided that" -- not "provided
  for in" --, pero, si, que); a parenthesis inherits the negation around it and restores it after;
  a colon after a negation carries it into every list item that follows (the items are read as
  continuing the lead-in), and so does a quote that starts with a list marker ("(b) lend money")
  after a negated quote cut before its colon;
* an adverbial clause ("if", "when", "in the event that" …) ends at its comma ("If no notice is
  given, the Agreement will renew": "renew" is stated); a strong modal after a comma or "and"
  inside a negation starts a new clause whose subject is not negated ("shall have no obligation to
  A, and B shall remain liable");
* "no" right after an auxiliary or the predicate is the object's determiner and negates the
  predicate ("shall have no obligation", "will provide no services" = "will not provide services");
* deontic operators (Hohfeld's duty / privilege): "need not X", "is not required / obliged to X",
  "has no obligation to X", "no party shall be obliged to X", "may elect not to X" leave X to the
  party: X is ``optional`` (polarity None), neither stated nor negated; "shall X" / "must X" /
  "is required to X" mark X as a ``duty``; :mod:`core.polarity.compare` sets "need not X" against
  "shall not X" (a ban) or "shall X" (a duty);
* the predicate (``head``) is the first content word after a modal or cue, skipping a raising verb
  ("shall not be deemed to *affect*"); a verb coordinated with it is a predicate too ("affect or
  *impair*"); words of a relative clause ("damages *which* X incurs") are marked ``relative``
  (described, not asserted), words after "only" / "restricted to" ``only`` (what the restriction
  admits), words an outside "without" negates ``lacking`` ("terminate without *notice*").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import core.polarity.lexicon as lx

_TOKEN = re.compile(r"\d[\d.,]*|[^\W\d_]+(?:'[^\W\d_]+)?|[,;:.!?()]", re.UNICODE)
_PREFIX = re.compile(r"^(?:un|in|im|ir|il|non|des|dis)(?=[^\W\d_]{4,})")
_ADJECTIVE = re.compile(r"(?:able|ible|al|ent|ant|ive|ful|ed|id|ar|ido|ida|idos|idas|ble|bles|ente|entes|ante|antes|"
                        r"ivo|iva|ivos|ivas|ado|ada|ados|adas|ico|ica|ial|iales|ales)$")
_ENUMERATED = re.compile(r"^\s*\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)\s", re.IGNORECASE)
"""A list item's marker at the start of a quote: "(b) ", "b) ", "(iv) ", "(2) "."""
_CONTRACTED = {"wo": "will", "ca": "can", "sha": "shall"}


def _on(rule: str) -> bool:
    """False when ``rule`` is switched off for the ablation (:data:`core.polarity.lexicon.RULES_OFF`)."""
    return rule not in lx.RULES_OFF


_BE = frozenset({"be", "been", "being", "is", "are", "was", "were", "es", "son", "será", "serán", "sea", "sean"})
_PARTICIPLE = ("ed", "en", "wn", "id", "ne", "ht", "ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas")
"""Endings of a passive participle before "by" / "por" ("assigned", "given", "shown", "paid", "done",
"brought"; "cedido", "firmada"); a rough test, paired with a form of "be" in the same clause."""
_FINITE = re.compile(r"^[a-z]{3,}[^suie']s$|^[a-z]{2,}(?:ie|e)s$")
"""A third-person present verb form ("remains", "agrees", "carries"): used only right after a capitalised
word, where a noun plural is rare ("the Company remains")."""
_DETERMINERS = frozenset({"the", "a", "an", "any", "its", "their", "either", "each", "such", "el", "la", "los", "las"})
_SHORT_SCOPE = 6
"""Words an outside "without" reaches ("may terminate without [prior written notice]")."""


@dataclass
class Word:
    """One content word of a text: its surface form, stems and polarity (0, 1 or None)."""

    text: str
    stems: frozenset[str]
    polarity: int | None
    scoped: bool
    """True when some operator reached it (a stated word outside any negation is False)."""
    subject: bool = False
    """Before the first auxiliary, modal or cue of its clause (a clause without one has no subject)."""
    cond: bool = False
    """Negated, then excepted ("shall not *assign* without consent"): conditional; ``polarity`` keeps 1."""
    excepted: bool = False
    """Stated by an exception ("without the *consent* of"): what the rule requires."""
    restricted: bool = False
    """The subject of a negated clause ("*the Licensee* shall not"): whom the rule restricts."""
    head: bool = False
    """The first content word after a modal, auxiliary or cue: the predicate ("shall not *assign*")."""
    only: bool = False
    """After "only" / "restricted to" in its clause: what the restriction admits ("only for *the Approved Use*")."""
    optional: bool = False
    """Left to the party by the absence of a duty ("need not *provide*", "is not required to *provide*"):
    neither stated nor negated (``polarity`` None)."""
    duty: bool = False
    """Under a modal of obligation ("shall *provide*", "must *provide*", "is required to *provide*")."""
    lacking: bool = False
    """Negated by an outside "without" ("may terminate without *notice*"): what the act goes without."""
    relative: bool = False
    """In a relative clause ("damages *which* the parties incur"): described, not asserted or denied."""
    clause: int = -1
    """Index of the clause the word was read in (0-based, in reading order; a new clause starts at
    . ; : , of an adverbial clause, a boundary word, or a modal that opens a new verb phrase)."""
    agent: bool = False
    """The agent of a passive ("may not be assigned *by Licensee*"): who acts, like a subject."""


@dataclass
class Reading:
    """A text read for polarity: its content words, whether it states a condition
    (:data:`core.polarity.lexicon.CONDITIONS`), and its lower-cased tokens."""

    words: list[Word]
    condition: bool
    tokens: frozenset[str]


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


def language(text: str) -> str:
    """``"es"`` or ``"en"``: which language's function words the text uses more."""
    words = re.findall(r"[^\W\d_]+", text.casefold())
    es = sum(w in lx.SPANISH for w in words)
    en = sum(w in lx.ENGLISH for w in words)
    return "es" if es > en else "en"


@lru_cache(maxsize=16384)
def stems(word: str, lang: str) -> frozenset[str]:
    """The word's Snowball stem in ``lang``, without accents (one stem: "provider" and
    "provide" differ only when the language's stemmer says so)."""
    from core.textproc import _stemmer

    return frozenset({_plain(_stemmer(lang).stemWord(word.casefold()))})


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from core.textproc import all_stopwords

    legal = {"hereunder", "hereto", "herein", "thereof", "thereto", "hereby", "thereunder", "such", "either", "each",
             "any", "shall", "also", "whatsoever", "otherwise"}
    return all_stopwords() | lx.MODALS | lx.NUMBER_WORDS | legal


def tokens(text: str) -> list[tuple[str, str]]:
    """``(token, original)`` pairs: lower-cased words, numbers, punctuation and marker tokens.

    ``original`` keeps the case of the source word (a capitalised "Restricted" is a
    defined term, not a cue)."""
    text = text.replace("’", "'").replace("‘", "'")
    # a box drawn around a clause ("*  limitation of liability shall not apply  *") is not text: the phrase
    # rewrites below must see "to the extent" across its line break (2026-12-02, fifth session)
    text = re.sub(r"(?<!\S)[*|#=+]+(?!\S)", " ", text)
    text = re.sub(r"\b([Nn]on)[-‐‑]", r"\1", text).replace("-", " ")  # "non-refundable": a prefix, not a cue
    for i, (pattern, repl) in enumerate(lx.PHRASES):
        if lx.RULES_OFF and lx.PHRASE_RULE.get(i) in lx.RULES_OFF:
            continue
        text = pattern.sub(repl, text)
    out: list[tuple[str, str]] = []
    for tok in _TOKEN.findall(text):
        low = tok.casefold()
        if low.endswith("n't"):  # don't, isn't, won't, can't, shan't: the verb, then a negation
            out += [(_CONTRACTED.get(low[:-3], low[:-3]), tok), ("not", "not")]
        elif low == "cannot":
            out += [("can", tok), ("not", "not")]
        else:
            out.append((low, tok))
    return out


class _Reader:
    """State of one left-to-right pass (see the module docstring)."""

    def __init__(self, lang: str, words: list[Word]) -> None:
        self.lang = lang
        self.words = words
        self.list_base = 0  # a negated lead-in before a colon: every later clause starts negated
        self.list_args = False  # ... and its items are the arguments of "shall not include:"
        self.list_cond = False  # ... or conditional ("shall not, without consent:")
        self.sentence_cond = False
        self.sentence_neg = False  # a negation opened since the last full stop or semicolon
        self.sentence_args = False
        self.condition = False
        self.fronted: int | None = None  # first word after an outside "without" in this sentence
        self.fronted_end: int | None = None  # ... and the end of its phrase (a comma)
        self.clause_no = -1
        self.reset()

    def reset(self, base: int | None = None) -> None:
        base = self.list_base if base is None else base
        self.clause_no += 1
        self.passive = False  # a form of "be" seen in this clause
        self.agent = False  # after "by" following a participle: the passive's agent
        self.neg = base  # polarity of the rest of the clause
        self.active = bool(base)  # a negation (cue, determiner, lexical) is open
        self.since = len(self.words)  # first word the open negation reached
        self.clause_start = len(self.words)
        self.last_break = len(self.words)  # first word after the clause's last comma or "and"/"or"
        self.modal_seen = False
        self.want_head = False
        # after "shall not include": the words are the negated relation's arguments, compared weakly
        self.arguments = self.list_args if base else False
        self.after_exception = False
        self.resume = False  # a parenthetical exception inside a negation: resume it at the next comma
        self.cond_mode = False  # ... and what follows is conditional
        self.only_subject = False  # "no person other than X shall V" = "only X may V": V is conditional
        self.pending: list[int] | None = None  # subject words after "no"/"neither", awaiting a modal
        self.only = False  # after "only" in this clause
        self.optional = False  # after "need not" / "is not required to" in this clause
        self.modal = ""  # the last modal of this clause
        self.relative = False  # in a relative clause
        self.reduced = False  # in a reduced relative clause ("an agreement executed with X"), to the next comma
        self.subordinate = False  # an adverbial clause ("If no program exists,"): its comma ends it
        self.short: list[list[int]] = []  # [value, words left] of upper bounds and outside "without"
        self.opener = ""  # the clause's first word token ("for" in "For the avoidance of doubt it may not")

    def end_clause(self, base: int | None = None) -> None:
        if self.pending is not None:  # "has no authority to bind": no modal came, the words are negated
            for i in self.pending:
                self.words[i].polarity = 1
                self.words[i].subject = self.arguments
        if not self.modal_seen:
            for w in self.words[self.clause_start:]:
                w.subject = self.arguments
        self.reset(base)

    def open_negation(self) -> None:
        if self.fronted is not None and not self.active:  # "Without X, Y shall not Z" = "Y shall not Z without X"
            for w in self.words[self.fronted:self.fronted_end]:
                w.polarity, w.excepted = 0, True
            self.condition = True
        self.fronted = self.fronted_end = None
        self.pending = None
        for w in self.words[self.clause_start:]:
            w.restricted = w.restricted or w.subject
        self.neg, self.active, self.since = 1, True, len(self.words)
        self.modal_seen = self.sentence_neg = self.want_head = True

    def negate_subject(self) -> None:
        """"Assignment is prohibited / is not permitted": the clause's subject words are what is negated."""
        for w in self.words[self.clause_start:]:
            if w.subject and w.polarity is not None:
                w.polarity = 1 - w.polarity
                w.scoped = True

    def exception(self, parenthetical: bool = False) -> None:
        """"not X unless/except/without Y": X becomes conditional, Y is stated. ``parenthetical``:
        the exception follows a comma ("shall not, without Y, assign"): after its closing comma
        the negation resumes, over conditional words."""
        self.condition = True
        self.reduced = False
        if self.pending is not None and _on("exception_pending"):  # "has no authority to act except as provided"
            for i in self.pending:
                self.words[i].polarity = 1
            self.pending = None
        if self.active:
            self.sentence_cond = True
            self.resume = parenthetical
            for w in self.words[self.since:]:
                if w.polarity is not None and w.scoped:
                    w.cond = True
            self.pending = None
            self.neg, self.active = 0, False
            self.short = []
            self.since = len(self.words)
        else:
            self.end_clause()
        self.after_exception = True

    def add(self, tok: str, stopwords: frozenset[str]) -> None:
        if tok[0].isdigit():
            self._tick()
            return
        if len(tok) < 3 or tok in stopwords or tok.startswith("zz"):
            return
        pol = (self.neg + sum(v for v, _ in self.short)) % 2
        scoped = self.active or bool(self.short)
        if self.optional and not self.after_exception:
            pol = None
        if self.pending is not None:
            self.pending.append(len(self.words))
            self.words.append(Word(tok, stems(tok, self.lang), None, True, subject=True))
        else:
            light = self.want_head and tok in lx.LIGHT_VERBS and _on("light_verb")  # "be deemed to [affect]": the predicate comes next
            self.words.append(Word(tok, stems(tok, self.lang), pol, scoped,
                                   subject=not self.modal_seen or self.arguments,
                                   excepted=self.after_exception,
                                   cond=(self.only_subject or self.list_cond or self.cond_mode) and bool(pol),
                                   head=self.want_head and not light, only=self.only,
                                   relative=(self.relative and _on("relative")) or self.reduced,
                                   optional=self.optional and not self.after_exception,
                                   duty=self.modal in lx.DUTY_MODALS and not self.active,
                                   lacking=bool(self.short), clause=self.clause_no,
                                   agent=self.agent and _on("passive_agent")))
            self.want_head = light
        self._tick()

    def _tick(self) -> None:
        for s in self.short:
            s[1] -= 1
        self.short = [s for s in self.short if s[1] > 0]


def read(text_parts: list[str]) -> Reading:
    """The content words of ``text_parts`` read as one passage, each with its polarity.

    Args:
        text_parts: a claim (one part) or the quotes of a claim in order (several parts:
            a part ending in a colon after a negation opens the list its successors continue).

    Returns:
        A :class:`Reading`: one :class:`Word` per content word (stopwords, numbers and cues
        are left out), in order.
    """
    lang = language(" ".join(text_parts))
    sw = _stopwords()
    words: list[Word] = []
    r = _Reader(lang, words)
    seen: set[str] = set()
    ended = True  # the previous part ended a sentence (or there is none)
    for part in text_parts:
        toks = tokens(part)
        if not ended and _ENUMERATED.match(part) and r.sentence_neg and _on("list_item"):
            # "it will not, directly or indirectly," + "(b) lend money to": an item of the list the
            # previous quote opens, cut before its colon: read as if the colon were there
            r.list_base = 1
            r.list_args = r.list_args or r.sentence_args
            r.list_cond = r.list_cond or r.sentence_cond
            r.reset()
        ended = bool(toks) and toks[-1][0] in ".;!?"
        saved: list[tuple] = []
        for k, (tok, orig) in enumerate(toks):
            seen.add(tok)
            if not r.opener and tok[:1].isalpha():
                r.opener = tok
            nxt = toks[k + 1][0] if k + 1 < len(toks) else ""
            prev = toks[k - 1][0] if k else ""
            if r.agent and (tok.startswith("zz") or tok in lx.WITHOUT or tok in lx.NEGATION):
                r.agent = False  # "by the Licensee without consent": the agent ends at an exception or cue
            if tok in (",", "and", "or", "y", "o"):
                r.last_break = len(words)
            if (tok in ("or", "and", "nor", "ni", "y", "o") and words and words[-1].head
                    and prev == words[-1].text and _on("coordinated_head")):
                r.want_head = True  # "shall not affect or impair": both verbs are the predicate
            if tok in ".;!?":
                r.end_clause()
                r.sentence_neg = bool(r.list_base)
                r.sentence_cond = r.list_cond
                r.fronted = r.fronted_end = None
            elif tok == "," and r.subordinate and not r.list_base and _on("subordinate"):
                r.end_clause(base=0)  # "If no program exists, Supplier will accept": the condition ends here
            elif tok == ",":
                r.agent = r.reduced = False
                r.short = []  # "without X," ends at the comma
                r.after_exception = False  # "Unless X agrees, Y may not": the exception ends here
                if r.fronted is not None and r.fronted_end is None:
                    r.fronted_end = len(words)
                if r.resume:  # "shall not, without consent, sublicense": the negation resumes, conditional
                    r.neg, r.active, r.resume, r.cond_mode = 1, True, False, True
                    r.since = len(words)
            elif tok == ":":
                r.list_base = 1 if r.sentence_neg else r.list_base
                r.list_args = r.list_args or r.sentence_args
                r.list_cond = r.list_cond or (r.sentence_cond and bool(r.list_base))
                r.end_clause()
            elif tok == "(":
                saved.append((r.neg, r.active, r.since, r.pending, [s[:] for s in r.short], r.modal_seen))
                r.pending = None
            elif tok == ")":
                if saved:
                    r.neg, r.active, r.since, r.pending, r.short, r.modal_seen = saved.pop()
            elif ((tok in lx.BOUNDARIES and tok not in lx.COORDINATING
                   and (tok != "provided" or nxt in lx.PROVISO_NEXT or not _on("proviso")))
                  or (tok in lx.COORDINATING and (k and toks[k - 1][0] in ",;" or nxt in lx.THAT_STARTS_CLAUSE))
                  or (tok == "that" and (nxt in lx.THAT_STARTS_CLAUSE or (prev in ("and", "or") and _on("and_that"))))):
                r.end_clause(base=0)  # a relative or subordinate clause inside a list item is not negated
                r.subordinate = tok in lx.SUBORDINATORS
                r.relative = tok in lx.RELATIVES or (tok == "that" and prev not in ("and", "or")
                                                       and nxt in ("is", "are", "was", "were", "shall", "will", "may"))
            elif (tok in lx.SUBJECT_PRONOUNS and lang == "en" and k and nxt in lx.MODALS and words
                  and prev == words[-1].text and not words[-1].head and _on("contact_clause")
                  and (r.modal_seen or any(w.head for w in words[r.clause_start:])
                       or r.opener not in lx.FRONTED)):
                # "any agreement you may have executed", "code it has removed": a relative clause without
                # its pronoun (a noun, then a subject pronoun and a verb); the main clause's negation ends here.
                # Not in a clause that opens with a fronted phrase and has no verb yet: in "For the avoidance of
                # doubt it may not assign" the pronoun is its subject (review, 2026-12-02: that was only warned)
                r.end_clause(base=0)
                r.relative = True
            elif tok == "zzother":
                if r.pending is None and r.active and r.neg:  # "not enforceable by anyone other than the parties"
                    r.exception()
                elif r.pending is None:  # "any person other than the parties may": no condition stated
                    r.neg, r.active, r.short = 0, False, []
                else:  # "no person other than the parties shall": the exception is the subject's
                    r.only_subject = r.condition = True
            elif tok == "zzexc" or (tok in lx.WITHOUT and r.active):
                r.exception(parenthetical=bool(k) and toks[k - 1][0] == ",")
            elif tok == "zzonly":
                r.condition = r.only = True  # "only for Y" = "not for anything other than Y": Y is what the restriction admits
                for w in words[r.clause_start:]:
                    w.polarity = None
                r.pending = None
            elif tok in ("zzle", "zzge"):  # a bound: its direction (at most 1, at least 0) is compared, not its object
                value = (r.neg + (tok == "zzle")) % 2
                words.append(Word("bound", frozenset({"zzbound"}), value, True, head=True))
                if r.pending is None:  # "in no event shall it exceed the fees" = "it shall not exceed the fees":
                    r.neg, r.active, r.short = 0, False, []  # the negation is the bound's; its object is stated
            elif tok in lx.WITHOUT:
                r.short.append([1, _SHORT_SCOPE])
                # "Without X, Y may not Z": X is an exception if a negation follows
                r.fronted, r.fronted_end = len(words), None
            elif tok in lx.CONTINUING:
                if not r.active:  # "ni A ni B podrán", "nor shall this Agreement": like "neither"
                    r.open_negation()
                    r.pending = []
            elif tok == "zzopt" or (tok in lx.NEGATION and r.modal in lx.PERMISSION_MODALS and not r.active
                                    and words and words[-1].head and prev == words[-1].text and _on("deontic")):
                # "need not X", "is not required to X", "may elect not to X": X is left to the party
                r.pending = None
                r.optional = r.modal_seen = r.want_head = True
                if prev != "zzopt" and tok != "zzopt":
                    words[-1].head = False  # "may elect not to [X]": X is the predicate
            elif tok in lx.NEGATION or (tok == "no" and lang == "es"):
                r.open_negation()
            elif tok in lx.NEG_DETERMINERS or tok == "no":
                # "shall have no obligation", "there is no": the object's determiner negates the predicate
                verb_before = prev in lx.MODALS and r.modal_seen and _on("object_no")
                if words and words[-1].head and prev == words[-1].text and not r.active and _on("object_no"):
                    words[-1].polarity, words[-1].scoped = 1, True  # "will provide no services" = "will not provide services"
                    verb_before = True
                r.open_negation()
                r.pending = None if verb_before else []
            elif lx.LEXICAL.match(tok) and (orig.islower() or orig.isupper() and len(orig) > 1) or tok == "zzlex":
                r.pending = None
                if lx.PASSIVE_BANS.match(tok):
                    r.negate_subject()
                if tok.startswith("exclu"):  # "is excluded from X" = "X does not include": the relation, negated
                    word = "include" if lang == "en" else "incluye"
                    words.append(Word(word, stems(word, lang), 1 - r.neg, True))
                    r.arguments = True
                r.neg, r.active = 1 - r.neg, True
                r.since = min(r.since, len(words))
            elif tok in lx.MODALS and not (tok == "be" and k and toks[k - 1][0] == "to"):
                if r.pending is not None:
                    r.pending = None
                    r.since = len(words)
                elif tok in lx.STRONG_MODALS and r.active and not r.list_base and len(words) > r.since:
                    if not _on("new_subject"):
                        r.end_clause()  # the rule before 2026-12-02: a new verb phrase, nothing re-read
                        r.modal_seen = r.want_head = True
                        r.modal = tok
                        r.passive = r.passive or tok in _BE
                        continue
                    # "a person who is not a party [may] enforce", "shall have no obligation to A, and B
                    # [shall] remain liable": a new verb phrase; the words since the last comma or "and"
                    # are its subject, not negated
                    start = max(r.last_break, r.since, r.clause_start)
                    new_subject = words[start:]
                    for w in new_subject:
                        w.polarity, w.scoped, w.head = 0, False, False
                    r.end_clause()
                    r.clause_start = start
                    for w in new_subject:
                        w.subject = True
                        w.clause = r.clause_no
                r.modal_seen = r.want_head = True
                r.modal = tok
                r.passive = r.passive or tok in _BE
            else:
                if (not r.modal_seen and r.pending is None and k and r.lang == "en" and _on("finite_verb")
                        and _FINITE.match(tok) and orig.islower() and toks[k - 1][1][:1].isupper() and toks[k - 1][0] not in sw
                        and not toks[k - 1][0].endswith("'s")):
                    # "the Company remains liable", "Each Party agrees": a finite verb after a capitalised
                    # party name ends the subject, as a modal does (else a modal-less clause has no subject)
                    r.modal_seen = r.want_head = True
                if (tok in ("by", "por") and r.passive
                        and (prev.endswith(_PARTICIPLE) or (words and words[-1].head and prev == words[-1].text))):
                    r.agent = True  # "may not be assigned by Licensee": Licensee acts
                elif r.agent and tok in sw and tok not in _DETERMINERS:
                    r.agent = False  # "by Licensee to any third party": the agent ends at a preposition
                if tok in lx.CONDITIONS:
                    r.condition = True
                if tok in lx.DUTY_MODALS and nxt == "to":  # "is required to X": X is a duty
                    r.modal = tok
                duty_denied = (r.active and r.neg == 1 and r.pending is None and not r.optional and _on("deontic")
                               and tok in lx.DUTY_VERBS and (nxt == "to" or tok in lx.DUTY_ACTIVE))
                relation = tok in lx.INCLUSION and r.active and len(words) == r.since
                if tok in lx.PERMISSIONS and r.active and r.neg:
                    r.negate_subject()
                reduced = (lang == "en" and r.active and not r.want_head and nxt in lx.REDUCED_PREPOSITIONS
                           and tok.endswith(("ed", "en")) and words and prev == words[-1].text
                           and not words[-1].head and tok not in lx.MODALS and _on("reduced_relative"))
                if reduced:
                    # "shall not supersede any agreement executed with Licensor": a participle after its noun
                    # opens a reduced relative clause, which describes the noun: its words are compared
                    # weakly, like a relative clause's, up to the next comma, exception or clause boundary
                    r.reduced = True
                r.add(tok, sw)
                if duty_denied:  # "no party shall be obliged to X", "nothing requires it to X": X is left to the party
                    r.optional = r.want_head = True
                if relation:  # "shall not include X" = "X is excluded": X is an argument of the negated relation
                    r.arguments = r.sentence_args = True
        r.end_clause()
    return Reading(words, r.condition, frozenset(seen))


def prefix_base(word: Word, lang: str) -> frozenset[str] | None:
    """Stems of ``word`` without a negative prefix ("unenforceable" → "enforceable"), if it has one."""
    m = _PREFIX.match(word.text)
    if m and (_ADJECTIVE.search(word.text) or (m.group() == "non" and _on("prefix_non"))):  # "non" negates any stem ("non-defaulting")
        return stems(word.text[m.end():], lang)
    return None
