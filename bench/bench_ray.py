#!/usr/bin/env python3
"""Ray Data over the core (agent_contract.ray) on a generated corpus, and the Python batch
entries per core beside the parse-only floors.

    python bench/bench_ray.py [--sessions 120] [--rows 3000] [--dir /tmp/agent-contract-ray-corpus]
        [--runs 2] [--json OUT]

Generates (once, kept in --dir) --sessions seed-dialect session files of ~217 KB and --rows chat
rows (bench/corpus/generate.py, seed 4, 10% faults, plain files), then measures, best of --runs:
  - the Ray pipeline (read_corpus -> map_batches(CheckSessions) -> materialize) on a local Ray
    of 1 CPU and of 2 CPUs (an actor pool of 1 and 2): wall MB/s and sessions/s, Ray started
    before the clock
  - in this process, one core: check_sessions over the files' texts, and json.loads of each of
    their lines (no check, the floor); check_chat_rows over the rows' texts (a list, one
    crossing) and check_chat_rows_jsonl per file, beside json.loads per line and jsonschema-rs
    validating the tool-call arguments alone (each tool's `parameters` compiled once, each
    call's `arguments` string parsed and validated): MB/s per CPU s (process time)
MB = 10^6 decompressed bytes.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def generate(out, sessions, rows):
    if os.path.exists(os.path.join(out, "manifest.json")):
        return
    subprocess.run(
        [
            sys.executable, os.path.join(ROOT, "bench", "corpus", "generate.py"), "--out", out,
            "--sessions", str(sessions), "--pi-share", "0", "--rows", str(rows), "--rows-per-file", "1000",
        ],
        check=True,
    )


def cpu_timed(fn, runs):
    """(best process CPU s, best wall s) of fn() over runs."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall)


def ray_rate(folder, cpus, runs):
    """(best wall s, bytes, files) of the pipeline on a local Ray of `cpus` CPUs."""
    import ray
    import ray.data

    from agent_contract.ray import CheckSessions, read_corpus

    ray.init(address="local", num_cpus=cpus, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        best = None
        for run in range(runs + 1):  # the first run also starts the workers: not counted
            t0 = time.perf_counter()
            ds = read_corpus(folder).map_batches(
                CheckSessions,
                fn_constructor_kwargs={"dialect": "seed"},
                batch_format="pyarrow",
                batch_size=8,
                compute=ray.data.ActorPoolStrategy(size=cpus),
            )
            ds = ds.materialize()
            wall = time.perf_counter() - t0
            n_bytes = ds.sum("bytes")
            files = len(set(ds.unique("path")))
            if run > 0:
                best = wall if best is None else min(best, wall)
        return best, n_bytes, files
    finally:
        ray.shutdown()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sessions", type=int, default=120)
    p.add_argument("--rows", type=int, default=3000)
    p.add_argument("--dir", default="/tmp/agent-contract-ray-corpus")
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--json")
    a = p.parse_args()
    generate(a.dir, a.sessions, a.rows)

    import agent_contract

    session_files = sorted(glob.glob(os.path.join(a.dir, "sessions", "seed", "*.jsonl")))
    texts = [open(f, "rb").read() for f in session_files]
    s_bytes = sum(map(len, texts))
    row_files = sorted(glob.glob(os.path.join(a.dir, "rows", "*.jsonl")))
    row_texts = [open(f, "rb").read() for f in row_files]
    r_bytes = sum(map(len, row_texts))
    rows = [line for t in row_texts for line in t.decode("utf-8", "replace").splitlines()]
    out = {"sessionBytes": s_bytes, "sessions": len(texts), "rowBytes": r_bytes, "rows": len(rows)}
    mb = 1e6

    def line(name, cpu, n_bytes, wall=None, items=None):
        out[name] = {"mbPerCpuS": n_bytes / mb / cpu}
        extra = ""
        if wall:
            out[name]["mbPerS"] = n_bytes / mb / wall
            out[name]["perS"] = items / wall
            extra = ", %.1f MB/s wall, %.0f/s" % (n_bytes / mb / wall, items / wall)
        print("%-44s %7.1f MB/s per CPU s%s" % (name, n_bytes / mb / cpu, extra))

    opts = {"dialect": "seed", "maxIssues": 10_000}
    agent_contract.check_sessions([texts[0]], opts)  # the core compiled and instantiated
    cpu, wall = cpu_timed(lambda: agent_contract.check_sessions(texts, opts), a.runs)
    line("python check_sessions", cpu, s_bytes, wall, len(texts))

    def loads_lines(ts):
        for t in ts:
            for ln in t.splitlines():
                if ln:
                    try:
                        json.loads(ln)
                    except ValueError:
                        pass

    cpu, _ = cpu_timed(lambda: loads_lines(texts), a.runs)
    line("python json.loads per line (sessions)", cpu, s_bytes)

    agent_contract.check_chat_rows(rows[:2])
    cpu, _ = cpu_timed(lambda: agent_contract.check_chat_rows(rows, {"maxIssues": 10_000}), a.runs)
    line("python check_chat_rows (list of row texts)", cpu, r_bytes)
    cpu, _ = cpu_timed(lambda: [agent_contract.check_chat_rows_jsonl(t, {"maxIssues": 10_000}) for t in row_texts], a.runs)
    line("python check_chat_rows_jsonl per file", cpu, r_bytes)
    cpu, _ = cpu_timed(lambda: loads_lines(row_texts), a.runs)
    line("python json.loads per line (rows)", cpu, r_bytes)

    import jsonschema_rs

    def jsonschema_args():
        # The arguments alone: rows parsed by json.loads, each tool's parameters compiled once
        # per distinct schema, each call's arguments parsed and validated. No other row rule.
        compiled = {}
        for ln in rows:
            try:
                row = json.loads(ln)
            except ValueError:
                continue
            tools = {}
            for t in row.get("tools") or []:
                fn = t.get("function") or {}
                key = json.dumps(fn.get("parameters"), sort_keys=True)
                if key not in compiled:
                    compiled[key] = jsonschema_rs.validator_for(fn.get("parameters") or {})
                tools[fn.get("name")] = compiled[key]
            for m in row.get("messages") or []:
                for c in m.get("tool_calls") or []:
                    f = c.get("function") or {}
                    v = tools.get(f.get("name"))
                    if v is not None:
                        try:
                            v.is_valid(json.loads(f.get("arguments") or "null"))
                        except ValueError:
                            pass

    cpu, _ = cpu_timed(jsonschema_args, a.runs)
    line("python json.loads + jsonschema-rs args only", cpu, r_bytes)

    folder = os.path.join(a.dir, "sessions", "seed")
    walls = {}
    for cpus in (1, 2):
        wall, n_bytes, files = ray_rate(folder, cpus, a.runs)
        walls[cpus] = wall
        name = "ray data, %d CPU" % cpus
        out[name] = {"mbPerS": n_bytes / mb / wall, "perS": files / wall}
        print("%-44s %7.1f MB/s wall, %.0f sessions/s" % (name, n_bytes / mb / wall, files / wall))
    out["raySpeedup"] = walls[1] / walls[2]
    print("ray 2 CPUs / 1 CPU: %.2fx" % out["raySpeedup"])
    try:
        out["loadavg"] = os.getloadavg()
        print("load average: %.1f %.1f %.1f" % out["loadavg"])
    except OSError:
        pass
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
