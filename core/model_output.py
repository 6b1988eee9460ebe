"""The model-output contract: what the LLM is asked to return, and its JSON schema.

:class:`ModelAnswer` (with :class:`ModelClaim` and :class:`ModelCitation`) is the structured
output of the answer call, :func:`answer_schema` the schema sent to the model for it, and
:data:`QUOTE_MAX_CHARS` the longest quote it may offer (characters). The follow-up rewrite's
exchange lives here too: :class:`Turn` (an earlier question and its verified answer, from
which the rewrite prompt is built) and :class:`StandaloneQuestion` (the rewrite's structured
output). The JSON shape of :class:`ModelAnswer` is the model-output contract of ``DESIGN.md``
("Contracts").

This module depends on pydantic only; it must not import :mod:`core.types`, which imports it
and re-exports every name defined here (``from core.types import ModelAnswer`` keeps working).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


# --- model output (what the LLM must produce) --------------------------------


QUOTE_MAX_CHARS = 600
"""Longest quote the model may offer, characters. Measured on the gold clauses of the CUAD
evaluation set (``shared/eval/corpora/cuad/cases.jsonl``, 103 clauses, whitespace collapsed):
median 296, 75th percentile 417, 90th 599, 95th 1,133. The former 300 cut half the clauses a
lawyer asks about (a negation before a colon and the list item it governs did not fit in one
quote, issue #21); 600 holds nine in ten, and a longer clause is cited with two or three quotes
(a claim carries up to three). ``bench/README.md`` (issue #21) has the measurement."""


class ModelCitation(BaseModel):
    """One quote the model offers as evidence."""

    chunk_id: str = Field(
        description="The id attribute of the <chunk> tag the quote was copied from, exactly as written there.",
        max_length=300,
    )
    quote: str = Field(
        description=(
            f"A passage copied character for character from that chunk (at least 15 and at most "
            f"{QUOTE_MAX_CHARS} characters, one or two sentences): same words, same numbers, same language; "
            "never paraphrased, translated, shortened with '...' or joined from two places. It must state "
            "what the claim says: a heading, a defined term or a clause number alone is not evidence."
        ),
        max_length=QUOTE_MAX_CHARS,
    )


class ModelClaim(BaseModel):
    """One sentence of the answer with its evidence."""

    text: str = Field(
        description=(
            "Exactly one sentence of the answer, in the language of the question. Every number, date, "
            "amount, percentage and duration in it must appear in its quotes."
        ),
        max_length=300,
    )
    citations: list[ModelCitation] = Field(
        description="1 to 3 quotes that together prove this sentence.", max_length=3
    )


class ModelAnswer(BaseModel):
    """The structured output requested from the model (DESIGN.md, "Contracts")."""

    answer_found: bool = Field(
        description="true only if the chunks contain the answer; false if they do not (then claims is empty)."
    )
    complete_answer: bool = Field(
        description="true if the claims answer every part of the question; false if a part is not in the chunks."
    )
    conflicting_evidence: bool = Field(
        description="true if two chunks say different things about the question (cite both sides)."
    )
    claims: list[ModelClaim] = Field(
        description="The answer, one sentence per claim; empty when answer_found is false.", max_length=5
    )
    missing: str = Field(
        description=(
            "What the question asks that the chunks do not say, in a few words; required when answer_found "
            "or complete_answer is false, otherwise an empty string."
        ),
        max_length=200,
    )


_SCHEMA_DESCRIPTION = (
    "Answer to the question using only the <chunk> passages. Each claim is one sentence with 1 to 3 "
    "quotes copied character for character from the chunk named by chunk_id."
)


def answer_schema(chunk_ids: list[str]) -> dict:
    """JSON schema of :class:`ModelAnswer` as sent to the model.

    The field descriptions are part of what the model sees (Ollama's ``format``
    and llama.cpp's grammar take the schema; the descriptions guide the model,
    the grammar only the shape). Additions over ``model_json_schema()``:

    * ``chunk_id`` restricted to ``chunk_ids`` (an ``enum``), so the grammar or
      Ollama's ``format`` stops a model from inventing ids; verification still
      checks every id, since a backend may ignore the schema;
    * ``minItems: 1`` on a claim's citations (the pydantic model accepts an
      empty list so one bad claim is reported as ``no_citation`` instead of
      invalidating the whole answer);
    * a top-level description instead of the class docstring.
    """
    schema = ModelAnswer.model_json_schema()
    schema["description"] = _SCHEMA_DESCRIPTION
    schema["$defs"]["ModelClaim"]["properties"]["citations"]["minItems"] = 1
    if chunk_ids:
        schema["$defs"]["ModelCitation"]["properties"]["chunk_id"]["enum"] = list(chunk_ids)
    return schema


# --- conversation -------------------------------------------------------------


class Turn(BaseModel):
    """One earlier question of a conversation and the answer shown for it (for follow-ups).

    ``answer`` is the verified claims' text joined (never unverified model text), or ``""``
    when the question was not answered.
    """

    model_config = ConfigDict(frozen=True)

    question: str
    answer: str = ""


class StandaloneQuestion(BaseModel):
    """The structured output of the follow-up rewrite (``core.prompts.CONDENSE_PROMPT``)."""

    question: str = Field(
        description="The follow-up rewritten as one standalone question, in the language of the follow-up.",
        max_length=400,
    )
