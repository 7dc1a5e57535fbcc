"""Bad input never escapes as anything but ContractError (hypothesis, >= 10,000 values)."""

from __future__ import annotations

import collections
import datetime
import decimal
import enum
import json
import types
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac
from conftest import GENERATED

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)


class Color(enum.IntEnum):
    RED = 1


class Point:
    pass


# Strings with surrogate code points too (Python strs can hold them; they are not Unicode).
any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=20)
keys = st.sampled_from(["type", "content", "summary", "callId", "tool", "input", "schemaVersion", "name",
                        "description", "inputSchema", "permissions", "permission", "version", "token", "0", "10"]) | any_text

host_only = st.sampled_from([
    ac.UNDEFINED, float("nan"), float("inf"), -float("inf"), set(), frozenset({1}), (1, 2), b"x", bytearray(b"y"),
    datetime.datetime(1970, 1, 1), lambda: None, types.MappingProxyType({}), Point(), Color.RED, decimal.Decimal(1),
    collections.OrderedDict(a=1), {1: "x"}, {("t",): 1}, "\ud800", "\ud83d\ude00", 10**400, -(2**64), object(),
]) | st.builds(lambda: 10**5000)  # built: hypothesis cannot repr it
scalars = st.none() | st.booleans() | st.integers() | st.floats() | any_text | host_only
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(keys, children, max_size=5)
    | st.tuples(children)
    | st.dictionaries(st.integers(), children, max_size=2),
    max_leaves=30,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["message", "tool_call", "finish", "request_approval", "", " ", "other"]) | values},
    optional={k: values | any_text for k in ["content", "summary", "callId", "tool", "input", "requestId", "capability",
                                             "resource", "reason", "schemaVersion", "extra"]},
)
tool_like = st.fixed_dictionaries(
    {"name": st.sampled_from(["read_file", "Bad", "", "x" * 65]) | values},
    optional={
        "description": any_text | values,
        "inputSchema": st.dictionaries(keys, values, max_size=3) | values,
        "permissions": st.lists(st.sampled_from(["read", "write", "execute", "network", "admin"]) | values, max_size=5) | values,
        "permission": st.sampled_from(["read", "nope"]) | values,
        "outputSchema": values,
        "version": st.sampled_from(["1.0.0", "01.0.0", "1.0"]) | values,
    },
)
options = st.none() | st.fixed_dictionaries(
    {}, optional={"strict": st.booleans() | values, "maxDepth": st.integers(-2, 600) | values,
                  "maxBytes": st.integers(-2, 2**32) | values, "other": values}
) | values


def nested(depth: int, leaf: Any) -> Any:
    for i in range(depth):
        leaf = [leaf] if i % 2 else {"k": leaf}
    return leaf


deep = st.builds(nested, st.integers(100, 700), values)
inputs = values | action_like | tool_like | deep


def check_value_functions(value: Any, opts: Any) -> None:
    GENERATED["values"] += 1
    for fn in (ac.parse_agent_action, ac.define_tool, ac.parse_agent_actions):
        try:
            fn(value, opts)
        except ac.ContractError as e:
            assert e.layer in ("parse", "protocol", "contract") and e.code.isupper()
    summary = ac.preview_action(value, opts)
    assert summary["ok"] in (True, False)
    for safe, strict in ((ac.safe_parse_agent_action, ac.parse_agent_action), (ac.safe_define_tool, ac.define_tool)):
        outcome = safe(value, opts)
        try:
            assert outcome == {"ok": True, "value": strict(value, opts)} or outcome["value"] != outcome["value"]
        except ac.ContractError as e:
            assert outcome["ok"] is False and outcome["error"].code == e.code and outcome["error"].path == e.path


@settings(max_examples=4000, **SETTINGS)
@given(inputs, options)
def test_any_value_gives_a_result_or_contract_error(value: Any, opts: Any) -> None:
    check_value_functions(value, opts)


@settings(max_examples=2500, **SETTINGS)
@given(st.lists(action_like | values, max_size=4), options)
def test_batches_of_any_values(values_: Any, opts: Any) -> None:
    check_value_functions(values_, opts)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
json_actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["message", "tool_call", "finish", "request_approval", "x"])},
    optional={k: st.text(max_size=5) | json_values for k in ["content", "summary", "callId", "tool", "input", "reason"]},
)


@settings(max_examples=1500, **SETTINGS)
@given(json_actions | json_values, st.sampled_from([None, {"strict": True}]))
def test_value_and_json_text_reach_the_same_verdict(value: Any, opts: Any) -> None:
    # Within the limits (text is depth-checked as a whole, a value only where rules read it),
    # a JSON value and its text are the same input.
    GENERATED["values"] += 1
    a = ac.safe_parse_agent_action(value, opts)
    try:
        b: Any = {"ok": True, "value": ac.parse_agent_action_json(json.dumps(value, ensure_ascii=False), opts)}
    except ac.ContractError as e:
        b = {"ok": False, "error": e}
    assert a["ok"] == b["ok"], (a, b)
    if a["ok"]:
        assert a["value"] == b["value"]
    else:
        assert (a["error"].code, a["error"].path) == (b["error"].code, b["error"].path)


def check_text_functions(text: Any, opts: Any) -> None:
    GENERATED["values"] += 1
    for fn in (ac.parse_agent_action_json, ac.define_tool_json, ac.parse_agent_actions_jsonl):
        try:
            fn(text, opts)
        except ac.ContractError as e:
            assert e.position is None or e.position["offset"] >= 0


json_ish_text = st.builds(lambda v: json.dumps(v, ensure_ascii=False), json_actions | json_values)
mangled = st.builds(lambda t, i, s: t[:i] + s + t[i:], json_ish_text, st.integers(0, 40), any_text)


@settings(max_examples=2000, **SETTINGS)
@given(any_text | json_ish_text | mangled, st.sampled_from([None, {"strict": True}, {"maxBytes": 8}]))
def test_any_text_gives_a_result_or_contract_error(text: str, opts: Any) -> None:
    check_text_functions(text, opts)


@settings(max_examples=1500, **SETTINGS)
@given(st.binary(max_size=64) | json_ish_text.map(lambda t: t.encode("utf-8", "surrogatepass")), st.none())
def test_any_bytes_give_a_result_or_contract_error(data: bytes, opts: Any) -> None:
    check_text_functions(data, opts)
    check_text_functions(bytearray(data), opts)


def test_a_thousand_failures_then_a_success() -> None:
    bad = [42, {"type": "nope"}, {"type": "tool_call"}, nested(600, 1), {"type": "message", "content": "\ud800"}]
    for i in range(1000):
        try:
            if i % 3 == 0:
                ac.parse_agent_action_json("{" * (i % 200) + "x")
            else:
                ac.parse_agent_action(bad[i % len(bad)])
        except ac.ContractError:
            continue
        raise AssertionError(f"call {i} did not fail")
    assert ac.parse_agent_action({"type": "finish", "summary": "ok"}) == {"type": "finish", "summary": "ok"}
    assert ac.parse_agent_action_json('{"type": "finish", "summary": "ok"}') == {"type": "finish", "summary": "ok"}
