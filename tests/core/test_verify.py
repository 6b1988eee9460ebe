"""The quote matcher and the verification funnel, on literal inputs."""

from __future__ import annotations

import pytest

from core.normalize import normalize
from core.types import Chunk, MatchKind, ModelAnswer, RejectReason
from core.verify import match_quote, verify_claims

TEXT = (
    "The Supplier shall deliver the goods within thirty (30) days of the Order.\n"
    "Pay-\nment is due on receipt of the “final” invoice [12] — no later than 1 March."
)


def test_exact_match_offsets() -> None:
    m = match_quote("deliver the goods within thirty (30) days", TEXT)
    assert m is not None and m.kind is MatchKind.exact
    assert TEXT[m.start : m.end] == "deliver the goods within thirty (30) days"


@pytest.mark.parametrize(
    ("quote", "expected_source"),
    [
        ("DELIVER the goods   within thirty (30) days", "deliver the goods within thirty (30) days"),
        ("Payment is due on receipt", "Pay-\nment is due on receipt"),
        ('the "final" invoice - no later', "the “final” invoice [12] — no later"),
    ],
)
def test_normalized_match_maps_back_to_source(quote: str, expected_source: str) -> None:
    m = match_quote(quote, TEXT)
    assert m is not None and m.kind is MatchKind.normalized
    assert TEXT[m.start : m.end] == expected_source


def test_fuzzy_match_returns_source_span_in_whole_words() -> None:
    m = match_quote("deliver the good within thirty (30) day of", TEXT)
    assert m is not None and m.kind is MatchKind.fuzzy
    assert 92 <= m.score < 100
    span = TEXT[m.start : m.end]
    assert span.startswith("deliver the goods within thirty (30) days")
    assert not TEXT[m.start - 1].isalnum() and not TEXT[m.end].isalnum()  # whole words


def test_fuzzy_never_tolerates_a_different_number() -> None:
    text = "Finding 1: invoices of route R1 were checked and found consistent."
    assert match_quote("Finding 3: invoices of route R3 were checked and found consistent.", text) is None


def test_fuzzy_never_tolerates_an_inserted_word() -> None:
    amended = "para el derecho de sufragio activo y pasivo en las elecciones municipales."
    assert match_quote("para el derecho de sufragio activo en las elecciones municipales.", amended) is None


def test_unrelated_quote_rejected() -> None:
    assert match_quote("the Buyer may terminate this agreement at will", TEXT) is None


def test_nfd_and_ligature_normalize_identically() -> None:
    assert normalize("di\u0301as")[0] == normalize("días")[0] == "días"
    assert normalize("con\ufb01dential")[0] == "confidential"


def _chunk(cid: str, text: str) -> Chunk:
    return Chunk(chunk_id=cid, doc_id="d/x.txt", path="/x.txt", page=1, start=100, end=100 + len(text), text=text)


def _answer(*citations: tuple[str, str], found: bool = True) -> ModelAnswer:
    return ModelAnswer.model_validate(
        {
            "answer_found": found,
            "complete_answer": True,
            "conflicting_evidence": False,
            "claims": [{"text": "Claim.", "citations": [{"chunk_id": c, "quote": q} for c, q in citations]}],
            "missing": "",
        }
    )


DELIVERED = {
    "d/x.txt#p1-c0": _chunk("d/x.txt#p1-c0", "The rent is payable monthly in advance by bank transfer."),
    "d/x.txt#p1-c1": _chunk("d/x.txt#p1-c1", "Either party may terminate with ninety days written notice."),
}


@pytest.mark.parametrize(
    ("citation", "reason"),
    [
        (("d/x.txt#p9-c9", "The rent is payable monthly in advance"), RejectReason.unknown_chunk),
        (("d/x.txt#p1-c0", "payable"), RejectReason.quote_too_short),
        (("d/x.txt#p1-c0", "Either party may terminate with ninety days"), RejectReason.wrong_chunk),
        (("d/x.txt#p1-c0", "Rent must be paid every month before it is due"), RejectReason.quote_not_found),
    ],
)
def test_funnel_rejections_keep_their_reason(citation: tuple[str, str], reason: RejectReason) -> None:
    claims, rejected = verify_claims(_answer(citation), DELIVERED)
    assert claims == []
    assert [r.reason for r in rejected] == [reason, RejectReason.no_citation]
    assert rejected[0].chunk_id == citation[0]


def test_valid_citation_offsets_are_page_offsets() -> None:
    claims, rejected = verify_claims(_answer(("d/x.txt#p1-c1", "may terminate with ninety days")), DELIVERED)
    assert rejected == []
    cit = claims[0].citations[0]
    assert cit.match is MatchKind.exact
    assert (cit.start, cit.end) == (100 + 13, 100 + 13 + len("may terminate with ninety days"))
    assert cit.quote == "may terminate with ninety days"


# --- fuzzy matching is word by word: typos yes, other words never ---------------------------

SOURCE = ("El Gobierno responde solidariamente en su gestión política ante el Congreso de los Diputados, "
          "y la responsabilidad de cada miembro por su gestión directa.")


@pytest.mark.parametrize(
    "altered",
    [
        "El Gobierno responde solidariamente en su gestión económica ante el Congreso de los Diputados",  # word replaced
        "El Gobierno no responde solidariamente en su gestión política ante el Congreso de los Diputados",  # 'no' inserted
        "El Gobierno responde en su gestión política ante el Congreso de los Diputados, y la",  # word deleted
        "El Gobierno solidariamente responde en su gestión política ante el Congreso de los Diputados",  # swapped
        "El Gobierno responde solidariamente en su gestión política ante el Senado de los Diputados",  # replaced
    ],
)
def test_fuzzy_never_accepts_another_word(altered: str) -> None:
    assert match_quote(altered, SOURCE) is None


@pytest.mark.parametrize(
    "typo",
    [
        "El Gobierno responde solidariamente en su gestion politica ante el Congres de los Diputados",
        "Gobierno responde solidariamnte en su gestión política ante el Congreso de los Diputados",
    ],
)
def test_fuzzy_accepts_misread_letters_in_ocr_text_only(typo: str) -> None:
    assert match_quote(typo, SOURCE) is None  # born-digital text is exact: a misspelt quote fails honestly
    m = match_quote(typo, SOURCE, ocr=True)
    assert m is not None and m.kind is MatchKind.fuzzy
    span = SOURCE[m.start : m.end]
    assert "responde solidariamente en su gestión política ante el Congreso de los" in span
    assert abs(len(span) - len(typo)) <= 8  # whole words of the source around the quote, no more


# --- properties (hypothesis) ------------------------------------------------------------------

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from core.normalize import normalized  # noqa: E402

_VOCAB = ["contrato", "arrendatario", "días", "plazo", "entrega", "Supplier", "shall", "remit", "goods",
          "within", "thirty", "notice", "obligación", "señal", "reembolsable", "the", "de", "la", "en", "of",
          "“final”", "invoice", "pago", "confidential", "años", "renta", "mensual", "Buyer", "written"]
_SPACES = [" ", "  ", "\n", "\u00a0", " \n "]


@st.composite
def chunk_and_span(draw):
    words = draw(st.lists(st.sampled_from(_VOCAB), min_size=12, max_size=60))
    seps = draw(st.lists(st.sampled_from(_SPACES), min_size=len(words) - 1, max_size=len(words) - 1))
    text = words[0] + "".join(s + w for s, w in zip(seps, words[1:]))
    i = draw(st.integers(0, len(words) - 4))
    j = draw(st.integers(i + 4, min(len(words), i + 14)))
    return text, words, i, j


def _render(words: list[str], case: str, space: str) -> str:
    out = " ".join(words) if space == " " else space.join(words)
    out = out.replace("“", '"').replace("”", '"')
    return {"upper": out.upper(), "lower": out.lower(), "same": out}[case]


@settings(max_examples=200, deadline=None)
@given(data=chunk_and_span(), case=st.sampled_from(["upper", "lower", "same"]), space=st.sampled_from([" ", "   ", "\n"]))
def test_any_normalized_span_of_a_chunk_is_found_at_its_words(data, case, space) -> None:
    text, words, i, j = data
    quote = _render(words[i:j], case, space)
    m = match_quote(quote, text)
    assert m is not None
    assert normalized(text[m.start : m.end]) == normalized(quote)


@settings(max_examples=200, deadline=None)
@given(data=chunk_and_span(), stranger=st.text(alphabet="qwxzjk", min_size=5, max_size=9), at=st.integers(0, 3))
def test_a_span_with_one_word_replaced_is_never_found(data, stranger, at) -> None:
    text, words, i, j = data
    quote_words = words[i:j]
    quote_words[min(at, len(quote_words) - 1)] = stranger
    assert match_quote(" ".join(quote_words), text) is None


def test_soft_hyphen_at_a_line_break_joins_the_word() -> None:
    """B04: 'responsabi\\u00ad\\nlidad' reads 'responsabilidad' (fuzzy word matching would not bridge it)."""
    text = "1. El proveedor asumirá la responsabi\u00ad\nlidad por los defectos ocultos durante dos años."
    m = match_quote("El proveedor asumirá la responsabilidad por los defectos ocultos", text)
    assert m is not None and m.kind is MatchKind.normalized
    assert text[m.start : m.end].endswith("ocultos")


# --- properties: every normalization of the issue, on either side, at the right offsets -------
#
# The chunk is rendered from clean words with any mix of what extraction leaves in page text
# (case, NFD accents, ligatures, soft hyphens, line-break hyphenation, typographic quotes and
# dashes, odd whitespace, bracketed reference markers); the quote is a run of the clean words,
# itself rendered with any mix of what a model writes (case, NFD/NFC, typographic quotes,
# whitespace). The match must start at the first source character of the run's first word and
# end after the last source character of its last word (accents included).

import unicodedata  # noqa: E402

from rapidfuzz import fuzz  # noqa: E402

# No word is a prefix or suffix of another, so a run of words can only be found at word starts.
_WORDS = ["arrendatario", "obligación", "confidential", "financial", "reflejo", "señal", "plazo", "entrega",
          "Supplier", "shall", "remit", "goods", "within", "thirty", "notice", "reembolsable", "días", "años",
          "renta", "mensual", "Buyer", "written", "“final”", "invoice", "pago", "the", "del", "la", "of", "—",
          "overflow", "firmeza", "ﬁrma", "desfile", "comité", "ámbito"]
_SEPARATORS = [" ", "  ", "\n", "\u00a0", " \n ", "\t", "\r\n"]
_MARKERS = ["[9]", "[12]", " [3, 4]", " [4–6]"]


def test_property_vocabulary_has_no_prefix_or_suffix_words() -> None:
    norm = [normalized(w) for w in _WORDS]
    for a in norm:
        for b in norm:
            assert a == b or not (b.startswith(a) or b.endswith(a)), (a, b)


def _source_word(draw, word: str) -> str:
    """One word as a PDF's page text may hold it."""
    out = draw(st.sampled_from([word, word.upper(), word.capitalize()]))
    if draw(st.booleans()):
        out = unicodedata.normalize("NFD", out)
    if draw(st.booleans()):
        out = out.replace("fi", "ﬁ").replace("fl", "ﬂ")
    splits = [k for k in range(2, len(out) - 1) if out[k - 1].isalpha() and out[k].isalpha()]
    how = draw(st.sampled_from(["none", "soft", "hyphenated", "soft-break"]))
    if how != "none" and splits:
        k = draw(st.sampled_from(splits))
        if how == "soft":
            out = out[:k] + "\u00ad" + out[k:]
        elif out[k].islower():  # a line-break hyphen joins only before a lowercase letter
            out = out[:k] + ("-\n" if how == "hyphenated" else "\u00ad\n") + out[k:]
    return out


@st.composite
def decorated_chunk(draw):
    """(chunk text, clean words, (start, end) of each word in the text, i, j) with words[i:j] the quote."""
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=6, max_size=40))
    text, spans = "", []
    for n, word in enumerate(words):
        if n:
            sep = draw(st.sampled_from(_SEPARATORS))
            if draw(st.integers(0, 5)) == 0:
                sep = draw(st.sampled_from(_MARKERS)) + sep
            text += sep
        rendered = _source_word(draw, word)
        spans.append((len(text), len(text) + len(rendered)))
        text += rendered
    i = draw(st.integers(0, len(words) - 3))
    j = draw(st.integers(i + 3, min(len(words), i + 12)))
    return text, words, spans, i, j


def _model_quote(draw, words: list[str]) -> str:
    """The words as a model may write them."""
    rendered = []
    for w in words:
        w = w.replace("“", draw(st.sampled_from(['"', "“", "«"]))).replace("”", draw(st.sampled_from(['"', "”", "»"])))
        w = w.replace("—", draw(st.sampled_from(["-", "—", "–"]))).replace("ﬁ", "fi")
        w = draw(st.sampled_from([w, w.lower(), w.upper()]))
        rendered.append(unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD"])), w))
    out = rendered[0]
    for w in rendered[1:]:
        out += draw(st.sampled_from([" ", "  ", "\n"])) + w
    return out


@settings(max_examples=400, deadline=None)
@given(data=decorated_chunk(), draw=st.data())
def test_property_any_normalized_run_of_words_is_found_at_its_source_offsets(data, draw) -> None:
    text, words, spans, i, j = data
    quote = _model_quote(draw.draw, words[i:j])
    n = j - i
    first = next(k for k in range(len(words)) if words[k : k + n] == words[i:j])  # first occurrence wins
    m = match_quote(quote, text)
    assert m is not None, (quote, text)
    assert m.kind in (MatchKind.exact, MatchKind.normalized)
    assert (m.start, m.end) == (spans[first][0], spans[first + n - 1][1]), (quote, text, text[m.start : m.end])


@settings(max_examples=300, deadline=None)
@given(data=decorated_chunk(), a=st.integers(0, 10_000), length=st.integers(15, 200))
def test_property_any_raw_substring_is_found_exactly_unless_it_cuts_a_token(data, a, length) -> None:
    from core.verify import _cuts_token

    text = data[0]
    a = a % max(1, len(text) - 15)
    quote = text[a : a + length]
    if not quote.strip():
        return
    m = match_quote(quote, text)
    if _cuts_token(text, a, a + len(quote)):
        # only an occurrence elsewhere that starts and ends on token boundaries may verify it
        assert m is None or (m.start != a and not _cuts_token(text, m.start, m.end)), (quote, text)
        return
    assert m is not None and m.kind is MatchKind.exact
    assert text[m.start : m.end] == quote


@pytest.mark.parametrize(("source", "quote"), [
    ("Replacement consumables are delivered within 15 business days.", "5 business days"),
    ("The Client may terminate the Agreement with 60 days' written notice.", "0 days' written notice"),
    ("Payment is due within 1.5 days of delivery of the goods.", "due within 1"),
    ("Order reference PO-2024-0017 covers valves.", "2024-0017 covers valves"),
    ("The Contractor must notify noise complaints within 8 hours.", "otify noise complaints within 8 hours"),
    ("The fee is 1,250 euros per month, payable in advance.", "250 euros per month"),
])
def test_a_quote_cut_from_inside_a_number_or_word_is_rejected(source: str, quote: str) -> None:
    """Fresh-user tester, session 4: "5 business days" verified inside "15 business days"."""
    assert quote in source
    assert match_quote(quote, source) is None


def test_a_quote_on_token_boundaries_still_verifies_and_cjk_needs_no_spaces() -> None:
    source = "Delivery within 15 business days. Then 5 business days for returns."
    m = match_quote("5 business days", source)
    assert m is not None and source[m.start - 1] == " " and m.start == source.index("Then") + 5
    assert match_quote("(see clause 4.2)", "Payment terms (see clause 4.2) apply.") is not None
    cjk = "本合同自双方签字之日起生效，有效期为三年。"
    assert match_quote("双方签字之日起生效", cjk) is not None


@settings(max_examples=300, deadline=None)
@given(data=decorated_chunk(), draw=st.data())
def test_property_a_string_beyond_the_fuzzy_threshold_is_rejected(data, draw) -> None:
    """A quote whose best alignment with the chunk is under the threshold (Indel similarity of
    normalized texts, rapidfuzz ``partial_ratio``) is never matched, whatever it is made of."""
    text, words, _, i, j = data
    quote_words = draw.draw(st.lists(st.sampled_from(_WORDS), min_size=3, max_size=12))
    quote = " ".join(quote_words)
    if draw.draw(st.booleans()):  # or the true run with characters replaced
        chars = list(" ".join(words[i:j]))
        for pos in draw.draw(st.lists(st.integers(0, len(chars) - 1), min_size=1, max_size=len(chars))):
            chars[pos] = "q"
        quote = "".join(chars)
    nq, nt = normalized(quote), normalized(text)
    assume(len(nq) >= 15 and fuzz.partial_ratio(nq, nt) < 92.0)
    assert match_quote(quote, text) is None


def test_a_quote_cut_mid_word_without_accents_is_the_same_text() -> None:
    m = match_quote("bierno responde solidariamente en su gestion política ante el Congreso de los Diputad", SOURCE)
    assert m is not None and m.kind is MatchKind.fuzzy
    assert SOURCE[m.start : m.end].startswith("Gobierno responde solidariamente en su gestión política ante el Congreso de los Diputados")


# --- regressions from the session-3 tester: another word is never "a typo" ------------------------


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("the Licensee shall indemnify the Licensor against all third-party claims",
         "the Licensor shall indemnify the Licensee against all third-party claims"),
        ("This clause is unenforceable in every jurisdiction where the goods are sold",
         "This clause is enforceable in every jurisdiction where the goods are sold"),
        ("The monthly rent increases by the consumer price index each January",
         "The monthly rent decreases by the consumer price index each January"),
        ("ART-12.3(c) The Contractor shall keep a spare pump of type K-40 on site at all times.",
         "ART-12.3(b) The Contractor shall keep a spare pump of type K-40 on site at all times."),
    ],
)
@pytest.mark.parametrize("ocr", [False, True])
def test_fuzzy_never_turns_one_word_into_another(quote: str, source: str, ocr: bool) -> None:
    assert match_quote(quote, source, ocr=ocr) is None


def test_ocr_tolerance_never_accepts_a_word_of_the_chunk() -> None:
    source = "The Employer shall pay the Employee a monthly salary. The Employee shall work full time."
    assert match_quote("The Employee shall pay the Employee a monthly salary", source, ocr=True) is None
    # a misread letter that is not a word of the page is tolerated in OCR text
    assert match_quote("The Employer shall pay the Employee a monthly salarv", source, ocr=True) is not None


def test_diacritics_inner_punctuation_and_plurals_are_the_same_word() -> None:
    source = "La gestión política del contrato non-refundable incluye los pagos del Supplier’s account."
    m = match_quote("La gestion politica del contrato nonrefundable incluye los pago del Suppliers account.", source)
    assert m is not None and m.kind is MatchKind.fuzzy


@pytest.mark.parametrize("quote", ["." * 31, "_" * 20, "- - - - - - - - - -", "(…) (…) (…) (…) (…)"])
def test_punctuation_is_not_a_quote(quote: str) -> None:
    chunk = Chunk(chunk_id="c1", doc_id="d", path="d.txt", page=1, start=0, end=200,
                  text="Contents " + "." * 40 + " 3\nSigned: " + "_" * 30 + " - - - - - - - - - - (…) (…) (…) (…) (…)")
    claims, rejected = verify_claims(_answer(("c1", quote)), {"c1": chunk})
    assert claims == []
    assert rejected[0].reason is RejectReason.quote_too_short
