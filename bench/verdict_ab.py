"""Verdict replies, old beside new under load: the verdict path, the full-reply path, the echo floor
and pydantic, interleaved batches of a fixed size timed in process CPU time
(time.process_time_ns), so that time spent waiting for a core on a loaded machine does not
count. Medians of 15 rounds. Usage: python verdict_ab.py"""
import json, time, gc, statistics, sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
import agent_contract
from agent_contract import _runtime
from agent_contract._wire import unwrap as _unwrap
# The test build (scripts/build-testing.sh): `echo` and the full-reply twins are not shipped.
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent.parent / "py-host" / "tests"))
from testing_core import call, call_args, full_reply
from bench_python import action_adapter, full_jsonl
action = {"type": "tool_call", "callId": "call_1", "tool": "read_file", "input": {"path": "src/index.ts", "encoding": "utf8"}}
text = json.dumps(action, separators=(",", ":"))
lines = [json.dumps({**action, "callId": f"call_{i}"}, separators=(",", ":")) for i in range(1000)]
jsonl = "\n".join(lines)
def group(fns, sizes, rounds=15):
    per = {k: [] for k in fns}
    gc.disable()
    for k, f in fns.items():
        for _ in range(max(1, sizes[k] // 10)): f()
    for _ in range(rounds):
        for k, f in fns.items():
            n = sizes[k]; t = time.process_time_ns()
            for _ in range(n): f()
            per[k].append((time.process_time_ns() - t) / n)
    gc.enable()
    return {k: statistics.median(v) for k, v in per.items()}
r = group({
  "ours": lambda: agent_contract.parse_agent_action_json(text),
  "full": lambda: _unwrap(full_reply("parse-agent-action-json", text, None)),
  "echo": lambda: call("echo", text),
  "pydantic": lambda: action_adapter.validate_json(text),
}, {"ours": 2000, "full": 2000, "echo": 2000, "pydantic": 20000})
for k, v in r.items(): print(f"{k:10} {v/1000:7.2f} µs  {v/r['echo']:.2f}× echo")
b = group({
  "jsonl": lambda: agent_contract.parse_agent_actions_jsonl(jsonl),
  "jsonl_full": lambda: full_jsonl(jsonl),
  "pyd_loop": lambda: [action_adapter.validate_json(l) for l in lines],
}, {"jsonl": 20, "jsonl_full": 20, "pyd_loop": 20})
for k, v in b.items(): print(f"{k:10} {v/1e6:7.2f} µs/action  {v/b['pyd_loop']:.2f}× pydantic")
lines_acc = list(range(1000))
c = group({
  "raw_verdict": lambda: _runtime.call_args("parse-agent-actions-jsonl", (0, jsonl, "")),
  "raw_full": lambda: call_args("parse-agent-actions-jsonl-full", (0, jsonl, "")),
  "loads_array": lambda: json.loads("[" + ",".join(jsonl.split("\n")) + "]"),
  "echo": lambda: call("echo", jsonl),
  "pyd_loop": lambda: [action_adapter.validate_json(l) for l in lines],
}, {k: 20 for k in ["raw_verdict", "raw_full", "loads_array", "echo", "pyd_loop"]})
for k, v in c.items(): print(f"{k:12} {v/1e6:7.2f} µs/action  {v/c['pyd_loop']:.2f}× pydantic")
