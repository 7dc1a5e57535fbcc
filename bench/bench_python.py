"""Python benchmarks: (c) parse_agent_action_json vs the wasmtime floor vs pydantic, and the batch.

Usage: .venv/bin/python bench/bench_python.py [--json out.json]

The floor is the `echo` export (returns its argument) of the test build (scripts/build-testing.sh;
the shipped component has no `echo`) called with the same string through the package's own call
path (`_runtime.call_args` in py-host/tests/testing_core.py), so it is exactly one crossing with a
string in and a string out, and nothing else.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from typing import Annotated, Any, Callable, Literal, Optional, Union

import pydantic
from pydantic import BaseModel, Field, StringConstraints, TypeAdapter

import agent_contract
from agent_contract._wire import error as _error, unwrap as _unwrap

# The test build: `echo` and the full-reply twins (the path before verdict replies) are not shipped.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py-host", "tests"))
from testing_core import call as testing_call, full_reply  # noqa: E402

BATCHES = int(os.environ.get("BENCH_BATCHES", "15"))
BATCH_MS = float(os.environ.get("BENCH_BATCH_MS", "40"))

# --- the equivalent pydantic model ---------------------------------------------------------
# Non-blank string (pydantic-core's regex: `\S` is any non-White_Space character), input
# required but any value, optional schemaVersion equal to 1, unknown fields ignored (dropped).
Text = Annotated[str, StringConstraints(pattern=r"\S")]


class _Base(BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", strict=True)
    schemaVersion: Optional[Literal[1]] = None


class Message(_Base):
    type: Literal["message"]
    content: Text


class ToolCall(_Base):
    type: Literal["tool_call"]
    callId: Text
    tool: Text
    input: Any


class Finish(_Base):
    type: Literal["finish"]
    summary: Text


class RequestApproval(_Base):
    type: Literal["request_approval"]
    requestId: Text
    capability: Text
    resource: Text
    reason: Text


Action = Annotated[Union[Message, ToolCall, Finish, RequestApproval], Field(discriminator="type")]
action_adapter: TypeAdapter[Any] = TypeAdapter(Action)
list_adapter: TypeAdapter[Any] = TypeAdapter(list[Action])


# --- timing --------------------------------------------------------------------------------
def measure_group(fns: dict[str, Callable[[], Any]]) -> dict[str, dict[str, float]]:
    """Median ns/op per contender. Each gets a batch size of about BATCH_MS; then the batches
    are interleaved (round r times every contender once), so that a burst of load from other
    processes on this shared machine hits all of them alike. The GC is off while timing."""
    sizes = {}
    for name, fn in fns.items():
        n = 1
        while True:
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn()
            t = time.perf_counter_ns() - t0
            if t >= BATCH_MS * 1e6 / 4 or n >= 1 << 24:
                sizes[name] = max(1, int(n * BATCH_MS * 1e6 / max(t, 1)))
                break
            n *= 2
    return interleaved(fns, sizes, BATCHES)


def interleaved(fns: dict[str, Callable[[], Any]], sizes: dict[str, int], rounds: int) -> dict[str, dict[str, float]]:
    """`rounds` rounds, each running every contender once for its batch of `sizes[name]`
    calls; the median ns per call, with the quartiles. GC off while timing, collected between
    rounds."""
    per_op: dict[str, list[float]] = {name: [] for name in fns}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for name, fn in fns.items():
                n = sizes[name]
                t0 = time.perf_counter_ns()
                for _ in range(n):
                    fn()
                per_op[name].append((time.perf_counter_ns() - t0) / n)
            gc.collect()
    finally:
        if gc_was:
            gc.enable()
    out = {}
    for name, xs in per_op.items():
        s = sorted(xs)
        m = len(s) // 2
        median = s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2
        out[name] = {"ns": median, "lo": s[len(s) // 4], "hi": s[-(-3 * len(s) // 4) - 1], "n": sizes[name]}
    return out


def fmt(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:.1f} µs"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.0f} ns"


def table(title: str, rows: list[tuple[str, dict[str, float], Optional[dict[str, float]], str]]) -> None:
    print(f"\n{title}")
    width = max(len(r[0]) for r in rows)
    for label, r, base, base_name in rows:
        spread = (r["hi"] - r["lo"]) / r["ns"] * 50 if r["ns"] else 0
        ratio = f"{r['ns'] / base['ns']:.2f}× {base_name}" if base else ""
        print(f"  {label.ljust(width)}  {fmt(r['ns']).rjust(10)}/op  (IQR ±{spread:2.0f}%)  {ratio}")


def per(r: dict[str, float], k: int) -> dict[str, float]:
    return {**r, "ns": r["ns"] / k, "lo": r["lo"] / k, "hi": r["hi"] / k}


def full_jsonl(text: str) -> Any:
    """parse_agent_actions_jsonl as it was before verdict replies (the core writes every action)."""
    items = _unwrap(full_reply("parse-agent-actions-jsonl", text, None, whole=True))
    return [{"ok": True, "value": i["value"]} if i["ok"] else {"ok": False, "error": _error(i["error"])} for i in items]


def main() -> None:
    action = {
        "type": "tool_call",
        "callId": "call_1",
        "tool": "read_file",
        "input": {"path": "src/index.ts", "encoding": "utf8"},
    }
    text = json.dumps(action, separators=(",", ":"))  # the same text as the JS bench

    # Sanity: every contender accepts the case and gives the same action.
    assert agent_contract.parse_agent_action_json(text) == action
    assert action_adapter.validate_json(text).model_dump(exclude={"schemaVersion"}) == action
    assert testing_call("echo", text) == text

    r: dict[str, Any] = {"python": sys.version.split()[0], "wasmtime": _wasmtime_version(), "pydantic": pydantic.VERSION}
    parse = agent_contract.parse_agent_action_json
    call = testing_call
    reply = call("parse-agent-action-json-full", 0, text, "")
    reply_sized = "x" * len(reply)
    r.update(
        measure_group(
            {
                "c_ours": lambda: parse(text),
                # The full-reply path (before verdict replies), same run.
                "c_full": lambda: _unwrap(full_reply("parse-agent-action-json", text, None)),
                "c_echo": lambda: call("echo", text),
                "c_pydantic": lambda: action_adapter.validate_json(text),
                "c_jsonloads": lambda: json.loads(text),
                # Breakdown of ours: the raw export call (crossing + core), the package's
                # json.loads of the reply, and the floor for a reply-sized string.
                "p_raw_call": lambda: call("parse-agent-action-json-full", 0, text, ""),
                "p_loads_reply": lambda: json.loads(reply),
                "p_echo_reply_len": lambda: call("echo", reply_sized),
            }
        )
    )

    # Batch: 1,000 actions as JSON Lines / as a JSON array.
    lines = [json.dumps({**action, "callId": f"call_{i}"}, separators=(",", ":")) for i in range(1000)]
    jsonl = "\n".join(lines)
    array = "[" + ",".join(lines) + "]"
    assert len(agent_contract.parse_agent_actions_jsonl(jsonl)) == 1000
    assert len(list_adapter.validate_json(array)) == 1000
    k = len(lines)
    batch = measure_group(
        {
            "batch_ours_jsonl": lambda: agent_contract.parse_agent_actions_jsonl(jsonl),
            "batch_full_jsonl": lambda: full_jsonl(jsonl),
            "batch_ours_loop": lambda: [parse(line) for line in lines],
            "batch_pyd_loop": lambda: [action_adapter.validate_json(line) for line in lines],
            "batch_pyd_array": lambda: list_adapter.validate_json(array),
            "batch_echo_jsonl": lambda: call("echo", jsonl),
        }
    )
    r.update({name: per(v, k) for name, v in batch.items()})

    table(
        "(c) Python, one valid tool_call as JSON text — target: ours ≤ 1.5× the echo floor",
        [
            ("agent_contract.parse_agent_action_json", r["c_ours"], r["c_echo"], "echo"),
            ("  full reply (before verdicts)", r["c_full"], r["c_echo"], "echo"),
            ("echo export, same string (wasmtime floor)", r["c_echo"], r["c_echo"], "echo"),
            ("pydantic TypeAdapter.validate_json", r["c_pydantic"], r["c_echo"], "echo"),
            ("json.loads alone", r["c_jsonloads"], r["c_echo"], "echo"),
        ],
    )
    table(
        "    where our time goes",
        [
            ("raw export call (crossing + core)", r["p_raw_call"], r["c_ours"], "of ours"),
            ("json.loads(reply)", r["p_loads_reply"], r["c_ours"], "of ours"),
            ("echo of a reply-sized string", r["p_echo_reply_len"], r["c_ours"], "of ours"),
        ],
    )
    table(
        f"    batch: {k} actions, per action — vs pydantic",
        [
            ("parse_agent_actions_jsonl (one crossing)", r["batch_ours_jsonl"], r["batch_pyd_loop"], "pydantic per line"),
            ("  full reply (before verdicts)", r["batch_full_jsonl"], r["batch_pyd_loop"], "pydantic per line"),
            ("parse_agent_action_json per line", r["batch_ours_loop"], r["batch_pyd_loop"], "pydantic per line"),
            ("pydantic validate_json per line", r["batch_pyd_loop"], r["batch_pyd_loop"], "pydantic per line"),
            ("pydantic list[Action] validate_json (array)", r["batch_pyd_array"], r["batch_pyd_loop"], "pydantic per line"),
            ("echo of the whole JSONL (floor)", r["batch_echo_jsonl"], r["batch_pyd_loop"], "pydantic per line"),
        ],
    )
    print(
        f"    parse_agent_actions_jsonl vs pydantic array: "
        f"{r['batch_ours_jsonl']['ns'] / r['batch_pyd_array']['ns']:.2f}×"
    )

    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(r, f, indent=2)


def _wasmtime_version() -> str:
    from importlib.metadata import version

    return version("wasmtime")


if __name__ == "__main__":
    main()
