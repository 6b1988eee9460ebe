"""Kinds of contract, in English and Spanish: what kind a document is, and which kind a question names.

A lawyer names a contract by its kind as often as by its parties: "the supply agreement", "el
contrato de suministro", "the lease" over a file titled "Contrato de arrendamiento de local de
negocio". The kind words are ordinary words (lower case, in every contract's text), so they are
weak naming words (:data:`core.docrefs.WEAK_WORD`), and across languages they are no naming words at
all. Here a kind is a *concept* with its English and Spanish names (:data:`KIND_TERMS`), read

* from a document's **title and file name** (:func:`document_kinds`): the kind words right before a
  document noun ("Supply Agreement", "MARKETING AND TRANSPORTATION SERVICES AGREEMENT"), right after
  one ("Contrato de arrendamiento", the file name's "Contrato_trabajo_indefinido"), or a kind that
  is itself a document noun ("Mutual_NDA_Orion", "Lease");
* from a **question** (:func:`question_kinds`): the same phrases, in the singular and after a
  definite determiner ("the supply agreement", "el contrato de suministro", "del arrendamiento",
  "the shop lease"); "a supply agreement", "any NDA", "un contrato de licencia" describe a kind of
  contract, they name none.

:class:`core.docrefs.DocResolver` uses a kind only when the naming words name nothing (or leave two
or three documents, one of which alone has the kind), and only when the kind is held by one document,
or a clear few (at most :data:`core.docrefs.MAX_AMBIGUOUS`, searched together and said to be).

Why hand-written: no offline library holds a bilingual list of contract kinds. Sources: the English
kinds are CUAD's 25 contract types (Hendrycks et al., "CUAD", NeurIPS 2021, Table 5) plus the common
kinds of a law firm's files (NDA, lease, employment, loan, purchase, settlement, merger…); the
Spanish names are those of Spanish contract law (Código Civil: arrendamiento art. 1542, compraventa
art. 1445, préstamo art. 1740, transacción art. 1809; Código de Comercio: transporte art. 349;
Ley 12/1992 del contrato de agencia; RD 201/2010, franquicia; Estatuto de los Trabajadores art. 8,
contrato de trabajo) and the usual Spanish names of the rest in commercial practice ("contrato de
suministro", "de patrocinio", "de confidencialidad", "de prestación de servicios"). "Patrocinio"
is both sponsorship and endorsement (Spanish has no separate usual word for the latter).
"""

from __future__ import annotations

import re

from core.docnames import file_stem, fold_words

#: kind → its names, English and Spanish, each a phrase of folded words (:func:`core.docnames.fold_words`).
KIND_TERMS: dict[str, tuple[str, ...]] = {
    "affiliate": ("affiliate", "afiliacion"),
    "agency": ("agency", "agencia"),
    "collaboration": ("collaboration", "cooperation", "colaboracion", "cooperacion"),
    "co-branding": ("co branding", "cobranding", "marca compartida"),
    "consulting": ("consulting", "consultancy", "advisory", "consultoria", "asesoria"),
    "development": ("development", "desarrollo"),
    "distribution": ("distribution", "distributor", "distributorship", "distribucion", "distribuidor"),
    "endorsement": ("endorsement", "patrocinio", "imagen"),
    "sponsorship": ("sponsorship", "patrocinio"),
    "franchise": ("franchise", "franquicia"),
    "hosting": ("hosting", "alojamiento", "hospedaje"),
    "intellectual property": ("intellectual property", "propiedad intelectual"),
    "joint venture": ("joint venture", "empresa conjunta", "negocio conjunto"),
    "license": ("license", "licence", "licensing", "licencia"),
    "maintenance": ("maintenance", "mantenimiento"),
    "manufacturing": ("manufacturing", "manufacture", "fabricacion"),
    "marketing": ("marketing", "comercializacion", "mercadotecnia"),
    "non-compete": ("non competition", "non compete", "noncompetition", "no competencia"),
    "outsourcing": ("outsourcing", "externalizacion", "subcontratacion"),
    "promotion": ("promotion", "promotional", "promocion"),
    "reseller": ("reseller", "resale", "reventa", "revendedor"),
    "services": ("services", "service", "servicios", "prestacion de servicios"),
    "strategic alliance": ("strategic alliance", "alianza estrategica"),
    "supply": ("supply", "suministro"),
    "transportation": ("transportation", "transport", "carriage", "transporte"),
    "nda": ("nda", "non disclosure", "nondisclosure", "confidentiality", "secrecy", "confidencialidad",
            "no divulgacion", "secreto"),
    "lease": ("lease", "sublease", "tenancy", "rental", "arrendamiento", "subarriendo", "arriendo", "alquiler"),
    "employment": ("employment", "trabajo", "laboral", "empleo"),
    "loan": ("loan", "credit", "prestamo", "credito"),
    "purchase": ("purchase", "sale", "compraventa", "compra", "venta"),
    "settlement": ("settlement", "transaccion"),
    "merger": ("merger", "fusion"),
    "guarantee": ("guarantee", "guaranty", "garantia"),
    "shareholders": ("shareholders", "stockholders", "accionistas", "socios"),
    "investment": ("investment", "inversion"),
    "research": ("research", "investigacion"),
}
#: Kind names that are themselves document nouns: "the lease", "el NDA", "del arrendamiento" name a
#: document without "agreement"/"contrato" ("the license", "la franquicia" are usually the right
#: granted, "el alquiler" the rent: not here).
NOUN_TERMS = frozenset({"lease", "sublease", "tenancy", "nda", "arrendamiento", "subarriendo"})
#: Document nouns a kind qualifies: before it in English ("supply agreement"), after it in Spanish
#: ("contrato de suministro"). Singular only: "the supply agreements" is about several.
EN_NOUNS = frozenset({"agreement", "contract", "deal", "arrangement"})
ES_NOUNS = frozenset({"contrato", "acuerdo", "convenio", "pacto"})
#: Words joining two kinds of one document ("supply and distribution agreement").
_JOINERS = frozenset({"and", "y", "e", "&"})
#: Determiners that make a reference definite (English, Spanish), and those that make it a description.
DEFINITE = frozenset("the this that our your their its my el del al este ese aquel dicho nuestro su mi".split())
INDEFINITE = frozenset("a an any each every some no another other un una unos algun alguno cualquier "
                       "cualquiera otro ningun ninguno cada".split())
#: Farthest a determiner stands before the reference it qualifies ("the Norte supply agreement",
#: "the shop lease": one or two modifiers between).
MAX_MODIFIERS = 2

_PHRASES: dict[tuple[str, ...], frozenset[str]] = {}
for _kind, _names in KIND_TERMS.items():
    for _name in _names:
        _key = tuple(_name.split())
        _PHRASES[_key] = _PHRASES.get(_key, frozenset()) | {_kind}
_LONGEST = max(len(k) for k in _PHRASES)
_TRAILING_DIGITS = re.compile(r"(?<=[a-z])\d+$")


def _kind_at(words: list[str], i: int) -> tuple[int, frozenset[str], tuple[str, ...]]:
    """The longest kind phrase starting at ``words[i]``: ``(its length, its kinds, the phrase)``,
    ``(0, ∅, ())`` when none."""
    for n in range(min(_LONGEST, len(words) - i), 0, -1):
        key = tuple(words[i:i + n])
        if key in _PHRASES:
            return n, _PHRASES[key], key
    return 0, frozenset(), ()


def _references(words: list[str]) -> list[tuple[int, frozenset[str], tuple[str, ...]]]:
    """Kind references in ``words``: ``(index where the reference starts, kinds, kind words)``.

    English "<kind> [and <kind>] <noun>", Spanish "<noun> [de] <kind> [y <kind>]" ("de" is missing
    before an adjective, "contrato laboral", and in file names, "Contrato_trabajo_indefinido"), or a
    noun kind alone (:data:`NOUN_TERMS`).
    """
    out = []
    for j, w in enumerate(words):
        if w in EN_NOUNS:  # walk left over kinds and joiners
            kinds: frozenset[str] = frozenset()
            said: tuple[str, ...] = ()
            k = j
            while k > 0:
                found = None
                for n in range(min(_LONGEST, k), 0, -1):
                    key = tuple(words[k - n:k])
                    if key in _PHRASES:
                        found = (n, _PHRASES[key], key)
                        break
                if found:
                    k -= found[0]
                    kinds |= found[1]
                    said += found[2]
                elif kinds and words[k - 1] in _JOINERS and k >= 2:
                    k -= 1
                else:
                    break
            if kinds:
                out.append((k, kinds, said))
        elif w in ES_NOUNS:
            k = j + 1
            if k < len(words) and words[k] in {"de", "del"}:
                k += 1  # "contrato de suministro"; without "de": "contrato laboral", "Contrato_trabajo"
            kinds, said = frozenset(), ()
            while k < len(words):
                n, found, key = _kind_at(words, k)
                if not n:
                    break
                kinds |= found
                said += key
                k += n
                if k + 1 < len(words) and words[k] in _JOINERS and _kind_at(words, k + 1)[0]:
                    k += 1
            if kinds:
                out.append((j, kinds, said))
    for i, w in enumerate(words):
        if w in NOUN_TERMS and not (i + 1 < len(words) and (words[i + 1] in EN_NOUNS)) and not (
                i > 1 and words[i - 1] in {"de", "del"} and words[i - 2] in ES_NOUNS):
            out.append((i, _PHRASES[(w,)], (w,)))
    return out


def document_kinds(title: str, doc_id: str) -> frozenset[str]:
    """The kinds of contract a document is, from its ``title`` and the file name of ``doc_id``
    (module docstring); empty when neither names a kind ("Exhibit 10.1", a Wikipedia article)."""
    kinds: frozenset[str] = frozenset()
    for text in (fold_words(title), file_stem(doc_id).split()):
        words = [_TRAILING_DIGITS.sub("", w) for w in text]  # "Co-Branding Agreement1"
        for _, found, _ in _references(words):
            kinds |= found
    return kinds


def question_kinds(question: str) -> tuple[frozenset[str], list[str]]:
    """The kinds of contract ``question`` names by a definite reference, and the kind words it used.

    A clause type's words do not stop a reference ("the NDA", "the non-compete agreement" name a
    document even when the question asks about confidentiality or non-competition): the phrase
    is a document noun or qualifies one, which a clause's name alone ("the license", "la
    licencia") is not. Returns ``(∅, [])`` when the question names no kind, or names one only as a
    description ("a supply agreement", "any NDA").
    """
    words = fold_words(question)
    kinds: frozenset[str] = frozenset()
    said: list[str] = []
    for start, found, phrase in _references(words):
        if _definite(words, start):
            kinds |= found
            said.append(" ".join(phrase))
    return kinds, said


def _definite(words: list[str], start: int) -> bool:
    """Whether the nearest determiner before ``words[start]`` (at most :data:`MAX_MODIFIERS` words
    between) is definite."""
    for k in range(start - 1, max(-1, start - 2 - MAX_MODIFIERS), -1):
        if words[k] in INDEFINITE:
            return False
        if words[k] in DEFINITE:
            return True
    return False
