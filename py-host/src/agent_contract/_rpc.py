"""JSON-RPC 2.0 over NDJSON: the core's `rpc` interface in Python.

Messages are written as host text (the core copies them under its own limits); texts and
chunks cross as strings, or as carried bytes when they are not valid UTF-8. The decoder, the
stdout purity check and the session are resources of the calling thread's instance, like the
assemblers (`_stream.py`): `close()` (or `with`) frees one at once, garbage collection later.
Every verdict is the core's.
"""

from __future__ import annotations

import json
import threading
import weakref
from typing import Any, AsyncIterable, Callable, Iterable, Iterator, AsyncIterator, Optional, Union

from . import _runtime
from ._host_text import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, MAX_DEPTH_CEILING, has_surrogates, limit_options, write
from ._text import carried, snapshot, wtf8
from ._types import (
    JsonRpcClassification,
    JsonRpcErrorReply,
    JsonRpcOptions,
    NdjsonFrame,
    NdjsonOptions,
    RpcObservation,
    RpcSessionOptions,
    StdoutPurity,
)

Chunk = Union[str, bytes, bytearray, memoryview]


# A message's default bound (`maxBytes` of classify, the session's): an ACP prompt carries its
# images as base64 strings, so it is the decoder's maxLineBytes default, not the 4 MiB of the
# other operations (src/rpc/options.rs).
RPC_MAX_BYTES = 16 << 20


def _message(value: Any, options: Any = None) -> str:
    # Written under the limits the core copies it with (an invalid option: the defaults; the
    # core then rejects the options first), so the core reaches the same verdict as from JS.
    depth, size = limit_options(options)
    return write(value, depth or DEFAULT_MAX_DEPTH, size or RPC_MAX_BYTES)


def _opts(options: Any) -> str:
    from . import _options_text

    return _options_text(options)


def _call(export: str, *args: str) -> Any:
    from . import _reply, _unwrap

    return _unwrap(_reply(_runtime.call_rpc(export, *args)))


def classify_json_rpc(value: Any, options: Optional[JsonRpcOptions] = None) -> JsonRpcClassification:
    """`{kind, id?, method?, reply, code?, path?, reason?, items?}` of one message or batch
    (a dict or list); raises ContractError only for invalid options or a value with no JSON form."""
    result: JsonRpcClassification = _link_batch_reply(
        _call("classify-json-rpc", _message(value, options), _opts(options))
    )
    return result


def classify_json_rpc_json(text: Any, options: Optional[JsonRpcOptions] = None) -> JsonRpcClassification:
    """The same for JSON text (str or bytes): text that is not strict JSON is a `parse_error`."""
    from . import _not_text, _unwrap

    opts = _opts(options)
    snap = snapshot(text)
    if snap is None:
        return _unwrap(_not_text(text))  # type: ignore[no-any-return]
    if type(snap) is str:
        if not has_surrogates(snap):
            return _link_batch_reply(_call("classify-json-rpc-json", snap, opts))
        data = wtf8(snap)
    else:
        data = snap
    return _link_batch_reply(_call("classify-json-rpc-json-bytes", carried(data), opts))


def method_not_found(request: Any) -> Optional[JsonRpcErrorReply]:
    """`-32601 Method not found` for a request; None for a notification or anything else."""
    result: Optional[JsonRpcErrorReply] = _call("method-not-found", _message(request))
    return result


def _error_fields(error: Any) -> Any:
    """An exception as the core reads an error: a ContractError's message, another exception's
    when its only argument is a str (read through BaseException's own descriptor: no code of the
    caller runs)."""
    from . import ContractError

    if issubclass(type(error), ContractError):
        return {"message": error.message}
    if issubclass(type(error), BaseException):
        args = BaseException.args.__get__(error)  # type: ignore[attr-defined]
        if type(args) is tuple and len(args) == 1 and type(args[0]) is str:
            return {"message": args[0]}
        return {}
    return error


def internal_error(request: Any, error: Any) -> Optional[JsonRpcErrorReply]:
    """`-32603` with the error's message (a str, or an exception's message: never a
    traceback); None for a notification or anything that is not a request."""
    result: Optional[JsonRpcErrorReply] = _call(
        "internal-error", _message(request), write(_error_fields(error), MAX_DEPTH_CEILING, DEFAULT_MAX_BYTES)
    )
    return result


def invalid_params(request: Any, contract_error: Any) -> Optional[JsonRpcErrorReply]:
    """`-32602 Invalid params` with `data: {code, path}` of a ContractError (or a dict with
    `code` and `path`); None for a notification or anything that is not a request."""
    from . import ContractError

    if issubclass(type(contract_error), ContractError):
        fields: Any = {"code": contract_error.code, "path": contract_error.path}
    else:
        fields = contract_error
    result: Optional[JsonRpcErrorReply] = _call(
        "invalid-params", _message(request), write(fields, MAX_DEPTH_CEILING, DEFAULT_MAX_BYTES)
    )
    return result


class _RpcResource:
    """A resource of the `rpc` interface in this thread's instance."""

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
            self._unwrap(self._call("check"))  # invalid options: raise now
        except BaseException:
            self.close()
            raise

    def _raw(self, method: str, *args: Any) -> Any:
        if self._finalizer is None:
            raise RuntimeError(f"this {self._kind} is closed")
        if threading.get_ident() != self._thread:
            raise RuntimeError(f"a {self._kind} must be used from the thread that created it")
        return self._instance.resource_call(self._kind, method, self._resource, *args)

    def _call(self, method: str, *args: Any) -> dict[str, Any]:
        return self._reply(self._raw(method, *args))  # type: ignore[no-any-return]

    def _push_text(self, chunk: Any) -> Any:
        """A chunk as a string, or as carried bytes when it is not valid UTF-8 (a character
        cut at the chunk's end included: the core joins it with the next chunk)."""
        from . import _not_text

        snap = snapshot(chunk)
        if snap is None:
            return self._unwrap(_not_text(chunk))
        if type(snap) is str:
            if not has_surrogates(snap):
                return self._unwrap(self._call("push", snap))
            data = wtf8(snap)
        else:
            try:
                return self._unwrap(self._call("push", snap.decode("utf-8")))
            except UnicodeDecodeError:
                data = snap
        return self._unwrap(self._call("push-bytes", carried(data)))

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


def _link_batch_reply(c: Any) -> Any:
    """A batch's reply comes as True: it is the list of its items' replies that are not None, in
    order, and holds those same objects (the core's `wire::batch_reply_linked`)."""
    if c.get("reply") is True and c.get("kind") == "batch":
        _link_items_replies(c)
    return c


def _link_items_replies(batch: Any) -> None:
    """`_link_batch_reply` for a frame known to be a batch answered (a row of its dict)."""
    batch["reply"] = [item["reply"] for item in batch["items"] if item["reply"] is not None]


def _frames(items: list[Any]) -> list[Any]:
    """The frames of a decoder's reply. They come as dicts, rows and runs (the core's
    `wire::FrameWriter`). A row is three items, k, offset and text, for the frame whose other
    members are those of the reply's k-th dict and whose line is the previous frame's plus one;
    a run, `[k, offset, text, count, stride]`, is `count` such rows with one text, `stride`
    bytes apart (a megabyte of blank lines is a million frames that differ only in line and
    offset: one run). Shared members that are containers are copied, so no two frames share
    one, as if each had been parsed. A frame's message comes as True: the core accepted the
    line's text as exactly one I-JSON value, so json.loads of that text is the value it would
    have written (see `parse_json`; a run's is parsed once and copied); a batch's reply comes
    as True (`_link_batch_reply`). What a row needs is decided once per dict it names, not per
    row: a megabyte of blank lines is one loop over a million frames and nothing else."""
    frames: list[Any] = []
    append = frames.append
    objects: list[dict[str, Any]] = []
    # Per dict a row names: the dict, a function copying it (`_copier`), whether a row's message
    # is parsed from its text, whether its batch reply is linked. The dicts themselves are
    # finished after the loop: a row copies its dict as the core wrote it.
    named: dict[int, tuple[dict[str, Any], Callable[[Any], Any], bool, bool]] = {}
    loads = json.loads
    last_text: Optional[str] = None  # the text of the previous row parsed, its message, a copier
    last_message: Any = None
    last_copy: Optional[Callable[[Any], Any]] = None
    line = 0
    i, n = 0, len(items)
    while i < n:
        item = items[i]
        t = type(item)
        if t is dict:
            objects.append(item)
            append(item)
            line = item["line"]
            i += 1
            continue
        k = item[0] if t is list else item
        known = named.get(k)
        if known is None:
            base = objects[k]
            batch = base.get("reply") is True and base.get("kind") == "batch"
            known = named[k] = (base, _copier(base), base.get("message") is True, batch)
        base, copy, parse, batch = known
        if t is list:
            _, offset, text, count, stride = item
            message = loads(text) if parse else None
            # A message is an object or an array (a scalar line has none); a leaf is not copied.
            copy_message = _copier(message) if type(message) is dict or type(message) is list else None
            for offset in range(offset, offset + count * stride, stride):
                frame = copy(base)
                line += 1
                frame["text"] = text
                frame["line"] = line
                frame["offset"] = offset
                if parse:
                    frame["message"] = message if copy_message is None else copy_message(message)
                if batch:
                    _link_items_replies(frame)
                append(frame)
            i += 1
            continue
        # The copy keeps the members' order (text, line, offset first, as parsed).
        frame = copy(base)
        line += 1
        frame["text"] = text = items[i + 2]
        frame["line"] = line
        frame["offset"] = items[i + 1]
        if parse:
            # The text of the previous row parsed (lines of a few kinds in turn) is copied from
            # that row's message, which nobody else holds until this function returns; a new
            # text costs one comparison.
            if text == last_text and (type(last_message) is dict or type(last_message) is list):
                if last_copy is None:
                    last_copy = _copier(last_message)
                frame["message"] = last_copy(last_message)
            else:
                frame["message"] = last_message = loads(text)
                last_text, last_copy = text, None
        if batch:
            _link_items_replies(frame)
        append(frame)
        i += 3
    for frame in objects:
        if frame.get("message") is True:
            frame["message"] = loads(frame["text"])
        _link_batch_reply(frame)
    return frames


def _copier(value: Any) -> Callable[[Any], Any]:
    """A function copying `value`, a dict or list parsed from JSON, and the containers inside
    it (the leaves are immutable). Made once per object a reply's rows name, then called for
    each row: a batch line's frame is a few hundred containers, a leaf's copy needs no call of
    ours."""
    if type(value) is dict:
        inner = [(k, _copier(v)) for k, v in value.items() if type(v) is dict or type(v) is list]
        if not inner:
            return dict.copy
        if len(inner) == 1:  # a batch element's classification holds its reply, which holds its error
            ((key, copy_member),) = inner

            def copy_one(v: dict[str, Any]) -> dict[str, Any]:
                out = v.copy()
                out[key] = copy_member(v[key])
                return out

            return copy_one

        def copy_dict(v: dict[str, Any]) -> dict[str, Any]:
            out = v.copy()
            for k, copy in inner:
                out[k] = copy(v[k])
            return out

        return copy_dict
    copies = [_copier(v) if type(v) is dict or type(v) is list else None for v in value]
    if not any(copies):
        return list.copy
    if len(copies) == 1:  # a batch of one element: a megabyte of `[1]` lines is 262,144 of them
        (copy_first,) = copies
        return lambda v: [copy_first(v[0])]
    return lambda v: [x if copy is None else copy(x) for x, copy in zip(v, copies)]


# Characters (str) or bytes of a chunk per crossing into the core (`NdjsonDecoder.push`).
_NDJSON_SLICE = 1 << 16


class NdjsonDecoder(_RpcResource):
    """The JS `createNdjsonDecoder` twin: `push(chunk)` (str or bytes, split anywhere) returns
    the frames of the lines it completed, `end()` the final line's frame."""

    _kind = "ndjson-decoder"

    def __init__(self, options: Optional[NdjsonOptions] = None) -> None:
        super().__init__(_opts(options))

    def push(self, chunk: Chunk) -> list[NdjsonFrame]:
        # A long chunk crosses in slices: each crossing's reply holds the frames of its lines (a
        # megabyte of blank lines is a million frames, ~130 MB of reply at once). The slices are
        # of the chunk's own copy (`snapshot`): a character or a UTF-8 sequence cut at a slice's
        # end is joined with the next one by the core, as between chunks.
        # The collector is paused while the frames are built (`_collector_paused`): a megabyte
        # of short lines is a million of them, none part of a cycle.
        from . import _collector_paused

        snap = snapshot(chunk)
        with _collector_paused():
            if snap is None or len(snap) <= _NDJSON_SLICE:
                reply = self._push_text(chunk if snap is None else snap)
                result: list[NdjsonFrame] = _frames(reply)
                return result
            frames: list[NdjsonFrame] = []
            start = 0
            while start < len(snap):
                end = start + _NDJSON_SLICE
                if type(snap) is str and end < len(snap) and "\ud800" <= snap[end - 1] <= "\udbff":
                    end += 1  # a surrogate pair written as two code points stays in one slice
                frames.extend(_frames(self._push_text(snap[start:end])))
                start = end
            return frames

    def end(self) -> list[NdjsonFrame]:
        from . import _collector_paused

        with _collector_paused():
            result: list[NdjsonFrame] = _frames(self._unwrap(self._call("end")))
        return result

    def buffered_bytes(self) -> int:
        """Bytes of the current line held now (never over maxLineBytes)."""
        size: int = self._raw("buffered")
        return size


def create_ndjson_decoder(options: Optional[NdjsonOptions] = None) -> NdjsonDecoder:
    """The JS `createNdjsonDecoder` twin."""
    return NdjsonDecoder(options)


def _raise_not_text(value: Any) -> None:
    from . import _not_text, _unwrap

    _unwrap(_not_text(value))


def _is_chunk(value: Any) -> bool:
    return issubclass(type(value), (str, bytes, bytearray, memoryview))


def _sync_chunks(chunks: Any) -> Iterator[Any]:
    """The caller's chunks (one str or bytes is one chunk). An iterator that raises, or a value
    that is not iterable, ends the stream with the core's verdict on it as a chunk."""
    if _is_chunk(chunks):
        yield chunks
        return
    if issubclass(type(chunks), dict):
        _raise_not_text(chunks)  # iterable, but its keys are not a stream's chunks
        return
    try:
        iterator = iter(chunks)
    except Exception:
        _raise_not_text(chunks)
        return
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        except Exception as error:
            _raise_not_text(error)
            return
        yield chunk


def ndjson_frames(chunks: Iterable[Chunk], options: Optional[NdjsonOptions] = None) -> Iterator[NdjsonFrame]:
    """Every frame of a stream of chunks (an iterable of str or bytes, e.g. a binary file read
    in blocks); the decoder is closed at the end either way."""
    with NdjsonDecoder(options) as decoder:
        for chunk in _sync_chunks(chunks):
            yield from decoder.push(chunk)
        yield from decoder.end()


async def ndjson_frames_async(
    chunks: Union[AsyncIterable[Chunk], Iterable[Chunk]], options: Optional[NdjsonOptions] = None
) -> AsyncIterator[NdjsonFrame]:
    """The same over an async iterable (an asyncio StreamReader's chunks) or an iterable."""
    with NdjsonDecoder(options) as decoder:
        if _is_chunk(chunks) or not hasattr(type(chunks), "__aiter__"):
            for chunk in _sync_chunks(chunks):
                for frame in decoder.push(chunk):
                    yield frame
        else:
            try:
                iterator = aiter(chunks)  # type: ignore[arg-type]
            except Exception:
                _raise_not_text(chunks)
            while True:
                try:
                    chunk = await anext(iterator)
                except StopAsyncIteration:
                    break
                except Exception as error:
                    _raise_not_text(error)
                for frame in decoder.push(chunk):
                    yield frame
        for frame in decoder.end():
            yield frame


class _Purity(_RpcResource):
    _kind = "stdout-purity"


def check_stdout_purity(
    text: Union[Chunk, Iterable[Chunk]], options: Optional[NdjsonOptions] = None
) -> StdoutPurity:
    """Every line of an agent's stdout that is not a protocol frame: `{pure, frames,
    problemCount, problems: [{line, offset, code, reason}], truncated}`. `text` is one str or
    bytes, or a list (any iterable) of chunks."""
    from . import _not_text

    with _Purity(_opts(options)) as purity:
        for i, chunk in enumerate(_sync_chunks(text)):
            if snapshot(chunk) is None:
                reply = _not_text(chunk)
                reply["error"]["path"] = "" if _is_chunk(text) else f"/{i}"
                purity._unwrap(reply)
            purity._push_text(chunk)
        result: StdoutPurity = purity._unwrap(purity._call("finish"))
        return result


class RpcSession(_RpcResource):
    """The JS `createRpcSession` twin: report every message received (`incoming`) and sent
    (`outgoing`); each returns the message's classification with `problems`."""

    _kind = "rpc-session"

    def __init__(self, options: Optional[RpcSessionOptions] = None) -> None:
        super().__init__(_opts(options))
        self._options = options

    def incoming(self, message: Any) -> RpcObservation:
        result: RpcObservation = _link_batch_reply(self._unwrap(self._call("incoming", _message(message, self._options))))
        return result

    def outgoing(self, message: Any) -> RpcObservation:
        result: RpcObservation = _link_batch_reply(self._unwrap(self._call("outgoing", _message(message, self._options))))
        return result


def create_rpc_session(options: Optional[RpcSessionOptions] = None) -> RpcSession:
    """The JS `createRpcSession` twin."""
    return RpcSession(options)
