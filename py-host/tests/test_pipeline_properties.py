"""Random registries, actions, policies and tool results give a result or a ContractError,
nothing else (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac
from conftest import GENERATED

words = st.sampled_from(["read", "write", "network", "execute", "admin", "allow", "ask", "deny", "read_file", "x", ""])
keys = st.sampled_from(["rules", "effect", "tool", "permission", "type", "callId", "input", "tools", "ok", "data",
                        "code", "message", "retryable", "name", "permissions"])
values = st.recursive(
    words | st.none() | st.booleans() | st.integers() | st.sampled_from([ac.UNDEFINED, float("nan"), set(), ValueError("x")]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=10,
)


def _tool(name: str, permissions: list[str]) -> dict[str, Any]:
    return {"name": name, "description": "d", "inputSchema": {"type": "object"}, "permissions": permissions}


REGISTRY = ac.create_registry([_tool("read_file", ["read"]), _tool("write_file", ["write", "network"])])
rules = st.builds(
    lambda e, k, v: {"effect": e, k: v},
    st.sampled_from(["allow", "ask", "deny", "maybe"]),
    st.sampled_from(["tool", "permission"]),
    st.sampled_from(["read", "write", "network", "read_file", "write_file", "Bad"]),
)
policies = st.lists(rules, max_size=5).map(lambda r: {"rules": r}) | values
actions = st.builds(
    lambda t, i: {"type": "tool_call", "callId": "c", "tool": t, "input": i},
    st.sampled_from(["read_file", "write_file", "read_flie", ""]),
    values,
) | values


def _check(call: Any) -> Any:
    try:
        return call()
    except ac.ContractError as e:
        assert e.code and e.layer and isinstance(e.path, str), e
        return None


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.just(REGISTRY) | values, actions, policies)
def test_check_tool_call(registry: Any, action: Any, policy: Any) -> None:
    GENERATED["values"] += 3
    got = _check(lambda: ac.check_tool_call(registry, action, policy))
    if got is not None:
        assert list(got) == ["callId", "tool", "input", "permissions"]


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(values)
def test_config_and_results(value: Any) -> None:
    GENERATED["values"] += 1
    _check(lambda: ac.define_policy(value))
    _check(lambda: ac.create_registry([value]))
    _check(lambda: ac.catalog(value))
    _check(lambda: ac.strict_schema_issues(value))
    _check(lambda: ac.compare_contracts(value, _tool("read_file", ["read"])))
    _check(lambda: ac.diff_catalogs(value, value))
    result = ac.normalize_tool_result(_tool("read_file", ["read"]), value)
    assert isinstance(result["ok"], bool)
