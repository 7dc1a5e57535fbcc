"""Dataset rows and batches of sessions in Python: the batch entries over any iterable give, in
order, the reports the single-row and single-session functions give; a list crosses whole (its
verdicts those of every host), another iterable in chunks; what is not an iterable of rows, or
an iterator that raises, is the core's verdict."""

from __future__ import annotations

import io
import json
from typing import Any, Iterator

import pytest

import agent_contract as ac
from agent_contract import ContractError

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "parameters": {
            "type": "object",
            "properties": {"location": {"type": "string"}, "format": {"enum": ["celsius", "fahrenheit"]}},
            "required": ["location"],
        },
    },
}


def row(i: int) -> dict[str, Any]:
    """Row i: every third one's call has arguments its tool refuses, every fifth one no tools."""
    args = {"location": f"City {i}", "format": "kelvin" if i % 3 == 0 else "celsius"}
    r: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": f"Weather {i}?"},
            {"role": "assistant", "tool_calls": [{"id": f"c{i}", "type": "function",
             "function": {"name": "get_current_weather", "arguments": json.dumps(args)}}]},
        ],
    }
    if i % 5:
        r["tools"] = [WEATHER]
    return r


HEADER = {"type": "session", "version": 1, "id": "s1", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/w"}
ENTRY = {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1}}
GOOD = json.dumps(HEADER) + "\n" + json.dumps(ENTRY) + "\n"
BAD = json.dumps(ENTRY) + "\n"


def codes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["code"], p["path"]) for p in report["problems"]]


def test_a_list_of_rows_gives_each_rows_report() -> None:
    rows = [row(i) for i in range(40)]
    reports = ac.check_chat_rows(rows)
    assert reports == [ac.check_chat_row(r) for r in rows]
    assert codes(reports[3]) == [("ROW_ARGUMENTS_MISMATCH", "/messages/1/tool_calls/0/function/arguments")]
    assert codes(reports[5]) == [("ROW_TOOL_UNKNOWN", "/messages/1/tool_calls/0/function/name")]
    assert reports[1] == {"ok": True, "problems": [], "stats": {"messages": 2, "toolCalls": 1}}


def test_any_iterable_crosses_in_chunks_with_the_same_reports() -> None:
    rows = [row(i) for i in range(2600)]  # three chunks of an iterator
    expected = ac.check_chat_rows(rows)
    assert ac.check_chat_rows(r for r in rows) == expected
    assert ac.check_chat_rows(tuple(rows)) == expected
    # Rows as their JSON text: lines of a file, as a generator over it.
    lines = io.StringIO("".join(json.dumps(r) + "\n" for r in rows))
    assert ac.check_chat_rows(line for line in lines) == expected
    assert ac.check_chat_rows(iter([])) == []


def test_a_list_is_bounded_as_in_every_host() -> None:
    rows = [row(1)] * 3
    with pytest.raises(ContractError) as e:
        ac.check_chat_rows(rows, {"maxArrayLength": 2})
    assert (e.value.code, e.value.path) == ("INPUT_TOO_LARGE", "")
    with pytest.raises(ContractError) as e:
        ac.check_chat_rows(rows, {"maxCalls": 2})
    assert e.value.code == "OPTION_INVALID"


def test_what_is_not_rows_is_the_cores_verdict() -> None:
    for value in ({"messages": []}, "text", 7, None):
        with pytest.raises(ContractError) as e:
            ac.check_chat_rows(value)
        assert (e.value.code, e.value.path) == ("FIELD_TYPE", ""), value

    def raising() -> Iterator[Any]:
        yield row(1)
        raise OSError("disk")

    with pytest.raises(ContractError):
        ac.check_chat_rows(raising())


def test_sessions_over_any_iterable() -> None:
    texts = [GOOD, BAD, GOOD.encode()]
    expected = [ac.check_session(t) for t in texts]
    assert [r["ok"] for r in expected] == [True, False, True]
    assert ac.check_sessions(texts) == expected
    assert ac.check_sessions(t for t in texts) == expected
    assert ac.check_sessions(GOOD) == [expected[0]]
    assert ac.check_sessions(texts, {"maxIssues": 1}) == [ac.check_session(t, {"maxIssues": 1}) for t in texts]
    with pytest.raises(ContractError):
        ac.check_sessions({"a": GOOD})
    with pytest.raises(ContractError):
        ac.check_sessions(7)
    with pytest.raises(ContractError) as e:
        ac.check_sessions([GOOD], {"maxCalls": 1})
    assert e.value.code == "OPTION_INVALID"


def test_jsonl_lines_are_the_rows_reports() -> None:
    rows = [row(i) for i in range(10)]
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    reports = ac.check_chat_rows_jsonl(text)
    assert [r.pop("line") for r in reports] == list(range(1, 11))
    assert reports == ac.check_chat_rows(rows)
    assert ac.check_chat_rows_jsonl(text.encode()) == ac.check_chat_rows_jsonl(text)
