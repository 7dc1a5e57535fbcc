#!/usr/bin/env python3
"""The native `check sessions` on a generated corpus, beside the parse-only floors.

    python3 bench/bench_corpus.py [--bin target/release/agent-contract] [--sessions 600]
        [--memory 0.5,2] [--dir /tmp/agent-contract-corpus] [--runs 3] [--json OUT]

Generates (once, kept in --dir) a plain corpus of --sessions session files of ~217 KB
(bench/corpus/generate.py, seed 4, a quarter in the pi dialect), then times, best of --runs:
  - `agent-contract check sessions --jobs 1` and `--jobs 2`, seed files and pi files apart
    (wall time; user + system CPU time; max RSS from /usr/bin/time -v's fields)
  - `agent-contract check rows --jobs 1` and `--jobs 2` on 3,000 generated chat rows
  - `split` + `JSON.parse` per line in Node (bench/corpus/parse_lines.mjs), and `json.loads` per
    line in Python, over the same files: no check at all, the floor a checker written in those
    languages starts from.
MB/s is decompressed bytes per second (1 MB = 10^6 bytes). "per CPU s" divides by the process's
CPU time instead of wall time: on this shared machine wall time also counts the time other
builds held the cores. --memory generates corpora of those sizes in GB (deleted afterwards) and
gives `--jobs 2`'s max RSS on each: it must not grow with the corpus.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def timed(cmd, cwd=None):
    """(wall s, cpu s, max RSS KB) of one run; stdout discarded."""
    t = subprocess.run(
        ["/usr/bin/time", "-f", "%e %U %S %M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if t.returncode not in (0, 1):
        sys.exit("%s failed (%d): %s" % (cmd, t.returncode, t.stderr))
    wall, user, sys_, rss = t.stderr.strip().splitlines()[-1].split()[-4:]
    return float(wall), float(user) + float(sys_), int(rss)


def generate(out, sessions, extra=()):
    if os.path.exists(os.path.join(out, "manifest.json")):
        return
    subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "corpus", "generate.py"), "--out", out, "--sessions", str(sessions), "--rows", "0", *extra],
        check=True,
    )


def corpus_bytes(out, prefix):
    m = json.load(open(os.path.join(out, "manifest.json")))
    files = [f for f in m["files"] if f["path"].startswith(prefix)]
    return len(files), sum(f["bytes"] for f in files)


def python_floor(paths):
    t0, c0 = time.perf_counter(), time.process_time()
    for p in paths:
        with open(p, "rb") as f:
            for line in f:
                try:
                    json.loads(line)
                except ValueError:
                    pass
    return time.perf_counter() - t0, time.process_time() - c0


def best(runs):
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agent-contract"))
    p.add_argument("--sessions", type=int, default=600)
    p.add_argument("--dir", default="/tmp/agent-contract-corpus")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--memory", default="", help="corpus sizes in GB for the memory rows, e.g. 0.5,2")
    p.add_argument("--json")
    a = p.parse_args()
    if not os.path.exists(a.bin):
        sys.exit("%s: build it first: cargo build --release -p agent-contract-cli" % a.bin)

    out = os.path.join(a.dir, "speed-%d" % a.sessions)
    generate(out, a.sessions)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print("machine: %d CPU, load %s" % (os.cpu_count(), load))
    rows = []
    for sub, dialect in (("sessions/seed", "seed"), ("sessions/pi", "pi")):
        n, size = corpus_bytes(out, sub)
        paths = sorted(glob.glob(os.path.join(out, sub, "*.jsonl")))
        for jobs in (1, 2):
            cmd = [a.bin, "check", "sessions", "--dialect", dialect, "--jobs", str(jobs), sub]
            wall, cpu, rss = best([timed(cmd, cwd=out) for _ in range(a.runs)])
            rows.append((dialect, "native CLI --jobs %d" % jobs, n, size, wall, cpu, rss))
        node = [json.loads(subprocess.run(["node", os.path.join(ROOT, "bench", "corpus", "parse_lines.mjs"), *paths], capture_output=True, text=True, check=True).stdout) for _ in range(a.runs)]
        rows.append((dialect, "Node split + JSON.parse", n, size, min(r["wall_s"] for r in node), min(r["cpu_s"] for r in node), 0))
        py = [python_floor(paths) for _ in range(a.runs)]
        rows.append((dialect, "Python json.loads per line", n, size, min(r[0] for r in py), min(r[1] for r in py), 0))

    # Chat dataset rows: 3 files of 1,000 rows (~24 KB a row), `check rows`.
    rows_dir = os.path.join(a.dir, "rows-3000")
    if not os.path.exists(os.path.join(rows_dir, "manifest.json")):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "corpus", "generate.py"), "--out", rows_dir, "--sessions", "0", "--rows", "3000"], check=True)
    n, size = corpus_bytes(rows_dir, "rows")
    for jobs in (1, 2):
        wall, cpu, rss = best([timed([a.bin, "check", "rows", "--jobs", str(jobs), "rows"], cwd=rows_dir) for _ in range(a.runs)])
        rows.append(("rows", "native CLI check rows --jobs %d" % jobs, n, size, wall, cpu, rss))

    print("\n| files | what | MB | files/s | MB/s (wall) | MB/s per CPU s | max RSS |")
    print("|---|---|---|---|---|---|---|")
    for dialect, what, n, size, wall, cpu, rss in rows:
        print("| %s, %d files | %s | %.0f | %.0f | %.0f | %.0f | %s |" % (
            dialect, n, what, size / 1e6, n / wall, size / 1e6 / wall, size / 1e6 / cpu, "%.1f MB" % (rss / 1024) if rss else ""))

    memory = []
    for gb in [float(x) for x in a.memory.split(",") if x]:
        # ~217 KB a session on average: the session count that makes the size.
        big = os.path.join(a.dir, "memory-%g" % gb)
        generate(big, int(gb * 1e9 / 217e3 / 1.02), ["--pi-share", "0"])
        n, size = corpus_bytes(big, "sessions/seed")
        wall, cpu, rss = timed([a.bin, "check", "sessions", "--jobs", "2", "sessions/seed"], cwd=big)
        memory.append((gb, n, size, wall, cpu, rss))
        shutil.rmtree(big)
    if memory:
        print("\n| corpus | files | max RSS (--jobs 2) | MB/s (wall) | MB/s per CPU s |")
        print("|---|---|---|---|---|")
        for gb, n, size, wall, cpu, rss in memory:
            print("| %.2f GB | %d | %.1f MB | %.0f | %.0f |" % (size / 1e9, n, rss / 1024, size / 1e6 / wall, size / 1e6 / cpu))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"load": load, "rows": rows, "memory": memory}, f, indent=1)


if __name__ == "__main__":
    main()
