"""Pipeline figures on this machine: indexing pages/s and chunks/s, retrieval ms, embedded answer s.

Usage: python bench/pipeline.py [FOLDER] [--questions N]
Default folder: ../shared/eval/corpora/pdfs. Runs in a temporary data folder.
Prints medians (these machines are noisy); nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import core  # noqa: E402,F401
from core.pipeline import answer_question, index_folders, retrieve, run  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.types import Trace  # noqa: E402

QUESTIONS = [
    "What are the potential impact levels?",
    "¿Cuáles son los derechos fundamentales?",
    "What is the purpose of the framework?",
    "¿Quién nombra al Presidente del Gobierno?",
    "What does the rule change for aircraft?",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    default = Path(__file__).resolve().parents[2] / "shared" / "eval" / "corpora" / "pdfs"
    parser.add_argument("folder", nargs="?", default=str(default))
    parser.add_argument("--questions", type=int, default=2, help="embedded-model answers to time")
    args = parser.parse_args()
    os.environ.setdefault("VERBATIM_HOME", tempfile.mkdtemp(prefix="verbatim-bench-"))
    from core.store import Workspace, get_embedder

    t = time.perf_counter()
    get_embedder()
    print(f"embedding model load: {time.perf_counter() - t:.1f} s")
    settings = Settings()
    ws = Workspace("bench", settings)
    t = time.perf_counter()
    report = run(index_folders(ws, [args.folder]))
    secs = time.perf_counter() - t
    print(f"index {args.folder}: {report.documents} docs, {report.pages} pages, {report.chunks} chunks in {secs:.1f} s "
          f"-> {report.pages / secs:.1f} pages/s, {report.chunks / secs:.1f} chunks/s (extraction + embedding)")
    t = time.perf_counter()
    again = run(index_folders(ws, [args.folder]))
    print(f"no-change re-index: {time.perf_counter() - t:.3f} s ({again.unchanged} unchanged, {again.chunks} embedded)")
    times = []
    for _ in range(3):
        for q in QUESTIONS:
            t = time.perf_counter()
            retrieve(ws, q, settings, Trace())
            times.append((time.perf_counter() - t) * 1000)
    print(f"retrieval (BM25 ∥ dense + RRF + eligibility), {len(times)} queries: median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms")
    if args.questions:
        from core.generate import EmbeddedBackend

        t = time.perf_counter()
        backend = EmbeddedBackend(settings)
        print(f"embedded model load: {time.perf_counter() - t:.1f} s")
        answers = []
        for q in QUESTIONS[: args.questions]:
            t = time.perf_counter()
            a = run(answer_question(ws, q, settings, backend=backend))
            answers.append(time.perf_counter() - t)
            print(f"  {q!r}: {a.status} in {answers[-1]:.1f} s ({a.trace.attempts} generation attempt(s))")
        print(f"embedded answer: median {statistics.median(answers):.1f} s")


if __name__ == "__main__":
    main()
