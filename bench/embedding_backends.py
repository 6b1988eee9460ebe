"""Embedding backends side by side on the whole ``Workspace.index`` path (issue #26).

For each variant (an embedder installed with :func:`core.store.use_embedder`), each round indexes
the same folder of PDFs into a fresh workspace (parse, chunk, embed, commit: what the window and
the CLI run) and reports chunks per second; rounds alternate the variants so a change of the
machine's load hits all of them alike; the median of the rounds is reported, with the load
average. Then: query-embedding latency (median of 30 questions after a warm-up) and the cosine of
each variant's chunk vectors to the float32 PyTorch ones (today's).

    PYTHONPATH=$PWD python bench/embedding_backends.py [--folder DIR] [--files N] [--rounds 3]
        [--variants torch,openvino-bf16-latency,openvino-bf16]

Variants: ``torch`` (PyTorch float32, today's path before OpenVINO), ``torch-bf16``,
``openvino-bf16`` / ``openvino-f32`` (OpenVINO, THROUGHPUT hint: one stream per core),
``openvino-bf16-latency`` / ``openvino-f32-latency`` (LATENCY hint, one stream on every core, calls of
32: the setting of 2026-12-02 morning). A suffix ``:ahead`` / ``:serial`` turns the reading of the next
file during embedding on / off (default: on for the OpenVINO THROUGHPUT variants only, so that the
default variants are "before" and "after" as shipped).

Default folder: ``../shared/eval/corpora/cuad/pdf`` (the dev CUAD PDFs). Real CPUs: do not set
``OMP_NUM_THREADS`` for timed runs. The OpenVINO IR is exported once (outside the timings) into
the benchmark's own data folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

QUESTIONS = [
    "Can either party terminate the agreement for convenience?", "What law governs the contract?",
    "Is there a cap on liability?", "Who owns the intellectual property created under the agreement?",
    "How long does the agreement last?", "Is assignment to a third party allowed without consent?",
] * 5


def make(variant: str):
    from core.paths import embedding_model_dir
    from core.store.embedding import make_embedder

    if variant == "torch":
        return make_embedder("cpu", backend="torch")
    if variant == "torch-bf16":  # model weights cast to bfloat16 (oneDNN uses AMX where present)
        import torch

        emb = make_embedder("cpu", backend="torch")
        emb._model.to(torch.bfloat16)
        return emb
    if variant in ("openvino-bf16-latency", "openvino-f32-latency"):  # before 2026-12-02 (one stream, 2 threads)
        from core.embedding.openvino_model import OpenVINOEmbedder

        return OpenVINOEmbedder(embedding_model_dir(), precision=variant.split("-")[1], hint="LATENCY", batch=32)
    if variant.startswith("openvino-"):
        from core.embedding.openvino_model import OpenVINOEmbedder

        return OpenVINOEmbedder(embedding_model_dir(), precision=variant.split("-", 1)[1])
    raise SystemExit(f"unknown variant {variant}")


def reads_ahead(variant: str) -> bool:
    """Whether a variant's run reads the next file while embedding (``core.store.indexing.READ_AHEAD``):
    ``name:ahead`` / ``name:serial`` say so; by default PyTorch and the ``-latency`` variants (the
    paths before 2026-12-02) read serially, the others ahead."""
    name, _, mode = variant.partition(":")
    if mode:
        return mode == "ahead"
    return not (name.startswith("torch") or name.endswith("-latency"))


def index_once(folder: Path, embedder, root: Path, ahead: bool = True) -> tuple[int, float]:
    from core.pipeline import index_folders, run
    from core.store import indexing
    from core.settings import Settings
    from core.store import Workspace, use_embedder

    use_embedder(embedder)
    ws = Workspace("bench", Settings(), root=root)
    indexing.READ_AHEAD = ahead
    t = time.perf_counter()
    try:
        report = run(index_folders(ws, [folder]))
    finally:
        indexing.READ_AHEAD = True
    dt = time.perf_counter() - t
    chunks = sum(d["chunks"] for d in ws.documents())
    del report
    return chunks, dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", default=str(REPO.parent / "shared" / "eval" / "corpora" / "cuad" / "pdf"))
    ap.add_argument("--files", type=int, default=0, help="index only the first N files (0: all)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variants", default="torch,openvino-bf16-latency,openvino-bf16")
    ap.add_argument("--ir", default="", help="an IR folder exported before (checked by hash; saves the export)")
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="verbatim-embed-bench-"))
    os.environ["VERBATIM_HOME"] = str(home)
    import numpy as np

    import core  # noqa: F401 (offline switches)
    from core.embedding.openvino_model import load_ir
    from core.paths import embedding_model_dir

    folder = Path(args.folder)
    if args.files:
        sub = home / "docs"
        sub.mkdir()
        for p in sorted(folder.iterdir())[: args.files]:
            shutil.copy(p, sub / p.name)
        folder = sub
    variants = args.variants.split(",")
    if args.ir:
        from core.embedding.openvino_model import ir_dir_for

        shutil.copytree(args.ir, ir_dir_for(embedding_model_dir())[-1])
    if any(v.startswith("openvino") for v in variants):
        t = time.perf_counter()
        load_ir(embedding_model_dir())
        print(f"OpenVINO IR export + hash check: {time.perf_counter() - t:.1f} s (once, not timed below)")
    embedders = {}
    for v in variants:
        t = time.perf_counter()
        embedders[v] = make(v.split(":")[0])
        print(f"{v}: loaded in {time.perf_counter() - t:.1f} s", flush=True)
    rates: dict[str, list[float]] = {v: [] for v in variants}
    loads = []
    for r in range(args.rounds):
        for v in variants:
            root = home / f"ws-{v}-{r}"
            chunks, dt = index_once(folder, embedders[v], root, ahead=reads_ahead(v))
            rates[v].append(chunks / dt)
            loads.append(os.getloadavg()[0])
            print(f"round {r + 1} {v}: {chunks} chunks in {dt:.1f} s = {chunks / dt:.2f} chunks/s "
                  f"(load {loads[-1]:.1f})", flush=True)
            shutil.rmtree(root, ignore_errors=True)
    # chunk texts of the folder, for agreement with today's vectors
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace, use_embedder

    use_embedder(embedders[variants[0]])
    ws = Workspace("texts", Settings(), root=home / "texts")
    run(index_folders(ws, [folder]))
    with ws.manifest.connect() as db:
        ids = [r[0] for r in db.execute("SELECT chunk_id FROM chunks ORDER BY chunk_id")]
    chunks = ws.manifest.get_chunks(ids)
    texts = [chunks[i].embedding_text() for i in ids]
    ref = np.asarray(make("torch").get_text_embedding_batch(texts), dtype=np.float32)
    print(f"\nload average over the timed rounds: median {statistics.median(loads):.1f} "
          f"(min {min(loads):.1f}, max {max(loads):.1f}) on {os.cpu_count()} CPUs")
    base = statistics.median(rates[variants[0]])
    print(f"{'variant':16s} {'chunks/s':>9s} {'ratio':>6s} {'query ms':>9s} {'cos mean':>9s} {'cos min':>8s}  rounds")
    for v in variants:
        e = embedders[v]
        e.get_query_embedding("warm up")
        lat = []
        for q in QUESTIONS:
            t = time.perf_counter()
            e.get_query_embedding(q)
            lat.append((time.perf_counter() - t) * 1000)
        vec = np.asarray(e.get_text_embedding_batch(texts), dtype=np.float32)
        cos = (vec * ref).sum(axis=1)
        med = statistics.median(rates[v])
        print(f"{v:16s} {med:9.2f} {med / base:6.2f} {statistics.median(lat):9.1f} {cos.mean():9.5f} {cos.min():8.5f}"
              f"  {[round(x, 2) for x in rates[v]]}")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
