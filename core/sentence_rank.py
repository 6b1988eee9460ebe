"""Small-to-big ranking inside a scoped document: score its sentences, rank the chunks that hold them.

A chunk (up to 256 tokens) often holds several clauses; BM25 over the whole chunk dilutes the
one sentence that answers under its neighbours' words (length normalization), and a chunk
about something else that repeats the question's words everywhere outranks it. When the
question is searched inside one to three documents (:data:`core.retrieval.WIDEN_FOR_SCOPES_UP_TO`),
their sentences are scored as a collection of their own by Okapi BM25 (``bm25s``, the library
the store uses; Lucene variant, k1 = 1.5, b = 0.75), and every chunk is ranked by its best
sentence (MaxP: Dai & Callan, "Deeper Text Understanding for IR with Contextual Neural Language
Modeling", SIGIR 2019; "small-to-big" in llama-index's terms). The chunk is what is delivered:
the sentence only decides the rank, so the clause around it is never cut off.

Sentences are :func:`core.sentences.sentence_spans` of each chunk's text (sentencex
boundaries); tokens are :func:`core.textproc.tokenize` in the chunk's language, the query's
:func:`core.textproc.tokenize_query` (English and Spanish analyses), exactly as the chunk
index's. A document's sentences and their index are built once per document text (keyed by
its content hash) and kept for the :data:`CACHE_DOCS` most recent scopes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

#: Scopes (sets of documents, by content hash) whose sentence index is kept in memory.
CACHE_DOCS = 16


@dataclass
class SentenceIndex:
    """The sentences of a scope's chunks, indexed for BM25.

    ``owners[i]``: chunk id of sentence ``i``; ``retriever``: a ``bm25s.BM25`` over the
    sentences' tokens (``None`` when the scope has no tokens); ``chunk_ids``: the scope's chunks.
    """

    owners: list[str]
    retriever: object | None
    chunk_ids: list[str]

    def rank(self, query: str, k: int) -> list[str]:
        """The scope's chunk ids ordered by their best sentence's BM25 score for ``query``, best
        first, at most ``k``; chunks without a matching sentence are left out (ties: chunk order)."""
        import numpy as np

        from core.textproc import tokenize_query

        if self.retriever is None:
            return []
        vocab = self.retriever.vocab_dict
        tokens = [t for t in tokenize_query(query) if t in vocab]
        if not tokens:
            return []
        scores = np.asarray(self.retriever.get_scores(tokens), dtype=np.float64)
        best: dict[str, float] = {}
        for i in np.flatnonzero(scores > 0).tolist():
            cid = self.owners[i]
            if scores[i] > best.get(cid, 0.0):
                best[cid] = float(scores[i])
        order = {cid: n for n, cid in enumerate(self.chunk_ids)}
        return sorted(best, key=lambda c: (-best[c], order.get(c, 0)))[:k]


_cache: OrderedDict[tuple, SentenceIndex] = OrderedDict()
_lock = threading.Lock()
_building: dict[tuple, threading.Lock] = {}  # a lock per index being built (one build per key)


def sentence_index(workspace, doc_ids: list[str]) -> SentenceIndex:
    """The :class:`SentenceIndex` of ``doc_ids`` (their chunks as stored in ``workspace``).

    Built on first use (about 50 ms for a 60-chunk contract) and cached by the documents'
    content hashes, so a re-indexed document is re-read. Raises what the store raises.
    """
    _, hashes = workspace.doc_profiles()
    key = (str(workspace.dir), tuple(sorted((d, hashes.get(d, "")) for d in doc_ids)))
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
        building = _building.setdefault(key, threading.Lock())
    # One build per key: the retriever runs its keyword rankings in parallel threads, and each
    # asked for the same scope's index, building it once per ranking (review, 2026-12-02).
    with building:
        with _lock:
            hit = _cache.get(key)
        if hit is None:
            hit = _build(workspace, sorted(doc_ids))
            with _lock:
                _cache[key] = hit
                while len(_cache) > CACHE_DOCS:
                    _cache.popitem(last=False)
    with _lock:
        _building.pop(key, None)
    return hit


def ranking_units(text: str, lang: str) -> list[tuple[int, int]]:
    """The units a chunk is ranked by: :func:`core.sentences.sentence_spans` (``[start, end)`` character offsets),
    the last one reaching the end of ``text``. A heading that ends a chunk is no sentence for display (its clause
    is in the next chunk, tryout 5 finding 6), but for ranking the chunk it is still the chunk's text, and the
    sentence ranking's weight was chosen with it (bench/ranking.py): it stays with the last sentence, as before
    that fix, which had moved cuad_natural cuad-0127-es's clause out of the top 6."""
    from core.sentences import sentence_spans

    units = sentence_spans(text, lang)
    tail = len(text.rstrip())
    if units and units[-1][1] < tail:
        units[-1] = (units[-1][0], tail)
    return units


def _build(workspace, doc_ids: list[str]) -> SentenceIndex:
    import bm25s

    from core.textproc import tokenize

    ids: list[str] = []
    for doc in doc_ids:
        ids.extend(workspace.vectors.read(doc))
    chunks = workspace.get_chunks(ids)
    ordered = sorted(chunks.values(), key=lambda c: (c.doc_id, c.page, c.start, c.chunk_id))
    owners: list[str] = []
    corpus: list[list[str]] = []
    for ch in ordered:
        lang = ch.lang if ch.lang in ("en", "es") else "en"
        for s, e in ranking_units(ch.text, lang):
            toks = tokenize(ch.text[s:e], lang)
            if toks:
                owners.append(ch.chunk_id)
                corpus.append(toks)
    chunk_ids = [c.chunk_id for c in ordered]
    if not corpus:
        return SentenceIndex(owners, None, chunk_ids)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    return SentenceIndex(owners, retriever, chunk_ids)
