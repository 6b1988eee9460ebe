"""Comparison of a claim's negation with its quotes': the shared words and how their polarity differs.

:func:`compare` reads both texts with :mod:`core.polarity.scope` and returns a
:class:`Comparison` (counts of conflicting and agreeing words, which kind they are, and a few
whole-text facts). :mod:`core.polarity` turns it into a decision; :func:`features` turns it into
the numeric vector a learned policy weighs (``bench/support.py --learned``, not shipped).

Matching: two words are the same when they share a Snowball stem in the text's language, or one
stem is the other plus an agent suffix ("waive"/"waiver"). For each shared word the polarities
are compared when each side gives it one value:

* a *conflict* is a word stated on one side and negated on the other; it is *strong* when the
  word is in predicate position on both sides, *weak* when it is a subject or the argument of a
  negated inclusion ("X shall not include Y" = "Y is excluded from X");
* an *agreement* is a word negated on both sides;
* a conditional word ("shall not *assign* without consent") is not compared when the other text
  states the condition ("requires", "only if", "unless", or the excepted words stated positively);
* bounds compare their direction ("zzbound"), not their object;
* roles: when both texts hold an exception, a word that is only what the exception requires on
  one side and only the restricted party or act on the other is a strong conflict (swapped).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import core.polarity.lexicon as lx
from core.polarity.scope import Word, language, prefix_base, read, tokens

__all__ = ["Comparison", "compare", "features", "FEATURES"]


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found for one (claim, quotes) pair.

    ``strong`` / ``weak``: the conflicting words, each ``(text, in_claim)`` where ``in_claim`` is
    True when the claim holds the negated side, False for the quotes, None for a role swap.
    ``agreements``: shared words negated on both sides. ``headed``: strong conflicts on a
    predicate (first content word after a modal or cue). ``restated``: restating words
    (:data:`core.polarity.lexicon.RESTATEMENTS`) in the claim but not its quotes.
    ``aligned``: strong conflicts on a word that is the predicate on both sides (the same verb,
    negated on one side only: the clearest flip). ``claim_cues`` / ``quote_cues``: negation cues counted in each text (sentential, determiner,
    lexical, "without", upper bounds). ``overlap``: share (0..1) of the claim's content words
    that its quotes also hold. ``compared``: shared words whose polarities were compared.
    """

    strong: tuple[tuple[str, bool | None], ...] = ()
    weak: tuple[tuple[str, bool | None], ...] = ()
    agreements: int = 0
    headed: int = 0
    restated: frozenset[str] = field(default_factory=frozenset)
    claim_cues: int = 0
    quote_cues: int = 0
    overlap: float = 0.0
    compared: int = 0
    aligned: int = 0
    required: int = 0
    cond_flips: int = 0
    swapped: bool = False
    bound: bool = False
    claim_exception: bool = False
    quote_exception: bool = False
    widened: tuple[str, ...] = ()
    """Predicates the quotes allow only for something ("use it *only* to evaluate") that the claim states
    with no restriction and without what the restriction admits ("may use it for other purposes"):
    :func:`_widened`."""
    actors: tuple[str, ...] = ()
    """Shared words whose clause has another actor on each side (:func:`_actor_changes`): "A has no
    obligation, B remains liable" against "B has no obligation, A remains liable"."""


def _with_prefixes(words: list[Word], other: list[Word], lang: str) -> list[Word]:
    """A word negated by a prefix ("unenforceable") counts as its base negated when only the
    base occurs in the other text."""
    other_stems = {s for w in other for s in w.stems}
    out = []
    for w in words:
        base = prefix_base(w, lang)
        if base and base & other_stems and not w.stems & other_stems:
            pol = None if w.polarity is None else 1 - w.polarity
            out.append(replace(w, stems=base, polarity=pol, scoped=True))
        else:
            out.append(w)
    return out


def _keys(stems: frozenset[str]) -> frozenset[str]:
    """Match keys of a word: its stems, and each without an agent suffix ("waiver" → "waiv")."""
    out = set(stems)
    for st in stems:
        for suffix in ("er",):  # not "or": Licensor/Licensee, Lessor/Lessee are different parties
            if st.endswith(suffix) and len(st) - len(suffix) >= 4:
                out.add(st[: -len(suffix)])
                break
    return frozenset(out)


def _index(words: list[Word]) -> dict[str, list[Word]]:
    out: dict[str, list[Word]] = {}
    for w in words:
        for k in _keys(w.stems):
            out.setdefault(k, []).append(w)
    return out


def _swapped(one: list[Word], other: list[Word]) -> bool:
    """True when a word is only what an exception requires on one side ("without *B*'s consent")
    and only what the rule restricts on the other ("*B* may not assign"): the roles were swapped."""
    return (all(x.excepted for x in one)
            and all(not x.excepted and (x.cond or x.restricted or x.polarity == 1) for x in other))


def _deontic(c_occ: list[Word], q_occ: list[Word]) -> bool | None:
    """A conflict of deontic operators on one word: left to the party ("need not X", "is not required
    to X") on one side, forbidden ("shall not X", "is required not to X") or required ("shall X") on the
    other (Hohfeld's privilege against duty; "may elect not to X" is a privilege too). Returns
    ``in_claim`` as in :class:`Comparison` (True when the claim holds the negative side: the ban, or
    the absent duty against a duty), or None when there is no such conflict."""
    for one, other, claim_is_other in ((c_occ, q_occ, False), (q_occ, c_occ, True)):
        if one and other and all(x.optional for x in one) and not any(x.optional for x in other):
            if all(x.polarity == 1 and not x.cond and not x.subject for x in other):
                return claim_is_other
            if all(x.polarity == 0 and x.duty and not x.subject and not x.only for x in other):
                return not claim_is_other
    return None


def _widened(claim_read, quote_read, c_index: dict, q_index: dict) -> tuple[str, ...]:
    """Predicates an "only" restricts in the quotes and the claim states plainly: the quotes admit the
    act only for something (words after "only" / "restricted to", :attr:`Word.only`), the claim
    states no condition of its own (no "only", "unless", "requires" …) and names none of what the
    restriction admits, and states the act (a predicate, polarity 0) that every quote occurrence
    leaves conditional. "may use it for any purpose" for "may use it only to evaluate X"."""
    admitted = {k for w in quote_read.words if w.only for k in _keys(w.stems)}
    if not admitted or claim_read.condition or admitted & {k for w in claim_read.words for k in _keys(w.stems)}:
        return ()
    out = []
    for w in claim_read.words:
        if not w.head or w.polarity != 0 or w.subject:
            continue
        q_occ = [x for k in _keys(w.stems) for x in q_index.get(k, [])]
        if q_occ and all(x.polarity is None and not x.optional and not x.only for x in q_occ):
            out.append(w.text)
    return tuple(out)


def _actors(words: list[Word]) -> dict[int, frozenset[str]]:
    """Per clause (:attr:`Word.clause`), the match keys of who acts in it: its subject words and
    a passive's agent ("may not be assigned *by Licensee*")."""
    out: dict[int, set[str]] = {}
    for w in words:
        if (w.subject or w.agent) and not w.relative:
            out.setdefault(w.clause, set()).update(_keys(w.stems))
    return {c: frozenset(k) for c, k in out.items()}


def _actor_changes(cw: list[Word], qw: list[Word], c_index: dict, q_index: dict) -> tuple[str, ...]:
    """Shared words said of another actor on each side: every claim clause holding the word (same
    polarity on both sides) has actors that share no key with those of any quote clause holding
    it, and each side's actors there act in some clause of the other side (both texts name both
    actors, each as doing something else). A looser test (any actor the other clause lacks) fired
    on 3 faithful claims of the working two thirds and was not kept.

    A check of who does what across clauses, without a parser: the actors are the words before a
    clause's first modal, auxiliary or finite verb after a capitalised name, and a passive's agent.
    Subjects and agents themselves are not compared (they are the actors)."""
    c_actors, q_actors = _actors(cw), _actors(qw)
    c_all = {k for keys in c_actors.values() for k in keys}
    q_all = {k for keys in q_actors.values() for k in keys}
    out: list[str] = []
    seen: set[str] = set()
    for w in cw:
        keys = _keys(w.stems)
        if w.subject or w.agent or w.relative or keys & seen or keys & c_all or keys & q_all:
            continue
        seen |= keys
        c_occ = {id(x): x for k in keys for x in c_index.get(k, []) if not (x.subject or x.agent)}.values()
        q_occ = {id(x): x for k in keys for x in q_index.get(k, []) if not (x.subject or x.agent)}.values()
        if not c_occ or not q_occ or {x.polarity for x in c_occ} != {x.polarity for x in q_occ}:
            continue  # compared as a conflict by polarity, not here
        c_who = [c_actors.get(x.clause, frozenset()) for x in c_occ]
        q_who = [q_actors.get(x.clause, frozenset()) for x in q_occ]
        if not all(c_who) or not all(q_who):
            continue
        if any(a & b for a in c_who for b in q_who):
            continue  # the same actor on some pairing
        if all(b & c_all for b in q_who) and all(a & q_all for a in c_who):
            out.append(w.text)
    return tuple(out)


def subject_of(words: list[Word]) -> bool:
    return any(x.subject for x in words)


def _effective(word: Word, other_states_condition: bool) -> int | None:
    return None if word.cond and other_states_condition else word.polarity


_CUES = lx.NEGATION | lx.NEG_DETERMINERS | lx.CONTINUING | lx.WITHOUT | {"no", "zzlex", "zzle"}


def _cues(text_parts: list[str]) -> tuple[int, bool]:
    """Negation cues in the texts (sentential, determiner, lexical, "without", upper bound), and
    whether an exception marker ("unless", "except", "other than", "only if") occurs."""
    n, exc = 0, False
    for part in text_parts:
        for tok, orig in tokens(part):
            if tok in _CUES or (lx.LEXICAL.match(tok) and (orig.islower() or orig.isupper() and len(orig) > 1)):
                n += 1
            exc = exc or tok in ("zzexc", "zzother", "zzonly")
    return n, exc


@lru_cache(maxsize=4096)
def compare(claim: str, quotes: tuple[str, ...]) -> Comparison:
    """Compare the polarity of the words ``claim`` shares with its ``quotes`` (read together, in order).

    Args:
        claim: the model's sentence.
        quotes: its verified quotes in citation order (a tuple, so results can be cached).

    Returns:
        A :class:`Comparison`.
    """
    claim_read = read([claim])
    quote_read = read(list(quotes))
    # what only the exception names ("consent" in "without the Company's consent", not "Company")
    excepted = ({k for w in quote_read.words if w.excepted for k in _keys(w.stems)}
                - {k for w in quote_read.words if not w.excepted for k in _keys(w.stems)})
    # the claim restates the quote's condition when it states (un-negated) what the exception requires
    claim_condition = claim_read.condition or any(
        w.polarity == 0 and not w.subject and _keys(w.stems) & excepted for w in claim_read.words)
    lang = language(claim + " " + " ".join(quotes))
    cw = _with_prefixes(claim_read.words, quote_read.words, lang)
    qw = _with_prefixes(quote_read.words, claim_read.words, lang)
    strong: list[tuple[str, bool | None]] = []
    weak: list[tuple[str, bool | None]] = []
    agreements = headed = compared = aligned = required = cond_flips = 0
    swapped = False
    c_index, q_index = _index(cw), _index(qw)
    both_except = any(w.excepted for w in cw) and any(w.excepted for w in qw)
    seen: set[str] = set()
    content = shared = 0
    claim_cues, claim_exc = _cues([claim])
    quote_cues, quote_exc = _cues(list(quotes))
    for w in cw:
        keys = _keys(w.stems)
        if keys & seen:
            continue
        seen |= keys
        content += w.text != "bound"
        c_occ = list({id(x): x for k in keys for x in c_index.get(k, [])}.values())
        q_occ = list({id(x): x for k in keys for x in q_index.get(k, [])}.values())
        if not q_occ:
            continue
        shared += w.text != "bound"
        if both_except and (_swapped(c_occ, q_occ) or _swapped(q_occ, c_occ)):
            strong.append((w.text, None))  # "A may not assign without B's consent" / "B … without A's consent"
            swapped = True
            continue
        if any(x.head for x in c_occ) and any(x.head for x in q_occ) and "head_compare" not in lx.RULES_OFF:
            # the predicate is compared with the predicate ("shall not discriminate" / "may discriminate"),
            # not with a noun of the same stem elsewhere ("relating to discrimination")
            c_occ, q_occ = [x for x in c_occ if x.head], [x for x in q_occ if x.head]
        deontic = None if "deontic" in lx.RULES_OFF else _deontic(c_occ, q_occ)
        if deontic is not None:  # "need not X" against "shall not X" or "shall X": no duty against a ban or a duty
            strong.append((w.text, deontic))
            compared += 1
            if any(x.head for x in c_occ + q_occ):
                headed += 1
            if any(x.head for x in c_occ) and any(x.head for x in q_occ):
                aligned += 1
            continue
        c_pols = {_effective(x, quote_read.condition) for x in c_occ} - {None}
        q_pols = {_effective(x, claim_condition) for x in q_occ} - {None}
        if (claim_exc and quote_exc and not subject_of(c_occ + q_occ)
                and ((all(x.cond for x in c_occ)
                      and all(x.polarity == 0 and not x.cond and not x.excepted and not x.only for x in q_occ))
                     or (all(x.cond for x in q_occ) and all(x.polarity == 0 and not x.cond and not x.excepted
                                                            and not x.only for x in c_occ)))):
            cond_flips += 1  # "not X unless Y" against "X unless Y": the rule flipped, the exception kept
        if not c_pols or not q_pols:
            continue
        compared += 1
        if len(c_pols) == 1 and len(q_pols) == 1 and c_pols != q_pols:
            # a subject, or a word a relative clause describes ("damages which X incurs"), is compared weakly
            subject = any(x.subject or x.relative for x in c_occ + q_occ)
            if (any(x.restricted for x in c_occ) and any(x.restricted for x in q_occ)
                    and "role_restricted" not in lx.RULES_OFF):
                # the restricted party itself differs by a negation ("the Party in default shall not" /
                # "the non-defaulting Party may not"): who is bound changed
                strong.append((w.text, None))
                swapped = True
                continue
            (weak if subject else strong).append((c_occ[0].text, 1 in c_pols))
            condition_flipped = "condition_flipped" not in lx.RULES_OFF and (
                (all(x.excepted or x.only for x in c_occ) and all(x.lacking for x in q_occ))
                or (all(x.excepted or x.only for x in q_occ) and all(x.lacking for x in c_occ)))
            if not subject and (any(x.head for x in c_occ + q_occ) or condition_flipped):
                # the predicate, or what the rule requires: "only with consent" / "without consent"
                headed += 1
            if not subject and any(x.head for x in c_occ) and any(x.head for x in q_occ):
                aligned += 1
            if (any(x.excepted for x in q_occ) and all(not x.excepted for x in c_occ)) or (
                    any(x.excepted for x in c_occ) and all(not x.excepted for x in q_occ)):
                required += 1  # "without Y's consent" as the rule's exception on one side, "without consent" plainly on the other
        elif 1 in c_pols & q_pols:
            agreements += 1
    return Comparison(
        strong=tuple(strong), weak=tuple(weak), agreements=agreements, headed=headed,
        aligned=aligned, required=required, cond_flips=cond_flips, restated=frozenset((claim_read.tokens & lx.RESTATEMENTS) - quote_read.tokens),
        claim_cues=claim_cues, quote_cues=quote_cues, overlap=shared / content if content else 0.0,
        compared=compared, swapped=swapped, bound=any(t == "bound" for t, _ in strong + weak),
        claim_exception=claim_exc, quote_exception=quote_exc, actors=_actor_changes(cw, qw, c_index, q_index),
        widened=() if "widened" in lx.RULES_OFF else _widened(claim_read, quote_read, c_index, q_index))


FEATURES = ("strong", "weak", "agreements", "headed", "aligned", "bound", "swapped", "restated", "cue_parity",
            "cues_one_side", "overlap", "exception_differs")
"""Names of :func:`features`' values, in order. Each is a general property of the pair, none a word."""


def features(c: Comparison) -> list[float]:
    """The numeric description of a :class:`Comparison` that a learned policy weighs
    (``bench/support.py --learned``; the shipped :func:`core.polarity.decide` reads the comparison).

    Returns:
        ``len(FEATURES)`` floats: strong / weak conflicts and agreements (counts capped at 3),
        a predicate conflict (0/1), the same predicate on both sides in conflict (0/1), a bound's direction flipped (0/1), roles swapped (0/1), a
        restating word in the claim only (0/1), the parity of negation cues differs (0/1),
        negation cues on one side only (0/1), the share of the claim's content words in its
        quotes (0..1), an exception marker on one side only (0/1).
    """
    return [float(min(len(c.strong), 3)), float(min(len(c.weak), 3)), float(min(c.agreements, 3)),
            float(c.headed > 0), float(c.aligned > 0), float(c.bound), float(c.swapped), float(bool(c.restated)),
            float(c.claim_cues % 2 != c.quote_cues % 2), float((c.claim_cues == 0) != (c.quote_cues == 0)),
            c.overlap, float(c.claim_exception != c.quote_exception)]
