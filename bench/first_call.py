"""The first call in a new Python process, cold (no compiled core cached: it compiles) and warm
(the compiled core cached by an earlier process); warm target <= 100 ms.

Each sample is a fresh interpreter; it reports the time of its first call (the component loaded
or compiled, instantiated, seeded, then one parse), and separately the package import. Medians of
`--runs` processes each."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PROBE = """
import json, time
t0 = time.perf_counter()
import agent_contract as ac
t1 = time.perf_counter()
ac.parse_agent_action({"type": "finish", "summary": "done"})
t2 = time.perf_counter()
print(json.dumps({"import_ms": (t1 - t0) * 1000, "first_call_ms": (t2 - t1) * 1000}))
"""


def sample(cache: str) -> dict[str, float]:
    env = dict(os.environ, AGENT_CONTRACT_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as root:
        for i in range(args.runs):
            cold.append(sample(os.path.join(root, f"cold-{i}")))  # an empty cache: compiles
        warm_cache = os.path.join(root, "warm")
        sample(warm_cache)  # fills it
        for _ in range(args.runs):
            warm.append(sample(warm_cache))
    rows = {}
    for name, runs in (("cold", cold), ("warm", warm)):
        rows[name] = {k: statistics.median(r[k] for r in runs) for k in ("import_ms", "first_call_ms")}
    print("Python first call in a new process (median of %d processes each) — target: warm <= 100 ms" % args.runs)
    for name, r in rows.items():
        print(f"  {name:<5} first call {r['first_call_ms']:8.1f} ms   (import agent_contract {r['import_ms']:.1f} ms)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
