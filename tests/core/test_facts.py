"""Facts check (funnel step 3): numbers, amounts, percentages, durations, dates, identifiers."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from core.facts import FactsCheck, check_facts, facts_of, missing_facts
from core.types import Chunk, ModelAnswer, RejectReason
from core.verify import verify_claims


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The Supplier must deliver within 30 days.", "deliver the goods within thirty (30) days of the Order"),
        ("The rate is 1.5%.", "un interés del 1,5 % anual"),
        ("The rate is 1,5 por ciento.", "an interest of 1.5 percent per year"),
        ("El plazo es de 14 días.", "en el plazo de catorce días naturales"),
        ("The period is 14 days.", "en el plazo de catorce días naturales"),
        ("The fee is €1,000.", "una tarifa de 1.000 euros"),
        ("The fee is EUR 1000.", "a fee of one thousand euros"),
        ("The annual amount is 1,250.00 EUR plus VAT.", "El importe anual asciende a 1\u202f250,00\u00a0€ más IVA."),
        ("Payment is due on March 1, 2024.", "el 1 de marzo de 2024"),
        ("Payment is due on 2024-03-01.", "on the first of March 2024"),
        ("Documentation is due by 15 March.", "antes del quince de marzo"),
        ("The warranty is 36 months.", "The warranty period for the Model K-40 pump is 36 months from commissioning."),
        ("The K-40 pump has a 36-month warranty.", "the Model K-40 pump is thirty-six (36) months"),
        ("Boards above twelve percent moisture may be rejected.", "moisture content exceeds twelve percent"),
        ("The notice period is ninety days.", "Either party may terminate with ninety days written notice."),
        ("La indemnización equivale a tres meses de renta.", "una indemnización equivalente a tres mensualidades de renta"),
        ("Part 01-2301-XKZ is withdrawn.", "part number 01\u00ad2301\u00adXKZ is withdrawn from sale"),
        ("The penalty is 5% of the monthly fee.", "The late payment penalty amounts to 5\u00a0% of the monthly fee."),
        ("Payment is due 30 calendar days after invoice.", "Payment is due within 30 days of the invoice date."),
        ("Quiet hours run from 20:00 to 08:00.", "Quiet hours are from 20:00 to 08:00."),
        ("One of the parties may terminate.", "Either party may terminate"),  # no fact stated
    ],
)
def test_facts_found_across_renderings(claim: str, quote: str) -> None:
    assert missing_facts(claim, [quote]) == []


@pytest.mark.parametrize(
    ("claim", "quote", "kind"),
    [
        ("The deadline is 60 days.", "within thirty (30) days", "duration"),
        ("The deadline is 30 weeks.", "within thirty (30) days", "duration"),
        ("The fee is $1,000.", "una tarifa de 1.000 euros", "money"),
        ("The rate is 2.5%.", "un interés del 1,5 % anual", "percent"),
        ("The rate is 1.5%.", "1.5 million euros", "percent"),
        ("Payment is due on 2 March 2024.", "no later than 1 March 2024", "date"),
        ("Payment is due in April 2024.", "no later than 1 March 2024", "date"),
        ("Order PO-2024-0071 covers pumps.", "order reference PO-2024-0017 covers valves", "ident"),
        ("Version v2.10 must not be installed.", "v2.1 must not be installed", "ident"),
        ("Route R3 was checked.", "Finding 1: invoices of route R1 were checked", "ident"),
        ("El plazo es de quince días.", "en el plazo de catorce días", "duration"),
        ("There are 3 impact levels.", "The potential impact is LOW, MODERATE or HIGH.", "number"),
    ],
)
def test_a_fact_not_in_the_quote_is_missing(claim: str, quote: str, kind: str) -> None:
    missing = missing_facts(claim, [quote])
    assert [f.kind for f in missing] == [kind]


def test_a_fact_may_come_from_any_of_the_quotes() -> None:
    claim = "Delivery is within 30 days and the penalty is 2%."
    quotes = ["deliver within thirty (30) days", "a penalty of 2 % per week of delay"]
    assert missing_facts(claim, quotes) == []
    assert [f.kind for f in missing_facts(claim, quotes[:1])] == ["percent"]


def test_ambiguous_thousands_carry_both_readings() -> None:
    [fact] = facts_of("1.000", "es")
    assert fact.values == {Decimal(1000), Decimal(1)}
    [fact] = facts_of("1,5", "es")
    assert fact.values == {Decimal("1.5")}
    [fact] = facts_of("1.000,50", "es")
    assert fact.values == {Decimal("1000.5")}


def test_numeric_date_reads_both_orders_when_ambiguous() -> None:
    [fact] = facts_of("03/04/2024", "en")
    assert fact.kind == "date" and fact.values == {(2024, 4, 3), (2024, 3, 4)} and fact.ambiguous
    [fact] = facts_of("25/04/2024", "en")
    assert fact.values == {(2024, 4, 25)}


# --- properties ------------------------------------------------------------------

_UNITS = {"en": ("days", "months", "years"), "es": ("días", "meses", "años")}


@settings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=4, max_value=999), lang=st.sampled_from(["en", "es"]), unit=st.integers(0, 2))
def test_digits_and_words_of_the_same_number_match(n: int, lang: str, unit: int) -> None:
    """A duration written in digits in the claim is found when the quote spells it (either language)."""
    words = num2words(n, lang=lang)
    claim = f"The period is {n} {_UNITS['en'][unit]}."
    quote = f"{words} {_UNITS[lang][unit]}"
    assert missing_facts(claim, [quote], "en") == [], (claim, quote)
    assert missing_facts(f"El plazo es de {words} {_UNITS['es'][unit]}.", [f"{n} {_UNITS['en'][unit]}"], "es") == [] or lang == "en"


@settings(max_examples=150, deadline=None)
@given(a=st.integers(min_value=0, max_value=10**7), b=st.integers(min_value=0, max_value=10**7),
       style=st.sampled_from(["{:,}", "{:_}", "{}"]))
def test_a_different_amount_never_matches(a: int, b: int, style: str) -> None:
    """Amounts written with English or Spanish grouping match iff they are the same amount."""
    claim_amount = style.format(a).replace("_", ".")  # "{:_}" renders Spanish grouping with dots
    quote_amount = "{:,}".format(b).replace(",", "\u202f")
    missing = missing_facts(f"The fee is EUR {claim_amount}.", [f"una tarifa de {quote_amount} €"], "en")
    assert (missing == []) == (a == b), (claim_amount, quote_amount)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=0, max_value=99), m=st.integers(min_value=0, max_value=9))
def test_percentages_match_with_either_decimal_mark(n: int, m: int) -> None:
    assert missing_facts(f"The rate is {n}.{m}%.", [f"un tipo del {n},{m} % anual"], "en") == []
    other = f"{n},{(m + 1) % 10}" if m != 9 else f"{n + 1},0"
    assert missing_facts(f"The rate is {n}.{m}%.", [f"un tipo del {other} % anual"], "en") != []


# --- in the funnel ----------------------------------------------------------------


def _chunk(cid: str, text: str) -> Chunk:
    return Chunk(chunk_id=cid, doc_id="d/x.txt", path="/x.txt", page=1, start=0, end=len(text), text=text)


def test_claim_with_a_fact_not_in_its_quote_is_removed_with_the_reason() -> None:
    text = "The Supplier shall deliver the goods within thirty (30) days of the Order."
    delivered = {"c0": _chunk("c0", text)}
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [
            {"text": "Delivery is due within 30 days.", "citations": [{"chunk_id": "c0", "quote": "deliver the goods within thirty (30) days"}]},
            {"text": "Delivery is due within 60 days.", "citations": [{"chunk_id": "c0", "quote": "deliver the goods within thirty (30) days"}]},
        ],
    })
    claims, rejected = verify_claims(answer, delivered)
    assert [c.text for c in claims] == ["Delivery is due within 30 days."]
    [r] = rejected
    assert r.reason is RejectReason.fact_not_in_quote
    assert r.claim == "Delivery is due within 60 days."
    assert "60" in r.detail and r.chunk_id == "c0"
    # the check can be switched off (e.g. to measure it)
    claims, rejected = verify_claims(answer, delivered, check_facts=False)
    assert len(claims) == 2 and rejected == []


def test_subdivision_letters_are_part_of_an_identifier() -> None:
    """Fresh-user tester, session 4 (case B09): "ART-12.3(b)" was found as "ART-12.3(a)"."""
    quote = ["ART-12.3(a) The Contractor shall submit weekly progress reports"]
    assert [f.text for f in missing_facts("ART-12.3(b) requires weekly progress reports.", quote)] == ["ART-12.3(b)"]
    assert missing_facts("ART-12.3(a) requires weekly progress reports.", quote) == []
    assert [f.text for f in missing_facts("Section 12.3(b) applies.", ["Section 12.3(a) applies here"])] == ["12.3(b)"]
    assert missing_facts("See 5(a)(ii).", ["as set out in 5(a)(ii) above"]) == []


# --- one amount written in different conventions (issue #14) ------------------------------------

_SAME = ["12480 euros", "12.480,00 €", "EUR 12,480", "€12,480.00", "12 480 EUR", "12.480 euros", "EUR 12480.-"]


@pytest.mark.parametrize("claim_amount", _SAME)
def test_one_amount_in_any_convention_is_the_same_fact(claim_amount: str) -> None:
    for quote_amount in _SAME:
        assert missing_facts(f"The rent is {claim_amount}.", [f"la renta es de {quote_amount}"], "en") == []
    for other in ["12,840 euros", "1.248,00 €", "EUR 124,80", "12.481,00 €", "USD 12,480"]:
        assert missing_facts(f"The rent is {claim_amount}.", [f"la renta es de {other}"], "en") != [], other


def test_bm25_gives_one_token_to_one_amount_in_any_convention() -> None:
    from core.textproc import number_tokens, tokenize, tokenize_query

    for written in _SAME[:4]:
        assert "12480" in tokenize(f"la renta es de {written}", "es"), written
    assert "12480" in tokenize_query("rent of EUR 12,480")
    assert "12840" not in tokenize("la renta es de 12.480,00 €", "es")
    assert number_tokens("1,5 % y 1.000,50 €") == ["1.5", "1000.5"]


def test_a_superscript_marker_is_never_part_of_the_number() -> None:
    """B37: "EUR 320¹" states 320; a claim of 3,201 is never found in it."""
    assert [f.kind for f in missing_facts("The fee is EUR 3,201.", ["the annual fee is EUR 320¹"], "en")] == ["money"]
    assert missing_facts("The fee is EUR 320.", ["the annual fee is EUR 320¹"], "en") == []
    assert missing_facts("Repairs start within 4 hours.", ["repairs start within 4³ hours"], "en") == []
    assert missing_facts("The flat has 85 m2.", ["un piso de 85 m² útiles"], "en") == []


# --- issue #21: facts in every written form ------------------------------------------


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        # ordinal and long-form dates
        ("The agreement was signed on January 5, 2015.", "entered into as of the 5th day of January, 2015"),
        ("The agreement was signed on January 5, 2015.", "this fifth day of January, two thousand fifteen"),
        ("The agreement was signed on January 5, 2015.", "firmado en Madrid, a 5 de enero de 2015"),
        ("The agreement was signed on January 5, 2015.", "En Madrid, el día cinco de enero de dos mil quince"),
        ("El contrato se firmó el 31 de mayo de 2024.", "a los treinta y un días del mes de mayo de dos mil veinticuatro"),
        ("The notice is dated 1 March 2024.", "dated 1-Mar-2024"),
        ("The notice is dated 1 March 2024.", "dated 2024/03/01"),
        # amounts in words, with thousands and cents
        ("The price is EUR 14,400.50.", "catorce mil cuatrocientos euros con cincuenta céntimos"),
        ("El precio es de 14.400,50 €.", "fourteen thousand four hundred euros and fifty cents"),
        ("The price is $14,400.50.", "Fourteen Thousand Four Hundred and 50/100 Dollars ($14,400.50)"),
        ("The fee is EUR 1,500,000.", "a fee of EUR 1.5 million"),
        ("La cuota es de 1.500.000 euros.", "una cuota de un millón quinientos mil euros"),
        ("The fee is 1500000 euros.", "1,5 millones de euros"),
        # ranges
        ("Notice must be given at least 30 days in advance.", "between 30 and 60 days prior written notice"),
        ("Notice must be given at least 30 days in advance.", "thirty (30) to sixty (60) days' notice"),
        ("El preaviso mínimo es de 30 días.", "con un preaviso de entre 30 y 60 días"),
        ("The discount is at least 5%.", "a discount of 5-10% on list prices"),
        ("The fee is at least EUR 10.", "a fee of EUR 5 to 10 per unit"),
        # the two bounds written out (2026-12-02: the first number carried no unit, so "30 days" was missing)
        ("Notice must be given 30 to 60 days in advance.", "not less than thirty (30) nor more than sixty (60) days"),
        ("El preaviso es de 30 a 60 días.", "con no menos de treinta (30) ni más de sesenta (60) días de antelación"),
        # durations converted exactly
        ("The term is 12 months.", "for a period of one (1) year"),
        ("El plazo es de 2 semanas.", "en el plazo de catorce (14) días"),
        ("Reports are due every 3 months.", "a report each quarter... within one (1) quarter"),
        ("The warranty lasts 6 months.", "una garantía de un semestre"),
    ],
)
def test_facts_found_in_every_written_form(claim: str, quote: str) -> None:
    assert missing_facts(claim, [quote]) == []


@pytest.mark.parametrize(
    ("claim", "quote", "value"),
    [
        # a multiplier word written after digits in the claim (text2num read the lone word as its own number)
        ("The fee is $2 million.", "a fee of Two Million Dollars ($2,000,000)", "2000000"),
        ("The purchase price is EUR 1.5 million.", "a purchase price of EUR 1,500,000", "1500000"),
        ("El precio es de 1,5 millones de euros.", "por un precio de un millón quinientos mil euros", "1500000"),
        ("The cap is 250 thousand dollars.", "shall not exceed $250,000 in the aggregate", "250000"),
    ],
)
def test_claim_multiplier_after_digits_is_one_amount(claim: str, quote: str, value: str) -> None:
    lang = "es" if claim.startswith("El ") else "en"
    money = [f for f in facts_of(claim, lang) if f.kind == "money"]
    assert [sorted(f.values) for f in money] == [[Decimal(value)]]
    assert [f for f in facts_of(claim, lang) if f.kind != "money"] == []
    assert missing_facts(claim, [quote]) == []
    assert [f.kind for f in missing_facts(claim.replace("2 million", "3 million").replace("1.5", "2.5")
                                          .replace("1,5", "2,5").replace("250", "350"), [quote])] == ["money"]


@pytest.mark.parametrize(
    ("claim", "quote", "kind"),
    [
        ("The agreement was signed on January 6, 2015.", "the 5th day of January, 2015", "date"),
        ("The agreement was signed on 5 February 2015.", "el día cinco de enero de dos mil quince", "date"),
        ("The price is EUR 14,400.", "catorce mil cuatrocientos euros con cincuenta céntimos", "money"),
        ("The price is EUR 14,400.60.", "catorce mil cuatrocientos euros con cincuenta céntimos", "money"),
        ("Notice must be given 30 to 90 days in advance.", "not less than thirty (30) nor more than sixty (60) days",
         "duration"),
        ("The fee is EUR 1,500,000.", "a fee of EUR 1.5 billion", "money"),
        ("Notice must be given at least 90 days in advance.", "between 30 and 60 days prior written notice", "duration"),
        ("The term is 13 months.", "for a period of one (1) year", "duration"),
        ("The term is 30 days.", "for a period of one (1) month", "duration"),
    ],
)
def test_a_different_fact_in_another_written_form_is_missing(claim: str, quote: str, kind: str) -> None:
    assert [f.kind for f in missing_facts(claim, [quote])] == [kind]


def test_on2_may_is_a_name_and_a_verb_not_the_date_2_may() -> None:
    """README caveat of shared/eval/support: "On2 may ..." was read as the date 2 May."""
    assert [f.kind for f in facts_of("On2 may terminate this Agreement.", "en")] == ["ident"]
    assert facts_of("The Licensee may terminate within 5 may be.", "en") == facts_of("5", "en")
    assert missing_facts("On2 may terminate this Agreement.", ["On2 shall have the right to terminate"]) == []
    # the month May is still a month
    [fact] = facts_of("signed on 2 May 2024", "en")
    assert fact.kind == "date" and fact.values == {(2024, 5, 2)}
    [fact] = facts_of("SIGNED ON 2 MAY 2024", "en")
    assert fact.values == {(2024, 5, 2)}


@pytest.mark.parametrize("claim", [
    "Third parties may not use the Software.",
    "The Licensee has a right of first refusal.",
    "Los terceros no pueden usar el programa.",
    "La primera cuota vence al firmar.",
])
def test_small_ordinal_words_in_a_claim_state_no_fact(claim: str) -> None:
    """README caveat of shared/eval/support: "third parties" was read as the number 3."""
    assert facts_of(claim) == ()
    assert missing_facts(claim, ["no other person may use the Software"]) == []


def test_a_digit_ordinal_and_a_larger_ordinal_word_are_still_facts() -> None:
    assert [f.kind for f in missing_facts("Payment is due on the 30th day.", ["on the twentieth day"])] == ["number"]
    assert missing_facts("Payment is due on the 30th day.", ["on the thirtieth day"]) == []


# --- numeric dates: the document's convention ------------------------------------------


def test_numeric_date_is_read_in_the_documents_convention() -> None:
    from core.dates import date_order

    assert date_order(["Invoice of 13/02/2024.", "Due 01/03/2024."], "en") == "dmy"
    assert date_order(["Invoice of 02/13/2024.", "Due 01/03/2024."], "en") == "mdy"
    assert date_order(["Due 01/03/2024."], "es") == "dmy"  # Spanish writes day first
    assert date_order(["Due 01/03/2024."], "en") == ""  # no proof either way
    assert date_order(["13/02/2024 and 02/13/2024"], "en") == ""  # proofs both ways
    [fact] = facts_of("01/02/2024", "en", date_order="dmy")
    assert fact.values == {(2024, 2, 1)} and not fact.ambiguous
    [fact] = facts_of("01/02/2024", "en", date_order="mdy")
    assert fact.values == {(2024, 1, 2)}


def test_an_ambiguous_numeric_date_is_neither_accepted_nor_a_plain_miss() -> None:
    claim, quote = "Payment is due on 1 February 2024.", "payment on 01/02/2024"
    result = check_facts(claim, [quote])
    assert result.missing == [] and [f.kind for f in result.uncertain] == ["date"]
    assert check_facts(claim, [quote], date_order="dmy") == FactsCheck([], [])
    assert [f.kind for f in check_facts(claim, [quote], date_order="mdy").missing] == ["date"]
    # the same numeric date on both sides says the same thing whatever the convention
    assert check_facts("Payment is due on 01/02/2024.", [quote]) == FactsCheck([], [])
    # a date that agrees with neither reading is missing, not uncertain
    assert [f.kind for f in check_facts("Payment is due on 3 February 2024.", [quote]).missing] == ["date"]


def _verify_one(claim: str, quote: str, *texts: str, date_orders=None):
    delivered = {f"c{i}": _chunk(f"c{i}", t) for i, t in enumerate(texts)}
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": claim, "citations": [{"chunk_id": "c0", "quote": quote}]}],
    })
    return verify_claims(answer, delivered, date_orders=date_orders)


def test_a_numeric_date_is_read_in_the_convention_of_its_document_in_the_funnel() -> None:
    source = "Payment is due on 01/02/2024 at the latest."
    claim = "Payment is due on 1 February 2024."
    # another date of the same document proves day-first
    claims, rejected = _verify_one(claim, "Payment is due on 01/02/2024", source, "Signed on 13/01/2024.")
    assert [c.text for c in claims] == [claim] and rejected == []
    # ... or month-first: the claim's date is then another date
    claims, rejected = _verify_one(claim, "Payment is due on 01/02/2024", source, "Signed on 01/13/2024.")
    assert claims == [] and [r.reason for r in rejected] == [RejectReason.fact_not_in_quote]
    # nothing shows the convention of this English document: removed with its own reason, not silently
    claims, rejected = _verify_one(claim, "Payment is due on 01/02/2024", source)
    assert claims == [] and [r.reason for r in rejected] == [RejectReason.date_ambiguous]
    assert "01/02/2024" in rejected[0].detail or "1 February 2024" in rejected[0].detail
    # a convention read from the whole document by the caller wins
    claims, _ = _verify_one(claim, "Payment is due on 01/02/2024", source, date_orders={"d/x.txt": "dmy"})
    assert [c.text for c in claims] == [claim]


def test_a_spanish_document_writes_dates_day_first() -> None:
    source = "El pago vence el 01/02/2024 como muy tarde, según lo pactado entre las partes."
    claims, rejected = _verify_one("El pago vence el 1 de febrero de 2024.", "El pago vence el 01/02/2024", source)
    assert len(claims) == 1 and rejected == []


def test_the_convention_of_a_whole_document_is_read_once_on_demand() -> None:
    """A "13/01/2024" anywhere in the document (not only in the delivered chunks) proves day-first."""
    from core.dates import DocumentDateOrders

    reads: list[str] = []

    def read(doc_id: str) -> tuple[str, list[str]]:
        reads.append(doc_id)
        return ("en", ["Payment is due on 01/02/2024.", "Annex signed on 13/01/2024."]) if doc_id == "d/x.txt" else ("", [])

    orders = DocumentDateOrders(read)
    claims, rejected = _verify_one("Payment is due on 1 February 2024.", "Payment is due on 01/02/2024",
                                   "Payment is due on 01/02/2024 at the latest.", date_orders=orders)
    assert len(claims) == 1 and rejected == []
    assert orders.get("d/x.txt") == "dmy" and orders.get("other") is None
    assert reads == ["d/x.txt", "other"]
    # no document was read for a claim without a numeric date
    orders = DocumentDateOrders(read)
    reads.clear()
    claims, _ = _verify_one("Payment is due on 1 February 2024.", "Payment is due on 1 February 2024",
                            "Payment is due on 1 February 2024 at the latest.", date_orders=orders)
    assert len(claims) == 1 and reads == []


@pytest.mark.parametrize("quote", ["del 1 al 15 de marzo de 2024", "from 1 to 15 March 2024", "March 1-15, 2024",
                                   "between 1 and 15 March 2024"])
def test_a_day_range_in_one_month_carries_both_days(quote: str) -> None:
    assert missing_facts("The works start on 1 March 2024.", [quote]) == []
    assert missing_facts("The works end on 15 March 2024.", [quote]) == []
    assert [f.kind for f in missing_facts("The works end on 16 March 2024.", [quote])] == ["date"]


def test_an_ordinal_word_before_the_verb_may_is_no_date() -> None:
    assert facts_of("The first may be renewed once.", "en") == ()
    [fact] = facts_of("Rent is due on the first of May 2024.", "en")
    assert fact.kind == "date" and fact.values == {(2024, 5, 1)}


_CASES = Path(__file__).resolve().parents[1] / "data" / "cases"


@pytest.mark.parametrize(("claim", "quote", "missing"), [
    ("The Supplier cleans the offices between 18:00 and 22:00.",
     "The Supplier shall clean all offices on working days between 18:00 and 22:00.", []),
    ("Replacement consumables are delivered within 15 business days.",
     "deliver replacement consumables within 15 business days", []),
    ("Replacement consumables are delivered within 5 business days.",
     "deliver replacement consumables within 15 business days", ["duration"]),
    ("The Client may terminate on 60 days' written notice.",
     "The Client may terminate the Agreement with 60 days' written notice.", []),
    ("The Client may terminate on two months' written notice.",
     "The Client may terminate the Agreement with 60 days' written notice.", ["duration"]),  # "two months" is a duration (#21)
    ("The Client may terminate on 2 months' written notice.",
     "The Client may terminate the Agreement with 60 days' written notice.", ["duration"]),  # never months -> days
    ("The quality system is ISO-9001:2015.", "Quality system: ISO-9001:2015.", []),
    ("ART-12.3(b) requires a spare K-40 pump.",
     "ART-12.3(b) The Contractor shall keep a spare pump of type K-40 on site at all times.", []),
    ("ART-12.3(c) requires a spare K-40 pump.",
     "ART-12.3(b) The Contractor shall keep a spare pump of type K-40 on site at all times.", ["ident"]),
])
def test_the_shared_cases_b21_and_b09(claim: str, quote: str, missing: list[str]) -> None:
    text = (_CASES / "B21_service_agreement.txt").read_text(encoding="utf-8") + (
        _CASES / "B09_identifiers.txt").read_text(encoding="utf-8")
    assert quote in text
    assert [f.kind for f in missing_facts(claim, [quote])] == missing


@settings(max_examples=80, deadline=None)
@given(euros=st.integers(min_value=4, max_value=999_999), cents=st.integers(min_value=1, max_value=99),
       lang=st.sampled_from(["en", "es"]))
def test_an_amount_written_in_words_with_cents_matches_its_digits(euros: int, cents: int, lang: str) -> None:
    """num2words writes the amount ("catorce mil cuatrocientos euros con cincuenta céntimos"); the claim
    states it in digits; one cent more is another amount."""
    words = num2words(euros, lang=lang)
    cent_words = num2words(cents, lang=lang)
    quote = (f"la cantidad de {words} euros con {cent_words} céntimos" if lang == "es"
             else f"the sum of {words} euros and {cent_words} cents")
    assert missing_facts(f"The price is EUR {euros:,}.{cents:02d}.", [quote], "en") == [], quote
    other = f"{euros:,}.{cents + 1:02d}" if cents < 99 else f"{euros + 1:,}.00"
    assert [f.kind for f in missing_facts(f"The price is EUR {other}.", [quote], "en")] == ["money"], quote


# --- durations in every written form (issue #21 item 2; tryout3 finding 1) -------------------

_TWO_YEARS = "Either Party may terminate this Agreement, without cause, by giving two (2) years written notice."


@pytest.mark.parametrize(("text", "lang", "value", "unit"), [
    ("two months", "en", 2, "month"),
    ("two (2) years", "en", 2, "year"),
    ("one year's written notice", "en", 1, "year"),
    ("within two days", "en", 2, "day"),
    ("a month's notice", "en", 1, "month"),
    ("a two-year term", "en", 2, "year"),
    ("a five-year term", "en", 5, "year"),
    ("dos meses", "es", 2, "month"),
    ("un mes", "es", 1, "month"),
    ("una semana", "es", 1, "week"),
    ("dos (2) años", "es", 2, "year"),
    ("treinta y un días", "es", 31, "day"),
    ("thirty one days", "en", 31, "day"),
    ("25 working days", "en", 25, "business day"),
    ("three Business Days", "en", 3, "business day"),
    ("30 días hábiles", "es", 30, "business day"),
    ("un día hábil", "es", 1, "business day"),
    ("25 calendar days", "en", 25, "day"),
    ("catorce días naturales", "es", 14, "day"),
])
def test_a_small_or_doubled_count_before_a_unit_is_a_duration(text: str, lang: str, value: int, unit: str) -> None:
    """In a claim (and in a quote) "two months" is 2 months, "two (2) years" 2 years: not no fact,
    not a bare 2 that any unit would match."""
    for facts in (facts_of(text, lang), facts_of(text, permissive=True)):
        assert {(f.kind, f.unit) for f in facts} == {("duration", unit)}, (text, facts)
        assert all(f.values == {Decimal(value)} for f in facts), (text, facts)


@pytest.mark.parametrize("claim", [
    "Either party may end the agreement for convenience on two months' written notice.",
    "Either party may end the agreement for convenience on two weeks' written notice.",
    "Termination for convenience requires one year's written notice.",
    "Either party may terminate the agreement without cause by giving two (2) months' written notice.",
    "Either party may terminate the agreement without cause by giving 2 days' written notice.",
    "Either party may terminate on 730 days' written notice.",  # a year is not a number of days
])
def test_a_wrong_duration_against_two_years_notice_is_removed_in_the_funnel(claim: str) -> None:
    delivered = {"c0": _chunk("c0", _TWO_YEARS)}
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": claim, "citations": [{"chunk_id": "c0", "quote": _TWO_YEARS}]}]})
    claims, rejected = verify_claims(answer, delivered)
    assert claims == []
    [r] = rejected
    assert r.reason is RejectReason.fact_not_in_quote and "duration" in r.detail


@pytest.mark.parametrize("claim", [
    "Either party may end the agreement for convenience on two years' written notice.",
    "Either party may terminate without cause by giving two (2) years' written notice.",
    "Either party may terminate without cause on 2 years' written notice.",
    "Either party may terminate without cause on 24 months' written notice.",  # exact: a year is 12 months
    "Either party may terminate without cause on a two-year written notice.",
    "Cualquiera de las partes puede resolver el contrato con un preaviso de dos (2) años.",
    "Cualquiera de las partes puede resolver el contrato con un preaviso de dos años.",
])
def test_the_same_duration_in_another_form_is_found(claim: str) -> None:
    assert missing_facts(claim, [_TWO_YEARS]) == []


@pytest.mark.parametrize(("claim", "quote", "missing"), [
    ("Payment is due within 25 calendar days.", "payment within 25 working days of receipt", ["duration"]),
    ("Payment is due within 25 working days.", "payment within 25 calendar days of receipt", ["duration"]),
    ("Payment is due within 45 business days.", "payment within forty-five (45) days of receipt", ["duration"]),
    ("Payment is due within 45 days.", "payment within forty-five (45) Business Days of receipt", ["duration"]),
    ("El pago vence en 30 días naturales.", "el pago se hará en treinta (30) días hábiles", ["duration"]),
    ("Payment is due within 10 business days.", "payment within two (2) weeks of receipt", ["duration"]),
    ("Payment is due within 10 business days.", "payment within ten (10) Business Days of receipt", []),
    ("El pago vence en 30 días hábiles.", "payment within thirty (30) working days of receipt", []),
    ("Payment is due within 30 calendar days.", "payment within thirty (30) days of receipt", []),
    ("Payment is due within 30 days.", "el pago se hará en treinta (30) días naturales", []),
])
def test_business_days_are_not_calendar_days(claim: str, quote: str, missing: list[str]) -> None:
    """A business day is its own unit: never a plain or calendar day, never a seventh of a week;
    a calendar ("natural") day is a plain day (contracts count plain days on the calendar)."""
    assert [f.kind for f in missing_facts(claim, [quote])] == missing


@pytest.mark.parametrize(("claim", "missing"), [
    ("Notice must be given at least 30 and at most 60 days before.", []),
    ("Notice must be given 30 to 60 days before.", []),
    ("Notice must be given 30 to 90 days before.", ["duration"]),
    ("Notice must be given 30 to 60 business days before.", ["duration", "duration"]),
])
def test_a_range_keeps_its_unit_and_qualifier(claim: str, missing: list[str]) -> None:
    quote = "notice given not less than thirty (30) nor more than sixty (60) days prior to the date"
    assert [f.kind for f in missing_facts(claim, [quote], "en")] == missing


def test_small_counts_that_are_not_durations_state_no_fact() -> None:
    for claim in ("One of the parties may terminate.", "Two copies are signed.", "A month later the fee is due."):
        assert facts_of(claim, "en") == (), claim
