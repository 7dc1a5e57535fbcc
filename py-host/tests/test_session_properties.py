"""Property tests of session files in Python: random valid sessions pass; one
random mutation gives its code at its line as the first problem; random bytes give a report,
never anything but a report. The same properties as tests/session_properties.rs."""

from __future__ import annotations

import json
from typing import Any, Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, max_examples=200)
HEADER = '{"type":"session","version":1,"id":"session","timestamp":"t","cwd":"/w"}'
OPTIONS: Any = {"maxIssues": 10000}


def rng(seed: int) -> Any:
    state = [seed | 1]

    def below(n: int) -> int:
        s = state[0]
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        state[0] = s
        return s % n

    return below


def ancestors(entries: list[dict[str, Any]], parent: Optional[int]) -> list[int]:
    out = []
    while parent is not None:
        out.append(parent)
        parent = entries[parent]["parent"]
    return out


def session(seed: int, n: int) -> list[dict[str, Any]]:
    below = rng(seed)
    entries: list[dict[str, Any]] = []
    for i in range(n):
        parent = None if i == 0 or below(8) == 0 else below(i)
        up = ancestors(entries, parent)
        kind: dict[str, Any] = {"type": "user"}
        r = below(4)
        if r == 1:
            kind = {"type": "assistant", "calls": [(f"call-{i}-{k}", ["read", "write", "bash"][below(3)]) for k in range(below(3))]}
        elif r == 2:
            answered = {entries[a]["kind"]["call"] for a in up if entries[a]["kind"]["type"] == "result"}
            calls = [c for a in up if entries[a]["kind"]["type"] == "assistant" for c in entries[a]["kind"]["calls"]]
            open_calls = [c for c in calls if c[0] not in answered]
            if open_calls:
                call, name = open_calls[below(len(open_calls))]
                kind = {"type": "result", "call": call, "name": name}
        elif r == 3 and up:
            kind = {"type": "compaction", "first": up[below(len(up))]}
        entries.append({"id": f"e{i}-{below(1000)}", "parent": parent, "kind": kind})
    return entries


def line(entries: list[dict[str, Any]], e: dict[str, Any]) -> str:
    parent_id = None if e["parent"] is None else entries[e["parent"]]["id"]
    kind = e["kind"]

    def message(m: Any) -> str:
        return json.dumps({"type": "message", "id": e["id"], "parentId": parent_id, "timestamp": "t", "message": m})

    if kind["type"] == "user":
        return message({"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1})
    if kind["type"] == "assistant":
        return message({
            "role": "assistant",
            "content": [{"type": "toolCall", "id": c, "name": n, "arguments": {}} for c, n in kind["calls"]],
            "stopReason": "toolUse" if kind["calls"] else "stop",
            "usage": {"input": 1, "output": 2, "totalTokens": 3},
            "timestamp": 2,
        })
    if kind["type"] == "result":
        return message({"role": "toolResult", "toolCallId": kind["call"], "toolName": kind["name"],
                        "content": [{"type": "text", "text": "ok"}], "isError": False, "timestamp": 3})
    return json.dumps({"type": "compaction", "id": e["id"], "parentId": parent_id, "timestamp": "t", "summary": "s",
                       "firstKeptEntryId": entries[kind["first"]]["id"], "tokensBefore": 10})


def text(lines: list[str]) -> str:
    return "\n".join([HEADER, *lines]) + "\n"


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.integers(min_value=1, max_value=2**63), st.integers(min_value=1, max_value=39))
def test_random_valid_sessions_pass(seed: int, n: int) -> None:
    entries = session(seed, n)
    lines = [line(entries, e) for e in entries]
    report = ac.check_session(text(lines), OPTIONS)
    assert report["problems"] == []
    assert report["entries"] == n + 1
    assert report["roots"] == [e["id"] for e in entries if e["parent"] is None]
    leaves = [i for i in range(n) if not any(e["parent"] == i for e in entries)]
    assert report["leaves"] == [entries[i]["id"] for i in leaves]
    s = ac.read_session(text(lines).encode(), OPTIONS)
    for leaf in leaves:
        chain = [entries[i]["id"] for i in reversed(ancestors(entries, leaf))]
        assert [b["id"] for b in s.branch(entries[leaf]["id"])] == chain


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.integers(min_value=1, max_value=2**63), st.integers(min_value=2, max_value=29),
       st.integers(min_value=1, max_value=2**63), st.integers(min_value=0, max_value=4))
def test_one_mutation_gives_its_code(seed: int, n: int, pick: int, which: int) -> None:
    entries = session(seed, n)
    lines = [line(entries, e) for e in entries]
    below = rng(pick)
    expected: Optional[tuple[int, str]] = None
    if which == 0:
        j = below(n)
        del lines[j]
        children = [k for k in range(j + 1, n) if entries[k]["parent"] == j]
        expected = (children[0] + 1, "ENTRY_PARENT_MISSING") if children else None
    elif which == 1:
        j = 1 + below(n - 1)
        m = below(j)
        lines[j] = line(entries, {**entries[j], "id": entries[m]["id"]})
        expected = (j + 2, "ENTRY_ID_DUPLICATE")
    elif which == 2:
        j = below(n - 1)
        k = j + 1 + below(n - j - 1)
        lines[j] = line(entries, {**entries[j], "parent": k})
        expected = (j + 2, "ENTRY_PARENT_MISSING")
    elif which == 3:
        results = [i for i, e in enumerate(entries) if e["kind"]["type"] == "result"]
        if results:
            j = results[below(len(results))]
            lines[j] = line(entries, {**entries[j], "kind": {**entries[j]["kind"], "call": "no-such-call"}})
            expected = (j + 2, "TOOL_RESULT_UNMATCHED")
    else:
        report = ac.check_session("\n".join(lines) + "\n", OPTIONS)
        assert (report["problems"][0]["line"], report["problems"][0]["code"]) == (1, "SESSION_HEADER_MISSING")
        return
    report = ac.check_session(text(lines), OPTIONS)
    first = report["problems"][0] if report["problems"] else None
    assert ((first["line"], first["code"]) if first else None) == expected


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.one_of(st.binary(max_size=512), st.text(max_size=256)), st.booleans())
def test_random_bytes_give_a_report(data: Any, pi: bool) -> None:
    options = {**OPTIONS, "dialect": "pi" if pi else "seed"}
    report = ac.check_session(data, options)
    assert report["ok"] == (report["problems"] == [])
    out = ac.safe_read_session(data, options)
    assert out["ok"] == report["ok"]


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.integers(min_value=1, max_value=2**63), st.integers(min_value=1, max_value=19), st.text(max_size=40),
       st.integers(min_value=0), st.lists(st.integers(min_value=0), max_size=10), st.booleans(),
       st.sampled_from([None, 60, 150]))
def test_incremental_reader_agrees(seed: int, n: int, noise: str, at: int, cuts: list[int], as_bytes: bool,
                                   max_bytes: Optional[int]) -> None:
    entries = session(seed, n)
    whole = text([line(entries, e).replace('"hi"', '"h\\ud83d\\ude00i"') for e in entries])
    i = at % (len(whole) + 1)
    data: Any = whole[:i] + noise + whole[i:]
    options: Any = {**OPTIONS, **({} if max_bytes is None else {"maxBytes": max_bytes})}
    expected = ac.check_session(data, options)
    if as_bytes:
        data = data.encode("utf-8")
    points = sorted({c % (len(data) + 1) for c in cuts})
    pushed: list[Any] = []
    with ac.create_session_checker(options) as checker:
        start = 0
        for p in [*points, len(data)]:
            pushed.extend(checker.push(data[start:p]))
            start = p
        report = checker.finish()
    assert report == expected
    # push returns the problems of completed lines: all but a last line's without a line end.
    assert pushed == expected["problems"][: len(pushed)]
    assert len(expected["problems"]) - len(pushed) <= 1


def test_session_checker_refuses_bad_options_and_chunks() -> None:
    try:
        ac.SessionChecker({"dialect": "v3"})  # type: ignore[typeddict-item]
    except ac.ContractError as e:
        assert e.code == "OPTION_INVALID"
    else:
        raise AssertionError("options accepted")
    with ac.SessionChecker() as checker:
        try:
            checker.push(5)
        except ac.ContractError as e:
            assert e.code == "JSON_INVALID"
        else:
            raise AssertionError("a number accepted as a chunk")
