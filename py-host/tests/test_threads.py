"""The module is safe to call from several threads at once (one wasmtime Store per thread)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import agent_contract as ac

THREADS = 8
CALLS = 400


def worker(n: int, start: threading.Barrier) -> int:
    start.wait()
    checked = 0
    for i in range(CALLS):
        tag = f"t{n}-{i}-" + "é" * (i % 7)
        action = {"type": "tool_call", "callId": tag, "tool": "t", "input": {"n": n, "i": i, "pad": ["x"] * (i % 50)}}
        assert ac.parse_agent_action(action) == action
        assert ac.parse_agent_action_json(f'{{"type": "finish", "summary": "{tag}"}}')["summary"] == tag
        try:
            ac.parse_agent_action({"type": "message", "content": " " * (i % 3)})
            raise AssertionError("blank content accepted")
        except ac.ContractError as e:
            assert (e.code, e.path) == ("FIELD_EMPTY", "/content")
        tool = ac.define_tool({"name": f"tool_{n}_{i}", "description": f" {tag} ", "inputSchema": {}, "permission": "read"})
        assert (tool["name"], tool["description"]) == (f"tool_{n}_{i}", tag)
        outcomes = ac.parse_agent_actions([action, n])
        assert outcomes[0]["value"] == action and outcomes[1]["error"].code == "ACTION_NOT_OBJECT"  # type: ignore[typeddict-item]
        checked += 5
    return checked


def test_concurrent_calls_from_eight_threads() -> None:
    start = threading.Barrier(THREADS)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(worker, range(THREADS), [start] * THREADS))
    assert results == [CALLS * 5] * THREADS
