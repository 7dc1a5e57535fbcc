"""The boundary's Python rows, each beside the peer a user would pick instead, in one run.

Per call, on a small `read_file` tool and one `tool_call` action (the texts the JS benches use):
validate_tool_input_json / validate_tool_input(dict) against python-jsonschema with a cached
validator, fastjsonschema and jsonschema-rs (each given the same work: the text parsed with
json.loads first where ours takes text); parse_agent_action_json / parse_agent_action(dict)
against pydantic's TypeAdapter; validate_tool_inputs per item against jsonschema-rs in a loop;
JSON Lines per line against pydantic per line. Medians of interleaved batches (bench_python's
harness), with the targets beside them.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import fastjsonschema
import jsonschema
import jsonschema_rs

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_contract  # noqa: E402
from bench_python import action_adapter, fmt, measure_group, per  # noqa: E402

SCHEMA = {
    "type": "object",
    "properties": {"path": {"type": "string", "minLength": 1}, "encoding": {"enum": ["utf8", "base64"]}},
    "required": ["path"],
    "additionalProperties": False,
}
TOOL = agent_contract.define_tool(
    {"name": "read_file", "description": "Read a file.", "permission": "read", "inputSchema": SCHEMA}
)
INPUT = {"path": "src/index.ts", "encoding": "utf8"}
INPUT_TEXT = json.dumps(INPUT, separators=(",", ":"))
ACTION = {"type": "tool_call", "callId": "call_1", "tool": "read_file", "input": INPUT}
ACTION_TEXT = json.dumps(ACTION, separators=(",", ":"))

# The targets of the boundary's rebuild, as (ours, peer, bound on ours in µs or on the ratio).
TARGETS = {
    "validate_tool_input_json": "≤ 10 µs and ≥ 2× faster than jsonschema (cached)",
    "validate_tool_input(dict)": "≤ 12 µs",
    "parse_agent_action_json": "≤ 8 µs",
    "parse_agent_action(dict)": "≤ 12 µs",
    "validate_tool_inputs per item": "≤ 2 µs",
    "JSONL per line vs pydantic": "≤ 1.0×",
}


def main() -> None:
    cached = jsonschema.Draft202012Validator(SCHEMA)
    fast = fastjsonschema.compile(SCHEMA)
    rs = jsonschema_rs.validator_for(SCHEMA)
    # Every contender accepts the case and gives the same value.
    assert agent_contract.validate_tool_input_json(TOOL, INPUT_TEXT) == INPUT
    assert agent_contract.validate_tool_input(TOOL, INPUT) == INPUT
    assert agent_contract.parse_agent_action_json(ACTION_TEXT) == ACTION
    assert fast(json.loads(INPUT_TEXT)) == INPUT and rs.is_valid(INPUT) and cached.is_valid(INPUT)

    def jsonschema_text() -> Any:
        value = json.loads(INPUT_TEXT)
        cached.validate(value)
        return value

    def rs_text() -> Any:
        value = json.loads(INPUT_TEXT)
        rs.validate(value)
        return value

    r = measure_group(
        {
            "ours_json": lambda: agent_contract.validate_tool_input_json(TOOL, INPUT_TEXT),
            "jsonschema_json": jsonschema_text,
            "fast_json": lambda: fast(json.loads(INPUT_TEXT)),
            "rs_json": rs_text,
            "ours_dict": lambda: agent_contract.validate_tool_input(TOOL, INPUT),
            "jsonschema_dict": lambda: cached.validate(INPUT),
            "fast_dict": lambda: fast(INPUT),
            "rs_dict": lambda: rs.validate(INPUT),
            "ours_action_json": lambda: agent_contract.parse_agent_action_json(ACTION_TEXT),
            "pyd_action_json": lambda: action_adapter.validate_json(ACTION_TEXT),
            "ours_action_dict": lambda: agent_contract.parse_agent_action(ACTION),
            "pyd_action_dict": lambda: action_adapter.validate_python(ACTION),
        }
    )
    k = 1000
    inputs = [{"path": f"src/{i}.ts"} for i in range(k)]
    lines = [json.dumps({**ACTION, "callId": f"call_{i}"}, separators=(",", ":")) for i in range(k)]
    jsonl = "\n".join(lines)
    batch = measure_group(
        {
            "ours_many": lambda: agent_contract.validate_tool_inputs(TOOL, inputs),
            "rs_many": lambda: [rs.validate(v) for v in inputs],
            "ours_jsonl": lambda: agent_contract.parse_agent_actions_jsonl(jsonl),
            "pyd_jsonl": lambda: [action_adapter.validate_json(line) for line in lines],
        }
    )
    r.update({name: per(row, k) for name, row in batch.items()})

    def row(name: str, ours: str, peers: list[tuple[str, str]]) -> None:
        cells = "  ".join(f"{label} {fmt(r[p]['ns'])} ({r[ours]['ns'] / r[p]['ns']:.2f}×)" for label, p in peers)
        print(f"  {name:<31} {fmt(r[ours]['ns']):>9}   {cells}   target {TARGETS[name]}")

    print("Python boundary, per call (ours, then each peer with ours / peer):")
    row("validate_tool_input_json", "ours_json", [("jsonschema", "jsonschema_json"), ("fastjsonschema", "fast_json"), ("jsonschema-rs", "rs_json")])
    row("validate_tool_input(dict)", "ours_dict", [("jsonschema", "jsonschema_dict"), ("fastjsonschema", "fast_dict"), ("jsonschema-rs", "rs_dict")])
    row("parse_agent_action_json", "ours_action_json", [("pydantic", "pyd_action_json")])
    row("parse_agent_action(dict)", "ours_action_dict", [("pydantic", "pyd_action_dict")])
    row("validate_tool_inputs per item", "ours_many", [("jsonschema-rs loop", "rs_many")])
    row("JSONL per line vs pydantic", "ours_jsonl", [("pydantic per line", "pyd_jsonl")])
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(r, f, indent=2)


if __name__ == "__main__":
    main()
