"""Chunking (issue #3): token budget of the embedding model, sections, context line, overflow, ids."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.chunking import MAX_SEQ_TOKENS, chunk_pages, count_tokens, find_headings
from core.ingest import PageText, parse_file, text_blocks
from core.types import SEGMENT_SEP
from core.verify import match_quote
from tests.conftest import CASES, CORPORA

BOE = CORPORA / "pdfs" / "BOE-A-1978-31229-consolidado.pdf"


def _chunks_of(path, **kw):
    parsed = parse_file(path)
    return parsed, chunk_pages("f/" + path.name, str(path), parsed.pages, title=parsed.title, **kw)


@pytest.mark.parametrize(
    "path", [BOE, CASES / "B30_long_single_paragraph.txt", CASES / "B19_long_context_warranty.md", CASES / "B08_cjk.txt"]
)
def test_no_chunk_exceeds_the_embedding_models_window(path) -> None:
    parsed, chunks = _chunks_of(path)
    assert chunks
    for c in chunks:
        # [CLS] + context line + "\n" + text + [SEP], as the embedder sees it
        assert count_tokens(c.embedding_text()) + 2 <= MAX_SEQ_TOKENS, c.chunk_id
        # the text is its page-text segments (one, or several across a page break / running line)
        assert SEGMENT_SEP.join(parsed.pages[s.page - 1].text[s.start : s.end] for s in c.spans()) == c.text
        assert re.fullmatch(r"f/[^#]+#p\d+-c\d+", c.chunk_id)


def test_a_smaller_budget_is_respected_and_ids_are_stable() -> None:
    parsed, chunks = _chunks_of(CASES / "B19_long_context_warranty.md", chunk_tokens=128, overlap_tokens=16)
    assert all(count_tokens(c.embedding_text()) + 2 <= 128 for c in chunks)
    again = chunk_pages("f/B19_long_context_warranty.md", chunks[0].path, parsed.pages, title=parsed.title,
                        chunk_tokens=128, overlap_tokens=16)
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]
    assert [(c.start, c.end) for c in again] == [(c.start, c.end) for c in chunks]


def test_overflow_of_a_long_paragraph_starts_the_next_chunk_with_overlap() -> None:
    parsed, chunks = _chunks_of(CASES / "B30_long_single_paragraph.txt")
    assert len(chunks) > 1
    for a, b in zip(chunks, chunks[1:]):
        assert a.start < b.start < a.end, "consecutive chunks of one paragraph overlap"
    tail = "every worker in the excavation zone must wear a high-visibility jacket with reflective strips and a head torch"
    assert any(match_quote(tail, c.text) for c in chunks)


SECTIONED = (
    "CONTRATO DE ARRENDAMIENTO\n\n"
    "Cláusula Primera. Objeto\n\n" + "El arrendador cede el uso del local situado en la calle Mayor. " * 12 + "\n\n"
    "Cláusula Segunda. Renta\n\n" + "La renta mensual asciende a mil doscientos euros pagaderos por adelantado. " * 10 + "\n\n"
    "Cláusula Tercera. Duración\n\n" + "El contrato dura cinco años desde la firma y se prorroga por años. " * 10 + "\n"
)


def test_numbered_clauses_start_chunks_and_name_the_context() -> None:
    page = PageText(page=1, text=SECTIONED, blocks=text_blocks(SECTIONED))
    chunks = chunk_pages("f/arrendamiento.txt", "/x/arrendamiento.txt", [page], title="Arrendamiento local Mayor")
    starts = {c.text.split("\n", 1)[0] for c in chunks}
    assert {"Cláusula Segunda. Renta", "Cláusula Tercera. Duración"} <= starts
    third = next(c for c in chunks if c.text.startswith("Cláusula Tercera"))
    assert third.context == "Arrendamiento local Mayor › Cláusula Tercera. Duración"
    assert third.location.startswith("Cláusula Tercera. Duración ¶ ")
    # the context line is for retrieval only: never quotable, never in the offsets
    assert match_quote("Arrendamiento local Mayor", third.text) is None
    assert SECTIONED[third.start : third.end] == third.text


@pytest.mark.parametrize(
    ("line", "is_heading"),
    [
        ("Artículo 12.", True),
        ("Article 12 - Termination", True),
        ("ARTICLE 7", True),
        ("Cláusula Tercera. Precio", True),
        ("7.2 Payment terms", True),
        ("12. CONFIDENTIALITY", True),
        ("TÍTULO I", True),
        ("Capítulo tercero informarán la legislación positiva", False),
        ("artículo 53, 2, de esta Constitución", False),
        ("1. Los ciudadanos y los poderes públicos están sujetos a la Constitución y al resto del ordenamiento.", False),
    ],
)
def test_heading_detection(line: str, is_heading: bool) -> None:
    text = "Intro text of the page.\n" + line + "\nMore body text follows here.\n"
    heads = [h.text for h in find_headings(text, [])]
    assert (line in heads) is is_heading, heads


def test_boe_articles_carry_their_title_and_chapter_in_the_context() -> None:
    parsed, chunks = _chunks_of(BOE)
    art = next(c for c in chunks if "Artículo 14." in c.text)
    assert art.context.startswith(parsed.title)
    assert "TÍTULO I" in art.context and "CAPÍTULO PRIMERO" in art.context
    assert "BOLETÍN OFICIAL" not in art.context  # the running header is no heading


def test_citation_carries_location_and_a_context_line_quote_is_rejected() -> None:
    from core.types import ModelAnswer, ModelCitation, ModelClaim
    from core.verify import verify_claims

    page = PageText(page=1, text=SECTIONED, blocks=text_blocks(SECTIONED))
    chunks = chunk_pages("f/arrendamiento.txt", "/x/arrendamiento.txt", [page], title="Arrendamiento local Mayor")
    third = next(c for c in chunks if c.text.startswith("Cláusula Tercera"))
    answer = ModelAnswer(
        answer_found=True, complete_answer=True, conflicting_evidence=False, missing="",
        claims=[
            ModelClaim(text="Dura cinco años.", citations=[
                ModelCitation(chunk_id=third.chunk_id, quote="El contrato dura cinco años desde la firma")]),
            ModelClaim(text="Es el local Mayor.", citations=[
                ModelCitation(chunk_id=third.chunk_id, quote="Arrendamiento local Mayor › Cláusula Tercera")]),
        ],
    )
    claims, rejected = verify_claims(answer, {c.chunk_id: c for c in chunks})
    assert [c.text for c in claims] == ["Dura cinco años."]
    cit = claims[0].citations[0]
    assert cit.location == third.location and cit.location.startswith("Cláusula Tercera. Duración ¶")
    assert SECTIONED[cit.start : cit.end] == cit.quote
    assert any(r.reason.value == "quote_not_found" for r in rejected)


# --- token starts (issue #15: the tokenizer's cost per chunk) -------------------------

_TRICKY = (
    " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2007\u200a\u200b\u200d\u2028\u2029\u202f\u205f\u3000"
    "\ufeff\ufffd\x00\x07\xad"  # BOM, replacement char, NUL, control, soft hyphen
    "\u0301\u0308\u0327"  # combining marks (also right after whitespace)
    "áéíóúñüÁÉÑçÇßẞİıǅ"  # accents, special lower/upper cases
    "中文字日本語한국어"  # CJK ideographs are split one by one, Hangul is not
    "-./,;:()[]«»“”‘’'\"¿¡!?§¶€$%&*+=_@#~`^|\\<>"
    "0123456789²³½"
    "😀👍🏽\U0001f1ea\U0001f1f8"  # astral planes, modifiers, flags
    "ﬁﬀ"  # ligatures NFD does not split
)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(_TRICKY)) | st.characters(codec="utf-8"), max_size=300)
       | st.lists(st.sampled_from(["cláusula", "Arrendatario", "EUR 1.250,00", "x" * 101, "ABCDEFGHIJ" * 12,
                                   "re-\nnovación", "  ", "\n\n", "art.\u00a012", "ﬁn", "Ã©"]))
       .map("".join))
def test_token_starts_equal_the_tokenizers_whole_text_encode(text: str) -> None:
    from core.chunking import get_tokenizer, token_starts

    expected = [o[0] for o in get_tokenizer().encode(text, add_special_tokens=False).offsets]
    assert token_starts(text) == expected


def test_token_starts_equal_the_tokenizers_encode_on_real_pages() -> None:
    from core.chunking import get_tokenizer, token_starts

    pages = [pg.text for f in sorted(CORPORA.rglob("*.pdf"))[:6] for pg in parse_file(f).pages]
    assert pages
    for text in pages:
        assert token_starts(text) == [o[0] for o in get_tokenizer().encode(text, add_special_tokens=False).offsets]


@pytest.mark.parametrize(
    ("text", "pos", "ends"),
    [
        ("Any of the Participants will have the right to request an audit of the\n\nJoint Venture books.", 72, False),
        ("shall pay the fees,\n\nthe expenses and the taxes.", 21, False),  # lower case after
        ("the fiscal year ends on 31 December.\n\nAudit", 38, True),
        ("IN NO EVENT SHALL SUPPLIER BE LIABLE:\n\n(A) ANY", 39, True),
        ("The fiscal year will end on 31 December.\n\nFiscal Year\n\n17.", 55, True),  # after a title
        ("the Company shall pay all such fees within 30 days,\n\nSection 5", 53, False),
        # a footnote marker after a full stop is no sentence going on (FIPS 199 p. 6: "…individuals.²")
        ("could be expected to have a limited adverse effect on individuals.\u00b2\n\nAMPLIFICATION:", 69, True),
    ],
)
def test_ends_sentence_tells_a_paragraph_start_inside_a_running_sentence(text: str, pos: int, ends: bool) -> None:
    from core.chunking import ends_sentence

    assert text[pos - 2 : pos] == "\n\n"
    assert ends_sentence(text, pos) is ends


def test_a_sentence_running_over_a_pdf_page_break_is_whole_in_one_chunk() -> None:
    # CUAD's MJ Biotech joint venture agreement: page 4 ends "…the right to request an audit of the" and
    # page 5 goes on "Joint Venture books." Chunker 5 cut at the page's first text block (a paragraph
    # start) without overlap, so the audit clause (a CUAD gold quote) was whole in no chunk.
    pdf = CORPORA / "cuad" / "pdf" / "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.PDF"
    parsed, chunks = _chunks_of(pdf)
    quote = ("Any of the Participants will have the right to request an audit of the Joint Venture books. "
             "The cost of the audit will be borne by the Joint Venture.")
    assert any(match_quote(quote, c.text) for c in chunks)
    for c in chunks:
        assert SEGMENT_SEP.join(parsed.pages[s.page - 1].text[s.start : s.end] for s in c.spans()) == c.text


def test_the_chunk_tokenizer_is_the_models_own_and_loads_without_torch() -> None:
    """Counting word pieces loads tokenizer.json with ``tokenizers`` alone: the same pieces as
    transformers' AutoTokenizer, without importing torch (35 s of a first index under load)."""
    import subprocess
    import sys

    from transformers import AutoTokenizer

    from core.chunking import get_tokenizer
    from core.paths import embedding_model_dir

    auto = AutoTokenizer.from_pretrained(str(embedding_model_dir())).backend_tokenizer
    auto.no_padding()  # the model's file pads to 128: counting never does
    auto.no_truncation()
    for text in ["The Franchisee shall pay Royalties of 5% — net of VAT (ﬁnal).",
                 "El Arrendatario abonará catorce mil cuatrocientos euros con cincuenta céntimos.", "中文 ＡＢＣ"]:
        assert get_tokenizer().encode(text).ids == auto.encode(text).ids
    probe = ("import sys, core.chunking as c; c.get_tokenizer().encode('x'); "
             "print('torch' in sys.modules, 'transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
