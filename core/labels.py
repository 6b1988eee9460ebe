"""Quotes that state nothing: headings, defined-term lines and clause numbers (issue #21).

A quote such as "15.7 Successors and Assigns.", "LIMITATION OF LIABILITY", '"Confidential
Information"' or "Section 15.7" is literally in the source, so it passes the literal check,
but it states no obligation, right, figure or fact: it names a part of the document. A claim
whose only quotes are such labels is not supported by them (the verifier removes it with
reason ``heading_only``); a label quoted *beside* a quote that states the clause is kept,
since it tells the reader where the clause is and may carry the clause number the claim cites.

What counts as a label (:func:`label_kind`), after trailing punctuation is dropped:

* ``clause number`` — a clause, section or article reference alone: "15.7", "Section 15.7",
  "Article IV", "Cláusula 5.2(b)", "§ 12";
* ``defined term`` — a quoted term alone, optionally numbered or in parentheses, optionally
  followed only by "means"/"shall mean"/"significa": '"Affiliate"', '(the "Agreement")',
  '1.3 "Confidential Information" means';
* ``heading`` — at most :data:`MAX_HEADING_WORDS` words without a digit (besides a
  leading clause number) and without a verb of obligation or being (shall, will, may, must,
  is, are, ...; deberá, podrá, será, es, ...), written as a heading is: every word of four
  letters or more capitalized or in capitals ("Successors and Assigns", "LIMITATION OF
  LIABILITY"), or, in sentence case, after a clause number ("5. Duración del contrato").

Why by hand: no library classifies a span as a heading from its text alone; these rules are
the typographic conventions of contracts (CUAD, Spanish BOE texts) and are deliberately
narrow — a short fragment with a figure ("five (5) years from the Effective Date") or a verb
is never a label, because such fragments do carry facts.
"""

from __future__ import annotations

import re

MAX_HEADING_WORDS = 10
"""Longest heading, in words (a contract heading is a noun phrase: "Term and Termination",
"Limitation of Liability and Indemnification Procedures" — 6 words)."""

_CLAUSE_WORD = (
    r"(?:section|sections|sec\.|article|art\.|arts\.|clause|schedule|exhibit|annex|appendix|paragraph|para\.|"
    r"sección|seccion|artículo|articulo|cláusula|clausula|anexo|apartado|párrafo|parrafo|epígrafe|epigrafe|§+)"
)
# an ordinal mark after the number ("5.ª", "5º", "1st") is part of the clause number
_NUMBERING = r"(?:\d+(?:\.\d+)*(?:\.?[ºª°]|st|nd|rd|th)?|[IVXLC]+|[A-Z])(?:\.\d+)*(?:\s*\(\w{1,4}\))*"
# a list marker alone ("(b)", "(iv)", "(12)") names an item, it states nothing
_CLAUSE_ONLY = re.compile(rf"^(?:(?:{_CLAUSE_WORD}\s*)?{_NUMBERING}|\((?:[a-z]{{1,2}}|[ivxlc]{{1,6}}|\d{{1,3}})\))$",
                          re.IGNORECASE)
_LEADING_NUMBER = re.compile(rf"^(?:{_CLAUSE_WORD}\s*)?{_NUMBERING}[.):\-–—]*\s+", re.IGNORECASE)
_QUOTED_TERM = re.compile(
    r"^\(?\s*(?:the\s+|el\s+|la\s+|los\s+|las\s+)?[\"“”'‘’«]([^\"“”«»]{1,80})[\"“”'’»]\s*\)?"
    r"(?:\s+(?:means|shall\s+mean|has\s+the\s+meaning|significa|significará|se\s+entenderá))?$",
    re.IGNORECASE,
)
_VERBS = frozenset(
    """shall will may must is are was were be been has have had can cannot should would does do did
    agrees agree means includes include constitutes provides requires
    deberá deberán podrá podrán será serán es son está están tendrá tendrán ha han puede pueden debe deben
    corresponde corresponderá incluye significa queda quedan""".split()
)
_SMALL_WORDS = frozenset(
    "and or of the to in on for by with from a an at as its de del la las el los y e o u en por para con sin al".split()
)
_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
_NEGATIONS = frozenset("no not never nor none nothing ni nunca ningún ninguna nada".split())
"""A negation after the heading's first word states something ("PSF MAKES NO WARRANTIES"); as the first
word, or after a conjunction or a separator, it names a clause ("No Waiver", "Assignment; No Third-Party
Beneficiaries")."""
_DETERMINERS = frozenset("no any all the a an each every such its their this these those".split())
"""A word ending in "s" before one of these is a third-person verb ("PSF DISCLAIMS ALL WARRANTIES",
"LICENSOR MAKES NO REPRESENTATIONS"): a heading is a noun phrase, where a plural noun is not followed by a
determiner."""


def label_kind(quote: str) -> str | None:
    """``"clause number"``, ``"defined term"`` or ``"heading"`` when ``quote`` is only that, else ``None``.

    Args:
        quote: the quote as verified (the source's text), any length.
    """
    text = " ".join(quote.split()).strip(" .:;,-–—")
    if not text:
        return None
    if _CLAUSE_ONLY.match(text):
        return "clause number"
    numbered = _LEADING_NUMBER.match(text)
    body = text[numbered.end():] if numbered else text
    if _QUOTED_TERM.match(body.strip(" .:;")):
        return "defined term"
    if any(c.isdigit() for c in body):
        return None  # a figure is a fact: "five (5) years" is never a label
    words = _WORD.findall(body)
    if not words or len(words) > MAX_HEADING_WORDS or len(body) > 120:
        return None
    if any(w.casefold() in _VERBS for w in words) or not words[0][0].isupper():
        return None  # a verb makes a statement; a heading starts with a capital ("the Supplier and ...")
    if _states(body):
        return None  # "PSF MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED." (2026-12-02, fifth session)
    if re.search(r"[.;:!?]\s+\S", body):
        return None  # two sentences (or a heading followed by its text): not a bare heading
    content = [w for w in words if len(w) >= 4 and w.casefold() not in _SMALL_WORDS]
    if not content:
        return "heading" if numbered else None
    if all(w[0].isupper() for w in content):
        return "heading"
    if numbered and words[0][0].isupper():
        return "heading"  # "5. Duración del contrato": sentence case after a clause number
    return None


def _states(body: str) -> bool:
    """True when ``body`` has the marks of a sentence that no heading has: a negation inside the phrase
    (after a word that is not a conjunction or a separator) or a third-person verb before a determiner.
    Contracts write their disclaimers in capitals ("LICENSOR MAKES NO WARRANTIES", "PSF DISCLAIMS ALL
    WARRANTIES"); without this they read as headings and a claim citing one was removed (``heading_only``)."""
    toks = re.findall(r"[^\W\d_][\w'’\-]*|[;,:.–—-]", body)
    for prev, tok, nxt in zip([""] + toks, toks, toks[1:] + [""]):
        low, before = tok.casefold(), prev.casefold()
        if low in _NEGATIONS and before and before not in ("and", "or", "y", "o", "e", "u", ";", ",", ":", ".", "–", "—", "-"):
            return True
        if (low.endswith("s") and not low.endswith("ss") and len(low) > 3 and nxt.casefold() in _DETERMINERS
                and before not in ("", "of", "and", "or", "de", "y")):
            return True
    return False
