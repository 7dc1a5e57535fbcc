"""Session check performance (Python): check_session on the 2.4 MB recorded session (dialect "pi")
vs splitting the lines and json.loads of each (one crossing for the whole text; target ≤ 1.5×);
the file repeated to 24 MB (linear: ≤ 11×); 100 MB through SessionChecker in 1 MB chunks (the
instance's memory stays under 64 MB). Medians of interleaved rounds."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import agent_contract as ac

FILE = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "pi-mono-sessions" / "before-compaction.jsonl"
PI: ac.SessionOptions = {"dialect": "pi", "maxIssues": 1}


def medians(fns: dict[str, object], rounds: int = 9) -> dict[str, float]:
    times: dict[str, list[float]] = {k: [] for k in fns}
    for f in fns.values():
        f()  # type: ignore[operator]
    for _ in range(rounds):
        for k, f in fns.items():
            t0 = time.perf_counter()
            f()  # type: ignore[operator]
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


def main() -> None:
    if not FILE.is_file():
        print(f"sessions: SKIPPED: {FILE} is absent")
        return
    data = FILE.read_bytes()
    text = data.decode("utf-8")
    r = medians({
        "check": lambda: ac.check_session(text, PI),
        "check_bytes": lambda: ac.check_session(data, PI),
        "loads": lambda: [json.loads(line) for line in text.split("\n") if line],
    })
    print(f"check_session 2.4 MB: {r['check']:.1f} ms (bytes {r['check_bytes']:.1f} ms); split + json.loads "
          f"{r['loads']:.1f} ms; ratio {r['check'] / r['loads']:.2f} (bytes {r['check_bytes'] / r['loads']:.2f}; target ≤ 1.5)")
    big = text * 10
    s = medians({"small": lambda: ac.check_session(text, PI), "big": lambda: ac.check_session(big, PI)}, 3)
    print(f"check_session 24 MB / 2.4 MB: {s['big'] / s['small']:.2f}x (target ≤ 11)")
    fed, peak = 0, 0
    t0 = time.perf_counter()
    with ac.SessionChecker(PI) as checker:
        instance = checker._resource._instance
        while fed < 100_000_000:
            for at in range(0, len(data), 1 << 20):
                checker.push(data[at:at + (1 << 20)])
            fed += len(data)
            peak = max(peak, instance.memory_bytes())
        checker.finish()
    print(f"SessionChecker, {fed / 1e6:.0f} MB in 1 MB chunks: {time.perf_counter() - t0:.1f} s, "
          f"instance memory {peak / 2**20:.1f} MB (target < 64 MB)")


if __name__ == "__main__":
    main()
