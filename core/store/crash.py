"""Test-only crash hook of the commit protocol (:func:`crash_point`)."""

from __future__ import annotations

import os
import signal
import sys
from collections import Counter

#: Environment variable naming the crash point, see :func:`crash_point`.
KILL_AT_ENV = "VERBATIM_TEST_KILL_AT"

_kill_counts: Counter[str] = Counter()


def crash_point(name: str) -> None:
    """Test-only hook: SIGKILL this process at a named step of the commit protocol.

    ``VERBATIM_TEST_KILL_AT=<point>[:<n>]`` kills the process the ``n``-th time
    (default 1) it reaches ``point``. Points, in protocol order: ``after_delete``
    (old vectors of a batch deleted), ``after_vectors`` (new vectors added, manifest
    not committed), ``after_manifest`` (manifest committed, BM25 stale),
    ``bm25_written`` (new BM25 folder complete, not recorded), ``bm25_recorded``
    (recorded, old folders not swept), ``after_optimize`` (LanceDB compacted,
    new version not recorded). Only tests/core/test_index_atomic.py sets it;
    unset, this costs one environment lookup per commit.
    """
    spec = os.environ.get(KILL_AT_ENV)
    if not spec:
        return
    point, _, nth = spec.partition(":")
    if point != name:
        return
    _kill_counts[name] += 1
    if _kill_counts[name] >= int(nth or 1):
        sys.stdout.flush()
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
