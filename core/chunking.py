"""Split page texts into section-aware chunks measured in embedding-model tokens.

**Units.** Sizes are word-piece tokens of the embedding model's own tokenizer
(all-MiniLM-L6-v2, loaded with ``transformers.AutoTokenizer`` from
:func:`core.paths.embedding_model_dir`, never downloaded). The model reads at
most ``MAX_SEQ_TOKENS`` = 256 tokens (its ``sentence_bert_config.json``), and
sentence-transformers silently drops what lies beyond. So a chunk's *embedding
text* — ``[CLS]`` + context line + chunk text + ``[SEP]`` — is at most
``min(chunk_tokens, 256)`` tokens; nothing of a chunk is ever cut off by the
embedder.

**Overflow.** When a page or section is longer than the budget, the chunk ends
at the best break inside the last 30 % of the budget (paragraph, else sentence
end, else line end, else space) and the rest *starts the next chunk*, which
repeats the last ``overlap_tokens`` tokens (from a word boundary) so a quote
that straddles the cut is whole in one of the two. A single "word" longer than
the budget is cut at a token boundary.

**Sections.** Headings given by the format (DOCX heading styles, HTML ``h1``–
``h6``, Markdown ``#``) and numbered clauses at
a line start ("7.2", "Cláusula Tercera", "Article 12", "Artículo 12",
"Capítulo II", "TÍTULO I"…) start a new chunk where possible: when the budget
would carry a chunk past such a start (and the chunk already holds a quarter of
the budget), the chunk ends right before it, without overlap. Small sections
therefore share a chunk, and every cut between sections falls on a heading.

**Context line.** Each chunk carries ``context`` = document title and the
heading path in force at its start ("Contrato marco › Capítulo II › Artículo 12").
It is prepended for embedding and BM25 (:meth:`core.types.Chunk.embedding_text`)
but is never part of ``text``: quotes verify against, and offsets index, only the
chunk's own text (``text == page_text[start:end]`` for a single-segment chunk).

**Pages.** A document is chunked as one stream of its pages' texts, without their
running headers and footers (``PageText.running``): a chunk may cross a page break
(a clause that goes on over the page is quotable whole, case B38), and no chunk
carries "CONFIDENTIAL – Page 2 of 4". Such a chunk lists its page-text
``segments`` (:class:`core.types.Chunk`); the running lines stay in the page texts,
so highlighting and offsets are unchanged. Ids are ``<doc_id>#p<page>-c<n>`` with
``page`` where the chunk starts and ``n`` 0-based among the chunks starting there.
"""

from __future__ import annotations

import bisect
import functools
import re
import threading
from dataclasses import dataclass

from core.ingest import Block, PageText
from core.types import SEGMENT_SEP, Chunk, Segment

#: Bumped when the chunker's output changes for the same settings — or the page texts it is
#: given do (3: issue #14's extraction: DOCX revisions, numbering and notes, PDF form values and
#: super/subscript markers, BM25 number tokens; 4: a document is chunked as one stream, chunks
#: cross page breaks and leave out running headers and footers; 5: an overlap begins on a
#: sentence, enumerated items inside a line start paragraphs; 6: a paragraph start where the sentence
#: before it runs on — a PDF block or page ending mid-sentence — is no cut without overlap); recorded in the index
#: fingerprint (core.store.index_fingerprint), so old indexes ask for a rebuild.
CHUNKER_VERSION = 6
MAX_SEQ_TOKENS = 256  # all-MiniLM-L6-v2 max_seq_length (sentence_bert_config.json)
SPECIAL_TOKENS = 2  # [CLS] and [SEP]
MAX_CONTEXT_TOKENS = 32  # the context line is shortened to this many tokens
DEFAULT_CHUNK_TOKENS = 256
DEFAULT_OVERLAP_TOKENS = 48
_PATH_SEP = " › "

_PARA = re.compile(r"\n[ \t]*\n")
_SENT = re.compile(r"[.!?;:][\"'”’)\]]?\s")
_LINE = re.compile(r"\n")

# Numbered clauses and section words at the start of a line, with their heading level.
_CLAUSE_WORDS = [
    (1, r"(?:t[íi]tulo|title|part[e]?|libro|book)\s+(?:[IVXLC]+|\d+|[a-zá-ú]+)\b"),
    (2, r"(?:cap[íi]tulo|chapter)\s+(?:[IVXLC]+|\d+|[a-zá-ú]+)\b"),
    (3, r"(?:secci[óo]n|section|anexo|annex|schedule|ap[ée]ndice|appendix)\s+(?:[IVXLC]+|\d+[.\d]*|[A-Z]|[a-zá-ú]+)\b"),
    (4, r"(?:art[íi]culo|article|art\.|cl[áa]usula|clause|disposici[óo]n\s+\w+)\s+(?:\d+[.\d]*(?:\s*bis)?|[IVXLC]+|[a-zá-ú]+)\b"),
]
# A clause word is a heading only when what follows its number ends the line or starts a
# capitalised title ("Artículo 12.", "Cláusula Tercera. Objeto"), not running text that
# wrapped onto a new line ("Capítulo tercero informarán…", "artículo 53, 2, de…").
_TITLE_AFTER = r"(?=[ \t]*(?:[.:\u2013\u2014-][ \t]*)?(?:$|[A-ZÁÉÍÓÚÑ\"«(]))"
_CLAUSE_RE = [
    (lvl, re.compile(r"^[ \t]*(?i:" + pat + r")" + _TITLE_AFTER, re.MULTILINE)) for lvl, pat in _CLAUSE_WORDS
]
# "7.2 Title", "7.2.1. Title", "12. TITLE" (a numbered paragraph "1. La bandera…" in running
# text is not a heading: after a single number only a short all-capitals title counts).
_NUMBERED = re.compile(r"^[ \t]*(\d{1,3}(?:\.\d{1,3})+)\.?[ \t]+(?=[A-ZÁÉÍÓÚÑ])", re.MULTILINE)
_NUMBERED_TOP = re.compile(r"^[ \t]*(\d{1,3})\.[ \t]+(?=[A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑÜ0-9 ,;:'’&()/-]{2,60}$)", re.MULTILINE)


@dataclass
class _Heading:
    start: int
    end: int
    level: int
    text: str


_tokenizer = None
_tokenizer_lock = threading.Lock()


def get_tokenizer():
    """The embedding model's word-piece tokenizer (``tokenizers.Tokenizer``), without truncation or padding.

    Loaded once with ``tokenizers.Tokenizer.from_file`` from the local model folder's
    ``tokenizer.json`` — the same tokenizer ``transformers.AutoTokenizer`` wraps (identical
    serialization, checked on 404 CUAD/XQuAD/case texts, 2026-12-02), without importing
    transformers and torch (35 s of a first index under load on the OpenVINO path; a model folder
    without ``tokenizer.json`` still goes through AutoTokenizer). The file sets
    truncation to 128 and padding, which counting must not apply: both are switched off.

    Raises:
        ModelUnavailableError: the embedding model is not installed.
    """
    global _tokenizer
    with _tokenizer_lock:
        if _tokenizer is None:
            from tokenizers import Tokenizer

            from core.paths import embedding_model_dir

            folder = embedding_model_dir()
            if (folder / "tokenizer.json").exists():
                backend = Tokenizer.from_file(str(folder / "tokenizer.json"))
            else:  # a model folder of the user's (VERBATIM_EMBEDDING_MODEL) with only a vocabulary
                import copy

                from transformers import AutoTokenizer

                backend = copy.deepcopy(AutoTokenizer.from_pretrained(str(folder)).backend_tokenizer)
            backend.no_truncation()
            backend.no_padding()
            _tokenizer = backend
        return _tokenizer


# The characters BERT's normalizer turns into a space (Unicode White_Space that is not a
# control character: tokenizers' BertNormalizer drops \x0b, \x0c, \x85, … instead, so
# they may join two pieces and are not split on here).
_PIECE = re.compile("[^\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
_PIECE_CACHE_MAX = 500_000
_piece_starts: dict[str, tuple[int, ...]] = {}


def token_starts(text: str) -> list[int]:
    """Start offsets (0-based, in characters of ``text``) of its word-piece tokens, in order.

    Equal to ``[o[0] for o in get_tokenizer().encode(text, add_special_tokens=False).offsets]``
    (tests/core/test_chunking.py holds it to that), at a fraction of the cost.
    Why by hand: the whole-text encode was the largest cost of indexing outside the
    embedding model (0.7 ms per chunk, issue #15). BERT's normalizer (lowercase,
    accents, control characters, CJK padding) and pre-tokenizer act within a
    whitespace-delimited piece, so each distinct piece is tokenized by the library
    once and its token starts are reused; a contract repeats few distinct pieces.

    Raises:
        ModelUnavailableError: the embedding model (its tokenizer) is not installed.
    """
    tokenizer = get_tokenizer()
    cache = _piece_starts
    if len(cache) > _PIECE_CACHE_MAX:
        cache.clear()
    out: list[int] = []
    for m in _PIECE.finditer(text):
        piece = m.group()
        rel = cache.get(piece)
        if rel is None:
            rel = tuple(o[0] for o in tokenizer.encode(piece, add_special_tokens=False).offsets)
            cache[piece] = rel
        at = m.start()
        if len(rel) == 1:
            out.append(at + rel[0])
        else:
            out.extend(at + r for r in rel)
    return out


def count_tokens(text: str) -> int:
    """Word-piece tokens of ``text`` for the embedding model, without ``[CLS]``/``[SEP]``."""
    return len(token_starts(text))


def find_headings(text: str, blocks: list[Block]) -> list[_Heading]:
    """Section starts in a page text: format headings (``blocks``) and numbered clauses at line starts."""
    found: dict[int, _Heading] = {}
    for b in blocks:
        if b.kind == "heading":
            line = text[b.start : b.end].strip().split("\n", 1)[0]
            found[b.start] = _Heading(b.start, b.end, b.level or 1, line)
    for level, rx in _CLAUSE_RE:
        for m in rx.finditer(text):
            start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            found.setdefault(start, _Heading(start, end, level, text[start:end].strip()))
    for rx in (_NUMBERED, _NUMBERED_TOP):
        for m in rx.finditer(text):
            start = m.start(1)
            depth = m.group(1).count(".") if rx is _NUMBERED else 0
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            found.setdefault(start, _Heading(start, end, 4 + depth, text[start:end].strip()))
    return [found[k] for k in sorted(found)]


_PARA_START = re.compile(r"\n[ \t]*\n[ \t]*(?=\S)|\n[ \t]*(?=(?:\d{1,3}\.|[a-z]\)|[-•*])[ \t]+\S)")
# An enumerated item that starts inside a line after a run of spaces, as in text flattened
# from a PDF or an EDGAR filing: "…was claimed.    (d)  Royalty Payments.   1. Royalty…".
_INLINE_ITEM = re.compile(
    r"(?<=\S)[ \t]{2,}(?=(?:\((?:[a-z]{1,2}|[ivx]{1,5}|\d{1,3})\)|(?:[a-z]|\d{1,3}(?:\.\d{1,3})*)\.)[ \t]+\S)"
)
# Where a sentence starts: after a sentence end and whitespace, before a capital, digit,
# opening bracket or quote (abbreviations like "Inc." followed by a capital are rare breaks
# here and only make the overlap a little longer).
_SENT_START = re.compile(r"(?<=[.!?;:])[\"'”’)\]]?\s+(?=[A-ZÁÉÍÓÚÑ0-9(\"“«¿¡])")


def paragraph_starts(text: str, blocks: list[Block]) -> list[int]:
    """Offsets where paragraphs start: blocks, text after a blank line, numbered or bulleted
    lines, and enumerated items inside a line after a run of spaces ("   (d) ", "   1. ")."""
    starts = {b.start for b in blocks} | {m.end() for m in _PARA_START.finditer(text)}
    starts |= {m.end() for m in _INLINE_ITEM.finditer(text)}
    return sorted(x for x in starts if 0 < x < len(text))


_GOES_ON_BEFORE = ",-\u2013\u2014(/&"
_RUNNING_LINE_CHARS = 40
"""A line this long (characters) is running text: ending without punctuation, its sentence goes on.
Shorter lines ending so are taken as titles ("Fiscal Year", "Audit"), after which a cut is clean."""


def ends_sentence(text: str, pos: int) -> bool:
    """False when the text before offset ``pos`` (0-based, characters) visibly runs on past it: the last
    non-space character before it is a lower-case letter or one of ``, - – — ( / &`` at the end of
    a line of running text (:data:`_RUNNING_LINE_CHARS`), or the first non-space character from it is a
    lower-case letter. A paragraph start (:func:`paragraph_starts`)
    where this is False — a PDF text block or a page that ends mid-sentence, as PyMuPDF cuts blocks by
    layout — is no place for a cut without overlap: the sentence would be whole in neither chunk."""
    i = pos - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i >= 0 and (text[i].islower() or text[i] in _GOES_ON_BEFORE):
        line_start = text.rfind("\n", 0, i) + 1
        if i + 1 - line_start >= _RUNNING_LINE_CHARS:  # running text, not a title such as "Fiscal Year"
            return False
    j = pos
    while j < len(text) and text[j].isspace():
        j += 1
    return not (j < len(text) and text[j].islower())


def sentence_starts(text: str) -> list[int]:
    """Offsets where sentences start (see ``_SENT_START``), sorted; used to begin an overlap on
    a sentence so that a sentence cut by a chunk boundary is whole in the next chunk."""
    return [m.end() for m in _SENT_START.finditer(text)]


def _shorten(line: str, limit: int = 80) -> str:
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


class _HeadingPath:
    """The stack of headings in force while walking a document from start to end."""

    def __init__(self) -> None:
        self.stack: list[_Heading] = []

    def push(self, h: _Heading) -> None:
        while self.stack and self.stack[-1].level >= h.level:
            self.stack.pop()
        self.stack.append(h)

    def names(self) -> list[str]:
        return [_shorten(h.text) for h in self.stack]


def _context_line(title: str, path: list[str]) -> str:
    """``title › heading › …`` shortened (outer headings first dropped) to ``MAX_CONTEXT_TOKENS``."""
    return _context_line_cached(title, tuple(path))


@functools.lru_cache(maxsize=4096)
def _context_tokens(line: str) -> int:
    """:func:`count_tokens` of a context line; consecutive chunks share theirs, so it is cached."""
    return count_tokens(line)


@functools.lru_cache(maxsize=4096)
def _context_line_cached(title: str, path: tuple[str, ...]) -> str:
    parts = [p for p in [_shorten(title)] + list(path) if p]
    line = _PATH_SEP.join(parts)
    while len(parts) > 2 and _context_tokens(line) > MAX_CONTEXT_TOKENS:
        parts.pop(1)
        line = _PATH_SEP.join(parts)
    if _context_tokens(line) > MAX_CONTEXT_TOKENS:
        enc = get_tokenizer().encode(line, add_special_tokens=False)
        line = line[: enc.offsets[MAX_CONTEXT_TOKENS - 1][1]]
    return line


_COLUMNS = "Columns: "
"""Begins the context-line part that names a PDF table's columns (:func:`_table_columns`)."""


def _table_columns(blocks: list[Block], block_starts: list[int], start: int, ahead: int = 3) -> tuple[str, ...]:
    """The column names of the PDF table a chunk starting at ``start`` reads (``Block.columns``): the table
    block it starts in, or one of the next ``ahead`` blocks (a chunk that starts with the heading above a
    table); ``()`` when none. They go into the chunk's context line, so a row found on a page without the
    header row still says what its values are (issue #23, case B47)."""
    b = max(bisect.bisect_right(block_starts, start) - 1, 0)
    for blk in blocks[b : b + ahead + 1]:
        if blk.columns and blk.end > start:
            return blk.columns
    return ()


def _best_break(text: str, lo: int, hi: int) -> int | None:
    """Best cut position in ``text[lo:hi]``: after a paragraph break, sentence end, line end or space."""
    window = text[lo:hi]
    for pattern in (_PARA, _SENT, _LINE):
        ends = [m.end() for m in pattern.finditer(window)]
        if ends:
            return lo + ends[-1]
    space = window.rfind(" ")
    return lo + space + 1 if space >= 0 else None


@dataclass
class _Piece:
    """A span of one page's text placed in the document stream: ``stream[at:at + end - start]``."""

    at: int
    page: int  # index into the pages list
    start: int
    end: int


_SENTENCE_END = (".", ":", ";", "!", "?", "…", ")", '"', "”", "»")


def _stream(pages: list[PageText]) -> tuple[str, list[_Piece], list[Block]]:
    """The document's body text as one stream: every page's text without its running headers
    and footers (``PageText.running``), pieces stripped of edge whitespace and joined by
    :data:`core.types.SEGMENT_SEP`; the pages' blocks moved to stream offsets.

    A page whose body ends mid-sentence runs on into the next page: the next page's
    first block then continues the previous block instead of starting a paragraph, so
    the chunker does not prefer to cut a clause at a page break.
    """
    parts: list[str] = []
    pieces: list[_Piece] = []
    blocks: list[Block] = []
    pos = 0
    for idx, page in enumerate(pages):
        text = page.text
        cuts = sorted(page.running)
        bounds, cursor = [], 0
        for a, b in cuts:
            bounds.append((cursor, a))
            cursor = max(cursor, b)
        bounds.append((cursor, len(text)))
        first_piece = True
        for a, b in bounds:
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a >= b:
                continue
            if parts:
                parts.append(SEGMENT_SEP)
                pos += len(SEGMENT_SEP)
            runs_on = first_piece and bool(blocks) and not parts[-2].rstrip().endswith(_SENTENCE_END)
            piece = _Piece(pos, idx, a, b)
            pieces.append(piece)
            parts.append(text[a:b])
            for blk in page.blocks:
                s, e = max(blk.start, a), min(blk.end, b)
                if s >= e and not (blk.start == blk.end and a <= blk.start < b):
                    continue
                moved = Block(pos + s - a, pos + max(s, e) - a, blk.kind, blk.level, blk.index, blk.label,
                              blk.columns)
                if runs_on and blk.start <= a:
                    blocks[-1].end = moved.end  # the clause goes on from the previous page
                else:
                    blocks.append(moved)
                runs_on = False
            pos += b - a
            first_piece = False
    return "".join(parts), pieces, blocks


def _segments(pieces: list[_Piece], pages: list[PageText], start: int, end: int) -> list[Segment]:
    out = []
    for pc in pieces:
        length = pc.end - pc.start
        a, b = max(start, pc.at), min(end, pc.at + length)
        if a < b:
            out.append(Segment(page=pages[pc.page].page, start=pc.start + a - pc.at, end=pc.start + b - pc.at,
                               label=pages[pc.page].label))
    return out


def chunk_pages(
    doc_id: str,
    path: str,
    pages: list[PageText],
    *,
    chunk_tokens: int | None = None,
    overlap_tokens: int | None = None,
    lang: str = "en",
    title: str = "",
) -> list[Chunk]:
    """Chunk one document (see the module docstring for the rules).

    Args:
        doc_id: the document's stable id (``<folder>/<relative path>``).
        path: absolute path of the file.
        pages: the document's pages (1-based numbers), with their blocks and running
            header/footer spans.
        chunk_tokens: maximum tokens of a chunk's embedding text, ``[CLS]``,
            context line and ``[SEP]`` included; capped at ``MAX_SEQ_TOKENS``.
            Default ``DEFAULT_CHUNK_TOKENS``.
        overlap_tokens: tokens repeated at the start of a chunk that continues an
            over-long section. Default ``DEFAULT_OVERLAP_TOKENS``.
        lang: ISO 639-1 language of the document (used by BM25).
        title: document title for the context line (file name if empty).

    Returns:
        Chunks with ids ``<doc_id>#p<page>-c<n>`` (``page`` where the chunk starts);
        a chunk crossing a page break or a left-out running line has ``segments``.
        Whitespace-only pages give none.

    Raises:
        ModelUnavailableError: the embedding model (its tokenizer) is not installed.
    """
    limit = min(chunk_tokens or DEFAULT_CHUNK_TOKENS, MAX_SEQ_TOKENS)
    overlap_n = overlap_tokens if overlap_tokens is not None else DEFAULT_OVERLAP_TOKENS
    title = title or path.rsplit("/", 1)[-1]
    get_tokenizer()  # a missing model is reported even for an empty document
    chunks: list[Chunk] = []
    text, pieces, blocks = _stream(pages)
    if not text:
        return chunks
    headings = _HeadingPath()
    by_number = {pg.page: pg for pg in pages}
    per_page: dict[int, int] = {}
    tok_starts = token_starts(text)
    page_heads = find_headings(text, blocks)
    head_starts = [h.start for h in page_heads]
    block_starts = [b.start for b in blocks]
    # paragraph starts after an ended sentence (a PDF text block or a page may end mid-sentence)
    para_starts = [x for x in paragraph_starts(text, blocks) if ends_sentence(text, x)]
    unit_starts = sorted(set(para_starts) | set(sentence_starts(text)))
    h_i = 0
    start = 0
    while True:
        while start < len(text) and text[start].isspace():
            start += 1
        if start >= len(text):
            break
        while h_i < len(page_heads) and page_heads[h_i].start <= start:
            headings.push(page_heads[h_i])
            h_i += 1
        path_names = headings.names()
        columns = _table_columns(blocks, block_starts, start)
        context = _context_line(title, path_names + ([_COLUMNS + " | ".join(columns)] if columns else []))
        budget = limit - SPECIAL_TOKENS - (_context_tokens(context) + 1 if context else 0)
        budget = max(budget, 16)
        first_tok = bisect.bisect_left(tok_starts, start)
        last_tok = first_tok + budget  # first token that no longer fits
        if last_tok >= len(tok_starts):
            end, next_start = len(text), None
        else:
            max_end = tok_starts[last_tok]
            min_tok = first_tok + budget // 4
            lo_sec = tok_starts[min(min_tok, len(tok_starts) - 1)]
            # a section start inside the budget (after a quarter of it) ends the chunk there
            k = bisect.bisect_right(head_starts, max_end) - 1
            if k >= 0 and head_starts[k] > lo_sec:
                end, next_start = head_starts[k], head_starts[k]
            else:
                # prefer ending right before a paragraph in the second half of the budget
                mid = start + (max_end - start) // 2
                p = bisect.bisect_right(para_starts, max_end) - 1
                if p >= 0 and para_starts[p] > mid:
                    end = next_start = para_starts[p]
                else:
                    lo = start + int((max_end - start) * 0.7)
                    end = _best_break(text, lo, max_end) or max_end
                    end_tok = bisect.bisect_left(tok_starts, end)
                    ov_tok = max(end_tok - overlap_n, first_tok + 1)
                    next_start = tok_starts[ov_tok] if ov_tok < len(tok_starts) else end
                    # begin the overlap at a word boundary
                    if 0 < next_start < end and not text[next_start - 1].isspace():
                        space = text.find(" ", next_start, end)
                        nl = text.find("\n", next_start, end)
                        cands = [c for c in (space, nl) if c >= 0]
                        next_start = min(cands) + 1 if cands else next_start
                    # ...and at the start of the sentence (or enumerated item) it falls in,
                    # so a sentence the cut divides is whole in the next chunk, as long as
                    # the overlap stays under half the budget (else the word boundary).
                    half = tok_starts[min(first_tok + budget // 2, len(tok_starts) - 1)]
                    u = bisect.bisect_right(unit_starts, next_start) - 1
                    if u >= 0 and max(start, half) < unit_starts[u] < next_start:
                        next_start = unit_starts[u]
                    # a paragraph cut in two is repeated whole by the next chunk when it began
                    # inside this one (so any paragraph that fits the budget lies in one chunk)
                    p = bisect.bisect_right(para_starts, end - 1) - 1
                    if p >= 0 and start < para_starts[p] < next_start:
                        para_end = para_starts[p + 1] if p + 1 < len(para_starts) else len(text)
                        para_tokens = bisect.bisect_left(tok_starts, para_end) - bisect.bisect_left(
                            tok_starts, para_starts[p]
                        )
                        if para_tokens <= budget:
                            next_start = para_starts[p]
                    if next_start <= start:
                        next_start = end
        piece_end = end
        while piece_end > start and text[piece_end - 1].isspace():
            piece_end -= 1
        if piece_end > start:
            segments = _segments(pieces, pages, start, piece_end)
            first = by_number[segments[0].page]
            chunk_pages_ = [by_number[p] for p in dict.fromkeys(s.page for s in segments)]
            b = bisect.bisect_right(block_starts, start) - 1
            location = _PATH_SEP.join(path_names)
            if blocks and b >= 0 and blocks[b].label:  # "footnote 1", "header"
                location = (location + " › " if location else "") + blocks[b].label
            elif blocks and b >= 0 and blocks[b].index and not first.boxes:
                location = (location + " " if location else "") + f"¶ {blocks[b].index}"
            ocr = [pg for pg in chunk_pages_ if pg.modality == "ocr"]
            confidences = [pg.ocr_confidence for pg in ocr if pg.ocr_confidence is not None]
            n = per_page.get(first.page, 0)
            per_page[first.page] = n + 1
            chunks.append(
                Chunk(
                    chunk_id=f"{doc_id}#p{first.page}-c{n}",
                    doc_id=doc_id,
                    path=path,
                    page=segments[0].page,
                    start=segments[0].start,
                    end=segments[0].end,
                    text=text[start:piece_end],
                    segments=segments if len(segments) > 1 else [],
                    lang=lang,
                    modality="ocr" if ocr else "text",
                    ocr_confidence=min(confidences) if confidences else None,
                    page_label=first.label,
                    location=location,
                    context=context,
                )
            )
        if next_start is None:
            break
        start = next_start
    return chunks
