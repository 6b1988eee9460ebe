"""A large one-line text file, indexed by ``verbatim index``, stopped with Ctrl+C (SIGINT) inside it, then indexed again.

Prints, for the tree given with ``--tree`` (default: this repository), what the stop kept and
what the next run had to embed — issue #23 item 5 ("Ctrl+C after 7 minutes kept 0 chunks, and
the next run started from zero"). Run it once on a tree before the change and once after, on the
same machine, to compare:

    python bench/resume_large_file.py --tree /tmp/main-snapshot --seconds 60
    python bench/resume_large_file.py --seconds 60

The file is generated (numbered clauses in one line, no paragraph break), so no data is needed.
Settings: the product's chunking; ``--commit`` chunks between commits (product default 512).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def clause(n: int) -> str:
    return (f"Clause {n}: the lessee shall pay the sum of {n * 17} euros for item codeword{n:05d} before the "
            f"{n % 28 + 1} day of each month, keep the premises in good repair and insure them against fire. ")


def chunks_in(home: Path) -> int:
    db = home / "workspaces" / "bench" / "manifest.sqlite"
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    finally:
        conn.close()


def index(tree: Path, home: Path, folder: Path, commit: int, stop_after: float | None, stop_line: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERBATIM_")}
    env.update(VERBATIM_HOME=str(home), VERBATIM_INDEX_COMMIT_CHUNKS=str(commit), PYTHONPATH=str(tree),
               VERBATIM_ENGINE_IDLE_S="0")
    if "VERBATIM_EMBEDDING_MODEL" in os.environ:
        env["VERBATIM_EMBEDDING_MODEL"] = os.environ["VERBATIM_EMBEDDING_MODEL"]
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "core", "index", str(folder), "-w", "bench"], cwd=tree, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stopped_at = None
    if stop_line:  # the CLI's first "N/M chunks" line (every 256 chunks of a long file, both trees print it)
        err = []
        for line in proc.stderr:
            err.append(line)
            if re.search(r"\d+/\d+ chunks", line):
                stopped_at = time.perf_counter()
                proc.send_signal(signal.SIGINT)
                break
    elif stop_after is not None:
        try:
            proc.wait(timeout=stop_after)
        except subprocess.TimeoutExpired:
            stopped_at = time.perf_counter()
            proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate()
    end = time.perf_counter()
    embedded = next((int(w) for line in out.splitlines() if "chunks embedded:" in line
                     for w in [line.split("chunks embedded:")[1].split()[0]]), None)
    return {"rc": proc.returncode, "seconds": round(end - t0, 1),
            "exit_after_sigint_s": round(end - stopped_at, 1) if stopped_at else None,
            "chunks_kept": chunks_in(home), "chunks_embedded_reported": embedded}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=REPO, help="repository tree to run (default: this one)")
    ap.add_argument("--clauses", type=int, default=2500, help="clauses in the generated line (about 50 tokens each)")
    ap.add_argument("--commit", type=int, default=512, help="chunks between commits (VERBATIM_INDEX_COMMIT_CHUNKS)")
    ap.add_argument("--seconds", type=float, default=60.0, help="Ctrl+C this long after the start")
    ap.add_argument("--at-chunk-line", action="store_true",
                    help="Ctrl+C at the CLI's first 'N/M chunks' progress line instead (after 256 chunks embedded)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-resume-") as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        big = folder / "big.txt"
        big.write_text("".join(clause(n) for n in range(args.clauses)), encoding="utf-8")
        home = Path(tmp) / "home"
        first = index(args.tree, home, folder, args.commit, args.seconds, args.at_chunk_line)
        second = index(args.tree, home, folder, args.commit, None)
        print(json.dumps({"tree": str(args.tree), "file_bytes": big.stat().st_size, "commit_chunks": args.commit,
                          "stopped": first, "next_run": second}, indent=1))


if __name__ == "__main__":
    main()
