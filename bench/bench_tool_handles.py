"""Compiled tool handles, Python: validate_tool_input through a compiled tool vs the plain path (the tool
sent and read again, what every call did before), against python-jsonschema and fastjsonschema
in the same run (interleaved batches, ratio of medians); the batch form per input; memory over
10^6 calls.

Usage: .venv/bin/python bench/bench_tool_handles.py [--json out.json] [--calls N]
The tool and the small input are bench/tool_schema.mjs's (written to bench/out/tool_cases.json
by bench_tools.mjs, or here through node when absent). python-jsonschema is used as a user
would: one Draft202012Validator built once, `validate` (raises on the first error) and
`iter_errors` (every error, collected); fastjsonschema compiled once with the same schema as
draft-07 (its keywords mean the same there).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

import agent_contract
from agent_contract import _runtime
from agent_contract._host_text import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, max_chars, write

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_python import measure_group, per, table  # noqa: E402
# The test build (scripts/build-testing.sh): `echo` and the full-reply twins are not shipped.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py-host", "tests"))
from testing_core import call as testing_call  # noqa: E402

ITEMS = 1000


def cases() -> dict[str, Any]:
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "out", "tool_cases.json")
    if not os.path.exists(path):
        script = "import('./tool_schema.mjs').then((m) => process.stdout.write(JSON.stringify({tool: m.toolDef, small: m.small})))"
        out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=here, check=True, capture_output=True, text=True)
        return dict(json.loads(out.stdout))
    with open(path) as f:
        return dict(json.load(f))


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    argv = sys.argv[1:]
    calls = int(argv[argv.index("--calls") + 1]) if "--calls" in argv else 1_000_000
    c = cases()
    tool_def, small = c["tool"], c["small"]
    schema = tool_def["inputSchema"]
    tool = agent_contract.define_tool(tool_def)
    plain = json.loads(json.dumps(tool))  # the same definition as plain data: the old path
    js = Draft202012Validator(schema)
    fjs = fastjsonschema.compile({"$schema": "http://json-schema.org/draft-07/schema#", **schema})
    validate = agent_contract.validate_tool_input
    many = agent_contract.validate_tool_inputs
    assert validate(tool, small) == small == validate(plain, small)
    js.validate(small)
    fjs(small)

    limit = max_chars(DEFAULT_MAX_BYTES)
    small_host = write(small, DEFAULT_MAX_DEPTH, limit)
    instance = tool._instance
    res = tool._resource
    call = instance.resource_call
    items = [
        {**small, "path": f"src/file_{i}.ts", "edits": [{"line": i + 1, "text": f"line {i}"}, {"line": i + 2, "text": "x"}]}
        for i in range(ITEMS)
    ]
    assert all(o["ok"] for o in many(tool, items))

    r: dict[str, Any] = {"load": os.getloadavg()}
    r.update(
        measure_group(
            {
                "s_new": lambda: validate(tool, small),
                "s_old": lambda: validate(plain, small),
                "s_jsonschema": lambda: js.validate(small),
                "s_jsonschema_iter": lambda: list(js.iter_errors(small)),
                "s_fastjsonschema": lambda: fjs(small),
                "p_write_input": lambda: write(small, DEFAULT_MAX_DEPTH, limit),
                "p_raw_call": lambda: call("compiled-tool", "validate", res, small_host, ""),
                "p_echo_floor": lambda: testing_call("echo", small_host),
            }
        )
    )
    batch = measure_group(
        {
            "b_new": lambda: many(tool, items),
            "b_old_loop": lambda: [validate(plain, it) for it in items],
            "b_new_loop": lambda: [validate(tool, it) for it in items],
            "b_jsonschema_loop": lambda: [js.validate(it) for it in items],
            "b_fastjsonschema_loop": lambda: [fjs(it) for it in items],
        }
    )
    r.update({name: per(v, ITEMS) for name, v in batch.items()})

    # Memory over `calls` validations through the handle: the instance's memory and the
    # process's resident set, after a warm-up of 10% of the calls.
    for _ in range(calls // 10):
        validate(tool, small)
    gc.collect()
    mem0, rss0, t0 = instance.memory_bytes(), rss_kib(), time.perf_counter()
    for _ in range(calls):
        validate(tool, small)
    gc.collect()
    r["mem_calls"] = calls
    r["mem_instance_growth"] = instance.memory_bytes() - mem0
    r["mem_rss_growth_kib"] = rss_kib() - rss0
    r["mem_seconds"] = time.perf_counter() - t0

    table(
        f"Compiled tool (Python) single call, small valid input — target: ours ≥ 2× faster than python-jsonschema (load {r['load'][0]:.2f})",
        [
            ("validate_tool_input(tool) through the handle", r["s_new"], r["s_jsonschema"], "jsonschema"),
            ("validate_tool_input(plain dict) (old path)", r["s_old"], r["s_jsonschema"], "jsonschema"),
            ("jsonschema validator.validate", r["s_jsonschema"], r["s_jsonschema"], "jsonschema"),
            ("jsonschema list(validator.iter_errors)", r["s_jsonschema_iter"], r["s_jsonschema"], "jsonschema"),
            ("fastjsonschema compiled", r["s_fastjsonschema"], r["s_jsonschema"], "jsonschema"),
        ],
    )
    table(
        "    where the handle path goes",
        [
            ("write(input) host text (Python)", r["p_write_input"], r["s_new"], "of ours"),
            ("raw resource call (crossing + core)", r["p_raw_call"], r["s_new"], "of ours"),
            ("echo of the input text (crossing floor)", r["p_echo_floor"], r["s_new"], "of ours"),
        ],
    )
    table(
        f"Compiled tool (Python) per input, {ITEMS} small inputs — target: batch ≤ 2× fastjsonschema",
        [
            ("validate_tool_inputs(tool, items) (one crossing)", r["b_new"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("validate_tool_input(tool) per item", r["b_new_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("validate_tool_input(plain) per item (old)", r["b_old_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("jsonschema validate per item", r["b_jsonschema_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("fastjsonschema per item", r["b_fastjsonschema_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
        ],
    )
    print(
        f"\nmemory over {calls} validate_tool_input calls through the handle: instance "
        f"{r['mem_instance_growth']:+d} bytes, RSS {r['mem_rss_growth_kib']:+d} KiB ({r['mem_seconds']:.1f} s)"
    )
    if "--json" in argv:
        with open(argv[argv.index("--json") + 1], "w") as f:
            json.dump(r, f, indent=2)


if __name__ == "__main__":
    main()
