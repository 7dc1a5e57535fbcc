"""A fuzzer of hostile Python values and texts over every public function of agent_contract and
its modules agent_contract.mcp and agent_contract.ray, and every method of the objects they return.

The promise it checks, the one the package makes to a caller whose input is hostile: every public
function, on any input, returns its result or raises ContractError (the `safe_*` functions and
`preview_action` never raise), in under a second per MB (a second on inputs up to 1 MB), and a call with the default
limits on an input of at most 1 MB leaves the instance it ran in under the memory bound (64 MiB).
Anything else that escapes is counted, with the generator that made the input, and printed.

Documented programmer errors are not escapes: using a closed assembler, or one from another
thread (RuntimeError), and `Boom` raised by our own hostile objects *outside* the package.

Short run (part of the test command): `py-host/tests/test_fuzz_short.py`. Long run:

    .venv/bin/python py-host/fuzz/hostile_fuzz.py --inputs 1000000 --procs 2

prints inputs, escapes, calls over 1 s, memory (wasm and process RSS), the public methods never
called and per function the typical (median) and slowest time per MB; exits 1 on any of them.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import math
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
import traceback
from typing import Any, Callable, Iterator

import agent_contract as ac
import agent_contract.mcp as acm
import agent_contract.ray as acr
from agent_contract import _runtime, _tools
from agent_contract._host_text import LARGE, MAX_BYTES_CEILING, MAX_DEPTH_CEILING, write
from hostile_values import (
    Boom,
    ClaimsStr,
    ClaimsBytes,
    ClaimsDict,
    HostileStr,
    HostileBytes,
    HostileBytearray,
    HostileDict,
    HostileList,
    HostileInt,
    HostileFloat,
    NamelessMeta,
    Nameless,
    BadKey,
    released,
)

MB = 1 << 20
SLOW = 1.0  # seconds per MB: a call over this per MB of input (over this on at most 1 MB) is flagged
PER_MB_FROM = 64 << 10  # time per MB is measured on inputs at least this large
# A call on a value `_size` counts as 8 MB (over 4 MB) that takes longer than this is timed per
# MB of what was written (`_written_size`): the value may be far larger than 8 MB.
REMEASURE_AFTER = 0.4


def raising_iterator(items: list[Any]) -> Iterator[Any]:
    yield from items
    raise Boom



def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

class LyingMapping(dict):  # type: ignore[type-arg]
    """A dict whose `key` answers differently on each read, through every way of reading it."""

    def __init__(self, d: dict[str, Any], key: str, other: Any) -> None:
        super().__init__(d)
        self._key, self._other, self._reads = key, other, 0

    def _lie(self, key: Any, value: Any) -> Any:
        if key == self._key:
            self._reads += 1
            return self._other if self._reads % 2 == 0 else value
        return value

    def __getitem__(self, key: Any) -> Any:
        return self._lie(key, super().__getitem__(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return self._lie(key, super().get(key, default))

    def items(self) -> Any:  # type: ignore[override]
        return [(k, self._lie(k, v)) for k, v in super().items()]

    def values(self) -> Any:  # type: ignore[override]
        return [v for _, v in self.items()]


SESSION_LINES = [
    '{"type":"session","version":1,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}',
    '{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user",'
    '"content":[{"type":"text","text":"hi"}],"timestamp":1}}',
    '{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:01Z","message":{"role":"assistant",'
    '"content":[{"type":"toolCall","id":"c1","name":"read","arguments":{}}],"stopReason":"toolUse",'
    '"usage":{"input":1,"output":1,"totalTokens":2},"timestamp":2}}',
    '{"type":"message","id":"c","parentId":"b","timestamp":"2025-01-01T00:00:01Z","message":{"role":"toolResult",'
    '"toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":3}}',
    '{"type":"message","id":"d","parentId":"a","timestamp":"2025-01-01T00:00:02Z","message":{"role":"user",'
    '"content":[{"type":"text","text":"again"}],"timestamp":4}}',
]
OUTPUT_SCHEMAS: list[Any] = [{"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]},
                             {"type": "object", "properties": {"s": {"type": "string", "format": "email"}}}]


def _sdk_model(name: str, data: Any) -> Any:
    """The MCP SDK's pydantic model of `data` (the SDK's own types), or `data` when the model
    refuses it."""
    import mcp.types

    # pydantic copies the data whole: a value of shared containers (`[s, s]` seventy deep) would
    # expand to far more than memory holds (a long run's worker was OOM-killed at 21.7 GB).
    if _size(data) > 4 * MB:
        return data
    try:
        return getattr(mcp.types, name).model_validate(data)
    except Exception:  # noqa: BLE001 - hostile data the model refuses is passed as it is
        return data


def _sdk_list_tools(tools: list[Any]) -> Any:
    return _sdk_model("ListToolsResult", {"tools": tools})


# --- generators ----------------------------------------------------------------------------

FIELD_NAMES = ["type", "callId", "tool", "input", "content", "summary", "name", "description", "inputSchema",
               "permissions", "permission", "rules", "effect", "kind", "calls", "answer", "tools", "id", "args",
               "arguments", "delta", "itemId", "finishReason", "properties", "required", "items", "$ref", "enum",
               "const", "anyOf", "uniqueItems", "pattern", "strict", "maxBytes", "maxDepth", "data", "error",
               "version", "schemaVersion", "outputSchema", "annotations", "message", "retryable", "code"]
PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini", "bogus"]


class Gen:
    """Random hostile inputs; `self.tags` names what went into the current input."""

    def __init__(self, seed: int, heavy: float = 0.002, flood_bytes: int = 1_000_000) -> None:
        self.r = random.Random(seed)
        self.tags: list[str] = []
        # Whether the current input's options raise a limit (the memory bound is for the defaults).
        self.raised = False
        # Largest line flood (`line_flood`): 1 MB in long runs; the short test run keeps them
        # smaller, since the worst floods take 0.6-0.9 s per MB on an idle machine and a shared
        # CI machine would flag them at random (docs/fuzzing.md).
        self.flood_bytes = flood_bytes
        # How often a draw may be large (a 1 MB string, a 65536-element list, 4 MB of text):
        # rare, so that a long run reaches 10^6 inputs, yet each kind is met thousands of times.
        self.heavy = heavy

    def big(self) -> bool:
        return self.r.random() < self.heavy

    def tag(self, name: str) -> None:
        if len(self.tags) < 12:
            self.tags.append(name)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def string(self) -> Any:
        r = self.r
        k = r.randrange(12)
        if k == 0:
            self.tag("lone-surrogate")
            return "a" * r.randrange(4) + chr(r.randrange(0xD800, 0xE000)) + "b"
        if k == 1:
            self.tag("huge-string")
            return "x" * (r.choice([65536, 300_000, 1 << 20]) if self.big() else r.choice([100, 1000]))
        if k == 2:
            return r.choice(FIELD_NAMES)
        if k == 3:
            return "".join(chr(r.randrange(0x20, 0x3000)) for _ in range(r.randrange(8)))
        if k == 4:
            return "\u0000\n\"\\/é€😀"[: r.randrange(9)]
        return "".join(r.choice("abc_- ") for _ in range(r.randrange(6))) or "t"

    def scalar(self) -> Any:
        r = self.r
        k = r.randrange(16)
        if k == 0:
            self.tag("nan")
            return r.choice([math.nan, math.inf, -math.inf])
        if k == 1:
            self.tag("big-int")
            return r.choice([10**5000, -(10**400), 2**64, 2**53 + 1])
        if k == 2:
            return r.choice([None, True, False, ac.UNDEFINED])
        if k == 3:
            return r.random() * 10 ** r.randrange(-300, 300)
        if k == 4:
            return r.randrange(-1000, 1000)
        return self.string()

    def hostile(self) -> Any:
        r = self.r
        k = r.randrange(22)
        self.tag(f"hostile{k}")
        if k == 0:
            return ClaimsStr()
        if k == 1:
            return ClaimsBytes()
        if k == 2:
            return ClaimsDict()
        if k == 3:
            return HostileStr(self.plain_text())
        if k == 4:
            return HostileBytes(self.plain_text().encode())
        if k == 5:
            return HostileBytearray(self.plain_text().encode())
        if k == 6:
            return HostileDict(type="finish", summary="s")
        if k == 7:
            return HostileList([1, 2])
        if k == 8:
            return HostileInt(r.randrange(100))
        if k == 9:
            return HostileFloat(r.random())
        if k == 10:
            return Nameless()
        if k == 11:
            return Nameless
        if k == 12:
            return released()
        if k == 13:
            d = {BadKey(r.choice(FIELD_NAMES)): 1, r.choice(FIELD_NAMES): 2}
            return d
        if k == 14:
            return raising_iterator([1, 2])
        if k == 15:
            return (lambda: None) if r.random() < 0.5 else {1, 2}
        if k == 16:
            return (1, 2)
        if k == 17:
            return bytearray(b"abc")
        if k == 18:
            return memoryview(b'{"a": 1}')
        if k == 19:
            return {("x" * (r.choice([1000, 1 << 20]) if self.big() else r.choice([1, 100]))): 1}
        if k == 20:
            return {1: "non-string key"}
        return object()

    def value(self, depth: int = 0) -> Any:
        r = self.r
        k = r.randrange(20)
        if depth > 6 or k < 6:
            return self.scalar()
        if k < 9:
            return self.hostile()
        if k < 13:
            return {self.key(): self.value(depth + 1) for _ in range(r.randrange(5))}
        if k < 16:
            return [self.value(depth + 1) for _ in range(r.randrange(5))]
        if k == 16:
            self.tag("cycle")
            c: Any = [] if r.random() < 0.5 else {}
            inner = self.value(depth + 1)
            if type(c) is list:
                c.extend([inner, c, c])
            else:
                c.update({"self": c, "inner": inner, "again": {"up": c}})
            return c
        if k == 17:
            self.tag("shared")
            s: Any = [self.value(depth + 1)]
            for _ in range(r.randrange(1, 70) if self.big() or r.random() < 0.05 else r.randrange(1, 8)):
                s = [s, s] if r.random() < 0.5 else {"l": s, "r": s}
            return s
        if k == 18:
            self.tag("deep")
            d: Any = self.scalar()
            for _ in range(r.choice([129, 200, 513, 2000]) if self.big() else r.choice([20, 100, 127])):
                d = [d] if r.random() < 0.5 else {"d": d}
            return d
        if not self.big():
            return [self.scalar() for _ in range(r.randrange(50))]
        self.tag("wide")
        n = r.choice([1000, 65536, 65537, 100_000])
        # Objects as wide as lists (P3: a 65,536-member dict took the core ~10 s before it read
        # members in one pass).
        return r.choice([[0] * n, {f"k{i}": i for i in range(n)}, [[0] * 65536] * r.choice([2, 64, 65536])])

    def key(self) -> str:
        if self.big():
            return "x" * 100_000
        return self.r.choice(FIELD_NAMES) if self.chance(0.7) else self.string()

    # Structures that get past the first field, so the rules run on the hostile parts.

    def action(self) -> Any:
        r = self.r
        kind = r.choice(["tool_call", "message", "finish", "request_approval", "x"])
        a: dict[str, Any] = {"type": kind}
        if kind == "tool_call":
            a.update(callId="c" + str(r.randrange(9)), tool=r.choice(["t", "search", ""]), input=self.value())
        elif kind == "message":
            a["content"] = self.value() if self.chance(0.3) else self.string()
        elif kind == "finish":
            a["summary"] = self.string()
        for _ in range(r.randrange(2)):
            a[self.key()] = self.value()
        return a if self.chance(0.9) else self.value()

    def schema(self, depth: int = 0) -> Any:
        r = self.r
        if depth > 4 or self.chance(0.2):
            return r.choice([{}, {"type": "string"}, {"type": "integer", "maximum": 5}, True, self.value()])
        k = r.randrange(5)
        if k == 0:
            return {"type": "object", "properties": {self.key(): self.schema(depth + 1) for _ in range(r.randrange(4))},
                    "required": [self.key()]}
        if k == 1:
            return {"type": "array", "items": self.schema(depth + 1), "uniqueItems": self.chance(0.5)}
        if k == 2:
            return {"anyOf": [self.schema(depth + 1) for _ in range(r.randrange(1, 4))]}
        if k == 3:
            return {"$ref": "#", "type": ["array", "object"]}
        return {"enum": [self.value() for _ in range(3)], "pattern": r.choice(["^a+$", "(a+)+$", "[", "x"])}

    def tool(self) -> Any:
        r = self.r
        t: dict[str, Any] = {"name": r.choice(["t", "search", "", "x" * 100]), "description": "d",
                             "inputSchema": self.schema(), "permissions": r.choice([["read"], [], self.value()])}
        if self.chance(0.2):
            t[self.key()] = self.value()
        return t if self.chance(0.9) else self.value()

    def options(self) -> Any:
        r = self.r
        k = r.randrange(10)
        if k < 4:
            return None
        if k == 4:
            return self.value()
        o: dict[Any, Any] = {}
        for _ in range(r.randrange(1, 3)):
            name = r.choice(["strict", "maxBytes", "maxDepth", "maxStringBytes", "maxArrayLength",
                             "maxObjectMembers", "maxCalls", "maxArgumentsBytes", "maxResponseBytes", "bogus"])
            o[name] = r.choice([True, 1, 10, 1000, 2**26, 2**26 + 1, 0, -1, 1.5, 4.0, "x", None, ac.UNDEFINED,
                                HostileInt(5), HostileFloat(5.0), math.nan])
            if name.startswith("max") and type(o[name]) is int and o[name] >= 2**26:
                self.raised = True
        if self.chance(0.1):
            o[BadKey("maxBytes")] = 1
        return o

    def plain_text(self) -> str:
        return json.dumps(self.plain(), ensure_ascii=self.chance(0.5))

    def plain(self, depth: int = 0) -> Any:
        r = self.r
        k = r.randrange(8)
        if depth > 5 or k < 3:
            return r.choice([None, True, 1, -2.5, "s", "é😀", r.choice(FIELD_NAMES)])
        if k < 6:
            return {r.choice(FIELD_NAMES): self.plain(depth + 1) for _ in range(r.randrange(4))}
        return [self.plain(depth + 1) for _ in range(r.randrange(4))]

    def text(self) -> Any:
        """JSON text, often broken, as one of the text kinds (or something that is not text)."""
        r = self.r
        base = self.plain_text() if self.chance(0.5) else json.dumps(self.action_like())
        data = base.encode()
        k = r.randrange(14)
        if k == 0:
            self.tag("invalid-utf8")
            i = r.randrange(len(data) + 1)
            data = data[:i] + bytes([r.choice([0xFF, 0xC3, 0xED, 0x80, 0xF4])]) + data[i:]
        elif k == 1:
            self.tag("wtf8-surrogate")
            i = r.randrange(len(data) + 1)
            data = data[:i] + b"\xed\xa0\x80" + data[i:]
        elif k == 2:
            self.tag("big-text")
            pad = r.choice([300_000, MB - 100]) if self.big() else 1000
            data = b'{"type": "message", "content": "' + b"a" * pad + b'"}'
        elif k == 3 and self.big():
            self.tag("over-limit-text")
            data = b"[" + b"1," * r.choice([3 * MB, 5 * MB // 2]) + b"1]"
        elif k == 4:
            self.tag("mutated")
            b = bytearray(data)
            for _ in range(r.randrange(1, 4)):
                if b:
                    b[r.randrange(len(b))] = r.randrange(256)
            data = bytes(b)
        elif k == 5:
            self.tag("jsonl")
            data = b"\n".join(json.dumps(self.action_like()).encode() for _ in range(r.randrange(5))) + b"\n" * r.randrange(3)
        elif k == 6:
            self.tag("blank-lines")
            # N5: blank lines were quadratic in the core (10^5: 1.6-3.8 s); past maxArrayLength
            # lines they are one INPUT_TOO_LARGE.
            data = b"\n" * (r.choice([10_000, 65_536, 100_000, 1_000_000]) if self.big() else 10)
        form = r.randrange(12)
        if form < 4:
            text = data.decode("utf-8", "surrogateescape")
            if "\udc80" <= max(text, default="a") and r.random() < 0.5:
                return text  # lone surrogates from the invalid bytes
            return data.decode("utf-8", "replace") if form else text.encode("utf-8", "surrogateescape").decode("latin-1")
        if form < 6:
            return data
        if form == 6:
            return bytearray(data)
        if form == 7:
            return memoryview(data)
        if form == 8:
            self.tag("str-subclass")
            return HostileStr(data.decode("utf-8", "replace"))
        if form == 9:
            self.tag("bytes-subclass")
            return HostileBytes(data)
        return self.hostile() if self.chance(0.5) else self.value()

    def action_like(self) -> Any:
        return {"type": "tool_call", "callId": "c1", "tool": "t", "input": self.plain()}

    def event(self) -> Any:
        r = self.r
        k = r.randrange(6)
        if k == 0:
            return {"type": "start", "callId": "c1", "name": "t", "itemId": r.choice(["i", "", self.value()])}
        if k == 1:
            return {"type": "delta", "callId": "c1", "delta": self.string() if self.chance(0.7) else self.value()}
        if k == 2:
            return {"type": r.choice(["end", "finish", "cancel"]), "callId": "c1", "finishReason": "stop"}
        if k == 3:
            return json.dumps({"type": "message_start", "message": {"id": "m"}})
        return self.value()

    def lying(self, d: dict[str, Any]) -> Any:
        """A dict whose `key` answers differently on each read (a mapping that is not a dict,
        so the host reads it through its methods): a check that reads twice sees two values."""
        return LyingMapping(d, self.r.choice(list(d) or ["role"]), self.r.choice(["user", "tool", None, 5, [], {"a": 1}]))

    def maybe(self, d: Any, p: float = 0.1) -> Any:
        if self.chance(p):
            self.tag("lying")
            return self.lying(d) if type(d) is dict else self.hostile()
        return self.hostile() if self.chance(p / 2) else d

    def shared_schema(self, large: bool = True) -> Any:
        """A schema whose parts are shared: one list referenced from many members (references x
        width work on an input whose containers, counted once, are few)."""
        r = self.r
        big = large and self.big()
        if big:
            self.tag("shared-schema")
        width, refs = (1000, 1000) if big else (r.randrange(1, 20), r.randrange(1, 20))
        values = [i if r.random() < 0.5 else f"v{i}" for i in range(width)]
        sub = r.choice([{"enum": values}, {"type": "string", "examples": values}, {"type": "array", "items": {"enum": values}},
                        {"anyOf": [{"enum": values}, {"type": "null"}]}])
        return {"type": "object", "properties": {f"p{i}": sub for i in range(refs)}}

    def arguments_text(self) -> Any:
        r = self.r
        k = r.randrange(8)
        if k == 0:
            self.tag("huge-arguments")
            return '{"a": "' + "x" * ((MB + r.randrange(64)) if self.big() else r.randrange(1 << 16)) + '"}'
        if k == 1:
            return "[" * r.randrange(5000) + "]" * r.randrange(5000)
        if k == 2:
            return r.choice(["{", "", "null", '{"a":1,"a":2}', '"\\ud800"', '{"a":"x"} trailing', "\udc80"])
        if k == 3:
            return self.value()
        return json.dumps({"location": "Paris", "format": r.choice(["celsius", "kelvin"]), "a": r.choice(["x", 1, None])})

    def row_tool(self) -> Any:
        r = self.r
        params = self.shared_schema() if self.chance(0.3) else r.choice(
            [{"type": "object", "properties": {"location": {"type": "string"}, "a": {"type": "string"}}, "required": ["location"]},
             {"type": "object"}, self.value()])
        fn = self.maybe({"name": r.choice(["get_current_weather", "echo", "bad name", "x" * 65, self.value()]),
                         "description": "d", "parameters": params})
        return self.maybe({"type": r.choice(["function", "function", "code_interpreter", self.value()]), "function": fn})

    def row_message(self) -> Any:
        r = self.r
        role = r.choice(["system", "developer", "user", "assistant", "assistant", "tool", self.value()])
        m: dict[str, Any] = {"role": role}
        if type(role) is str and role == "assistant" and self.chance(0.6):
            m["tool_calls"] = [
                self.maybe({"id": r.choice(["c1", "c2", self.value()]), "type": "function",
                            "function": self.maybe({"name": r.choice(["get_current_weather", "echo", self.value()]),
                                                    "arguments": self.arguments_text()})})
                for _ in range(r.randrange(1, 4))
            ]
        elif type(role) is str and role == "tool":
            m["tool_call_id"] = r.choice(["c1", "c2", self.value()])
            m["content"] = self.string() if self.chance(0.7) else [{"type": "text", "text": self.string()}]
        else:
            m["content"] = self.string() if self.chance(0.7) else r.choice(
                [[{"type": "text", "text": self.string()}], [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}], self.value()])
        if self.chance(0.1):
            m["weight"] = r.choice([0, 1, 2, self.value()])
        return self.maybe(m, 0.07)

    def chat_row(self) -> Any:
        """A row of the OpenAI chat fine-tuning format with hostile messages, calls and tools."""
        r = self.r
        messages = [self.row_message() for _ in range(r.randrange(3000) if self.big() else r.randrange(8))]
        row: dict[str, Any] = {"messages": messages if self.chance(0.95) else self.value()}
        if self.chance(0.7):
            row["tools"] = [self.row_tool() for _ in range(r.randrange(1, 4))] if self.chance(0.95) else self.value()
        if self.chance(0.2):
            row["parallel_tool_calls"] = r.choice([True, False, self.value()])
        if self.chance(0.03):
            self.tag("cycle")
            messages.append(row)
        return self.maybe(row)

    def rows_text(self) -> Any:
        """JSON Lines of rows (the plain data a dataset file holds), mutated at times."""
        r = self.r

        def line() -> str:
            args = json.dumps({"location": "Paris", "format": r.choice(["celsius", "kelvin"])})
            if self.chance(0.05):
                args = '"' + "x" * r.randrange(1 << 16)
            params = self.shared_schema(False) if self.chance(0.2) else {
                "type": "object", "properties": {"location": {"type": "string"}, "format": {"enum": ["celsius", "fahrenheit"]}},
                "required": ["location"]}
            row = {"messages": [{"role": "user", "content": "Weather?"},
                                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {
                                    "name": r.choice(["get_current_weather", "other"]), "arguments": args}}]},
                                {"role": "tool", "tool_call_id": r.choice(["c1", "c2"]), "content": "18"},
                                {"role": "assistant", "content": "Foggy."}],
                   "tools": [{"type": "function", "function": {"name": "get_current_weather", "description": "d", "parameters": params}}]}
            t = json.dumps(row)
            if self.chance(0.1):
                i = r.randrange(len(t))
                t = t[:i] + r.choice(["", '"', "\udc80", "\u0000", "}"]) + t[i + 1 :]
            return t

        text = r.choice(["\n", "\r\n", "\n\n"]).join(line() for _ in range(r.randrange(2000) if self.big() else r.randrange(6)))
        k = r.randrange(10)
        if k == 0:
            return text.encode("utf-8", "surrogatepass")
        if k == 1:
            return self.text()
        return text

    def session_text(self) -> Any:
        """A session file (seed format), whole or cut, or any text."""
        if self.chance(0.2):
            return self.text()
        lines = SESSION_LINES[: self.r.randrange(1, len(SESSION_LINES) + 1)]
        text = "\n".join(lines) + ("\n" if self.chance(0.5) else "")
        return text.encode() if self.chance(0.3) else text

    def mcp_tool(self) -> Any:
        r = self.r
        t: dict[str, Any] = {
            "name": r.choice(["get_weather", "echo", "a.b-c", "x" * 129, self.value()]),
            "inputSchema": r.choice([{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                                     {"type": "object"}, self.shared_schema(), self.value()]),
        }
        if self.chance(0.5):
            t["description"] = self.value()
        if self.chance(0.2):
            t["title"] = self.value()
        if self.chance(0.5):
            t["annotations"] = self.maybe({"readOnlyHint": r.choice([True, False, "yes"]), "openWorldHint": r.choice([False, True, None])})
        if self.chance(0.5):
            t["outputSchema"] = r.choice(OUTPUT_SCHEMAS + [self.shared_schema(), None, self.value()])
        return self.maybe(t)

    def mcp_tools_list(self) -> Any:
        r = self.r
        tools = [self.mcp_tool() for _ in range(r.randrange(1, 4))]
        k = r.randrange(10)
        if k < 6:
            return self.maybe({"tools": tools})
        if k < 8:
            return tools
        if k == 8:
            self.tag("sdk-model")
            return _sdk_list_tools(tools)
        return self.value()

    def mcp_params(self) -> Any:
        r = self.r
        p: dict[str, Any] = {"name": r.choice(["get_weather", "echo", "nope", self.value()])}
        if self.chance(0.9):
            p["arguments"] = r.choice([{"a": "x"}, {"a": 1}, {}, self.value()])
        if self.chance(0.1):
            self.tag("sdk-model")
            return _sdk_model("CallToolRequestParams", p)
        return self.maybe(p, 0.15)

    def mcp_result(self) -> Any:
        r = self.r
        structured = r.choice([{"n": 1}, {"n": "x"}, {"s": "a@b.c"}, {"s": "not an email"}, self.value()])
        content: list[Any] = [
            {"type": "text", "text": r.choice(['{"n":1}', ' {"n":2}', "{", '{"s":"a@b.c"}', '{"n":1,"n":1}', "plain", self.value()])},
            {"type": r.choice(["image", "text"]), "data": "AQ==", "mimeType": "image/png", "text": self.value()},
        ]
        if self.chance(0.2):
            self.tag("hostile-content")
            content[r.randrange(2)] = r.choice([HostileDict(type="text", text="{}"), self.lying(dict(content[0])), self.hostile()])
        res: dict[str, Any] = {"content": content if self.chance(0.9) else self.value()}
        if self.chance(0.85):
            res["structuredContent"] = self.maybe(structured, 0.2) if type(structured) is dict else structured
        if self.chance(0.3):
            res["isError"] = r.choice([True, False, "true", self.value()])
        if self.chance(0.1):
            self.tag("sdk-model")
            return _sdk_model("CallToolResult", res)
        return self.maybe(res)

    def file_batch(self) -> Any:
        """A batch of whole files as Ray Data hands one to `map_batches` (a dict of columns, or a
        pyarrow table), with hostile columns at times."""
        r = self.r
        n = r.randrange(4)
        paths: Any = [r.choice(["a.jsonl", "b/c.jsonl", self.value()]) if self.chance(0.9) else self.hostile() for _ in range(n)]
        data: Any = [self.rows_text() if self.chance(0.5) else self.session_text() for _ in range(n)]
        data = [d.encode("utf-8", "surrogatepass") if type(d) is str and self.chance(0.7) else d for d in data]
        k = r.randrange(10)
        if k == 0:
            return self.value()
        if k == 1:
            return {"path": paths}
        if k == 2:
            return {"path": HostileList(paths), "bytes": data}
        if k == 3 and all(type(p) is str and _utf8(p) for p in paths) and all(type(d) is bytes for d in data):
            import pyarrow as pa  # an Arrow string column holds only valid Unicode

            return pa.table({"path": paths, "bytes": data})
        if k == 4:
            return {"path": paths, "bytes": [self.value() for _ in range(n)]}
        return {"path": paths, "bytes": data}

    def tool_or_valid(self) -> Any:
        """A tool, often a valid one (so that the Tool it makes is exercised)."""
        if self.chance(0.4):
            schema = self.schema() if self.chance(0.5) else {"type": "object", "properties": {"a": {"type": "string"}}}
            return {"name": self.r.choice(["t", "search"]), "description": "d", "inputSchema": schema, "permissions": ["read"]}
        return self.tool()

    def row_or_text(self) -> Any:
        return self.chat_row() if self.chance(0.7) else self.value() if self.chance(0.5) else self.rows_text()

    def rows(self) -> Any:
        if self.chance(0.1):
            return self.value()
        return [self.chat_row() if self.chance(0.8) else self.rows_text() for _ in range(self.r.randrange(4))]

    def argument(self) -> Any:
        """An argument for a method of a result (a session's query, an MCP validator)."""
        r = self.r
        k = r.randrange(6)
        if k == 0:
            return r.choice(["a", "b", "c", "d", "s1", "zz"])
        if k == 1:
            return self.schema()
        if k == 2:
            return r.choice([{"n": 1}, {"a": "x"}, {"s": "a@b.c"}])
        if k == 3:
            return self.text()
        return self.value()

    def line_flood(self) -> Any:
        """Up to a megabyte of short lines of one kind, as str or bytes: per byte, the most
        frames (blank lines, a garbage byte each, `[i]`) or the most replies (batch lines of
        invalid elements, 2 bytes each), the shapes that cost a decoder most per MB."""
        r = self.r
        size = r.randrange(1, self.flood_bytes)
        k = r.randrange(5)
        if k == 0:
            self.tag("flood-blank")
            text = "\n" * size
        elif k == 1:
            self.tag("flood-garbage")
            text = "x\n" * (size // 2)
        elif k == 2:
            self.tag("flood-short")
            text = "".join(f"[{i}]\n" for i in range(size // 8))
        else:
            self.tag("flood-batch")
            width = r.choice([2, 62, 1024, r.randrange(2, 1025)])
            ones = ",1" * (width - 1)
            text = "".join(f"[{i}{ones}]\n" for i in range(max(1, size // (2 * width + 10))))
        return text.encode() if self.chance(0.5) else text

    def sse_chunk(self) -> Any:
        r = self.r
        k = r.randrange(6)
        if k == 0:
            return self.text()
        lines = "event: message_start\ndata: " + json.dumps({"type": "message_start", "message": {"id": "m", "content": []}}) + "\n\n"
        if k == 1:
            return lines.encode()[: r.randrange(len(lines) + 1)]
        if k == 2:
            return lines + "data: \udc80\n\n"
        if k == 3:
            return b"data: \xff\xfe\n\n"
        return lines


# --- the calls -----------------------------------------------------------------------------


# Arguments the core reads as program data, under the ceilings rather than the call's limits
# (docs/decisions.md: tools, registries, policies, schemas given for their issues): a call with
# one over 1 MB is a call with raised limits, outside the memory bound (as in the Node fuzzer).
PROGRAM_DATA: dict[str, tuple[int, ...]] = {
    **dict.fromkeys(["validate_tool_input", "safe_validate_tool_input", "validate_tool_input_json",
                     "safe_validate_tool_input_json", "validate_tool_inputs", "create_registry", "safe_create_registry",
                     "catalog", "to_openai_tools", "to_openai_responses_tools", "to_anthropic_tools", "to_mcp_tools",
                     "to_gemini_tools", "define_policy", "safe_define_policy", "strict_schema_issues",
                     "json_schema_for_target", "standard_json_schema", "gemini_schema_issues", "normalize_tool_result", "from_seed_tool",
                     "to_seed_tool"], (0,)),
    "compare_contracts": (0, 1),
    "diff_catalogs": (0, 1),
    "check_tool_call": (0, 2),
    "safe_check_tool_call": (0, 2),
}


def _size(*values: Any, budget: int = 4 * MB, large: int = 8 * MB) -> int:
    """The input's size: host text for values (a value over `budget` counts `large`), length
    for text."""
    total = 0
    for v in values:
        t = type(v)
        if t in (str, bytes, bytearray):
            total += len(v)
        elif t is memoryview:
            try:
                total += v.nbytes
            except ValueError:
                pass
        else:
            text = write(v, MAX_DEPTH_CEILING, budget)
            total += large if text == LARGE else len(text)
    return total


# Past 1 MB the bound grows with the input (docs/decisions.md, "The memory bound"): 48 MiB per
# MB past the first.
MEMORY_PER_MB_PAST_THE_FIRST = 48


def _written_size(parts: tuple[Any, ...]) -> int:
    """The size of `parts` as the host writes them, for a value `_size` counts as 8 MB: written
    under an 8 MiB budget, which stops past 65 Mi characters or 9 Mi values (at least 16 MiB of
    text), so a value cut there counts 16 MiB: a lower bound, and a time per MB from it an upper
    bound. Not the ceiling's budget: its text alone took this process past 6 GB."""
    return _size(*parts, budget=8 * MB, large=16 * MB)


def _memory_bound(size: int) -> int:
    return _runtime.MEMORY_BOUND + max(0, size - MB) * MEMORY_PER_MB_PAST_THE_FIRST


def _within_bound(memory: int, size: int, parts: tuple[Any, ...]) -> bool:
    """Whether `memory` is within the bound for the call's arguments. `_size` counts a value
    over 4 MB as 8 MB (fast, rough): an instance past the bound of 4 MB is measured again with
    the values written up to the size that would allow it (a lower bound when cut there)."""
    if memory <= _memory_bound(min(size, 4 * MB)):
        return True
    allowed = MB + -(-(memory - _runtime.MEMORY_BOUND) // MEMORY_PER_MB_PAST_THE_FIRST)
    return memory <= _memory_bound(_size(*parts, budget=allowed, large=allowed + 1))


# The methods called in this process (`Class.method`), and those the results held: every method
# of every object a call returns is called (`_exercise`), and the drivers of the stateful
# objects call theirs through `_call`, so a method no driver calls shows in `uncalled_methods`.
CALLED: set[str] = set()
OFFERED: set[str] = set()


def _call(obj: Any, method: str, *args: Any) -> Any:
    CALLED.add(f"{type(obj).__name__}.{method}")
    return getattr(obj, method)(*args)


def _methods(cls: type) -> list[str]:
    """The public methods of one of the package's classes (its own and its package bases'),
    less the dict and list mutators a frozen value refuses by design (TypeError)."""
    names: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.startswith("agent_contract"):
            names |= {k for k, v in vars(base).items() if not k.startswith("_") and callable(v) and v is not _tools._refuse}
    if "__call__" in {k for b in cls.__mro__ if b.__module__.startswith("agent_contract") for k in vars(b)}:
        names.add("__call__")
    return sorted(names)


def _offered(value: Any, depth: int = 0) -> list[tuple[str, Any]]:
    """The package's objects in a result (`value`, a safe form's dict, lists and dicts of a few
    members, two levels down), each with its methods, for `_exercise`."""
    t = type(value)
    found: list[tuple[str, Any]] = []
    if t.__module__.startswith("agent_contract") and _methods(t):
        found.append(("", value))
    if depth < 2 and t in (dict, list, tuple) or (depth < 2 and isinstance(value, (_tools.FrozenDict, _tools.FrozenList))):
        items = list(value.values() if isinstance(value, dict) else value)
        if len(items) <= 16:
            for item in items:
                found += _offered(item, depth + 1)
    return found


def _exercise(result: Any, args: list[Any], handed: list[int]) -> None:
    """Calls every method of every package object in `result` with arguments from `args` (made
    before the call, outside the timing's hostile window), and the functions they return.
    `handed[0]` counts how many of `args` were handed over (a prefix): they are part of the
    input, also when a call then raises."""
    for _, obj in _offered(result):
        methods = [m for m in _methods(type(obj)) if m != "close"] + (["close"] if "close" in _methods(type(obj)) else [])
        for name in methods:
            OFFERED.add(f"{type(obj).__name__}.{name}")
            takes = _arity(type(obj), name)
            handed[0] = max(handed[0], min(takes, len(args)))
            try:
                out = _call(obj, name, *args[:takes])
                if callable(out) and not isinstance(out, type):
                    CALLED.add(f"{type(obj).__name__}.{name}()")
                    OFFERED.add(f"{type(obj).__name__}.{name}()")
                    handed[0] = max(handed[0], min(takes + 1, len(args)))
                    out(*args[takes : takes + 1])
            except ac.ContractError:
                pass


def _arity(cls: type, name: str) -> int:
    try:
        params = list(inspect.signature(getattr(cls, name)).parameters.values())[1:]
    except (TypeError, ValueError):
        return 0
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)


def _assembler_session(g: Gen) -> Any:
    options = g.options() if g.chance(0.5) else None
    events = [g.event() for _ in range(g.r.randrange(1, 6))]

    def session() -> Any:
        with ac.create_assembler(options) as a:
            for event in events:
                try:
                    _call(a, "push", event)
                except ac.ContractError:
                    break
            try:
                _call(a, "preview")
                return _call(a, "finish")
            finally:
                _call(a, "close")

    return tuple(events), session


def _session_checker(g: Gen) -> Any:
    options = g.options() if g.chance(0.5) else None
    chunks = [g.session_text() if g.chance(0.5) else g.text() for _ in range(g.r.randrange(1, 5))]

    def session() -> Any:
        with ac.create_session_checker(options) as c:
            for chunk in chunks:
                try:
                    _call(c, "push", chunk)
                except ac.ContractError:
                    break
                _call(c, "problems")
            try:
                return _call(c, "finish")
            finally:
                _call(c, "close")

    return tuple(chunks), session


# ACP prompt admission and lifecycle:

_LIFECYCLE_CALLS = ["admitted", "written", "enqueue", "cancel", "agent_idle", "output_delivered", "settle", "abandon"]


def _prompt(g: Gen) -> Any:
    def payload() -> Any:
        return g.r.choice(["iVBORw0KGgo=", "AQ==", "AB==", "", "/9j/", "R0lGODlh", g.value()])

    def block() -> Any:
        b: dict[str, Any] = {
            "type": g.r.choice(["text", "image", "audio", "resource_link", "resource", "video", g.value()]),
            "text": g.r.choice(["hi", " ", g.value()]),
            "data": payload(),
            "mimeType": g.r.choice(["image/png", "image/jpeg", "image/bmp", g.value()]),
        }
        if g.chance(0.3):
            b.update(uri=g.value(), name=g.value())
        if g.chance(0.3):
            b["resource"] = g.r.choice([{"uri": "file:///a", "text": g.value()}, {"uri": "file:///a", "blob": payload()}, g.value()])
        return b

    if g.chance(0.1):
        return g.value()
    return {"sessionId": g.r.choice(["s", g.value()]), "prompt": [block() for _ in range(g.r.randrange(6))] if g.chance(0.9) else g.value()}


def _capabilities(g: Gen) -> Any:
    return g.r.choice([{"image": True, "audio": True, "embeddedContext": True}, {"image": True}, None, g.value()])


def _lifecycle_session(g: Gen) -> Any:
    calls = [(g.r.choice(_LIFECYCLE_CALLS), g.value() if g.chance(0.3) else None) for _ in range(g.r.randrange(1, 12))]

    def session() -> Any:
        with ac.create_prompt_lifecycle() as lifecycle:
            for name, arg in calls:
                try:
                    if name == "settle":
                        _call(lifecycle, "settle", arg)
                    else:
                        _call(lifecycle, name)
                except ac.ContractError:
                    pass
            _call(lifecycle, "close")

    return tuple(arg for _, arg in calls if arg is not None), session


def _provider_session(g: Gen) -> Any:
    provider = g.r.choice(PROVIDERS) if g.chance(0.9) else g.value()
    options = g.options() if g.chance(0.3) else None
    pushes = [(True, g.sse_chunk()) if g.chance(0.5) else (False, g.event()) for _ in range(g.r.randrange(1, 5))]

    def session() -> Any:
        with ac.create_provider_assembler(provider, options) as a:
            for sse, item in pushes:
                try:
                    if sse:
                        _call(a, "push_sse", item)
                    else:
                        _call(a, "push", item)
                except ac.ContractError:
                    break
            try:
                _call(a, "preview")
                return _call(a, "finish")
            finally:
                _call(a, "close")

    return tuple(item for _, item in pushes), session


def _decoder_session(g: Gen) -> Any:
    options = g.options() if g.chance(0.3) else None
    chunks = [g.line_flood() if g.chance(0.01) else g.sse_chunk() for _ in range(g.r.randrange(1, 5))]

    def session() -> Any:  # (the parts, for the size: the chunks)
        with ac.create_ndjson_decoder(options) as d:
            for chunk in chunks:
                try:
                    _call(d, "push", chunk)
                except ac.ContractError:
                    pass
                _call(d, "buffered_bytes")
            try:
                return _call(d, "end")
            finally:
                _call(d, "close")

    return tuple(chunks), session


def _rpc_session(g: Gen) -> Any:
    options = g.options() if g.chance(0.3) else None
    messages = [(g.chance(0.5), g.value()) for _ in range(g.r.randrange(1, 5))]

    def session() -> Any:
        with ac.create_rpc_session(options) as s:
            for incoming, message in messages:
                try:
                    _call(s, "incoming" if incoming else "outgoing", message)
                except ac.ContractError:
                    pass
            _call(s, "close")

    return tuple(m for _, m in messages), session


def _lines(g: Gen) -> tuple[Any, tuple[Any, ...]]:
    """A source of lines and, for the input's size, what it yields."""
    if g.chance(0.01):
        flood = g.line_flood()  # one str or bytes is one chunk; its size is its length
        return flood, (flood,)
    k = g.r.randrange(6)
    items = [g.sse_chunk() for _ in range(g.r.randrange(4))]
    if k == 0:
        value = g.value()  # None, 5, a dict...
        return value, (value,)
    if k == 1:
        return raising_iterator(items), tuple(items)
    if k == 2:
        return HostileList(items), tuple(items)
    return items, tuple(items)


async def _alines(items: Any) -> Any:
    for item in items:
        yield item
    raise Boom


def _async_lines(g: Gen) -> tuple[Any, tuple[Any, ...]]:
    """An async source of lines and, for the input's size, what it yields."""
    items = [g.sse_chunk() for _ in range(g.r.randrange(4))]
    k = g.r.randrange(4)
    if k == 0:
        value = g.value()
        return value, (value,)
    if k == 1:
        return _alines(items), tuple(items)

    async def fine() -> Any:
        for item in items:
            yield item

    return fine(), tuple(items)


# name -> (function taking the generator and returning the input's parts, call)
def _targets() -> dict[str, Callable[[Gen], tuple[tuple[Any, ...], Callable[..., Any]]]]:
    def value_op(fn: Callable[..., Any], make: str) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            arg = getattr(g, make)()
            opts = g.options()
            return (arg,), lambda: fn(arg, opts) if opts is not None or g.chance(0.5) else fn(arg)

        return build

    def text_op(fn: Callable[..., Any]) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            text, opts = g.text(), g.options()
            return (text,), lambda: fn(text, opts)

        return build

    def tool_op(fn: Callable[..., Any], text: bool) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            tool, arg, opts = g.tool(), (g.text() if text else g.value()), g.options()
            return (tool, arg), lambda: fn(tool, arg, opts)

        return build

    def config_op(fn: Callable[..., Any], make: Callable[[Gen], Any], n: int = 1) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            args = tuple(make(g) for _ in range(n))
            return args, lambda: fn(*args)

        return build

    def registry(g: Gen) -> Any:
        return {"tools": [g.tool() for _ in range(g.r.randrange(3))]} if g.chance(0.8) else g.value()

    def policy(g: Gen) -> Any:
        rules = [{"effect": g.r.choice(["allow", "deny", "ask", g.value()]), "tool": g.r.choice(["t", "*", g.value()])}
                 for _ in range(g.r.randrange(3))]
        return {"rules": rules} if g.chance(0.8) else {"rules": g.value()} if g.chance(0.5) else g.value()

    t: dict[str, Any] = {}
    for name in ["parse_agent_action", "safe_parse_agent_action", "preview_action", "parse_decision", "safe_parse_decision"]:
        t[name] = value_op(getattr(ac, name), "action")
    t["parse_agent_actions"] = value_op(ac.parse_agent_actions, "action")
    for name in ["define_tool", "safe_define_tool"]:
        t[name] = value_op(getattr(ac, name), "tool_or_valid")
    for name in ["parse_agent_action_json", "safe_parse_agent_action_json", "define_tool_json", "safe_define_tool_json",
                 "parse_agent_actions_jsonl", "parse_json", "safe_parse_json", "parse_decision_json", "safe_parse_decision_json"]:
        t[name] = text_op(getattr(ac, name))
    for name in ["validate_tool_input", "safe_validate_tool_input"]:
        t[name] = tool_op(getattr(ac, name), False)
    for name in ["validate_tool_input_json", "safe_validate_tool_input_json"]:
        t[name] = tool_op(getattr(ac, name), True)

    # Compiled tools: the batch, with a tool as plain data or as defined (the handle).
    def tool_inputs(g: Gen) -> Any:
        tool = g.tool()
        if g.chance(0.5):
            defined = ac.safe_define_tool(tool)
            if defined["ok"]:
                tool = defined["value"]
        items = [g.value() for _ in range(g.r.randrange(4))] if g.chance(0.8) else g.value()
        opts = g.options()
        return (tool, items), lambda: ac.validate_tool_inputs(tool, items, opts)

    t["validate_tool_inputs"] = tool_inputs

    def batch(g: Gen) -> Any:
        items = [g.action() for _ in range(g.r.randrange(4))] if g.chance(0.8) else g.value()
        opts = g.options()
        return (items,), lambda: ac.parse_agent_actions(items, opts)

    t["parse_agent_actions"] = batch

    def tools_list(g: Gen) -> Any:
        return [g.tool() for _ in range(g.r.randrange(3))] if g.chance(0.8) else g.value()

    for name in ["create_registry", "safe_create_registry"]:
        fn = getattr(ac, name)
        t[name] = (lambda fn: lambda g: (lambda ts, o: ((ts,), lambda: fn(ts, o)))(tools_list(g), g.options()))(fn)
    for name in ["catalog", "to_openai_tools", "to_openai_responses_tools", "to_anthropic_tools", "to_mcp_tools"]:
        t[name] = config_op(getattr(ac, name), registry)
    for name in ["define_policy", "safe_define_policy"]:
        t[name] = config_op(getattr(ac, name), policy)
    t["strict_schema_issues"] = config_op(ac.strict_schema_issues, lambda g: g.schema())
    t["json_schema_for_target"] = config_op(lambda s, target="draft-07": ac.json_schema_for_target(s, target), lambda g: g.schema())
    t["standard_json_schema"] = config_op(lambda s, target="draft-07": ac.standard_json_schema(s, target), lambda g: g.schema())
    t["compare_contracts"] = config_op(ac.compare_contracts, lambda g: g.tool(), 2)
    t["diff_catalogs"] = config_op(ac.diff_catalogs, registry, 2)

    def check(fn: Callable[..., Any]) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            reg, act, pol, opts = registry(g), g.action(), policy(g), g.options()
            return (reg, act, pol), lambda: fn(reg, act, pol, opts)

        return build

    t["check_tool_call"] = check(ac.check_tool_call)
    t["safe_check_tool_call"] = check(ac.safe_check_tool_call)

    def normalize(g: Gen) -> Any:
        tool, value, opts = g.tool(), g.value(), g.options()
        return (tool, value), lambda: ac.normalize_tool_result(tool, value, opts)

    t["normalize_tool_result"] = normalize

    def stream(fn: Callable[..., Any]) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            provider = g.r.choice(PROVIDERS) if g.chance(0.9) else g.value()
            data = g.sse_chunk() if g.chance(0.5) else [g.event() for _ in range(g.r.randrange(4))] if g.chance(0.8) else g.value()
            opts = g.options() if g.chance(0.3) else None
            return (data,), lambda: fn(provider, data, opts)

        return build

    t["assemble_provider_stream"] = stream(ac.assemble_provider_stream)
    t["safe_assemble_provider_stream"] = stream(ac.safe_assemble_provider_stream)

    def sse_lines(g: Gen) -> Any:
        provider, (lines, parts) = g.r.choice(PROVIDERS), _lines(g)
        return parts, lambda: ac.assemble_sse_lines(provider, lines)

    def sse_lines_async(g: Gen) -> Any:
        provider, (lines, parts) = g.r.choice(PROVIDERS), _async_lines(g)
        return parts, lambda: asyncio.run(ac.assemble_sse_lines_async(provider, lines))

    t["assemble_sse_lines"] = sse_lines
    t["assemble_sse_lines_async"] = sse_lines_async
    t["create_assembler"] = _assembler_session
    t["create_provider_assembler"] = _provider_session
    # Messages and sessions (seed 004)
    for name in ["parse_agent_message", "safe_parse_agent_message", "parse_tool_result", "safe_parse_tool_result",
                 "parse_session_entry", "safe_parse_session_entry"]:
        t[name] = value_op(getattr(ac, name), "value")
    # Agent events and the session response
    for name in ["parse_agent_event", "safe_parse_agent_event", "check_event_sequence", "safe_check_event_sequence",
                 "check_session_response", "safe_check_session_response"]:
        t[name] = value_op(getattr(ac, name), "value")
    t["protocol_schemas"] = lambda g: ((), ac.protocol_schemas)
    t["parse_agent_message_json"] = text_op(ac.parse_agent_message_json)
    t["safe_parse_agent_message_json"] = text_op(ac.safe_parse_agent_message_json)
    for name in ["check_session", "read_session", "safe_read_session"]:
        t[name] = value_op(getattr(ac, name), "session_text")
    # Dataset rows and batches of sessions
    t["check_chat_row"] = value_op(ac.check_chat_row, "row_or_text")
    t["check_chat_rows"] = value_op(ac.check_chat_rows, "rows")
    t["check_chat_rows_jsonl"] = value_op(ac.check_chat_rows_jsonl, "rows_text")
    t["check_sessions"] = value_op(ac.check_sessions, "value")

    def query(g: Gen) -> Any:
        text, opts = g.session_text(), g.options()
        q = {g.r.choice(["branch", "children", "context"]): g.r.choice(["a", "b", "c", g.value()])} if g.chance(0.5) else g.value()
        return (text, q), lambda: ac.query_session(text, q, opts)

    def seed_tool(g: Gen) -> Any:
        d, extra, opts = g.tool(), g.value(), g.options()
        return (d, extra), lambda: ac.from_seed_tool(d, extra, opts)

    t["query_session"] = query
    t["from_seed_tool"] = seed_tool
    t["to_seed_tool"] = config_op(ac.to_seed_tool, lambda g: g.tool())
    t["create_session_checker"] = _session_checker
    # ACP prompt admission and lifecycle:
    for name in ["admit_prompt", "safe_admit_prompt"]:
        fn = getattr(ac, name)
        t[name] = (lambda fn: lambda g: (lambda p, c: ((p, c), lambda: fn(p, c)))(_prompt(g), _capabilities(g)))(fn)
    t["is_canonical_base64"] = config_op(ac.is_canonical_base64, lambda g: g.text() if g.chance(0.7) else g.value())
    t["sniff_media_type"] = config_op(ac.sniff_media_type, lambda g: g.text() if g.chance(0.7) else g.value())
    t["advertise_prompt_capabilities"] = config_op(ac.advertise_prompt_capabilities, lambda g: g.value())
    t["create_prompt_lifecycle"] = _lifecycle_session
    # JSON-RPC over NDJSON
    t["classify_json_rpc"] = value_op(ac.classify_json_rpc, "value")
    t["classify_json_rpc_json"] = text_op(ac.classify_json_rpc_json)
    t["method_not_found"] = config_op(ac.method_not_found, lambda g: g.value())
    t["internal_error"] = config_op(ac.internal_error, lambda g: g.value(), 2)
    t["invalid_params"] = config_op(ac.invalid_params, lambda g: g.value(), 2)

    def purity(g: Gen) -> Any:
        (chunks, parts), opts = _lines(g), g.options()
        return parts, lambda: ac.check_stdout_purity(chunks, opts)

    def frames(g: Gen) -> Any:
        (chunks, parts), opts = _lines(g), g.options()
        return parts, lambda: list(ac.ndjson_frames(chunks, opts))

    def frames_async(g: Gen) -> Any:
        (chunks, parts), opts = _async_lines(g), g.options()

        async def collect() -> Any:
            return [f async for f in ac.ndjson_frames_async(chunks, opts)]

        return parts, lambda: asyncio.run(collect())

    t["check_stdout_purity"] = purity
    t["ndjson_frames"] = frames
    t["ndjson_frames_async"] = frames_async
    t["create_ndjson_decoder"] = _decoder_session
    t["create_rpc_session"] = _rpc_session
    # Gemini projection
    t["to_gemini_tools"] = config_op(ac.to_gemini_tools, registry)
    t["gemini_schema_issues"] = config_op(ac.gemini_schema_issues, lambda g: g.schema())

    # agent_contract.mcp: a registry from_mcp_tools made, tools/call params and results.
    def mcp_registry(g: Gen) -> Any:
        good = {"tools": [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                           "outputSchema": g.r.choice(OUTPUT_SCHEMAS)}, {"name": "echo", "inputSchema": {"type": "object"}}]}
        try:
            return acm.from_mcp_tools(good)
        except ac.ContractError:
            return None

    def mcp_validator(g: Gen) -> Any:
        role = g.r.choice([None, "client", "server", "any", g.value()])
        return (role,), lambda: acm.create_mcp_validator(role)

    def mcp_tools(g: Gen) -> Any:
        answer, opts = g.mcp_tools_list(), (None if g.chance(0.7) else g.options())
        return (answer,), lambda: acm.from_mcp_tools(answer, opts)

    def mcp_call(g: Gen) -> Any:
        reg = mcp_registry(g) if g.chance(0.8) else registry(g)
        params, pol = g.mcp_params(), (None if g.chance(0.7) else policy(g))
        return (reg, params, pol), lambda: acm.check_mcp_tool_call(reg, params, pol)

    def mcp_result(g: Gen) -> Any:
        reg = mcp_registry(g) if g.chance(0.7) else None
        tool = g.r.choice(reg["tools"]) if reg else g.mcp_tool() if g.chance(0.5) else {"name": "x", "outputSchema": g.schema()}
        result = g.mcp_result()
        return (tool, result), lambda: acm.check_mcp_tool_result(tool, result)

    t["create_mcp_validator"] = mcp_validator
    t["json_schema_validator"] = lambda g: ((), lambda: acm.json_schema_validator)
    t["from_mcp_tools"] = mcp_tools

    def mcp_definitions(g: Gen) -> Any:
        answer = g.mcp_tools_list()
        return (answer,), lambda: ac.mcp_tool_definitions(answer)

    t["mcp_tool_definitions"] = mcp_definitions
    t["check_mcp_tool_call"] = mcp_call
    t["check_mcp_tool_result"] = mcp_result

    # agent_contract.ray: the map_batches classes called on a batch directly (no Ray needed).
    def ray_class(cls: Any, sessions: bool) -> Callable[[Gen], Any]:
        def build(g: Gen) -> Any:
            strict = g.r.choice([False, True, g.value()]) if g.chance(0.3) else False
            opts = g.options() if g.chance(0.3) else None
            kwargs: dict[str, Any] = {"strict": strict, "options": opts}
            if sessions:
                kwargs["dialect"] = g.r.choice(["seed", "pi", g.value()]) if g.chance(0.3) else "seed"
            batch = g.file_batch()
            name = cls.__name__

            def call() -> Any:
                CALLED.add(f"{name}()")
                checker = cls(**kwargs)
                CALLED.add(f"{name}.__call__")
                return checker(batch)

            # The constructor's arguments are input too: its options are copied by the core.
            return (batch, kwargs), call

        return build

    t["CheckSessions"] = ray_class(acr.CheckSessions, True)
    t["CheckChatRows"] = ray_class(acr.CheckChatRows, False)
    return t


NEVER_RAISE = {name for name in ac.__all__ if name.startswith("safe_")} | {"preview_action"}


# The public names the fuzzer does not call, each with the reason.
NOT_FUZZED = {
    "read_corpus": "agent_contract.ray: Ray Data's reader of file paths (needs Ray); the files it reads reach the core "
    "through CheckSessions and CheckChatRows, which are fuzzed",
}
# The public classes whose objects a function makes: fuzzed through that function, their methods
# by the drivers and `_exercise` (`public_methods`).
MADE_BY = {
    "Assembler": "create_assembler",
    "ProviderAssembler": "create_provider_assembler",
    "Session": "read_session",
    "SessionChecker": "create_session_checker",
    "PromptLifecycle": "create_prompt_lifecycle",
    "NdjsonDecoder": "create_ndjson_decoder",
    "RpcSession": "create_rpc_session",
    "McpValidator": "create_mcp_validator",
}
MODULES = (ac, acm, acr)


def _public_classes() -> dict[str, type]:
    """The classes of `__all__` (of agent_contract, agent_contract.mcp and agent_contract.ray)
    that have methods, and `Tool`, the defined tool `define_tool` returns."""
    classes: dict[str, type] = {"Tool": _tools.Tool}
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type) and value.__module__.startswith("agent_contract") and not issubclass(value, Exception) and _methods(value):
                classes[name] = value
    return classes


def covered() -> set[str]:
    """The public functions and classes the fuzzer calls (a class through the function that
    makes its objects)."""
    targets = set(_targets())
    return targets | {cls for cls, maker in MADE_BY.items() if maker in targets} | ({"Tool"} if "define_tool" in targets else set())


def public_functions() -> set[str]:
    """Every public function and class with methods of the package and its mcp and ray modules,
    less NOT_FUZZED."""
    # Functions, and objects of the package's classes (`json_schema_validator`); not the types.
    names = {name for module in MODULES for name in module.__all__
             if inspect.isroutine(getattr(module, name))
             or (type(getattr(module, name)).__module__.startswith("agent_contract") and _methods(type(getattr(module, name))))}
    return (names | set(_public_classes())) - set(NOT_FUZZED)


def public_methods() -> set[str]:
    """`Class.method` for every method of every public class: each must be called in a run."""
    return {f"{name}.{m}" for name, cls in _public_classes().items() for m in _methods(cls)}


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB


# The input being run, for the memory watchdog: (target, seed, index, tags).
_current: list[Any] = [None]
RSS_LIMIT_MB = int(os.environ.get("FUZZ_RSS_LIMIT_MB", "6144"))


def _watch_memory() -> None:
    """Ends the process when its memory passes `RSS_LIMIT_MB`, naming the input and where it
    was (a worker the kernel kills for memory takes the pool's whole run with it, unreported)."""
    import threading

    main = threading.main_thread().ident

    def watch() -> None:
        while True:
            time.sleep(0.2)
            if _rss_mb() > RSS_LIMIT_MB:
                name, seed, index, tags = _current[0] or ("?", "?", "?", [])
                frame = sys._current_frames().get(main)  # noqa: SLF001 - where the runaway is
                where = "".join(traceback.format_stack(frame)[-6:]) if frame else ""
                print(f"memory over {RSS_LIMIT_MB} MB: {name} [{','.join(tags)}] seed={seed} input={index}\n{where}",
                      file=sys.stderr, flush=True)
                os._exit(3)

    threading.Thread(target=watch, daemon=True).start()


def run(
    inputs: int, seed: int, seconds: float = math.inf, quiet: bool = True, flood_bytes: int = 1_000_000
) -> dict[str, Any]:
    """Runs `inputs` inputs (or until `seconds` passed); returns the counts and timings."""
    g = Gen(seed, flood_bytes=flood_bytes)
    targets = _targets()
    names = sorted(targets)
    stats: dict[str, dict[str, Any]] = {n: {"calls": 0, "per_mb": [], "slowest": (0.0, 0)} for n in names}
    escapes: list[str] = []
    slow: list[str] = []
    stalls: list[str] = []  # over the bound in wall-clock time, within it in CPU time
    over_bound: list[str] = []
    max_memory = max_memory_at_defaults = max_memory_at_defaults_large = 0
    max_per_mb_past_first: tuple[float, str, int, int] = (0.0, "", 0, 0)
    ac.parse_json("1")  # compile and start the instance outside any timing
    import pyarrow  # noqa: F401 - imported by the ray classes on their first batch: not their time
    started = time.perf_counter()
    done = generator_faults = 0
    generator_errors: list[str] = []
    while done < inputs and time.perf_counter() - started < seconds:
        name = names[done % len(names)] if done < len(names) else g.r.choice(names)
        g.tags = []
        g.raised = False
        BadKey.armed = False
        _current[0] = (name, seed, done, g.tags)
        try:
            parts, call = targets[name](g)
            # Arguments for the methods of what the call returns, made before BadKey is armed.
            extra = [g.argument() for _ in range(3)]
        except Boom:
            # The generator's own hostile parts raised while it built the input: not a finding.
            generator_faults += 1
            done += 1
            continue
        except Exception as e:  # noqa: BLE001 - a bug of the generator: reported, the run goes on
            tb = traceback.extract_tb(e.__traceback__)
            where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
            generator_errors.append(f"{name}: {type(e).__name__} at {where} seed={seed} input={done}")
            done += 1
            continue
        BadKey.armed = True
        size = _size(*parts)
        defaults = not g.raised and not any(_size(parts[i]) > MB for i in PROGRAM_DATA.get(name, ()) if i < len(parts))
        instance = _runtime._instance()
        t0, cpu0 = time.perf_counter(), time.process_time()
        handed = [0]
        try:
            _exercise(call(), extra, handed)
        except ac.ContractError:
            if name in NEVER_RAISE:
                escapes.append(f"{name} raised ContractError [{','.join(g.tags)}] seed={seed} input={done}")
        except RuntimeError as e:
            if "assembler" not in str(e) and "lifecycle" not in str(e):
                escapes.append(f"{name}: RuntimeError {e} [{','.join(g.tags)}] seed={seed} input={done}")
        except Exception as e:  # noqa: BLE001 - an escape is what this looks for
            tb = traceback.extract_tb(e.__traceback__)
            where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
            escapes.append(f"{name}: {type(e).__name__} at {where} [{','.join(g.tags)}] seed={seed} input={done}")
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        # The arguments the returned objects' methods were given are input as well: a validator's
        # `get_validator` given a schema of shared containers reads the text the host writes of
        # it, however few bytes the call's own arguments were.
        given = (*parts, *extra[: handed[0]])
        if handed[0]:
            size = _size(*given)
        BadKey.armed = False
        done += 1
        s = stats[name]
        s["calls"] += 1
        timed_size = _written_size(given) if size > 4 * MB and elapsed > REMEASURE_AFTER else size
        if elapsed > s["slowest"][0]:
            s["slowest"] = (elapsed, timed_size)
        if timed_size >= PER_MB_FROM:
            s["per_mb"].append(elapsed / (timed_size / MB))
        if elapsed > SLOW * max(1.0, timed_size / MB):
            # Over the bound in wall-clock time but not in the process's CPU time: the call waited
            # for a core (a stall on a shared machine).
            entry = f"{name} {elapsed:.2f} s ({cpu:.2f} s CPU) on {timed_size} B [{','.join(g.tags)}] seed={seed} input={done - 1}"
            if cpu <= SLOW * max(1.0, timed_size / MB):
                stalls.append(entry)
            else:
                slow.append(entry)
        # The memory the call left in the instance it ran in (read even when the runtime has
        # replaced it since) and, when a later part of the call ran in a fresh one, in that one.
        memory = 0
        for used in {id(i): i for i in (instance, _runtime.current_instance()) if i is not None}.values():
            try:
                memory = max(memory, used.memory_bytes())
            except Exception:  # noqa: BLE001 - an instance left by a trap (counted as an escape)
                pass
        max_memory = max(max_memory, memory)
        # The bound (docs/decisions.md, "The memory bound"): at the default limits, 64 MiB for an
        # input of at most 1 MB, plus 48 MiB per MB past the first for a larger one.
        if defaults:
            if memory > _runtime.MEMORY_BOUND and not _within_bound(memory, size, given):
                over_bound.append(f"{name} left {memory / MB:.0f} MB on {size} B [{','.join(g.tags)}] seed={seed} input={done - 1}")
            if size <= MB:
                max_memory_at_defaults = max(max_memory_at_defaults, memory)
            else:
                max_memory_at_defaults_large = max(max_memory_at_defaults_large, memory)
                if memory > _runtime.MEMORY_BOUND:
                    # Per MB of what was written: `size` counts a value over 4 MB as 8 MB.
                    written = size if size <= 4 * MB else _written_size(given)
                    per_mb = (memory - _runtime.MEMORY_BOUND) / max(written - MB, 1)
                    if per_mb > max_per_mb_past_first[0]:
                        max_per_mb_past_first = (per_mb, name, written, memory)
        if not quiet and done % 50_000 == 0:
            print(f"  seed {seed}: {done} inputs, {len(escapes)} escapes, {len(slow)} slow", file=sys.stderr, flush=True)
    return {
        "inputs": done,
        "seconds": time.perf_counter() - started,
        "escapes": escapes,
        "slow": slow,
        "stalls": stalls,
        "max_wasm_memory": max_memory,
        "max_wasm_memory_at_defaults": max_memory_at_defaults,
        "max_wasm_memory_at_defaults_over_1mb": max_memory_at_defaults_large,
        "max_per_mb_past_first": max_per_mb_past_first,
        "over_bound": over_bound,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "stats": {n: {"calls": s["calls"], "per_mb": s["per_mb"], "slowest": s["slowest"]} for n, s in stats.items()},
        "generator_faults": generator_faults,
        "generator_errors": generator_errors,
        "called": sorted(CALLED),
        "offered": sorted(OFFERED),
    }


def _run_one(args: tuple[int, int, float]) -> dict[str, Any]:
    _watch_memory()  # a process of the command's own (not a test's, which has its bounds)
    return run(args[0], args[1], args[2], quiet=False)


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"inputs": 0, "escapes": [], "slow": [], "stalls": [], "over_bound": [], "generator_errors": [], "max_wasm_memory": 0,
                           "max_wasm_memory_at_defaults": 0, "max_wasm_memory_at_defaults_over_1mb": 0, "max_rss_mb": 0.0,
                           "max_per_mb_past_first": (0.0, "", 0, 0),
                           "stats": {}, "called": [], "offered": []}
    for r in results:
        out["inputs"] += r["inputs"]
        out["escapes"] += r["escapes"]
        out["slow"] += r["slow"]
        out["stalls"] += r["stalls"]
        out["over_bound"] += r["over_bound"]
        out["generator_errors"] += r["generator_errors"]
        out["max_wasm_memory"] = max(out["max_wasm_memory"], r["max_wasm_memory"])
        for key in ("max_wasm_memory_at_defaults", "max_wasm_memory_at_defaults_over_1mb"):
            out[key] = max(out[key], r[key])
        out["max_rss_mb"] = max(out["max_rss_mb"], r["max_rss_mb"])
        out["max_per_mb_past_first"] = max(out["max_per_mb_past_first"], tuple(r["max_per_mb_past_first"]))
        out["called"] = sorted(set(out["called"]) | set(r["called"]))
        out["offered"] = sorted(set(out["offered"]) | set(r["offered"]))
        for name, s in r["stats"].items():
            m = out["stats"].setdefault(name, {"calls": 0, "per_mb": [], "slowest": (0.0, 0)})
            m["calls"] += s["calls"]
            m["per_mb"] += s["per_mb"]
            m["slowest"] = max(m["slowest"], tuple(s["slowest"]))
    return out


def uncalled(result: dict[str, Any]) -> set[str]:
    """The public methods, and the methods results held, that no call reached."""
    return (public_methods() | set(result["offered"])) - set(result["called"])


def report(result: dict[str, Any], seconds: float) -> str:
    lines = [
        f"inputs: {result['inputs']} in {seconds:.0f} s",
        f"escapes: {len(result['escapes'])}",
        f"inputs the generator failed to build (its own bugs, not findings): {len(result['generator_errors'])} "
        f"{result['generator_errors'][:5]}",
        f"calls over {SLOW:.0f} s per MB ({SLOW:.0f} s on inputs <= 1 MB) in CPU time: {len(result['slow'])}; "
        f"in wall-clock time only (stalls: within it in CPU time): {len(result['stalls'])}",
        f"calls at the default limits leaving their instance past the bound ({_runtime.MEMORY_BOUND // MB} MB on <= 1 MB, "
        f"plus {MEMORY_PER_MB_PAST_THE_FIRST} MB per MB past the first): {len(result['over_bound'])}",
        "most memory per MB past the first at the default limits: {:.1f} MB ({} on {} B: {:.0f} MB)".format(
            result["max_per_mb_past_first"][0], *result["max_per_mb_past_first"][1:3], result["max_per_mb_past_first"][3] / MB),
        f"max wasm memory after a call: {result['max_wasm_memory'] / MB:.1f} MB "
        f"(at the default limits: {result['max_wasm_memory_at_defaults'] / MB:.1f} MB on <= 1 MB, "
        f"{result['max_wasm_memory_at_defaults_over_1mb'] / MB:.1f} MB on more); "
        f"max process RSS: {result['max_rss_mb']:.0f} MB",
        f"methods called: {len(result['called'])}; public methods never called: {sorted(uncalled(result))}",
        f"{'function':34} {'calls':>8} {'typical ms/MB':>14} {'slowest ms/MB':>14} {'slowest call':>22}",
    ]
    for name, s in sorted(result["stats"].items()):
        per = s["per_mb"]
        typical = f"{statistics.median(per) * 1000:.1f}" if per else "-"
        worst = f"{max(per) * 1000:.1f}" if per else "-"
        t, size = s["slowest"]
        lines.append(f"{name:34} {s['calls']:>8} {typical:>14} {worst:>14} {t * 1000:>9.1f} ms {size / MB:>6.2f} MB")
    lines += [f"ESCAPE {e}" for e in result["escapes"][:50]]
    lines += [f"SLOW {e}" for e in result["slow"][:50]]
    lines += [f"STALL {e}" for e in result["stalls"][:50]]
    lines += [f"MEMORY {e}" for e in result["over_bound"][:50]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=math.inf, help="stop each process after this long")
    args = parser.parse_args()
    missing = public_functions() - covered()
    if missing:
        sys.exit(f"not fuzzed: {sorted(missing)}")
    started = time.perf_counter()
    share = [(args.inputs // args.procs + (i < args.inputs % args.procs), args.seed + i, args.seconds) for i in range(args.procs)]
    if args.procs == 1:
        results = [_run_one(share[0])]
    else:
        # A worker that dies (the memory watchdog, the kernel) breaks the pool at once, instead
        # of leaving `Pool.map` waiting for its share for ever.
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        try:
            with ProcessPoolExecutor(args.procs, mp_context=multiprocessing.get_context("spawn")) as pool:
                results = list(pool.map(_run_one, share))
        except BrokenProcessPool:
            sys.exit("a worker process ended before its share was done (its message, if any, is above)")
    merged = merge(results)
    print(report(merged, time.perf_counter() - started))
    if merged["escapes"] or merged["slow"] or merged["over_bound"] or uncalled(merged):
        sys.exit(1)


if __name__ == "__main__":
    main()
