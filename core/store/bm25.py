"""A workspace's BM25 keyword index: bm25s over every chunk, rebuilt from the manifest.

On disk: ``bm25-<generation>-<random>/`` (bm25s' files plus ``ids.json``, the
chunk id of each bm25s document), named in the manifest's ``meta``
(``bm25_dir``, ``bm25_generation``). A new index is built into a ``.tmp``
folder, renamed, recorded, and only then are older folders deleted, so readers
always find the recorded one complete.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from pathlib import Path

import numpy as np

from core.store.crash import crash_point
from core.store.manifest import Manifest, get_meta, set_meta
from core.textproc import tokenize, tokenize_query


def is_bm25_folder(name: str) -> bool:
    """Whether a workspace entry is a BM25 folder (current, old or temporary)."""
    return name == "bm25" or name.startswith(("bm25-", "bm25."))


class Bm25Index:
    """The BM25 index of one workspace; loaded lazily, safe for many reader threads.

    Args:
        folder: the workspace folder.
        manifest: the workspace's manifest (source of the chunks and of ``bm25_dir``).
    """

    def __init__(self, folder: Path, manifest: Manifest) -> None:
        self.folder = folder
        self.manifest = manifest
        self._retriever = None
        self._ids: list[str] = []
        self._loaded = False
        self._lock = threading.Lock()

    def _load(self) -> None:
        import bm25s

        if self._loaded:
            return
        for _attempt in range(3):  # another process may sweep the folder between the read and the load
            name = self.manifest.meta().get("bm25_dir", "")
            path = self.folder / name
            if not name or not (path / "ids.json").exists():
                self._retriever, self._ids = None, []
                return
            try:
                ids = json.loads((path / "ids.json").read_text(encoding="utf-8"))
                # an empty workspace has only ids.json: bm25s cannot index nothing
                self._retriever = bm25s.BM25.load(str(path)) if ids else None
            except FileNotFoundError:
                continue
            self._ids = ids
            self._loaded = True
            return

    def ids(self) -> list[str]:
        """Chunk ids in the recorded index (duplicates kept)."""
        with self._lock:
            self._load()
            return list(self._ids)

    def rebuild(self) -> None:
        """Rebuild the index from the manifest's chunks into a new folder, then record it.

        Readers keep the folder named in ``meta`` until the new one is recorded;
        older folders are deleted afterwards.
        """
        import bm25s

        with self.manifest.connect() as db:
            generation = int(get_meta(db).get("generation", "0"))
            # BM25 indexes the context line (title, heading path) with the chunk text
            rows = db.execute(
                "SELECT c.chunk_id, COALESCE(m.context || char(10), '') || c.text, c.lang FROM chunks c "
                "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id ORDER BY c.doc_id, c.ord"
            ).fetchall()
        name = f"bm25-{generation}-{uuid.uuid4().hex[:8]}"
        final = self.folder / name
        tmp = self.folder / f"{name}.tmp"
        if rows:
            retriever = bm25s.BM25()
            corpus_tokens = [tokenize(text, lang) or ["\u2205"] for _, text, lang in rows]
            retriever.index(corpus_tokens, show_progress=False)
            retriever.save(str(tmp))
        else:
            tmp.mkdir(parents=True)
        (tmp / "ids.json").write_text(json.dumps([r[0] for r in rows]), encoding="utf-8")
        os.replace(tmp, final)
        crash_point("bm25_written")
        with self._lock:
            with self.manifest.connect() as db:
                set_meta(db, bm25_dir=name, bm25_generation=generation)
            self._retriever, self._ids, self._loaded = None, [], False
        crash_point("bm25_recorded")
        self.sweep(keep=name)

    def sweep(self, keep: str) -> None:
        """Delete every BM25 folder but ``keep``."""
        for path in self.folder.iterdir():
            if is_bm25_folder(path.name) and path.name != keep:
                shutil.rmtree(path, ignore_errors=True)

    def is_current(self, meta: dict[str, str]) -> bool:
        """Whether the recorded index was built from the manifest's generation and exists."""
        bm25_dir = meta.get("bm25_dir", "")
        return (meta.get("bm25_generation", "0") == meta.get("generation", "0") and bool(bm25_dir)
                and (self.folder / bm25_dir / "ids.json").exists())

    def document_frequencies(self, tokens: list[str]) -> tuple[dict[str, int], int]:
        """How many indexed chunks contain each of ``tokens``, and how many chunks are indexed.

        Read from bm25s' sparse score matrix (one column per vocabulary token; its
        non-zero entries are the chunks that contain it). Tokens not in the
        vocabulary count 0. ``({}, 0)`` for an empty index.
        """
        with self._lock:
            self._load()
            retriever, n = self._retriever, len(self._ids)
        if retriever is None or not n:
            return {}, 0
        indptr = retriever.scores["indptr"]
        vocab = retriever.vocab_dict
        return {t: int(indptr[vocab[t] + 1] - indptr[vocab[t]]) if t in vocab else 0 for t in tokens}, n

    def search(self, query: str, k: int, exclude_docs: set[str], only_docs: set[str] | None = None) -> list[str]:
        """Chunk ids ranked by BM25 for ``query``, best first (zero-score hits dropped).

        Excluded documents — and, when ``only_docs`` is given (the question's
        document scope), every document outside it — get weight 0 through bm25s'
        ``weight_mask`` before ranking (pre-filter).
        """
        with self._lock:
            self._load()
            retriever, ids = self._retriever, list(self._ids)
        if retriever is None or not ids:
            return []
        tokens = [t for t in tokenize_query(query) if t in retriever.vocab_dict]
        if not tokens:
            return []
        mask = None
        if only_docs is not None and not only_docs:
            return []
        if exclude_docs or only_docs is not None:
            mask = np.array([
                0.0 if (doc := cid.split("#", 1)[0]) in exclude_docs or (only_docs is not None and doc not in only_docs)
                else 1.0 for cid in ids
            ])
        docs, scores = retriever.retrieve(
            [tokens], k=min(k, len(ids)), show_progress=False, weight_mask=mask, n_threads=1
        )
        return [ids[int(d)] for d, s in zip(docs[0], scores[0]) if s > 0]
