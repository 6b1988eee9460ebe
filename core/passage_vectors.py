"""Sentence vectors for the passages answer (split from :mod:`core.passages`, issue #20 third pass):
the embedding call that scores a question's candidate sentences, torch's thread count around it, and the
process-wide cache of sentence vectors already embedded. :mod:`core.passages` re-exports these names."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from contextlib import contextmanager

import numpy as np


_threads_lock = threading.Lock()


@contextmanager
def _torch_threads(n: int | None):
    """Run the block with ``n`` torch intra-op threads, then restore the previous count.

    Serialized by a lock so that two scorings never restore each other's value. Torch's
    setting is process-wide: an indexing embed running meanwhile in another engine thread
    uses ``n`` threads for those milliseconds. Torch is never imported here: where the
    embedding model runs through OpenVINO it is not loaded and has no threads to set (importing
    it cost a grid's first cell 1.4 s of its 2.3 s, bench/README.md "grid2").
    """
    torch = sys.modules.get("torch")
    if n is None or torch is None:
        yield
        return

    with _threads_lock:
        before = torch.get_num_threads()
        if before == n:
            yield
            return
        torch.set_num_threads(n)
        try:
            yield
        finally:
            torch.set_num_threads(before)


class _SentenceVectors:
    """Vectors of sentences already embedded in this process, LRU-bounded (``size`` entries of 384
    floats: 4,096 are ~6 MB), keyed by the embedding model object and the text.

    A session asks several questions about the same documents and their best chunks come back
    (a contract's definitions, its preamble): their sentences are embedded once. Our own few
    lines over ``OrderedDict`` (the stdlib's ``functools.lru_cache`` memoizes one call, not the
    texts of a batch).
    """

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[tuple[int, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, model, texts: list[str]) -> list[np.ndarray | None]:
        with self._lock:
            out = []
            for text in texts:
                vec = self._items.get((id(model), text))
                if vec is not None:
                    self._items.move_to_end((id(model), text))
                out.append(vec)
            return out

    def put(self, model, texts: list[str], vecs: np.ndarray) -> None:
        with self._lock:
            for text, vec in zip(texts, vecs):
                self._items[(id(model), text)] = vec
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_sentence_vectors = _SentenceVectors()


def _embed_default(question: str, texts: list[str], threads: int | None,
                   cache: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The question's and ``texts``' vectors from the workspace embedding model, ``(384,)`` and
    ``(len(texts), 384)``, L2-normalized.

    Sentences embedded before in this process come from :data:`_sentence_vectors` (``cache``);
    the others are embedded in one encode call with the question when the model encodes queries
    and texts alike (sentence-transformers prompts ``query`` and ``text`` equal, as
    all-MiniLM-L6-v2's empty ones): every forward pass has a fixed cost, large on a loaded CPU.
    Otherwise, or for a stand-in without that attribute, the query goes through
    ``get_query_embedding``.
    """
    from core.store import get_embedder

    model = get_embedder()
    known = _sentence_vectors.get(model, texts) if cache else [None] * len(texts)
    todo = [t for t, v in zip(texts, known) if v is None]
    prompts = getattr(getattr(model, "_model", None), "prompts", None)
    with _torch_threads(threads):
        if isinstance(prompts, dict) and prompts.get("query", "") == prompts.get("text", ""):
            vecs = np.asarray(model.get_text_embedding_batch([question, *todo]), dtype=np.float32)
            q_vec, new = vecs[0], vecs[1:]
        else:
            q_vec = np.asarray(model.get_query_embedding(question), dtype=np.float32)
            new = np.asarray(model.get_text_embedding_batch(todo), dtype=np.float32) if todo else np.zeros((0, 0))
    if cache and todo:
        _sentence_vectors.put(model, todo, new)
    fresh = iter(new)
    return q_vec, np.asarray([v if v is not None else next(fresh) for v in known], dtype=np.float32)
