"""A quote must carry the claim: headings, defined terms and clause numbers alone do not (issue #21)."""

from __future__ import annotations

import pytest

from core.labels import label_kind
from core.types import Chunk, ModelAnswer, RejectReason
from core.verify import verify_claims


@pytest.mark.parametrize(("quote", "kind"), [
    ("15.7 Successors and Assigns.", "heading"),
    ("LIMITATION OF LIABILITY", "heading"),
    ("ARTICLE 12 - GOVERNING LAW", "heading"),
    ("Section 9. Term and Termination", "heading"),
    ("Cláusula 5. Duración del contrato.", "heading"),
    ("QUINTA.- DURACIÓN DEL CONTRATO", "heading"),
    ("Section 15.7", "clause number"),
    ("15.7(b)", "clause number"),
    ("Artículo 14", "clause number"),
    ("(b)", "clause number"),  # a list marker alone (2026-12-02: was None)
    ("(iv)", "clause number"),
    ("Cláusula 5.ª Duración del contrato", "heading"),  # an ordinal mark after the number (was None)
    ("Section 1st. Definitions", "heading"),
    ("No Waiver", "heading"),  # a negation as the first word, or after a separator, names the clause
    ("Waiver and No Third Party Rights", "heading"),
    ("Representations and Warranties of the Parties", "heading"),
    ("Rights of Termination", "heading"),
    ('1.3 "Confidential Information" means', "defined term"),
    ('(the "Agreement")', "defined term"),
    ('"Effective Date"', "defined term"),
])
def test_labels_are_recognised(quote: str, kind: str) -> None:
    assert label_kind(quote) == kind


@pytest.mark.parametrize("quote", [
    "This Agreement shall be binding upon the successors and assigns of the parties.",
    "IN NO EVENT WILL EITHER PARTY BE LIABLE FOR CONSEQUENTIAL DAMAGES",
    "five (5) years from the Effective Date",
    "Successors and Assigns. This Agreement binds the successors of each party.",
    '"Confidential Information" means any information disclosed by a party',
    "THE SOFTWARE IS PROVIDED AS IS",
    "El arrendatario deberá pagar la renta",
    "within thirty (30) days of the Order",
    "the Supplier and the Client",
    "(b) lend money to any third party",
    "(the Territory)",
    # disclaimers in capitals are statements (2026-12-02, fifth session: were read as headings)
    "PSF MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED.",
    "LICENSOR DISCLAIMS ALL WARRANTIES",
    "Company Makes No Representations",
])
def test_statements_and_fragments_with_facts_are_not_labels(quote: str) -> None:
    assert label_kind(quote) is None


TEXT = (
    "15.7 Successors and Assigns. This Agreement shall be binding upon and inure to the benefit of the "
    "parties and their respective successors and permitted assigns.\n"
    '1.3 "Confidential Information" means any non-public information disclosed by a party.'
)


def _verify(*claims: tuple[str, list[str]]):
    chunk = Chunk(chunk_id="c0", doc_id="d/x.txt", path="/x.txt", page=1, start=0, end=len(TEXT), text=TEXT)
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": t, "citations": [{"chunk_id": "c0", "quote": q} for q in qs]} for t, qs in claims],
    })
    return verify_claims(answer, {"c0": chunk})


def test_a_claim_whose_only_quote_is_a_heading_is_removed_with_its_reason() -> None:
    claims, rejected = _verify(
        ("The agreement binds the parties' successors and assigns.", ["15.7 Successors and Assigns."]),
        ("Confidential information is defined in the agreement.", ['"Confidential Information" means']),
    )
    assert claims == []
    assert [r.reason for r in rejected] == [RejectReason.heading_only, RejectReason.heading_only]
    assert "heading" in rejected[0].detail and "defined term" in rejected[1].detail


def test_a_heading_beside_a_quote_that_states_the_clause_is_kept() -> None:
    claims, rejected = _verify(
        ("Under Section 15.7 the agreement binds the parties' successors and permitted assigns.",
         ["15.7 Successors and Assigns.",
          "This Agreement shall be binding upon and inure to the benefit of the parties and their respective "
          "successors and permitted assigns"]),
    )
    assert rejected == []
    [claim] = claims
    assert len(claim.citations) == 2  # the heading stays: it carries the clause number 15.7


def test_the_quote_limit_fits_real_clauses_and_the_model_is_told() -> None:
    """Issue #21: a negation before a colon and its list item did not fit in 300 characters."""
    from core.prompts import SYSTEM_PROMPT
    from core.types import QUOTE_MAX_CHARS, ModelCitation, answer_schema

    assert QUOTE_MAX_CHARS == 600
    schema = answer_schema(["c0"])
    assert schema["$defs"]["ModelCitation"]["properties"]["quote"]["maxLength"] == 600
    assert "600" in schema["$defs"]["ModelCitation"]["properties"]["quote"]["description"]
    assert "at most 600 characters" in SYSTEM_PROMPT
    clause = ("The Receiving Party shall not: (a) disclose the Confidential Information to any third party; "
              "(b) use it for any purpose other than the Purpose; (c) confirm that any investigations, "
              "discussions or negotiations are taking place concerning the Purpose; ") * 2
    assert 300 < len(clause) <= 600
    assert ModelCitation(chunk_id="c0", quote=clause).quote == clause
    with pytest.raises(ValueError):
        ModelCitation(chunk_id="c0", quote="x" * 601)
