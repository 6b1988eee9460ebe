"""Data contracts shared by the pipeline, the CLI and the window.

Conventions used in every model here:

* **Pages are 1-based** everywhere a page number is stored or shown
  (``Chunk.page``, ``Citation.page``); PyMuPDF's 0-based index is ``page - 1``.
* **Offsets are in characters** (Python ``str`` indices) into the *page text*,
  the text exactly as extracted, never into a normalized copy.
* **Rectangles are PDF points** ``(x0, y0, x1, y1)`` in PyMuPDF's page space
  (origin top-left, y grows downwards), one per text line the span covers.
* **A chunk is one or more segments of page texts.** Most chunks are one span
  ``page_text[start:end]`` of one page (``Chunk.segments`` empty). A chunk that
  crosses a page break, or leaves out a running header or footer inside its range,
  lists its :class:`Segment` s in order; its ``text`` is their page texts joined by
  :data:`SEGMENT_SEP`, and ``page``/``start``/``end`` are its first segment's, so code
  that reads only those still gets the right page and offsets for the first part.
  :meth:`Chunk.page_spans` maps offsets of ``text`` back to ``(page, start, end)``
  spans of page texts; a :class:`Citation` of a quote across a page break carries
  the other pages' spans and rectangles in ``continued``.

The JSON shapes of :class:`ModelAnswer` and :class:`Answer` are the contracts of
``DESIGN.md`` ("Contracts"). The model-output contract (:class:`ModelAnswer`,
:class:`ModelClaim`, :class:`ModelCitation`, :data:`QUOTE_MAX_CHARS`,
:func:`answer_schema`) and the follow-up rewrite's :class:`Turn` and
:class:`StandaloneQuestion` are defined in :mod:`core.model_output` and re-exported here; the
indexing run's report (:class:`IndexReport`, :class:`FileError`, :class:`PartialDocument`) in
:mod:`core.index_types`, also re-exported.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, NewType

from pydantic import BaseModel, ConfigDict, Field, computed_field

# Re-exported: the model-output contract lives in core.model_output (which never imports this module).
from core.index_types import FileError, IndexReport, PartialDocument  # noqa: F401  (re-exported)
from core.model_output import (  # noqa: F401
    QUOTE_MAX_CHARS,
    ModelAnswer,
    ModelCitation,
    ModelClaim,
    StandaloneQuestion,
    Turn,
    answer_schema,
)

DocId = NewType("DocId", str)
ChunkId = NewType("ChunkId", str)

NO_EVIDENCE = "NO_EVIDENCE"

Rect = tuple[float, float, float, float]


SEGMENT_SEP = "\n"
"""Joins the segments of a multi-segment chunk in its ``text`` (one character, never quotable
on its own: normalization reads it as a space)."""


class Segment(BaseModel):
    """One span of one page's text: ``page_text(page)[start:end]`` (1-based page, characters).

    ``label`` is the printed page label of ``page`` ("5", "iv"), "" if none or unknown.
    """

    model_config = ConfigDict(frozen=True)

    page: int = Field(ge=1)
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    label: str = ""


class Chunk(BaseModel):
    """A piece of one document, the unit retrieved and cited.

    Single-segment chunks (``segments`` empty): ``text == page_text[start:end]`` of page
    ``page`` of ``doc_id``. Multi-segment chunks (a page break crossed, or a running
    header/footer left out): ``text == SEGMENT_SEP.join(page_text(s.page)[s.start:s.end]
    for s in segments)`` and ``(page, start, end)`` is the first segment. Chunk ids are
    ``<doc_id>#p<page>-c<n>`` with ``page`` the 1-based page where the chunk starts and
    ``n`` the 0-based index of the chunks starting on that page; they are stable as long
    as the document's text and the chunking settings do not change.
    """

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    doc_id: str
    path: str = Field(description="Absolute path of the source file.")
    page: int = Field(ge=1, description="1-based page number (1 for non-paginated formats).")
    start: int = Field(ge=0, description="Start offset in the page text, characters.")
    end: int = Field(ge=0, description="End offset (exclusive) in the page text, characters.")
    text: str
    lang: str = "en"
    modality: Literal["text", "ocr"] = "text"
    ocr_confidence: float | None = Field(
        None, description="Mean Tesseract word confidence 0-100 of the page, for OCR chunks."
    )
    page_label: str = Field("", description="Printed page label of a PDF page (e.g. 'iv'), '' if none.")
    location: str = Field(
        "", description="Where the chunk starts, for display: heading path, plus '¶ n' (1-based) for non-PDF formats."
    )
    context: str = Field(
        "",
        description="Context line (document title and heading path) used for embedding and BM25; never quotable.",
    )

    segments: list[Segment] = Field(
        default_factory=list,
        description="The page-text spans the text is made of, in order, when more than one; empty = (page, start, end).",
    )

    def embedding_text(self) -> str:
        """Text given to the embedder and BM25: the context line, a newline, then the chunk text."""
        return f"{self.context}\n{self.text}" if self.context else self.text

    def spans(self) -> list[Segment]:
        """The chunk's segments; one ``(page, start, end)`` segment for a single-segment chunk."""
        return list(self.segments) or [Segment(page=self.page, start=self.start, end=self.end, label=self.page_label)]

    @property
    def pages(self) -> list[int]:
        """1-based pages the chunk's text comes from, in order, without repeats."""
        return list(dict.fromkeys(s.page for s in self.spans()))

    def page_spans(self, start: int, end: int) -> list[Segment]:
        """The page-text spans of ``text[start:end]`` (chunk offsets, characters), in order.

        A span that crosses a segment boundary is split there; the separators between
        segments belong to no page. Empty pieces are left out.
        """
        out: list[Segment] = []
        pos = 0
        for seg in self.spans():
            length = seg.end - seg.start
            a, b = max(start, pos), min(end, pos + length)
            if a < b:
                out.append(Segment(page=seg.page, start=seg.start + a - pos, end=seg.start + b - pos, label=seg.label))
            pos += length + len(SEGMENT_SEP)
        return out


class ScoredChunk(BaseModel):
    """A chunk with its retrieval provenance (ranks are 1-based, ``None`` = not returned)."""

    model_config = ConfigDict(frozen=True)

    chunk: Chunk
    score: float = Field(description="Reciprocal-rank-fusion score.")
    bm25_rank: int | None = None
    dense_rank: int | None = None
    also_in: list[str] = Field(
        default_factory=list,
        description="Doc ids of other documents holding the same text (duplicates), which take no place of their own.",
    )


# --- verified answer ----------------------------------------------------------


class MatchKind(str, Enum):
    """How a quote was found in its chunk (cheapest first)."""

    exact = "exact"
    normalized = "normalized"
    fuzzy = "fuzzy"


class PageSpan(BaseModel):
    """The part of a quote that lies on another page (a quote across a page break)."""

    page: int = Field(ge=1, description="1-based page.")
    start: int = Field(ge=0, description="Start offset in that page's text, characters.")
    end: int = Field(ge=0, description="End offset (exclusive) in that page's text, characters.")
    rects: list[Rect] = Field(default_factory=list, description="PDF points, one per line; empty for non-PDF.")
    page_label: str = Field("", description="Printed page label of that page ('5', 'iv'), '' if none.")


class Citation(BaseModel):
    """A citation that passed verification.

    ``quote`` is the text of the *source* at ``[start, end)`` of the page text,
    not the model's copy (they differ for normalized and fuzzy matches). A quote
    that crosses a page break starts at ``[start, end)`` of ``page`` and goes on in
    ``continued`` (the next pages' spans and rectangles); ``quote`` is then the whole
    quote, its parts joined by :data:`SEGMENT_SEP`.
    """

    chunk_id: str
    doc_id: str
    path: str
    page: int = Field(ge=1, description="1-based page.")
    quote: str
    match: MatchKind
    score: float = Field(ge=0, le=100, description="Similarity 0-100; 100 for exact/normalized.")
    start: int = Field(ge=0, description="Start offset in the page text, characters.")
    end: int = Field(ge=0, description="End offset (exclusive) in the page text, characters.")
    rects: list[Rect] = Field(default_factory=list, description="PDF points, one per line; empty for non-PDF.")
    modality: Literal["text", "ocr"] = "text"
    ocr_confidence: float | None = Field(None, description="Mean OCR word confidence 0-100 (OCR pages only).")
    page_label: str = Field(
        "", description="Printed page label ('5', 'iv': /PageLabels or the number printed in the margin) of the "
        "page the quote starts on, '' if none; see cited_page()."
    )
    location: str = Field("", description="Heading path (and '¶ n' for non-PDF formats) of the cited chunk.")
    continued: list[PageSpan] = Field(
        default_factory=list, description="Where the quote goes on, on the following pages (empty: one page)."
    )
    also_in: list[str] = Field(
        default_factory=list, description="Paths of other documents holding the same text (duplicates)."
    )

    @computed_field  # in model_dump() and --json, so every reader of an answer gets the same words
    @property
    def cited_page(self) -> str:
        """How the citation names its page(s) in English: the printed label first and the physical
        page in brackets where they differ ("p. 5 (PDF page 8)"), "page 8" where they do not; a quote
        over two pages names both ("pp. 5–6 (PDF pages 8–9)", "pages 8–9")."""
        pages = [self.page] + [s.page for s in self.continued]
        labels = [self.page_label] + [s.page_label for s in self.continued]
        first, last = 0, len(pages) - 1
        differ = any(lb and lb != str(p) for p, lb in zip(pages, labels))
        if pages[first] == pages[last]:
            return f"p. {labels[0]} (PDF page {pages[0]})" if differ and labels[0] else f"page {pages[0]}"
        span = f"{pages[first]}–{pages[last]}"
        if differ and labels[first] and labels[last]:
            return f"pp. {labels[first]}–{labels[last]} (PDF pages {span})"
        return f"pages {span}"


class LanguageInfo(BaseModel):
    """The question's language against the searched documents' (core.translate)."""

    question: str = Field("", description="Language of the question, 'en' or 'es' ('' when not checked).")
    documents: list[str] = Field(default_factory=list, description="Languages of the searched documents, most first.")
    differs: bool = Field(False, description="The question's language is none of the documents'.")
    bridged_by: str = Field("", description="'translation' (the model translated the question), 'embedding' (a "
                            "multilingual embedding model), '' (only the bilingual keyword vocabulary).")
    translation: str = Field("", description="The question as the model translated it into the documents' language.")
    notice: str = Field("", description="What the user is told when the languages differ and nothing bridges them.")


class ScopeInfo(BaseModel):
    """Which documents a question was searched in, and why (DESIGN.md, "Scope before ranking")."""

    method: Literal["", "named", "ambiguous", "explicit"] = Field(
        "", description="'named': the question names one document; 'ambiguous': it names two or three about "
        "equally, all searched; 'explicit': the user chose the documents; '' = the whole workspace."
    )
    doc_ids: list[str] = Field(default_factory=list, description="Documents searched (empty = all eligible).")
    titles: list[str] = Field(default_factory=list, description="Their titles, same order, for display.")
    matched: list[str] = Field(default_factory=list, description="Words of the question that named them.")
    query: str = Field("", description="The keyword query used inside the scope (the naming words removed).")
    scores: dict[str, float] = Field(default_factory=dict, description="Best candidates' resolution scores.")


class WarningReason(str, Enum):
    """Why a claim is shown with a visible warning instead of silently (the third outcome of a check)."""

    polarity_unsure = "polarity_unsure"
    """The polarity check (:mod:`core.polarity`) found words the claim and its quotes negate
    differently, but not enough evidence to tell a flip from a paraphrase (its ``unsure``)."""


class ClaimWarning(BaseModel):
    """A reason to read a shown claim's quotes before relying on it."""

    reason: WarningReason
    detail: str = Field("", description="What the check saw, e.g. the word negated on one side only.")


class PassageContext(BaseModel):
    """The clause a shown passage sits in (small-to-big: sentences are scored, the clause is shown).

    ``text`` is source text, ``chunk.text[start:end]`` of the chunk ``chunk_id`` (chunk offsets,
    characters); ``highlights`` are the best-scoring sentences inside it, ``[start, end)`` offsets
    into ``text`` (characters, 0-based). Made by :func:`core.passage_context.clause_context`.
    """

    chunk_id: str
    text: str
    start: int = Field(ge=0, description="Start offset of the clause in the chunk text, characters.")
    end: int = Field(ge=0, description="End offset (exclusive) of the clause in the chunk text, characters.")
    page: int = Field(1, ge=1, description="1-based page where the clause begins.")
    highlights: list[tuple[int, int]] = Field(
        default_factory=list, description="The best sentences: [start, end) offsets into ``text``, characters."
    )


class Claim(BaseModel):
    """A sentence of the answer that kept at least one verified citation."""

    text: str
    citations: list[Citation]
    support: Literal["", "supported"] = Field(
        "", description="'supported' when the optional support check (a judge model) passed it; '' = not checked."
    )
    passage_score: float | None = Field(
        None, description="Passages answer only: the span's score against the question (core.passages); None otherwise."
    )
    warning: ClaimWarning | None = Field(
        None, description="Set when a check could not tell whether the quotes support the claim; shown beside it."
    )
    context: PassageContext | None = Field(
        None, description="Passages answer only: the clause the passage sits in, its sentences highlighted; None otherwise."
    )


class SupportVerdict(BaseModel):
    """The judge's label for one claim against its verified quotes (funnel step 5, optional)."""

    label: Literal["supported", "neutral", "contradicted"] = Field(
        description=(
            "supported: the quotes state everything the sentence says; neutral: the quotes do not say it "
            "(or say only part of it); contradicted: the quotes say something incompatible with it."
        )
    )
    reason: str = Field(description="One short sentence naming the words that decide the label.", max_length=300)


class RejectReason(str, Enum):
    """Why a citation or claim was removed."""

    unknown_chunk = "unknown_chunk"
    quote_too_short = "quote_too_short"
    wrong_chunk = "wrong_chunk"
    quote_not_found = "quote_not_found"
    no_citation = "no_citation"
    model_output_invalid = "model_output_invalid"
    fact_not_in_quote = "fact_not_in_quote"
    """The claim states a number, amount, percentage, date, duration or identifier
    that none of its verified quotes carries (funnel step 3, :mod:`core.facts`)."""
    model_output_truncated = "model_output_truncated"
    """The model stopped at its token budget twice; its JSON was cut off."""
    not_supported = "not_supported"
    """The optional support check judged the claim neutral or contradicted by its quotes."""
    polarity_mismatch = "polarity_mismatch"
    """The claim negates what its quotes state, or the reverse ("The deposit is not refundable"
    citing "The deposit is refundable"; funnel step 5, :mod:`core.polarity`)."""
    heading_only = "heading_only"
    """Every verified quote of the claim is a heading, a defined term or a clause number alone
    ("15.7 Successors and Assigns."): it names a clause and states nothing (:mod:`core.labels`)."""
    date_ambiguous = "date_ambiguous"
    """The claim's date agrees with its quote's numeric date ("01/02/2024") read day-first or
    month-first but not both, and the document does not show its convention (:mod:`core.dates`)."""


class Rejected(BaseModel):
    """A rejected citation (or a claim without any), with the reason."""

    claim: str
    chunk_id: str = ""
    quote: str = ""
    reason: RejectReason
    detail: str = Field("", description="What exactly failed, e.g. the facts missing from the quotes.")


class ConsultedDoc(BaseModel):
    """A document whose chunks were shown to the model."""

    doc_id: str
    path: str
    pages: list[int] = Field(description="1-based pages of the delivered chunks.")


class WeakPassage(BaseModel):
    """One of the closest passages a passages answer found under its threshold (issue #20): shown
    marked as weak, never as a citation of an answer (DESIGN.md: an abstention carries zero citations).

    The span is source text checked by the verifier (exact match in its chunk) like a passage that
    answers; it only failed the score threshold. Offsets are those of the page text, as in
    :class:`Citation`.
    """

    chunk_id: str
    doc_id: str
    path: str
    page: int = Field(ge=1, description="1-based page where the span begins.")
    text: str = Field(description="The span (one sentence or two adjacent ones), source text.")
    start: int = Field(ge=0, description="Start offset of the span in the page text, characters.")
    end: int = Field(ge=0, description="End offset (exclusive) in the page text, characters.")
    rects: list[Rect] = Field(default_factory=list, description="PDF points, one per line; empty for non-PDF.")
    continued: list[PageSpan] = Field(default_factory=list, description="The span's parts on the following pages.")
    score: float = Field(description="The span's score against the question (core.passages), under the threshold.")
    page_label: str = ""
    location: str = ""
    modality: Literal["text", "ocr"] = "text"
    context: PassageContext | None = Field(None, description="The clause around it, its sentences highlighted.")

    def viewer_citation(self) -> Citation:
        """The span as the page viewer's input (a :class:`Citation`, match ``exact``): for display
        only: it is not part of the answer's claims and is never counted as a citation."""
        return Citation(chunk_id=self.chunk_id, doc_id=self.doc_id, path=self.path, page=self.page,
                        quote=self.text, match=MatchKind.exact, score=100.0, start=self.start, end=self.end,
                        rects=list(self.rects), modality=self.modality, page_label=self.page_label,
                        location=self.location, continued=list(self.continued))


class Abstention(BaseModel):
    """Why no answer is given. Always paired with zero claims (and zero citations: ``candidates``
    are the closest passages shown as weak, not citations)."""

    marker: Literal["NO_EVIDENCE"] = NO_EVIDENCE
    message: str
    query: str
    consulted: list[ConsultedDoc]
    suggestion: str = Field("", description="One line on what the user could try next.")
    candidates: list[WeakPassage] = Field(
        default_factory=list, description="Passages answer under its threshold: the closest passages, best first, "
        "shown marked as weak (no passage clearly answers); empty otherwise."
    )


class GenerationAttempt(BaseModel):
    """One call to the generator (tokens are the backend's own counts; 0 = not reported)."""

    round: int = Field(1, description="Retrieval round, 1-based (2 = the wider retry).")
    attempt: int = Field(1, description="Attempt within the round, 1-based.")
    max_tokens: int = 0
    num_ctx: int = 0
    finish_reason: str = Field("", description="'stop', 'length' (hit max_tokens) or '' if not reported.")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    outcome: Literal["valid", "invalid", "truncated"] = "valid"
    error: str = ""


class RetrievalRound(BaseModel):
    """One retrieve → generate → verify round (a second, wider one when the answer was incomplete)."""

    round: int
    query: str = Field(description="The text searched (round 2: the question plus what the model said was missing).")
    candidates: int = Field(0, description="BM25 and dense candidates each, before fusion.")
    context: list[str] = Field(default_factory=list, description="Chunk ids delivered to the model.")
    dropped: list[str] = Field(default_factory=list)
    prompt_tokens: int = Field(0, description="Prompt tokens counted before the call.")
    answer_found: bool = False
    complete_answer: bool = False
    claims: int = Field(0, description="Claims that kept a verified citation.")
    rejected: int = 0
    model_missing: str = ""
    chosen: bool = False


class Trace(BaseModel):
    """What the pipeline did, for the user and the evaluator (chunk ids in rank order)."""

    bm25: list[str] = Field(default_factory=list)
    dense: list[str] = Field(default_factory=list)
    fused: list[str] = Field(default_factory=list)
    eligible: list[str] = Field(default_factory=list)
    eligible_docs: list[str] = Field(
        default_factory=list, description="Doc ids whose chunks could be retrieved (status active), sorted."
    )
    context: list[str] = Field(default_factory=list, description="Chunk ids delivered to the model.")
    backend: str = ""
    model: str = ""
    prompt_tokens: int = 0
    truncated: bool = Field(False, description="True if chunks were dropped to fit the context window.")
    dropped: list[str] = Field(default_factory=list, description="Chunk ids dropped for the token budget.")
    attempts: int = 0
    model_missing: str = Field("", description="What the model said was missing (unverified model text).")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    prompt_tokens_expected: int = Field(0, description="Prompt tokens counted before the call (chosen round).")
    num_ctx: int = Field(0, description="Context window requested for the call, tokens.")
    server_truncated: bool = Field(
        False, description="The backend reported more prompt tokens than fit beside the answer budget: silent truncation suspected."
    )
    warnings: list[str] = Field(default_factory=list)
    not_searched: int = Field(0, description="A question about the whole collection (core.collection): documents "
                              "left out (more than its limit); 0 otherwise.")
    generations: list[GenerationAttempt] = Field(default_factory=list)
    rounds: list[RetrievalRound] = Field(default_factory=list)
    history_turns: int = Field(0, description="Previous conversation turns given to the follow-up rewrite (0 = none).")
    standalone_question: str = Field(
        "", description="The follow-up rewritten as a standalone question, used for retrieval and generation; '' = no rewrite."
    )
    rewrite_method: Literal["", "model", "fallback"] = Field(
        "", description="'model': the backend's rewrite; 'fallback': the deterministic form (see core.pipeline); '' = none."
    )
    rewrite_detail: str = Field("", description="Why the model's rewrite was not used (fallback only), or the model's text.")
    follow_up_cue: str = Field(
        "", description="With a conversation: why the question was read as a follow-up (and rewritten) or as standing "
        "on its own (searched as written), core.followup.detect_follow_up's cue; '' without a conversation."
    )
    model_conflicting_evidence: bool = Field(
        False, description="The model reported conflicting evidence (before checking that two verified passages show it)."
    )
    scope: ScopeInfo = Field(default_factory=ScopeInfo, description="The documents searched and why.")
    language: LanguageInfo = Field(default_factory=LanguageInfo, description="The question's language against "
                                   "the documents' (core.translate).")
    clause_types: list[str] = Field(
        default_factory=list, description="Clause types the question asks about whose contract wording was also searched."
    )
    duplicates: dict[str, list[str]] = Field(
        default_factory=dict, description="Delivered chunk id → doc ids of other documents with the same text."
    )
    reranked: dict[str, int] = Field(
        default_factory=dict, description="Optional model rerank: chunk id → grade 0-3 (-1 ungraded), in the new order."
    )
    hypothetical_passage: str = Field(
        "", description="Optional HyDE: the passage the model expected a document to hold, searched as a dense query."
    )
    passage_best_score: float | None = Field(
        None, description="Passages answer: the best span's score (core.passages), compared with the abstention threshold."
    )
    passage_threshold: float | None = Field(
        None, description="Passages answer: the abstention threshold it was compared with (settings.passages_min_score, "
        "or passages_min_score_scoped when the spans were scored against the question without its document's names)."
    )
    passage_form_margin: float | None = Field(
        None, description="Passages answer: the retrieved chunks' best clause-form margin (core.clause_form), when read."
    )


class DocumentFinding(BaseModel):
    """What one document gave to a question about the whole collection (:mod:`core.collection`):
    it was searched alone, and its passage matches the question or not."""

    doc_id: str
    title: str = ""
    matches: bool = Field(False, description="A verified passage of this document matches the question.")
    claim: int | None = Field(None, description="0-based index in Answer.claims of its passage, when it matches.")
    cell: Literal["answered", "weak", "not_found"] = Field(
        "not_found", description="The document's own passages answer (a review-grid cell's status, core.grid).")
    missing: list[str] = Field(default_factory=list, description="Words the question requires (names, numbers) "
                               "that none of its retrieved passages holds with the question's subject.")
    closest: WeakPassage | None = Field(None, description="When it does not match: its closest passage, display "
                                        "only (never a citation of the answer).")


class Answer(BaseModel):
    """The verified answer (DESIGN.md, "Contracts"): what the CLI prints and the window shows."""

    question: str
    workspace: str
    status: Literal["answered", "partial", "abstained"]
    kind: Literal["model", "passages"] = Field(
        "model", description="'model': claims written by a model and verified; 'passages': spans chosen from the "
        "retrieved chunks (core.passages), each claim's text is its own quote."
    )
    claims: list[Claim] = Field(default_factory=list)
    rejected: list[Rejected] = Field(default_factory=list)
    abstention: Abstention | None = None
    conflicting_evidence: bool = Field(
        False,
        description=(
            "The model reported that the passages contradict each other and the claims cite at least two separate "
            "verified passages: show a conflict between them, not an answer."
        ),
    )
    trace: Trace = Field(default_factory=Trace)
    documents: list[DocumentFinding] = Field(
        default_factory=list, description="A question about the whole collection (core.collection): every document "
        "searched, each on its own; the claims are the passages of those that match. Empty otherwise.")


# --- indexing -----------------------------------------------------------------


# FileError, PartialDocument and IndexReport live in core.index_types (re-exported above).


class ProgressEvent(BaseModel):
    """One progress tick of a long operation; ``total`` 0 means indeterminate.

    Stage ``"claim"`` (a streamed model answer, :mod:`core.streaming`) carries one
    claim of the reply as soon as its JSON object closed, already verified: ``claim``
    when it kept a citation, and its ``rejected`` citations (or the claim's removal)
    with their reasons. ``attempt`` (``round * 10 + attempt``) tells a preview to start
    over when a new generation begins. The final :class:`Answer` is decided afterwards
    from the whole reply, as without streaming; the previews only show it sooner.
    """

    model_config = ConfigDict(frozen=True)

    stage: str
    done: int = 0
    total: int = 0
    message: str = ""
    item: str = Field("", description="What the event is about: while indexing, the doc_id of the file read, "
                      "embedded or committed; '' when none.")
    claim: Claim | None = None
    rejected: list[Rejected] = Field(default_factory=list)
    attempt: int = 0
