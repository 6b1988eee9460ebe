"""E-mail messages (``.eml``, RFC 822/MIME) with the standard library ``email`` package.

The page text is the From/To/Cc/Date/Subject headers (one block), then the body:
the ``text/plain`` part, or the ``text/html`` part through
:func:`core.ingest.html.html_to_page` when there is no plain one. In a plain body,
``>``-quoted lines (the message being answered) are joined into paragraphs without
their quote marks (case B40: each quoted line was a paragraph of its own, "> "
included, so no sentence across two quoted lines could be quoted). Attachments —
PDF, DOCX, text, HTML and attached messages — are parsed as documents of their own
(:attr:`ParsedDocument.attachments`), cited as "message.eml › Anexo_I.pdf"; one that
cannot be read, or whose type is not supported, is a warning naming it.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import ATTACHMENT_SEP, SUPPORTED_SUFFIXES, ParsedDocument, TextBuilder, display_name
from core.ingest.html import html_to_page
from core.ingest.registry import parse_member
from core.ingest.text import text_blocks

MAX_NESTING = 5
"""Attached messages inside attached messages are read this deep, no deeper."""

_QUOTED = re.compile(r"^((?:[ \t]*>)+)[ \t]?(.*)$")
_TYPE_SUFFIX = {
    "application/pdf": ".pdf", "message/rfc822": ".eml", "text/plain": ".txt", "text/html": ".html",
    "text/markdown": ".md",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
}


def read_message(data: bytes, path: Path | str) -> EmailMessage:
    """The message of ``data`` (modern ``email.policy.default`` API).

    Raises:
        IngestError: empty or not a message.
    """
    if not data.strip():
        raise IngestError(str(path), "empty file")
    try:
        return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]
    except Exception as exc:
        raise IngestError(str(path), f"not a readable e-mail message ({exc})") from exc


def attachments(msg: EmailMessage) -> list[tuple[str, bytes | None, str]]:
    """The message's attachments as ``(file name, bytes, content type)``, in message order.

    Names are the attachment's file name without folders (an attached message without one
    is named by its subject, ``Subject.eml``; any other nameless part becomes
    ``attachment-N`` with the type's suffix; a repeated one gets " (2)", " (3)"…), so
    they are unique within the message and :func:`core.ingest.open_member` finds the same
    one again. ``bytes`` is ``None`` when the part could not be decoded. Inline parts of
    the body (``multipart/related`` images of an HTML body) are not attachments.
    """
    out: list[tuple[str, bytes | None, str]] = []
    used: set[str] = set()
    for n, part in enumerate(msg.iter_attachments(), 1):
        ctype = part.get_content_type()
        name = (part.get_filename() or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
        name = name.replace(ATTACHMENT_SEP.strip(), "-")
        if not name and ctype == "message/rfc822":  # an attached message is named by its subject
            try:
                subject = str(part.get_content()["Subject"] or "")
            except Exception:
                subject = ""
            name = re.sub(r"[\\/:*?\"<>|\s]+", " ", subject.replace(ATTACHMENT_SEP.strip(), "-")).strip()[:80]
        if not name:
            name = f"attachment-{n}{_TYPE_SUFFIX.get(ctype, '')}"
        if ctype == "message/rfc822" and not name.lower().endswith(".eml"):
            name += ".eml"
        stem, k = name, 2
        while name in used:
            dot = stem.rfind(".")
            name = f"{stem[:dot]} ({k}){stem[dot:]}" if dot > 0 else f"{stem} ({k})"
            k += 1
        used.add(name)
        try:
            if ctype == "message/rfc822":
                inner = part.get_content()
                data = inner.as_bytes() if hasattr(inner, "as_bytes") else bytes(inner)
            else:
                data = part.get_payload(decode=True)
        except Exception:  # broken transfer encoding
            data = None
        out.append((name, data, ctype))
    return out


def _add_plain_body(out: TextBuilder, content: str) -> None:
    """Blocks of a plain-text body: unquoted paragraphs, and ``>``-quoted runs joined per paragraph."""
    lines = content.replace("\r\n", "\n").split("\n")
    plain: list[str] = []
    quoted: list[str] = []
    depth = 0

    def flush_plain() -> None:
        text = "\n".join(plain)
        for b in text_blocks(text):
            out.add(text[b.start : b.end])
        plain.clear()

    def flush_quoted() -> None:
        if quoted:
            out.add("\n".join(quoted), "quote")
        quoted.clear()

    for line in lines:
        m = _QUOTED.match(line)
        if m is None:
            flush_quoted()
            plain.append(line)
            continue
        flush_plain()
        level = m.group(1).count(">")
        body = m.group(2).rstrip()
        if not body.strip() or level != depth:
            flush_quoted()  # an empty quoted line, or another depth, ends the quoted paragraph
        depth = level
        if body.strip():
            quoted.append(body.strip())
    flush_quoted()
    flush_plain()


def parse_email(path: Path, *, data: bytes | None = None, ocr: bool = False, depth: int = 0) -> ParsedDocument:
    """Parse an RFC 822 ``.eml`` message and its attachments (see the module docstring).

    Args:
        path: the file, or the member path of an attached message.
        data: the message's bytes when it is itself an attachment.
        ocr: allow OCR in attached PDFs.
        depth: how deep inside other messages this one is (attachments stop at
            :data:`MAX_NESTING`).

    Returns:
        The message as one page (``kind="email"``) with its attachments in
        ``attachments``; each attachment that could not be indexed is a warning
        (page ``None``) naming it.

    Raises:
        IngestError: empty file, or no readable body and no attachment.
    """
    msg = read_message(path.read_bytes() if data is None else data, path)
    out = TextBuilder()
    header_lines = [f"{name}: {msg[name]}" for name in ("From", "To", "Cc", "Date", "Subject") if msg[name]]
    out.add("\n".join(header_lines), "header")
    body = msg.get_body(preferencelist=("plain", "html"))
    if body is not None:
        try:
            content = body.get_content()
        except Exception as exc:  # unknown charset or broken transfer encoding
            raise IngestError(str(path), f"e-mail body could not be decoded ({exc})") from exc
        if body.get_content_subtype() == "html":
            html_page, _ = html_to_page(content)
            for b in html_page.blocks:
                out.add(html_page.text[b.start : b.end], b.kind, b.level)
        else:
            _add_plain_body(out, content)
    page = out.page()
    warnings: list[tuple[int | None, str]] = []
    found: list[ParsedDocument] = []
    display = display_name(path)
    for name, payload, _ctype in attachments(msg):
        suffix = Path(name).suffix.lower()
        if suffix not in SUPPORTED_SUFFIXES:
            warnings.append((None, f"attachment {name} not indexed: {suffix or 'this'} files are not supported"))
            continue
        if suffix == ".eml" and depth + 1 > MAX_NESTING:
            warnings.append((None, f"attachment {name} not indexed: messages nested deeper than {MAX_NESTING}"))
            continue
        if payload is None:
            warnings.append((None, f"attachment {name} could not be read: its transfer encoding is broken"))
            continue
        doc = read_attachment(path, display, name, payload, warnings, ocr=ocr, depth=depth)
        if doc is not None:
            found.append(doc)
    if not page.text.strip() and not found:
        raise IngestError(str(path), "e-mail has no text")
    return ParsedDocument(path, "", [page], "email", title=str(msg["Subject"] or "") or path.name,
                          warnings=warnings, attachments=found)


def read_attachment(path: Path, display: str, name: str, payload: bytes, warnings: list[tuple[int | None, str]],
                    *, ocr: bool, depth: int) -> ParsedDocument | None:
    """An attachment ``name`` of the message at ``path`` read as a document of its own (cited as
    ``"message › name"``), or ``None`` with the reason appended to ``warnings`` when it cannot be read.

    Shared by e-mail (.eml) and Outlook (.msg, :mod:`core.ingest.msg`) messages; the attachment's own
    warnings are carried over, prefixed with its name (and page).
    """
    member = Path(f"{path}{ATTACHMENT_SEP}{name}")
    try:
        doc = parse_member(member, payload, ocr=ocr, depth=depth + 1)  # the reader of its format
    except IngestError as exc:
        warnings.append((None, f"attachment {name} could not be read: {exc.reason}"))
        return None
    doc.name = f"{display}{ATTACHMENT_SEP}{name}"
    warnings.extend((None, f"attachment {name}" + (f", page {p}" if p else "") + f": {w}") for p, w in doc.warnings)
    return doc
