"""Text layers that cannot be used, and OCR of those pages (Tesseract through PyMuPDF).

A page needs OCR when it has no text layer (a scan), when its text layer is made of
unmappable glyphs (a font without a Unicode map), or when its text does not read as
language at all: a font whose map sends every glyph to the wrong letter
(":UHQILHOG 3DSHU 0LOO" for "Wrenfield Paper Mill"), see :func:`reads_as_language`.
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from collections import Counter
from functools import lru_cache

import pymupdf

from core.ingest.base import PageText
from core.ingest.pdf_layout import page_text_from_rawdict

OCR_LANGUAGES = "eng+spa"
OCR_DPI = 300
# MuPDF's default flags for rawdict.
PDF_FLAGS = pymupdf.TEXTFLAGS_RAWDICT

# A page with fewer non-space characters than this, and an image on it, has no usable text layer.
_MIN_PAGE_CHARS = 10
# A text layer is garbage when more than this share of its non-space characters are
# unmappable glyphs (U+FFFD, private-use, control or unassigned code points) or
# pdfminer-style "(cid:NN)" runs. 30 % is our choice: real text in any script has
# none of these, and CID-font output without a ToUnicode map is mostly made of them.
_GARBAGE_SHARE = 0.30
_CID = re.compile(r"\(cid:\d+\)")

# --- does the text read as language? -----------------------------------------------------
# Letter frequencies (percent) of English and Spanish text, from the table of Wikipedia's
# "Letter frequency" article (English after Lewand, "Cryptological Mathematics", 2000);
# accented letters count as their base letter.
_EN = (8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.095, 6.0, 6.3,
       9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.074)
_ES = (11.525, 2.215, 4.019, 5.010, 12.181, 0.692, 1.768, 0.703, 6.247, 0.493, 0.011, 4.967, 3.157, 6.712,
       8.683, 2.510, 0.877, 6.871, 7.977, 4.632, 2.927, 1.138, 0.017, 0.215, 1.008, 0.467)
MIN_LETTERS = 100
"""Pages with fewer Latin letters than this are not judged (too little text to tell)."""
LETTER_COSINE = 0.75
"""Below this cosine similarity between the page's letter frequencies and English's or
Spanish's (the better of the two), the letters are not those of a Latin-script language."""
COMMON_WORD_SHARE = 0.10
"""Below this share of words that are common words (bm25s' stopword lists of twelve
Latin-script languages), the words are not those of a language either."""
# Measured (bench/ingest.py, "text layers"): every page of ../shared/eval/corpora, the lab
# and the cases scores a cosine of at least 0.857 and a common-word share of at least 0.133;
# English and Spanish paragraphs shifted by ±1, ±3 or -29 code points (the broken-font
# pattern) or put through a random letter substitution score at most 0.585 and 0.068.
_WORD = re.compile(r"[^\W\d_]{2,}")


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    import bm25s.stopwords as sw

    names = ("EN", "SPANISH", "FRENCH", "GERMAN", "ITALIAN", "PORTUGUESE", "DUTCH", "DANISH", "NORWEGIAN",
             "SWEDISH", "TURKISH")
    return frozenset().union(*(getattr(sw, f"STOPWORDS_{n}") for n in names))


def _cosine(counts: list[int], profile: tuple[float, ...]) -> float:
    dot = sum(c * p for c, p in zip(counts, profile))
    norm = math.sqrt(sum(c * c for c in counts)) * math.sqrt(sum(p * p for p in profile))
    return dot / norm if norm else 0.0


def reads_as_language(text: str) -> bool:
    """False when ``text`` is Latin-script letters that read as no language (a mis-mapped font).

    Both tests must fail to call a text garbage: its letter frequencies are far from
    English and Spanish ones (cosine below :data:`LETTER_COSINE`) *and* few of its words
    are common words of any of twelve Latin-script languages (:data:`COMMON_WORD_SHARE`).
    Texts with fewer than :data:`MIN_LETTERS` Latin letters, or mostly other scripts,
    are given the benefit of the doubt (``True``).

    Known blind spots: a page of a language whose letters differ from English and Spanish
    ones and whose common words are not in the lists (Polish, Czech, Finnish…) that is
    also a list of names or codes could be judged garbage and OCRed (the OCR then gives
    the same text); a mis-mapping that keeps letter frequencies (a font that swaps only
    two rare letters) is not seen.
    """
    counts = [0] * 26
    letters = 0
    for ch, n in Counter(text).items():  # distinct characters only: a page has a few dozen
        if not ch.isalpha():
            continue
        letters += n
        base = unicodedata.normalize("NFD", ch)[0].lower()
        if "a" <= base <= "z":
            counts[ord(base) - 97] += n
    latin = sum(counts)
    if latin < MIN_LETTERS or latin < 0.5 * letters:
        return True
    if max(_cosine(counts, _EN), _cosine(counts, _ES)) >= LETTER_COSINE:
        return True
    words = [w.casefold() for w in _WORD.findall(text)]
    common = _common_words()
    return bool(words) and sum(w in common for w in words) / len(words) >= COMMON_WORD_SHARE


def _common_share(text: str) -> float:
    """Share of the words of ``text`` (two or more letters) that are common words (:func:`_common_words`)."""
    words = [w.casefold() for w in _WORD.findall(text)]
    common = _common_words()
    return sum(w in common for w in words) / len(words) if words else 0.0


#: Letters a shifted layer's most frequent characters are tried as (the commonest letters of
#: English and Spanish text, Wikipedia's "Letter frequency" table).
_LIKELY = "eaot"
#: An un-shifted text must reach this common-word share (twice :data:`COMMON_WORD_SHARE`; real pages
#: measured at least 0.133) to call the layer shifted.
SHIFT_COMMON_SHARE = 2 * COMMON_WORD_SHARE


#: A token that is a number as people write them (digits with separators, a currency or percent sign).
_NUMBER_TOKEN = re.compile(r"[(€$£-]?\d[\d.,/:%-]*\)?[.,;]?")
#: Share of such tokens from which a page reads as a table of figures (a shifted font rarely yields one:
#: found on the B47 rent roll, whose number-heavy pages were taken for a font shifted by -47).
NUMERIC_TABLE_SHARE = 0.25


def shifted_by(text: str) -> int | None:
    """The code-point offset ``k`` by which a mis-mapped font shifted every character of ``text``, or ``None``.

    A font whose encoding is off by a constant sends every glyph ``k`` code points away
    (":UHQILHOG" is "Wrenfield" moved by -29); depending on ``k`` the result is other Latin letters
    (which can keep letter frequencies close enough to English or Spanish to pass
    :func:`reads_as_language`), punctuation and digits (too few letters to be judged at all), or
    another script. Whatever ``k``, moving the text back by it gives the words again. So each offset
    that would make one of its three most frequent characters one of :data:`_LIKELY` is tried, and
    the first under which at least :data:`SHIFT_COMMON_SHARE` of the words, and :data:`COMMON_WORD_SHARE`
    more than in the text as it is, are common words is returned (the shifted words themselves can be "common":
    the lists of twelve languages hold many two-letter words). Real text never gains common words
    by being moved. Only pages with at least :data:`MIN_LETTERS` non-space characters are judged.
    """
    visible = [c for c in text if not c.isspace()]
    if len(visible) < MIN_LETTERS:
        return None
    tokens = text.split()
    if sum(bool(_NUMBER_TOKEN.fullmatch(t)) for t in tokens) >= NUMERIC_TABLE_SHARE * len(tokens):
        # A page of well-formed numbers ("2.120,00", "10/06/2028") is a table, not a shifted font: moved by
        # the digits-to-letters offset its digits become letters that can form short "common" words.
        return None
    own = _common_share(text)
    top = [c for c, _ in Counter(visible).most_common(3)]
    for k in dict.fromkeys(ord(c) - ord(t) for c in top for t in _LIKELY):
        if k == 0:
            continue
        # One translation table over the page's distinct characters (str.translate runs in C): the same
        # text as moving each character in a Python loop, which cost ~0.3 s a page on the dev CUAD PDFs.
        back = text.translate({ord(c): chr(ord(c) - k) for c in set(text)
                               if not c.isspace() and 0 <= ord(c) - k < 0x110000})
        if _common_share(back) >= max(SHIFT_COMMON_SHARE, own + COMMON_WORD_SHARE):
            return k
    return None


def text_layer_problem(page_text: PageText, has_images: bool) -> str | None:
    """Why a PDF page's text layer is unusable, or ``None`` if it is fine.

    Returns ``"no text layer"`` for a page with an image and (almost) no text,
    ``"unreadable text layer"`` when most characters are garbage (see ``_GARBAGE_SHARE``),
    and ``"text layer does not read as language"`` when :func:`reads_as_language` says so or the
    character codes are shifted by a constant (:func:`shifted_by`).
    """
    visible = [c for c in page_text.text if not c.isspace()]
    if len(visible) < _MIN_PAGE_CHARS:
        return "no text layer" if has_images else None
    cid_chars = sum(len(m) for m in _CID.findall(page_text.text))
    bad = cid_chars + sum(
        1 for c in visible if c == "\ufffd" or unicodedata.category(c) in {"Co", "Cc", "Cn", "Cs"}
    )
    if bad / len(visible) > _GARBAGE_SHARE:
        return "unreadable text layer (font without a Unicode map)"
    if not reads_as_language(page_text.text):
        return "text layer does not read as language (the font maps its glyphs to wrong letters)"
    k = shifted_by(page_text.text)
    if k is not None:
        return f"text layer does not read as language (the font shifts every character code by {k:+d})"
    return None


def tessdata_dir(languages: str = OCR_LANGUAGES) -> str | None:
    """Tesseract's language folder if it holds every language of ``languages`` ("eng+spa"), else ``None``.

    Honours ``TESSDATA_PREFIX`` (as Tesseract and PyMuPDF do); otherwise asks the
    installed ``tesseract`` through :func:`pymupdf.get_tessdata`.
    """
    try:
        folder = pymupdf.get_tessdata()
    except Exception:  # RuntimeError when Tesseract is not installed
        return None
    if not folder or not os.path.isdir(folder):
        return None
    if all(os.path.exists(os.path.join(folder, f"{lang}.traineddata")) for lang in languages.split("+")):
        return folder
    return None


def _ocr_confidence(page: pymupdf.Page, dpi: int, languages: str, tessdata: str) -> float | None:
    """Mean Tesseract word confidence (0-100) of the page image, or ``None`` if unavailable.

    PyMuPDF's OCR (MuPDF's built-in Tesseract) returns text and boxes but no
    confidences, so the page image is read a second time with pytesseract's
    ``image_to_data`` (a maintained wrapper of the ``tesseract`` program), which
    reports a confidence per word; words with confidence -1 (layout rows) are skipped.
    """
    try:
        import pytesseract
        from PIL import Image
    except ImportError:
        return None
    try:
        pix = page.get_pixmap(dpi=dpi, alpha=False)
        image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        data = pytesseract.image_to_data(
            image, lang=languages, config=f'--tessdata-dir "{tessdata}"', output_type=pytesseract.Output.DICT
        )
    except Exception:  # tesseract program missing or failing: confidence unknown, text still valid
        return None
    confs = [float(c) for c, w in zip(data["conf"], data["text"]) if float(c) >= 0 and str(w).strip()]
    return round(sum(confs) / len(confs), 1) if confs else None


def ocr_page(
    page: pymupdf.Page, *, languages: str = OCR_LANGUAGES, dpi: int = OCR_DPI, tessdata: str, confidence: bool = True
) -> PageText:
    """OCR one PDF page with PyMuPDF (``get_textpage_ocr(full=True)``): text, character boxes, confidence.

    The result has ``modality == "ocr"`` and boxes in the same displayed-page space
    as a text layer's; ``confidence=False`` skips the second Tesseract pass that
    measures the confidence (re-extraction for highlighting needs only the boxes).
    Raises whatever PyMuPDF raises when OCR fails.
    """
    tp = page.get_textpage_ocr(flags=PDF_FLAGS, language=languages, dpi=dpi, full=True, tessdata=tessdata)
    raw = page.get_text("rawdict", textpage=tp, flags=PDF_FLAGS, sort=True)
    result = page_text_from_rawdict(page, raw)
    result.modality = "ocr"
    result.ocr_confidence = _ocr_confidence(page, dpi, languages, tessdata) if confidence else None
    return result


