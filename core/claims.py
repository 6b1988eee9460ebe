"""Claim post-processing after verification: duplicates named, distinct source passages counted.

Split out of :mod:`core.pipeline` (2026-12-02, by concern: the pipeline orchestrates, these read
verified claims).
"""

from __future__ import annotations

from core.store import Workspace

__all__ = ["distinct_passages", "name_duplicates"]


def name_duplicates(workspace: Workspace, claims: list, duplicates: dict[str, list[str]]) -> None:
    """Fill ``Citation.also_in`` with the paths of the other documents holding a cited chunk's text."""
    if not duplicates or not any(c.chunk_id in duplicates for claim in claims for c in claim.citations):
        return
    paths = {d["doc_id"]: d["path"] for d in workspace.documents()}
    for claim in claims:
        for cit in claim.citations:
            cit.also_in = [paths.get(d, d) for d in duplicates.get(cit.chunk_id, [])]


def distinct_passages(claims: list) -> int:
    """Number of separate source passages the claims cite: citations of the same page whose
    spans overlap count once (two sides of a conflict need two passages)."""
    spans = sorted({(c.doc_id, c.page, c.start, c.end) for claim in claims for c in claim.citations})
    count, last = 0, None
    for doc, page, start, end in spans:
        if last is not None and last[0] == (doc, page) and start < last[1]:
            last = (last[0], max(last[1], end))
            continue
        count += 1
        last = ((doc, page), end)
    return count
