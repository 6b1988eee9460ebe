"""Quote verification: the funnel that decides whether a citation may be shown.

Cheapest check first (DESIGN.md step 6):

1. structural — the cited ``chunk_id`` is one of the chunks delivered to the
   model in this prompt (``unknown_chunk``);
2. length — the normalized quote has at least ``min_quote_chars`` characters,
   of which at least ``_MIN_ALNUM`` letters or digits (``quote_too_short``);
3. literal — the quote occurs in the cited chunk: exact substring, else a
   substring after :func:`core.normalize.normalize`, else a fuzzy alignment
   (located by rapidfuzz ``partial_ratio_alignment``, judged by ``fuzz.ratio``
   over the same number of whole words, same digits) at or above
   ``fuzzy_threshold`` (default 92, the starting point issue #4 gives), and
   word by word: the i-th word of the quote against the i-th word of the span,
   equal up to diacritics, inner punctuation and a plural ending, plus — in
   OCR chunks only — one misread letter (:data:`OCR_WORD_EDITS`);
   a quote that fails in the cited chunk but passes in another delivered
   chunk is ``wrong_chunk``, otherwise ``quote_not_found``;
4. facts — every number, percentage, amount, duration, date and identifier
   of the claim appears in at least one of its verified quotes
   (:mod:`core.facts`); otherwise the whole claim is removed with reason
   ``fact_not_in_quote`` (the missing facts in ``detail``). Removal rather than
   a flag, because a sentence shown to the user must be supported by its
   quotes: "within 60 days" citing "within thirty (30) days" is a verified
   quote under a false sentence. With it, a claim that states its quotes with an
   opposite word or swapped roles ("decrease" / "increase", "Buyer shall pay" /
   "Seller shall pay", :mod:`core.relations`) is removed with ``polarity_mismatch``.
5. polarity — the claim does not negate what its quotes state, nor the reverse
   (:func:`core.polarity.check_polarity`: "The deposit is not refundable" citing
   "The deposit is refundable"); otherwise the claim is removed with reason
   ``polarity_mismatch``. Runs without a judge model; its blind spots are listed in
   :mod:`core.polarity`. Where it cannot tell a paraphrase from a flip (its ``unsure``
   outcome, defined there), the claim is shown with a visible warning
   (``Claim.warning``, reason ``polarity_unsure``) instead of being removed or shown silently.

For every accepted citation the span shown to the user is the *source's* text at
the matched offsets, never the model's copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from core.clause_heads import quote_location
from core.dates import date_order, has_numeric_date
from core.facts import check_facts as _check_facts
from core.labels import label_kind
from core.polarity import check_polarity as polarity_verdict
from core.relations import check_relations
from core.normalize import MARKS, normalize, normalized, to_original_span
from core.types import (
    Chunk,
    Citation,
    Claim,
    ClaimWarning,
    MatchKind,
    ModelAnswer,
    PageSpan,
    Rect,
    Rejected,
    RejectReason,
    SupportVerdict,
    WarningReason,
)


_DIGITS = re.compile(r"\d+")
_WORD_RUN = re.compile(r"\S+")
_EDGE_PUNCT = ".,;:!?¡¿\"'()[]{}«»"

OCR_WORD_EDITS = 1
"""Largest Levenshtein distance tolerated between a quote word and its source word, and
only in OCR chunks (source text with recognition errors), for words of five letters or
more without digits, and only when the quote's spelling is not itself a word of the
chunk (then it is another word, not a misread one).

Why so strict (issue #4, tester report of session 3): character similarity cannot tell a
typo from another word. At the former per-word cutoff (rapidfuzz ``ratio`` >= 75)
"Licensor"/"Licensee" (75), "enforceable"/"unenforceable" (92), "increases"/"decreases"
(89) and "ART-12.3(b)"/"ART-12.3(c)" were accepted as the same word: a swapped party or a
flipped meaning shown as a checked quote. Born-digital text is exact, so a model that
misspells a word there fails honestly; only OCR text gets the one-edit tolerance."""

_MIN_ALNUM = 10
"""A quote needs this many letters or digits (besides ``min_quote_chars`` characters):
a run of dots or underscores (table-of-contents leaders, form blanks) is not evidence."""


@lru_cache(maxsize=512)
def _normalized_chunk(text: str) -> tuple[str, list[int]]:
    """:func:`normalize` of a chunk, cached: one chunk is searched for many citations
    (and for every citation of another chunk when checking ``wrong_chunk``)."""
    return normalize(text)


def _plain(word: str) -> str:
    """``word`` without diacritics and without non-alphanumerics ("gestión" → "gestion",
    "non-refundable" → "nonrefundable", "Supplier’s" → "suppliers")."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if c.isalnum())


def _same_words(quote: str, span: str, *, ocr: bool = False, chunk_words: frozenset[str] = frozenset()) -> bool:
    """True if ``quote`` and ``span`` (both normalized) have the same words in order.

    Words are the same when equal up to diacritics and punctuation inside them, or
    when one is the other plus a plural ``s``/``es`` ("day"/"days"). In OCR chunks
    (``ocr``), a word of five letters or more without digits may also differ by
    :data:`OCR_WORD_EDITS` edit if the quote's spelling is not in ``chunk_words``.
    """
    q_words = [w.strip(_EDGE_PUNCT) for w in quote.split()]
    s_words = [w.strip(_EDGE_PUNCT) for w in span.split()]
    if len(q_words) != len(s_words):
        return False
    last = len(q_words) - 1
    for i, (q, s) in enumerate(zip(q_words, s_words)):
        if q == s:
            continue
        # a quote may start or end inside a word: its first word is then the end of the
        # source's word, its last word the beginning of one
        if (i == 0 and q and s.endswith(q)) or (i == last and q and s.startswith(q)):
            continue
        pq, ps = _plain(q), _plain(s)
        if pq == ps:
            continue
        short, long_ = sorted((pq, ps), key=len)
        if short and long_ in (short + "s", short + "es") and not any(c.isdigit() for c in long_):
            continue
        if (ocr and len(short) >= 5 and not any(c.isdigit() for c in long_) and pq not in chunk_words
                and Levenshtein.distance(pq, ps) <= OCR_WORD_EDITS):
            continue
        return False
    return True


# Scripts written without spaces between words: a quote may start or end inside a run of them.
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
# Characters that join two alphanumeric runs into one token: "1.5", "1,000", "PO-2024", "l'acte".
_JOINERS = ".,-'’‐‑"


def _cuts_token(text: str, start: int, end: int) -> bool:
    """True if ``text[start:end]`` begins or ends inside a word, number or identifier of ``text``.

    "5 business days" inside "15 business days", "0 days" inside "60 days", "1" inside
    "1.5", "2024-0017" inside "PO-2024-0017": each is literally in the source, and each
    states something the source does not. A quote must start and end on token
    boundaries (except between characters of scripts written without spaces). A
    superscript or subscript marker is a token of its own: "EUR 320" ends before "¹".
    """
    def joined(inside: str, outside: str, beyond: str) -> bool:
        if not inside.isalnum() or _UNSPACED.match(inside) or _UNSPACED.match(outside or " "):
            return False
        if (inside in MARKS) != (outside in MARKS):
            return False  # a footnote marker is not part of the word or number it follows: "EUR 320¹"
        if outside.isalnum():
            return True
        return outside in _JOINERS and beyond.isalnum() if outside else False

    before = text[start - 1] if start > 0 else ""
    before2 = text[start - 2] if start > 1 else ""
    after = text[end] if end < len(text) else ""
    after2 = text[end + 1] if end + 1 < len(text) else ""
    return (start < end and joined(text[start], before, before2)) or (start < end and joined(text[end - 1], after, after2))


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote was found: ``[start, end)`` in the searched text, characters."""

    kind: MatchKind
    start: int
    end: int
    score: float


def match_quote(quote: str, text: str, *, fuzzy_threshold: float = 92.0, ocr: bool = False) -> QuoteMatch | None:
    """Find ``quote`` in ``text``: exact, else normalized, else fuzzy.

    Args:
        quote: the model's quote.
        text: the chunk text to search (offsets returned are into this string).
        fuzzy_threshold: minimum rapidfuzz ``fuzz.ratio`` (Indel similarity,
            0–100) between the normalized quote and a run of the same number of
            whole words of the normalized text, located with
            ``partial_ratio_alignment``; the run must also carry the same digits
            and the same words (:func:`_same_words`).
        ocr: ``text`` comes from OCR: tolerate :data:`OCR_WORD_EDITS` misread letter per word.

    Every kind of match must start and end on token boundaries of ``text``
    (:func:`_cuts_token`): the first occurrence that does is returned.

    Returns:
        The match, or ``None`` when the quote is not in ``text``.
    """
    if not quote.strip():
        return None
    pos = text.find(quote)
    while pos >= 0:
        if not _cuts_token(text, pos, pos + len(quote)):
            return QuoteMatch(MatchKind.exact, pos, pos + len(quote), 100.0)
        pos = text.find(quote, pos + 1)
    norm_text, origin = _normalized_chunk(text)
    norm_quote = normalized(quote)
    if not norm_quote or not norm_text:
        return None
    pos = norm_text.find(norm_quote)
    found_cut = False
    while pos >= 0:
        start, end = to_original_span(origin, text, pos, pos + len(norm_quote))
        if not _cuts_token(text, start, end):
            return QuoteMatch(MatchKind.normalized, start, end, 100.0)
        found_cut = True
        pos = norm_text.find(norm_quote, pos + 1)
    if found_cut:
        return None  # literally there, but only as part of a longer token: never "nearly" there
    if len(norm_quote) > len(norm_text):
        return None
    alignment = fuzz.partial_ratio_alignment(norm_quote, norm_text, score_cutoff=fuzzy_threshold)
    if alignment is None or alignment.score < fuzzy_threshold:
        return None
    # The alignment only locates the quote. The span judged and shown is a run
    # of whole words of the chunk with exactly as many words as the quote, so
    # fuzzy matching tolerates typos inside words (OCR, a dropped letter) but
    # never an inserted or deleted word: "sufragio activo en" must not verify
    # against "sufragio activo y pasivo en" (an amended article, 96 % similar).
    words = [(m.start(), m.end()) for m in _WORD_RUN.finditer(norm_text)]
    n = len(norm_quote.split())
    if n == 0 or len(words) < n:
        return None
    first = next((i for i, (ws, we) in enumerate(words) if we > alignment.dest_start), len(words) - 1)
    best: tuple[float, int, int] | None = None
    for i in range(max(0, first - 1), min(len(words) - n, first + 1) + 1):
        d_start, d_end = words[i][0], words[i + n - 1][1]
        score = fuzz.ratio(norm_quote, norm_text[d_start:d_end])
        if best is None or score > best[0]:
            best = (score, d_start, d_end)
    if best is None or best[0] < fuzzy_threshold:
        return None
    score, d_start, d_end = best
    chunk_words = frozenset(_plain(w) for w in norm_text.split()) if ocr else frozenset()
    if not _same_words(norm_quote, norm_text[d_start:d_end], ocr=ocr, chunk_words=chunk_words):
        return None
    # Fuzzy matching tolerates typos in words, never in numbers: "Finding 3 ... R3"
    # must not match "Finding 1 ... R1" although they differ by two characters.
    # (Digit sequences are compared joined, so "01-2301" written with soft hyphens,
    # which normalization drops, still equals the typed "01-2301".)
    if "".join(_DIGITS.findall(norm_quote)) != "".join(_DIGITS.findall(norm_text[d_start:d_end])):
        return None
    start, end = to_original_span(origin, text, d_start, d_end)
    if _cuts_token(text, start, end):
        return None
    return QuoteMatch(MatchKind.fuzzy, start, end, float(score))


RectsFn = Callable[[Chunk, int, int], list[Rect]]
"""``rects(chunk, page_start, page_end)`` → rectangles (PDF points) of a span of the text of page
``chunk.page``; for the other pages of a quote across a page break it is called with a copy of
the chunk whose ``page`` is that page."""


def verify_claims(
    answer: ModelAnswer,
    delivered: Mapping[str, Chunk],
    *,
    min_quote_chars: int = 15,
    fuzzy_threshold: float = 92.0,
    rects: RectsFn | None = None,
    check_facts: bool = True,
    claim_lang: str | None = None,
    check_polarity: bool = True,
    date_orders: Mapping[str, str] | None = None,
) -> tuple[list[Claim], list[Rejected]]:
    """Run the funnel over every citation of every claim.

    Args:
        answer: the validated model output.
        delivered: the chunks given to the model in this prompt, by chunk id.
        min_quote_chars: shortest acceptable normalized quote, characters.
        fuzzy_threshold: see :func:`match_quote`.
        rects: maps a verified span to page rectangles; ``None`` leaves them empty.
        check_facts: run the facts check (step 4 above).
        claim_lang: language of the claims' number words (``"en"``/``"es"``);
            ``None`` detects it per claim.
        check_polarity: run the polarity check (step 5 above).
        date_orders: numeric-date convention (``"dmy"``/``"mdy"``/``""``) by ``doc_id``, read
            from whole documents (:func:`core.dates.date_order`); a document not in it is read
            from its delivered chunks.

    Returns:
        ``(claims, rejected)``: claims that kept at least one verified citation
        (duplicates of the same span collapsed), and every rejected citation or
        claim with its reason. A claim that loses all its citations is reported
        once more with reason ``no_citation``; a claim whose facts are not in
        its quotes is reported once with reason ``fact_not_in_quote``, one that
        negates its quotes once with ``polarity_mismatch``. A claim whose only verified quotes
        are headings, defined terms or clause numbers (:func:`core.labels.label_kind`) is
        reported once with ``heading_only``; one whose date agrees with its quote's numeric
        date under one convention only, where the document does not show which, once with
        ``date_ambiguous``.
    """
    claims: list[Claim] = []
    rejected: list[Rejected] = []
    orders = _DateOrders(delivered, date_orders)
    for model_claim in answer.claims:
        kept: list[Citation] = []
        seen: set[tuple[str, int, int]] = set()
        if not model_claim.citations:
            rejected.append(Rejected(claim=model_claim.text, reason=RejectReason.no_citation))
            continue
        for cit in model_claim.citations:
            reason = None
            chunk = delivered.get(cit.chunk_id)
            if chunk is None:
                reason = RejectReason.unknown_chunk
            elif (len(normalized(cit.quote)) < min_quote_chars
                  or sum(c.isalnum() for c in cit.quote) < min(_MIN_ALNUM, min_quote_chars)):
                reason = RejectReason.quote_too_short
            else:
                found = match_quote(cit.quote, chunk.text, fuzzy_threshold=fuzzy_threshold,
                                    ocr=chunk.modality == "ocr")
                if found is None:
                    elsewhere = any(
                        match_quote(cit.quote, other.text, fuzzy_threshold=fuzzy_threshold,
                                    ocr=other.modality == "ocr") is not None
                        for cid, other in delivered.items()
                        if cid != cit.chunk_id
                    )
                    reason = RejectReason.wrong_chunk if elsewhere else RejectReason.quote_not_found
                else:
                    spans = chunk.page_spans(found.start, found.end)
                    first, rest = spans[0], spans[1:]
                    key = (chunk.chunk_id, found.start, found.end)
                    if key in seen:
                        continue
                    seen.add(key)

                    def rects_on(page: int, start: int, end: int, chunk: Chunk = chunk) -> list[Rect]:
                        if rects is None:
                            return []
                        return rects(chunk if page == chunk.page else chunk.model_copy(update={"page": page}), start, end)

                    kept.append(
                        Citation(
                            chunk_id=chunk.chunk_id,
                            doc_id=chunk.doc_id,
                            path=chunk.path,
                            page=first.page,
                            quote=chunk.text[found.start : found.end],
                            match=found.kind,
                            score=found.score,
                            start=first.start,
                            end=first.end,
                            rects=rects_on(first.page, first.start, first.end),
                            modality=chunk.modality,
                            ocr_confidence=chunk.ocr_confidence,
                            page_label=first.label,
                            location=quote_location(chunk.text, chunk.location, found.start),
                            continued=[
                                PageSpan(page=s.page, start=s.start, end=s.end, rects=rects_on(s.page, s.start, s.end),
                                         page_label=s.label)
                                for s in rest
                            ],
                        )
                    )
            if reason is not None:
                rejected.append(
                    Rejected(claim=model_claim.text, chunk_id=cit.chunk_id, quote=cit.quote, reason=reason)
                )
        labels = [label_kind(c.quote) for c in kept]
        if kept and all(labels):
            # a heading, defined term or clause number names a clause; it states nothing (issue #21)
            rejected.append(Rejected(claim=model_claim.text, chunk_id=kept[0].chunk_id, quote=kept[0].quote,
                                     reason=RejectReason.heading_only,
                                     detail="only " + ", ".join(sorted(set(labels))) + " quoted"))
            continue
        order = orders.of([c.doc_id for c in kept]) if has_numeric_date(model_claim.text, *(c.quote for c in kept)) else ""
        problem = (_whole_claim_problem(model_claim.text, kept, claim_lang, check_facts, check_polarity, order)
                   if kept else None)
        if problem is not None:
            reason, detail = problem
            rejected.append(Rejected(claim=model_claim.text, chunk_id=kept[0].chunk_id, quote=kept[0].quote,
                                     reason=reason, detail=detail))
            continue
        if kept:
            warning = _polarity_warning(model_claim.text, kept) if check_polarity else None
            claims.append(Claim(text=model_claim.text, citations=kept, warning=warning))
        else:
            rejected.append(Rejected(claim=model_claim.text, reason=RejectReason.no_citation))
    return claims, rejected


class _DateOrders:
    """Numeric-date convention per document: given, else read from its delivered chunks (cached)."""

    def __init__(self, delivered: Mapping[str, Chunk], given: Mapping[str, str] | None) -> None:
        self._delivered = delivered
        self._given = given  # may be lazy (core.pipeline reads whole documents on demand): get() only
        self._known: dict[str, str] = {}

    def _doc(self, doc_id: str) -> str:
        if doc_id not in self._known and self._given is not None:
            given = self._given.get(doc_id)
            if given is not None:
                self._known[doc_id] = given
        if doc_id not in self._known:
            from core.textproc import detect_language

            texts = [c.text for c in self._delivered.values() if c.doc_id == doc_id]
            self._known[doc_id] = date_order(texts, detect_language(" ".join(texts)[:5000]))
        return self._known[doc_id]

    def of(self, doc_ids: list[str]) -> str:
        """The convention shared by all ``doc_ids`` (``""`` when they differ or none is known)."""
        found = {self._doc(d) for d in doc_ids}
        return found.pop() if len(found) == 1 else ""


def _whole_claim_problem(claim: str, kept: list[Citation], lang: str | None, check_facts: bool,
                         check_polarity: bool, date_order: str = "") -> tuple[RejectReason, str] | None:
    """Why a claim whose quotes all verified is still rejected, as ``(reason, detail)``, or ``None``:
    a number, date or amount none of its quotes state (:func:`core.facts.check_facts`), a date that
    depends on an unknown numeric-date convention, an opposite word or swapped roles
    (:func:`core.relations.check_relations`, run with the facts check), then a negation its quotes do not
    share (:func:`core.polarity.check_polarity` says ``contradict``)."""
    quotes = [c.quote for c in kept]
    if check_facts:
        facts = _check_facts(claim, quotes, lang, date_order)
        if facts.missing:
            return RejectReason.fact_not_in_quote, "not in the quotes: " + "; ".join(f.describe() for f in facts.missing)
        if facts.uncertain:
            return RejectReason.date_ambiguous, (
                "the quote's date reads differently day-first and month-first, and its document does not "
                "show which: " + "; ".join(f.describe() for f in facts.uncertain))
        relation = check_relations(claim, quotes)
        if relation.outcome == "contradict":
            return RejectReason.polarity_mismatch, "opposite: " + relation.reason
    if check_polarity:
        verdict = polarity_verdict(claim, quotes)
        if verdict.outcome == "contradict":
            return RejectReason.polarity_mismatch, verdict.reason
    return None


def _polarity_warning(claim: str, kept: list[Citation]) -> ClaimWarning | None:
    """The warning for a shown claim the polarity check could not decide (``unsure``), else ``None``."""
    verdict = polarity_verdict(claim, [c.quote for c in kept])
    if verdict.outcome == "unsure":
        return ClaimWarning(reason=WarningReason.polarity_unsure, detail=verdict.reason)
    return None


def judge_claims(backend, claims: list[Claim], cancel=None) -> tuple[list[Claim], list[Rejected]]:
    """Funnel step 5 with a judge (``support_check = "judge"``): keep the claims it supports.

    A supported claim gets ``support = "supported"``, and a polarity warning on it
    (``WarningReason.polarity_unsure``: the word-level check could not tell) is cleared, since the
    judge read the whole sentence against its quotes and found it stated there; any other warning
    stays. A claim judged neutral or contradicted is removed with ``not_supported`` (a polarity
    warning never keeps a claim the judge rejects).

    Args:
        backend: the Ollama backend (see :func:`judge_support`).
        claims: claims that passed steps 1-4, in order; modified in place.
        cancel: optional callable polled before each claim; when it returns True,
            :class:`core.errors.Cancelled` is raised.

    Returns:
        ``(kept, rejected)`` in the claims' order.

    Raises:
        ModelUnavailableError: the backend failed (transport).
        Cancelled: ``cancel()`` returned True.
    """
    from core.errors import Cancelled

    kept: list[Claim] = []
    rejected: list[Rejected] = []
    for claim in claims:
        if cancel is not None and cancel():
            raise Cancelled()
        verdict = judge_support(backend, claim)
        if verdict.label == "supported":
            claim.support = "supported"
            if claim.warning is not None and claim.warning.reason == WarningReason.polarity_unsure:
                claim.warning = None
            kept.append(claim)
        else:
            first = claim.citations[0]
            rejected.append(Rejected(claim=claim.text, chunk_id=first.chunk_id, quote=first.quote,
                                     reason=RejectReason.not_supported, detail=f"{verdict.label}: {verdict.reason}"))
    return kept, rejected


def judge_support(backend, claim: Claim, *, max_tokens: int = 160) -> SupportVerdict:
    """Funnel step 5 (optional): ask a judge model whether ``claim``'s verified quotes support it.

    The rubric (``core.prompts.JUDGE_PROMPT``) is strict: anything the quotes do
    not state is ``neutral``. The reply is constrained to :class:`SupportVerdict`'s
    JSON schema. A reply that does not parse counts as ``neutral`` (unsupported),
    since a claim may only be shown when support is established.

    Args:
        backend: a :class:`core.generate.Backend` (the Ollama model; the embedded
            135M model is too small to judge and is never used for this).
        claim: a claim that passed steps 1-4; its citations' ``quote`` is the source's text.

    Raises:
        ModelUnavailableError: the backend failed (transport); callers decide.
    """
    from pydantic import ValidationError

    from core.replies import parse_json_object
    from core.prompts import JUDGE_PROMPT, judge_message

    quotes = [c.quote for c in claim.citations]
    messages = [
        {"role": "system", "content": JUDGE_PROMPT},
        {"role": "user", "content": judge_message(claim.text, quotes)},
    ]
    prompt_tokens = sum(backend.count_tokens(m["content"]) for m in messages) + 16
    num_ctx = min(backend.context_window, prompt_tokens + max_tokens)
    result = backend.chat_json(messages, SupportVerdict.model_json_schema(), num_ctx=num_ctx, max_tokens=max_tokens)
    try:
        return SupportVerdict.model_validate(parse_json_object(result.text))
    except (ValidationError, ValueError) as exc:
        return SupportVerdict(label="neutral", reason=f"the judge's reply was not valid ({str(exc)[:120]})")
