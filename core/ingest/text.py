"""Plain text and Markdown: decoding (UTF-8, UTF-16, legacy Windows code pages) and paragraph blocks."""

from __future__ import annotations

import re
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import Block

def decode_text(data: bytes, path: Path | str = "") -> str:
    """Decode text bytes: UTF-8 (with or without BOM), UTF-16 by BOM, else charset-normalizer.

    Raises:
        IngestError: undecodable bytes.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:  # a UTF-16 byte order mark, then bytes that are not UTF-16
            raise IngestError(str(path), f"not valid UTF-16 text after its byte order mark (byte {exc.start})") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    western = _western_cp1252(data)
    if western is not None:
        return western
    from charset_normalizer import from_bytes  # a maintained detector, only needed here

    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise IngestError(str(path), "text encoding could not be detected")
    # Single-byte Windows code pages often tie (cp1250/cp1252/cp1257 decode Spanish
    # equally "cleanly" for the detector, and it lists cp1250 first, turning ñ into ń).
    # On a tie, Windows-1252 (Western Europe, the legacy default of Spanish and English
    # systems) wins.
    for match in results:
        if (
            match.encoding in {"cp1252", "latin_1", "iso8859_15"}
            and match.chaos <= best.chaos
            and match.coherence >= best.coherence - 0.01
        ):
            return str(match)
    return str(best)


_WESTERN = set("áéíóúàèìòùâêîôûäëïöüãõñçÁÉÍÓÚÀÈÌÒÙÂÊÎÔÛÄËÏÖÜÃÕÑÇ"
               "ºª°§€«»“”‘’–—…·\u00a0")
_INVERTED = re.compile(r"(?:^|[\s(\"'«“])[¡¿]\S")


def _western_cp1252(data: bytes) -> str | None:
    """``data`` decoded as Windows-1252 if every non-ASCII character it gives is one of
    Spanish, Portuguese, French, English or Catalan text (accented vowels, ñ, ç, ordinal
    signs, €, typographic quotes and dashes; ¡ ¿ only opening a sentence), else ``None``.

    Why by hand: on short texts charset-normalizer's statistics are too thin and it picked
    cp775/cp1250 for a 47-byte Spanish sentence ("clßusula dķcima", tester, session 3);
    cp1252 is the legacy default of the systems our users' files come from. Central
    European cp1250 text fails the test (ł → ³, ś → œ, ż → ¿ inside a word) and goes to
    the detector.
    """
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    odd = [c for c in text if ord(c) > 127 and c not in _WESTERN and c not in "¡¿"]
    if odd:
        return None
    inverted = sum(text.count(c) for c in "¡¿")
    if inverted and len(_INVERTED.findall(text)) < inverted:
        return None
    return text


def read_text_file(path: Path) -> str:
    """Decode a text file (see :func:`decode_text`).

    Raises:
        IngestError: empty file or undecodable bytes.
    """
    data = path.read_bytes()
    if not data.strip():
        raise IngestError(str(path), "empty file")
    return decode_text(data, path)


_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+\S")
_PARA_SPLIT = re.compile(r"\n[ \t\u00a0]*\n\s*")


def text_blocks(text: str, markdown: bool = False) -> list[Block]:
    """Blocks of a plain-text page: paragraphs separated by blank lines; ``#`` lines are headings in Markdown."""
    blocks: list[Block] = []
    pos = 0
    for m in [*_PARA_SPLIT.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[pos:end]
        if piece.strip():
            # Markdown headings inside a paragraph (no blank line after them) become their own block.
            offset = pos
            for line in piece.splitlines(keepends=True):
                hm = _MD_HEADING.match(line) if markdown else None
                if hm:
                    if blocks and blocks[-1].kind == "paragraph" and blocks[-1].end > offset:
                        blocks[-1].end = offset
                    stripped = line.rstrip()
                    blocks.append(Block(offset, offset + len(stripped), "heading", len(hm.group(1))))
                elif not blocks or blocks[-1].kind == "heading" or blocks[-1].end < offset:
                    blocks.append(Block(offset, offset + len(line.rstrip("\r\n")), "paragraph"))
                else:
                    blocks[-1].end = offset + len(line.rstrip("\r\n"))
                offset += len(line)
        pos = m.end() if m else len(text)
    blocks = [b for b in blocks if text[b.start : b.end].strip()]
    for i, b in enumerate(blocks, 1):
        b.index = i
    return blocks


