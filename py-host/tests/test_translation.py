"""How Python values are translated; the verdicts themselves are the core's."""

from __future__ import annotations

import collections
import copy
import json
import pickle
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agent_contract as ac
from agent_contract._host_text import write


def tool_call(input_value: object) -> dict[str, object]:
    return {"type": "tool_call", "callId": "c1", "tool": "t", "input": input_value}


def error_of(fn, *args):  # type: ignore[no-untyped-def]
    with pytest.raises(ac.ContractError) as info:
        fn(*args)
    return info.value


def test_undefined_sentinel() -> None:
    assert not ac.UNDEFINED
    assert repr(ac.UNDEFINED) == "UNDEFINED"
    assert type(ac.UNDEFINED)() is ac.UNDEFINED
    assert copy.deepcopy(ac.UNDEFINED) is ac.UNDEFINED
    assert pickle.loads(pickle.dumps(ac.UNDEFINED)) is ac.UNDEFINED


def test_contract_error_is_a_value_error_and_pickles() -> None:
    e = error_of(ac.parse_agent_action_json, '{"type": "finish"} x')
    assert isinstance(e, ValueError)
    assert (e.layer, e.code, e.path, e.retryable) == ("parse", "JSON_TRAILING_CONTENT", "", True)
    assert e.position == {"offset": 19, "line": 1, "column": 20}
    again = pickle.loads(pickle.dumps(e))
    assert (again.code, again.path, again.message, again.position) == (e.code, e.path, e.message, e.position)
    assert "JSON_TRAILING_CONTENT" in str(e)


def test_host_text_tokens() -> None:
    value = [1, 2.5, float("nan"), float("inf"), -float("inf"), None, True, ac.UNDEFINED, (), {1: 2}, b"x", "é\n"]
    assert write(value, 128, 10**6) == '[1,2.5,NaN,Infinity,-Infinity,null,true,undefined,!tuple,!dict_with_non_string_keys,!bytes,"é\\n"]'


def test_exact_types_only() -> None:
    class MyDict(dict):  # type: ignore[type-arg]
        pass

    class MyStr(str):
        pass

    assert write([MyDict(), collections.OrderedDict(), MyStr("x"), False], 128, 10**6) == "[!MyDict,!OrderedDict,!MyStr,false]"
    e = error_of(ac.parse_agent_action, MyDict(type="finish", summary="s"))
    assert (e.code, e.path) == ("ACTION_NOT_OBJECT", "")


def test_depth_markers_and_cycles() -> None:
    a: list[object] = []
    a.append(a)
    # A cycle is its own marker, checked before the depth (as JS does).
    assert write(a, 3, 10**6) == "[!!cycle]"
    e = error_of(ac.parse_agent_action, tool_call(a))
    assert (e.code, e.path) == ("VALUE_CYCLE", "/input/0")
    d: dict[str, object] = {}
    d["self"] = d
    assert write(d, 2, 10**6) == '{"self":!!cycle}'
    assert write([[[[]]]], 3, 10**6) == "[[[!![]]]"
    assert write({"a": {"b": {}}}, 2, 10**6) == '{"a":{"b":!!{}}'


def test_depth_limit_matches_the_core() -> None:
    # The tool input is at depth 2; with maxDepth 3 one more level fits and two do not.
    assert ac.parse_agent_action(tool_call({"a": {}}), {"maxDepth": 3})["input"] == {"a": {}}
    e = error_of(ac.parse_agent_action, tool_call({"a": {"b": {}}}), {"maxDepth": 3})
    assert (e.code, e.path) == ("INPUT_TOO_DEEP", "/input/a/b")


def test_deep_value_never_hits_the_recursion_limit() -> None:
    deep: object = {}
    for _ in range(sys.getrecursionlimit() * 3):
        deep = [deep]
    e = error_of(ac.parse_agent_action, tool_call(deep), {"maxDepth": 512})
    assert e.code == "INPUT_TOO_DEEP"


def test_large_value_stops_early() -> None:
    big = tool_call(["x" * 1000] * 3000)
    e = error_of(ac.parse_agent_action, big, {"maxBytes": 1000})
    assert e.code == "INPUT_TOO_LARGE"
    assert ac.parse_agent_action(big)["input"][2999] == "x" * 1000


def test_lone_surrogates_are_rejected_never_replaced() -> None:
    for s in ["\ud800", "a\udfffb", "\ud83d\ude00"]:  # a str holds code points: each is lone
        e = error_of(ac.parse_agent_action, {"type": "message", "content": s})
        assert (e.code, e.path) == ("STRING_LONE_SURROGATE", "/content")
        e = error_of(ac.parse_agent_action_json, '{"type": "message", "content": "%s"}' % s)
        assert (e.code, e.path) == ("STRING_LONE_SURROGATE", "/content")
    e = error_of(ac.parse_agent_action, tool_call({"k\ud800": 1}))
    assert (e.code, e.path) == ("STRING_LONE_SURROGATE", "/input")
    assert ac.parse_agent_action({"type": "message", "content": "😀"})["content"] == "😀"


def test_numbers_come_back_as_written() -> None:
    value = {"big": 10**300, "neg": -(2**70), "f": 1.5e-300, "z": -0.0, "i": 3}
    out = ac.parse_agent_action(tool_call(value))["input"]
    assert out == value and type(out["i"]) is int and str(out["z"]) == "-0.0"
    assert ac.parse_agent_action_json('{"type":"tool_call","callId":"c","tool":"t","input":123456789012345678901234567890}')[
        "input"
    ] == 123456789012345678901234567890
    # Beyond Python's int-to-str limit is far beyond any float: not a JSON number.
    assert error_of(ac.parse_agent_action, tool_call(10**5000)).code == "VALUE_NOT_JSON"


def test_undefined_comes_back_where_it_was() -> None:
    assert ac.parse_agent_action(tool_call(ac.UNDEFINED))["input"] is ac.UNDEFINED
    out = ac.parse_agent_action(tool_call({"a/b": [1, ac.UNDEFINED], "~": ac.UNDEFINED}))["input"]
    assert out["a/b"][1] is ac.UNDEFINED and out["~"] is ac.UNDEFINED
    outcomes = ac.parse_agent_actions([tool_call(ac.UNDEFINED), 5])
    assert outcomes[0] == {"ok": True, "value": {"type": "tool_call", "callId": "c1", "tool": "t", "input": ac.UNDEFINED}}
    assert outcomes[1]["ok"] is False and outcomes[1]["error"].code == "ACTION_NOT_OBJECT"


def test_text_kinds() -> None:
    text = '{"type": "finish", "summary": "done"}'
    for arg in [text, text.encode(), bytearray(text.encode()), memoryview(text.encode())]:
        assert ac.parse_agent_action_json(arg) == {"type": "finish", "summary": "done"}
    e = error_of(ac.parse_agent_action_json, b'{"type": "finish", "summary": "\xff"}')
    assert (e.code, e.path, e.position["offset"]) == ("JSON_INVALID", "/summary", 31)  # type: ignore[index]
    for not_text in [None, 42, ["x"], {"type": "finish"}]:
        e = error_of(ac.parse_agent_action_json, not_text)
        assert (e.layer, e.path) == ("parse", "")
        assert error_of(ac.parse_agent_actions_jsonl, not_text).code == e.code


def test_batch_elements_are_roots() -> None:
    # Each element gets the depth and size budget of a single call.
    item = tool_call({"a": {}})
    assert [o["ok"] for o in ac.parse_agent_actions([item, item], {"maxDepth": 3})] == [True, True]
    assert error_of(ac.parse_agent_actions, (item,)).code == "FIELD_TYPE"


def test_preview_never_raises() -> None:
    assert ac.preview_action(42) == {"ok": False, "code": "ACTION_NOT_OBJECT", "path": ""}
    assert ac.preview_action({}, {"bogus": 1})["ok"] is False
    huge = tool_call(["x" * 1000] * 100)
    assert ac.preview_action(huge, {"maxBytes": 10})["code"] == "INPUT_TOO_LARGE"


def test_options_are_translated_not_judged() -> None:
    for options in [{"strict": 1}, {"maxDepth": 0}, {"maxDepth": 1000}, {"maxBytes": True}, {"x": 1}, [1], "strict"]:
        assert error_of(ac.parse_agent_action, {"type": "finish", "summary": "s"}, options).code == "OPTION_INVALID"
    assert ac.parse_agent_action({"type": "finish", "summary": "s"}, {"strict": ac.UNDEFINED, "maxDepth": 2.0})


def test_a_trap_gives_a_fresh_instance() -> None:
    from agent_contract import _runtime

    ac.parse_agent_action({"type": "finish", "summary": "s"})
    first = _runtime._local.instance
    with pytest.raises(Exception):
        _runtime.call_args("parse-json", (1,))  # not a string: fails inside the call machinery
    assert _runtime._local.instance is None
    assert ac.parse_agent_action({"type": "finish", "summary": "s"})
    assert _runtime._local.instance is not first


def test_each_thread_has_its_own_instance() -> None:
    from agent_contract import _runtime

    ac.parse_agent_action({"type": "finish", "summary": "s"})
    mine = _runtime._local.instance
    theirs = []
    t = threading.Thread(target=lambda: (ac.parse_agent_action({"type": "finish", "summary": "s"}), theirs.append(_runtime._local.instance)))
    t.start()
    t.join()
    assert theirs and theirs[0] is not mine and theirs[0].store is not mine.store


def test_size_ceiling_matches_the_core():
    # The binding sizes its translation with the core's ceiling; the core is the authority.
    from agent_contract._host_text import MAX_BYTES_CEILING, MAX_DEPTH_CEILING

    action = {"type": "finish", "summary": "s"}
    assert ac.parse_agent_action(action, {"maxBytes": MAX_BYTES_CEILING})["type"] == "finish"
    assert ac.parse_agent_action(action, {"maxDepth": MAX_DEPTH_CEILING})["type"] == "finish"
    for options in ({"maxBytes": MAX_BYTES_CEILING + 1}, {"maxDepth": MAX_DEPTH_CEILING + 1}):
        with pytest.raises(ac.ContractError) as e:
            ac.parse_agent_action(action, options)
        assert (e.value.code, e.value.path) == ("OPTION_INVALID", "/" + next(iter(options)))


SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=300)
    | st.sampled_from(["\ud800", "a\udfffb", "é", "😀", ac.UNDEFINED, b"x", (1,)])
)
KEYS = st.text(max_size=300) | st.sampled_from([1, None, "\ud83d"])
FLAT = st.lists(SCALARS, max_size=70) | st.dictionaries(KEYS, SCALARS, max_size=70)  # type: ignore[arg-type]
SHALLOW = st.lists(SCALARS | FLAT, max_size=70) | st.dictionaries(KEYS, SCALARS | FLAT, max_size=70)  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(SHALLOW, st.integers(min_value=1, max_value=3), st.integers(min_value=1, max_value=3))
def test_small_values_are_written_as_the_general_writer_writes_them(value: object, max_depth: int, root_depth: int) -> None:
    # The shortcut for small, shallow values (`_write_shallow`) gives `_write`'s text, or leaves
    # the value to it: depth markers, long strings, non-string keys, values with no JSON form,
    # and shared containers included.
    from agent_contract import _host_text

    assert write(value, max_depth, 1 << 20, root_depth) == _host_text._write(value, max_depth, 1 << 20, root_depth, 1, None)
    shallow = _host_text._write_shallow(value)
    assert shallow is None or json.loads(shallow) == value  # strict JSON: the value's text twin
    shared = [1, 2]
    for twice in ([shared, shared], {"a": shared, "b": shared}):
        assert write(twice, 4, 10) == _host_text._write(twice, 4, 10, 1, 1, None)
    assert _host_text._write_shallow({"path": "a", "n": [1, None, 2.5]}) == '{"path":"a","n":[1,null,2.5]}'
