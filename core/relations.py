"""Opposite words and swapped roles: contradictions that carry no negation (issue #21).

"The price will decrease by 5 % each year" citing "The price shall increase by five percent (5%)
each year" passes the literal, facts and polarity checks: no number differs and nothing is
negated. Nor does "Buyer shall pay Seller the Purchase Price" citing "Seller shall pay Buyer the
Purchase Price". This module finds two such patterns; each is a contradiction only when the
rest of the sentence lines up, so a paraphrase that uses another word is not touched.

**Opposite words** (:data:`OPPOSITES`; English and Spanish, chosen by hand as antonym pairs that
change a contract term's meaning — increase/decrease, minimum/maximum, greater/lesser, earlier/later,
first/last, accept/reject, gross/net, renew/terminate as continue/end, begin/end, inclusive/exclusive,
advance/arrears; the Spanish words are translations of the English pairs, not taken from a dictionary).
The claim uses a word of one side, its quotes a word of the other, *and*:

* the quotes never use the claim's side (quotes that hold both, "terminates unless renewed", are
  a paraphrase this reading cannot follow), and the claim's own words of the quotes' side, if any,
  do not stand next to the word that lines up (below);
* no negation cue ("not", "no", "never", "without", "non-", "sin", "nunca", …) sits within eight
  words before either word in its clause ("not later than" / "earlier": two oppositions cancel; left to
  :mod:`core.polarity`);
* the words line up: the nearest content word after (or, for non-converse pairs, before) the
  opposite word is the same stem on both sides ("the *price* shall increase" / "the *price* will
  decrease"). "Before"/"after" ("prior to"/"following", "antes de"/"después de") are *converse*:
  "A after B" says "B before A", so only the word after them (their object) is compared. So are
  "begin"/"end" as verbs (:data:`_MOMENT_VERBS`): a term has both, so "the Term begins" and "the Term
  shall end" line up only on what follows ("the Term begins on the Effective Date" is no opposite of
  "the Term shall end three years after the Effective Date"; "ends on January 1" is of "commences on
  January 1"); as nouns the word before still counts ("the date of commencement" / "of termination").
* "gross" followed within six words by a deduction ("gross sales less returns", "ventas brutas menos
  devoluciones", :data:`_DEDUCTIONS`) states a net amount, no opposite of "net".

**Swapped roles** (:data:`ROLES`: buyer/seller, lessor/lessee, licensor/licensee, …, the
party names of contract templates, English and Spanish). In each text, a role written right
before a modal and a verb is the one that acts ("Seller shall pay"); the claim's actor for a
verb that the quotes give only to the converse role, and never to the claim's, is swapped.
Not read: a passive ("shall be paid by"), a subject of two roles ("Buyer and Seller shall"),
converse verbs ("Buyer shall pay" = "Seller shall receive payment"), and party names (those are
:mod:`core.polarity`'s actors).

Outcome (:class:`RelationVerdict`): ``contradict`` (the verifier removes the claim with reason
``polarity_mismatch``, the reason that already tells the user "the sentence … states the
opposite") or ``agree``. Both patterns ask for the alignment above, which a faithful
paraphrase does not produce; measured by ``bench/support_relations.py`` (metamorphic rewrites:
same-meaning synonyms must stay ``agree``, the opposite word must be caught; the pool's faithful
pairs must all stay ``agree``).

Why by hand: no installed library gives antonyms offline (WordNet data is not shipped); the
lists are small and closed. Stems are Snowball's (PyStemmer, as :mod:`core.textproc`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import Stemmer

from core.textproc import all_stopwords

OPPOSITES: tuple[tuple[tuple[str, ...], tuple[str, ...], bool], ...] = (
    # (one side, the other side, converse?)
    (("increase", "increases", "increased", "increasing", "increment", "raise", "raised", "higher", "upper", "upward",
      "aumentar", "aumento", "aumentará", "incrementar", "incremento", "incrementará", "subir", "subida"),
     ("decrease", "decreases", "decreased", "decreasing", "reduce", "reduces", "reduced", "reduction", "lower",
      "lowered", "downward", "disminuir", "disminución", "disminuirá", "reducir", "reducción", "reducirá",
      "rebajar", "rebaja", "bajar", "bajada"), False),
    (("minimum", "minimal", "mínimo", "mínima", "mínimos", "mínimas"),
     ("maximum", "máximo", "máxima", "máximos", "máximas"), False),
    (("greater", "greatest", "larger", "largest", "mayor"), ("lesser", "less", "fewer", "smaller", "smallest",
                                                              "menor"), False),
    (("earlier", "earliest"), ("later", "latest"), False),
    (("first", "primer", "primero", "primera"), ("last", "final", "último", "última"), False),
    (("accept", "accepts", "accepted", "acceptance", "aceptar", "acepta", "aceptará", "aceptación"),
     ("reject", "rejects", "rejected", "rejection", "rechazar", "rechaza", "rechazará", "rechazo"), False),
    (("gross", "bruto", "bruta", "brutos", "brutas"), ("net", "neto", "neta", "netos", "netas"), False),
    (("renew", "renews", "renewed", "renewal", "renovar", "renueva", "renovará", "renovación", "prorrogar",
      "prorroga", "prorrogará", "prórroga"),
     ("terminate", "terminates", "terminated", "termination", "expire", "expires", "expired", "expiration",
      "expiry", "extinguir", "extingue", "extinguirá", "extinción", "vencer", "vence", "vencerá", "vencimiento"),
     False),
    (("begin", "begins", "commence", "commences", "commencement", "start", "starts", "inicio", "comienza",
      "comenzará", "empieza", "empezará"),
     ("end", "ends", "terminate", "terminates", "termination", "expire", "expires", "expiration", "expiry", "fin",
      "finaliza", "finalizará", "termina", "terminará", "vence", "vencerá", "vencimiento"), False),
    (("inclusive",), ("exclusive",), False),
    (("advance", "adelantado", "anticipado"), ("arrears", "vencido"), False),
    (("before", "prior_to", "preceding", "antes_de", "anterior_a", "con_anterioridad"),
     ("after", "following", "subsequent_to", "después_de", "posterior_a", "tras", "con_posterioridad"), True),
)
"""Opposite words: ``(side A, side B, converse)``; multiword prepositions are joined by ``_``
(:func:`_tokens` joins them). See the module docstring for the sources."""
_OPPOSITES_BEGIN = next(i for i, (a, _, _) in enumerate(OPPOSITES) if "commence" in a)
_MOMENT_VERBS = frozenset({"begin", "begins", "commence", "commences", "start", "starts", "comienza", "comenzara",
                           "empieza", "empezara", "end", "ends", "terminate", "terminates", "expire", "expires",
                           "finaliza", "finalizara", "termina", "terminara", "vence", "vencera"})
"""Verb forms of begin/end (accents stripped): their subject ("the Term begins" / "the Term shall end") does not
line them up, a term having both; only what follows does."""
_OPPOSITES_GROSS = next(i for i, (a, _, _) in enumerate(OPPOSITES) if "gross" in a)
"""The index of gross/net in :data:`OPPOSITES`: "gross X less Y" states a net amount (:data:`_DEDUCTIONS`)."""

ROLES: tuple[tuple[str, str], ...] = (
    ("buyer", "seller"), ("purchaser", "seller"), ("purchaser", "vendor"), ("buyer", "vendor"),
    ("lessor", "lessee"), ("landlord", "tenant"), ("licensor", "licensee"), ("franchisor", "franchisee"),
    ("lender", "borrower"), ("assignor", "assignee"), ("employer", "employee"), ("grantor", "grantee"),
    ("comprador", "vendedor"), ("arrendador", "arrendatario"), ("licenciante", "licenciatario"),
    ("franquiciador", "franquiciado"), ("prestamista", "prestatario"), ("cedente", "cesionario"),
    ("empleador", "trabajador"), ("creditor", "debtor"), ("acreedor", "deudor"),
    ("disclosing_party", "receiving_party"), ("indemnifying_party", "indemnified_party"),
    ("parte_reveladora", "parte_receptora"),
)
"""Converse roles of a contract (party names of common English and Spanish templates)."""

_NEGATION = frozenset({"not", "no", "never", "cannot", "neither", "nor", "without", "non", "nothing", "none",
                       "sin", "nunca", "ni", "jamás", "ningún", "ninguna", "ninguno"})
_MODALS = frozenset({"shall", "will", "may", "must", "can", "agrees", "agree", "deberá", "deberán", "podrá",
                     "podrán", "debe", "deben", "puede", "pueden"})
_NOT_VERBS = frozenset({"be", "have", "has", "is", "are", "was", "were", "does", "do", "not", "also", "hereby", "to",
                        "ser", "estar", "es", "está", "tiene", "tendrá", "será", "no", "se", "en", "a"})
_FINITE_EN = re.compile(r"[a-z]{2,}[^s']s")
_FUTURE_ES = re.compile(r"[^\W\d_]{2,}(?:ará|erá|irá)n?")
_JOINS = (("disclosing", "party"), ("receiving", "party"), ("indemnifying", "party"), ("indemnified", "party"),
          ("parte", "reveladora"), ("parte", "receptora"), ("prior", "to"), ("subsequent", "to"), ("antes", "de"), ("después", "de"), ("anterior", "a"),
          ("posterior", "a"), ("con", "anterioridad"), ("con", "posterioridad"))
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_BREAK = re.compile(r"[;:.!?]")
_WINDOW = 4
_NEG_WINDOW = 8
_DEDUCTIONS = frozenset({"less", "minus", "deduct", "deducts", "deducting", "deducted", "deduction", "deductions",
                         "excluding", "menos", "deducir", "deduciendo", "deducido", "deducidos", "deducción",
                         "deducciones", "descontando", "descontado", "descontados"})
"""Words that subtract: "gross sales less returns" is a net amount, said as the claim's "net sales"."""
_DEDUCTION_WINDOW = 6


@dataclass(frozen=True)
class RelationVerdict:
    """What :func:`check_relations` found: ``outcome`` and, for ``contradict``, a ``reason`` for the user."""

    outcome: Literal["agree", "contradict"]
    reason: str = ""


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def _stem(word: str) -> frozenset[str]:
    """The word's Snowball stems in English and Spanish, accents stripped."""
    return frozenset(_plain(Stemmer.Stemmer(lang).stemWord(word.casefold())) for lang in ("english", "spanish"))


@lru_cache(maxsize=1)
def _classes() -> tuple[dict[str, frozenset[tuple[int, int]]], dict[int, bool]]:
    """Surface word (plain, case-folded) → its (pair index, side)s (a word may oppose two others:
    "terminate" / "renew", "terminate" / "commence"); pair index → converse."""
    words: dict[str, set[tuple[int, int]]] = {}
    for i, (a, b, _) in enumerate(OPPOSITES):
        for side, group in enumerate((a, b)):
            for w in group:
                words.setdefault(_plain(w), set()).add((i, side))
    return {w: frozenset(c) for w, c in words.items()}, {i: conv for i, (_, _, conv) in enumerate(OPPOSITES)}


def _tokens(text: str) -> list[str]:
    """Case-folded words and clause breaks ("."), with "prior to"-type prepositions joined, and
    "prior"/"following" that are adjectives ("prior written notice", "the following terms") left
    out of the before/after pair by not joining them."""
    out: list[str] = []
    text = re.sub(r"n['\u2019]t\b", " not", text).replace("-", " ")
    for m in re.finditer(rf"{_WORD.pattern}|{_BREAK.pattern}", text):
        w = m[0].casefold()
        if out and (out[-1], w) in _JOINS:
            out[-1] = f"{out[-1]}_{w}"
            continue
        out.append("." if _BREAK.fullmatch(w) else w)
    # "the following" / "los siguientes" is an adjective, never the preposition "after"
    return [("following_adj" if w == "following" and i and out[i - 1] in ("the", "such", "as") else w)
            for i, w in enumerate(out)]


def _content(word: str) -> bool:
    return len(word) > 2 and word not in all_stopwords() and word not in _NEGATION and "_" not in word \
        and _plain(word) not in _classes()[0] and word not in _MODALS


def _neighbour(toks: list[str], i: int, step: int) -> frozenset[str]:
    """Stems of the nearest content word from ``i`` in direction ``step`` within the clause and
    :data:`_WINDOW` words, or an empty set."""
    j = i + step
    while 0 <= j < len(toks) and abs(j - i) <= _WINDOW and toks[j] != ".":
        if _content(toks[j]):
            return _stem(toks[j])
        j += step
    return frozenset()


def _negated(toks: list[str], i: int) -> bool:
    """A negation cue among the :data:`_NEG_WINDOW` words before ``i`` in its clause ("shall not be
    deemed to have accepted": five words back)."""
    for t in reversed(toks[max(0, i - _NEG_WINDOW) : i]):
        if t == ".":
            return False
        if t in _NEGATION:
            return True
    return False


def _opposite(claim: list[str], quotes: list[list[str]]) -> str:
    words, converse = _classes()
    qtoks = [t for q in quotes for t in q]

    def sides(toks: list[str]) -> dict[int, set[int]]:
        found: dict[int, set[int]] = {}
        for t in toks:
            for pair, side in words.get(_plain(t), ()):
                found.setdefault(pair, set()).add(side)
        return found

    q_sides = sides(qtoks)
    for i, t in enumerate(claim):
        if _negated(claim, i):
            continue
        for pair, side in sorted(words.get(_plain(t), ())):
            if q_sides.get(pair) == {1 - side} and (u := _aligned(claim, i, quotes, (pair, 1 - side), converse[pair])):
                return f"'{t.replace('_', ' ')}' in the claim, '{u.replace('_', ' ')}' in its quotes"
    return ""


def _aligned(claim: list[str], i: int, quotes: list[list[str]], other: tuple[int, int], converse: bool) -> str:
    """The quotes' word of ``other`` (pair, side) that lines up with the claim's word ``i``, or ``""``."""
    words = _classes()[0]
    # the claim's own words of the quotes' side, and what they stand next to: a claim that says
    # both of the same thing ("renews unless terminated") is not read
    own = [k for k, u in enumerate(claim) if other in words.get(_plain(u), ())]
    for q in quotes:
        for j, u in enumerate(q):
            if other not in words.get(_plain(u), ()) or _negated(q, j):
                continue
            if _OPPOSITES_GROSS == other[0]:  # "gross X less Y" is the net amount: no opposite
                gross, g = (claim, i) if other[1] == 1 else (q, j)
                if any(t in _DEDUCTIONS for t in gross[g + 1 : g + 1 + _DEDUCTION_WINDOW]):
                    continue
            after = _neighbour(claim, i, 1) & _neighbour(q, j, 1)
            verbs = other[0] == _OPPOSITES_BEGIN and (_plain(claim[i]) in _MOMENT_VERBS or _plain(u) in _MOMENT_VERBS)
            before = frozenset() if converse or verbs else _neighbour(claim, i, -1) & _neighbour(q, j, -1)
            shared = after | before
            if shared and not any(shared & (_neighbour(claim, k, 1) | _neighbour(claim, k, -1)) for k in own):
                return u
    return ""


_NOT_PARTIES = frozenset({
    "agreement", "contract", "term", "section", "article", "clause", "schedule", "exhibit", "notice", "party",
    "parties", "this", "such", "each", "either", "neither", "any", "all", "the", "both", "no", "if", "upon", "in",
    "unless", "except", "notwithstanding", "it", "they", "he", "she", "we", "you", "i", "nothing", "none",
    "contrato", "cláusula", "parte", "partes", "el", "la", "los", "las", "cada", "ninguna", "ninguno"})
_ROLE_WORDS = frozenset(r for pair in ROLES for r in pair)


def _names(text: str) -> frozenset[str]:
    """Party names a text writes as actors: a capitalised word right before a modal ("PCQ shall",
    "the Company will"), case-folded, less the capitalised nouns that are no party (:data:`_NOT_PARTIES`)."""
    found = re.findall(r"\b([A-Z][A-Za-z0-9&]+)\s+(?:shall|will|may|must|agrees|hereby)\b", text)
    return frozenset(w.casefold() for w in found) - _NOT_PARTIES - _ROLE_WORDS


def _actors(toks: list[str], names: frozenset[str]) -> set[tuple[str, frozenset[str], frozenset[frozenset[str]]]]:
    """(actor, verb stems, object stems): a role or party name right before a modal and a verb ("Seller shall
    pay the price"), or a role before a finite verb ("Seller pays", "el arrendador pagará"); the object is
    the content words of the next five, up to an "and"/"or", parties left out (each word's stems)."""
    out = set()
    for i, t in enumerate(toks):
        if (t not in _ROLE_WORDS and t not in names) or i + 1 >= len(toks):
            continue
        if i and toks[i - 1] in ("and", "or", "nor", "y", "o", "ni", "of", "de", "by", "por", "than", "que"):
            continue  # "Buyer and Seller shall", "each of Buyer and Seller", a passive's agent
        nxt = toks[i + 1]
        if nxt not in _MODALS:
            # a finite verb right after a role: English present "pays" (not "-ss"), Spanish future
            # "pagará(n)"; anything else ("Seller's", "Licensee Products") is no act
            if t not in _ROLE_WORDS or not (_FINITE_EN.fullmatch(nxt) or _FUTURE_ES.fullmatch(nxt)) \
                    or not _content(nxt) or nxt in _NOT_VERBS:
                continue
            k = i + 1
        else:
            k = i + 2
            while k < len(toks) and toks[k] in ("to", "hereby", "also", "promptly", "a"):
                k += 1
            if k >= len(toks) or toks[k] in _NOT_VERBS or toks[k] in _NEGATION or toks[k] == ".":
                continue  # a passive or a negated act: left to core.polarity
        tail = []
        for w in toks[k + 1 : k + 6]:
            if w in (".", "and", "or", "y", "o"):
                break  # a coordinated act may be another party's ("… and Licensee the patent costs")
            if _content(w) and w not in _ROLE_WORDS and w not in names:
                tail.append(w)
        out.add((t, _stem(toks[k]), frozenset(map(_stem, tail))))
    return out


_PARTICIPLES = {"paid": "pay", "borne": "bear", "sold": "sell", "made": "make", "given": "give", "held": "hold",
                "kept": "keep", "sent": "send", "bought": "buy", "brought": "bring", "done": "do", "met": "meet"}
"""Irregular English past participles → their verb, whose Snowball stems differ ("paid" / "pay"), for a
passive's agent (:func:`_acts`)."""


def _acts(toks: list[str], actor: str, verb: frozenset[str]) -> bool:
    """Whether ``toks`` give the act ``verb`` to ``actor`` anywhere in a clause it starts (within ten
    words, so "Licensee shall, at its own expense, pay" counts), or as a passive's agent ("the rent
    shall be paid by Tenant", "protegida por la Parte Receptora": the verb's participle right before
    "by"/"por"): read generously, since a quote that may say it must not be read as
    saying the opposite."""
    for i, t in enumerate(toks):
        if t != actor:
            continue
        b = i - 1 - (i > 1 and toks[i - 1] in ("the", "el", "la", "los", "las"))
        if b >= 1 and toks[b] in ("by", "por"):
            # the participle right before "by" (an adverb may sit between: "paid directly by")
            w = toks[b - 2] if b >= 2 and toks[b - 1].endswith(("ly", "mente")) else toks[b - 1]
            if (_stem(w) | _stem(_PARTICIPLES.get(w, w))) & verb:
                return True
        for w in toks[i + 1 : i + 11]:
            if w == ".":
                break
            if _stem(w) & verb:
                return True
    return False


def _swapped(claim: list[str], quotes: list[list[str]], names: frozenset[str]) -> str:
    """Swapped actors: the claim's actor does what the quotes give only to another, on the same
    object: for roles its converse (:data:`ROLES`), for names another party both texts name."""
    converse: dict[str, set[str]] = {}
    for a, b in ROLES:
        converse.setdefault(a, set()).add(b)
        converse.setdefault(b, set()).add(a)
    claim_words, quote_words = set(claim), {w for q in quotes for w in q}
    theirs = {a for q in quotes for a in _actors(q, names)}
    for actor, verb, obj in _actors(claim, names):
        if not obj or any(_acts(q, actor, verb) for q in quotes):
            continue
        for other, v, o in theirs:
            # the same act on (two thirds of) the claim's object: "pay the filing costs" is not
            # "pay the maintenance costs"
            theirs_obj = frozenset().union(*o) if o else frozenset()
            if not v & verb or sum(bool(w & theirs_obj) for w in obj) < max(1, -(-2 * len(obj) // 3)) \
                    or other == actor:
                continue
            if other in converse.get(actor, ()) or (actor in names and other in names and other in claim_words
                                                     and actor in quote_words):
                return f"'{actor}' acts in the claim where its quotes have '{other}'"
    return ""


@lru_cache(maxsize=4096)
def _check(claim: str, quotes: tuple[str, ...]) -> RelationVerdict:
    c, qs = _tokens(claim), [_tokens(q) for q in quotes]
    joined = " ".join(quotes)
    # an actor of either text that both texts name
    names = frozenset(n for n in _names(claim) | _names(joined)
                      if re.search(rf"\b{re.escape(n)}\b", claim, re.IGNORECASE)
                      and re.search(rf"\b{re.escape(n)}\b", joined, re.IGNORECASE))
    reason = _opposite(c, qs) or _swapped(c, qs, names)
    return RelationVerdict("contradict", reason) if reason else RelationVerdict("agree")


def check_relations(claim: str, quotes: list[str]) -> RelationVerdict:
    """Does ``claim`` state, with an opposite word or a swapped role, what its ``quotes`` state?

    Args:
        claim: the sentence shown to the user.
        quotes: its verified quotes (read together).

    Returns:
        ``RelationVerdict("contradict", reason)`` when a pattern of the module docstring lines up,
        else ``RelationVerdict("agree")``. Never raises on ordinary text.
    """
    return _check(claim, tuple(quotes))
