"""Chunking figures, old (1,000 characters, 200 overlap) vs new (section-aware, embedding-model tokens).

Usage: python bench/ingest.py [--k K] [--skip-lab]

For each variant, in one run on this machine:
* extraction: pages/s of ``parse_file`` over ../shared/eval/corpora/pdfs (same for both);
* chunks per page and median / max tokens per chunk (as embedded, [CLS]/[SEP] included:
  more than 256 means the embedder silently dropped the tail);
* chunking + embedding + indexing pages/s of the lab corpus and the PDFs;
* lab recall@k: share of the lab's gold quotes found, after normalization, in the top k
  retrieved chunks of their case (../shared/eval/lab, all folders as one workspace).
Prints figures only; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import core  # noqa: E402,F401
from core.chunking import chunk_pages, count_tokens  # noqa: E402
from core.ingest import PageText, iter_files, parse_file  # noqa: E402
from core.types import Chunk  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
PDFS = SHARED / "eval" / "corpora" / "pdfs"
LAB = SHARED / "eval" / "lab"

_PARA = re.compile(r"\n\s*\n")
_SENT = re.compile(r"[.!?;:]\s")


def legacy_chunk_pages(doc_id: str, path: str, pages: list[PageText], *, lang: str = "en", **_: object) -> list[Chunk]:
    """The chunker before issue #3 (characters: 1,000 per chunk, 200 overlap), kept here for comparison."""

    def cut(text: str, start: int, target_end: int) -> int:
        if target_end >= len(text):
            return len(text)
        window_from = start + int((target_end - start) * 0.7)
        window = text[window_from:target_end]
        for pattern in (_PARA, _SENT):
            ends = [m.end() for m in pattern.finditer(window)]
            if ends:
                return window_from + ends[-1]
        space = window.rfind(" ")
        if space < 0:
            space = window.rfind("\n")
        return window_from + space + 1 if space >= 0 else target_end

    chunks: list[Chunk] = []
    for page in pages:
        text, n, start = page.text, 0, 0
        while start < len(text):
            while start < len(text) and text[start].isspace():
                start += 1
            if start >= len(text):
                break
            end = cut(text, start, start + 1000)
            piece_end = end
            while piece_end > start and text[piece_end - 1].isspace():
                piece_end -= 1
            if piece_end > start:
                chunks.append(Chunk(chunk_id=f"{doc_id}#p{page.page}-c{n}", doc_id=doc_id, path=path, page=page.page,
                                    start=start, end=piece_end, text=text[start:piece_end], lang=lang))
                n += 1
            if end >= len(text):
                break
            next_start = max(end - 200, start + 1)
            space = text.find(" ", next_start, end)
            start = space + 1 if space >= 0 else next_start
    return chunks


VARIANTS = {"old (1000 chars)": legacy_chunk_pages, "new (256 tokens, sections)": chunk_pages}


def chunk_figures(docs, chunker) -> dict:
    pages = sum(len(d.pages) for d in docs)
    t = time.perf_counter()
    chunks = [c for d in docs for c in chunker("b/" + d.path.name, str(d.path), d.pages, title=d.title)]
    secs = time.perf_counter() - t
    toks = [count_tokens(c.embedding_text()) + 2 for c in chunks]
    return {
        "chunks": len(chunks),
        "chunks/page": round(len(chunks) / pages, 2),
        "median tokens": statistics.median(toks),
        "max tokens": max(toks),
        "over 256 (tail not embedded)": sum(t > 256 for t in toks),
        "chunking pages/s": round(pages / secs, 1),
    }


def lab_recall(chunker, k: int) -> tuple[float, int, float]:
    """recall@k over the lab's answerable cases, and indexing pages/s; in a fresh data folder."""
    import core.store.indexing as store
    from core.normalize import normalized
    from core.pipeline import index_folders, retrieve, run
    from core.settings import Settings
    from core.store import Workspace
    from core.types import Trace

    os.environ["VERBATIM_HOME"] = tempfile.mkdtemp(prefix="verbatim-bench-ingest-")
    original = store.chunk_pages
    store.chunk_pages = chunker
    try:
        settings = Settings(top_k=k)
        ws = Workspace("lab", settings)
        t = time.perf_counter()
        report = run(index_folders(ws, [LAB / "corpus" / d for d in ("public", "norte", "sur")]))
        pages_s = report.pages / (time.perf_counter() - t)
        cases = [json.loads(x) for x in (LAB / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
        found = total = 0
        for case in cases:
            if case["must_abstain"]:
                continue
            delivered = [normalized(s.chunk.text) for s in retrieve(ws, case["question"], settings, Trace())]
            for quote in case["gold_quotes"]:
                total += 1
                found += any(normalized(quote) in text for text in delivered)
        return found / total if total else 0.0, total, pages_s
    finally:
        store.chunk_pages = original


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=6, help="recall@k cut-off (the project's default top_k)")
    parser.add_argument("--skip-lab", action="store_true", help="skip indexing the lab (embedding is slow)")
    args = parser.parse_args()
    os.environ.setdefault("VERBATIM_HOME", tempfile.mkdtemp(prefix="verbatim-bench-ingest-"))
    files = sorted(iter_files(PDFS)) + sorted(iter_files(LAB / "corpus"))
    t = time.perf_counter()
    docs = [parse_file(f, ocr=False) for f in files]
    secs = time.perf_counter() - t
    pages = sum(len(d.pages) for d in docs)
    print(f"extraction: {len(docs)} files, {pages} pages in {secs:.2f} s -> {pages / secs:.1f} pages/s")
    count_tokens("warm up the tokenizer")
    for name, chunker in VARIANTS.items():
        figures = chunk_figures(docs, chunker)
        line = ", ".join(f"{k} {v}" for k, v in figures.items())
        print(f"{name}: {line}")
    if not args.skip_lab:
        for name, chunker in VARIANTS.items():
            recall, n, pages_s = lab_recall(chunker, args.k)
            print(f"{name}: lab recall@{args.k} {recall:.3f} over {n} gold quotes; "
                  f"lab indexing {pages_s:.1f} pages/s (parse + chunk + embed + store)")


if __name__ == "__main__":
    main()
