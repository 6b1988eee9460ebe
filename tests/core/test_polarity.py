"""Polarity check (funnel step 5): a claim that negates its quote, or the reverse, is removed."""

from __future__ import annotations

import re

import pytest

from core.ingest import iter_files, parse_file
from core.polarity import polarity_mismatch
from core.types import Chunk, ModelAnswer, RejectReason
from core.verify import verify_claims
from tests.conftest import LAB


@pytest.mark.parametrize(
    ("claim", "quote", "word"),
    [
        ("The deposit is not refundable.", "The deposit is refundable", "refundable"),
        ("The deposit is refundable.", "The deposit is non-refundable", "refundable"),
        ("The clause is unenforceable.", "The clause is enforceable in every member state", "unenforceable"),
        ("The Provider is liable for gross negligence.", "The Provider shall not be liable for gross negligence",
         "liable"),
        ("The tenant may neither sublet nor assign the premises.", "The tenant may assign the lease with consent",
         "assign"),
        # "no deposit" negates the predicate, not the noun: the word named is now "required" (was "deposit")
        ("No deposit is required.", "A deposit of two months is required", "required"),
        ("The fee is never refunded.", "The fee is refunded within 30 days", "refunded"),
        ("La fianza no se devolverá.", "La fianza se devolverá en el plazo de 30 días", "devolverá"),
        ("El contrato es válido.", "El contrato es inválido desde su firma", "válido"),
        ("The landlord can't enter the flat.", "The landlord can enter the flat with notice", "enter"),
        ("Las mascotas están permitidas.", "No están permitidas las mascotas en la vivienda", "permitidas"),
    ],
)
def test_negation_flipped_between_claim_and_quote_is_found(claim: str, quote: str, word: str) -> None:
    reason = polarity_mismatch(claim, [quote])
    assert reason is not None and f"'{word}'" in reason


@pytest.mark.parametrize(
    ("claim", "quotes"),
    [
        ("Pets are not allowed in the apartment.", ["Pets are not allowed in the apartment."]),
        ("The rent is payable no later than day 5.", ["The rent is payable on day 5 of each month"]),
        ("The tenant may terminate without cause.", ["El arrendatario podrá resolver sin causa"]),
        ("The deposit is refundable but the fee is not.", ["The deposit is refundable; the fee is not refundable"]),
        ("Lease amendment No. 2 sets the rent.", ["Lease amendment No. 2: the monthly rent is 1,350 euros"]),
        ("The services include, without limitation, hosting.", ["the services include hosting and support"]),
        ("The penalty is three months' rent.", ["la penalización será de tres mensualidades de renta"]),
        # one quote negates, another agrees: the claim is supported by the one that agrees
        ("Subletting is not permitted.", ["Subletting is permitted only in the summer", "Subletting is not permitted"]),
    ],
)
def test_agreeing_or_unrelated_negations_are_kept(claim: str, quotes: list[str]) -> None:
    assert polarity_mismatch(claim, quotes) is None


def test_polarity_mismatch_removes_the_claim_in_the_funnel() -> None:
    text = "Clause 9. The deposit is refundable at the end of the lease. Pets are not allowed."
    chunk = Chunk(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, start=0, end=len(text), text=text)
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [
            {"text": "The deposit is not refundable.",
             "citations": [{"chunk_id": "d#p1-c0", "quote": "The deposit is refundable at the end of the lease."}]},
            {"text": "Pets are not allowed.", "citations": [{"chunk_id": "d#p1-c0", "quote": "Pets are not allowed."}]},
        ],
    })
    claims, rejected = verify_claims(answer, {chunk.chunk_id: chunk})
    assert [c.text for c in claims] == ["Pets are not allowed."]
    assert [(r.reason, r.claim) for r in rejected] == [(RejectReason.polarity_mismatch, "The deposit is not refundable.")]
    assert "refundable" in rejected[0].detail
    claims, rejected = verify_claims(answer, {chunk.chunk_id: chunk}, check_polarity=False)
    assert len(claims) == 2 and not rejected


def test_no_false_removal_on_the_lab_sentences() -> None:
    """Every sentence of the lab's documents as a claim citing itself, and citing its whole page
    (other sentences may negate its words elsewhere): never a polarity mismatch."""
    pairs = []
    for path in iter_files(LAB / "corpus"):
        for page in parse_file(path).pages:
            pairs += [(s.strip(), page.text) for s in re.split(r"(?<=[.;:])\s+|\n", page.text) if len(s.strip()) > 20]
    assert len(pairs) > 40
    flagged = [s for s, page in pairs if polarity_mismatch(s, [s]) or polarity_mismatch(s, [page])]
    assert flagged == []
