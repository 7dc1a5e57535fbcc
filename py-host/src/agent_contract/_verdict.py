"""Verdict replies: for the text functions the core answers a success with its
verdict alone, the index of a shape in its table (`verdict-shapes`, read once per process) that
names the members of the result in order. The result is built here from `json.loads` of the text
the core accepted (as `parse_json` does): exactly one I-JSON value, so `json.loads` gives the
values the core judged. Which variant, which fields, and every accept / reject decision are the
core's; an error is its full reply. The full-reply twins are in the test build only (Cargo
feature `testing`), where the property tests compare both paths. See docs/decisions.md, "Verdict
replies"."""

from __future__ import annotations

import json
from typing import Any, Callable, Optional

from . import _runtime
from ._host_text import DEFAULT_MAX_BYTES
from ._text import max_text_bytes, snapshot

_shapes: Optional[list[Any]] = None
_builders: list[Callable[[Any], dict[str, Any]]] = []


def shape(verdict: int) -> list[Any]:
    global _shapes
    if _shapes is None:
        _shapes = json.loads(_runtime.call_args("verdict-shapes", ()))
    return _shapes[verdict]


def build(source: Any, members: list[Any]) -> dict[str, Any]:
    """The result a shape names: a member is a name (taken as it is) or [name, item shape]."""
    out: dict[str, Any] = {}
    for member in members:
        if type(member) is str:
            out[member] = source[member]
        else:
            name, item = member
            out[name] = [build(i, item) for i in source[name]]
    return out


def _builder(members: list[Any]) -> Callable[[Any], dict[str, Any]]:
    if all(type(m) is str for m in members):
        # A flat shape. A fresh `json.loads` dict holding exactly the shape's names, in its
        # order, is already the result it names (picking them would copy it as it is).
        names = tuple(members)
        order = list(members)

        def flat(source: Any) -> dict[str, Any]:
            if list(source) == order:
                result: dict[str, Any] = source
                return result
            return {name: source[name] for name in names}

        return flat
    return lambda source: build(source, members)


def builder(verdict: int) -> Callable[[Any], dict[str, Any]]:
    """The function that builds verdict `verdict`'s result (made once per process)."""
    if not _builders:
        shape(0)
        assert _shapes is not None
        _builders.extend(_builder(s) for s in _shapes)
    return _builders[verdict]


# Text this short is under the default maxBytes whatever its characters (4 UTF-8 bytes at most
# each): with no options it crosses as it is, as `_call_text` would send it.
_SHORT = DEFAULT_MAX_BYTES // 4


def _text(snap: Any) -> str:
    # The core accepted these bytes, so they are UTF-8 (decoded explicitly: json.loads would
    # guess an encoding from the first bytes).
    return snap if type(snap) is str else snap.decode("utf-8")


def _raw(reply: str) -> str:
    return reply


def one(export: str, text: Any, options: Any) -> Any:
    """A text function answering with one verdict; raises ContractError."""
    if options is None and type(text) is str and len(text) <= _SHORT:
        try:
            reply = _runtime.call_args(export, (text,))
        except UnicodeEncodeError:  # lone surrogates: the general path sends the bytes
            pass
        else:
            if reply[0] != "{":
                return builder(int(reply))(json.loads(text))
            from . import _error, _reply

            raise _error(_reply(reply)["error"])
    from . import _call_text, _error, _reply

    snap = snapshot(text, max_text_bytes(options))
    reply = _call_text(export, text if snap is None else snap, options, decode=_raw)
    if type(reply) is not str:  # not text: the core's error, already decoded
        raise _error(reply["error"])
    if reply[0] == "{":
        raise _error(_reply(reply)["error"])
    return builder(int(reply))(json.loads(_text(snap)))


def jsonl(export: str, text: Any, options: Any) -> list[Any]:
    """JSON Lines: one outcome per line. Item i is the text's i-th LF-separated line, as the core
    cut them; the accepted lines are decoded together, in one `json.loads`."""
    from . import _call_text, _error, _unwrap

    snap = snapshot(text)
    items = _unwrap(_call_text(export, text if snap is None else snap, options, whole=True))
    accepted = [i for i, item in enumerate(items) if type(item) is int]
    builder(0)
    build_of = _builders
    if accepted:
        if type(snap) is str:
            lines = snap.split("\n")
            values = json.loads("[" + ",".join([lines[i] for i in accepted]) + "]")
        else:  # other lines may not be UTF-8: only the accepted ones are decoded
            parts = snap.split(b"\n")
            values = json.loads("[" + ",".join([parts[i].decode("utf-8") for i in accepted]) + "]")
        for i, value in zip(accepted, values):
            items[i] = {"ok": True, "value": build_of[items[i]](value)}
    return [item if type(item) is dict and item.get("ok") else {"ok": False, "error": _error(item["error"])} for item in items]
