"""The names of a document: the words, file-name forms and short forms a person would call it by.

Split out of :mod:`core.docrefs` (which resolves a question's reference against these profiles
and re-exports the names defined here).

**Profile** (:func:`build_profile`). Per document, its *naming words*: the words of its file name,
of its title, of its title line (its first line, when short: :func:`title_line_words`), and the capitalised words and identifiers of its first :data:`HEAD_CHARS` characters
— parties, defined names, products, places, reference numbers — and the proper names the text read repeats
(:data:`SALIENT_MIN` times), leaving out words capitalised
only because they start a sentence, stopwords and generic words of legal drafting ("Agreement",
"Inc.", "S.L.", "Contrato"…, :data:`GENERIC`). Every word is folded (:func:`fold`) and a final
possessive is dropped (:func:`name_word`: "Acme's", "Industries'" → "acme", "industries"), on
both sides, so that "Papa John's" in a contract and "Papa John's deal" in a question meet.
Added to them, the short forms people write:

* a file name's *compounds* and their parts: "PcquoteComInc_1999…" gives "pcquotecominc",
  "pcquote", "com" (camel case split), and a compound without its company-form suffix
  ("pcquotecom"): a question writing "PcquoteCom" or "FLOTEKINDUSTRIES" names it;
* the *parts of joined names* (:func:`name_parts`): camel-case parts of the first page's names
  ("BicycleTX Ltd" → "bicycle") and a capital-letter file-name compound cut into words the
  document itself capitalises ("BICYCLETHERAPEUTICSPLC" with "Bicycle Therapeutics plc" in the
  text → "bicycle", "therapeutics"): the party's name where the file name runs it together;
* *initialisms* of the head's multi-word names (:func:`initialisms`): "General Electric Capital
  Corporation" → "gecc" and "gec", "A.B. Watley" → "abw", "Affinity Group, Inc." → "agi". A
  contract usually defines its own short forms ("FCC") and those are capitalised words already;
  the initialisms cover the ones people coin.

**Proper names.** A naming word that the document never writes in lower case in the text read
(:data:`PROPER_CHUNKS` chunks at indexing) is a *proper* name ("Purolator", "Vayyar"): typed in
lower case in a question ("can purolator terminate…") it still names the document, while a
common word capitalised in a title ("Security" in "Standards for Security Categorization", which
the standard also writes "security") names it only when the question writes it as a name. This
is the usual capitalisation test for proper nouns (a word capitalised mid-sentence and never in
lower case is a name), applied per document: it needs no dictionary and works in any language.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote

from core.textproc import all_stopwords

#: Characters of a document's start read for its naming words (its title page and preamble).
HEAD_CHARS = 1500
#: Longest first line (in words) read as the document's title line (:func:`title_line_words`); set a
#: priori, not fitted: a contract's title line ("SUPPLY AGREEMENT - DRAFT 3", "Contrato de arrendamiento
#: de local de negocio") is a few words, a paragraph run into one line is many more.
TITLE_LINE_WORDS = 12
#: Nouns that make a short first line a document's title: it says what the document is ("SUPPLY
#: AGREEMENT - DRAFT 3", "Lease summary", "Contrato de arrendamiento", "ACTA DE LA JUNTA"). A first
#: line without one is a banner, not a title: "Execution Version", "Confidential - Draft for
#: discussion purposes only", EDGAR's "Click here to rapidly navigate through this document"; its
#: ordinary words named the document ("Is this only a draft?" scoped to it: review2, 2026-12-02).
#: Hand-written: the document nouns of English and Spanish legal practice, folded.
TITLE_NOUNS = frozenset("""
agreement agreements contract contracts lease leases sublease tenancy nda summary memorandum memo addendum
amendment annex appendix schedule deed letter notice policy minutes report statement certificate invoice
order terms license licence charter bylaws
contrato contratos acuerdo acuerdos convenio convenios anexo adenda arrendamiento subarriendo resumen acta
escritura poliza carta notificacion informe certificado factura pedido estatutos condiciones memoria
""".split())
#: Chunks read from a document's start at indexing for the proper-name test (module docstring).
PROPER_CHUNKS = 12
#: A proper name written this many times in the text read is a naming word wherever it stands
#: (the product or project a contract is about: "Glumetza" first appears on its 11th page).
SALIENT_MIN = 3
#: Version of the naming words' definition: profiles stored with another are derived again
#: (:func:`core.store.profiles.read_profiles`). 2: possessives, compounds, initialisms, proper names;
#: 3: the parts of joined names (:func:`name_parts`); 4: the title line's words (:func:`title_line_words`);
#: 5: only a title line holding a document noun (:data:`TITLE_NOUNS`).
PROFILE_VERSION = 5

#: A word of a name: letters and digits, inner and final apostrophes kept ("Acme's", "Industries'").
NAME_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*['’]?", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")


def fold(text: str) -> str:
    """Casefolded, accents removed (NFD, combining marks dropped): how names are compared."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def name_word(word: str) -> str:
    """A word as names are compared: folded, without a final possessive ("Acme's" → "acme",
    "Industries'" → "industries"; "O'Brien" stays "o'brien")."""
    return _POSSESSIVE.sub("", fold(word))


def fold_words(text: str) -> list[str]:
    """The folded words of ``text`` (letters and digits, inner apostrophes kept, final possessives
    dropped: :func:`name_word`), in order."""
    return [w for w in (name_word(m.group(0)) for m in NAME_WORD.finditer(text)) if w]


def word_spans(text: str) -> list[tuple[str, int, int, str]]:
    """``(name_word, start, end, raw word)`` for each word of ``text`` (character offsets)."""
    out = []
    for m in NAME_WORD.finditer(text):
        w = name_word(m.group(0))
        if w:
            out.append((w, m.start(), m.end(), m.group(0)))
    return out


#: Words that name a kind of document or company form, or connect the words of a name: never
#: evidence for one document, but allowed inside a naming run. English and Spanish.
GENERIC = frozenset(fold(w) for w in """
agreement agreements contract contracts exhibit schedule annex appendix amendment amended restated
inc incorporated corp corporation company companies co llc ltd limited plc lp llp pllc sa sl sau slu
gmbh ag nv bv srl spa sas pty holding holdings group party parties dated date effective consider
the this that between among and or of for with by to in on at as from under into its their whose
contrato contratos acuerdo acuerdos convenio anexo addenda adenda sociedad sociedades entidad
parte partes fecha cláusula clausula documento
deal deals arrangement file files document documents pdf docx doc txt md htm html eml
""".split()) | frozenset(fold(w) for w in all_stopwords())
#: Honorifics written before a party's name ("la Sra. García", "D. Andrés López", "Mr. Haumann"): never
#: a name themselves, so "Sra. García" is a name of one word, García, as the contract writes it
#: ("Dña. Elena García Montes"). English and Spanish courtesy titles (RAE, "Lista de abreviaturas").
HONORIFICS = frozenset(fold(w) for w in "mr mrs ms miss mister dr sr sra srta d dña don doña dra sres sras".split())
GENERIC = GENERIC | HONORIFICS
#: Company-form suffixes dropped from the end of a file-name compound ("pcquotecominc" → "pcquotecom").
_FORM_SUFFIXES = ("incorporated", "inc", "corp", "co", "llc", "ltd", "plc", "lp", "sa", "sl", "gmbh", "ag")
#: Words skipped when an initialism is formed ("Bank of America" → "ba", as people write "BofA"
#: rarely; the connectors carry no letter in common usage).
_INITIAL_SKIP = frozenset("of the de del la las los for".split())


@dataclass(frozen=True)
class DocProfile:
    """What a person would call one document: its naming words and a display title."""

    doc_id: str
    title: str
    names: frozenset[str]
    """Naming words (:func:`name_word` forms; module docstring)."""
    proper: frozenset[str] = frozenset()
    """The naming words the document never writes in lower case (proper names; module docstring)."""


def file_stem(path: str) -> str:
    """The file name of ``path`` without extension, as a person may type it: ``%20`` decoded,
    underscores and runs of separators made single spaces, folded. ``"a/Mutual_NDA%20-%20Acme.pdf"``
    → ``"mutual nda acme"``."""
    name = PurePosixPath(unquote(path.replace("\\", "/"))).name
    stem = name.rsplit(".", 1)[0] if "." in name and len(name.rsplit(".", 1)[1]) <= 5 else name
    return " ".join(fold_words(stem.replace("_", " ")))


def file_words(path: str) -> set[str]:
    """Naming words of a file name: its words, each compound's camel-case parts and the compound
    without a company-form suffix (module docstring)."""
    name = PurePosixPath(unquote(path.replace("\\", "/"))).name
    stem = name.rsplit(".", 1)[0] if "." in name else name
    out: set[str] = set()
    for piece in re.split(r"[\s_,;]+", stem):
        for w in fold_words(piece):
            out.add(w)
            for suffix in _FORM_SUFFIXES:
                if len(w) > len(suffix) + 3 and w.endswith(suffix):
                    out.add(w[: -len(suffix)])
        camel = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", piece)  # "PcquoteComInc" -> "Pcquote Com Inc"
        out.update(fold_words(camel))
    return {f for f in out if f not in GENERIC and not f.isdigit() and len(f) > 1}


_ABBREVIATION = re.compile(r"(?:\b[A-Za-z]|\b(?:Inc|Corp|Co|Ltd|Mr|Mrs|Ms|Dr|Dra|St|No|Nos|vs|Sr|Sra|Srta|Sres|Dña|Dna|Jr|Av|Ave|Bros|Cía|Cia))\.[\s\"“(]*$")


def sentence_start(text: str, start: int) -> bool:
    """Whether the word at ``start`` begins a sentence (so its capital says nothing): the text's
    start, or after ``. ! ? : ;`` or a line break — not after an initial or a company-form
    abbreviation ("A.B. Watley", "Acme Inc. and Beta")."""
    before = text[max(0, start - 8):start]
    if start == 0 or re.search(r"(?:^|[!?:;¿¡\n])[\s\"“(]*$", before[-4:]) is not None:
        return True
    return re.search(r"\.[\s\"“(]*$", before) is not None and _ABBREVIATION.search(before) is None


_sentence_start = sentence_start


def _capitalised_runs(head: str) -> tuple[set[str], list[list[str]]]:
    """Words capitalised inside a sentence, all-capital words and identifiers with digits; and the
    runs of capitalised words (each a list of raw words, connectors such as "of" allowed inside)."""
    words: set[str] = set()
    runs: list[list[str]] = []
    run: list[str] = []
    last_end = -1
    for m in NAME_WORD.finditer(head):
        word = m.group(0)
        has_digit = any(ch.isdigit() for ch in word)
        capital = word[0].isupper()
        gap = head[last_end:m.start()] if last_end >= 0 else ""
        suffix = fold(word).rstrip(".") in _FORM_SUFFIXES
        if run and ((not capital and fold(word) not in _INITIAL_SKIP) or re.search(r"[;:()\"“”\n]", gap)
                    or (re.search(r",\s", gap) and not suffix)):
            if len(run) > 1:
                runs.append(run)
            run = []
        if capital:
            run.append(word)
        last_end = m.end()
        if (capital and not _sentence_start(head, m.start())) or (word.isupper() and len(word) > 1) or has_digit:
            f = name_word(word)
            if f not in GENERIC and len(f) > 1 and not f.isdigit():
                words.add(f)
    if len(run) > 1:
        runs.append(run)
    return words, runs


def initialisms(run: list[str]) -> set[str]:
    """Initialisms of a capitalised run: its words' first letters, with and without a final
    company-form word, connectors skipped; dotted initials count as their letters ("A.B. Watley"
    → "abw"). Only forms of 3 to 6 letters that are not common words (:data:`GENERIC`)."""
    letters: list[tuple[str, bool]] = []
    for raw in run:
        f = fold(raw)
        if f in _INITIAL_SKIP:
            continue
        parts = [p for p in re.split(r"['’.]", raw) if p]
        if len(parts) > 1 and all(len(p) == 1 for p in parts):  # "A.B" -> a, b
            letters.extend((fold(p), False) for p in parts)
        else:
            letters.append((f[0], f.rstrip(".") in _FORM_SUFFIXES or f in GENERIC))
    out = set()
    full = "".join(c for c, _ in letters)
    out.add(full)
    trimmed = list(letters)
    while trimmed and trimmed[-1][1]:
        trimmed.pop()
        out.add("".join(c for c, _ in trimmed))
    return {w for w in out if 3 <= len(w) <= 6 and w not in GENERIC}


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
#: Shortest part of a compound name (letters) taken as a naming word.
MIN_PART = 3


def segment(compound: str, words: set[str]) -> list[str] | None:
    """``compound`` cut into the fewest words of ``words`` (at least two, each at least
    :data:`MIN_PART` letters; a company-form suffix may end it), or None (dynamic programming
    over the cut points, as word segmentation is usually done)."""
    n = len(compound)
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(1, n + 1):
        for start in range(end):
            prev = best[start]
            piece = compound[start:end]
            if prev is None or piece == compound or not (
                    piece in words and len(piece) >= MIN_PART or end == n and piece in _FORM_SUFFIXES):
                continue
            if best[end] is None or len(prev) + 1 < len(best[end]):
                best[end] = prev + [piece]
    parts = best[n]
    return parts if parts is not None and len(parts) >= 2 else None


def name_parts(head: str, body: str, names: set[str]) -> set[str]:
    """The words of a document's own name that its file name or first page write joined.

    * Camel-case parts of the first page's capitalised words: "BicycleTX Ltd" → "bicycle" (the
      file-name compounds are split so already, :func:`file_words`).
    * The parts of a compound among ``names`` (a file name "BICYCLETHERAPEUTICSPLC_…" in capitals,
      where no case shows the cuts) cut into capitalised words the text writes: "Bicycle
      Therapeutics plc" on page 2 → "bicycle", "therapeutics". Only cuts into words the document
      itself capitalises: no dictionary guesses at a company's name.

    Returns folded words (:func:`name_word`), none generic, each at least :data:`MIN_PART` letters.
    """
    out: set[str] = set()
    for m in NAME_WORD.finditer(head):
        raw = m.group(0)
        if raw[0].isupper() and _CAMEL.search(raw):
            out.update(fold_words(_CAMEL.sub(" ", raw)))
    capitalised = {name_word(m.group(0)) for m in NAME_WORD.finditer(body) if m.group(0)[0].isupper()}
    capitalised |= out
    capitalised -= GENERIC
    for compound in names:
        if len(compound) >= 2 * MIN_PART and compound not in capitalised:
            out.update(segment(compound, capitalised) or ())
    return {w for w in out if len(w) >= MIN_PART and w not in GENERIC and not w.isdigit()}


@lru_cache(maxsize=4096)
def title_words(profile: DocProfile) -> frozenset[str]:
    """The words of ``profile``'s file name and title (not those of its first page), the parts of
    its file-name compounds included ("KINGPHARMACEUTICALSINC" → "king", "pharmaceuticals")."""
    words = set(file_words(profile.doc_id)) | set(fold_words(profile.title))
    for w in list(words):
        words.update(segment(w, set(profile.names)) or ())
    return frozenset(words)


#: A company name: capitalised words ending in a company form ("Tellurian Health Systems, Inc.").
_COMPANY = re.compile(r"\b([A-Z][\w'’&-]*)(?:\s+[A-Z][\w'’&.-]*){0,4},?\s+(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|"
                      r"Corporation|Company|GmbH|AG|S\.A|S\.L|PLC|plc|LP|LLP|AS|NV|BV)\b")


#: A defined name: ``("Purolator")``, ``(the "Company")``, ``(“FCC”)``.
_DEFINED = re.compile(r"\(\s*(?:the\s+|el\s+|la\s+)?[\"“'‘]+([^\"”'’()]{2,40})[\"”'’]+\s*\)", re.IGNORECASE)


def title_line_words(head: str) -> set[str]:
    """The words of a document's title line: its first non-empty line when it has at most
    :data:`TITLE_LINE_WORDS` words ("Vireo Property Management – Lease summary", "SUPPLY AGREEMENT -
    DRAFT 3"), folded, none generic nor a bare number; empty when the first line is a paragraph,
    or a banner holding no document noun (:data:`TITLE_NOUNS`: "Execution Version").

    The parser's title is often the file name (a scanned PDF, a PDF without metadata); the first
    line is then the title a person reads and names the document by. Its first word starts a
    sentence, so the capitalisation test of the head (:func:`_capitalised_runs`) cannot see it
    ("Vireo"), and its lower-case words ("summary") are title words as a parsed title's are.
    """
    for line in head.splitlines():
        words = fold_words(line)
        if words:
            if len(words) > TITLE_LINE_WORDS or not TITLE_NOUNS & set(words):
                return set()
            return {w for w in words if w not in GENERIC and not w.isdigit() and len(w) > 1}
    return set()


def build_profile(doc_id: str, path: str, title: str, head: str, text: str = "") -> DocProfile:
    """The profile of one document (module docstring).

    Args:
        doc_id: the document's id.
        path: its file path (the file name's words are naming words).
        title: its title as parsed (first heading, HTML title, e-mail subject or file name).
        head: the start of its text; only the first :data:`HEAD_CHARS` characters are read.
        text: text in which lower-case uses of the naming words are looked for (the proper-name
            test); ``head`` when empty.
    """
    names = file_words(path) | {f for f in fold_words(title) if f not in GENERIC and not f.isdigit()}
    capitalised, runs = _capitalised_runs(head[:HEAD_CHARS])
    names |= capitalised | title_line_words(head)
    for run in runs:
        names |= initialisms(run)
    body = text or head
    names |= name_parts(head[:HEAD_CHARS], body, names)
    lower: set[str] = set()
    alone: set[str] = set()  # capitalised words seen outside a longer capitalised name
    counts: dict[str, int] = {}
    found = list(NAME_WORD.finditer(body))

    def capital_name(k: int) -> bool:
        raw = found[k].group(0)
        return raw[0].isupper() and name_word(raw) not in GENERIC

    for k, m in enumerate(found):
        raw = m.group(0)
        if raw.islower():
            lower.add(name_word(raw))
            continue
        f = name_word(raw)
        if raw[0].isupper() and not _sentence_start(body, m.start()):
            counts[f] = counts.get(f, 0) + 1
        joined = any(0 <= j < len(found) and capital_name(j) and re.fullmatch(
            r"[ \t-]+", body[min(m.end(), found[j].end()):max(m.start(), found[j].start())] or "x")
            for j in (k - 1, k + 1))
        if not joined and not raw.isupper():  # "WHEREAS", "NOW, THEREFORE": capitals for emphasis
            alone.add(f)
    for m in _COMPANY.finditer(body):  # "Tellurian Health Systems, Inc.": people say "Tellurian"
        alone.update(fold_words(m.group(1)))
    for m in _DEFINED.finditer(body):  # a name the contract defines: ("Purolator"), ("FCC")
        alone.update(fold_words(m.group(1)))
    # a proper name: never in lower case, and seen on its own (not in capitals only), defined, or
    # first in a company's name ("Purolator"), not only inside a
    # longer name ("Death" of "Black Death": "the death of vegetation" does not name that article)
    proper = frozenset(n for n in names if n not in lower and n in alone and not n.isdigit())
    # repeated proper names count as naming words written as names, never as proper names typed
    # in lower case: 12 chunks are too few to tell a name ("Glumetza") from a defined term ("Data")
    names |= {f for f, c in counts.items() if c >= SALIENT_MIN and f not in lower and f not in GENERIC
              and len(f) > 2 and not f.isdigit()}
    return DocProfile(doc_id=doc_id, title=title.strip() or PurePosixPath(path).name, names=frozenset(names),
                      proper=proper)


# --- document kinds ---------------------------------------------------------------------- ------------------------------------------------------------
#
# Why hand-written: a Spanish question names an English contract by its kind ("el contrato de
# patrocinio", "el acuerdo de confidencialidad"); the words of the kind are the English title's.
# The kinds are CUAD's 25 contract types (Hendrycks et al., "CUAD", NeurIPS 2021, Table 5) plus
# the common kinds of a law firm's files (NDA, lease, employment, loan, purchase, settlement…);
# the Spanish names are the usual ones of Spanish contract law (Código Civil / Código de Comercio
# usage). No library holds this vocabulary offline.
KIND_ES_EN: dict[str, tuple[str, ...]] = {
    "afiliacion": ("affiliate",), "afiliados": ("affiliate",),
    "agencia": ("agency",), "colaboracion": ("collaboration",), "cobranding": ("co", "branding"),
    "consultoria": ("consulting",), "asesoria": ("consulting", "advisory"), "desarrollo": ("development",),
    "distribucion": ("distributor", "distribution"), "distribuidor": ("distributor",),
    "patrocinio": ("sponsorship",), "endoso": ("endorsement",), "respaldo": ("endorsement",),
    "franquicia": ("franchise",), "concesion": ("franchise", "concession"), "alojamiento": ("hosting",),
    "hospedaje": ("hosting",), "licencia": ("license", "licence"), "mantenimiento": ("maintenance",),
    "fabricacion": ("manufacturing",), "comercializacion": ("marketing",), "mercadotecnia": ("marketing",),
    "externalizacion": ("outsourcing",), "subcontratacion": ("outsourcing",), "promocion": ("promotion",),
    "reventa": ("reseller", "resale"), "revendedor": ("reseller",), "servicios": ("services", "service"),
    "servicio": ("service", "services"), "suministro": ("supply",), "transporte": ("transportation",),
    "confidencialidad": ("confidentiality", "non", "disclosure", "nda"), "arrendamiento": ("lease",),
    "alquiler": ("lease", "rental"), "trabajo": ("employment",), "empleo": ("employment",),
    "laboral": ("employment",), "prestamo": ("loan",), "credito": ("credit", "loan"),
    "compraventa": ("purchase", "sale"), "compra": ("purchase",), "venta": ("sale",),
    "transaccion": ("settlement",), "fusion": ("merger",), "garantia": ("guarantee", "guaranty"),
    "inversion": ("investment",), "accionistas": ("shareholders",), "socios": ("partnership",),
    "investigacion": ("research",),
}
#: Spanish multi-word kinds → the English title's words.
KIND_ES_EN_PHRASES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("empresa", "conjunta"): ("joint", "venture"), ("negocio", "conjunto"): ("joint", "venture"),
    ("no", "competencia"): ("non", "competition", "compete"), ("propiedad", "intelectual"): ("intellectual", "property"),
    ("alianza", "estrategica"): ("strategic", "alliance"), ("no", "divulgacion"): ("non", "disclosure", "nda"),
    ("marca", "compartida"): ("co", "branding"), ("prestacion", "de", "servicios"): ("services", "service"),
}
#: Words that name a kind of document, not a party: inside a capitalised run they are not part of
#: a name ("the Halvorsen NDA", "the Florida Chemical Supply Agreement").
KIND_WORDS = frozenset(w for ws in list(KIND_ES_EN.values()) + list(KIND_ES_EN_PHRASES.values()) for w in ws) | frozenset(
    "nda ndas msa sow loi mou jv lease license licence employment agency".split())


_ENDING = re.compile(r"(?:ing|ed|ee|er|es|s)$")


def word_root(word: str) -> str:
    """``word`` without one inflectional or agent ending (-s, -es, -ed, -ing, -ee, -er): "granted"
    and "grantee" share the root "grant", so one is no misspelling of the other."""
    return _ENDING.sub("", word) if len(word) > 5 else word


#: The usual abbreviations of kinds of contract and their full forms (the words the contract
#: itself writes: "The Joint Venture is a fixed term Joint Venture …" under "the term of the JV").
KIND_ABBREVIATIONS = {"jv": "joint venture", "nda": "non-disclosure agreement",
                      "msa": "master services agreement", "sow": "statement of work",
                      "loi": "letter of intent", "mou": "memorandum of understanding"}
_ABBREVIATION_WORD = re.compile(r"\b(" + "|".join(KIND_ABBREVIATIONS) + r")s?\b", re.I)


def expand_kind_abbreviations(query: str) -> str:
    """``query`` with the full form written after each abbreviation of a kind of contract
    (:data:`KIND_ABBREVIATIONS`: "what's the term JV" → "what's the term JV (joint venture)"),
    unless the query already holds it: the keyword search then meets the words the contract uses
    (tryout Q20, "what's the term of the MJ Syndicated JV")."""
    folded = " ".join(fold_words(query))

    def full(m: re.Match) -> str:
        form = KIND_ABBREVIATIONS[m.group(1).casefold()]
        return m.group(0) if " ".join(fold_words(form)) in folded else f"{m.group(0)} ({form})"

    return _ABBREVIATION_WORD.sub(full, query)
