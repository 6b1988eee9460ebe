"""Indexing throughput: fresh index, no-change re-index, one changed file; and the cost of atomic commits.

Usage: python bench/ingest_index.py [FOLDER] [--baseline REPO] [--repeat N]

Default folder: ../shared/eval/corpora/pdfs. Each variant runs in its own
subprocess (its own checkout on ``sys.path``, its own temporary data folder)
and times, after loading the embedding model:

* ``fresh``: index the folder into an empty workspace;
* ``no-change``: index it again (nothing changed);
* ``one-changed``: replace one PDF with another version (a page subset) and index again.

Variants: this checkout with the default commit batch (512 chunks), with one
commit per document (``index_commit_chunks=1``, the most commits), and, with
``--baseline ../other-checkout``, another checkout (e.g. before atomic commits).
Prints medians over ``--repeat`` runs; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

# Runs inside the variant's checkout: only APIs that exist on both sides.
CHILD = r"""
import json, sys, time, shutil
from pathlib import Path
import core
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace, get_embedder
folder, changed_src, commit = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
get_embedder()
settings = Settings(index_commit_chunks=commit) if "index_commit_chunks" in Settings.model_fields else Settings()
ws = Workspace("bench", settings)
out = {}
for phase in ("fresh", "no-change", "one-changed"):
    if phase == "one-changed":
        target = sorted(folder.glob("*.pdf"))[0]
        shutil.copy(changed_src, target)
    t = time.perf_counter()
    r = run(index_folders(ws, [folder]))
    out[phase] = {"s": time.perf_counter() - t, "docs": r.documents, "pages": r.pages, "chunks": r.chunks}
print(json.dumps(out))
"""


def _variant(repo: Path, folder: Path, changed_src: Path, commit: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-") as tmp:
        work = Path(tmp) / "docs"
        shutil.copytree(folder, work)
        env = {**os.environ, "VERBATIM_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(repo)}
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(work), str(changed_src), str(commit)],
            cwd=repo, env=env, capture_output=True, text=True, check=False,
        )
        if proc.returncode != 0:
            raise SystemExit(f"{repo}: {proc.stderr[-2000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    default = HERE.parent / "shared" / "eval" / "corpora" / "pdfs"
    parser.add_argument("folder", nargs="?", default=str(default))
    parser.add_argument("--baseline", help="another checkout to compare (a path)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    import pymupdf

    folder = Path(args.folder)
    pdfs = sorted(folder.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"{folder}: no PDF")
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-src-") as tmp:
        src = Path(tmp) / "docs"
        src.mkdir()
        for p in pdfs:
            shutil.copy(p, src / p.name)
        changed = Path(tmp) / "changed.pdf"
        with pymupdf.open(pdfs[0]) as doc, pymupdf.open() as out:
            out.insert_pdf(doc, from_page=0, to_page=max(0, doc.page_count // 2 - 1))
            out.save(changed)
        variants = [("this, commit every 512 chunks", HERE, 512), ("this, commit every document", HERE, 1)]
        if args.baseline:
            variants.append((f"baseline {args.baseline}", Path(args.baseline).resolve(), 512))
        print(f"corpus: {len(pdfs)} PDFs from {folder}; changed file: {pdfs[0].name}; repeat {args.repeat}")
        print(f"{'variant':38s} {'fresh s':>9s} {'chunks/s':>9s} {'no-change s':>12s} {'one-changed s':>14s}")
        for label, repo, commit in variants:
            runs = [_variant(repo, src, changed, commit) for _ in range(args.repeat)]
            med = {ph: statistics.median(r[ph]["s"] for r in runs) for ph in ("fresh", "no-change", "one-changed")}
            chunks = runs[0]["fresh"]["chunks"]
            print(f"{label:38s} {med['fresh']:9.2f} {chunks / med['fresh']:9.1f} {med['no-change']:12.3f} "
                  f"{med['one-changed']:14.2f}   ({chunks} chunks, {runs[0]['fresh']['pages']} pages)")


if __name__ == "__main__":
    main()
