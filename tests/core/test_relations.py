"""Contradictions without a negation (issue #21): rate periods, duration anchors, opposite words,
swapped roles (core.fact_context through core.facts, core.relations, and the verifier's funnel)."""

from __future__ import annotations

import pytest

from core.facts import check_facts, facts_of
from core.relations import check_relations
from core.types import Chunk, ModelAnswer, RejectReason
from core.verify import verify_claims

INTEREST = "Late payments shall accrue interest at a rate of one and a half percent (1.5%) per month until paid in full."
NOTICE = "Notice shall be given no later than thirty (30) days prior to the Effective Date."


@pytest.mark.parametrize(("claim", "quote"), [
    ("Interest accrues at 1.5% per annum.", INTEREST),
    ("Interest accrues at 1.5 % a year.", INTEREST),
    ("Interest is 1.5% annually.", INTEREST),
    ("The fee is $2,000 per year.", "Client shall pay a monthly fee of $2,000 within thirty days of each invoice."),
    ("La renta es de 1.200 euros anuales.", "La renta mensual será de mil doscientos euros (1.200 €)."),
    ("El interés es del 5 % mensual.", "un interés del cinco por ciento (5 %) anual"),
    ("Notice is given 30 days after the Effective Date.", NOTICE),
    ("Notice is given thirty days following the Effective Date.", NOTICE),
    ("El aviso se da 15 días después de la firma.", "con una antelación de quince (15) días antes de la firma"),
    ("The fee is $250 per day.", "an hourly rate of two hundred fifty dollars ($250)"),
    ("The fee is 2,000 USD.", "a fee of 2,000 Canadian dollars"),  # a Canadian dollar is no US dollar
])
def test_a_different_period_or_anchor_is_missing(claim: str, quote: str) -> None:
    assert check_facts(claim, [quote]).missing


@pytest.mark.parametrize(("claim", "quote"), [
    ("Interest accrues at 1.5% per month.", INTEREST),
    ("Interest accrues at 1.5 % a month.", INTEREST),
    ("Interest accrues at a monthly rate of 1.5%.", INTEREST),
    ("Interest accrues at 1.5%.", INTEREST),  # the period left out: less detail, no contradiction
    ("Interest accrues at 1.5% per month.", "interest at one and a half percent (1.5%)"),  # the quote states none
    ("The fee is $2,000 per month.", "Client shall pay a monthly fee of $2,000 within thirty days of each invoice."),
    ("The fee is 2,000 dollars monthly.", "a fee of 2,000 dollars per month"),
    ("La renta es de 1.200 euros al mes.", "La renta mensual será de mil doscientos euros (1.200 €)."),
    ("Notice is given 30 days before the Effective Date.", NOTICE),
    ("Notice is given at least 30 days preceding the Effective Date.", NOTICE),
    ("Notice is due within 30 days of the Effective Date.", NOTICE),  # "of": no anchor
    ("Licensee may terminate 30 days after giving notice.", "Licensee may terminate on thirty (30) days' prior written notice."),
    ("Payment is due 30 days from invoice.", "Payment is due thirty (30) days after the invoice date."),
    ("El aviso se da 15 días antes de la firma.", "con quince (15) días de antelación a la firma"),
    ("The fee is $250 per hour.", "an hourly rate of two hundred fifty dollars ($250)"),
    ("The fee is 2,000 USD.", "a fee of two thousand U.S. dollars"),
    ("The fee is $2,000.", "2,000 United States dollars"),
])
def test_the_same_period_or_anchor_in_other_words_is_found(claim: str, quote: str) -> None:
    assert not check_facts(claim, [quote]).missing


def test_period_and_anchor_are_read_beside_the_number() -> None:
    """"biweekly" is no period (twice a week or every two weeks); "before or after" is no anchor."""
    [fee] = [f for f in facts_of("a fee of $500 biweekly", "en") if f.kind == "money"]
    assert fee.period == ""
    [days] = [f for f in facts_of("30 days before or after the Closing", "en") if f.kind == "duration"]
    assert days.anchor == ""
    [rate] = [f for f in facts_of("18% p.a.", "en") if f.kind == "percent"]
    assert rate.period == "year"


@pytest.mark.parametrize(("claim", "quote"), [
    ("The price will decrease by 5% each year.", "The price shall increase by five percent (5%) each year."),
    ("The minimum order is 100 units.", "The maximum order quantity is 100 units."),
    ("The royalty is 5% of gross sales.", "Licensee shall pay a royalty of five percent (5%) of Net Sales."),
    ("The Agreement automatically renews at the end of the Initial Term.",
     "This Agreement shall automatically terminate at the end of the Initial Term."),
    ("Rent is due on the first day of each month.", "Rent is payable on the last day of each month."),
    ("Purchaser pays the later of the two amounts.", "Purchaser shall pay the earlier of the two amounts."),
    ("Claims arising after the Closing are excluded.", "Claims arising prior to the Closing are excluded."),
    ("Buyer shall pay Seller the Purchase Price.", "Seller shall pay Buyer the Purchase Price at Closing."),
    ("Licensee indemnifies Licensor against third-party claims.", "Licensor shall indemnify Licensee against third-party claims."),
    ("La renta se reducirá un 3 % cada año.", "La renta se incrementará un 3 % cada año."),
    ("El arrendador pagará la renta.", "El arrendatario pagará la renta mensual."),
    ("PCQ shall pay ABW the monthly fee.", "ABW shall pay PCQ the monthly fee within 30 days."),
    ("Dynamex shall provide the services to Purolator.", "Purolator shall provide the services to Dynamex in Canada."),
    ("The Term ends on January 1, 2025.", "The Term shall commence on January 1, 2025."),
    ("Prices are exclusive of VAT.", "All prices are inclusive of VAT."),
    ("Rent is paid monthly in arrears.", "Rent shall be paid monthly in advance."),
    ("The Receiving Party shall return the materials.", "The Disclosing Party shall return the materials upon request."),
])
def test_opposite_words_and_swapped_roles_contradict(claim: str, quote: str) -> None:
    verdict = check_relations(claim, [quote])
    assert verdict.outcome == "contradict" and verdict.reason


@pytest.mark.parametrize(("claim", "quote"), [
    ("The price will go up by 5% each year.", "The price shall increase by five percent (5%) each year."),
    ("The price rises by 5% each year.", "The price shall increase by five percent (5%) each year."),
    ("Closing happens after the approval.", "The approval shall be obtained before Closing."),  # converse
    ("Licensee may terminate after written notice.", "Licensee may terminate upon prior written notice to Licensor."),
    ("The Agreement terminates at the end of the term unless renewed.",
     "This Agreement shall expire at the end of the Term unless renewed by mutual agreement."),
    ("The Agreement renews automatically unless a party gives notice.",
     "This Agreement shall automatically renew unless either party gives notice of non-renewal."),
    ("Payment is due no later than the earlier date.", "Payment is due not later than the earlier of the two dates."),
    ("The license is not exclusive.", "Licensor grants a non-exclusive license."),
    ("Each of Buyer and Seller pays its own costs.", "Each of Buyer and Seller shall pay its own costs."),
    ("Buyer shall bear its own costs.", "Each of Buyer and Seller shall bear its own costs."),
    ("Seller shall be paid by Buyer.", "Buyer shall pay Seller the Purchase Price."),  # passive
    ("The Seller's obligations end at Closing.", "The Buyer's obligations end at Closing and the Seller's too."),
    ("The parties shall comply with the following terms.", "The parties shall comply with the terms set out below."),
    ("The Company shall reimburse the Consultant for travel expenses.",
     "The Company shall reimburse Consultant for all reasonable travel expenses."),
    ("Licensee shall pay the annual fee.", "The annual fee shall be borne by Licensee; Licensor shall pay all taxes."),
    ("PCQ shall pay the monthly fee.", "ABW shall pay the setup fee and PCQ shall pay the monthly fee."),
    ("The licence is exclusive.", "Licensor grants an exclusive licence, inclusive of updates."),
    ("Buyer may reject non-conforming goods.", "Buyer shall not be deemed to have accepted non-conforming goods."),
    ("Licensee pays the filing costs.",
     "Licensee shall, at its own expense, pay the filing costs; Licensor shall pay the maintenance costs."),
    ("Licensee pays the patent costs.", "Licensor shall pay the maintenance costs and Licensee the patent costs."),
])

def test_faithful_restatements_are_not_read_as_opposites(claim: str, quote: str) -> None:
    assert check_relations(claim, [quote]).outcome == "agree"


def test_opposites_are_removed_in_the_funnel() -> None:
    """Through verify_claims on a real chunk: the decrease claim and the per-annum claim are removed
    (polarity_mismatch and fact_not_in_quote), the faithful one is kept."""
    text = "7.2 The price shall increase by five percent (5%) each year. " + INTEREST
    chunk = Chunk(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, start=0, end=len(text), text=text)
    quote = "The price shall increase by five percent (5%) each year."
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [
            {"text": "The price will decrease by 5% each year.", "citations": [{"chunk_id": "d#p1-c0", "quote": quote}]},
            {"text": "Late payments accrue interest at 1.5% per annum.", "citations": [{"chunk_id": "d#p1-c0", "quote": INTEREST}]},
            {"text": "The price rises by 5% every year.", "citations": [{"chunk_id": "d#p1-c0", "quote": quote}]},
        ],
    })
    claims, rejected = verify_claims(answer, {chunk.chunk_id: chunk})
    assert [c.text for c in claims] == ["The price rises by 5% every year."]
    assert [r.reason for r in rejected] == [RejectReason.polarity_mismatch, RejectReason.fact_not_in_quote]
    assert "decrease" in rejected[0].detail and "per year" in rejected[1].detail


def test_a_sentence_citing_itself_keeps_its_numbers() -> None:
    """"thirty second" is read as 30 in a claim; the same words in a quote offer that reading too
    (before, only "32nd": the sentence citing itself was removed)."""
    text = "Cano shall be identified as the lead sponsor, by having a thirty second lead-in promotion."
    assert not check_facts(text, [text]).missing


@pytest.mark.parametrize(("claim", "quote", "missing"), [
    # the converse (the events swapped) says the same: found (review, 2026-12-02)
    ("The Effective Date falls at least 30 days after the notice.", NOTICE, False),
    ("Notice must be given at least 30 days before the Effective Date.",
     "The Effective Date shall be no earlier than thirty (30) days after notice is given.", False),
    ("The delivery date is 30 days after the invoice date.",
     "The invoice date shall be thirty (30) days prior to the date of delivery.", False),
    # the same event with the other anchor stays a contradiction, "the date of" or not
    ("Notice is given 30 days after the Effective Date.", NOTICE, True),
    ("Payment is due 30 days before the date of invoice.", "Payment is due thirty (30) days after invoice.", True),
    ("Payment is due 30 days before.", "Payment is due thirty (30) days after invoice.", True),  # no event: strict
])
def test_an_anchor_conflicts_only_on_the_same_event(claim: str, quote: str, missing: bool) -> None:
    assert bool(check_facts(claim, [quote]).missing) is missing


def test_the_anchor_reader_is_linear_in_white_space() -> None:
    """Three optional white-space runs in a row made the anchor pattern cubic on a long blank run
    (20,000 spaces did not end in a minute); the same forms are still read."""
    import time

    from core.fact_context import anchor_of

    start = time.perf_counter()
    assert anchor_of(" " * 20000 + "x", 0) == ""
    assert time.perf_counter() - start < 2.0
    assert anchor_of("30) - business days prior to", 2) == "before"
    assert anchor_of("30 -days after", 2) == "after"


def test_a_period_before_a_colon_is_read() -> None:
    """"Monthly Fee: $2,000" (a schedule's line): the colon right after the noun hid the period, and
    "The fee is $2,000 per year" citing it was kept (review, 2026-12-02)."""
    assert check_facts("The fee is $2,000 per year.", ["MONTHLY FEE: $2,000"]).missing
    assert not check_facts("The fee is $2,000 per year.", ["Annual Fee:\n$2,000"]).missing
    assert not check_facts("The fee is $2,000 per month.", ["Monthly Fee: $2,000"]).missing


@pytest.mark.parametrize(("claim", "quote", "outcome"), [
    # "gross X less Y" is the net amount (review, 2026-12-02: these faithful claims were removed)
    ("Royalties are 5% of net sales.", "Licensee shall pay 5% of gross sales less returns, discounts and taxes.", "agree"),
    ("The net amount is paid after deduction of taxes.", "The gross amount less taxes shall be paid.", "agree"),
    ("Royalties are 5% of gross sales minus returns.", "Licensee shall pay 5% of net sales.", "agree"),
    ("La regalía es el 5 % de las ventas netas.", "La regalía será el 5 % de las ventas brutas menos devoluciones.", "agree"),
    # without a deduction gross and net still oppose
    ("Royalties are 5% of gross sales.", "Licensee shall pay 5% of net sales.", "contradict"),
    ("Royalties are 5% of net sales.", "Licensee shall pay 5% of gross sales.", "contradict"),
])
def test_gross_less_a_deduction_is_net(claim: str, quote: str, outcome: str) -> None:
    assert check_relations(claim, [quote]).outcome == outcome


@pytest.mark.parametrize(("claim", "quote", "outcome"), [
    # a term has a beginning and an end: the subject alone does not line "begins" up with "shall end"
    # (review, 2026-12-02: these faithful claims were removed as opposites)
    ("The term begins on the Effective Date and lasts 3 years.", "The Term shall end three years after the Effective Date.",
     "agree"),
    ("The Agreement commences on the Effective Date.", "This Agreement shall terminate five years after the Effective Date.",
     "agree"),
    ("The Term starts when the Agreement is signed.", "The Term shall expire five years after the Agreement is signed.",
     "agree"),
    # on the same moment they still oppose
    ("The Term begins at Closing.", "The Term shall end at Closing.", "contradict"),
    ("El plazo comienza con la firma.", "El plazo vence con la firma.", "contradict"),
    # as nouns the word before them still lines them up
    ("The restriction lasts six months from the effective date of commencement.",
     "The restriction lasts six (6) months from the effective date of termination.", "contradict"),
])
def test_begin_and_end_line_up_on_what_follows(claim: str, quote: str, outcome: str) -> None:
    assert check_relations(claim, [quote]).outcome == outcome


@pytest.mark.parametrize(("claim", "quote", "outcome"), [
    # the quote gives the act to the claim's actor in the passive: no swap, though the other role acts on a
    # like object in the next clause (review, 2026-12-02: these faithful claims were removed)
    ("Tenant pays the rent.", "The rent shall be paid by Tenant monthly; Landlord shall pay the taxes on the rent.", "agree"),
    ("The Receiving Party shall protect the Confidential Information.",
     "Confidential Information shall be protected by the Receiving Party. The Disclosing Party shall protect its own "
     "Confidential Information.", "agree"),
    ("El arrendatario pagará la renta.",
     "La renta será pagada por el arrendatario; el arrendador pagará el impuesto sobre la renta.", "agree"),
    # an agent of another act is no alibi
    ("Seller pays the price.", "The goods shall be delivered by Seller; Buyer shall pay the price.", "contradict"),
])
def test_a_passive_agent_acts(claim: str, quote: str, outcome: str) -> None:
    assert check_relations(claim, [quote]).outcome == outcome


def test_an_event_in_other_words_is_the_same_event() -> None:
    """"expiry" and "expiration" name one event (Snowball stems "expiri" / "expir"): the other anchor contradicts."""
    assert check_facts("Notice is given 30 days before expiry.",
                       ["Notice shall be given thirty (30) days after the expiration of the Term."]).missing
