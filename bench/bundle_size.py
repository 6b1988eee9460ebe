"""Size of the frozen one-folder app (``dist/verbatim``) and what of it is ever loaded.

    python bench/bundle_size.py [DIST] [--top 30]
        prints the total size, the largest folders (two levels under ``_internal``,
        plus the top level) and the largest files, in MB (2**20 bytes).

    python bench/bundle_size.py [DIST] --trace [--home DIR]
        also runs ``DIST/verbatim-desktop --self-test`` in a clean environment
        (``env -i``, ``HOME`` an empty temporary folder unless ``--home``), reads
        ``/proc/<pid>/maps`` of the running process every 0.2 s (Linux only) and
        prints the shared libraries inside DIST that were never mapped, largest
        first, plus the entries the run left in ``HOME``.

"Never mapped during the self-test" is a candidate for exclusion, not a proof:
the self-test does not open the window (Qt plugins, Qt widgets code) and does not
run every code path (re-indexing moved files, Ollama, OCR). Each exclusion in
``build.spec`` carries its own reason.

Identical files (same size and SHA-256) are listed too: PyInstaller copies a
library once per name it is found under (``libfoo.so``, ``libfoo.so.1``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

MB = 1024 * 1024
_LIB_SUFFIXES = (".so", ".dylib", ".dll", ".pyd")


def _is_lib(path: Path) -> bool:
    name = path.name
    return name.endswith(_LIB_SUFFIXES) or ".so." in name


def _sizes(dist: Path) -> tuple[dict[Path, int], dict[Path, int]]:
    """Files → size and folders (depth ≤ 2 below ``_internal``, and the top level) → total size."""
    files: dict[Path, int] = {}
    folders: dict[Path, int] = defaultdict(int)
    internal = dist / "_internal"
    for root, _dirs, names in os.walk(dist):
        for name in names:
            p = Path(root) / name
            if p.is_symlink():
                continue
            size = p.stat().st_size
            files[p] = size
            rel = p.relative_to(internal) if p.is_relative_to(internal) else None
            if rel is not None:
                for depth in (1, 2):
                    if len(rel.parts) > depth:
                        folders[internal.joinpath(*rel.parts[:depth])] += size
    return files, folders


def _duplicates(files: dict[Path, int]) -> list[tuple[int, list[Path]]]:
    """Groups of identical files above 100 kB: (size of one copy, paths)."""
    by_size: dict[int, list[Path]] = defaultdict(list)
    for p, s in files.items():
        if s > 100_000:
            by_size[s].append(p)
    groups = []
    for size, paths in by_size.items():
        if len(paths) < 2:
            continue
        by_hash: dict[str, list[Path]] = defaultdict(list)
        for p in paths:
            by_hash[hashlib.sha256(p.read_bytes()).hexdigest()].append(p)
        groups += [(size, sorted(g)) for g in by_hash.values() if len(g) > 1]
    return sorted(groups, key=lambda g: -g[0] * (len(g[1]) - 1))


def report(dist: Path, top: int) -> dict[Path, int]:
    """Print the size tables; return file sizes."""
    files, folders = _sizes(dist)
    total = sum(files.values())
    print(f"bundle {dist}: {total / MB:.0f} MB in {len(files)} files")
    print(f"\nlargest {top} folders (MB):")
    for p, s in sorted(folders.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{s / MB:9.1f}  {p.relative_to(dist)}/")
    print(f"\nlargest {top} files (MB):")
    for p, s in sorted(files.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{s / MB:9.1f}  {p.relative_to(dist)}")
    dups = _duplicates(files)
    if dups:
        wasted = sum(s * (len(g) - 1) for s, g in dups)
        print(f"\nidentical copies ({wasted / MB:.1f} MB beyond the first copy):")
        for s, g in dups[:15]:
            print(f"{s / MB:9.1f}  x{len(g)}  " + ", ".join(str(p.relative_to(dist)) for p in g))
    return files


def trace(dist: Path, files: dict[Path, int], home: Path | None) -> int:
    """Run the frozen self-test, sampling its mapped files; print never-mapped libraries."""
    exe = dist / ("verbatim-desktop.exe" if os.name == "nt" else "verbatim-desktop")
    if not Path("/proc/self/maps").exists():
        print("--trace needs /proc (Linux)", file=sys.stderr)
        return 2
    home = home or Path(tempfile.mkdtemp(prefix="verbatim-home-"))
    png = Path(tempfile.mkdtemp(prefix="verbatim-png-"))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "QT_QPA_PLATFORM": "offscreen", "LANG": "C.UTF-8"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(exe), "--self-test", "--self-test-png", str(png)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    mapped: set[str] = set()
    pids = {proc.pid}
    while proc.poll() is None:
        for pid in list(pids):
            try:
                with open(f"/proc/{pid}/maps") as fh:
                    for line in fh:
                        parts = line.split(maxsplit=5)
                        if len(parts) == 6:
                            mapped.add(os.path.realpath(parts[5].strip()))
                with open(f"/proc/{pid}/task/{pid}/children") as fh:
                    pids.update(int(c) for c in fh.read().split())
            except OSError:
                pass
        time.sleep(0.2)
    out = proc.stdout.read() if proc.stdout else ""
    seconds = time.perf_counter() - t0
    print(out.rstrip())
    print(f"\nself-test: exit {proc.returncode} in {seconds:.0f} s")
    libs = {p: s for p, s in files.items() if _is_lib(p)}
    unused = {p: s for p, s in libs.items() if os.path.realpath(p) not in mapped}
    used = sum(s for p, s in libs.items() if p not in unused)
    print(f"libraries mapped: {len(libs) - len(unused)} ({used / MB:.0f} MB); "
          f"never mapped: {len(unused)} ({sum(unused.values()) / MB:.0f} MB), largest:")
    for p, s in sorted(unused.items(), key=lambda kv: -kv[1])[:40]:
        print(f"{s / MB:9.1f}  {p.relative_to(dist)}")
    left = sorted(p.relative_to(home) for p in home.rglob("*"))
    print(f"\nHOME ({home}) after the run: {len(left)} entries")
    for p in left[:40]:
        print(f"  {p}")
    return proc.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", type=Path, default=Path("dist") / "verbatim")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--trace", action="store_true", help="run the frozen self-test and list never-mapped libraries")
    parser.add_argument("--home", type=Path, default=None, help="with --trace: HOME for the run (default: empty temp dir)")
    args = parser.parse_args(argv)
    if not args.dist.is_dir():
        parser.error(f"{args.dist} is not a folder (build it first: bash .ci/build-frozen)")
    files = report(args.dist, args.top)
    return trace(args.dist, files, args.home) if args.trace else 0


if __name__ == "__main__":
    sys.exit(main())
