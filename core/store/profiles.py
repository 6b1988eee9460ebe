"""Per-document profiles in the manifest: the words that name each document (:mod:`core.docrefs`).

Table ``doc_profiles(doc_id, profile)``: ``profile`` is JSON ``{"title", "names", "proper", "v",
"text_hash"}`` (``v``: :data:`core.docrefs.PROFILE_VERSION`).
A profile is written in the same transaction as its document's chunks (:func:`write_profile`,
called by the commit), so it always describes the committed content, whoever wrote it (an
indexing run, a rename, an external writer such as the Ray indexer). Being keyed by
``doc_id``, its row is deleted and re-keyed with the document (``manifest.tables_with``).

A workspace indexed before profiles existed has none, and one indexed under an earlier definition
of the naming words has profiles of another version: :func:`read_profiles` derives those from the
stored chunks (same function, same result) without writing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from core.docrefs import PROFILE_VERSION, DocProfile, build_profile
from core.docnames import PROPER_CHUNKS
from core.types import SEGMENT_SEP, Chunk

from core.store.manifest import PROFILES_SCHEMA

if TYPE_CHECKING:
    from core.store.manifest import Manifest
    from core.store.writes import DocumentWrite
SCHEMA = PROFILES_SCHEMA  # the table is created with the rest of the manifest's schema
#: Chunks read from a document's start for its profile (its first :data:`core.docrefs.HEAD_CHARS`).
HEAD_CHUNKS = 4


def text_hash(chunks: Iterable[Chunk]) -> str:
    """SHA-256 of a document's text as its chunks cover it, whitespace collapsed and casefolded.

    The text is put back together from the chunks' page-text segments (overlaps counted once), so the
    hash does not depend on where chunks were cut — two copies of a file under different names
    get different context lines and so different cuts, but the same hash. Equal for a copy or
    the same text exported again with other metadata: the duplicates key of :mod:`core.retrieval`.
    """
    spans: list[tuple[int, int, int, str]] = []  # (page, start, end, text) of every page-text segment
    for c in chunks:
        if c.segments:
            pos = 0
            for sg in c.segments:
                length = sg.end - sg.start
                spans.append((sg.page, sg.start, sg.end, c.text[pos:pos + length]))
                pos += length + len(SEGMENT_SEP)
        else:
            spans.append((c.page, c.start, c.end, c.text))
    pieces: list[str] = []
    covered: dict[int, int] = {}
    for page, start, end_, text in sorted(spans):
        end = covered.get(page, 0)
        if end_ <= end:
            continue
        if start > end:
            pieces.append(" ")  # a gap between chunks is whitespace (chunks are trimmed)
        pieces.append(text[max(0, end - start):])
        covered[page] = end_
    return hashlib.sha256(" ".join("".join(pieces).casefold().split()).encode("utf-8")).hexdigest()


def profile_of(doc_id: str, path: str, chunks: list[Chunk]) -> tuple[DocProfile, str]:
    """The profile of a document from its chunks in order, and its :func:`text_hash`.

    The title is the first part of the first chunk's context line (``title › heading …``); the
    proper-name test reads the first :data:`core.docnames.PROPER_CHUNKS` chunks. The text hash
    covers the chunks given (all of them at a commit).
    """
    if not chunks:
        return build_profile(doc_id, path, "", ""), text_hash([])
    head = "".join(c.text + "\n" for c in chunks[:HEAD_CHUNKS])
    text = "".join(c.text + "\n" for c in chunks[:PROPER_CHUNKS])
    title = chunks[0].context.split(" › ")[0] if chunks[0].context else ""
    return build_profile(doc_id, path, title, head, text), text_hash(chunks)


def _dump(profile: DocProfile, digest: str) -> str:
    return json.dumps({"title": profile.title, "names": sorted(profile.names), "proper": sorted(profile.proper),
                       "v": PROFILE_VERSION, "text_hash": digest}, ensure_ascii=False)


def write_profile(db: sqlite3.Connection, w: DocumentWrite) -> None:
    """Store the profile of a committed document, inside the commit's transaction."""
    profile, digest = profile_of(w.doc_id, str(w.path), w.chunks)
    db.execute("INSERT OR REPLACE INTO doc_profiles (doc_id, profile) VALUES (?, ?)", (w.doc_id, _dump(profile, digest)))


_cache: dict[tuple[str, str], tuple[dict[str, DocProfile], dict[str, str]]] = {}
_cache_lock = threading.Lock()


def read_profiles(manifest: Manifest) -> tuple[dict[str, DocProfile], dict[str, str]]:
    """Every document's profile and text hash: ``({doc_id: DocProfile}, {doc_id: text_hash})``.

    Cached per manifest file and commit generation (one entry per workspace), so answering
    many questions reads the table once. Documents without a stored profile of the current
    :data:`core.docrefs.PROFILE_VERSION` (indexed before profiles existed, or before the naming
    words changed) get one derived from their chunks; the text hash is kept when stored.
    """
    key = (str(manifest.path), manifest.meta().get("generation", "0"))
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    profiles: dict[str, DocProfile] = {}
    hashes: dict[str, str] = {}
    with manifest.connect() as db:
        rows = db.execute(
            "SELECT d.doc_id, d.path, p.profile FROM documents d LEFT JOIN doc_profiles p ON p.doc_id = d.doc_id"
        ).fetchall()
    missing = []
    for doc_id, path, raw in rows:
        data = json.loads(raw) if raw is not None else None
        if data is None or data.get("v") != PROFILE_VERSION:
            missing.append((doc_id, path, data.get("text_hash") if data else None))
            continue
        profiles[doc_id] = DocProfile(doc_id=doc_id, title=data["title"], names=frozenset(data["names"]),
                                      proper=frozenset(data.get("proper", ())))
        hashes[doc_id] = data["text_hash"]
    for doc_id, path, digest in missing:
        with manifest.connect() as db:
            # all chunk ids only when the text hash must be computed; else the profile's first ones
            limit = -1 if digest is None else max(HEAD_CHUNKS, PROPER_CHUNKS)
            ids = [r[0] for r in db.execute("SELECT chunk_id FROM chunks WHERE doc_id = ? ORDER BY ord LIMIT ?",
                                            (doc_id, limit))]
        chunks = manifest.get_chunks(ids)
        profile, computed = profile_of(doc_id, path, [chunks[i] for i in ids if i in chunks])
        profiles[doc_id], hashes[doc_id] = profile, digest or computed
    with _cache_lock:
        for old in [k for k in _cache if k[0] == key[0]]:
            del _cache[old]
        _cache[key] = (profiles, hashes)
    return profiles, hashes
