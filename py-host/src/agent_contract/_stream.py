"""Stream assembly: the core's `assembler` and `provider-assembler`
resources (WIT resources of the component; wasmtime-py 50 supports component resources),
wrapped in Python classes, plus the one-shot and SSE-lines helpers for provider streams.

A resource lives in the calling thread's instance (a wasmtime `Store` is single-threaded), so an
assembler must be used from the thread that created it. `close()` (or `with`) drops the
resource at once; an assembler that is garbage-collected unclosed is queued and dropped by the
next assembler call on its thread, since a finalizer may run on any thread and must not touch
the store.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, AsyncIterable, Iterable, Optional, Union

from . import _runtime
from ._host_text import (
    CONFIG_MAX_BYTES,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_DEPTH,
    MAX_BYTES_CEILING,
    MAX_DEPTH_CEILING,
    has_surrogates,
    write,
)
from ._text import carried, snapshot, wtf8
from ._types import AssembledResponse, AssemblerOptions, AssemblerPreview, Outcome, ProviderResponse

SseChunk = Union[str, bytes, bytearray, memoryview]

# How many characters of SSE lines `assemble_sse_lines` gathers before one crossing into the core
# (a crossing costs ~15 us whatever it carries; the core's work is linear either way).
_LINES_BATCH = 64 * 1024


class _Resource:
    """A resource of the `assembly` interface in this thread's instance."""

    _kind = ""

    def __init__(self, *args: str) -> None:
        from . import _reply, _unwrap

        self._reply, self._unwrap = _reply, _unwrap
        self._thread = threading.get_ident()
        self._instance = _runtime.assembler_instance()
        self._resource = self._instance.resource_new(self._kind, *args)
        self._finalizer: Optional[weakref.finalize] = weakref.finalize(
            self, self._instance.pending_drops.append, self._resource
        )
        try:
            self._unwrap(self._call("preview"))  # invalid options or provider: raise now
        except BaseException:
            self.close()
            raise

    def _call(self, method: str, *args: Any) -> dict[str, Any]:
        if self._finalizer is None:
            raise RuntimeError("this assembler is closed")
        if threading.get_ident() != self._thread:
            raise RuntimeError("an assembler must be used from the thread that created it")
        return self._reply(self._instance.resource_call(self._kind, method, self._resource, *args))

    def close(self) -> None:
        """Frees the assembler's memory in the core now. Idempotent."""
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


class Assembler(_Resource):
    """Feeds normalized events (`{"type": "start" | "delta" | "end" | "finish" | "cancel", ...}`)
    one at a time; `finish()` returns `{"finishReason", "calls": [{"callId", "name",
    "arguments"}]}` or raises the ContractError that ended the stream."""

    _kind = "assembler"

    def __init__(self, options: Optional[AssemblerOptions] = None) -> None:
        from . import _options_text

        super().__init__(_options_text(options))

    def push(self, event: Any) -> None:
        """Applies one event; raises the ContractError that ends the stream (every later call
        raises it again)."""
        self._unwrap(self._call("push", write(event, DEFAULT_MAX_DEPTH, CONFIG_MAX_BYTES)))

    def preview(self) -> AssemblerPreview:
        """Arguments so far, for display only: `{"executable": False, "finishReason", "calls":
        [{"callId", "name", "argumentsText", "complete"}]}`."""
        result: AssemblerPreview = self._unwrap(self._call("preview"))
        return result

    def finish(self) -> AssembledResponse:
        """The normalized response, or raises ContractError (`INCOMPLETE_RESPONSE`, ...)."""
        result: AssembledResponse = self._unwrap(self._call("finish"))
        return result


class ProviderAssembler(_Resource):
    """One response of a provider (`"openai-chat"`, `"openai-responses"`, `"anthropic"`,
    `"gemini"`): feed it provider events (`push`: a parsed payload, or its JSON text) or raw
    Server-Sent Events (`push_sse`: str or bytes, split anywhere); `finish()` returns
    `{"responseId", "finishReason", "calls"}` or raises the ContractError that ended the stream."""

    _kind = "provider-assembler"

    def __init__(self, provider: Any, options: Optional[AssemblerOptions] = None) -> None:
        from . import _options_text

        # Bytes of a character cut at the end of the last bytes chunk, sent with the next one so
        # that every crossing is a string (wasmtime converts bytes one element at a time).
        self._pending = b""
        super().__init__(write(provider, 0, DEFAULT_MAX_BYTES), _options_text(options))

    def push(self, event: Any) -> None:
        """Applies one provider event; raises the ContractError that ends the stream (every
        later call raises it again)."""
        # Written up to the ceilings: the core judges the event by the stream's own limits, as
        # it judges a JS event read in place.
        self._unwrap(self._call("push", write(event, MAX_DEPTH_CEILING, CONFIG_MAX_BYTES)))

    def push_sse(self, chunk: SseChunk) -> None:
        """Applies raw SSE; an event is applied when its blank line arrives."""
        snap = snapshot(chunk)
        if snap is None:
            # Neither text nor bytes: the verdict is the core's (it reads only the kind).
            self._not_text(chunk)
        elif type(snap) is str:
            if has_surrogates(snap):
                # Not valid Unicode, so not a WIT string: the core gets the WTF-8 bytes, as from JS.
                self._push_bytes(wtf8(snap))
            else:
                self._unwrap(self._call("push-sse", snap))
        else:
            self._push_utf8(snap)

    def _not_text(self, chunk: Any) -> None:
        self._unwrap(self._call("push-sse-value", write(chunk, 0, DEFAULT_MAX_BYTES)))

    def _push_bytes(self, data: bytes) -> None:
        # Invalid UTF-8: the core's SSE decoder decides; carried one byte per code point.
        self._unwrap(self._call("push-sse-bytes", carried(data)))

    def _push_utf8(self, chunk: bytes) -> None:
        data = self._pending + chunk
        self._pending = b""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.reason != "unexpected end of data" or e.end != len(data):
                self._push_bytes(data)
                return
            self._pending = data[e.start :]
            text = data[: e.start].decode("utf-8")
        self._unwrap(self._call("push-sse", text))

    def preview(self) -> Any:
        """`Assembler.preview()` plus `responseId`; never executable."""
        return self._unwrap(self._call("preview"))

    def finish(self) -> ProviderResponse:
        """The normalized response, or raises ContractError (`INCOMPLETE_RESPONSE`, ...)."""
        if self._pending:
            pending, self._pending = self._pending, b""
            self._push_bytes(pending)
        result: ProviderResponse = self._unwrap(self._call("finish"))
        return result


def assemble_provider_stream(
    provider: Any, input: Any, options: Optional[AssemblerOptions] = None
) -> ProviderResponse:
    """A whole provider stream: raw SSE (str or bytes) or the list of its events (parsed
    payloads, or their JSON texts); returns `{"responseId", "finishReason", "calls"}` or raises
    ContractError. The JS `assembleProviderStream` twin."""
    from . import _options_text, _reply, _unwrap

    snap = snapshot(input)
    if snap is not None:
        with ProviderAssembler(provider, options) as assembler:
            assembler.push_sse(snap)
            return assembler.finish()
    # A list of events crosses once; each event gets its own depth count, as from JS.
    text = write(input, MAX_DEPTH_CEILING, CONFIG_MAX_BYTES, 0)
    provider_text = write(provider, 0, DEFAULT_MAX_BYTES)
    reply = _runtime.call_args("assemble-provider-stream", (provider_text, text), _options_text(options))
    result: ProviderResponse = _unwrap(_reply(reply))
    return result


def safe_assemble_provider_stream(
    provider: Any, input: Any, options: Optional[AssemblerOptions] = None
) -> Outcome[ProviderResponse]:
    from . import ContractError

    try:
        return {"ok": True, "value": assemble_provider_stream(provider, input, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def assemble_sse_lines(
    provider: Any, lines: Iterable[SseChunk], options: Optional[AssemblerOptions] = None
) -> ProviderResponse:
    """Consumes an iterator of SSE lines (str or bytes, as `httpx.Response.iter_lines()` gives
    them without their line end, or with it, as a file gives them) and returns the normalized
    response. Lines are sent to the core in batches; the first error stops the iteration and
    is raised."""
    with ProviderAssembler(provider, options) as assembler:
        lines_in = _Lines(assembler)
        try:
            iterator = iter(lines)
        except Exception:
            # Not iterable (None, 5) or its __iter__ raised: the core's verdict on a chunk
            # that is not text ends the stream.
            lines_in.not_text(lines)
            return lines_in.finish()
        while True:
            try:
                line = next(iterator)
            except StopIteration:
                break
            except Exception as error:
                # The caller's iterator raised: the stream ends where it failed, with the
                # core's verdict on the exception as a chunk (its class as the kind).
                lines_in.not_text(error)
                break
            if not lines_in.add(line):
                break
        return lines_in.finish()


async def assemble_sse_lines_async(
    provider: Any, lines: AsyncIterable[SseChunk], options: Optional[AssemblerOptions] = None
) -> ProviderResponse:
    """`assemble_sse_lines` for an async iterator (`httpx.Response.aiter_lines()`,
    `aiohttp`'s `response.content`). The core's work runs on the event loop's thread, where
    the assembler lives; it is linear in the bytes and batched like the sync form."""
    with ProviderAssembler(provider, options) as assembler:
        lines_in = _Lines(assembler)
        try:
            iterator = aiter(lines)
        except Exception:
            lines_in.not_text(lines)
            return lines_in.finish()
        while True:
            try:
                line = await anext(iterator)
            except StopAsyncIteration:
                break
            except Exception as error:
                lines_in.not_text(error)
                break
            if not lines_in.add(line):
                break
        return lines_in.finish()


class _Lines:
    """SSE lines gathered into ~64 KB batches of one kind (str or bytes) per crossing. A line
    that does not end with CR or LF gets an LF (iter_lines strips line ends)."""

    def __init__(self, assembler: ProviderAssembler) -> None:
        self.assembler = assembler
        self.batch: list[Any] = []
        self.size = 0
        self.kind: Optional[type] = None

    def add(self, line: Any) -> bool:
        """Gathers one line; False when it is not text (the stream has then ended)."""
        snap = snapshot(line)
        if snap is None:
            self.not_text(line)
            return False
        line_kind = type(snap)
        if self.kind is not line_kind:
            self.flush()
            self.kind = line_kind
        if line_kind is str:
            self.batch.append(snap if snap.endswith(("\n", "\r")) else snap + "\n")  # type: ignore[operator]
        else:
            self.batch.append(snap if snap.endswith((b"\n", b"\r")) else snap + b"\n")  # type: ignore[operator]
        self.size += len(snap)
        if self.size >= _LINES_BATCH:
            self.flush()
        return True

    def not_text(self, chunk: Any) -> None:
        """Ends the stream with the core's verdict on `chunk`, which is not text (the lines
        before it are applied first); `finish` raises it."""
        self.flush()
        try:
            self.assembler._not_text(chunk)
        except Exception:
            pass  # the stream's error, raised again by finish()

    def flush(self) -> None:
        if self.batch:
            self.assembler.push_sse("".join(self.batch) if self.kind is str else b"".join(self.batch))
        self.batch, self.size = [], 0

    def finish(self) -> ProviderResponse:
        self.flush()
        return self.assembler.finish()
