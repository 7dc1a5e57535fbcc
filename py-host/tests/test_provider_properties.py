"""Provider adapter properties from Python (hypothesis), the twin of tests/provider_properties.rs
and js-tests/test/provider-properties.test.mjs, for every provider (OpenAI Chat, OpenAI Responses,
Anthropic, Gemini: whole and streamed functionCalls, partial args at JSON Paths):
- random chunk splits of raw SSE give the unsplit outcome: bytes chunks cut anywhere (single
  bytes, inside multi-byte UTF-8), str chunks, and `assemble_sse_lines`, for every recording in
  ../shared/conformance/provider-streams (skipped, with a message, when ../shared is absent) and
  for synthetic streams with non-ASCII arguments, interleaved parallel calls, ignorable events and
  every SSE framing; synthetic streams also match an oracle;
- mutated streams never yield a call the valid stream did not have; truncation, a non-normal
  finish, a dropped tool-call end and cut arguments are errors with their codes;
- replay (two assemblers, finish() twice, preview()) is identical;
- arbitrary values, strings and bytes never raise anything but ContractError."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agent_contract as ac
from test_properties import SETTINGS, values

PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini"]
RECORDINGS = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "provider-streams"
HAVE_RECORDINGS = RECORDINGS.is_dir()
needs_recordings = pytest.mark.skipif(
    not HAVE_RECORDINGS, reason=f"{RECORDINGS} is absent (synthetic streams still run)"
)


def capture(f: Callable[[], Any]) -> dict[str, Any]:
    """{ok, value} or the ContractError's {layer, code, path}; anything else raised fails the test."""
    try:
        return {"ok": True, "value": f()}
    except ac.ContractError as error:
        return {"ok": False, "layer": error.layer, "code": error.code, "path": error.path}


def chunked(provider: str, chunks: list[Any]) -> dict[str, Any]:
    with ac.ProviderAssembler(provider) as a:
        def run() -> Any:
            for c in chunks:
                a.push_sse(c)
            return a.finish()
        return capture(run)


def whole(provider: str, data: Any) -> dict[str, Any]:
    return capture(lambda: ac.assemble_provider_stream(provider, data))


def cut(seq: Any, cuts: list[float]) -> list[Any]:
    points = sorted(min(len(seq), int(c * (len(seq) + 1))) for c in cuts)
    out, prev = [], 0
    for p in points:
        out.append(seq[prev:p])
        prev = p
    out.append(seq[prev:])
    return out


cuts_st = st.lists(st.floats(0, 1, exclude_max=True), max_size=30)

# ---------------------------------------------------------------------------------------------
# Recordings


def recorded_sse() -> list[tuple[str, str, bytes]]:
    """Every recording as raw SSE bytes: raw files as they are; each .chunks.txt framed as `data:`
    lines, and again with `event:` lines, CRLF and comments."""
    if not HAVE_RECORDINGS:
        return []
    out = []
    for p in PROVIDERS:
        for f in sorted((RECORDINGS / p).iterdir()):
            data = f.read_bytes()
            if not f.name.endswith(".chunks.txt"):
                out.append((p, f.name, data))
                continue
            lines = [l for l in data.decode("utf-8").split("\n") if l.strip()]
            out.append((p, f"{f.name} (data lines)", "".join(f"data: {l}\n\n" for l in lines).encode()))
            framed = ": recorded\r\n\r\n" + "".join(f"event: e\r\ndata:{l}\r\n: keep-alive\r\n\r\n" for l in lines)
            out.append((p, f"{f.name} (event lines, CRLF, comments)", framed.encode()))
    return out


RECORDED = recorded_sse()


@needs_recordings
def test_recordings_single_byte_chunks_give_the_whole_outcome() -> None:
    for p, name, data in RECORDED:
        if len(data) > 4000:  # the larger ones are cut at random below
            continue
        expected = whole(p, data)
        assert chunked(p, [data[i : i + 1] for i in range(len(data))]) == expected, name


@needs_recordings
@settings(max_examples=200, **SETTINGS)
@given(st.integers(0, 10**6), cuts_st)
def test_recordings_random_splits_give_the_whole_outcome(pick: int, cuts: list[float]) -> None:
    p, name, data = RECORDED[pick % len(RECORDED)]
    expected = whole(p, data)
    text = data.decode("utf-8")
    assert whole(p, text) == expected, name
    assert chunked(p, cut(data, cuts)) == expected, name
    assert chunked(p, cut(text, cuts)) == expected, name
    lines = data.splitlines(keepends=True)
    assert capture(lambda: ac.assemble_sse_lines(p, lines)) == expected, name


# ---------------------------------------------------------------------------------------------
# Synthetic streams: calls with non-ASCII arguments, random fragmenting and interleaving.


def call_id(p: str, i: int) -> str:
    return f"toolu_{i}" if p == "anthropic" else f"call_{i}"


def pieces(text: str, cuts: list[float]) -> list[str]:
    return cut(text, cuts)  # a str: code-point boundaries


_MISSING = object()


def prune(v: Any) -> Any:
    """Gemini: `args` without empty arrays and objects (partial args set values, never [] or {})."""
    if isinstance(v, list):
        kept = [x for x in map(prune, v) if x is not _MISSING]
        return kept if kept else _MISSING
    if isinstance(v, dict):
        kept_d = {k: x for k, x in ((k, prune(x)) for k, x in v.items()) if x is not _MISSING}
        return kept_d if kept_d else _MISSING
    return v


SHORTHAND = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*")
ESCAPES = {"\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def json_path(path: list[Any], style: int) -> str:
    """A JSON Path (RFC 9535) in one of three spellings: `.name` where the shorthand can name it,
    `['name']`, `["name"]` with non-ASCII as \\u escapes (surrogate pairs too)."""
    out = "$"
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
            continue
        if style == 0 and SHORTHAND.fullmatch(seg):
            out += "." + seg
            continue
        q = '"' if style == 2 else "'"
        name = ""
        for c in seg:
            if c in ESCAPES:
                name += ESCAPES[c]
            elif c == q:
                name += "\\" + c
            elif ord(c) < 0x20 or (style == 2 and ord(c) > 0x7F):
                units = c.encode("utf-16-be")
                name += "".join(f"\\u{int.from_bytes(units[k:k + 2], 'big'):04x}" for k in range(0, len(units), 2))
            else:
                name += c
        out += f"[{q}{name}{q}]"
    return out


def partial_args(args: Any, cuts: list[float], shape: int, seed: int) -> list[dict[str, Any]]:
    """Gemini: the partial args that build `args` (pruned), strings in pieces at `cuts`."""
    found: list[tuple[list[Any], Any]] = []

    def leaves(v: Any, path: list[Any]) -> None:
        if isinstance(v, list):
            for i, x in enumerate(v):
                leaves(x, path + [i])
        elif isinstance(v, dict):
            for k, x in v.items():
                leaves(x, path + [k])
        else:
            found.append((path, v))

    pruned = prune(args)
    if pruned is not _MISSING:
        leaves(pruned, [])
    out: list[dict[str, Any]] = []
    for k, (path, value) in enumerate(found):
        at = json_path(path, (k + seed) % 3)
        if isinstance(value, str):
            parts = pieces(value, cuts) + ([""] if shape & 8 else [])
            out += [{"jsonPath": at, "stringValue": piece, **({"willContinue": True} if j < len(parts) - 1 else {})}
                    for j, piece in enumerate(parts)]
        elif isinstance(value, bool):
            out.append({"jsonPath": at, "boolValue": value})
        elif isinstance(value, (int, float)):
            out.append({"jsonPath": at, "numberValue": value})
        else:
            out.append({"jsonPath": at, "nullValue": "NULL_VALUE" if k % 2 == 0 else None})
    return out


def gemini_noise(t: str, kind: int) -> dict[str, Any]:
    """Gemini: a part that carries no call (text, thought, signature, inline data, a call in a thought)."""
    return [
        {"text": t},
        {"text": t, "thought": True},
        {"text": t, "thoughtSignature": "c2lnbmF0dXJl"},
        {"inlineData": {"mimeType": "text/plain", "data": "5p2x5Lqs"}},
        {"thought": True, "functionCall": {"name": "write", "args": {"t": t}}},
    ][kind % 5]


GEMINI_RID = "gem-東京-😀"


def gemini_payload(parts: list[Any], rid: bool, index: bool) -> dict[str, Any]:
    v: dict[str, Any] = {"candidates": [{"content": {"role": "model", "parts": parts}}], "modelVersion": "gemini-3-flash"}
    if index:
        v["candidates"][0]["index"] = 0
    if rid:
        v["responseId"] = GEMINI_RID
    return v


def call_part(payload: dict[str, Any]) -> dict[str, Any]:
    """A Gemini payload's call part: its first functionCall outside a thought."""
    return next(part["functionCall"] for part in payload["candidates"][0]["content"]["parts"]
                if "thought" not in part and "functionCall" in part)


def build(p: str, spec: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The provider's events for `spec`, each {payload, role, i}, and the response they must give.
    Gemini's shape of call i is spec["shapes"][i] (bits): 1 streamed (else a whole functionCall),
    2 the part gives an id, 4 a streamed call ends with an empty functionCall (else with its last
    partial args), 8 strings closed by an empty piece, 16 three partial args per part (the id
    repeated, an explicit willContinue: false), 32 no args for {} (whole) / a bare willContinue
    part (streamed), 64 the first partial args in the naming part, 128 a thoughtSignature on it."""
    calls = spec["calls"]
    n = len(calls)
    texts = [json.dumps(a, ensure_ascii=False, separators=(",", ":")) for _, a in calls]

    def ev(payload: Any, role: str = "other", i: int = -1) -> dict[str, Any]:
        return {"payload": payload, "role": role, "i": i}

    queues: list[list[dict[str, Any]]] = []
    if p == "openai-chat":
        rid = "chatcmpl-東京"

        def chunk(delta: Any, finish: Any = None) -> dict[str, Any]:
            return {"id": rid, "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        prologue = [ev(chunk({"role": "assistant", "content": ""}))]
        for i, (name, _) in enumerate(calls):
            queues.append(
                [ev(chunk({"tool_calls": [{"index": i, "id": call_id(p, i), "type": "function",
                                           "function": {"name": name, "arguments": ""}}]}), "start", i)]
                + [ev(chunk({"tool_calls": [{"index": i, "function": {"arguments": t}}]}), "delta", i)
                   for t in pieces(texts[i], spec["cuts"][i])]
            )
        queues.append([ev(chunk({"content": t})) for t in spec["noise"]])
        epilogue = [
            ev(chunk({}, "tool_calls" if n else "stop"), "finish"),
            ev({"id": rid, "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 3}}),
            ev("[DONE]"),
        ]
    elif p == "anthropic":
        rid = "msg_😀"
        prologue = [ev({"type": "message_start", "message": {"id": rid, "type": "message", "role": "assistant",
                                                               "content": [], "stop_reason": None}})]
        for i, (name, _) in enumerate(calls):
            queues.append(
                [ev({"type": "content_block_start", "index": i,
                     "content_block": {"type": "tool_use", "id": call_id(p, i), "name": name, "input": {}}}, "start", i)]
                + [ev({"type": "content_block_delta", "index": i,
                       "delta": {"type": "input_json_delta", "partial_json": t}}, "delta", i)
                   for t in pieces(texts[i], spec["cuts"][i])]
                + [ev({"type": "content_block_stop", "index": i}, "end", i)]
            )
        text_block = [ev({"type": "content_block_start", "index": n, "content_block": {"type": "text", "text": ""}})]
        for t in spec["noise"]:
            text_block.append(ev({"type": "content_block_delta", "index": n, "delta": {"type": "text_delta", "text": t}}))
            text_block.append(ev({"type": "ping"}))
        text_block.append(ev({"type": "content_block_stop", "index": n}))
        queues.append(text_block)
        epilogue = [
            ev({"type": "message_delta", "delta": {"stop_reason": "tool_use" if n else "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 7}}, "finish"),
            ev({"type": "message_stop"}),
        ]
    elif p == "gemini":
        rid = GEMINI_RID
        index = spec["order"][0] % 2 == 1

        def payload(parts: list[Any]) -> dict[str, Any]:
            return gemini_payload(parts, True, index)

        prologue = []
        # Gemini has no call index: one call streams at a time, and only ignorable parts come
        # between its parts. Calls go in order, noise anywhere.
        q = []
        for i, (name, args) in enumerate(calls):
            shape = spec["shapes"][i]
            id_ = {"id": f"fc-ü-{i}"} if shape & 2 else {}
            if not shape & 1:
                omit = shape & 32 and not args
                q.append(ev(payload([{"functionCall": {"name": name, **({} if omit else {"args": args}), **id_}}]), "start", i))
                continue
            items = partial_args(args, spec["cuts"][i], shape, i)
            size = 3 if shape & 16 else 1
            groups = [items[k : k + size] for k in range(0, len(items), size)]
            start: dict[str, Any] = {"name": name, "willContinue": True, **id_}
            if shape & 64 and groups:
                start["partialArgs"] = groups.pop(0)
            q.append(ev(payload([{"functionCall": start, **({"thoughtSignature": "c2lnbmF0dXJl"} if shape & 128 else {})}]),
                        "start", i))
            if shape & 32:
                q.append(ev(payload([{"functionCall": {"willContinue": True}}]), "delta", i))
            by_empty = bool(shape & 4) or not groups
            for j, g in enumerate(groups):
                ends = not by_empty and j == len(groups) - 1
                call: dict[str, Any] = {"partialArgs": g}
                if not ends:
                    call["willContinue"] = True
                elif shape & 16:
                    call["willContinue"] = False
                if shape & 16:
                    call.update(id_)
                q.append(ev(payload([{"functionCall": call}]), "end" if ends else "delta", i))
            if by_empty:
                q.append(ev(payload([{"functionCall": {}}]), "end", i))
        queues.append(q)
        kind = spec["order"][0]
        queues.append([ev(gemini_payload([gemini_noise(t, j + kind)], (j + kind) % 2 == 0, index))
                       for j, t in enumerate(spec["noise"])])
        finish = payload([{"text": ""}])
        if spec["order"][0] % 4 >= 2:
            del finish["candidates"][0]["content"]
        finish["candidates"][0]["finishReason"] = "STOP"
        finish["usageMetadata"] = {"promptTokenCount": 3, "candidatesTokenCount": 5, "totalTokenCount": 8}
        epilogue = [ev(finish, "finish"), ev({"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 8}, "responseId": rid})]
    else:
        rid = "resp_é"
        prologue = [
            ev({"type": "response.created", "response": {"id": rid, "status": "in_progress", "output": []}}),
            ev({"type": "response.in_progress", "response": {"id": rid, "status": "in_progress"}}),
        ]
        for i, (name, _) in enumerate(calls):
            def item(args: str, status: str, i: int = i, name: str = name) -> dict[str, Any]:
                return {"type": "function_call", "id": f"fc_{i}", "call_id": call_id(p, i), "name": name,
                        "arguments": args, "status": status}
            queues.append(
                [ev({"type": "response.output_item.added", "output_index": i, "item": item("", "in_progress")}, "start", i)]
                + [ev({"type": "response.function_call_arguments.delta", "item_id": f"fc_{i}", "output_index": i,
                       "delta": t}, "delta", i) for t in pieces(texts[i], spec["cuts"][i])]
                + [ev({"type": "response.function_call_arguments.done", "item_id": f"fc_{i}", "output_index": i,
                       "arguments": texts[i]}, "argsDone", i),
                   ev({"type": "response.output_item.done", "output_index": i, "item": item(texts[i], "completed")}, "end", i)]
            )

        def message(status: str) -> dict[str, Any]:
            return {"type": "message", "id": "msg_1", "role": "assistant", "content": [], "status": status}

        queues.append(
            [ev({"type": "response.output_item.added", "output_index": n, "item": message("in_progress")})]
            + [ev({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": n, "content_index": 0,
                   "delta": t}) for t in spec["noise"]]
            + [ev({"type": "response.output_item.done", "output_index": n, "item": message("completed")})]
        )
        epilogue = [ev({"type": "response.completed", "response": {"id": rid, "status": "completed"}}, "finish")]
    events = list(prologue)
    started = []
    k = 0
    order = spec["order"]
    while any(queues):
        live = [q for q in queues if q]
        e = live[order[k % len(order)] % len(live)].pop(0)
        k += 1
        if e["role"] == "start":
            started.append(e["i"])
        events.append(e)
    if p == "gemini":
        # Parallel whole calls and ignorable parts, several parts to a payload.
        def whole(e: dict[str, Any]) -> bool:
            return e["role"] == "other" or (e["role"] == "start" and not spec["shapes"][e["i"]] & 1)

        merged: list[dict[str, Any]] = []
        for k, e in enumerate(events):
            if merged and whole(merged[-1]) and whole(e) and order[k % len(order)] >= 5:
                prev = merged[-1]
                prev["payload"]["candidates"][0]["content"]["parts"] += e["payload"]["candidates"][0]["content"]["parts"]
                prev["payload"]["responseId"] = rid
                if prev["role"] == "other":
                    prev["role"], prev["i"] = e["role"], e["i"]
            else:
                merged.append(e)
        events = merged
    events += epilogue
    if p == "openai-responses":
        for s, e in enumerate(events):
            e["payload"]["sequence_number"] = s

    def expected_call(n: int, i: int) -> dict[str, Any]:
        name, args = calls[i]
        if p != "gemini":
            return {"callId": call_id(p, i), "name": name, "arguments": args}
        shape = spec["shapes"][i]
        if shape & 1:
            args = prune(args)
            args = {} if args is _MISSING else args
        return {"callId": f"fc-ü-{i}" if shape & 2 else f"gemini:{rid}:{n}", "name": name, "arguments": args}

    out_calls = [expected_call(n, i) for n, i in enumerate(started)]
    expected = {"ok": True, "value": {"responseId": rid, "finishReason": "tool_calls" if n else "stop", "calls": out_calls}}
    return events, expected


def payload_text(e: dict[str, Any]) -> str:
    return e["payload"] if isinstance(e["payload"], str) else json.dumps(e["payload"], ensure_ascii=False)


def to_sse(p: str, events: list[dict[str, Any]], framing: int) -> str:
    """Raw SSE text in one of several framings (line ends, BOM, comments, event lines,
    multi-line data, id/retry fields)."""
    end = ["\n", "\r\n", "\r"][framing % 3]
    s = "\ufeff" if framing & 4 else ""
    for i, e in enumerate(events):
        if framing & 8 and i % 3 == 0:
            s += f": ping 東京{end}"
        if p == "anthropic" or framing & 16:
            kind = e["payload"].get("type", "message") if isinstance(e["payload"], dict) else "message"
            s += f"event: {kind}{end}"
        if framing & 32 and not isinstance(e["payload"], str):
            for line in json.dumps(e["payload"], ensure_ascii=False, indent=2).split("\n"):
                s += f"data:{line}{end}"
        else:
            s += f"data: {payload_text(e)}{end}"
        if framing & 64:
            s += f"id: {i}{end}retry: 10{end}"
        s += end
    return s


text_st = st.sampled_from(["東京", "😀👍🏽", "éü", '"\\\n\t\x00']) | st.text(max_size=6)
arg_values = st.recursive(
    text_st | st.integers(-1000, 1000) | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["a", "1 b"]) | st.text(max_size=3), inner, max_size=2),
    max_leaves=8,
)
args_st = st.dictionaries(st.sampled_from(["city", "都市", "a\t'\"\\b"]) | st.text(max_size=4), arg_values, max_size=3)
spec_st = st.fixed_dictionaries({
    "calls": st.lists(st.tuples(st.sampled_from(["read_file", "search", "get_weather", "write"]), args_st), max_size=3),
    "cuts": st.lists(st.lists(st.floats(0, 1, exclude_max=True), max_size=5), min_size=3, max_size=3),
    "order": st.lists(st.integers(0, 7), min_size=1, max_size=20),
    "noise": st.lists(st.sampled_from(["東京は晴れ", "🌧️"]) | st.text(max_size=5), max_size=2),
    "shapes": st.lists(st.integers(0, 255), min_size=3, max_size=3),
})
providers = st.sampled_from(PROVIDERS)


@settings(max_examples=300, **SETTINGS)
@given(providers, spec_st, st.integers(0, 127), cuts_st)
def test_synthetic_streams_any_split_give_the_oracle(p: str, spec: Any, framing: int, cuts: list[float]) -> None:
    events, expected = build(p, spec)
    assert whole(p, [e["payload"] for e in events]) == expected, "events as objects"
    assert whole(p, [payload_text(e) for e in events]) == expected, "events as payload texts"
    sse = to_sse(p, events, framing)
    data = sse.encode("utf-8")
    assert whole(p, sse) == expected, "SSE str"
    assert whole(p, data) == expected, "SSE bytes"
    assert chunked(p, cut(data, cuts)) == expected, "bytes cut anywhere"
    assert chunked(p, [bytearray(c) for c in cut(data, cuts)]) == expected, "bytearray chunks"
    assert chunked(p, cut(sse, cuts)) == expected, "str cut anywhere"
    # bytes.splitlines() splits at CR / LF / CRLF only, as SSE does (str.splitlines() also splits
    # at U+0085, U+2028... inside the JSON): str lines are the decoded byte lines.
    lines = data.splitlines(keepends=True) if framing % 2 else [l.decode("utf-8") for l in data.splitlines()]
    assert capture(lambda: ac.assemble_sse_lines(p, lines)) == expected, "assemble_sse_lines"


@settings(max_examples=60, **SETTINGS)
@given(providers, spec_st, st.integers(0, 127))
def test_synthetic_streams_single_byte_chunks_give_the_oracle(p: str, spec: Any, framing: int) -> None:
    events, expected = build(p, spec)
    data = to_sse(p, events, framing).encode("utf-8")
    assert chunked(p, [data[i : i + 1] for i in range(len(data))]) == expected


# ---------------------------------------------------------------------------------------------
# Mutations and replay


def replay(p: str, events: list[Any]) -> dict[str, Any]:
    """Two assemblers fed the same events agree, finish() twice agrees, previews agree."""
    def run() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        with ac.ProviderAssembler(p) as a:
            for e in events:
                if not capture(lambda: a.push(e))["ok"]:
                    break
            preview = capture(a.preview)
            return capture(a.finish), capture(a.finish), preview

    first, again, preview = run()
    second, _, preview2 = run()
    assert again == first, "finish() twice"
    assert second == first, "two assemblers"
    assert preview2 == preview and preview["ok"] and preview["value"]["executable"] is False
    assert whole(p, events) == first, "assemble_provider_stream"
    return first


index_st = st.floats(0, 1, exclude_max=True)
junk_values = (
    st.recursive(
        st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=6)
        | st.sampled_from(["message_start", "content_block_start", "response.created", "tool_use", "[DONE]"]),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
            st.sampled_from(["type", "index", "choices", "delta", "id", "item", "item_id", "tool_calls", "function",
                             "finish_reason", "response", "candidates", "content", "parts", "functionCall",
                             "partialArgs", "finishReason"]) | st.text(max_size=4), inner, max_size=4),
        max_leaves=12,
    )
    | values
)
mutation_st = st.one_of(
    st.tuples(st.just("drop"), index_st),
    st.tuples(st.just("duplicate"), index_st),
    st.tuples(st.just("swap"), index_st, index_st),
    st.tuples(st.just("junk"), index_st, st.text(max_size=12) | st.sampled_from(["[DONE]", "{", ""])),
    st.tuples(st.just("value"), index_st, junk_values),
    st.tuples(st.just("cut"), index_st, index_st),
)


def mutate(lst: list[Any], m: tuple[Any, ...]) -> None:
    n = len(lst)
    at = lambda u, k: int(u * k)  # noqa: E731
    op = m[0]
    if n == 0 and op not in ("junk", "value"):
        return
    if op == "drop":
        del lst[at(m[1], n)]
    elif op == "duplicate":
        lst.insert(at(m[1], n), lst[at(m[1], n)])
    elif op == "swap":
        i, j = at(m[1], n), at(m[2], n)
        lst[i], lst[j] = lst[j], lst[i]
    elif op in ("junk", "value"):
        lst.insert(at(m[1], n + 1), m[2])
    else:
        k = at(m[1], n)
        try:
            t = lst[k] if isinstance(lst[k], str) else json.dumps(lst[k])
        except (TypeError, ValueError):
            t = ""
        lst[k] = t[: at(m[2], len(t) + 1)]


def names(o: dict[str, Any]) -> list[tuple[str, str]]:
    """(callId, name) of each call. Gemini's derived ids are positions (gemini:<responseId>:<n>, n
    the call's place in the response): a dropped or repeated whole functionCall part (Gemini gives
    no index to tell a repeat from a second call) renumbers the calls after it, so a derived id is
    checked to be the call's place and compared as gemini:*; ids Gemini gave are compared as they are."""
    if not o["ok"]:
        return []
    rid = "" if o["value"]["responseId"] is None else f"{o['value']['responseId']}:"
    out = []
    for n, c in enumerate(o["value"]["calls"]):
        if c["callId"].startswith("gemini:"):
            assert c["callId"] == f"gemini:{rid}{n}", "a derived id is the call's place"
            out.append(("gemini:*", c["name"]))
        else:
            out.append((c["callId"], c["name"]))
    return out


@settings(max_examples=400, **SETTINGS)
@given(providers, spec_st, st.lists(mutation_st, min_size=1, max_size=4), st.booleans())
def test_mutated_streams_never_yield_a_new_call(p: str, spec: Any, ms: Any, as_text: bool) -> None:
    events, expected = build(p, spec)
    lst = [payload_text(e) if as_text else e["payload"] for e in events]
    for m in ms:
        mutate(lst, m)
    known = names(expected)
    for c in names(replay(p, lst)):
        assert c in known, c


def recorded_lists() -> list[tuple[str, list[str]]]:
    if not HAVE_RECORDINGS:
        return []
    return [
        (p, [l for l in f.read_text("utf-8").split("\n") if l.strip()])
        for p in PROVIDERS
        for f in sorted((RECORDINGS / p).iterdir())
        if f.name.endswith(".chunks.txt")
    ]


RECORDED_LISTS = recorded_lists()


@needs_recordings
@settings(max_examples=150, **SETTINGS)
@given(st.integers(0, 10**6), st.lists(mutation_st, min_size=1, max_size=3))
def test_mutated_recordings_never_yield_a_new_call(pick: int, ms: Any) -> None:
    p, lines = RECORDED_LISTS[pick % len(RECORDED_LISTS)]
    known = names(whole(p, lines))
    lst = list(lines)
    for m in ms:
        mutate(lst, m)
    for c in names(replay(p, lst)):
        assert c in known, c


DELTA_PATH = {"openai-chat": ["choices", 0, "delta", "tool_calls", 0, "function", "arguments"],
              "anthropic": ["delta", "partial_json"], "openai-responses": ["delta"]}


def get_path(o: Any, path: list[Any]) -> Any:
    for k in path:
        o = o[k]
    return o


def set_path(o: Any, path: list[Any], v: Any) -> None:
    get_path(o, path[:-1])[path[-1]] = v


@settings(max_examples=200, **SETTINGS)
@given(providers, spec_st, index_st, index_st, st.integers(0, 3), st.integers(0, 127))
def test_damaged_streams_are_errors_with_their_codes(p: str, spec: Any, keep: float, which: float, reason: int,
                                                     framing: int) -> None:
    events, _ = build(p, spec)
    finish = next(k for k, e in enumerate(events) if e["role"] == "finish")

    def check(evs: list[dict[str, Any]], codes: list[str], what: str) -> None:
        got = replay(p, [e["payload"] for e in evs])
        assert not got["ok"] and got["code"] in codes, (what, got)
        data = to_sse(p, evs, framing).encode("utf-8")
        assert chunked(p, cut(data, [keep, which])) == got, (what, "as SSE")

    check(events[: int(keep * (finish + 1))], ["INCOMPLETE_RESPONSE"], "truncated")

    changed = copy.deepcopy(events)
    f = changed[finish]
    if p == "openai-chat":
        f["payload"]["choices"][0]["finish_reason"] = ["length", "content_filter", "weird", "insufficient_system_resource"][reason]
    elif p == "anthropic":
        f["payload"]["delta"]["stop_reason"] = ["max_tokens", "refusal", "pause_turn", "model_context_window_exceeded"][reason]
    elif p == "gemini":
        if reason == 3:
            f["payload"] = {"error": {"code": 500, "message": "x", "status": "INTERNAL"}}
        else:
            f["payload"]["candidates"][0]["finishReason"] = ["MAX_TOKENS", "SAFETY", "MALFORMED_FUNCTION_CALL"][reason]
    else:
        f["payload"] = {
            **[
                {"type": "response.incomplete", "response": {"id": "r", "incomplete_details": {"reason": "max_output_tokens"}}},
                {"type": "response.incomplete", "response": {"id": "r", "incomplete_details": {"reason": "content_filter"}}},
                {"type": "response.failed", "response": {"id": "r", "error": {"code": "server_error"}}},
                {"type": "error", "code": "server_error", "message": "x"},
            ][reason],
            "sequence_number": f["payload"]["sequence_number"],
        }
    check(changed, ["INCOMPLETE_RESPONSE"], "non-normal finish")

    if not spec["calls"]:
        return
    i = int(which * len(spec["calls"]))
    ends = [k for k, e in enumerate(events) if e["role"] == "end" and e["i"] == i]
    if ends:
        # A Gemini call still streaming when the next is named is STREAM_EVENT_INVALID.
        codes = ["INCOMPLETE_TOOL_CALL", "STREAM_EVENT_INVALID"] if p == "gemini" else ["INCOMPLETE_TOOL_CALL"]
        check(events[: ends[0]] + events[ends[0] + 1 :], codes, "end dropped")

    if p == "gemini":
        cut_args = copy.deepcopy(events)
        with_args = [k for k, e in enumerate(cut_args) if e["i"] == i and e["role"] != "other"
                     and ("partialArgs" in call_part(e["payload"]) or "args" in call_part(e["payload"]))]
        if not with_args:
            return
        call = call_part(cut_args[with_args[-1]]["payload"])
        if "args" in call:
            # A whole call's args as the JSON text cut by one character: not an object.
            call["args"] = json.dumps(call["args"])[:-1]
            check(cut_args, ["STREAM_EVENT_INVALID"], "whole arguments cut")
        else:
            # The last value still going on when the call ends (a string) or at all (others).
            call["partialArgs"][-1]["willContinue"] = True
            check(cut_args, ["INCOMPLETE_TOOL_CALL", "STREAM_EVENT_INVALID"], "partial args cut")
        return

    cut_args = copy.deepcopy(events)
    path = DELTA_PATH[p]
    last = max(k for k, e in enumerate(cut_args) if e["role"] == "delta" and e["i"] == i and get_path(e["payload"], path))
    t = get_path(cut_args[last]["payload"], path)[:-1]
    if t:
        set_path(cut_args[last]["payload"], path, t)
    else:
        del cut_args[last]
    check(cut_args, ["JSON_INVALID", "STREAM_EVENT_INVALID"], "arguments cut")
    if p == "openai-responses":
        short = json.dumps(spec["calls"][i][1], ensure_ascii=False, separators=(",", ":"))[:-1]
        for e in cut_args:
            if e["i"] == i and e["role"] == "argsDone":
                e["payload"]["arguments"] = short
            if e["i"] == i and e["role"] == "end":
                e["payload"]["item"]["arguments"] = short
        check(cut_args, ["JSON_INVALID"], "arguments cut everywhere")


# ---------------------------------------------------------------------------------------------
# Hostile input

sse_tokens = st.sampled_from([
    "data: ", "data:", "event: ", ":", "\n", "\r", "\r\n", "\n\n", "[DONE]", "{", "}", '"', ",", "\\", "\ufeff", "東", "😀",
    '{"type":"message_start","message":{"id":"m"}}',
    '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"message_delta","delta":{"stop_reason":"tool_use"}}',
    '{"id":"r","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}',
    '{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
    '{"type":"response.created","response":{"id":"r"}}',
    '{"type":"response.output_item.added","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}',
    '{"type":"response.output_item.done","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}',
    '{"type":"response.completed","response":{"id":"r"}}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}],"responseId":"r"}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}]}}]}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}',
    '{"candidates":[{"content":{"parts":[{"text":"t","thought":true}]}}]}',
    '{"usageMetadata":{"totalTokenCount":1}}',
]) | st.text(max_size=6)
sse_text = st.lists(sse_tokens, max_size=40).map("".join)
sse_bytes = st.lists(sse_tokens.map(lambda t: t.encode()) | st.binary(max_size=6), max_size=40).map(b"".join)


@settings(max_examples=500, **SETTINGS)
@given(providers, sse_text | sse_bytes, cuts_st)
def test_arbitrary_sse_only_contract_errors_and_the_first_is_final(p: str, sse: Any, cuts: list[float]) -> None:
    expected = whole(p, sse)
    first = None
    with ac.ProviderAssembler(p) as a:
        for c in cut(sse, cuts):
            r = capture(lambda: a.push_sse(c))
            if not r["ok"]:
                assert first is None or r == first, "the first error is final"
                first = first or r
        got = capture(a.finish)
    if first:
        assert got == first
    assert got == expected


any_provider = providers | st.sampled_from(["gemini-nope", "", "OpenAI-Chat", "Gemini"]) | values
any_options = st.none() | st.just({}) | st.fixed_dictionaries({"maxArgumentsBytes": st.integers(0, 100) | values}) | values
any_chunk = sse_text | sse_bytes | values


@settings(max_examples=500, **SETTINGS)
@given(any_provider, any_options, st.lists(any_chunk | junk_values, max_size=6), values)
def test_arbitrary_values_only_contract_errors(p: Any, options: Any, chunks: list[Any], input: Any) -> None:
    capture(lambda: ac.assemble_provider_stream(p, input, options))
    capture(lambda: ac.assemble_provider_stream(p, chunks, options))
    safe = ac.safe_assemble_provider_stream(p, input, options)
    assert safe["ok"] or isinstance(safe["error"], ac.ContractError)
    capture(lambda: ac.assemble_sse_lines(p, chunks, options))
    created = capture(lambda: ac.ProviderAssembler(p, options))
    if not created["ok"]:
        return
    with created["value"] as a:
        for c in chunks:
            capture(lambda: a.push(c))
            capture(lambda: a.push_sse(c))
        assert capture(a.preview)["ok"]
        capture(a.finish)
