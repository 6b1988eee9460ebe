"""Outlook messages (``.msg``): headers, body and attachments, read with **olefile**.

Why by hand on olefile: the one complete reader, extract-msg, is GPL-3.0 (this product is
proprietary). olefile (BSD, the standard reader of OLE2 compound files, used by oletools and
extract-msg themselves) gives the streams; the few MAPI properties a lawyer reads are named in
Microsoft's [MS-OXMSG] specification ("Outlook Item (.msg) File Format", section 2.1: property
streams ``__substg1.0_<tag><type>``, attachment storages ``__attach_version1.0_#<n>``) and
[MS-OXPROPS] (the property tags used below).

The page text is built like an ``.eml``'s (:mod:`core.ingest.email`): From/To/Cc/Date/Subject
headers as one block, then the plain body (``>``-quoted lines joined), or the HTML body when
there is no plain one. Attachments are documents of their own, cited "Correo.msg › Anexo.pdf";
one that cannot be read is a warning naming it. An attached Outlook item (an embedded message,
stored as a sub-storage rather than bytes) is named in the warnings, not read.
"""

from __future__ import annotations

import datetime as _dt
import io
import struct
from pathlib import Path

from core.errors import IngestError
from core.ingest.base import SUPPORTED_SUFFIXES, ParsedDocument, TextBuilder, display_name
from core.ingest.email import read_attachment

# [MS-OXPROPS] property ids
_SUBJECT, _BODY, _HTML = "0037", "1000", "1013"
_SENDER_NAME, _SENDER_SMTP, _SENDER_EMAIL = "0C1A", "5D01", "0C1F"
_DISPLAY_TO, _DISPLAY_CC = "0E04", "0E03"
_ATTACH_LONG_NAME, _ATTACH_NAME, _ATTACH_DISPLAY, _ATTACH_DATA = "3707", "3704", "3001", "3701"
_SUBMIT_TIME, _DELIVERY_TIME = 0x0039, 0x0E06
_PT_SYSTIME = 0x0040


def _open(data: bytes, path: Path | str):
    import olefile

    if data[:8] != olefile.MAGIC:
        raise IngestError(str(path), "not an Outlook message (not an OLE2 compound file)")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception as exc:
        raise IngestError(str(path), f"not a readable Outlook message ({exc})") from exc
    if not ole.exists("__properties_version1.0"):
        ole.close()
        raise IngestError(str(path), "not an Outlook message (no MAPI property stream)")
    return ole


def _string(ole, prefix: str, prop: str) -> str:
    """A string property of the storage ``prefix`` ("" = the message): Unicode (001F) or 8-bit (001E)."""
    for kind, codec in (("001F", "utf-16-le"), ("001E", "cp1252")):
        name = f"{prefix}__substg1.0_{prop}{kind}"
        if ole.exists(name):
            return ole.openstream(name).read().decode(codec, errors="replace").rstrip("\x00")
    return ""


def _binary(ole, prefix: str, prop: str) -> bytes | None:
    name = f"{prefix}__substg1.0_{prop}0102"
    return ole.openstream(name).read() if ole.exists(name) else None


def _date(ole) -> str:
    """The submit (else delivery) time from the top-level property stream, RFC 2822-like, or ""."""
    raw = ole.openstream("__properties_version1.0").read()
    found: dict[int, int] = {}
    for off in range(32, len(raw) - 15, 16):  # 32-byte header for the top-level message, then 16-byte entries
        ptype, pid = struct.unpack_from("<HH", raw, off)
        if ptype == _PT_SYSTIME and pid in (_SUBMIT_TIME, _DELIVERY_TIME):
            found[pid] = struct.unpack_from("<Q", raw, off + 8)[0]
    ticks = found.get(_SUBMIT_TIME) or found.get(_DELIVERY_TIME)
    if not ticks:
        return ""
    when = _dt.datetime(1601, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(microseconds=ticks // 10)
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000")


def msg_attachments(data: bytes, path: Path | str) -> list[tuple[str, bytes | None]]:
    """The message's attachments as ``(file name, bytes)`` in storage order; ``bytes`` is ``None`` for an
    attached Outlook item (not stored as bytes). Names are unique (" (2)" added to a repeat).

    Raises:
        IngestError: ``data`` is not an Outlook message.
    """
    ole = _open(data, path)
    out: list[tuple[str, bytes | None]] = []
    seen: dict[str, int] = {}
    with ole:
        storages = sorted({e[0] for e in ole.listdir(streams=True, storages=True)
                           if e and e[0].startswith("__attach_version1.0_#")})
        for n, storage in enumerate(storages, 1):
            prefix = storage + "/"
            name = (_string(ole, prefix, _ATTACH_LONG_NAME) or _string(ole, prefix, _ATTACH_NAME)
                    or _string(ole, prefix, _ATTACH_DISPLAY) or f"attachment-{n}")
            name = Path(name.replace("\\", "/")).name
            if name in seen:
                seen[name] += 1
                stem, suffix = Path(name).stem, Path(name).suffix
                name = f"{stem} ({seen[name]}){suffix}"
            else:
                seen[name] = 1
            out.append((name, _binary(ole, prefix, _ATTACH_DATA)))
    return out


def parse_msg(path: Path, *, data: bytes | None = None, ocr: bool = False, depth: int = 0) -> ParsedDocument:
    """Parse an Outlook ``.msg`` message and its attachments (see the module docstring).

    Returns:
        The message as one page (``kind="email"``) with its attachments in ``attachments``.

    Raises:
        IngestError: not an Outlook message, or no text and no readable attachment.
    """
    from core.ingest.email import MAX_NESTING, _add_plain_body
    from core.ingest.html import html_to_page

    raw = path.read_bytes() if data is None else data
    ole = _open(raw, path)
    with ole:
        sender = _string(ole, "", _SENDER_NAME)
        address = _string(ole, "", _SENDER_SMTP) or _string(ole, "", _SENDER_EMAIL)
        if address and address not in sender:
            sender = f"{sender} <{address}>" if sender else address
        headers = {"From": sender, "To": _string(ole, "", _DISPLAY_TO), "Cc": _string(ole, "", _DISPLAY_CC),
                   "Date": _date(ole), "Subject": _string(ole, "", _SUBJECT)}
        body = _string(ole, "", _BODY)
        html = _binary(ole, "", _HTML) if not body.strip() else None
    out = TextBuilder()
    out.add("\n".join(f"{k}: {v}" for k, v in headers.items() if v), "header")
    if body.strip():
        _add_plain_body(out, body)
    elif html:
        page_html, _ = html_to_page(html.decode("utf-8", errors="replace"))
        for b in page_html.blocks:
            out.add(page_html.text[b.start : b.end], b.kind, b.level)
    page = out.page()
    warnings: list[tuple[int | None, str]] = []
    found: list[ParsedDocument] = []
    display = display_name(path)
    for name, payload in msg_attachments(raw, path):
        suffix = Path(name).suffix.lower()
        if payload is None:
            warnings.append((None, f"attachment {name} not indexed: an attached Outlook item is not read"))
            continue
        if suffix not in SUPPORTED_SUFFIXES:
            warnings.append((None, f"attachment {name} not indexed: {suffix or 'this'} files are not supported"))
            continue
        if suffix in (".eml", ".msg") and depth + 1 > MAX_NESTING:
            warnings.append((None, f"attachment {name} not indexed: messages nested deeper than {MAX_NESTING}"))
            continue
        doc = read_attachment(path, display, name, payload, warnings, ocr=ocr, depth=depth)
        if doc is not None:
            found.append(doc)
    if not page.text.strip() and not found:
        raise IngestError(str(path), "Outlook message has no text")
    return ParsedDocument(path, "", [page], "email", title=headers["Subject"] or path.name,
                          warnings=warnings, attachments=found)
