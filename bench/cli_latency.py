"""`verbatim ask` wall time on the sample corpus: cold (a fresh process, no warm engine) and warm
(answered by the engine a previous ask left running, core.engine_server). Issue #24.

Each ask is a real ``python -m core ask … --backend passages --json`` subprocess, timed from
start to exit, in a throw-away data folder holding the indexed sample (resources/sample/docs).

* cold: ``--no-engine`` (answers in its own process; what every ask cost before the warm engine);
* warm: the engine is started (``python -m core.engine_server``) as ``ask`` starts it, and left to
  warm up (its state file says ``ready``); then each ask connects to it. Twice in the same run:
  ``libraries_only`` (the engine loads the libraries and the embedding model: what ``spawn()`` did
  before 2026-12-02) and ``with_workspace`` (it also reads the asked workspace ahead,
  ``--warm-workspace``, as ``spawn(workspace)`` now does). ``first_on_engine_s`` is the user's
  second ask, the first one the engine answers.

Usage: ``python bench/cli_latency.py [--runs N] [--cold-runs N] [--home DIR] [--before-root DIR]`` (``--home`` reuses an indexed folder).
Prints one JSON line with the per-run seconds and the medians (p50).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "What are the three security objectives?",
    "What does a loss of availability mean?",
    "¿Quién puede solicitar la declaración de inconstitucionalidad?",
    "What is a potential impact of low?",
    "¿Cuál es la capital del Estado?",
]


def _env(home: Path, idle: str, root: Path = ROOT) -> dict:
    return {**os.environ, "VERBATIM_HOME": str(home), "VERBATIM_ENGINE_IDLE_S": idle,
            "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _wait_ready(timeout_s: float = 900) -> float:
    """Seconds until the registered engine answers a call (its warm-up done: calls wait for it).
    Works with engines of any version (``core.engine.ping`` is old)."""
    from core.engine import ping
    from core.engine_server import call, connect, read_state

    t = time.perf_counter()
    while time.perf_counter() - t < timeout_s:
        conn = connect() if read_state() is not None else None
        if conn is not None:
            call(conn, ping)
            return time.perf_counter() - t
        time.sleep(0.2)
    raise SystemExit("the engine did not start")


PIPELINE_S: list[float] = []  # each ask's own pipeline seconds (the answer's trace total), in order


def _ask(home: Path, question: str, *extra: str, idle: str = "600") -> float:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "core", "ask", question, "-w", "sample", "--backend", "passages",
                          "--json", "--quiet", *extra], capture_output=True, text=True, env=_env(home, idle),
                         cwd=ROOT, timeout=900)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"ask failed: {out.stderr}")
    total_ms = json.loads(out.stdout)["trace"]["timings_ms"].get("total", 0.0)
    PIPELINE_S.append(total_ms / 1000)
    return took


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold-runs", type=int, default=None, help="cold asks (default: --runs; each loads everything)")
    parser.add_argument("--before-root", type=Path, default=None,
                        help="a checkout of an earlier commit: its engine is measured first, in the same run")
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="verbatim-cli-latency-"))
    env = _env(home, "0")
    if not (home / "workspaces" / "sample").exists():
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "core", "index", str(ROOT / "resources" / "sample" / "docs"),
                        "-w", "sample"], check=True, env=env, cwd=ROOT, capture_output=True, timeout=3600)
        print(f"indexed the sample in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    sys.path.insert(0, str(ROOT))
    os.environ["VERBATIM_HOME"] = str(home)
    from core.engine_server import stop

    stop()
    qs = [QUESTIONS[i % len(QUESTIONS)] for i in range(args.runs)]
    cold_qs = qs[:args.cold_runs] if args.cold_runs is not None else qs
    cold = [_ask(home, q, "--no-engine", idle="0") for q in cold_qs]
    cold_pipeline = PIPELINE_S[-len(cold_qs):] if cold_qs else []
    # The warm engine, started as `ask` leaves it, twice in the same run: "before" loads the libraries only
    # (what spawn() did until 2026-12-02), "after" also reads the workspace ahead (--warm-workspace). Each
    # time the first question is asked once the engine says it is ready, as a user's second ask after a
    # pause would be; then the warm runs.
    from core.engine_server import ready_state

    engines = {}
    variants = [("libraries_only", ROOT, []), ("with_workspace", ROOT, ["--warm-workspace", "sample"])]
    if args.before_root is not None:  # the earlier commit's engine, as its ask started it
        variants.insert(0, ("before", args.before_root.resolve(), []))
    for variant, root, extra in variants:
        subprocess.Popen([sys.executable, "-m", "core.engine_server", "--idle", "600", *extra],
                         env=_env(home, "600", root), cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
        ready_after = _wait_ready()
        warmed = ready_state()["warmed"]
        first = _ask(home, QUESTIONS[1])
        first_pipeline = PIPELINE_S[-1]
        warm = [_ask(home, q) for q in qs]
        warm_pipeline = PIPELINE_S[-len(qs):]
        stop()
        engines[variant] = {
            "engine_ready_s": round(ready_after, 1), "workspace_read_ahead_s": warmed.get("sample"),
            "first_on_engine_s": round(first, 2), "first_pipeline_s": round(first_pipeline, 2),
            "warm_s": [round(x, 2) for x in warm], "warm_p50_s": round(statistics.median(warm), 2),
            # What the answer itself took (retrieval, scoring, verification: trace.timings_ms["total"]); the
            # rest of each wall time is the client process (start, imports, settings, connection) and the
            # engine's ask_op around the pipeline (opening the workspace, the history).
            "warm_pipeline_s": [round(x, 2) for x in warm_pipeline],
            "warm_pipeline_p50_s": round(statistics.median(warm_pipeline), 2),
        }
    result = {
        "cold_s": [round(x, 2) for x in cold], "cold_p50_s": round(statistics.median(cold), 2) if cold else None,
        "cold_pipeline_p50_s": round(statistics.median(cold_pipeline), 2) if cold else None,
        **engines,
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "runs": args.runs, "home": str(home),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
