"""What crosses the boundary: arguments written as host text or carried as text (`_text.cross`),
and the one decoder of the core's replies (a JSON text: `{"ok": true, "value"}` or `{"ok":
false, "error"}`), whose errors become the package's one `ContractError`."""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from typing import Any, Iterator, Literal, Optional

from . import _runtime
from ._host_text import OPTIONS_MAX_DEPTH, OPTIONS_MAX_VALUES, UNDEFINED, write
from ._text import cross, limits_of, max_text_bytes, numbers, snapshot, stand_in
from ._types import ErrorPosition, Outcome, RequestApprovalAction, SchemaIssue

Layer = Literal["parse", "protocol", "contract", "transport", "stream", "schema", "domain", "admission"]


class ContractError(ValueError):
    """The one error of the package; its fields are the core's, translated one by one."""

    layer: Layer
    code: str
    path: str
    message: str
    retryable: bool
    position: Optional[ErrorPosition]
    issues: Optional[list[SchemaIssue]]
    available_tools: Optional[list[str]]
    proposal: Optional[RequestApprovalAction]
    truncated: bool

    def __init__(
        self,
        layer: Layer,
        code: str,
        path: str,
        message: str,
        retryable: bool,
        position: Optional[ErrorPosition] = None,
        issues: Optional[list[SchemaIssue]] = None,
        available_tools: Optional[list[str]] = None,
        proposal: Optional[RequestApprovalAction] = None,
    ) -> None:
        super().__init__(layer, code, path, message, retryable, position, issues)  # args: pickling works
        self.layer = layer
        self.code = code
        self.path = path
        self.message = message
        self.retryable = retryable
        self.position = position
        self.issues = issues  # SCHEMA_MISMATCH: every failure as {path, keyword, message}
        self.available_tools = available_tools  # UNKNOWN_TOOL: the closest registered names
        self.proposal = proposal  # APPROVAL_REQUIRED: the request_approval action to ask
        self.truncated = False  # SCHEMA_MISMATCH: issues holds the first maxIssues only

    def __str__(self) -> str:
        p = self.position
        where = f" at line {p['line']} column {p['column']} (byte {p['offset']})" if p else ""
        return f"{self.code} at {self.path!r}: {self.message}{where}"


ContractError.__module__ = "agent_contract"  # its public name, which pickling finds


# The C scanner `json.loads` ends in, called directly: `json.loads` first checks its argument
# and looks for whitespace around the value in Python, ~1 us a call, more than the scan of a
# small value. Used only on text the core wrote, or accepted as exactly one I-JSON value (so
# that only JSON whitespace can surround it).
_scan_once = json.JSONDecoder().scan_once


def _scan(text: str, at: int) -> Any:
    """The scanner's answer; on a stack too deep for the value (the scanner counts one level of
    Python recursion per level of nesting, and the core accepts 512, so a caller already deep in
    its own frames could get a RecursionError for a value the core accepted) the same scan on a
    fresh thread's stack."""
    try:
        return _scan_once(text, at)
    except RecursionError:
        found: list[Any] = []

        def scan() -> None:
            with contextlib.suppress(RecursionError):  # a recursion limit below the nesting
                found.append(_scan_once(text, at))

        thread = threading.Thread(target=scan)
        thread.start()
        thread.join()
        if not found:
            raise
        return found[0]


def loads(text: str) -> Any:
    """JSON text the core accepted (or wrote) as its value."""
    return _scan(text.strip(" \t\r\n"), 0)[0]


def reply(text: Any) -> dict[str, Any]:
    """The one reply decoder: the core's JSON reply as a dict, with `undefined` put back where
    the core lists it (JSON cannot hold it: JSON Pointers into the reply)."""
    if type(text) is int:
        # A verdict function's success whose value is the caller's own text (`parse-json`,
        # `validate-tool-input-json`): the verdict 0, nothing to decode.
        return {"ok": True}
    decoded: dict[str, Any] = _scan(text, 0)[0]  # the core writes no whitespace around it
    for pointer in decoded.pop("undefined", ()):
        node, last = at(decoded, pointer)
        node[last] = UNDEFINED
    return decoded


def at(root: Any, pointer: str) -> tuple[Any, Any]:
    """The container a JSON Pointer the core wrote ends in, and its last key or index."""
    segments = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]
    node = root
    for segment in segments[:-1]:
        node = node[int(segment)] if type(node) is list else node[segment]
    return node, int(segments[-1]) if type(node) is list else segments[-1]


def error(e: dict[str, Any]) -> ContractError:
    made = ContractError(e["layer"], e["code"], e["path"], e["message"], e["retryable"], e.get("position"), e.get("issues"))
    made.available_tools = e.get("availableTools")
    made.proposal = e.get("proposal")
    made.truncated = e.get("truncated", False)
    return made


def unwrap(decoded: dict[str, Any]) -> Any:
    if decoded["ok"]:
        return decoded["value"]
    raise error(decoded["error"])


def value(text: str) -> Any:
    """A reply's value, or its error raised."""
    return unwrap(reply(text))


def outcomes(text: str) -> list[Outcome[Any]]:
    """A batch's reply as outcomes (the collector paused while they are built)."""
    with collector_paused():
        return [
            {"ok": True, "value": item["value"]} if item["ok"] else {"ok": False, "error": error(item["error"])}
            for item in value(text)
        ]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """A batch reply builds up to maxArrayLength outcomes (65,536 by default), each a few
    containers: the cyclic collector ran over the growing result again and again, ~40% of the
    time of 65,536 failed JSON Lines. None of these objects can form a cycle, so collection is
    held off while they are built and runs normally after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def options_text(options: Any) -> str:
    """Options as host text ("" for none). Every option is a scalar, and the core reads only
    the kind of a value that is not, so containers inside are written as depth markers."""
    if options is None:
        return ""
    return write(options, OPTIONS_MAX_DEPTH, limits_of(None)[1], max_values=OPTIONS_MAX_VALUES)


def config(value: Any) -> str:
    """Configuration (registries, policies, tools, schemas) as host text: nested up to the
    ceiling, but sized by the default budget, not the limits a caller raises (the ceiling's
    budget would let a few shared containers expand to 32 Mi values the core must hold;
    docs/decisions.md, "Hostile input: Python host")."""
    n = numbers()
    return write(value, n[2], n[1])


def call_value(export: str, given: Any, options: Any, batch: bool = False, decode: Any = reply) -> Any:
    """A value operation: `given` written under the options' limits. A batch's elements are
    each an item of their own: its own depth count (the list is depth 0) and size budget."""
    max_depth, max_bytes = limits_of(options)
    copies = max(1, len(given)) if batch and type(given) is list else 1
    text = write(given, max_depth, max_bytes, 0 if batch else 1, copies)
    return decode(_runtime.call_args(export, (text, options_text(options))))


def not_text(value: Any) -> dict[str, Any]:
    """The core's verdict on an argument that is neither text nor bytes (or a bytes-like that
    cannot be read): it reads only the kind, so a container is sent without its contents."""
    return reply(_runtime.call_args("not-text", (write(value, 0, limits_of(None)[1]),)))


def call_text(
    export: str, text: Any, options: Any, before: tuple[str, ...] = (), whole: bool = False, decode: Any = reply
) -> Any:
    """A text operation: `text` is the caller's argument or its snapshot, after the arguments
    `before`. Text over `maxBytes` crosses as its stand-in (`_text.stand_in`) unless `whole`
    (JSON Lines, sessions: the limit is per line). `decode` turns the reply text into the result."""
    opts = options_text(options)
    max_bytes = None if whole else max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if snap is None:
        return not_text(text)
    if max_bytes is not None:
        snap = stand_in(snap, max_bytes)
    return decode(cross(lambda case, t: _runtime.call_args(export, before + (case, t, opts)), snap))


def text_value(decoded: dict[str, Any], text: Any) -> Any:
    """The value of a verdict-only reply (`parse-json`, `validate-tool-input-json`): on success
    the core answers the verdict 0 alone, having accepted `text` as exactly one I-JSON value,
    so `json.loads` of the same text is the value the core would have written back (numbers from
    the same digits: exact integers). See docs/decisions.md."""
    if not decoded["ok"]:
        raise error(decoded["error"])
    # Bytes the core accepted are UTF-8 (decoded explicitly: json.loads would guess).
    return loads(text if type(text) is str else text.decode("utf-8"))
