"""Verdict replies: for the text functions the core answers a success with its verdict alone (an
int: the component's verdict functions return `result<u32, string>`), the index of a shape in
its table (`verdict-shapes`, read once per process) that names the members of the result in
order. The result is the shape applied to `json.loads` of the text the core
accepted (exactly one I-JSON value, so `json.loads` gives the values the core judged). Which
variant, which fields, and every accept / reject decision are the core's; an error is its full
reply. See docs/decisions.md, "Verdict replies"."""

from __future__ import annotations

import json
from typing import Any, Callable

from . import _runtime
from ._text import STR, crosses_as_is, snapshot
from ._wire import call_text, collector_paused, error, loads, reply, unwrap

_builders: list[Callable[[Any], dict[str, Any]]] = []


def _build(source: Any, members: list[Any]) -> dict[str, Any]:
    """The result a shape names: a member is a name (taken as it is) or [name, item shape]."""
    out: dict[str, Any] = {}
    for member in members:
        if type(member) is str:
            out[member] = source[member]
        else:
            name, item = member
            out[name] = [_build(i, item) for i in source[name]]
    return out


def _builder(members: list[Any]) -> Callable[[Any], dict[str, Any]]:
    if any(type(m) is not str for m in members):
        return lambda source: _build(source, members)
    # A flat shape: a fresh `json.loads` dict holding exactly its names, in its order, is
    # already the result it names (picking them would copy it as it is).
    order = list(members)
    return lambda source: source if list(source) == order else {name: source[name] for name in order}


def builders() -> list[Callable[[Any], dict[str, Any]]]:
    """The builder of each verdict (made once per process)."""
    if not _builders:
        _builders.extend(_builder(s) for s in json.loads(_runtime.call_args("verdict-shapes", ())))
    return _builders


def _raw(answer: Any) -> Any:
    return answer


def one(export: str, text: Any, options: Any) -> Any:
    """A text function answering with one verdict; raises ContractError."""
    if crosses_as_is(text, options):
        try:
            answer = _runtime.call_args(export, (STR, text, ""))
        except UnicodeEncodeError:  # lone surrogates: `call_text` sends the bytes
            pass
        else:
            if type(answer) is int:
                return (_builders or builders())[answer](loads(text))
            raise error(reply(answer)["error"])
    snap = snapshot(text)
    answer = call_text(export, text if snap is None else snap, options, decode=_raw)
    if type(answer) is not int:  # the error's reply, or for a value that is not text, decoded
        raise error((reply(answer) if type(answer) is str else answer)["error"])
    return builders()[answer](loads(snap if type(snap) is str else snap.decode("utf-8")))  # type: ignore[union-attr]


def through_twin(export: str, text: str) -> Any:
    """A value row's result through its text twin, verdict row `export` (the table's
    `textTwin`): `text` is the value's host text, strict JSON (`_host_text._write_shallow`), and
    when the twin accepts it, `json.loads` of it is the result's source (a shorter reply). None
    otherwise: the value row then answers, its errors being the value's."""
    answer = _runtime.call_args(export, (STR, text, ""))
    return (_builders or builders())[answer](loads(text)) if type(answer) is int else None


def batch(answer: str, text: str) -> Any:
    """The outcomes of a batch's text twin (`validate-many-json`): an accepted item answers a
    verdict and is its item of `text`, the JSON list the host sent. None when the twin refused
    the batch itself (its value row then answers)."""
    with collector_paused():
        found = loads(answer)
        if not found["ok"]:
            return None
        return [
            {"ok": True, "value": item} if type(verdict) is int else {"ok": False, "error": error(verdict["error"])}
            for verdict, item in zip(found["value"], loads(text))
        ]


def jsonl(export: str, text: Any, options: Any) -> list[Any]:
    """JSON Lines: one outcome per line. Item i is the text's i-th LF-separated line, as the core
    cut them; the accepted lines are decoded together, in one `json.loads`."""
    snap = snapshot(text)
    items = unwrap(call_text(export, text if snap is None else snap, options, whole=True))
    accepted = [i for i, item in enumerate(items) if type(item) is int]
    values: Any = ()
    if accepted:
        if type(snap) is str:
            lines = snap.split("\n")
            values = loads("[" + ",".join([lines[i] for i in accepted]) + "]")
        else:  # other lines may not be UTF-8: only the accepted ones are decoded
            parts = snap.split(b"\n")  # type: ignore[union-attr]
            values = loads("[" + ",".join([parts[i].decode("utf-8") for i in accepted]) + "]")
    build, value = builders(), iter(values).__next__
    return [{"ok": True, "value": build[item](value())} if type(item) is int else {"ok": False, "error": error(item["error"])} for item in items]
