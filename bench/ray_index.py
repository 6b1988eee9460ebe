"""Wall time of indexing one folder in this process vs on a local Ray (core/cluster.py), one run each.

Usage: python bench/ray_index.py [FOLDER] [--cpus N]

Default folder: ../shared/eval/corpora/cuad/txt (15 CUAD contracts). Both runs
index the same folder into fresh workspaces of one temporary data folder:

* ``local``: :meth:`core.store.Workspace.index` in this process, after the
  embedding model is loaded (its load time printed apart);
* ``ray``: :func:`core.cluster.ray_index` on a local Ray of ``--cpus`` CPUs
  (default 2), started before the timer (start time printed apart); the
  timed run includes the embedding actors' model load, as every run does.

Prints seconds, chunks/s, the ratio, and whether both indexes hold the same
chunk ids. Nothing here is a pass/fail test; on a loaded machine the figures
are noisy (one run).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(HERE.parent / "shared" / "eval" / "corpora" / "cuad" / "txt"))
    parser.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args()
    folder = Path(args.folder).resolve()
    with tempfile.TemporaryDirectory(prefix="verbatim-ray-bench-") as home:
        os.environ["VERBATIM_HOME"] = home
        import core  # noqa: F401  (offline switches first)
        from core.cluster import ray_index, ray_session
        from core.pipeline import run
        from core.store import Workspace, get_embedder

        t = time.perf_counter()
        get_embedder()
        load_s = time.perf_counter() - t
        local = Workspace("local")
        t = time.perf_counter()
        local_report = run(local.index([folder]))
        local_s = time.perf_counter() - t

        t = time.perf_counter()
        with ray_session(None, num_cpus=args.cpus):
            init_s = time.perf_counter() - t
            on_ray = Workspace("ray")
            t = time.perf_counter()
            ray_report = run(ray_index(on_ray, [folder]))
            ray_s = time.perf_counter() - t
        same = local.stored_chunk_ids()["manifest"] == on_ray.stored_chunk_ids()["manifest"]

    chunks = local_report.chunks
    print(f"folder: {folder} ({local_report.documents} documents, {local_report.pages} pages, {chunks} chunks)")
    print(f"embedding model load (local, excluded): {load_s:.1f} s; local Ray start ({args.cpus} CPUs, "
          f"excluded): {init_s:.1f} s")
    print("| run | seconds | chunks/s |")
    print("| --- | --- | --- |")
    print(f"| local (Workspace.index) | {local_s:.1f} | {chunks / local_s:.1f} |")
    print(f"| local Ray, {args.cpus} CPUs (ray_index) | {ray_s:.1f} | {ray_report.chunks / ray_s:.1f} |")
    print(f"Ray / local wall time: {ray_s / local_s:.2f}; same chunk ids: {same}; "
          f"failures local {len(local_report.failures)}, Ray {len(ray_report.failures)}")


if __name__ == "__main__":
    main()
