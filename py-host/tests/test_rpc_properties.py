"""NDJSON decoder properties from Python (hypothesis), the twin of tests/rpc_properties.rs: any
chunking of a stream (bytes cut anywhere, inside characters and CRLFs; str cut at any code
point) gives the unsplit frames; random bytes never raise, the decoder never holds more than
maxLineBytes, and lines and offsets agree with an independent split at LF."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import agent_contract as ac
from test_properties import SETTINGS


def decode(chunks: list[Any], max_line_bytes: int) -> list[Any]:
    with ac.NdjsonDecoder({"maxLineBytes": max_line_bytes}) as decoder:
        frames = []
        for chunk in chunks:
            frames.extend(decoder.push(chunk))
            assert decoder.buffered_bytes() <= max_line_bytes
        frames.extend(decoder.end())
        return frames


def cut(value: Any, cuts: list[float]) -> list[Any]:
    points = sorted(int(c * (len(value) + 1)) for c in cuts)
    out, prev = [], 0
    for p in points:
        out.append(value[prev:p])
        prev = p
    out.append(value[prev:])
    return out


text_st = st.text(alphabet=st.sampled_from(list(" abc~é😀\u2028\u2029\"\\")), max_size=20)
line_st = st.one_of(
    st.from_regex(r"[a-z/]{0,12}", fullmatch=True).map(lambda m: '{"jsonrpc":"2.0","method":"%s"}' % m),
    st.tuples(st.integers(-5, 1000), text_st).map(
        lambda t: '{"jsonrpc":"2.0","id":%d,"method":"m","params":[%s]}' % (t[0], json.dumps(t[1], ensure_ascii=False))
    ),
    st.integers(0, 99).map(lambda i: '{"jsonrpc":"2.0","id":%d,"result":null}' % i),
    st.sampled_from(["", " ", "\t", "[]", "not json", '{"a":1,"a":2}', '[{"jsonrpc":"2.0","method":"a"},1]']),
    text_st,
)
stream_st = st.tuples(st.lists(st.tuples(line_st, st.booleans()), max_size=8), st.booleans()).map(
    lambda t: "".join(
        line + (("\r\n" if crlf else "\n") if i + 1 < len(t[0]) or t[1] else "") for i, (line, crlf) in enumerate(t[0])
    )
)
cuts_st = st.lists(st.floats(0, 1, exclude_max=True), max_size=8)
max_st = st.one_of(st.just(1 << 20), st.integers(8, 80))


@settings(max_examples=150, **SETTINGS)
@given(stream_st, cuts_st, max_st)
def test_any_chunking_gives_the_unsplit_frames(text: str, cuts: list[float], max_line_bytes: int) -> None:
    whole = decode([text], max_line_bytes)
    assert decode(cut(text.encode("utf-8"), cuts), max_line_bytes) == whole
    assert decode(cut(text, cuts), max_line_bytes) == whole


def decode_with(chunks: list[Any], options: dict[str, Any]) -> list[Any]:
    with ac.NdjsonDecoder(options) as decoder:  # type: ignore[arg-type]
        frames = []
        for chunk in chunks:
            frames.extend(decoder.push(chunk))
        frames.extend(decoder.end())
        return frames


repeated_st = st.one_of(
    line_st, st.sampled_from(["x", "x", "", "[1]", "[2]", "x" * 129, "[1,2]", '[3,{"jsonrpc":"2.0","id":4}]'])
)


@settings(max_examples=150, **SETTINGS)
@given(st.lists(st.tuples(repeated_st, st.booleans()), max_size=24), st.booleans(), max_st)
def test_frames_written_as_rows_are_each_line_read_alone(lines: list[tuple[str, bool]], reply: bool, max_line_bytes: int) -> None:
    # A repeated short line, and a line whose members are the previous frame's, cross as a row or a run
    # (wire::FrameWriter) that this side expands: each frame must be what a decoder that met the
    # line alone gives, moved to its place, and share no container with another frame.
    options = {"maxLineBytes": max_line_bytes, "onMalformed": "reply" if reply else "ignore"}
    frames = decode_with(["".join(line + ("\r\n" if crlf else "\n") for line, crlf in lines)], options)
    alone, offset = [], 0
    for i, (line, crlf) in enumerate(lines):
        [frame] = decode_with([line + ("\r\n" if crlf else "\n")], options)
        alone.append({**frame, "line": i + 1, "offset": offset})
        offset += len(line.encode("utf-8")) + (2 if crlf else 1)
    assert frames == alone
    held: set[int] = set()  # no two frames share a container, near or far apart
    for frame in frames:
        for key in ("reply", "items", "message", "id"):
            if isinstance(frame.get(key), (dict, list)):
                assert id(frame[key]) not in held, key
                held.add(id(frame[key]))
    for before, frame in zip(frames, frames[1:]):
        if frame.get("items") and len(before.get("items") or ()) == len(frame["items"]):
            for item, earlier in zip(frame["items"], before["items"]):
                assert item["reply"] is None or item["reply"] is not earlier["reply"]
    for frame in frames:
        assert_linked(frame)


def assert_linked(c: Any) -> None:
    """A batch's reply holds its items' reply objects, those that are not None, in order (the
    core's wire::batch_reply_linked): one object per reply, not two equal ones."""
    if c["kind"] != "batch" or c["reply"] is None:
        return
    answered = [item["reply"] for item in c["items"] if item["reply"] is not None]
    assert len(c["reply"]) == len(answered)
    assert all(reply is item for reply, item in zip(c["reply"], answered))


element_st = st.one_of(
    st.sampled_from([1, "x", None, [], {}, {"jsonrpc": "2.0", "method": "n"}, {"jsonrpc": "2.0", "id": 3, "result": 1}]),
    st.integers(0, 9).map(lambda i: {"jsonrpc": "2.0", "id": i}),
    st.integers(0, 9).map(lambda i: {"jsonrpc": "2.0", "id": i, "method": "m"}),
)


@settings(max_examples=100, **SETTINGS)
@given(st.lists(element_st, min_size=1, max_size=12))
def test_a_batch_reply_holds_its_items_reply_objects_in_every_operation(batch: list[Any]) -> None:
    text = json.dumps(batch)
    with ac.create_rpc_session() as session:
        every = [
            ac.classify_json_rpc(batch),
            ac.classify_json_rpc_json(text),
            ac.classify_json_rpc_json(text.encode()),
            session.incoming(batch),
            session.outgoing(batch),
            *decode_with([f"{text}\n{text}\n"], {"onMalformed": "reply"}),
        ]
    for c in every:
        assert_linked(c)
    assert every[1]["reply"] == every[0]["reply"]


def oracle(data: bytes) -> list[tuple[int, int]]:
    out, start = [], 0
    parts = data.split(b"\n")
    for i, part in enumerate(parts[:-1]):
        out.append((i + 1, start))
        start += len(part) + 1
    if parts[-1]:
        out.append((len(parts), start))
    return out


byte_st = st.one_of(st.sampled_from([0x0A, 0x0D, 0x7B, 0x22]), st.integers(0, 255))


@settings(max_examples=150, **SETTINGS)
@given(st.lists(byte_st, max_size=300), cuts_st, st.integers(1, 64))
def test_random_bytes_one_frame_per_line_within_the_bound(values: list[int], cuts: list[float], max_line_bytes: int) -> None:
    data = bytes(values)
    frames = decode(cut(data, cuts), max_line_bytes)
    assert [(f["line"], f["offset"]) for f in frames] == oracle(data)


def test_the_iterator_helpers_give_the_decoder_frames() -> None:
    text = '{"jsonrpc":"2.0","method":"a"}\r\nlog line\n{"jsonrpc":"2.0","id":1,"result":2}'
    chunks = cut(text.encode("utf-8"), [0.1, 0.5, 0.52, 0.9])
    want = decode([text], 1 << 20)
    assert list(ac.ndjson_frames(chunks)) == want

    async def collect(source: Any) -> list[Any]:
        return [f async for f in ac.ndjson_frames_async(source)]

    async def agen() -> Any:
        for c in chunks:
            yield c

    assert asyncio.run(collect(agen())) == want
    assert asyncio.run(collect(chunks)) == want
    assert [f["kind"] for f in want] == ["notification", "parse_error", "response"]
