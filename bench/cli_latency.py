"""`verbatim ask` wall time on the sample corpus: cold (a fresh process, no warm engine) and warm
(answered by the engine a previous ask left running, core.engine_server). Issue #24.

Each ask is a real ``python -m core ask … --backend passages --json`` subprocess, timed from
start to exit, in a throw-away data folder holding the indexed sample (resources/sample/docs).

* cold: ``--no-engine`` (answers in its own process; what every ask cost before the warm engine);
* warm: the engine is started once (``python -m core.engine_server``) and left to warm up, then
  each ask connects to it.

Usage: ``python bench/cli_latency.py [--runs N] [--home DIR]`` (``--home`` reuses an indexed folder).
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


def _env(home: Path, idle: str) -> dict:
    return {**os.environ, "VERBATIM_HOME": str(home), "VERBATIM_ENGINE_IDLE_S": idle,
            "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _ask(home: Path, question: str, *extra: str, idle: str = "600") -> float:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "core", "ask", question, "-w", "sample", "--backend", "passages",
                          "--json", "--quiet", *extra], capture_output=True, text=True, env=_env(home, idle),
                         cwd=ROOT, timeout=900)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"ask failed: {out.stderr}")
    json.loads(out.stdout)
    return took


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
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
    from core.engine_server import read_state, stop

    stop()
    qs = [QUESTIONS[i % len(QUESTIONS)] for i in range(args.runs)]
    cold = [_ask(home, q, "--no-engine", idle="0") for q in qs]
    # The warm engine: started once, as a first ask leaves it; the first question waits for its warm-up.
    subprocess.Popen([sys.executable, "-m", "core.engine_server", "--idle", "600"], env=_env(home, "600"), cwd=ROOT,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    t = time.perf_counter()
    while read_state() is None and time.perf_counter() - t < 300:
        time.sleep(0.1)
    first = _ask(home, QUESTIONS[0])
    warm = [_ask(home, q) for q in qs]
    stop()
    result = {
        "cold_s": [round(x, 2) for x in cold], "cold_p50_s": round(statistics.median(cold), 2),
        "first_on_engine_s": round(first, 2),
        "warm_s": [round(x, 2) for x in warm], "warm_p50_s": round(statistics.median(warm), 2),
        "runs": args.runs, "home": str(home),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
