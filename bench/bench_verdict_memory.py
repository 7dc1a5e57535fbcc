"""Memory per call of the verdict-reply functions in Python. Each function is called
10^6 times (BENCH_CALLS to change) on a valid input; the process's resident memory (after a full
collection) and the wasm instance's memory are read after a warm-up and at the end: no growth is
the target. Usage: python bench_verdict_memory.py"""

from __future__ import annotations

import gc
import json
import os
import time
from typing import Any, Callable

import agent_contract
from agent_contract import _runtime

CALLS = int(float(os.environ.get("BENCH_CALLS", "1e6")))


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(name: str, call: Callable[[], Any], calls: int) -> dict[str, Any]:
    for _ in range(10_000):
        call()
    gc.collect()
    rss0, wasm0 = rss(), _runtime._instance().memory_bytes()
    t = time.perf_counter_ns()
    for _ in range(calls):
        call()
    ns = (time.perf_counter_ns() - t) / calls
    gc.collect()
    rss1, wasm1 = rss(), _runtime._instance().memory_bytes()
    return {"name": name, "calls": calls, "ns": ns, "rss_growth": rss1 - rss0, "wasm_growth": wasm1 - wasm0}


def main() -> None:
    action = {"type": "tool_call", "callId": "call_1", "tool": "read_file", "input": {"path": "src/index.ts", "encoding": "utf8"}}
    text = json.dumps(action, separators=(",", ":"))
    decision = json.dumps({"kind": "tool", "calls": [{"callId": "c1", "name": "read_file", "arguments": {"path": "a"}}]})
    jsonl = f"{text}\n{text}\n"
    rows = [
        measure("parse_agent_action_json", lambda: agent_contract.parse_agent_action_json(text), CALLS),
        measure("parse_decision_json", lambda: agent_contract.parse_decision_json(decision), CALLS // 4),
        measure("parse_agent_actions_jsonl (2 lines)", lambda: agent_contract.parse_agent_actions_jsonl(jsonl), CALLS // 4),
    ]
    print("\nMemory per call of the verdict-reply functions, Python — target: no growth")
    for r in rows:
        ok = r["wasm_growth"] == 0 and r["rss_growth"] < 1 << 20
        print(
            f"  {r['name']:<36} {r['calls']:>8} calls  {r['ns'] / 1000:6.2f} µs/call  "
            f"RSS {r['rss_growth'] / 1024:7.0f} KiB  wasm {r['wasm_growth'] / 1024:5.0f} KiB  {'no growth' if ok else 'GROWTH'}"
        )


if __name__ == "__main__":
    main()
