"""Data contracts shared by the pipeline, the CLI and the window.

Conventions used in every model here:

* **Pages are 1-based** everywhere a page number is stored or shown
  (``Chunk.page``, ``Citation.page``); PyMuPDF's 0-based index is ``page - 1``.
* **Offsets are in characters** (Python ``str`` indices) into the *page text*,
  the text exactly as extracted, never into a normalized copy.
* **Rectangles are PDF points** ``(x0, y0, x1, y1)`` in PyMuPDF's page space
  (origin top-left, y grows downwards), one per text line the span covers.

The JSON shapes of :class:`ModelAnswer` and :class:`Answer` are the contracts of
``DESIGN.md`` ("Contracts").
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, NewType

from pydantic import BaseModel, ConfigDict, Field

DocId = NewType("DocId", str)
ChunkId = NewType("ChunkId", str)

NO_EVIDENCE = "NO_EVIDENCE"

Rect = tuple[float, float, float, float]


class Chunk(BaseModel):
    """A piece of one page of one document, the unit retrieved and cited.

    ``text == page_text[start:end]`` of page ``page`` of ``doc_id``.
    Chunk ids are ``<doc_id>#p<page>-c<n>`` with ``page`` 1-based and ``n`` the
    0-based index of the chunk within that page; they are stable as long as the
    page's text and the chunking settings do not change.
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


class ScoredChunk(BaseModel):
    """A chunk with its retrieval provenance (ranks are 1-based, ``None`` = not returned)."""

    model_config = ConfigDict(frozen=True)

    chunk: Chunk
    score: float = Field(description="Reciprocal-rank-fusion score.")
    bm25_rank: int | None = None
    dense_rank: int | None = None


# --- model output (what the LLM must produce) --------------------------------


class ModelCitation(BaseModel):
    """One quote the model offers as evidence."""

    chunk_id: str = Field(description="The id attribute of the <chunk> the quote was copied from.", max_length=300)
    quote: str = Field(
        description="Text copied character for character from that chunk, at least 15 characters.",
        max_length=300,
    )


class ModelClaim(BaseModel):
    """One sentence of the answer with its evidence."""

    text: str = Field(description="One sentence of the answer.", max_length=300)
    citations: list[ModelCitation] = Field(
        description="1 to 3 quotes supporting this sentence.", max_length=3
    )


class ModelAnswer(BaseModel):
    """The structured output requested from the model (DESIGN.md, "Contracts")."""

    answer_found: bool = Field(description="True only if the chunks contain the answer.")
    complete_answer: bool = Field(description="True if the claims answer the whole question.")
    conflicting_evidence: bool = Field(description="True if chunks contradict each other on the question.")
    claims: list[ModelClaim] = Field(
        description="The answer, one sentence per claim; empty when answer_found is false.", max_length=5
    )
    missing: str = Field(description="What the chunks do not say, if anything.", max_length=200)


def answer_schema(chunk_ids: list[str]) -> dict:
    """JSON schema of :class:`ModelAnswer` with ``chunk_id`` restricted to ``chunk_ids``.

    Constraining the id to the delivered chunks (an ``enum``) lets the grammar or
    Ollama's ``format`` stop a model from inventing ids; verification still
    checks every id, since a backend may ignore the schema.
    """
    schema = ModelAnswer.model_json_schema()
    if chunk_ids:
        schema["$defs"]["ModelCitation"]["properties"]["chunk_id"]["enum"] = list(chunk_ids)
    return schema


# --- verified answer ----------------------------------------------------------


class MatchKind(str, Enum):
    """How a quote was found in its chunk (cheapest first)."""

    exact = "exact"
    normalized = "normalized"
    fuzzy = "fuzzy"


class Citation(BaseModel):
    """A citation that passed verification.

    ``quote`` is the text of the *source* at ``[start, end)`` of the page text,
    not the model's copy (they differ for normalized and fuzzy matches).
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


class Claim(BaseModel):
    """A sentence of the answer that kept at least one verified citation."""

    text: str
    citations: list[Citation]


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


class Abstention(BaseModel):
    """Why no answer is given. Always paired with zero claims."""

    marker: Literal["NO_EVIDENCE"] = NO_EVIDENCE
    message: str
    query: str
    consulted: list[ConsultedDoc]


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


class Answer(BaseModel):
    """The verified answer (DESIGN.md, "Contracts"): what the CLI prints and the window shows."""

    question: str
    workspace: str
    status: Literal["answered", "partial", "abstained"]
    claims: list[Claim] = Field(default_factory=list)
    rejected: list[Rejected] = Field(default_factory=list)
    abstention: Abstention | None = None
    trace: Trace = Field(default_factory=Trace)


# --- indexing -----------------------------------------------------------------


class FileError(BaseModel):
    """A file the indexer could not read, with the reason in plain words."""

    path: str
    reason: str
    page: int | None = Field(None, description="1-based page, when the failure is page-specific.")


class IndexReport(BaseModel):
    """Summary of one indexing run."""

    workspace: str
    folders: list[str]
    documents: int = Field(0, description="Documents indexed or re-indexed in this run.")
    unchanged: int = Field(0, description="Documents skipped because their content did not change.")
    removed: int = Field(0, description="Documents removed because their file disappeared.")
    renamed: int = Field(0, description="Documents moved or renamed with unchanged content: chunks kept, no embedding.")
    pages: int = 0
    chunks: int = Field(0, description="Chunks embedded in this run.")
    total_chunks: int = Field(0, description="Chunks in the workspace after the run.")
    failures: list[FileError] = Field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False


class ProgressEvent(BaseModel):
    """One progress tick of a long operation; ``total`` 0 means indeterminate."""

    model_config = ConfigDict(frozen=True)

    stage: str
    done: int = 0
    total: int = 0
    message: str = ""
