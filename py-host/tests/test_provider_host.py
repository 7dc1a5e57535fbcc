"""Provider streams from Python: ProviderAssembler's push / push_sse / preview /
finish / close, assemble_sse_lines, the errors a host can cause, and memory: many assemblers at
once do not interfere, 100,000 created and dropped do not grow the wasm memory."""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

import pytest

import agent_contract as ac
from agent_contract import _runtime


def chunk(o: Any) -> str:
    return f"data: {json.dumps(o, ensure_ascii=False)}\n\n"


def start(id: str, name: str) -> dict[str, Any]:
    return {"id": "r", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": id, "function": {"name": name, "arguments": ""}}]}}]}


def args(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": text}}]}}]}


def fin(reason: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


SSE = "".join([chunk(start("c1", "read_file")), chunk(args('{"path":"東京/')), chunk(args('😀.txt"}')), chunk(fin("tool_calls")), "data: [DONE]\n\n"])
EXPECTED = {"responseId": "r", "finishReason": "tool_calls", "calls": [{"callId": "c1", "name": "read_file", "arguments": {"path": "東京/😀.txt"}}]}


def test_push_sse_takes_str_and_bytes_split_anywhere() -> None:
    data = SSE.encode()
    for size in (1, 2, 3, 5, 7, 64):
        with ac.ProviderAssembler("openai-chat") as a:
            for i in range(0, len(data), size):
                a.push_sse(data[i : i + size])
            assert a.finish() == EXPECTED, size
            assert a.finish() == EXPECTED
    with ac.ProviderAssembler("openai-chat") as a:
        for i in range(0, len(SSE), 3):
            a.push_sse(SSE[i : i + 3])
        assert a.finish() == EXPECTED
    assert ac.assemble_provider_stream("openai-chat", SSE) == EXPECTED
    assert ac.assemble_provider_stream("openai-chat", bytearray(data)) == EXPECTED


def test_push_takes_payloads_and_payload_texts() -> None:
    with ac.create_provider_assembler("openai-chat") as a:
        a.push(start("c1", "read_file"))
        a.push(json.dumps(args('{"path":"東京/')))
        a.push(args('😀.txt"}'))
        a.push(fin("tool_calls"))
        a.push("[DONE]")
        assert a.finish() == EXPECTED
    events = [start("c1", "read_file"), args('{"path":"東京/'), args('😀.txt"}'), fin("tool_calls"), "[DONE]"]
    assert ac.assemble_provider_stream("openai-chat", events) == EXPECTED


def test_preview_is_never_executable() -> None:
    with ac.ProviderAssembler("openai-chat") as a:
        a.push_sse(chunk(start("c1", "read_file")) + chunk(args('{"pa')))
        assert a.preview() == {"responseId": "r", "executable": False, "finishReason": None,
                               "calls": [{"callId": "c1", "name": "read_file", "argumentsText": '{"pa', "complete": False}]}
        with pytest.raises(ac.ContractError) as e:
            a.finish()
        assert (e.value.layer, e.value.code) == ("stream", "INCOMPLETE_RESPONSE")


def test_first_error_is_final() -> None:
    with ac.ProviderAssembler("anthropic") as a:
        for call in (lambda: a.push_sse('data: {"type":\n\n'), lambda: a.push({"type": "ping"}), a.finish):
            with pytest.raises(ac.ContractError) as e:
                call()
            assert (e.value.layer, e.value.code) == ("transport", "JSON_INVALID")


def test_host_mistakes_are_contract_errors() -> None:
    with ac.ProviderAssembler("openai-chat") as a:
        with pytest.raises(ac.ContractError) as e:
            a.push_sse(42)  # type: ignore[arg-type]
        assert (e.value.layer, e.value.code, e.value.path) == ("stream", "STREAM_EVENT_INVALID", "")
        with pytest.raises(ac.ContractError):
            a.push_sse("")
    with ac.ProviderAssembler("openai-chat") as b:
        with pytest.raises(ac.ContractError) as e:
            b.push({"id": "r", "choices": [{"index": float("nan")}]})
        assert (e.value.layer, e.value.code, e.value.path) == ("transport", "VALUE_NOT_JSON", "/choices/0/index")
    for bad in ("openai", None, 3):
        with pytest.raises(ac.ContractError) as e:
            ac.ProviderAssembler(bad)
        assert (e.value.layer, e.value.code) == ("contract", "PROVIDER_UNKNOWN")
    with pytest.raises(ac.ContractError) as e:
        ac.ProviderAssembler("gemini", {"maxBytes": 1})  # type: ignore[typeddict-unknown-key]
    assert (e.value.code, e.value.path) == ("OPTION_INVALID", "/maxBytes")
    with pytest.raises(ac.ContractError) as e:
        ac.assemble_provider_stream("anthropic", 7)
    assert e.value.code == "STREAM_EVENT_INVALID"
    safe = ac.safe_assemble_provider_stream("anthropic", {})
    assert safe["ok"] is False and isinstance(safe["error"], ac.ContractError)


def test_assemble_sse_lines_with_and_without_line_ends() -> None:
    lines = SSE.split("\n")[:-1]  # as httpx's iter_lines() gives them
    assert ac.assemble_sse_lines("openai-chat", iter(lines)) == EXPECTED
    kept = SSE.encode().splitlines(keepends=True)  # as a file or aiohttp gives them
    assert ac.assemble_sse_lines("openai-chat", kept) == EXPECTED
    crlf = [line + "\r\n" for line in lines]
    assert ac.assemble_sse_lines("openai-chat", crlf) == EXPECTED


def test_assemble_sse_lines_async() -> None:
    async def lines() -> Any:
        for line in SSE.encode().split(b"\n")[:-1]:
            await asyncio.sleep(0)
            yield line

    assert asyncio.run(ac.assemble_sse_lines_async("openai-chat", lines())) == EXPECTED

    async def bad() -> Any:
        yield "data: nope"
        yield ""

    with pytest.raises(ac.ContractError) as e:
        asyncio.run(ac.assemble_sse_lines_async("openai-chat", bad()))
    assert (e.value.layer, e.value.code) == ("transport", "JSON_INVALID")


def test_assemble_sse_lines_stops_at_the_first_error() -> None:
    consumed = []

    def lines() -> Any:
        for line in ["data: nope", "", "data: {}", ""] + ["data: more", ""] * 100_000:
            consumed.append(line)
            yield line

    with pytest.raises(ac.ContractError) as e:
        ac.assemble_sse_lines("openai-chat", lines())
    assert (e.value.layer, e.value.code) == ("transport", "JSON_INVALID")
    assert len(consumed) < 20_000  # batches of ~64 KB, not the whole iterator


def test_provider_assemblers_do_not_interfere() -> None:
    a, b = ac.ProviderAssembler("openai-chat"), ac.ProviderAssembler("openai-chat")
    a.push_sse(chunk(start("a1", "read_file")))
    b.push_sse(chunk(start("b1", "write_file")))
    a.push_sse(chunk(args('{"n":1}')))
    b.push_sse(chunk(args('{"n":2}')))
    with pytest.raises(ac.ContractError) as e:
        b.push_sse(chunk(fin("length")))
    assert e.value.code == "INCOMPLETE_RESPONSE"
    a.push_sse(chunk(fin("tool_calls")))
    assert a.finish()["calls"] == [{"callId": "a1", "name": "read_file", "arguments": {"n": 1}}]
    a.close()
    b.close()
    with pytest.raises(ac.ContractError) as e:
        a.push_sse("")
    assert (e.value.layer, e.value.code, e.value.path, e.value.retryable) == ("contract", "OBJECT_FREED", "", False)


def memory() -> int:
    return _runtime.assembler_instance().memory_bytes()


def test_100k_provider_assemblers_closed_or_dropped_do_not_grow_memory() -> None:
    text = chunk(start("c", "read_file")) + chunk(args('{"path":"' + "x" * 200 + '"}'))
    for _ in range(1000):
        with ac.ProviderAssembler("openai-chat") as a:
            a.push_sse(text)
    before = memory()
    for _ in range(100_000):
        with ac.ProviderAssembler("openai-chat") as a:
            a.push_sse(text)
    assert memory() - before <= 1 << 20, (before, memory())
    gc.collect()
    for _ in range(100_000):
        ac.ProviderAssembler("openai-chat").push_sse(text)  # never closed: freed on the next call
    gc.collect()
    ac.ProviderAssembler("openai-chat").close()
    assert memory() - before <= 1 << 20, (before, memory())
