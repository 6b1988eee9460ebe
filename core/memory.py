"""Process-wide memory settings, applied when :mod:`core` is imported.

**malloc arenas.** glibc gives each thread that allocates its own malloc arena
(up to 8 per core) and keeps what is freed in it for reuse, so a process whose
short-lived threads allocate — retrieval runs its searches in a thread pool,
LanceDB in its own — holds freed memory in many arenas. Measured on a 1M-chunk
workspace (bench/README.md, "Archive scale"): 16 questions left 1,716 MB of
anonymous memory resident with the default, 1,187 MB with two arenas, at the
same speed. The limit is glibc's documented ``M_ARENA_MAX`` (mallopt(3); the
same as the ``MALLOC_ARENA_MAX`` environment variable, which wins when set).
Elsewhere (macOS, Windows, musl) nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_ARENA_MAX = -8  # glibc's malloc.h
MALLOC_ARENAS = 2

arenas_limited = False
"""Whether :func:`limit_malloc_arenas` set the limit in this process."""


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas at ``arenas`` (module docstring); True when it did.

    Does nothing (False) off Linux, without glibc, or when ``MALLOC_ARENA_MAX`` is set
    in the environment (the user's choice).
    """
    global arenas_limited
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        arenas_limited = bool(libc.mallopt(M_ARENA_MAX, arenas))  # 1 on success
    except (OSError, AttributeError):  # not glibc (no mallopt)
        arenas_limited = False
    return arenas_limited
