"""Polarity check (funnel step 5): a claim that negates its quote, or the reverse, is removed."""

from __future__ import annotations

import re

import pytest

from core.ingest import iter_files, parse_file
from core.polarity import check_polarity, polarity_mismatch
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


# --- issue #21: negation scope in legal drafting -------------------------------------------------

RECEIVING_LEAD_IN = "the Receiving Party shall not:"
CONSENT_LEAD_IN = ("During the Term and for two (2) years thereafter, the Consultant shall not, without the Company's "
                   "prior written consent:")
CONSENT_ITEM = "(b) hire any employee of the Company; or"
RECEIVING_ITEM = "(c) confirm that any investigations, discussions or negotiations are taking place concerning the Transaction;"


@pytest.mark.parametrize(
    ("claim", "quotes"),
    [
        # the four faithful claims the former check removed (issue #21)
        ("Neither party is liable to the other for any special, incidental or consequential damages.",
         ["IN NO EVENT WILL EITHER PARTY BE LIABLE TO THE OTHER FOR ANY SPECIAL, INCIDENTAL OR CONSEQUENTIAL DAMAGES"]),
        ("Neither Party may assign the Agreement without the other Party's prior written consent.",
         ["neither Party may assign this Agreement without the prior written consent of the other"]),
        ("The Receiving Party shall not confirm that any negotiations are taking place.",
         [RECEIVING_LEAD_IN, RECEIVING_ITEM]),
        ("The Agreement does not grant either party any rights in the other party's Confidential Information.",
         ["nor shall this Agreement grant any party any rights in or to the Confidential Information"]),
        # "X shall not ... without Y's consent" == "X needs Y's consent"; "not less than" == "at least";
        # "no later than" is a deadline; "no party may" == "a party may not"
        ("Each Party needs the other Party's prior written consent to assign the Agreement.",
         ["neither Party may assign this Agreement without the prior written consent of the other"]),
        ("The Supplier must give at least 30 days' notice.", ["the Supplier shall give not less than thirty (30) days' notice"]),
        ("Payment is due within 30 days of the invoice.",
         ["payment shall be made no later than thirty (30) days after the invoice date"]),
        ("The rent is payable no later than day 5.", ["The rent is payable on day 5 of each month"]),
        ("A party may not assign the contract.", ["No party may assign this contract."]),
        ("Amendments require a written instrument signed by both parties.",
         ["This Agreement shall not be amended except by a written instrument signed by both parties."]),
        # Spanish, written for these tests
        ("El arrendatario necesita el consentimiento del arrendador para ceder el contrato.",
         ["El arrendatario no podrá ceder el contrato sin el consentimiento previo y por escrito del arrendador."]),
        ("El proveedor no es responsable de los daños indirectos.",
         ["En ningún caso el proveedor será responsable de los daños indirectos o consecuenciales."]),
        ("Ninguna de las partes podrá resolver el contrato durante el primer año.",
         ["Ni el arrendador ni el arrendatario podrán resolver el contrato durante el primer año."]),
        ("El preaviso será de al menos treinta días.", ["El preaviso no será inferior a treinta días."]),
        ("El pago se hará como máximo a los treinta días.", ["El pago se hará no más tarde de treinta días desde la factura."]),
        ("Queda prohibida la cesión del contrato sin consentimiento del arrendador.",
         ["El arrendatario no podrá ceder el contrato sin el consentimiento del arrendador."]),
        ("Sin la conformidad del cliente, el proveedor no podrá modificar el servicio.",
         ["El proveedor no podrá introducir modificaciones en el servicio sin la conformidad expresa del cliente."]),
        ("La garantía no cubre los daños por uso indebido.",
         ["Quedan excluidos de la garantía los daños causados por un uso indebido del producto."]),
        # bans, permissions, bounds and exclusions restated
        ("Reverse engineering, decompiling and disassembling the Software are prohibited.",
         ["Licensee shall not reverse engineer, decompile or disassemble the Software."]),
        ("Assignment of this Agreement is not permitted without the other party's consent.",
         ["Neither party may assign this Agreement without the consent of the other party."]),
        ("The Supplier's total liability will not exceed the fees paid in the prior twelve months.",
         ["In no event shall Supplier's aggregate liability arising out of this Agreement exceed the fees paid by "
          "Customer in the twelve (12) months preceding the claim."]),
        ("The Seller disclaims any implied warranty of merchantability.",
         ["The Seller makes no warranty, express or implied, regarding merchantability."]),
        ("Only the Licensee may use the Software.", ["No person other than the Licensee shall use the Software."]),
        # a lead-in "shall not, without consent:" makes its list items conditional
        ("Hiring Company employees during the Term requires the Company's prior written consent.",
         [CONSENT_LEAD_IN, CONSENT_ITEM]),
        ("The Licensee may not sublicense the Software without Licensor's prior written approval.",
         ["Licensee shall not, without the prior written approval of Licensor, sublicense the Software."]),
        ("El arrendatario está obligado a pagar la renta antes del día cinco.",
         ["El arrendatario pagará la renta no más tarde del día cinco de cada mes."]),
        ("The Seller may suspend deliveries if the Buyer fails to pay within 30 days.",
         ["If the Buyer does not pay within thirty (30) days, the Seller may suspend deliveries."]),
    ],
)
def test_faithful_legal_negations_are_kept(claim: str, quotes: list[str]) -> None:
    verdict = check_polarity(claim, quotes)
    assert verdict.outcome == "agree", verdict


@pytest.mark.parametrize(
    ("claim", "quotes"),
    [
        ("Either party is liable to the other for special, incidental or consequential damages.",
         ["IN NO EVENT WILL EITHER PARTY BE LIABLE TO THE OTHER FOR ANY SPECIAL, INCIDENTAL OR CONSEQUENTIAL DAMAGES"]),
        ("Either Party may assign the Agreement without the other Party's consent.",
         ["neither Party may assign this Agreement without the prior written consent of the other"]),
        ("The Receiving Party may confirm that negotiations are taking place.", [RECEIVING_LEAD_IN, RECEIVING_ITEM]),
        ("The Agreement grants each party rights in the other party's Confidential Information.",
         ["nor shall this Agreement grant any party any rights in or to the Confidential Information"]),
        ("The Supplier may give less than 30 days' notice.", ["the Supplier shall give not less than thirty (30) days' notice"]),
        ("Payment is due later than 30 days after the invoice.",
         ["payment shall be made no later than thirty (30) days after the invoice date"]),
        ("A person who is not a party may enforce the terms of this Agreement.",
         ["a person who is not a party to this Agreement may not enforce any of its terms"]),
        ("El arrendatario podrá ceder el contrato sin el consentimiento del arrendador.",
         ["El arrendatario no podrá ceder el contrato sin el consentimiento previo y por escrito del arrendador."]),
        ("El proveedor será responsable de los daños indirectos.",
         ["En ningún caso el proveedor será responsable de los daños indirectos o consecuenciales."]),
        ("Cualquiera de las partes podrá resolver el contrato durante el primer año.",
         ["Ni el arrendador ni el arrendatario podrán resolver el contrato durante el primer año."]),
        ("El preaviso podrá ser inferior a treinta días.", ["El preaviso no será inferior a treinta días."]),
        ("El trabajador tiene derecho a indemnización en caso de baja voluntaria.",
         ["En caso de baja voluntaria, el trabajador no tendrá derecho a indemnización alguna."]),
        ("The Supplier's total liability may exceed the fees paid in the prior twelve months.",
         ["In no event shall Supplier's aggregate liability arising out of this Agreement exceed the fees paid by "
          "Customer in the twelve (12) months preceding the claim."]),
        ("Licensee may reverse engineer the Software.",
         ["Licensee shall not reverse engineer, decompile or disassemble the Software."]),
        ("Any person other than the Licensee may use the Software.",
         ["No person other than the Licensee shall use the Software."]),
        ("The Consultant may hire Company employees during the Term.", [CONSENT_LEAD_IN, CONSENT_ITEM]),
    ],
)
def test_flipped_legal_negations_are_removed(claim: str, quotes: list[str]) -> None:
    verdict = check_polarity(claim, quotes)
    assert verdict.outcome == "contradict", verdict
    assert polarity_mismatch(claim, quotes) == verdict.reason


@pytest.mark.parametrize(
    ("claim", "quotes"),
    [
        # 2026-12-02, a deliberately changed decision (these were removed before): a flip that is not
        # on the predicate -- with <-> without consent where the quote's verb differs, roles swapped
        # across an exception -- is warned, not removed. The removal policy is the one chosen by
        # leave-one-contract-out cross-validation (bench/support.py --cv, bench/README.md): removal
        # evidence off the predicate added false removals on held-out contracts and caught nothing more.
        ("The Licensor may not sublicense the Software without the consent of the Licensee.",
         ["The Licensee shall not sublicense the Software without the consent of the Licensor."]),
        ("El arrendador no podrá ceder el contrato sin el consentimiento del arrendatario.",
         ["El arrendatario no podrá ceder el contrato sin el consentimiento del arrendador."]),
        # a restatement by a word of opposite meaning: the check cannot tell it from a flip
        ("The Parties must keep the terms of this Agreement confidential.",
         ["Neither Party shall disclose the terms of this Agreement to any third party"]),
        ("The licence survives the termination of this Agreement.",
         ["the licence shall not terminate upon the termination of this Agreement"]),
        # only an argument noun conflicts, the predicates differ: a restatement looks like this
        ("Each party bears its own costs.",
         ["Neither party shall be entitled to recover its costs from the other party."]),
    ],
)
def test_undecidable_restatements_are_warned_not_removed(claim: str, quotes: list[str]) -> None:
    verdict = check_polarity(claim, quotes)
    assert verdict.outcome == "unsure", verdict
    assert polarity_mismatch(claim, quotes) is None


def test_unsure_claim_is_kept_with_a_visible_warning() -> None:
    from core.cli import format_answer
    from core.types import Answer, Trace, WarningReason

    text = ("12. Confidentiality. Neither Party shall disclose the terms of this Agreement to any third party. "
            "Neither Party may assign this Agreement without the prior written consent of the other.")
    chunk = Chunk(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, start=0, end=len(text), text=text)
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [
            {"text": "The Parties must keep the terms of this Agreement confidential.",
             "citations": [{"chunk_id": "d#p1-c0",
                            "quote": "Neither Party shall disclose the terms of this Agreement to any third party"}]},
            {"text": "Each Party needs the other's prior written consent to assign this Agreement.",
             "citations": [{"chunk_id": "d#p1-c0", "quote": "Neither Party may assign this Agreement without the "
                                                             "prior written consent of the other"}]},
        ],
    })
    claims, rejected = verify_claims(answer, {chunk.chunk_id: chunk})
    assert rejected == []
    assert claims[0].warning is not None and claims[0].warning.reason == WarningReason.polarity_unsure
    assert "terms" in claims[0].warning.detail
    assert claims[1].warning is None
    # without the polarity check nothing is judged, so nothing is warned
    claims_off, _ = verify_claims(answer, {chunk.chunk_id: chunk}, check_polarity=False)
    assert [c.warning for c in claims_off] == [None, None]
    shown = format_answer(Answer(question="q", workspace="w", status="answered", claims=claims, trace=Trace()))
    lines = shown.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("The Parties must keep")))
    assert lines[at + 1].startswith("    \u26a0 check the quote: the sentence may state the opposite of it")
    assert not lines[at + 2].startswith("    \u26a0")


# --- 2026-12-02: the decision policy chosen by leave-one-contract-out cross-validation ------------

def test_two_conflicts_off_the_predicate_are_warned_not_removed() -> None:
    """Two negated words that are not the predicate ("other", "commingled") are how restatements
    look on held-out contracts: the shipped policy warns; the rule of 2026-12-01 removed."""
    from core.polarity import Policy, decide
    from core.polarity.compare import compare

    claim = "The Agent must keep the Client's money in a segregated account, away from any other person's money."
    quotes = ("The Agent shall not commingle the Client's money with the money of any other person.",)
    c = compare(claim, quotes)
    assert c.headed == 0 and len(c.strong) >= 2
    assert decide(c, Policy("predicate_or_two", "any", False)).outcome == "contradict"
    assert check_polarity(claim, list(quotes)).outcome == "unsure"


def test_a_negation_on_the_same_predicate_is_removed_by_every_policy() -> None:
    """"may not assign" vs "may assign": the predicate itself flips -- the high-precision evidence
    every policy in the cross-validated family removes on."""
    from core.polarity import POLICIES, decide
    from core.polarity.compare import compare

    c = compare("The Distributor may assign this Agreement.", ("The Distributor may not assign this Agreement.",))
    assert c.aligned >= 1
    assert {decide(c, p).outcome for p in POLICIES} == {"contradict"}


def test_policy_switches_change_only_what_they_name() -> None:
    from core.polarity import Policy, decide
    from core.polarity.compare import compare

    swap = compare("The Licensor may not sublicense the Software without the consent of the Licensee.",
                   ("The Licensee shall not sublicense the Software without the consent of the Licensor.",))
    assert swap.swapped
    assert decide(swap, Policy("predicate", "any", structural=True)).outcome == "contradict"
    assert decide(swap, Policy("predicate", "any", structural=False)).outcome == "unsure"
    assert decide(swap, Policy("predicate", "none", structural=False)).outcome == "agree"


def test_features_are_named_and_bounded() -> None:
    from core.polarity.compare import FEATURES, compare, features

    values = features(compare("The fee is not refundable.", ("The fee shall be refundable in full.",)))
    assert len(values) == len(FEATURES)
    assert all(0.0 <= v <= 3.0 for v in values)


def test_a_rule_flipped_around_a_kept_exception_is_removed() -> None:
    """"X shall not V unless Y" against "X shall V unless Y": no word changes polarity outside the
    exception, yet the rule is reversed. Warned by the policy of 2026-12-02 (second session); removed
    by the policy the cross-validation chose after the reader's changes of 2026-12-02 (third session:
    ``cond_remove``, 10 of 15 folds; the other 5 warn), never silent."""
    from core.polarity import Policy, decide
    from core.polarity.compare import compare

    claim = "The Distributor shall not buy the Products unless the order exceeds the Cap."
    quote = "The Distributor shall buy the Products unless the order exceeds the Cap."
    assert check_polarity(claim, [quote]).outcome == "contradict"
    assert decide(compare(claim, (quote,)), Policy("predicate", "any", False, cond_flips=True)).outcome == "unsure"
    assert decide(compare(claim, (quote,)), Policy("predicate", "any", False, cond_flips=False)).outcome == "agree"
    same = check_polarity("The Distributor must buy the Products unless the order exceeds the Cap.",
                          ["The Distributor shall be obliged to buy the Products unless the order exceeds the Cap."])
    assert same.outcome == "agree", same
