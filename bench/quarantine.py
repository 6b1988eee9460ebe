"""Quarantine detector figures: false positives on the evaluation corpora, hits on injection cases.

Usage: python bench/quarantine.py [--verbose]

Scans every document of ../shared/eval/corpora (target: none flagged), the
lab's corpus (target: only norte/nota-proveedor-externo.md flagged) and the
cases of bench/injection_cases.py (visible and hidden, English and Spanish,
plus near misses that must not be flagged). Prints counts and the time per
document (median); nothing here is a pass/fail test (tests/core/test_quarantine.py is).
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
from bench.injection_cases import build_cases  # noqa: E402
from core.errors import IngestError  # noqa: E402
from core.ingest import iter_files, parse_file  # noqa: E402
from core.quarantine import screen_document  # noqa: E402

SHARED = Path(os.environ.get("VERBATIM_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def screen_folder(folder: Path) -> tuple[dict[str, list], list[float], int]:
    """``({relative path: findings}, seconds per document, unreadable count)`` for every file under ``folder``."""
    results: dict[str, list] = {}
    times: list[float] = []
    unreadable = 0
    for path in iter_files(folder):
        try:
            parsed = parse_file(path)
        except IngestError:
            unreadable += 1
            continue
        t0 = time.perf_counter()
        results[path.relative_to(folder).as_posix()] = screen_document(parsed)
        times.append(time.perf_counter() - t0)
    return results, times, unreadable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", "-v", action="store_true", help="print every finding")
    args = parser.parse_args()
    corpora, t1, bad = screen_folder(SHARED / "eval" / "corpora")
    flagged = {k: v for k, v in corpora.items() if v}
    print(f"corpora: {len(corpora)} documents screened ({bad} unreadable), {len(flagged)} flagged (target 0); "
          f"median {statistics.median(t1) * 1000:.1f} ms/document")
    for name, findings in flagged.items():
        print(f"  FALSE POSITIVE {name}: {findings[0].reason()}")
    lab, _, _ = screen_folder(SHARED / "eval" / "lab" / "corpus")
    lab_flagged = sorted(k for k, v in lab.items() if v)
    print(f"lab: {len(lab)} documents, flagged {lab_flagged} (target ['norte/nota-proveedor-externo.md'])")
    if args.verbose:
        for name in lab_flagged:
            for f in lab[name]:
                print(f"    {f.rule}: {f.passage}")
    with tempfile.TemporaryDirectory() as tmp:
        cases = build_cases(Path(tmp))
        results, _, _ = screen_folder(Path(tmp))
    hits = misses = false_pos = true_neg = 0
    for name, expected in cases:
        findings = results.get(name, [])
        got = findings[0].rule if findings else None
        if expected is None:
            true_neg += got is None
            false_pos += got is not None
        else:
            hits += got == expected
            misses += got != expected
        if args.verbose or got != expected:
            print(f"  {'ok ' if got == expected else 'BAD'} {name}: expected {expected}, got {got}")
    positives = sum(1 for _, e in cases if e)
    print(f"cases: {positives} hostile -> {hits} flagged with the expected rule, {misses} missed; "
          f"{len(cases) - positives} near misses -> {false_pos} flagged (target 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
