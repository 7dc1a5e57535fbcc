"""Decisions under hypothesis: any value or text gives a decision or a ContractError, accepted
decisions survive a JSON round trip, value and text paths agree, safe twins agree."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import agent_contract as ac
from conftest import GENERATED
from test_properties import SETTINGS, any_text, json_values, values

text = st.sampled_from(["c1", "c2", "read_file", "", " ", "\ud800"]) | any_text
field = text | values
call_like = st.fixed_dictionaries(
    {}, optional={"callId": field, "name": field, "arguments": st.dictionaries(st.text(max_size=5), json_values, max_size=3) | field,
                  "extra": field},
)
decision_like = st.fixed_dictionaries(
    {}, optional={"kind": st.sampled_from(["tool", "final", "Tool", ""]) | field,
                  "calls": st.lists(call_like, max_size=6) | field, "answer": field, "extra": field},
)
options = st.none() | st.fixed_dictionaries({}, optional={"maxCalls": st.integers(-1, 300) | values}) | values


def outcome(call: Any) -> dict[str, Any]:
    try:
        return {"ok": True, "value": call()}
    except ac.ContractError as e:
        assert e.code.isupper() and (e.path == "" or e.path.startswith("/"))
        return {"ok": False, "error": e}


def same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a["ok"] == b["ok"], (a, b)
    if a["ok"]:
        assert a["value"] == b["value"]
    else:
        assert (a["error"].layer, a["error"].code, a["error"].path) == (b["error"].layer, b["error"].code, b["error"].path)


@settings(max_examples=3000, **SETTINGS)
@given(decision_like | values, options)
def test_any_value_gives_a_decision_or_contract_error(value: Any, opts: Any) -> None:
    GENERATED["values"] += 1
    got = outcome(lambda: ac.parse_decision(value, opts))
    same(ac.safe_parse_decision(value, opts), got)
    if got["ok"]:
        again = outcome(lambda: ac.parse_decision_json(json.dumps(got["value"], ensure_ascii=False), opts))
        same(again, got)


non_blank = st.text(min_size=1).filter(lambda s: not s.isspace() and not any("\ud800" <= c <= "\udfff" for c in s))
valid = st.fixed_dictionaries({"kind": st.just("final"), "answer": non_blank}) | st.fixed_dictionaries({
    "kind": st.just("tool"),
    "calls": st.lists(st.fixed_dictionaries({"callId": non_blank, "name": non_blank,
                                             "arguments": st.dictionaries(st.text(max_size=5), json_values, max_size=3)}),
                      min_size=1, max_size=4, unique_by=lambda c: c["callId"]),
})


@settings(max_examples=1500, **SETTINGS)
@given(valid)
def test_valid_decisions_from_value_and_text(decision: Any) -> None:
    GENERATED["values"] += 1
    assert ac.parse_decision(decision) == decision
    assert ac.parse_decision_json(json.dumps(decision, ensure_ascii=False)) == decision
    assert ac.parse_json(json.dumps(decision)) == decision


@settings(max_examples=1500, **SETTINGS)
@given(st.binary(max_size=64) | any_text | valid.map(lambda d: json.dumps(d)[:-1]))
def test_any_text_gives_a_result_or_contract_error(data: Any) -> None:
    GENERATED["values"] += 1
    outcome(lambda: ac.parse_decision_json(data))
    outcome(lambda: ac.parse_json(data))
