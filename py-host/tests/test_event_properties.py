"""Property tests of agent events in Python: random valid runs pass
check_event_sequence and the response holding them check_session_response; one random mutation
gives its code and path; random values give a verdict, never another exception. The same
properties as tests/event_properties.rs and js-tests/test/event-properties.test.mjs."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agent_contract as ac

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, max_examples=200)


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


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def run(seed: int) -> tuple[list[Any], list[Any]]:
    """One valid run: its events and (a copy of) the messages it ended, in order."""
    below = rng(seed)
    clock = 0
    events: list[Any] = [{"type": "agent_start"}]
    ended: list[Any] = []
    for turn in range(1, 2 + below(4)):
        if turn > 1 and below(3) == 0:
            events.append({"type": "compaction", "summary": "s", "tokensBefore": 10, "firstKeptEntryId": "e1"})
        events.append({"type": "turn_start", "turn": turn})
        if turn == 1:
            clock += 1
            user = {"role": "user", "content": [text("task")], "timestamp": clock}
            events += [{"type": "message_start", "message": user}, {"type": "message_end", "message": user}]
            ended.append(user)
        calls = [(f"c{turn}_{j}", ["ls", "cat", "grep"][below(3)]) for j in range(below(4))]
        clock += 1
        ts, stop = clock, ("toolUse" if calls else "stop")

        def partial(content: list[Any]) -> dict[str, Any]:
            usage = {"input": 1, "output": 2, "totalTokens": 3}
            return {"role": "assistant", "content": content, "stopReason": stop, "usage": usage, "timestamp": ts}

        events.append({"type": "message_start", "message": partial([])})
        so_far = ""
        for _ in range(below(4)):
            so_far += "x"
            events.append({"type": "message_update", "message": partial([text(so_far)]), "delta": "x"})
        blocks = [{"type": "toolCall", "id": i, "name": n, "arguments": {"n": 1}} for i, n in calls]
        assistant = partial([text(so_far), *blocks])
        events.append({"type": "message_end", "message": assistant})
        ended.append(assistant)
        for i, n in calls:
            events.append({"type": "tool_execution_start", "toolCallId": i, "toolName": n, "args": {"n": 1}})
        order = list(range(len(calls)))
        for k in range(len(order) - 1, 0, -1):
            j = below(k + 1)
            order[k], order[j] = order[j], order[k]
        for k in order:
            i, n = calls[k]
            result = {"content": [text("out")]}
            events.append({"type": "tool_execution_end", "toolCallId": i, "toolName": n, "result": result, "isError": False})
        results = []
        for i, n in calls:
            clock += 1
            m = {"role": "toolResult", "toolCallId": i, "toolName": n, "content": [text("out")], "isError": False, "timestamp": clock}
            events += [{"type": "message_start", "message": m}, {"type": "message_end", "message": m}]
            ended.append(m)
            results.append(m)
        events.append({"type": "turn_end", "turn": turn, "message": assistant, "toolResults": results})
    events.append({"type": "agent_end", "messages": ended})
    return events, copy.deepcopy(ended)


def response(events: list[Any], messages: list[Any]) -> dict[str, Any]:
    return {"sessionId": "s1", "messages": messages, "events": events, "tools": [], "entries": []}


def indices(items: list[Any], pred: Any) -> list[int]:
    return [i for i, e in enumerate(items) if pred(e)]


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.integers(min_value=1, max_value=2**63))
def test_valid_runs_pass(seed: int) -> None:
    events, messages = run(seed)
    assert ac.check_event_sequence(events) == events
    assert ac.check_session_response(response(events, messages)) == response(events, messages)


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(st.integers(min_value=1, max_value=2**63), st.integers(min_value=1, max_value=2**63), st.integers(0, 5))
def test_one_mutation_gives_its_code(seed: int, pick: int, which: int) -> None:
    events, messages = run(seed)
    below = rng(pick)
    if which == 0:
        events.pop()
        got, expected = ac.safe_check_event_sequence(events), ("EVENT_SEQUENCE_INVALID", "")
    elif which == 1:
        starts = indices(events, lambda e: e["type"] == "turn_start")
        i = starts[below(len(starts))]
        events[i] = dict(events[i], turn=events[i]["turn"] + 1)
        got, expected = ac.safe_check_event_sequence(events), ("EVENT_SEQUENCE_INVALID", f"/{i}")
    elif which == 2:
        starts = indices(events, lambda e: e["type"] == "message_start")
        i = starts[below(len(starts))]
        del events[i]
        got, expected = ac.safe_check_event_sequence(events), ("EVENT_SEQUENCE_INVALID", f"/{i}")
    elif which == 3:
        execs = indices(events, lambda e: e["type"] in ("tool_execution_start", "tool_execution_end"))
        if not execs:
            return
        i = execs[below(len(execs))]
        events[i] = dict(events[i], toolName="rm")
        got, expected = ac.safe_check_event_sequence(events), ("EVENT_SEQUENCE_INVALID", f"/{i}")
    elif which == 4:
        del messages[0]
        at = indices(events, lambda e: e["type"] == "message_end")[0]
        got, expected = ac.safe_check_session_response(response(events, messages)), ("EVENT_MESSAGE_UNKNOWN", f"/events/{at}/message")
    else:
        results = indices(messages, lambda m: m["role"] == "toolResult")
        if not results:
            return
        i = results[below(len(results))]
        messages[i] = dict(messages[i], toolCallId="nowhere")
        got = ac.safe_check_session_response(response(events, messages))
        expected = ("TOOL_RESULT_UNMATCHED", f"/messages/{i}/toolCallId")
    assert got["ok"] is False
    assert (got["error"].code, got["error"].path) == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["type", "turn", "message", "messages", "x"]), inner, max_size=4),
    max_leaves=20,
)


@settings(**SETTINGS)  # type: ignore[arg-type]
@given(JSON)
def test_random_values_give_a_verdict(value: Any) -> None:
    for f in (ac.safe_parse_agent_event, ac.safe_check_event_sequence, ac.safe_check_session_response):
        r = f(value)
        assert r["ok"] is True or isinstance(r["error"], ac.ContractError)
