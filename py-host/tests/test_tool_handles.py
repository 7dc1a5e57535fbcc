"""Compiled tools: define_tool returns a frozen dict holding the core's
compiled-tool resource. Lifetime (close, double close, use after close, `with`, garbage
collection, another thread), the batch form, bounded memory (100,000 tools created and dropped;
many validations), and a property: validating through the handle gives the outcome validating
a plain copy of the definition gives (hypothesis)."""

from __future__ import annotations

import copy
import gc
import json
import pickle
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac
from agent_contract import _runtime
from test_schema_properties import inputs, schemas

WEATHER = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
        "required": ["city"],
    },
    "permissions": ["read"],
}


def test_a_defined_tool_is_frozen_plain_data() -> None:
    tool = ac.define_tool(WEATHER)
    assert isinstance(tool, dict) and type(tool) is ac.Tool
    assert tool == WEATHER and json.loads(json.dumps(tool)) == WEATHER
    for plain in (copy.deepcopy(tool), pickle.loads(pickle.dumps(tool)), json.loads(json.dumps(tool))):
        assert type(plain) is dict and type(plain["inputSchema"]["required"]) is list and plain == WEATHER
    with pytest.raises(TypeError):
        tool["name"] = "other"  # type: ignore[index]
    with pytest.raises(TypeError):
        tool["inputSchema"]["properties"]["city"]["type"] = "integer"
    with pytest.raises(TypeError):
        tool["permissions"].append("write")
    # Read as plain data everywhere else: registries, projections, strict define.
    assert ac.define_tool(tool, {"strict": True}) == WEATHER
    assert ac.to_openai_tools(ac.create_registry([tool]))[0]["function"]["name"] == "get_weather"


def test_close_double_close_use_after_close() -> None:
    tool = ac.define_tool(WEATHER)
    assert ac.validate_tool_input(tool, {"city": "Paris"}) == {"city": "Paris"}
    tool.close()
    tool.close()
    for call in (
        lambda: ac.validate_tool_input(tool, {"city": "Paris"}),
        lambda: ac.validate_tool_input_json(tool, '{"city": "Paris"}'),
        lambda: ac.validate_tool_input_json(tool, b'{"city": "Paris"}'),
        lambda: ac.validate_tool_inputs(tool, [{"city": "Paris"}]),
    ):
        with pytest.raises(ac.ContractError) as e:
            call()
        assert (e.value.code, e.value.path, e.value.layer) == (ac.TOOL_HANDLE_FREED, "", "contract")
    assert tool["name"] == "get_weather"
    assert ac.validate_tool_input(dict(tool), {"city": "Paris"}) == {"city": "Paris"}
    assert ac.validate_tool_input(copy.deepcopy(tool), {"city": "Oslo"}) == {"city": "Oslo"}


def test_with_closes() -> None:
    with ac.define_tool(WEATHER) as tool:
        assert ac.validate_tool_input(tool, {"city": "x"}) == {"city": "x"}
    assert ac.safe_validate_tool_input(tool, {"city": "x"})["error"].code == "TOOL_HANDLE_FREED"


def test_another_thread_takes_the_plain_path_and_close_there_is_applied_here() -> None:
    tool = ac.define_tool(WEATHER)
    seen: list[Any] = []
    worker = threading.Thread(target=lambda: seen.append(ac.safe_validate_tool_input(tool, {"city": 1})["error"].code))
    worker.start()
    worker.join()
    assert seen == ["SCHEMA_MISMATCH"]
    closer = threading.Thread(target=tool.close)
    closer.start()
    closer.join()
    assert ac.safe_validate_tool_input(tool, {"city": "x"})["error"].code == "TOOL_HANDLE_FREED"


def test_a_subclass_or_look_alike_is_plain_data() -> None:
    class Lookalike(dict):  # type: ignore[type-arg]
        pass

    # Not the package's own type: read as a foreign object by the plain path, as before.
    assert ac.safe_validate_tool_input(Lookalike(WEATHER), {"city": "x"})["error"].code == "TOOL_NOT_OBJECT"
    forged = {**WEATHER, "inputSchema": {"type": "object", "required": ["x"]}}
    assert ac.safe_validate_tool_input(forged, {"city": "x"})["error"].code == "SCHEMA_MISMATCH"


def test_batch_one_outcome_per_input() -> None:
    tool = ac.define_tool(WEATHER)
    items = [{"city": "Paris"}, {"city": 1}, {}, {"city": "Rome", "days": 0}, {"city": "Oslo", "days": 2}]

    def shape(o: Any) -> Any:
        return {"ok": True, "value": o["value"]} if o["ok"] else (o["error"].code, o["error"].path, o["error"].issues)

    through = [shape(o) for o in ac.validate_tool_inputs(tool, items)]
    assert [o == {"ok": True, "value": i} for o, i in zip(through, items)] == [True, False, False, False, True]
    assert [shape(o) for o in ac.validate_tool_inputs(json.loads(json.dumps(tool)), items)] == through
    assert [shape(ac.safe_validate_tool_input(tool, i)) for i in items] == through
    with pytest.raises(ac.ContractError) as e:
        ac.validate_tool_inputs(tool, {"city": "x"})
    assert e.value.code == "FIELD_TYPE"


def test_100k_tools_created_and_dropped_do_not_grow_the_instance() -> None:
    def round_(n: int, close: bool) -> None:
        for i in range(n):
            tool = ac.define_tool({**WEATHER, "name": f"tool_{i % 997}"})
            if i % 3 == 0:
                ac.validate_tool_input(tool, {"city": "x"})
            if close and i % 2 == 0:
                tool.close()
            del tool
        gc.collect()

    round_(5000, True)
    instance = _runtime.current_instance()
    assert instance is not None
    start = instance.memory_bytes()
    for r in range(20):
        round_(5000, r % 2 == 0)
    assert _runtime.current_instance() is instance, "the instance was replaced (its memory passed the bound)"
    assert instance.memory_bytes() - start <= 2 * 65536, (start, instance.memory_bytes())
    assert len(instance.pending_drops) < 5000


def test_validations_through_a_handle_do_not_grow_memory() -> None:
    tool = ac.define_tool(WEATHER)
    for i in range(5000):
        ac.safe_validate_tool_input(tool, {"city": "Paris", "days": 2} if i % 2 else {"city": 3})
    instance = tool._instance
    start = instance.memory_bytes()
    for i in range(50000):
        ac.safe_validate_tool_input(tool, {"city": "Paris", "days": 2} if i % 2 else {"city": 3})
    assert instance.memory_bytes() == start


def _seen(call: Any) -> Any:
    try:
        return {"ok": True, "value": call()}
    except ac.ContractError as e:
        return (e.code, e.path, e.issues, e.truncated)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.dictionaries(st.sampled_from(["a", "b", "c"]), schemas, max_size=3),
    st.lists(inputs, max_size=4),
    st.sampled_from([None, {"maxDepth": 2}, {"strict": True}]),
)
def test_property_the_handle_path_gives_the_plain_paths_outcome(properties: Any, values: Any, options: Any) -> None:
    defined = ac.safe_define_tool({"name": "t", "description": "d", "inputSchema": {"properties": properties}, "permissions": ["read"]})
    if not defined["ok"]:
        return
    tool = defined["value"]
    plain = json.loads(json.dumps(tool))
    for value in values:
        assert _seen(lambda: ac.validate_tool_input(tool, value, options)) == _seen(lambda: ac.validate_tool_input(plain, value, options))
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            continue
        assert _seen(lambda: ac.validate_tool_input_json(tool, text, options)) == _seen(
            lambda: ac.validate_tool_input_json(plain, text, options)
        )

    def many(t: Any) -> Any:
        return _seen(lambda: [o if o["ok"] else (o["error"].code, o["error"].path, o["error"].issues) for o in ac.validate_tool_inputs(t, values, options)])

    assert many(tool) == many(plain)
    tool.close()


POLICIES = [
    {"rules": [{"effect": "allow", "permission": "read"}]},
    {"rules": [{"effect": "ask", "tool": "t0"}, {"effect": "allow", "permission": "write"}]},
    {"rules": []},
    {"rules": [{"effect": "sometimes"}]},
]


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.tuples(schemas, st.sampled_from([["read"], ["write"], ["read", "network"]])), min_size=1, max_size=4),
    st.lists(st.tuples(st.sampled_from(["t0", "t1", "t2", "nope", 7]), inputs, st.integers(0, 3)), max_size=4),
)
def test_property_a_created_registry_gives_the_plain_copys_outcomes(specs: Any, calls: Any) -> None:
    tools = [{"name": f"t{i}", "description": "d", "inputSchema": {"properties": {"a": s}}, "permissions": p} for i, (s, p) in enumerate(specs)]
    made = ac.safe_create_registry(tools)
    if not made["ok"]:
        return
    registry = made["value"]
    plain = json.loads(json.dumps(registry))
    assert registry == plain and type(registry) is not dict
    for project in (ac.catalog, ac.to_openai_tools, ac.to_openai_responses_tools, ac.to_anthropic_tools, ac.to_mcp_tools, ac.to_gemini_tools):
        assert _seen(lambda: project(registry)) == _seen(lambda: project(plain))
    for tool, value, p in calls:
        call = {"type": "tool_call", "callId": "c1", "tool": tool, "input": {"a": value}}
        got = [_seen(lambda: ac.check_tool_call(r, call, POLICIES[p])) for r in (registry, plain)]
        assert got[0] == got[1]


def test_a_created_registry_is_frozen_and_checks_calls() -> None:
    registry = ac.create_registry([WEATHER, {**WEATHER, "name": "get_forecast"}])
    with pytest.raises(TypeError):
        registry["tools"].append({})
    policy = {"rules": [{"effect": "allow", "tool": "get_weather"}, {"effect": "ask", "tool": "get_forecast"}]}
    call = {"type": "tool_call", "callId": "c", "tool": "get_weather", "input": {"city": "x"}}
    assert ac.check_tool_call(registry, call, policy) == {"callId": "c", "tool": "get_weather", "input": {"city": "x"}, "permissions": ["read"]}
    unknown = ac.safe_check_tool_call(registry, {**call, "tool": "get_wether"}, policy)["error"]
    assert (unknown.code, unknown.available_tools) == ("UNKNOWN_TOOL", ["get_weather", "get_forecast"])
    assert ac.safe_check_tool_call(registry, {**call, "tool": "get_forecast"}, policy)["error"].code == "APPROVAL_REQUIRED"
