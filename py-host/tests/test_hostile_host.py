"""Hostile host values and texts (P1-P4 below): whatever the caller's value does, every public
function returns its result or raises ContractError, in time bounded by the limits, and the
instance stays small. Each test asserts the exact code and path; the time bounds (one second,
far above the measured times) are the benchmark command's (timing.py), growth is asserted here."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import agent_contract as ac
from agent_contract import _runtime
from agent_contract._host_text import write
from timing import assert_flat, assert_growth, within

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

from hostile_values import Boom, ClaimsStr, ClaimsBytes, HostileStr, HostileBytes, Nameless, released  # noqa: E402

# Every case here is small or stopped by a budget; one second is the bound the
# package promises for any input at the default limits.
SECOND = 1.0


def tool_call(input_value: object) -> dict[str, object]:
    return {"type": "tool_call", "callId": "c1", "tool": "t", "input": input_value}


TOOL = {"name": "t", "description": "d", "inputSchema": {}, "permissions": ["read"]}


def timed_error(fn: Callable[..., Any], *args: Any) -> ac.ContractError:
    """The ContractError `fn(*args)` raises, checked to come within SECOND."""
    start = time.perf_counter()
    with pytest.raises(ac.ContractError) as info:
        fn(*args)
    within(SECOND, time.perf_counter() - start, fn.__name__)
    return info.value


def timed(fn: Callable[..., Any], *args: Any) -> Any:
    start = time.perf_counter()
    result = fn(*args)
    within(SECOND, time.perf_counter() - start, fn.__name__)
    return result


@pytest.fixture(autouse=True)
def compiled_instance() -> None:
    """Compiling the component and starting this thread's instance is not part of any timing."""
    ac.parse_json("1")


def memory_bytes() -> int:
    return _runtime._instance().memory_bytes()


# --- P1: the caller's value never raises through --------------------------------------------


TEXT_FUNCTIONS = [
    ac.parse_agent_action_json,
    ac.define_tool_json,
    ac.parse_json,
    ac.parse_decision_json,
    ac.parse_agent_actions_jsonl,
    lambda text: ac.validate_tool_input_json(TOOL, text),
]


@pytest.mark.parametrize("make", [released, ClaimsStr, ClaimsBytes], ids=["released memoryview", "claims str", "claims bytes"])
def test_unreadable_text_is_not_text(make: Callable[[], Any]) -> None:
    # A text function given something that is not text: the core's JSON_INVALID at "", as for
    # None or 42 (Node answers the same for a revoked Proxy).
    for fn in TEXT_FUNCTIONS:
        e = timed_error(fn, make())
        assert (e.layer, e.code, e.path) == ("parse", "JSON_INVALID", "")
    assert ac.safe_parse_json(make())["ok"] is False
    e = timed_error(ac.assemble_provider_stream, "anthropic", make())
    assert (e.layer, e.code, e.path) == ("stream", "STREAM_EVENT_INVALID", "")


def test_subclasses_of_text_are_read_as_their_contents() -> None:
    text = '{"type": "finish", "summary": "done"}'
    for arg in [HostileStr(text), HostileBytes(text.encode())]:
        assert ac.parse_agent_action_json(arg) == {"type": "finish", "summary": "done"}
        assert ac.parse_json(arg) == {"type": "finish", "summary": "done"}
        assert ac.validate_tool_input_json(TOOL, arg) == {"type": "finish", "summary": "done"}
    sse = "event: ping\ndata: {\"type\": \"ping\"}\n\n"
    with ac.create_provider_assembler("anthropic") as assembler:
        assembler.push_sse(HostileStr(sse))
        assembler.push_sse(HostileBytes(sse.encode()))
    lines = [HostileStr("event: ping"), HostileBytes(b'data: {"type": "ping"}'), HostileStr("")]
    e = timed_error(ac.assemble_sse_lines, "anthropic", lines)
    assert e.code == "INCOMPLETE_RESPONSE"  # read whole: the stream just never ended


def test_a_metaclass_whose_name_raises_is_not_json() -> None:
    e = timed_error(ac.parse_agent_action, tool_call({"a": Nameless()}))
    assert (e.code, e.path) == ("VALUE_NOT_JSON", "/input/a")
    e = timed_error(ac.parse_agent_action, tool_call({"a": Nameless}))  # the class itself
    assert (e.code, e.path) == ("VALUE_NOT_JSON", "/input/a")
    assert write([Nameless()], 128, 1 << 20) == "[!Nameless]"


def test_options_keys_that_compare_hostile() -> None:
    class Collides:
        armed = False

        def __hash__(self) -> int:
            return hash("maxBytes")

        def __eq__(self, other: object) -> bool:
            if Collides.armed:
                raise Boom
            return False

    options = {Collides(): 1, "maxBytes": 10}
    Collides.armed = True
    e = timed_error(ac.parse_agent_action, {"type": "finish", "summary": "s"}, options)
    assert (e.code, e.path) == ("OPTION_INVALID", "")
    e = timed_error(ac.parse_json, "[1]", options)
    assert (e.code, e.path) == ("OPTION_INVALID", "")


@pytest.mark.parametrize("lines", [None, 5, Nameless()], ids=["None", "5", "nameless"])
def test_sse_lines_that_are_not_iterable(lines: Any) -> None:
    e = timed_error(ac.assemble_sse_lines, "anthropic", lines)
    assert (e.layer, e.code, e.path) == ("stream", "STREAM_EVENT_INVALID", "")

    async def run() -> Any:
        return await ac.assemble_sse_lines_async("anthropic", lines)

    with pytest.raises(ac.ContractError) as info:
        asyncio.run(run())
    assert (info.value.layer, info.value.code, info.value.path) == ("stream", "STREAM_EVENT_INVALID", "")


def test_sse_lines_whose_iterator_raises() -> None:
    def lines() -> Any:
        yield "event: ping"
        raise Boom

    e = timed_error(ac.assemble_sse_lines, "anthropic", lines())
    assert (e.layer, e.code, e.path) == ("stream", "STREAM_EVENT_INVALID", "")

    async def alines() -> Any:
        yield "event: ping"
        raise Boom

    async def run() -> Any:
        return await ac.assemble_sse_lines_async("anthropic", alines())

    with pytest.raises(ac.ContractError) as info:
        asyncio.run(run())
    assert (info.value.code, info.value.path) == ("STREAM_EVENT_INVALID", "")
    e = timed_error(ac.assemble_sse_lines, "anthropic", ["event: ping", released()])
    assert (e.code, e.path) == ("STREAM_EVENT_INVALID", "")


# --- P2: cycles and shared references -------------------------------------------------------


def test_a_cycle_is_value_cycle_where_it_is_read() -> None:
    twice: list[Any] = []
    twice.append(twice)
    twice.append(twice)
    e = timed_error(ac.parse_agent_action, tool_call(twice))
    assert (e.code, e.path) == ("VALUE_CYCLE", "/input/0")
    itself: dict[str, Any] = {}
    itself["self"] = itself
    e = timed_error(ac.parse_agent_action, tool_call(itself))
    assert (e.code, e.path) == ("VALUE_CYCLE", "/input/self")
    assert write(itself, 128, 1 << 20) == '{"self":!!cycle}'
    assert write(twice, 128, 1 << 20) == "[!!cycle,!!cycle]"


def test_a_cyclic_policy_is_fast() -> None:
    rules: list[Any] = []
    rules.append(rules)
    rules.append(rules)
    e = timed_error(ac.define_policy, {"rules": rules})
    assert (e.code, e.path) == ("POLICY_INVALID", "/rules/0")


def test_a_shared_value_is_not_a_cycle() -> None:
    shared = {"k": [1, 2, 3]}
    out = timed(ac.parse_agent_action, tool_call([shared, shared, {"again": shared}]))["input"]
    assert out == [shared, shared, {"again": shared}]
    assert out[0] is not out[1]  # the result is a fresh copy per place


def test_shared_references_are_counted_each_time_and_stopped_by_the_budget() -> None:
    square = [[0] * 65536] * 65536  # 2^32 values written, 64 KiB of Python objects
    before = memory_bytes()
    e = timed_error(ac.parse_agent_action, tool_call(square))
    assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")
    assert memory_bytes() - before < 16 << 20
    bomb: Any = {"leaf": "x" * 8}
    for _ in range(64):
        bomb = {"left": bomb, "right": bomb}  # 2^64 values written
    for fn in (ac.define_policy, ac.strict_schema_issues, ac.create_registry):
        e = timed_error(fn, bomb)
        assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")
    e = timed_error(ac.parse_agent_actions, [tool_call(bomb)] * 1000)
    assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")


def test_a_shared_value_within_the_budget_is_written_whole() -> None:
    row = list(range(1000))
    table = [row] * 100  # 10^5 values, one row of Python objects
    out = timed(ac.parse_agent_action, tool_call(table))["input"]
    assert out == table
    # Reused text keeps the depth rule: the same container deeper than the limit is a marker.
    nested = {"a": {"b": row}}
    text = write([nested, [[nested]]], 4, 1 << 20)
    assert text.count("!!{") == 1 and text.startswith('[{"a":{"b":[0,1,2')


def test_text_written_again_is_charged_as_the_core_reads_it() -> None:
    # JS reads a shared value in place and the core charges every read; Python writes it out.
    # A long string or a container met again is charged the same way (a unit per value, a
    # string's length), within maxBytes and 1 Mi more: before, a request sharing one string
    # was expanded up to the characters budget of the maxBytes ceiling (538 M characters,
    # over 6 GB of process memory).
    import tracemalloc

    def refused_within_memory(prompt: list[Any]) -> None:
        tracemalloc.start()
        try:
            e = timed_error(ac.admit_prompt, {"sessionId": "s", "prompt": prompt}, {"image": True})
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")
        assert peak < 256 << 20, peak  # what the budgets admit, not gigabytes of copies

    text = "A" * 1_000_000
    remembered = {"type": "text", "text": text, "pad": list(range(20))}  # a container written once
    refused_within_memory([{"type": "text", "text": text}] * 1000)
    refused_within_memory([remembered] * 1000)
    # A request of many values (shared containers) is refused at the default limits' count of
    # values, not written up to the ceiling's 32 Mi and held as a tree (over 6 GB).
    grid = [[0] * 1000] * 1000  # 10^6 values; 30 of them fit the shared budget, not the count
    refused_within_memory([{"type": "text", "text": "x", "_meta": {"grid": grid}}] * 30)
    # The first time is the caller's own text; five more reads of 1 MB fit 4 MiB + 1 Mi, six do
    # not (the core refuses more than 4 MiB read in all anyway: the writer only bounds memory).
    assert write([text] * 6, 128, 4 << 20) == "[" + ",".join(['"' + text + '"'] * 6) + "]"
    assert write([text] * 7, 128, 4 << 20) == "!!large"
    assert write([remembered] * 6, 128, 4 << 20).count(text) == 6
    assert write([remembered] * 7, 128, 4 << 20) == "!!large"


# --- P3: linear on the host side ------------------------------------------------------------


def test_writing_a_large_object_is_linear() -> None:
    def writing(n: int):  # type: ignore[no-untyped-def]
        value = {f"key{i}": i for i in range(n)}
        return lambda: write(value, 128, 64 << 20)

    assert_growth(writing, 16384, 4, 8.0)  # 4x the members: ~4x the time, not 16x


# --- P4: text that is not valid Unicode crosses in one copy ----------------------------------


def test_a_lone_surrogate_in_a_megabyte_of_text() -> None:
    text = '["' + "a" * (1 << 20) + '\ud800"]'
    e = timed_error(ac.parse_json, text)
    assert (e.code, e.path) == ("STRING_LONE_SURROGATE", "/0")
    assert e.position == {"offset": 2 + (1 << 20), "line": 1, "column": 3 + (1 << 20)}


def test_one_invalid_byte_in_four_megabytes() -> None:
    data = b'["' + b"a" * (4 << 20) + b'\xff"]'
    options = {"maxBytes": 8 << 20}
    e = timed_error(ac.parse_json, data, options)
    assert (e.code, e.path) == ("JSON_INVALID", "/0")
    assert e.position == {"offset": 2 + (4 << 20), "line": 1, "column": 3 + (4 << 20)}
    e = timed_error(ac.validate_tool_input_json, TOOL, bytearray(data), options)
    assert (e.code, e.path, e.position["offset"]) == ("JSON_INVALID", "/0", 2 + (4 << 20))  # type: ignore[index]
    # Every byte value crosses exactly: the core sees invalid UTF-8 where it is.
    e = timed_error(ac.parse_json, b'"\x00\x7f\x80\xc3"')
    assert (e.code, e.position["offset"]) == ("JSON_INVALID", 1)  # type: ignore[index]
    e = timed_error(ac.parse_json, b'"\xc3\xa9\xc3"')
    assert (e.code, e.position["offset"]) == ("JSON_INVALID", 3)  # type: ignore[index]


def test_invalid_sse_bytes_cross_in_one_copy() -> None:
    chunk = b"data: " + b"a" * (4 << 20) + b"\xff\n\n"
    start = time.perf_counter()
    with ac.create_provider_assembler("anthropic", {"maxResponseBytes": 16 << 20}) as assembler:
        try:
            assembler.push_sse(chunk)
        except ac.ContractError:
            pass
        with pytest.raises(ac.ContractError) as info:
            assembler.finish()
    within(SECOND, time.perf_counter() - start)
    assert info.value.layer == "transport"


# --- sizes checked before copying -------------------------------------------------------------


@pytest.mark.parametrize("kind", [str, bytes, bytearray, memoryview])
def test_text_over_max_bytes_is_refused_from_a_stand_in(kind: type) -> None:
    size = 48 << 20
    text: Any = "[" + "1," * (size // 2) + "1]"
    if kind is not str:
        text = kind(text.encode())
    before = memory_bytes()
    for fn in (ac.parse_json, ac.parse_agent_action_json, ac.parse_decision_json, ac.define_tool_json):
        e = timed_error(fn, text)
        assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")
        assert e.position == {"offset": 4 << 20, "line": 1, "column": (4 << 20) + 1}
    e = timed_error(ac.validate_tool_input_json, TOOL, text, {"maxBytes": 1000})
    assert (e.code, e.path, e.position) == ("INPUT_TOO_LARGE", "", {"offset": 1000, "line": 1, "column": 1001})
    assert memory_bytes() - before < 8 << 20


@pytest.mark.parametrize("kind", [str, bytes])
def test_text_over_max_bytes_is_refused_in_time_that_does_not_grow_with_it(kind: type) -> None:
    def over(n: int):  # type: ignore[no-untyped-def]
        text = "[" + "1," * n + "1]"
        arg = text if kind is str else text.encode()
        return lambda: ac.parse_json(arg, {"maxBytes": 1000})

    assert_flat(over, 1 << 19)


def test_the_stand_in_keeps_the_position_of_the_whole_text() -> None:
    # Lines before the limit, multi-byte characters cut at it: the position is the core's on
    # the bytes before the limit, the same as for the whole text.
    text = "[\n" + '"é€😀",\n' * 10 + '"' + "é" * 100 + '"]'
    for arg in (text, text.encode()):
        e = timed_error(ac.parse_json, arg, {"maxBytes": 150})
        assert (e.code, e.path) == ("INPUT_TOO_LARGE", "")
        assert e.position == {"offset": 150, "line": 12, "column": 150 - len(("[\n" + '"é€😀",\n' * 10).encode()) + 1}
    # Under the limit in characters but over it in bytes: the core sees it all.
    e = timed_error(ac.parse_json, '"' + "€" * 100 + '"', {"maxBytes": 150})
    assert (e.code, e.position["offset"]) == ("INPUT_TOO_LARGE", 150)  # type: ignore[index]


# --- memory -------------------------------------------------------------------------------------


def test_an_instance_grown_past_the_bound_is_replaced() -> None:
    ac.parse_json("[]")
    first = _runtime._local.instance
    assembler = ac.create_provider_assembler("anthropic")
    assembler.push_sse("event: ping\n")
    big = '{"type": "message", "content": "' + "a" * (30 << 20) + '"}'  # the core's memory grows past 64 MiB
    options = {"maxBytes": 64 << 20, "maxStringBytes": 64 << 20}
    assert len(ac.parse_agent_action_json(big, options)["content"]) == 30 << 20
    assert _runtime._local.instance is not first  # replaced after the call
    assert memory_bytes() <= _runtime.MEMORY_BOUND
    # The live assembler keeps the instance its resource lives in, and goes on working.
    assembler.push_sse('data: {"type": "ping"}\n\n')
    with pytest.raises(ac.ContractError) as info:
        assembler.finish()
    assert info.value.code == "INCOMPLETE_RESPONSE"
    assembler.close()


def test_memory_stays_small_within_the_default_limits() -> None:
    for call in [
        lambda: ac.parse_json("[" + "0," * (1 << 20) + "0]"),
        lambda: ac.parse_agent_action(tool_call([[0] * 65536] * 65536)),
        lambda: ac.parse_agent_action(tool_call(["x" * 1000] * 1000)),
        # A report per line or row, as many as maxArrayLength allows: written out one by one,
        # never all held as values (~1 KB each: ~80 MB).
        lambda: ac.check_chat_rows_jsonl("\n" * 65536),
        lambda: ac.check_chat_rows([[]] * 65536),
    ]:
        instance = _runtime._instance()  # the one the call runs in
        try:
            call()
        except ac.ContractError:
            pass
        assert instance.memory_bytes() <= _runtime.MEMORY_BOUND


def test_memory_past_1_mb_grows_at_most_48_mib_per_mb() -> None:
    # docs/decisions.md, "The memory bound": the core holds a value as a tree (and, from a
    # Python value, its host text and the copy it validates), so past 1 MB the bound grows with
    # the input. The heaviest per MB known in Python: a tool input of 2 MB of zeros, ~27 MiB per
    # MB past the first (93 MiB).
    tool = ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": {"type": "object"}})
    value = {"v": [[0] * 65536] * 16}
    size = len(write(value, 128, 64 << 20))
    _runtime._local.instance = None
    instance = _runtime._instance()  # fresh: the call runs in it (no room to make)
    ac.validate_tool_input(tool, value)
    memory, bound = instance.memory_bytes(), _runtime.MEMORY_BOUND + (size - (1 << 20)) * 48
    assert memory > _runtime.MEMORY_BOUND, "the case no longer shows the growth"
    assert memory <= bound, f"the call left its instance at {memory} bytes, over {bound}"


def test_a_replaced_instance_is_freed_at_once() -> None:
    # wasmtime-py keeps a host function's callable until its store is dropped. The resource
    # intrinsics were methods of the core, so every replaced instance stayed alive with its
    # whole memory: a process grew by ~85 MB per replacement (1.8 GB after 20 large batches).
    import weakref

    batch = [{"type": "message", "content": "x" * 1000}] * 20000  # leaves its instance past 32 MiB
    for _ in range(3):
        old = weakref.ref(_runtime._instance().core)
        ac.parse_agent_actions(batch)
        assert _runtime._instance().core is not old(), "the case no longer replaces the instance"
        assert old() is None, "the replaced instance is still alive"


def test_an_instance_any_call_left_over_32_mib_is_replaced() -> None:
    # A wasm memory never shrinks: an instance a raised-limits call left at 50 MiB (under 64,
    # so it used to be kept) took a later call at the default limits to 69 MiB in the Node
    # fuzzer's 10^6 run. Now every call starts in an instance of at most 32 MiB, which leaves a
    # default-limit call its 32 MiB of room; stateful objects' methods are checked the same.
    raised = {"maxBytes": 64 << 20, "maxStringBytes": 64 << 20}
    _runtime._local.instance = None  # a fresh instance: the sizes below are a fresh one's
    first = _runtime._instance()
    assert len(ac.parse_agent_action({"type": "message", "content": "x" * (5 << 20)}, raised)["content"]) == 5 << 20
    assert 32 << 20 < first.memory_bytes() < 64 << 20
    assert _runtime.current_instance() is None  # replaced (it used to be kept)
    # A method: a decoder's 30 MiB line (raised maxLineBytes) is held in the decoder's instance.
    second = _runtime._instance()
    decoder = ac.create_ndjson_decoder({"maxLineBytes": 64 << 20})
    assert decoder.push('{"jsonrpc":"2.0","method":"m","params":["' + "y" * (30 << 20)) == []
    assert second.memory_bytes() > 32 << 20
    assert _runtime.current_instance() is None
    # The decoder goes on in the instance it lives in; new calls use a fresh one.
    frames = decoder.push('"]}\n')
    assert [(f["kind"], len(f["message"]["params"][0])) for f in frames] == [("notification", 30 << 20)]
    decoder.close()
    assert ac.parse_json("[1]") == [1]
    assert _runtime.current_instance() not in (None, first, second)
    assert _runtime.current_instance().memory_bytes() < 32 << 20  # type: ignore[union-attr]


@pytest.mark.parametrize("batch", ["jsonl", "actions", "inputs"])
def test_a_batch_gets_room_for_its_reply_first(batch: str) -> None:
    # A batch's reply needs ~650 bytes per item while the core writes it (65,535 failed JSON
    # Lines: +40 MiB), more than the 32 MiB an instance may start a call with. Before a batch
    # the instance is replaced when it lacks the room; a small batch keeps it.
    tool = ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": {"type": "object"}})
    call = {
        "jsonl": lambda n: ac.parse_agent_actions_jsonl("\n" * n),
        "actions": lambda n: ac.parse_agent_actions([{}] * n),
        "inputs": lambda n: ac.validate_tool_inputs(tool, [1] * n),
    }[batch]
    _runtime._local.instance = None
    held = _runtime._instance()
    ac.parse_agent_action({"type": "message", "content": "x" * (3 << 20)}, {"maxBytes": 64 << 20, "maxStringBytes": 64 << 20})
    before = held.memory_bytes()
    assert 20 << 20 < before < 32 << 20 and _runtime.current_instance() is held
    assert len(call(10)) == 10 and _runtime.current_instance() is held
    made = []
    fresh = _runtime._Instance.__init__

    def record(self: Any) -> None:
        fresh(self)
        made.append(self)

    _runtime._Instance.__init__ = record  # type: ignore[method-assign]
    try:
        assert len(call(65535)) == 65535
    finally:
        _runtime._Instance.__init__ = fresh  # type: ignore[method-assign]
    # Replaced before the call (the held instance did not grow), which ran in a fresh one.
    assert held.memory_bytes() == before and _runtime.current_instance() is not held
    assert made and made[0].memory_bytes() < _runtime.MEMORY_BOUND


def test_options_holding_shared_references_are_read_by_their_names() -> None:
    # The Python fuzzer's one slow call (1.1 s on 635 bytes): options whose unknown member held
    # nested shared references were written like a value, expanded to ~2 Mi values before the
    # core saw the name. Options are written two levels deep (every option is a scalar), so the
    # answer is JS's, at once.
    shared: Any = [0]
    for _ in range(40):
        shared = [shared, shared]
    action = {"type": "finish", "summary": "s"}
    for options, path, message in [
        ({"bogus": shared}, "/bogus", 'unknown option "bogus"'),
        ({"maxBytes": 100, "bogus": shared}, "/bogus", 'unknown option "bogus"'),
        ({"strict": shared}, "/strict", "strict must be a boolean"),
    ]:
        started = time.perf_counter()
        with pytest.raises(ac.ContractError) as info:
            ac.parse_agent_action(action, options)
        within(SECOND, time.perf_counter() - started)
        assert (info.value.code, info.value.path, info.value.message) == ("OPTION_INVALID", path, message)


def test_the_calls_limits_never_cut_the_tool() -> None:
    # The tool is configuration, read under the ceilings whatever the call's maxDepth: written
    # under the input's limits, its schema's deeper keywords became depth markers the core read
    # as empty containers, and {} passed a schema that requires `path`. Every path that sends
    # the tool: a plain dict, the batch, and a Tool used from a thread whose instance does not
    # hold its compiled schema.
    import threading

    tool = {"name": "t", "description": "A tool.", "permission": "read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["path"]}}
    for depth in (1, 2, 3):
        options = {"maxDepth": depth}
        for outcome in (ac.safe_validate_tool_input(tool, {}, options), ac.safe_validate_tool_input_json(tool, "{}", options), *ac.validate_tool_inputs(tool, [{}], options)):
            assert not outcome["ok"] and outcome["error"].code == "SCHEMA_MISMATCH"
            assert [(i["path"], i["keyword"]) for i in outcome["error"].issues] == [("/path", "required")]
    defined = ac.define_tool(tool)
    found: list[Any] = []
    thread = threading.Thread(target=lambda: found.append(ac.safe_validate_tool_input(defined, {"path": "../x"}, {"maxDepth": 2})))
    thread.start()
    thread.join()
    assert [(i["path"], i["keyword"]) for i in found[0]["error"].issues] == [("/path", "pattern")]


def test_a_value_the_core_accepted_is_decoded_on_a_deep_stack() -> None:
    # The core accepts nesting up to its maxDepth ceiling (512); the host decodes the accepted
    # text with json's scanner, one Python recursion level per nesting level. A caller already
    # 600 frames deep got a RecursionError, from the safe_ forms too.
    text = "[" * 512 + "0" + "]" * 512
    nested: Any = 0
    for _ in range(510):
        nested = {"a": nested}
    tool = {"name": "t", "description": "d", "permission": "read", "inputSchema": {}}

    def at_depth(n: int, f: Callable[[], Any]) -> Any:
        return f() if n == 0 else at_depth(n - 1, f)

    depth = sys.getrecursionlimit() - 400
    assert at_depth(depth, lambda: ac.parse_json(text, {"maxDepth": 512})) == ac.parse_json(text, {"maxDepth": 512})
    assert at_depth(depth, lambda: ac.safe_validate_tool_input(tool, nested, {"maxDepth": 512}))["value"] == nested
    action = {"type": "tool_call", "callId": "c", "tool": "t", "input": nested}
    assert at_depth(depth, lambda: ac.safe_parse_agent_action(action, {"maxDepth": 512}))["value"] == action
