"""The stateful objects: each holds a resource of the core in the calling thread's instance (a
wasmtime `Store` is single-threaded), so it is used from the thread that created it. `Handle`
is their one base: `close()` (or `with`) drops the resource at once; one garbage-collected
unclosed is queued and dropped by the next resource call on its thread (a finalizer may run on
any thread and must not touch the store). Every verdict is the core's."""

from __future__ import annotations

import threading
import weakref
from typing import Any, AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Optional

from . import _runtime
from ._host_text import write
from ._text import cross, is_text, limit_options, limits_of, numbers, snapshot
from ._wire import collector_paused, config, error, loads, not_text, options_text, reply, unwrap
from ._types import AssembledResponse, NdjsonFrame, ProviderResponse, RpcObservation, SessionReport, StopReason


class Handle:
    """A resource of the core, owned by this object."""

    __slots__ = ()
    _kind = ""
    _instance: Any
    _resource: Any
    _thread: int
    _finalizer: Optional[weakref.finalize] = None

    def _bind(self, instance: Any, resource: Any) -> None:
        self._instance, self._resource, self._thread = instance, resource, threading.get_ident()
        self._finalizer = weakref.finalize(self, instance.pending_drops.append, resource)

    def _make(self, *args: str, check: str = "check") -> None:
        """A new resource of `_kind` from `args`; its `check` raises invalid options now."""
        instance = _runtime.assembler_instance()
        self._bind(instance, instance.resource_new(self._kind, *args))
        if check:
            try:
                self._call(check)
            except BaseException:
                self.close()
                raise

    def _raw(self, method: str, *args: Any) -> Any:
        if self._finalizer is None:
            raise error(_runtime.described()["objectFreed"])
        if threading.get_ident() != self._thread:
            raise error(_runtime.described()["objectOtherThread"])
        return self._instance.resource_call(self._kind, method, self._resource, *args)

    def _call(self, method: str, *args: Any) -> Any:
        return unwrap(reply(self._raw(method, *args)))

    def _push(self, method: str, chunk: Any) -> Any:
        """A chunk through `method` (as `carried` text when it is not valid Unicode: a
        character cut at the chunk's end included, which the core joins with the next chunk)."""
        snap = snapshot(chunk)
        if snap is None:
            return unwrap(not_text(chunk))
        return cross(lambda case, t: self._call(method, case, t), snap)

    def close(self) -> None:
        """Frees the core's memory now. Idempotent."""
        if self._finalizer is None:
            return
        self._finalizer.detach()
        self._finalizer = None
        if threading.get_ident() == self._thread:
            self._instance.drop_resource(self._resource)
        else:
            self._instance.pending_drops.append(self._resource)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ceilings() -> tuple[int, int]:
    """The depth ceiling and the default size: what events and configuration are written with."""
    n = numbers()
    return n[2], n[1]


class Assembler(Handle):
    """Feeds normalized events (`{"type": "start" | "delta" | "end" | "finish" | "cancel", ...}`)
    one at a time; `finish()` returns `{"finishReason", "calls"}` or raises the ContractError
    that ended the stream (every later call raises it again)."""

    _kind = "assembler"

    def __init__(self, options: Any = None) -> None:
        self._make(options_text(options), check="preview")

    def push(self, event: Any) -> None:
        self._call("push", write(event, limits_of(None)[0], _ceilings()[1]))

    def preview(self) -> Any:
        """Arguments so far, for display only (`"executable": False`)."""
        return self._call("preview")

    def finish(self) -> AssembledResponse:
        result: AssembledResponse = self._call("finish")
        return result


class ProviderAssembler(Assembler):
    """One response of a provider (`"openai-chat"`, `"openai-responses"`, `"anthropic"`,
    `"gemini"`): `push` a provider event (a parsed payload, or its JSON text) or `push_sse` raw
    Server-Sent Events (str or bytes, split anywhere)."""

    _kind = "provider-assembler"

    def __init__(self, provider: Any, options: Any = None) -> None:
        self._make(write(provider, 0, limits_of(None)[1]), options_text(options), check="preview")

    def push(self, event: Any) -> None:
        # Written up to the ceilings: the core judges the event by the stream's own limits.
        self._call("push", write(event, *_ceilings()))

    def push_sse(self, chunk: Any) -> None:
        """Applies raw SSE; an event is applied when its blank line arrives."""
        snap = snapshot(chunk)
        if snap is None:
            self._not_text(chunk)
            return
        cross(lambda case, t: self._call("push-sse", case, t), snap)

    def _not_text(self, chunk: Any) -> None:
        self._call("push-sse-value", write(chunk, 0, limits_of(None)[1]))

    def finish(self) -> ProviderResponse:
        result: ProviderResponse = self._call("finish")
        return result


def _items(values: Any, verdict: Callable[[Any], Any]) -> Iterator[Any]:
    """The items of an iterable the caller gave. A value that is not iterable, or an iterator
    that raises, ends the items with `verdict` on it (the core's, which raises)."""
    try:
        iterator = iter(values)
    except Exception:
        verdict(values)
        return
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except Exception as e:
            verdict(e)
            return
        yield item


async def _aitems(values: Any, verdict: Callable[[Any], Any], sync: bool = True) -> AsyncIterator[Any]:
    """`_items` for an async iterable (with `sync`, any other is read as `_chunks` reads it)."""
    if sync and (is_text(values) or not hasattr(type(values), "__aiter__")):
        for item in _chunks(values, verdict):
            yield item
        return
    try:
        iterator = aiter(values)
    except Exception:
        verdict(values)
        return
    while True:
        try:
            item = await anext(iterator)
        except StopAsyncIteration:
            return
        except Exception as e:
            verdict(e)
            return
        yield item


def _chunks(chunks: Any, verdict: Callable[[Any], Any]) -> Iterator[Any]:
    """A stream's chunks: one str or bytes is one chunk; a dict is iterable, but its keys are
    not a stream's chunks."""
    if is_text(chunks):
        return iter((chunks,))
    if issubclass(type(chunks), dict):
        verdict(chunks)
    return _items(chunks, verdict)


# How many characters of SSE lines `assemble_sse_lines` gathers before one crossing into the core.
_LINES_BATCH = 64 * 1024


def _sse_lines(assembler: ProviderAssembler) -> tuple[Callable[[Any], bool], Callable[[Any], None], Callable[[], ProviderResponse]]:
    """SSE lines gathered into ~64 KB batches of one kind (str or bytes) per crossing; a line
    that does not end with CR or LF gets an LF (`iter_lines` strips line ends). Gives `add`
    (False once a line is not text), `fail` (ends the stream with the core's verdict on a
    value that is not text; `finish` raises it) and `finish`."""
    batch: list[Any] = []
    state: list[Any] = [0, None]  # characters gathered, their kind

    def flush() -> None:
        if batch:
            assembler.push_sse("".join(batch) if state[1] is str else b"".join(batch))
        batch.clear()
        state[0] = 0

    def fail(value: Any) -> None:
        flush()
        try:
            assembler._not_text(value)
        except Exception:
            pass  # the stream's error, raised again by finish()

    def add(line: Any) -> bool:
        snap = snapshot(line)
        if snap is None:
            fail(line)
            return False
        if state[1] is not type(snap):
            flush()
            state[1] = type(snap)
        end = ("\n", "\r") if type(snap) is str else (b"\n", b"\r")
        batch.append(snap if snap.endswith(end) else snap + end[0])  # type: ignore[arg-type, operator]
        state[0] += len(snap)
        if state[0] >= _LINES_BATCH:
            flush()
        return True

    def finish() -> ProviderResponse:
        flush()
        return assembler.finish()

    return add, fail, finish


def assemble_sse_lines(provider: Any, lines: Any, options: Any = None) -> ProviderResponse:
    """Consumes an iterator of SSE lines (str or bytes, as `httpx.Response.iter_lines()` gives
    them) and returns the normalized response; the first error stops the iteration and is raised."""
    with ProviderAssembler(provider, options) as assembler:
        add, fail, finish = _sse_lines(assembler)
        for line in _items(lines, fail):
            if not add(line):
                break
        return finish()


async def assemble_sse_lines_async(provider: Any, lines: Any, options: Any = None) -> ProviderResponse:
    """`assemble_sse_lines` for an async iterator (`httpx.Response.aiter_lines()`)."""
    with ProviderAssembler(provider, options) as assembler:
        add, fail, finish = _sse_lines(assembler)
        async for line in _aitems(lines, fail, sync=False):
            if not add(line):
                break
        return finish()


def assemble_provider_stream(provider: Any, input: Any, options: Any = None) -> ProviderResponse:
    """A whole provider stream: raw SSE (str or bytes) or the list of its events (parsed
    payloads, or their JSON texts)."""
    snap = snapshot(input)
    if snap is not None:
        with ProviderAssembler(provider, options) as assembler:
            assembler.push_sse(snap)
            return assembler.finish()
    # A list of events crosses once; each event gets its own depth count, as from JS.
    arguments = (write(provider, 0, limits_of(None)[1]), write(input, *_ceilings(), 0))
    result: ProviderResponse = unwrap(reply(_runtime.call_args("assemble-provider-stream", (*arguments, options_text(options)))))
    return result


class SessionChecker(Handle):
    """The incremental session reader: `push(chunk)` (str or bytes, cut anywhere) returns the
    problems of the lines the chunk completed; `finish()` the report `check_session` gives."""

    _kind = "session-checker"

    def __init__(self, options: Any = None) -> None:
        self._make(options_text(options), check="preview")

    def push(self, chunk: Any) -> list[Any]:
        found: list[Any] = self._push("push", chunk)
        return found

    def problems(self) -> list[Any]:
        """Every problem found so far."""
        found: list[Any] = self._call("preview")
        return found

    def finish(self) -> SessionReport:
        result: SessionReport = self._call("finish")
        return result


class Session:
    """A session read whole (`read_session`): `header`, `entries`, `roots`, `leaves()`, and the
    tree queries `branch(id)`, `children(id)`, `context(leaf_id)`, each answered by the core,
    which reads the text again (`query_session`)."""

    def __init__(self, text: Any, options: Any, value: dict[str, Any], query: Callable[..., Any]) -> None:
        self._text, self._options, self._query = text, options, query
        self.header = value["header"]
        self.entries: list[Any] = value["entries"]
        self.roots: list[str] = value["roots"]
        self._leaves: list[str] = value["leaves"]

    def leaves(self) -> list[str]:
        return list(self._leaves)

    def branch(self, entry_id: str) -> list[Any]:
        return self._query(self._text, {"branch": entry_id}, self._options)  # type: ignore[no-any-return]

    def children(self, entry_id: str) -> list[str]:
        return self._query(self._text, {"children": entry_id}, self._options)  # type: ignore[no-any-return]

    def context(self, leaf_id: str) -> Any:
        return self._query(self._text, {"context": leaf_id}, self._options)


class PromptLifecycle(Handle):
    """One ACP session's prompt lifecycle: the cancel fence and settlement after quiescence,
    decided by the core's state machine."""

    _kind = "prompt-lifecycle"

    def __init__(self) -> None:
        self._make(check="")

    def _step(self, name: str, arg: str = "") -> Any:
        return self._call("call", name, arg)

    def admitted(self) -> None:
        """A prompt passed admit_prompt: it is in flight (PROMPT_IN_FLIGHT while another is)."""
        self._step("admitted")

    def written(self) -> None:
        """Its attachments are written (optional, before enqueue())."""
        self._step("written")

    def enqueue(self) -> None:
        """The final cancel check and the hand-over to the agent (PROMPT_CANCELLED after cancel())."""
        self._step("enqueue")

    def cancel(self) -> bool:
        """session/cancel: whether the agent must be cancelled (only when the message was enqueued)."""
        return self._step("cancel")  # type: ignore[no-any-return]

    def agent_idle(self) -> None:
        self._step("agentIdle")

    def output_delivered(self) -> None:
        self._step("outputDelivered")

    def settle(self, reason: Optional[str] = None) -> StopReason:
        """The stop reason once admission, the agent and the output are quiet ("cancelled" after
        cancel(), else `reason`, default "end_turn"); PROMPT_NOT_QUIESCENT before."""
        return self._step("settle", "" if reason is None else write(reason, 0, limits_of(None)[1]))  # type: ignore[no-any-return]

    def abandon(self) -> None:
        """Ends a prompt whose admission failed after admitted() (before enqueue())."""
        self._step("abandon")


def rpc_message(value: Any, options: Any = None) -> str:
    """A JSON-RPC message as host text, under the limits the core copies it with: an ACP prompt
    carries its images as base64 strings, so a message's default `maxBytes` is the decoder's
    `maxLineBytes` default, not the other operations' (src/rpc/options.rs)."""
    depth, size, _ = limit_options(options)
    return write(value, depth or limits_of(None)[0], size or (16 << 20))


def link_batch_reply(c: Any) -> Any:
    """A batch's reply comes as True: it is the list of its items' replies that are not None, in
    order, and holds those same objects (the core's `wire::batch_reply_linked`)."""
    if c.get("reply") is True and c.get("kind") == "batch":
        c["reply"] = [item["reply"] for item in c["items"] if item["reply"] is not None]
    return c


class RpcSession(Handle):
    """One JSON-RPC connection: report every message received (`incoming`) and sent
    (`outgoing`); each returns the message's classification with `problems`."""

    _kind = "rpc-session"

    def __init__(self, options: Any = None) -> None:
        self._options = options
        self._make(options_text(options))

    def incoming(self, message: Any) -> RpcObservation:
        return link_batch_reply(self._call("incoming", rpc_message(message, self._options)))  # type: ignore[no-any-return]

    def outgoing(self, message: Any) -> RpcObservation:
        return link_batch_reply(self._call("outgoing", rpc_message(message, self._options)))  # type: ignore[no-any-return]


def _frames(items: list[Any]) -> list[Any]:
    """The frames of a decoder's reply, written by the core as dicts, rows and runs
    (`wire::FrameWriter`). A row, `k, offset, text`, is the frame whose other members are those
    of the reply's k-th dict and whose line is the previous frame's plus one; a run, `[k,
    offset, text, count, stride]`, is `count` such rows with one text, `stride` bytes apart.
    Containers are copied, so no two frames share one. A frame's message comes as True: the
    core accepted the line's text as exactly one I-JSON value, so `json.loads` of it is the
    value it would have written; a batch's reply comes as True."""
    frames: list[Any] = []
    objects: list[dict[str, Any]] = []
    makers: dict[int, Callable[[str, int, int], Any]] = {}
    append = frames.append
    line, i, n = 0, 0, len(items)
    while i < n:
        item = items[i]
        kind = type(item)
        if kind is dict:
            objects.append(item)
            append(item)
            line = item["line"]
            i += 1
            continue
        if kind is not list:  # a row: the most common item of a flood of mixed lines
            make = makers.get(item)
            if make is None:
                make = makers[item] = _maker(objects[item])
            line += 1
            append(make(items[i + 2], line, items[i + 1]))
            i += 3
            continue
        k, start, text, count, stride = item
        i += 1
        make = makers.get(k)
        if make is None:
            make = makers[k] = _maker(objects[k])
        for offset in range(start, start + count * stride, stride):
            line += 1
            append(make(text, line, offset))
    for frame in objects:
        if frame.get("message") is True:
            frame["message"] = loads(frame["text"])
        link_batch_reply(frame)
    return frames


def _maker(base: dict[str, Any]) -> Callable[[str, int, int], Any]:
    """The frames of dict `base`'s rows: its copy with a row's text, line and offset, and for a
    message the core accepted, a copy of the line's value (parsed once per text: lines of a few
    kinds repeat, a flood of `[1]` between blank lines); a batch's reply linked."""
    copy = _copier(base)
    parse = base.get("message") is True
    link = base.get("reply") is True and base.get("kind") == "batch"
    if not parse and not link:

        def plain(text: str, line: int, offset: int) -> Any:
            frame = copy(base)
            frame["text"], frame["line"], frame["offset"] = text, line, offset
            return frame

        return plain
    # Each text's value and, once the text comes again, its copier. A text's first frame takes
    # the value it parsed; a later one a copy of it, which nothing has changed: no frame is
    # handed out before all are made. A flood of distinct lines (`[1]`, `[2]`...) so makes no
    # copier and no copy.
    messages: dict[str, list[Any]] = {}

    def full(text: str, line: int, offset: int) -> Any:
        frame = copy(base)
        frame["text"], frame["line"], frame["offset"] = text, line, offset
        if parse:
            known = messages.get(text)
            if known is None:
                message = loads(text)
                messages[text] = [message, None]
            else:
                message, copy_message = known
                if type(message) is dict or type(message) is list:
                    if copy_message is None:
                        copy_message = known[1] = _copier(message)
                    message = copy_message(message)
            frame["message"] = message
        if link:
            frame["reply"] = [item["reply"] for item in frame["items"] if item["reply"] is not None]
        return frame

    return full


def _copier(value: Any) -> Callable[[Any], Any]:
    """A function copying `value`, a dict or list parsed from JSON, and the containers inside
    it (the leaves are immutable): made once per object a reply's rows name, called per row.
    A container holding one container copies it without a loop (a batch frame is such a chain:
    items, item, reply, error), a third less time per frame."""
    if type(value) is dict:
        inner = [(k, _copier(v)) for k, v in value.items() if type(v) in (dict, list)]
        if not inner:
            return dict.copy
        if len(inner) == 1:
            [(key, copy_one)] = inner

            def copy_member(v: dict[str, Any]) -> dict[str, Any]:
                out = v.copy()
                out[key] = copy_one(v[key])
                return out

            return copy_member

        def copy_dict(v: dict[str, Any]) -> dict[str, Any]:
            out = v.copy()
            for k, copy in inner:
                out[k] = copy(v[k])
            return out

        return copy_dict
    copies = [_copier(v) if type(v) in (dict, list) else None for v in value]
    if not any(copies):
        return list.copy
    if len(copies) == 1:
        only = copies[0]
        return lambda v: [only(v[0])]  # type: ignore[misc]
    return lambda v: [x if copy is None else copy(x) for x, copy in zip(v, copies)]


class NdjsonDecoder(Handle):
    """NDJSON frames: `push(chunk)` (str or bytes, split anywhere) returns the frames of the
    lines it completed, `end()` the final line's frame."""

    _kind = "ndjson-decoder"

    def __init__(self, options: Any = None) -> None:
        self._make(options_text(options))

    def push(self, chunk: Any) -> list[NdjsonFrame]:
        # A long chunk crosses in slices of its own copy, each reply holding the frames of its
        # lines (a megabyte of blank lines is a million frames); the core joins a character
        # cut at a slice's end with the next slice, as between chunks.
        snap = snapshot(chunk)
        slice_units = self._instance.policy.ndjson_slice_units
        with collector_paused():
            if snap is None or len(snap) <= slice_units:
                return _frames(self._push("push", chunk if snap is None else snap))
            frames: list[NdjsonFrame] = []
            start = 0
            while start < len(snap):
                end = start + slice_units
                if type(snap) is str and end < len(snap) and "\ud800" <= snap[end - 1] <= "\udbff":
                    end += 1  # a surrogate pair written as two code points stays in one slice
                frames.extend(_frames(self._push("push", snap[start:end])))
                start = end
            return frames

    def end(self) -> list[NdjsonFrame]:
        with collector_paused():
            return _frames(self._call("end"))

    def buffered_bytes(self) -> int:
        """Bytes of the current line held now (never over maxLineBytes)."""
        return self._raw("buffered")  # type: ignore[no-any-return]


def _raise_not_text(value: Any) -> None:
    unwrap(not_text(value))


def ndjson_frames(chunks: Iterable[Any], options: Any = None) -> Iterator[NdjsonFrame]:
    """Every frame of a stream of chunks (an iterable of str or bytes, e.g. a binary file read
    in blocks); the decoder is closed at the end either way."""
    with NdjsonDecoder(options) as decoder:
        for chunk in _chunks(chunks, _raise_not_text):
            yield from decoder.push(chunk)
        yield from decoder.end()


async def ndjson_frames_async(chunks: AsyncIterable[Any] | Iterable[Any], options: Any = None) -> AsyncIterator[NdjsonFrame]:
    """The same over an async iterable (an asyncio StreamReader's chunks) or an iterable."""
    with NdjsonDecoder(options) as decoder:
        async for chunk in _aitems(chunks, _raise_not_text):
            for frame in decoder.push(chunk):
                yield frame
        for frame in decoder.end():
            yield frame


class _Purity(Handle):
    _kind = "stdout-purity"

    def __init__(self, options: Any) -> None:
        self._make(options_text(options))


def check_stdout_purity(text: Any, options: Any = None) -> Any:
    """Every line of an agent's stdout that is not a protocol frame: `{pure, frames,
    problemCount, problems: [{line, offset, code, reason}], truncated}`. `text` is one str or
    bytes, or an iterable of chunks."""
    with _Purity(options) as purity:
        for i, chunk in enumerate(_chunks(text, _raise_not_text)):
            if snapshot(chunk) is None:
                decoded = not_text(chunk)
                decoded["error"]["path"] = "" if is_text(text) else f"/{i}"
                unwrap(decoded)
            purity._push("push", chunk)
        return purity._call("finish")
