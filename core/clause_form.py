"""Does some sentence of the retrieved chunks read like the clause type asked about? (issues #20, #25)

The clause vocabulary (``resources/clauses/clause_types.toml``) holds, per clause type, phrases of the
*contract wording* of that clause, written a priori from drafting practice (not from evaluation answers).
:func:`form_margin` classifies every sentence and adjacent pair of sentences of some chunks by nearest
neighbour over those phrases (the index's embedding model): a span's margin is its best cosine with a
phrase of an asked type minus its best cosine with a phrase of any *other* type. The best margin over the
chunks says whether the chunks hold a passage that reads like the asked clause rather than like a
neighbouring one (a term clause when renewal is asked, an appointment when IP ownership is asked).

Two readers: the review grid's "not found" (:mod:`core.grid_places`, :mod:`core.grid_decision`) and the
passages answer's decision (:mod:`core.passage_decision`, :data:`core.passage_decision.FORM_MIN_MARGIN`).
No Qt, no model call; the sentence vectors come from the passages answer's sentence-vector cache.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=1)
def wording_matrix():
    """(owner type id per wording phrase, unit vectors one row per phrase) of every clause type; a type's
    phrases are contiguous rows. Embedded once per process (321 phrases, ~0.3 s)."""
    from core.clauses import vocabulary
    from core.store import get_embedder

    owners, texts = [], []
    for c in vocabulary().clauses:
        for w in c.wording:
            owners.append(c.id)
            texts.append(w)
    v = np.asarray(get_embedder().get_text_embedding_batch(texts), dtype=np.float32)
    return owners, v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)


def form_margin(clause_types, chunks, threads: int = 1) -> float | None:
    """The best clause-form margin over every sentence and adjacent pair of sentences of ``chunks``.

    Args:
        clause_types: ids of the asked clause types (``Trace.clause_types``).
        chunks: :class:`core.types.Chunk` objects (a question's retrieved chunks).
        threads: embedding threads for the sentences not in the cache (``core.passages.SCORING_THREADS``).

    Returns:
        The best margin, a difference of cosines (-2 … 2): > 0 when some span is nearer to an asked type's
        wording than to any other type's. ``None`` without a clause type, a known type with wording, or a
        sentence. Spans are those :func:`core.passages.score_spans` forms (same segmenter; pairs within
        one chunk of at most :data:`core.sentences.MAX_PAIR_CHARS` characters).
    """
    from core.passage_vectors import _embed_default
    from core.sentences import MAX_PAIR_CHARS, sentence_spans

    types = set(clause_types)
    if not types:
        return None
    texts: list[str] = []
    for chunk in chunks:
        units = sentence_spans(chunk.text, chunk.lang)
        texts += [chunk.text[s:e] for s, e in units]
        texts += [chunk.text[s:e2] for (s, _), (_, e2) in zip(units, units[1:]) if e2 - s <= MAX_PAIR_CHARS]
    texts = list(dict.fromkeys(texts))
    if not texts:
        return None
    owners, wmat = wording_matrix()
    starts = [i for i, o in enumerate(owners) if i == 0 or owners[i - 1] != o]
    mine = np.array([owners[i] in types for i in starts])
    if not mine.any() or mine.all():
        return None
    _q, vecs = _embed_default(texts[0], texts, threads)
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
    sims = vecs @ wmat.T  # (texts, wording phrases)
    per_type = np.maximum.reduceat(sims, starts, axis=1)  # (texts, types): best phrase of each type
    margin = per_type[:, mine].max(axis=1) - per_type[:, ~mine].max(axis=1)
    return float(margin.max())
