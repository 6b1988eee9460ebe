"""Polarity check (funnel step 5): a claim must not negate what its quotes state, or the reverse.

"The deposit is not refundable" citing "The deposit is refundable" passes the literal
check (the quote is in the source) and the facts check (no number differs); without a
judge model it would be shown as verified. This check removes such a claim with reason
``polarity_mismatch``.

**Rule.** Negation cues (English: not, -n't, no, never, without, neither, nor, none,
nobody, nothing, nowhere, cannot, non; Spanish: no, nunca, jamás, sin, ni, ningún /
ninguno / ninguna, nadie, nada, tampoco) negate the *first content word* after them in
the same clause (function words such as "is", "be", "the", "se", "la" are skipped;
a comma, semicolon, colon, full stop or "but/pero/sino" ends the clause). A word made
negative by a prefix — un-, in-, im-, ir-, il-, non-, des- before an adjective or
participle ("unenforceable", "non-refundable", "inválido", "desfavorable") — counts as
its stem negated, when the other text has the stem ("enforceable"). Words are compared
by their Snowball stems (English and Spanish) without accents. A claim contradicts its
quotes when some content word is negated in every occurrence on one side and in no
occurrence on the other (all the quotes of the claim together form the other side).

Comparatives and idioms whose negation carries no polarity are ignored: "not only",
"no later than", "no more/less than", "not exceeding", "not limited to", "without
limitation/prejudice", "whether or not"; "no obstante", "sin perjuicio", "no más de",
"no menos de", "no inferior/superior", "sin limitación", "no solo"; and "No." before a
number.

**Known blind spots** (it removes nothing it cannot see, so these pass):

* a negation whose negated word is not in the other text: paraphrases ("is forbidden"
  vs "is allowed"), and claims in another language than their quotes (an English claim
  over a Spanish quote shares no words);
* negation outside the quote ("It is false that the deposit is refundable", quoting only
  "the deposit is refundable");
* antonyms without a prefix ("prohibited"/"permitted", "increase"/"decrease"), and
  prefixes it does not know (dis-, a-);
* negation scope beyond the first content word ("not the tenant but the landlord pays")
  or a cue followed at once by punctuation ("shall not, without consent, sublet");
* double negation ("not without consent") and modality ("may" vs "must").

And what it may remove wrongly: a prefixed word that is not an antonym of its stem
("invested"/"vested", "informed"/"formed") when both words occur in the claim and its
quotes. Measured by ``bench/verify.py`` ("polarity") on the BOE anchors and the lab.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CUES = frozenset({
    "not", "no", "never", "without", "neither", "nor", "none", "nobody", "nothing", "nowhere", "cannot", "non",
    "nunca", "jamás", "jamas", "sin", "ni", "ningún", "ningun", "ninguno", "ninguna", "ningunos", "ningunas",
    "nadie", "nada", "tampoco",
})
_CONTINUING = frozenset({"nor", "ni"})  # "neither A nor B": one negation, not two
_IDIOMS = re.compile(
    r"\b(?:not\s+only|no\s+(?:later|sooner|more|less|fewer)\s+than|not\s+(?:later|more|less)\s+than|not\s+exceeding|"
    r"(?:but\s+)?not\s+limited\s+to|without\s+(?:limitation|prejudice)|whether\s+or\s+not|"
    r"no\s+obstante|sin\s+perjuicio|no\s+m[áa]s\s+(?:de|tarde|que)|no\s+menos\s+(?:de|que)|no\s+(?:inferior|superior)|"
    r"sin\s+limitaci[óo]n|no\s+s[óo]lo|no\s*\.\s*(?=\d)|no\s+(?=\d)|nº)",
    re.IGNORECASE,
)
_CLAUSE_END = frozenset({"but", "however", "although", "pero", "sino", "aunque", "mientras"})
_TOKEN = re.compile(r"[^\W\d_]+(?:'[a-z]+)?|[,;:.!?]", re.UNICODE)
_PREFIX = re.compile(r"^(?:un|in|im|ir|il|non|des)(?=[^\W\d_]{4,})")
_ADJECTIVE = re.compile(r"(?:able|ible|al|ent|ant|ive|ful|ed|id|ar|ido|ida|idos|idas|ble|bles|ente|entes|ante|antes|"
                        r"ivo|iva|ivos|ivas|ado|ada|ados|adas|ico|ica|ial|iales|ales)$")
_FUNCTION = frozenset({
    "be", "is", "are", "was", "were", "been", "being", "the", "a", "an", "to", "have", "has", "had", "do", "does", "did",
    "any", "this", "that", "it", "its", "their", "his", "her", "of", "shall", "will", "may", "can", "must", "should",
    "would", "could", "also", "yet", "even", "ever", "always", "more", "at", "all", "such", "there", "for", "by", "in",
    "se", "lo", "la", "las", "los", "el", "un", "una", "le", "les", "me", "te", "nos", "ha", "han", "he", "es", "son",
    "está", "están", "será", "serán", "fue", "ser", "haber", "puede", "pueden", "podrá", "podrán", "debe", "deben",
    "deberá", "deberán", "al", "del", "de", "en", "que", "su", "sus", "ya", "tan", "hay", "habrá", "va", "van",
})


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


@lru_cache(maxsize=8192)
def _stems(word: str) -> frozenset[str]:
    """The word's Snowball stems in English and Spanish, without accents."""
    from core.textproc import _stemmer

    w = word.casefold()
    return frozenset(_plain(_stemmer(lang).stemWord(w)) for lang in ("en", "es"))


def _tokens(text: str) -> list[str]:
    text = _IDIOMS.sub(" , ", text)
    words = []
    for tok in _TOKEN.findall(text.replace("’", "'").replace("-", " ")):
        low = tok.casefold()
        if low.endswith("n't"):  # don't, isn't, can't, won't: the verb then a negation
            words.extend([low[:-3] or low, "not"])
        else:
            words.append(low)
    return words


def _occurrences(tokens: list[str], stems_elsewhere: set[str]) -> list[tuple[frozenset[str], bool]]:
    """``(stems, negated)`` for each content word of a text (see the module docstring)."""
    out: list[tuple[frozenset[str], bool]] = []
    pending = False  # a cue waits for the first content word of its clause
    seen_cue = False
    for tok in tokens:
        if tok in ",;:.!?" or tok in _CLAUSE_END:
            pending = False
            continue
        if tok in _CUES:
            if tok in _CONTINUING and seen_cue:
                pending = True  # "neither A nor B": B is negated by the same negation
                continue
            pending = seen_cue = True
            continue
        if tok in _FUNCTION or len(tok) < 2:
            continue
        stems = _stems(tok)
        m = _PREFIX.match(tok)
        if m and _ADJECTIVE.search(tok):
            base = _stems(tok[m.end():])
            if base & stems_elsewhere and not stems & stems_elsewhere:
                out.append((base, not pending))  # "unenforceable" = "enforceable" negated
                pending = False
                continue
        out.append((stems, pending))
        pending = False
    return out


def polarity_mismatch(claim: str, quotes: list[str]) -> str | None:
    """Why ``claim`` and its ``quotes`` disagree in negation, or ``None`` when they do not.

    Returns:
        A short reason naming the word ("'refundable' is negated in the claim, not in
        its quotes"), or ``None`` (no contradiction seen; see the blind spots in the
        module docstring).
    """
    claim_tokens = _tokens(claim)
    quote_tokens = [t for q in quotes for t in _tokens(q) + ["."]]
    claim_stems = {s for t in claim_tokens for s in _stems(t)}
    quote_stems = {s for t in quote_tokens for s in _stems(t)}
    in_claim = _occurrences(claim_tokens, quote_stems)
    in_quotes = _occurrences(quote_tokens, claim_stems)
    for stems, negated in in_claim + in_quotes:
        claim_flags = {n for s, n in in_claim if s & stems}
        quote_flags = {n for s, n in in_quotes if s & stems}
        if len(claim_flags) == 1 and len(quote_flags) == 1 and claim_flags != quote_flags:
            word = next(w for w in claim_tokens + quote_tokens if _stems(w) & stems or
                        (_PREFIX.match(w) and _stems(w[_PREFIX.match(w).end():]) & stems))  # type: ignore[union-attr]
            where = "the claim, not in its quotes" if True in claim_flags else "the quotes, not in the claim"
            return f"'{word}' is negated in {where}"
    return None
