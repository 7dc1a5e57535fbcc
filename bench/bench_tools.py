"""Tool input validation performance, Python: validate_tool_input vs jsonschema and fastjsonschema.

Usage: .venv/bin/python bench/bench_tools.py [--json out.json]
Reads bench/out/tool_cases.json, which bench_tools.mjs writes (the same tool, small input and
~1 MB input as the Node bench). jsonschema: Draft202012Validator, built once (schema checked
once). fastjsonschema: compiled once; it knows drafts 4/6/7 only, so it gets the same schema
with `$schema` draft-07 (the schema uses only keywords that mean the same in both drafts).
"""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import version
from typing import Any

import fastjsonschema
import jsonschema
from jsonschema import Draft202012Validator

import agent_contract
from agent_contract import _runtime
from agent_contract._host_text import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, max_chars, write

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_python import measure_group, per, table  # noqa: E402  (same timing as bench_python.py)
# The test build (scripts/build-testing.sh): `echo` and the full-reply twins are not shipped.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py-host", "tests"))
from testing_core import call as testing_call  # noqa: E402

ITEMS = 1000


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "out", "tool_cases.json")) as f:
        cases = json.load(f)
    tool_def = cases["tool"]
    small = cases["small"]
    big = {**small, "edits": cases["big"]["edits"]}
    schema = tool_def["inputSchema"]
    small_text = json.dumps(small, separators=(",", ":"), ensure_ascii=False)
    big_text = json.dumps(big, separators=(",", ":"), ensure_ascii=False)

    tool = agent_contract.define_tool(tool_def)
    js = Draft202012Validator(schema)
    Draft202012Validator.check_schema(schema)
    fjs = fastjsonschema.compile({"$schema": "http://json-schema.org/draft-07/schema#", **schema})

    # Sanity: every contender accepts the cases and rejects the same bad inputs.
    for value, text in ((small, small_text), (big, big_text)):
        assert agent_contract.validate_tool_input(tool, value) == value
        assert agent_contract.validate_tool_input_json(tool, text) == value
        js.validate(value)
        fjs(value)
    for bad in ({**small, "mode": "delete"}, {**small, "path": "a b"}, {**small, "edits": [{"line": 0, "text": ""}]}):
        assert agent_contract.safe_validate_tool_input(tool, bad)["ok"] is False
        assert not js.is_valid(bad)
        try:
            fjs(bad)
            raise AssertionError("fastjsonschema accepted a bad input")
        except fastjsonschema.JsonSchemaValueException:
            pass

    r: dict[str, Any] = {
        "python": sys.version.split()[0],
        "wasmtime": version("wasmtime"),
        "jsonschema": version("jsonschema"),
        "fastjsonschema": version("fastjsonschema"),
        "big_bytes": len(big_text.encode()),
    }
    validate = agent_contract.validate_tool_input
    validate_json = agent_contract.validate_tool_input_json
    call_args = _runtime.call_args
    limit = max_chars(DEFAULT_MAX_BYTES)
    tool_text = write(tool, DEFAULT_MAX_DEPTH, limit)
    small_host = write(small, DEFAULT_MAX_DEPTH, limit)
    reply = call_args("validate-tool-input", (tool_text, small_host, ""))
    pair = tool_text + small_host

    # Single call, small input.
    r.update(
        measure_group(
            {
                "s_ours": lambda: validate(tool, small),
                "s_jsonschema": lambda: js.validate(small),
                "s_jsonschema_is_valid": lambda: js.is_valid(small),
                "s_fastjsonschema": lambda: fjs(small),
                "s_ours_text": lambda: validate_json(tool, small_text),
                "s_jsonschema_text": lambda: js.validate(json.loads(small_text)),
                "s_fastjsonschema_text": lambda: fjs(json.loads(small_text)),
                # Where ours goes: host text of the tool and of the input (pure Python), the raw
                # export call (crossing + core), json.loads of the reply, and the crossing floor
                # (echo of a string as long as both arguments).
                "p_write_tool": lambda: write(tool, DEFAULT_MAX_DEPTH, limit),
                "p_write_input": lambda: write(small, DEFAULT_MAX_DEPTH, limit),
                "p_raw_call": lambda: call_args("validate-tool-input", (tool_text, small_host, "")),
                "p_loads_reply": lambda: json.loads(reply),
                "p_echo_floor": lambda: testing_call("echo", pair),
            }
        )
    )

    # Per-item batch cost: ITEMS distinct small inputs. There is no batch validate export; what
    # exists: validate_tool_input per item, check_tool_call per item (one-tool registry), and,
    # as a workaround that needs no new API, ONE validate_tool_input call on a wrapper tool
    # whose schema is {items: array of the tool's input schema} (issue paths then start with
    # /items/<i>, so it is a measurement of what a batch entry point could cost, not a drop-in).
    items = [
        {**small, "path": f"src/file_{i}.ts", "edits": [{"line": i + 1, "text": f"line {i}"}, {"line": i + 2, "text": "x"}]}
        for i in range(ITEMS)
    ]
    wrapper = agent_contract.define_tool(
        {
            "name": "batch_of_write_file",
            "description": "Wrapper: an array of write_file inputs.",
            "permissions": ["write"],
            "inputSchema": {
                "type": "object",
                "properties": {"items": {"type": "array", "items": schema}},
                "required": ["items"],
            },
        }
    )
    item_texts = [json.dumps(it, separators=(",", ":")) for it in items]
    wrapped = {"items": items}
    wrapped_text = json.dumps(wrapped, separators=(",", ":"))
    registry = agent_contract.create_registry([tool_def])
    policy = {"rules": [{"effect": "allow", "permission": "write"}]}
    actions = [{"type": "tool_call", "callId": f"c{i}", "tool": "write_file", "input": it} for i, it in enumerate(items)]
    check = agent_contract.check_tool_call
    assert validate(wrapper, wrapped) == wrapped
    assert check(registry, actions[0], policy)["input"] == items[0]
    batch = measure_group(
        {
            "b_ours_loop": lambda: [validate(tool, it) for it in items],
            "b_ours_check_loop": lambda: [check(registry, a, policy) for a in actions],
            "b_ours_wrapper": lambda: validate(wrapper, wrapped),
            "b_ours_wrapper_text": lambda: validate_json(wrapper, wrapped_text),
            "b_jsonschema_loop": lambda: [js.validate(it) for it in items],
            "b_fastjsonschema_loop": lambda: [fjs(it) for it in items],
            "b_fastjsonschema_text_loop": lambda: [fjs(json.loads(t)) for t in item_texts],
        }
    )
    r.update({name: per(v, ITEMS) for name, v in batch.items()})

    # ~1 MB input as JSON text.
    r.update(
        measure_group(
            {
                "l_ours_text": lambda: validate_json(tool, big_text),
                "l_jsonschema_text": lambda: js.validate(json.loads(big_text)),
                "l_fastjsonschema_text": lambda: fjs(json.loads(big_text)),
                "l_loads": lambda: json.loads(big_text),
            }
        )
    )

    table(
        f"Tool input (Python) single call, small valid input ({len(small_text)} bytes) — target: ours ≥ 2× faster than jsonschema",
        [
            ("validate_tool_input(tool, value)", r["s_ours"], r["s_jsonschema"], "jsonschema"),
            ("jsonschema Draft202012Validator.validate", r["s_jsonschema"], r["s_jsonschema"], "jsonschema"),
            ("jsonschema Draft202012Validator.is_valid", r["s_jsonschema_is_valid"], r["s_jsonschema"], "jsonschema"),
            ("fastjsonschema compiled", r["s_fastjsonschema"], r["s_jsonschema"], "jsonschema"),
            ("validate_tool_input_json(tool, text)", r["s_ours_text"], r["s_jsonschema_text"], "loads+jsonschema"),
            ("json.loads + jsonschema validate", r["s_jsonschema_text"], r["s_jsonschema_text"], "loads+jsonschema"),
            ("json.loads + fastjsonschema", r["s_fastjsonschema_text"], r["s_jsonschema_text"], "loads+jsonschema"),
        ],
    )
    table(
        "    where ours goes (value input)",
        [
            ("write(tool) host text (Python)", r["p_write_tool"], r["s_ours"], "of ours"),
            ("write(input) host text (Python)", r["p_write_input"], r["s_ours"], "of ours"),
            ("raw export call (crossing + core)", r["p_raw_call"], r["s_ours"], "of ours"),
            ("json.loads(reply)", r["p_loads_reply"], r["s_ours"], "of ours"),
            ("echo of tool+input text (crossing floor)", r["p_echo_floor"], r["s_ours"], "of ours"),
        ],
    )
    table(
        f"Tool input (Python) per-item batch cost, {ITEMS} small inputs — target: ours ≤ fastjsonschema",
        [
            ("validate_tool_input per item", r["b_ours_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("check_tool_call per item (1-tool registry)", r["b_ours_check_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("ONE validate_tool_input, wrapper array schema", r["b_ours_wrapper"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("ONE validate_tool_input_json, wrapper, text", r["b_ours_wrapper_text"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("jsonschema validate per item", r["b_jsonschema_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("fastjsonschema per item", r["b_fastjsonschema_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
            ("json.loads + fastjsonschema per item text", r["b_fastjsonschema_text_loop"], r["b_fastjsonschema_loop"], "fastjsonschema"),
        ],
    )
    table(
        f"Tool input (Python) ~1 MB input as JSON text ({r['big_bytes']} bytes) — no target",
        [
            ("validate_tool_input_json(tool, text)", r["l_ours_text"], r["l_fastjsonschema_text"], "loads+fastjsonschema"),
            ("json.loads + jsonschema validate", r["l_jsonschema_text"], r["l_fastjsonschema_text"], "loads+fastjsonschema"),
            ("json.loads + fastjsonschema", r["l_fastjsonschema_text"], r["l_fastjsonschema_text"], "loads+fastjsonschema"),
            ("json.loads alone", r["l_loads"], r["l_fastjsonschema_text"], "loads+fastjsonschema"),
        ],
    )

    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(r, f, indent=2)


if __name__ == "__main__":
    main()
