"""Verdict replies: the text functions build their result from the core's verdict
and `json.loads` of the text the core accepted; the full-reply exports (the core writes the whole
result) are in the test build (testing_core.py) for this comparison. Both must give the same outcome, the same value or the same
error (code, path, message, position), on any text: action- and decision-like JSON with numbers
of every form, escapes and `__proto__` keys, broken texts, invalid UTF-8 bytes, lone surrogates,
JSON Lines with CRLF and blank lines, and options."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac
from conftest import GENERATED
from testing_core import full_reply

ACCEPTED = {"action": 0, "decision": 0}
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, max_examples=1500, derandomize=True)


def _error(e: dict[str, Any]) -> dict[str, Any]:
    return {k: e.get(k) for k in ("layer", "code", "path", "message", "retryable", "position", "issues")}


def _plain_error(e: ac.ContractError) -> dict[str, Any]:
    return {"layer": e.layer, "code": e.code, "path": e.path, "message": e.message, "retryable": e.retryable,
            "position": e.position, "issues": e.issues}


def _ours(call: Any) -> Any:
    try:
        return {"ok": True, "value": call()}
    except ac.ContractError as e:
        return {"ok": False, "error": _plain_error(e)}


def _theirs(reply: dict[str, Any]) -> Any:
    return {"ok": True, "value": reply["value"]} if reply["ok"] else {"ok": False, "error": _error(reply["error"])}


def _same(a: Any, b: Any) -> bool:
    """Equal, with floats compared by bits (-0.0 and 0.0 differ) and types exact (1 vs 1.0)."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return math.copysign(1, a) == math.copysign(1, b) and a == b
    if type(a) is dict:
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


strings = st.sampled_from(["read_file", "c1", "x", " ", "", "é😀"])
good = st.sampled_from(["read_file", "c1", "x", "é😀"]) | strings
jsonish = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
odd_inputs = st.sampled_from(['{"__proto__":1,"a":-0}', "[1e2,-0.0,1E-7,12345678901234567890]", '"\\u00e9\\ud83d\\ude00"',
                              "-0", "1.0", "1e400", '"\\ud800"'])
action_fields = st.sampled_from(["callId", "tool", "content", "summary", "requestId", "capability", "resource", "reason",
                                 "schemaVersion", "extra", "__proto__"])


@st.composite
def action_text(draw: Any) -> str:
    kind = draw(st.sampled_from(["message", "tool_call", "finish", "request_approval", "x"]))
    fields = {"message": ["content"], "tool_call": ["callId", "tool"], "finish": ["summary"],
              "request_approval": ["requestId", "capability", "resource", "reason"], "x": []}[kind]
    body: dict[str, Any] = {"type": kind}
    for f in fields:
        body[f] = draw(strings | jsonish) if draw(st.integers(0, 5)) == 0 else draw(strings)
    body.update(draw(st.dictionaries(action_fields, strings | jsonish, max_size=2)))
    text = json.dumps(body, ensure_ascii=draw(st.booleans()))
    if kind == "tool_call" and draw(st.integers(0, 4)):
        raw = draw(odd_inputs) if draw(st.booleans()) else json.dumps(draw(jsonish))
        text = text[:-1] + ', "input": ' + raw + "}"
    return text


@st.composite
def decision_text(draw: Any) -> str:
    if draw(st.booleans()):
        return json.dumps({"kind": "final", "answer": draw(strings | jsonish)})
    calls = [{"callId": draw(good) + str(i), "name": draw(good), "arguments": draw(st.dictionaries(st.text(max_size=3), jsonish, max_size=3) | jsonish)}
             for i in range(draw(st.integers(0, 3) | st.just(1)))]
    return json.dumps({"kind": "tool", "calls": calls})


noise = st.sampled_from(["", " ", "{", '{"type":"finish","summary":"s"} x', '{"type":"finish","summary":"s","summary":"t"}',
                         '\ufeff{"type":"finish","summary":"s"}', '{"type":"finish","summary":"\ud800"}']) | st.text(max_size=30)


def _encoded(text: str, how: int) -> Any:
    if how == 0:
        return text
    data = text.encode("utf-8", "surrogatepass")
    return data if how == 1 else data + b"\xff" if how == 2 else bytearray(data)


options = st.none() | st.builds(dict, strict=st.booleans()) | st.builds(dict, maxBytes=st.integers(1, 400)) \
    | st.builds(dict, maxDepth=st.integers(0, 3))


@settings(**SETTINGS)
@given(action_text() | decision_text() | noise, st.integers(0, 3), options)
def test_single_texts_match_the_full_reply(text: str, how: int, opts: Any) -> None:
    GENERATED["values"] += 1
    t = _encoded(text, how)
    ours = _ours(lambda: ac.parse_agent_action_json(t, opts))
    theirs = _theirs(full_reply("parse-agent-action-json", t, opts))
    assert _same(ours, theirs), (ours, theirs)
    ACCEPTED["action"] += ours["ok"]
    ours = _ours(lambda: ac.parse_decision_json(t, opts))
    theirs = _theirs(full_reply("parse-decision-json", t, opts))
    assert _same(ours, theirs), (ours, theirs)
    ACCEPTED["decision"] += ours["ok"]


@settings(**SETTINGS)
@given(st.lists(st.tuples(action_text() | noise, st.sampled_from(["\n", "\r\n", "\n\n"])), max_size=6), st.booleans(),
       st.integers(0, 3), options)
def test_jsonl_matches_the_full_reply(lines: list[tuple[str, str]], trim: bool, how: int, opts: Any) -> None:
    GENERATED["values"] += 1
    text = "".join(line + end for line, end in lines)
    t = _encoded(text.rstrip() if trim else text, how)
    ours = _ours(lambda: ac.parse_agent_actions_jsonl(t, opts))
    if ours["ok"]:
        ours["value"] = [o if o["ok"] else {"ok": False, "error": _plain_error(o["error"])} for o in ours["value"]]
    reply = full_reply("parse-agent-actions-jsonl", t, opts, whole=True)
    theirs = _theirs(reply)
    if theirs["ok"]:
        theirs["value"] = [_theirs(item) for item in theirs["value"]]
    assert _same(ours, theirs), (ours, theirs)


def test_accepted_texts_are_generated() -> None:
    """The properties above (run before this, in file order) exercised the success path."""
    assert ACCEPTED["action"] > 100 and ACCEPTED["decision"] > 20, ACCEPTED


TWIN = {"through": 0, "batches": 0}
odd_values = st.sampled_from([ac.UNDEFINED, float("nan"), float("inf"), -0.0, 2**70, 10**30, "\ud800", (1,), b"x", "x" * 300])
flat_values = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6) | odd_values
shallow_values = flat_values | st.lists(flat_values, max_size=3) | st.dictionaries(st.text(max_size=4) | st.just(1), flat_values, max_size=3)
TOOL = ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": {
    "type": "object", "properties": {"path": {"type": "string", "minLength": 1}, "n": {"type": "number", "maximum": 5}},
    "required": ["path"]}})


@settings(**SETTINGS)
@given(action_text().map(json.loads) | decision_text().map(json.loads)
       | st.dictionaries(action_fields | st.just("type"), shallow_values, max_size=5),
       st.dictionaries(st.sampled_from(["path", "n", "x"]), shallow_values, max_size=3)
       | st.fixed_dictionaries({"path": st.text(max_size=3)}, optional={"n": st.integers(0, 9) | st.floats(0, 9), "x": flat_values}))
def test_values_through_their_text_twin_match_the_value_row(value: Any, tool_input: Any) -> None:
    # With no options, a small shallow value crosses as its JSON to the row's text twin (the
    # table's `textTwin`), the value row answering any error; options (`{}`, the defaults) take
    # the value row alone. Same outcome either way: value (types and key order) or error.
    from agent_contract._host_text import _write_shallow

    GENERATED["values"] += 1
    for call in (ac.parse_agent_action, ac.parse_decision):
        ours, theirs = _ours(lambda: call(value)), _ours(lambda: call(value, {}))
        assert _same(ours, theirs), (call, value, ours, theirs)
        TWIN["through"] += ours["ok"] and _write_shallow(value) is not None
    ours, theirs = _ours(lambda: ac.validate_tool_input(TOOL, tool_input)), _ours(lambda: ac.validate_tool_input(TOOL, tool_input, {}))
    assert _same(ours, theirs), (tool_input, ours, theirs)
    text = _write_shallow(tool_input)
    if text is not None:
        assert _same(json.loads(text), tool_input)  # the text twin is the value's JSON
        TWIN["through"] += ours["ok"]


@settings(**SETTINGS)
@given(st.lists(st.dictionaries(st.sampled_from(["path", "n", "x"]), shallow_values, max_size=3)
                | st.fixed_dictionaries({"path": st.text(max_size=3)}, optional={"n": st.integers(0, 9)}) | flat_values, max_size=6))
def test_batches_through_their_text_twin_match_the_value_row(inputs: list[Any]) -> None:
    # The same for `validate_tool_inputs` over a compiled tool (`validate-many-json`).
    from agent_contract._host_text import _write_shallow

    GENERATED["values"] += 1

    def outcomes(options: Any) -> Any:
        return [o if o["ok"] else {"ok": False, "error": _plain_error(o["error"])} for o in ac.validate_tool_inputs(TOOL, inputs, options)]

    ours, theirs = outcomes(None), outcomes({})
    assert _same(ours, theirs), (inputs, ours, theirs)
    if _write_shallow(inputs) is not None:
        TWIN["batches"] += any(o["ok"] for o in ours)


def test_values_went_through_their_text_twin() -> None:
    assert TWIN["through"] > 200 and TWIN["batches"] > 50, TWIN
