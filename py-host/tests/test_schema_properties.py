"""Random schema-like objects (valid or not) and random inputs never escape define_tool or
validate_tool_input as anything but ContractError (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac
from conftest import GENERATED

CODES = {"TOOL_SCHEMA_INVALID", "TOOL_SCHEMA_UNSUPPORTED", "TOOL_SCHEMA_NOT_OBJECT", "TOOL_SCHEMA_ROOT_NOT_OBJECT",
         "SCHEMA_MISMATCH",
         "INPUT_TOO_DEEP", "INPUT_TOO_LARGE", "VALUE_NOT_JSON", "STRING_LONE_SURROGATE", "FIELD_TYPE"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)
inputs = st.recursive(
    json_values | st.sampled_from([ac.UNDEFINED, float("nan"), "\ud800", set(), 10**400]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


def _compound(kind: str, a: Any, b: Any) -> dict[str, Any]:
    if kind in ("properties", "$defs"):
        return {kind: {"a": a, "b": b}}
    if kind in ("allOf", "anyOf", "prefixItems"):
        return {kind: [a, b]}
    return {kind: a}


schemas = st.recursive(
    st.booleans()
    | st.just({})
    | st.sampled_from(["string", "integer", "number", "object", "array", "null", "strin"]).map(lambda t: {"type": t})
    | st.sampled_from(["^a+$", "(?=a)", "(a)\\1", "[a-", "\\d{2,3}", "\\p{L}"]).map(lambda p: {"pattern": p})
    | st.sampled_from(["#", "#/$defs/a", "#/properties/a", "#nope", "http://x.test/s.json"]).map(lambda r: {"$ref": r})
    | st.builds(lambda k, v: {k: v}, st.sampled_from(["minimum", "maxLength", "required", "enum", "const", "format"]), json_values),
    lambda inner: st.builds(
        _compound,
        st.sampled_from(["properties", "$defs", "items", "allOf", "anyOf", "not", "additionalProperties", "if", "prefixItems"]),
        inner,
        inner,
    ),
    max_leaves=10,
)


def _check(call: Any) -> Any:
    try:
        return call()
    except ac.ContractError as e:
        assert e.code in CODES, e
        assert (e.code == "SCHEMA_MISMATCH") == bool(e.issues), e
        return None


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(schemas, st.lists(inputs, min_size=1, max_size=3))
def test_random_schemas_and_inputs(schema: Any, values: list[Any]) -> None:
    GENERATED["values"] += 1 + len(values)
    tool = _check(lambda: ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": schema}))
    if tool is not None:
        for value in values:
            _check(lambda: ac.validate_tool_input(tool, value))
    # The same schema under a property, so schemas whose root type is not an object (refused at
    # the root: TOOL_SCHEMA_ROOT_NOT_OBJECT) still meet inputs.
    wrapped = {"type": "object", "properties": {"v": schema}}
    tool = _check(lambda: ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": wrapped}))
    if tool is not None:
        for value in values:
            _check(lambda: ac.validate_tool_input(tool, {"v": value}))


def test_still_usable_afterwards() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tool = ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": schema})
    assert ac.validate_tool_input(tool, {"n": 3}) == {"n": 3}
