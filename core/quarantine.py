"""Quarantine at ingestion: text addressed to an AI system, and hidden text in PDFs.

A document that tells "the model" what to do (indirect prompt injection,
OWASP Top 10 for LLM Applications 2025, LLM01) must never reach the model's
context. :func:`screen_document` runs on every newly parsed document; the store
quarantines a flagged document with the first finding as its reason, and the
user can release it (``Workspace.set_status(doc_id, "active")``).

Two detectors:

* **Addressed-to-an-AI text** — the regular expressions in :data:`PATTERNS`
  (English and Spanish), matched on the normalized text
  (:func:`core.normalize.normalize`: NFKC, case folded, whitespace collapsed)
  with look-alike letters of other scripts read as the Latin letters they imitate
  ("іgnore аll" written with Cyrillic і and а; :func:`skeleton`, Unicode's
  confusables through ``confusable_homoglyphs``), and once more on letter-spaced
  runs with their spaces removed ("i g n o r e  a l l  p r e v i o u s …";
  :func:`_letter_spaced`), with the passage reported from the original text.
* **Hidden text in PDFs** — spans read with PyMuPDF ``page.get_text("dict")``
  that a reader cannot see: fill colour near the page background (white),
  font size under :data:`TINY_FONT_PT`, or a bbox outside the page box. Only
  runs of at least :data:`MIN_HIDDEN_CHARS` visible characters per page that
  read as prose count, so stray white dots of layout and printers' marks (codes
  and dates in the margin) are not findings. White text inside
  a filled, darker drawing (a table header) is visible and not counted.

Why hand-written patterns: the maintained detectors on PyPI either need a
model download at run time (llm-guard's PromptInjection scanner loads a
DeBERTa model from the Hugging Face Hub; pytector likewise) or a remote
service (rebuff: OpenAI + Pinecone); the pattern-only packages are recent
single-author releases without a track record. The patterns are data, below,
each with its source, and measured by ``bench/quarantine.py`` on the project's
corpora (false positives) and injection cases (hits).
"""

from __future__ import annotations

import re
import re._constants as _c  # the stdlib's own regex parser: literals a pattern requires (_requirements)
import unicodedata
from re._parser import parse as _sre_parse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.normalize import _DASHES, _DROP, _QUOTES, MARKS, _dropped_spans, normalize, to_original_span

DETECTOR_PREFIX = "detector: "
"""Every reason written by the detector starts with this (the store uses it to
lift a quarantine when the flagged content is gone)."""

TINY_FONT_PT = 1.0
"""Spans smaller than this (PDF points) are unreadable; typical body text is 8–12 pt."""

NEAR_WHITE = 0.92
"""Each of R, G, B at or above this (0–1) counts as the page's white background."""

MIN_HIDDEN_CHARS = 12
"""Non-space characters of hidden spans on one page before it is a finding."""

MIN_PROSE_WORDS = 5
MIN_PROSE_RATIO = 0.6
"""Hidden text counts only when it reads as prose (see :func:`_is_prose`)."""

PASSAGE_CHARS = 160
"""Longest passage kept as the reason, characters."""


@dataclass(frozen=True)
class Pattern:
    """One phrase family addressed to an AI system."""

    id: str
    lang: str  # "en" | "es" | "fr" | "de" | "any"
    regex: str
    source: str


# Sources:
#   OWASP   = OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection (example scenarios:
#             "ignore previous instructions", system-prompt extraction, role play, hidden
#             instructions in documents for RAG).
#   GRESHAKE = Greshake et al., "Not what you've signed up for: Compromising Real-World
#             LLM-Integrated Applications with Indirect Prompt Injection", AISec 2023
#             (instructions planted in retrieved documents, "new instructions", mode switches).
#   CHATML  = chat templates' role markers (OpenAI ChatML, Llama 2 [INST]/<<SYS>>, Llama 3
#             header ids, Gemma turn markers) that make text look like a system turn.
#   LAB     = the lab's hostile note (../shared/eval/lab/corpus/norte/nota-proveedor-externo.md).
# Patterns are matched on normalized text: lower case, single spaces, typographic quotes folded.
_ANY = r"(?:all|any|every|the|your|my|these|those|of the|prior|previous)?\s*"
PATTERNS: tuple[Pattern, ...] = (
    # --- English --------------------------------------------------------------
    Pattern("ignore-instructions", "en",
            r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
            r"(?:previous|prior|above|earlier|preceding|former|original|initial|system|other)\s+"
            r"(?:instructions?|prompts?|directions?|directives?|rules|guidelines|messages?|context|documents?)",
            "OWASP, LAB"),
    Pattern("ignore-documents", "en",
            r"\b(?:ignore|disregard)\s+(?:all\s+)?(?:the\s+)?(?:documents?|context|sources?|chunks?)\s+(?:above|provided|given|and\b)",
            "GRESHAKE, LAB"),
    Pattern("new-instructions", "en",
            r"\b(?:new|updated|real|actual|secret|hidden)\s+instructions?\s*(?:for|to)\s+(?:the\s+|you,?\s+)?"
            r"(?:ai|assistant|model|llm|chatbot|language model)\b",
            "GRESHAKE"),
    Pattern("addressed-to-ai", "en",
            r"\b(?:note|message|instructions?|attention)\s+(?:to|for)\s+(?:the\s+|any\s+)?"
            r"(?:ai|a\.i\.|assistant|llm|language model|chatbot|ai model|ai assistant)s?\b",
            "GRESHAKE"),
    Pattern("reveal-secrets", "en",
            r"\b(?:reveal|print|show|output|repeat|display|leak|disclose|tell me)\s+(?:me\s+)?(?:the\s+|your\s+)?"
            r"(?:full\s+|entire\s+|hidden\s+|initial\s+)?(?:system\s+prompt|prompt|instructions|"
            r"(?:administrator|admin|root)?\s*passwords?|api\s+keys?|secrets?|credentials)\b",
            "OWASP, LAB"),
    Pattern("system-prompt", "en", r"\bsystem\s+prompt\b", "OWASP"),
    Pattern("role-switch", "en",
            r"\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+|the\s+)?(?:\w+\s+)?"
            r"(?:mode|assistant|ai|chatbot|model|system|administrator|dan)\b",
            "OWASP, GRESHAKE, LAB"),
    Pattern("act-as-system", "en",
            r"\b(?:act|behave|respond|pretend|role-?play)\s+(?:as|like)\s+(?:the\s+|a\s+|an\s+)?"
            r"(?:system|administrator|developer|unrestricted|jailbroken)\b",
            "OWASP"),
    Pattern("as-an-ai", "en", r"\bas\s+an?\s+(?:ai|large language model|language model|ai language model)\b", "OWASP"),
    Pattern("mode-switch", "en", r"\b(?:developer|maintenance|god|jailbreak|dan)\s+mode\b", "GRESHAKE, LAB"),
    # --- Spanish --------------------------------------------------------------
    Pattern("ignora-instrucciones", "es",
            r"\b(?:ignora|ignore|ignorad|ignoren|olvida|olvide|olvidad|omite|omita|descarta|descarte|desobedece)\s+"
            r"(?:todas\s+|todo\s+|cualquier\s+)?(?:las\s+|los\s+|tus\s+|sus\s+|lo\s+)?"
            r"(?:instrucciones|indicaciones|[óo]rdenes|reglas|documentos|directrices|mensajes)"
            r"(?:\s+(?:anteriores|previas|previos|de\s+arriba|del\s+sistema|originales|iniciales))?",
            "OWASP (translated), LAB"),
    Pattern("nuevas-instrucciones", "es",
            r"\b(?:nuevas|verdaderas|aut[ée]nticas)\s+instrucciones\s+(?:para|al|a\s+la)\s+"
            r"(?:el\s+|la\s+)?(?:ia|asistente|modelo|chatbot|inteligencia artificial)\b",
            "GRESHAKE (translated)"),
    Pattern("dirigido-a-ia", "es",
            r"\b(?:nota|mensaje|instrucciones?|atenci[óo]n)\s+(?:para|a)\s+(?:el\s+|la\s+|los\s+|las\s+|al\s+)?"
            r"(?:ia|asistente|modelo de lenguaje|chatbot|inteligencia artificial)\b",
            "GRESHAKE (translated)"),
    Pattern("revela-secretos", "es",
            r"\b(?:revela|revele|muestra|muestre|dime|d[ií]game|imprime|imprima|repite|repita|filtra)\s+"
            r"(?:me\s+)?(?:el\s+|la\s+|las\s+|los\s+|tu\s+|tus\s+|su\s+|sus\s+)?"
            r"(?:prompt|instrucciones\s+del\s+sistema|contrase[ñn]as?|claves?\s+de\s+api|secretos|credenciales)\b",
            "OWASP (translated)"),
    Pattern("prompt-del-sistema", "es",
            r"\b(?:prompt|indicaciones|mensaje|instrucciones)\s+(?:de\s+|del\s+)sistema\b(?!\s+(?:operativo|de\s+gesti))",
            "OWASP (translated)"),
    Pattern("cambio-de-rol", "es",
            r"\b(?:ahora\s+eres|eres\s+ahora|a\s+partir\s+de\s+ahora\s+eres|act[úu]a\s+como|finge\s+ser)\s+"
            r"(?:un\s+|una\s+|el\s+|la\s+)?(?:asistente|ia|modelo|sistema|administrador|chatbot)\b",
            "OWASP (translated)"),
    Pattern("modo-especial", "es",
            r"\b(?:est[áa]s|entras?|pasas?)\s+(?:ahora\s+)?(?:en|a)\s+modo\s+(?:desarrollador|mantenimiento|administrador|dios|dan)\b",
            "GRESHAKE (translated)"),
    Pattern("como-ia", "es", r"\bcomo\s+(?:un\s+|una\s+)?(?:modelo\s+de\s+lenguaje|ia\s+de\s+lenguaje|asistente\s+de\s+ia)\b",
            "OWASP (translated)"),
    Pattern("responde-siempre", "es",
            r"\b(?:responde|responda|contesta|conteste|di|diga)\s+siempre\s+que\b", "LAB"),
    # --- conditional or direct address to the model (tester, session 3) ----------
    Pattern("if-you-are-ai", "en",
            r"\bif\s+you\s+are\s+an?\s+(?:ai|a\.i\.|artificial intelligence|large language model|language model|"
            r"llm|chatbot|ai model|ai assistant|assistant)\b", "OWASP, GRESHAKE"),
    Pattern("to-the-model", "en",
            r"\bto\s+(?:the|any)\s+(?:ai|model|assistant|llm|chatbot|language model|ai model|ai assistant)\s+"
            r"(?:answering|reading|summari[sz]ing|processing|that\s+reads|who\s+reads)\b", "OWASP, GRESHAKE"),
    Pattern("instructions-void", "en",
            r"\b(?:the\s+)?(?:instructions|rules|directions)\s+above\s+are\s+(?:now\s+)?"
            r"(?:void|cancel+ed|invalid|obsolete|revoked)\b", "OWASP"),
    Pattern("si-eres-ia", "es",
            r"\bsi\s+(?:eres|es\s+usted)\s+(?:un\s+|una\s+)?(?:ia|asistente|modelo|inteligencia artificial|chatbot)\b",
            "OWASP, GRESHAKE"),
    # --- the same first move in French and German (documents arrive in any language) --
    Pattern("ignorez-instructions", "fr",
            r"\bignor(?:ez|e|er)\s+(?:toutes\s+)?(?:les\s+|vos\s+)?(?:instructions|consignes|r[èe]gles)\s+"
            r"(?:pr[ée]c[ée]dentes|ant[ée]rieures|ci-dessus)", "OWASP"),
    Pattern("ignoriere-anweisungen", "de",
            r"\bignorier(?:e|en|t)?\s+(?:alle\s+)?(?:die\s+)?(?:vorherigen|bisherigen|obigen|vorigen)\s+"
            r"(?:anweisungen|instruktionen|befehle|regeln)", "OWASP"),
    # --- chat-template markup (any language) -----------------------------------
    Pattern("chat-markup", "any",
            r"<\|(?:im_start|im_end|system|user|assistant|start_header_id|end_header_id|eot_id)\|>"
            r"|<<\s*sys\s*>>|\[/?inst\]|<start_of_turn>|<\s*/?\s*system\s*>|#{2,}\s*system\s*:",
            "CHATML"),
)



def _literal_prefix(items) -> str:
    out = []
    for op, av in items:
        if op is not _c.LITERAL:
            break
        out.append(chr(av))
    return "".join(out)


def _requirements(items) -> list[frozenset[str]]:
    """Literal strings a match must contain: every returned set has one of its strings in any match.

    Derived from the parsed pattern (mandatory literal runs, alternations whose
    every branch starts with a literal, mandatory groups and repeats), so the
    screen can skip a pattern on a page without running it — never a different
    result, only less work (tests/core/test_quarantine.py checks generated matches).
    """
    out: list[frozenset[str]] = []
    run = ""
    for op, av in items:
        if op is _c.LITERAL:
            run += chr(av)
            continue
        if len(run) >= 2:
            out.append(frozenset([run]))
        run = ""
        if op is _c.SUBPATTERN:
            out += _requirements(av[3])
        elif op is _c.BRANCH:
            prefixes = [_literal_prefix(alt) for alt in av[1]]
            if all(len(x) >= 2 for x in prefixes):
                out.append(frozenset(prefixes))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1:
            out += _requirements(av[2])
    if len(run) >= 2:
        out.append(frozenset([run]))
    return out


def _is_spaces(op, av) -> bool:
    """``\\s+``: in normalized text (every whitespace run one space) it matches exactly one ``" "``."""
    return (op is _c.MAX_REPEAT and av[0] == 1 and len(av[2]) == 1 and av[2][0][0] is _c.IN
            and list(av[2][0][1]) == [(_c.CATEGORY, _c.CATEGORY_SPACE)])


def _literal_runs(items) -> set[str]:
    """The literal texts ``items`` can start with: literals, ``\\s+`` as one space, and small
    character classes of literals (``[ií]``) as one string per letter."""
    runs = {""}
    for op, av in items:
        if op is _c.LITERAL:
            runs = {r + chr(av) for r in runs}
        elif _is_spaces(op, av):
            runs = {r + " " for r in runs}
        elif op is _c.IN and all(o is _c.LITERAL for o, _ in av) and len(av) <= 3:
            runs = {r + chr(v) for r in runs for _, v in av}
        else:
            break
    return runs


def _first_literals(items, rest=()) -> frozenset[str] | None:
    """Literal strings one of which every match of ``items`` (then ``rest``) starts with, in
    normalized text (whitespace runs are one space), or ``None``.

    Zero-width assertions (``\\b``, ``^``) are stepped over; a group, an alternation whose
    branches each start with a literal, an optional part (followed by what comes after it)
    and a repeat's first item are looked into. ``None`` when some match may start otherwise
    (a wide character class, flags…): the pattern is then searched whole.
    """
    items = list(items) + list(rest)
    for i, (op, av) in enumerate(items):
        if op is _c.AT:
            continue
        if op is _c.LITERAL or (op is _c.IN and _literal_runs(items[i:i + 1]) != {""}):
            return frozenset(_literal_runs(items[i:]))
        if op is _c.SUBPATTERN:
            if av[1] or av[2]:  # inline flags: (?i:…) and the like
                return None
            return _first_literals(av[3], items[i + 1:])
        if op is _c.BRANCH:
            out: set[str] = set()
            for alt in av[1]:
                firsts = _first_literals(alt, items[i + 1:])
                if firsts is None:
                    return None
                out |= firsts
            return frozenset(out)
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and av[0] == 0 and av[1] == 1:  # optional: X? then rest
            inner = _first_literals(av[2], items[i + 1:])
            after = _first_literals(items[i + 1:])
            return None if inner is None or after is None else inner | after
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and av[0] >= 1 and not _is_spaces(op, av):
            return _first_literals(av[2])  # what the first repetition starts with
        return None
    return None


def _anchored_search(rx: re.Pattern, text: str, firsts: frozenset[str]) -> re.Match | None:
    """``rx.search(text)``, trying ``rx.match`` only where one of ``firsts`` occurs.

    Why by hand: every pattern begins with ``\\b`` and an alternation, which Python's ``re``
    cannot scan for quickly (4 ms per pattern on a 100 KB contract, 0.4 ms per chunk of
    indexing, issue #15); ``str.find`` finds the few places a match can start. Every match
    starts with one of ``firsts`` (:func:`_first_literals`), so the first place, in text
    order, where ``rx.match`` succeeds is where ``rx.search`` would have found it — and
    ``rx.match`` there gives the same match. ``pos`` keeps ``\\b`` seeing the character
    before it (re docs, ``Pattern.search``).
    """
    starts: set[int] = set()
    for lit in firsts:
        at = text.find(lit)
        while at >= 0:
            starts.add(at)
            at = text.find(lit, at + 1)
    for at in sorted(starts):
        m = rx.match(text, at)
        if m is not None:
            return m
    return None


_COMPILED = tuple((p, re.compile(p.regex)) for p in PATTERNS)
_REQUIRED = tuple(tuple(_requirements(_sre_parse(p.regex).data)) for p in PATTERNS)
# A start of one letter or digit occurs everywhere: such a pattern is searched whole.
_FIRSTS = tuple(None if f is None or any(len(x) < 2 and x.isalnum() for x in f) else f
                for f in (_first_literals(_sre_parse(p.regex).data) for p in PATTERNS))
# The same patterns for text whose spaces were removed (letter-spaced runs): whitespace and
# word boundaries dropped from the expressions.
_SPACELESS = tuple(
    (p, re.compile(re.sub(r"\\s[+*?]?|\\b| ", "", p.regex))) for p in PATTERNS
)


@lru_cache(maxsize=1)
def _confusables() -> dict[int, str]:
    """Characters of other scripts that look like a Latin letter → that letter (lower case).

    From Unicode's confusables data (TR39, ``confusables.txt``) as packaged by
    ``confusable_homoglyphs``: every non-Latin letter whose confusable is one ASCII letter
    (Cyrillic а е і о р с у х ѕ ј ԁ ԛ ԝ, Greek ο ν α ι κ …).
    """
    from confusable_homoglyphs import categories, confusables

    table: dict[int, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or not char.isalpha() or categories.alias(char) in ("LATIN", "COMMON"):
            continue
        latin = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalpha()]
        if latin:
            table[ord(char)] = latin[0].lower()
    return table


def skeleton(norm: str) -> str:
    """``norm`` with look-alike letters of other scripts replaced by the Latin letter they imitate.

    One character for one, so offsets into ``norm`` stay valid. Text without such letters is
    returned unchanged; a Greek or Russian text becomes Latin-looking garbage, which no
    pattern matches.
    """
    return norm.translate(_confusables())


# Four or more single letters each followed by one space or separator: "i g n o r e", "i.g.n.o.r.e".
_SPACED_RUN = re.compile(r"(?<!\w)(?:\w[ .\-_*·]){3,}\w(?!\w)")


def _letter_spaced(norm: str) -> list[tuple[int, int, str]]:
    """Letter-spaced runs of ``norm``: ``(start, end, letters without separators)``.

    Neighbouring runs (the words of a letter-spaced sentence) are one run: normalization
    already collapsed the wider gaps between words to one space.
    """
    return [(m.start(), m.end(), re.sub(r"[ .\-_*·]", "", m[0])) for m in _SPACED_RUN.finditer(norm)]


@dataclass(frozen=True)
class Finding:
    """One reason to quarantine.

    Attributes:
        kind: ``"addressed-to-ai"`` or ``"hidden-text"``.
        rule: the :class:`Pattern` id, or the hidden-text rule (``white-text``,
            ``tiny-font``, ``off-page``).
        page: 1-based page.
        passage: the matched text, from the original (not normalized) text,
            at most :data:`PASSAGE_CHARS` characters.
    """

    kind: str
    rule: str
    page: int
    passage: str

    def reason(self) -> str:
        """The status reason stored for the document."""
        what = "text addressed to an AI system" if self.kind == "addressed-to-ai" else f"hidden text ({self.rule})"
        return f'{DETECTOR_PREFIX}{what}, page {self.page}: "{self.passage}"'


def _passage(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``, trimmed to :data:`PASSAGE_CHARS`."""
    left = max(text.rfind(".", 0, start), text.rfind("\n", 0, start)) + 1
    right_candidates = [i for i in (text.find(".", end), text.find("\n", end)) if i >= 0]
    right = min(right_candidates) + 1 if right_candidates else len(text)
    if right - left > PASSAGE_CHARS:
        left = max(left, start - 40)
        right = min(right, left + PASSAGE_CHARS)
    return " ".join(text[left:right].split())


def scan_text(text: str, page: int = 1) -> list[Finding]:
    """Findings of :data:`PATTERNS` in ``text`` (one per pattern, first match), in text order.

    Args:
        text: page text as extracted.
        page: 1-based page number to report.
    """
    norm, origin = fast_normalized(text), None
    if norm is None:
        norm, origin = normalize(text)
    if not norm.isascii():
        norm = skeleton(norm)  # one character for one: offsets stay valid
    runs = _letter_spaced(norm)
    found: list[tuple[int, Finding]] = []
    for (pattern, rx), required, firsts, (_, spaceless) in zip(_COMPILED, _REQUIRED, _FIRSTS, _SPACELESS):
        span = None
        # a literal every match contains is absent: no match (most pages, most patterns)
        if all(any(lit in norm for lit in options) for options in required):
            m = rx.search(norm) if firsts is None else _anchored_search(rx, norm, firsts)
            if m is not None:
                span = m.start(), m.end()
        if span is None:
            span = next(((a, b) for a, b, letters in runs if spaceless.search(letters)), None)
            if span is None:
                continue
        if origin is None:
            origin = normalize(text)[1]  # the offset map, only for a page with a finding
        start, end = to_original_span(origin, text, *span)
        found.append((start, Finding("addressed-to-ai", pattern.id, page, _passage(text, start, end))))
    return [f for _, f in sorted(found, key=lambda sf: sf[0])]



# --- fast path: the normalized text without the offset map ---------------------------------
#
# Screening runs on every page of every indexed document; normalize() builds its offset map in
# a Python loop (2.5 µs a character: 298 s of a 119k-chunk index, issue #15). The patterns only
# need the normalized *string*, so it is built here with C-level str operations (translate,
# one whitespace collapse), and the offset map only for a page with a match. Exactly
# normalize()'s string, or None where that is not guaranteed (combining marks, or a character
# whose NFKC form holds a space): those pages take normalize() itself.
# (tests/core/test_quarantine.py holds the equality on generated texts.)

_PIECES: dict[int, str | None] = {}
_SPACES = re.compile(r" {2,}")


def _piece(ch: str) -> str | None:
    """What normalize() emits for ``ch`` outside whitespace runs ("" dropped, None: no fast path)."""
    if ch in _DROP:
        return ""
    if ch.isspace():
        return " "
    if unicodedata.combining(ch) or ch in MARKS:  # a mark after a digit is spaced by normalize()
        return None
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch in _DASHES:
        return "-"
    piece = "".join(_QUOTES.get(c, _DASHES.get(c, c)) for c in unicodedata.normalize("NFKC", ch).casefold())
    return None if not piece or any(c.isspace() for c in piece) else piece


def fast_normalized(text: str) -> str | None:
    """``normalize(text)[0]`` computed without the offset map, or ``None`` when only normalize() can say."""
    spans = _dropped_spans(text)
    if spans:  # the same span skipping as normalize()'s loop
        parts, i, si, n = [], 0, 0, len(text)
        while i < n:
            if si < len(spans) and i >= spans[si][0]:
                end = spans[si][1]
                si += 1
                if i < end:
                    i = end
                    continue
                parts.append(text[i])
                i += 1
                continue
            nxt = spans[si][0] if si < len(spans) else n
            parts.append(text[i:nxt])
            i = nxt
        text = "".join(parts)
    table = _PIECES
    for ch in set(text):
        code = ord(ch)
        if code not in table:
            table[code] = _piece(ch)
        if table[code] is None:
            return None
    return _SPACES.sub(" ", text.translate(table)).strip(" ")

_WORD = re.compile(r"^[^\W\d_]+[.,;:!?]?$")


def _is_prose(text: str) -> bool:
    """True when ``text`` reads as sentences: at least :data:`MIN_PROSE_WORDS` words, most of them
    plain words (letters only, lower case or capitalized).

    Printers' marks hidden in margins are codes, not prose: the US Government
    Publishing Office's white slug line ("VerDate Sep<11>2014 16:21 Aug 05, 2020
    Jkt 250001 PO 00000 Frm 00001 ...", Federal Register PDFs) scores 0.36 here.
    Own heuristic, measured on ../shared/eval/corpora (bench/quarantine.py).
    """
    words = text.split()
    if len(words) < MIN_PROSE_WORDS:
        return False
    plain = sum(1 for w in words if _WORD.match(w) and (w.islower() or w[0].isupper() and w[1:].islower() or len(w) == 1))
    return plain / len(words) >= MIN_PROSE_RATIO


def _near_white(color: int) -> bool:
    r, g, b = (color >> 16) & 255, (color >> 8) & 255, color & 255
    return min(r, g, b) >= NEAR_WHITE * 255


def _dark_fills(page) -> list:
    """Rectangles of filled drawings darker than the background (white text on them is visible)."""
    import pymupdf

    rects = []
    for d in page.get_drawings():
        fill = d.get("fill")
        if fill and min(fill) < NEAR_WHITE:
            rects.append(pymupdf.Rect(d["rect"]))
    return rects


def scan_pdf_hidden_text(path: str | Path) -> list[Finding]:
    """Hidden-text findings of a PDF, at most one per page and rule.

    Reads spans with PyMuPDF ``page.get_text("dict")`` (``size`` in points,
    ``color`` as sRGB int, ``bbox`` in PDF points). A damaged file yields no
    findings here (ingestion reports it).
    """
    import pymupdf

    from core.ingest import open_pdf_document

    findings: list[Finding] = []
    try:
        doc = open_pdf_document(path)  # a file, or a PDF attached to an e-mail (member path)
    except Exception:  # noqa: BLE001 - parse_file already reported unreadable files
        return []
    with doc:
        for page in doc:
            page_rect = page.rect
            hidden: dict[str, list[str]] = {}
            fills = None
            # Without the media-box clip, so text placed outside the page is seen.
            flags = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_MEDIABOX_CLIP
            for block in page.get_text("dict", flags=flags, clip=pymupdf.INFINITE_RECT()).get("blocks", []):
                for line in block.get("lines", []):
                    for span in line.get("spans", []):
                        text = span.get("text", "")
                        if not text.strip():
                            continue
                        bbox = pymupdf.Rect(span["bbox"])
                        rule = None
                        if span.get("size", 10.0) < TINY_FONT_PT:
                            rule = "tiny-font"
                        elif not bbox.intersects(page_rect):
                            rule = "off-page"
                        elif _near_white(span.get("color", 0)):
                            if fills is None:
                                fills = _dark_fills(page)
                            if not any(r.contains(bbox) or r.intersects(bbox) and (r & bbox).get_area() > 0.5 * bbox.get_area()
                                       for r in fills):
                                rule = "white-text"
                        if rule:
                            hidden.setdefault(rule, []).append(text)
            for rule, texts in hidden.items():
                joined = " ".join(" ".join(texts).split())
                if sum(not c.isspace() for c in joined) >= MIN_HIDDEN_CHARS and _is_prose(joined):
                    findings.append(Finding("hidden-text", rule, page.number + 1, joined[:PASSAGE_CHARS]))
    return findings


def screen_document(parsed) -> list[Finding]:
    """Every finding for a parsed document (``core.ingest.ParsedDocument``), pages in order.

    Addressed-to-an-AI findings come first (they name the instruction), then
    hidden-text findings for PDFs. An empty list means the document may be active.
    """
    findings: list[Finding] = []
    for page in parsed.pages:
        findings.extend(scan_text(page.text, page.page))
    if parsed.kind == "pdf":
        findings.extend(scan_pdf_hidden_text(parsed.path))
    return findings
