"""Messages and sessions (seed 004): thin calls into the core. Session texts cross like the
other text functions (`_call_text`: a str, or bytes by the `-bytes` twin with invalid UTF-8
carried one byte per code point), whole: `maxBytes` bounds each line, not the text.
`Session` holds the text and the core's reading of it; every tree query reads the text again
in the core (`query_session`), so no rule lives here."""

from __future__ import annotations

from typing import Any, Optional

from . import _runtime
from ._host_text import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, limits_of, write
from ._stream import _Resource
from ._text import carried, snapshot, wtf8
from ._types import (
    AgentMessage,
    CompactionEntry,
    MessageEntry,
    Options,
    Outcome,
    SeedToolDefinition,
    SeedToolResult,
    SessionContext,
    SessionEntry,
    SessionHeader,
    SessionOptions,
    SessionReport,
    ToolDefinition,
)


def _core() -> Any:
    """The package module, for its translation helpers (imported late: it imports this one)."""
    from importlib import import_module

    return import_module(__package__ or "agent_contract")


def parse_agent_message(value: Any, options: Optional[SessionOptions] = None) -> AgentMessage:
    """Validates a Python value as an agent message (user / assistant / toolResult); raises
    ContractError. Unknown fields are dropped, or FIELD_UNKNOWN with {"strict": True}."""
    ac = _core()
    result: AgentMessage = ac._unwrap(ac._call_value("parse-agent-message", value, options))
    return result


def safe_parse_agent_message(value: Any, options: Optional[SessionOptions] = None) -> Outcome[AgentMessage]:
    return _core()._safe(lambda: parse_agent_message(value, options))


def parse_agent_message_json(text: Any, options: Optional[SessionOptions] = None) -> AgentMessage:
    """The same from strict JSON text (str or bytes)."""
    ac = _core()
    result: AgentMessage = ac._unwrap(ac._call_text("parse-agent-message-json", text, options))
    return result


def safe_parse_agent_message_json(text: Any, options: Optional[SessionOptions] = None) -> Outcome[AgentMessage]:
    return _core()._safe(lambda: parse_agent_message_json(text, options))


def parse_tool_result(value: Any, options: Optional[SessionOptions] = None) -> SeedToolResult:
    """Validates a tool's local result {"content", "details"?, "terminate"?}."""
    ac = _core()
    result: SeedToolResult = ac._unwrap(ac._call_value("parse-tool-result", value, options))
    return result


def safe_parse_tool_result(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SeedToolResult]:
    return _core()._safe(lambda: parse_tool_result(value, options))


def parse_session_entry(value: Any, options: Optional[SessionOptions] = None) -> SessionEntry:
    """Validates one session entry (header, message or compaction) on its own."""
    ac = _core()
    result: SessionEntry = ac._unwrap(ac._call_value("parse-session-entry", value, options))
    return result


def safe_parse_session_entry(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SessionEntry]:
    return _core()._safe(lambda: parse_session_entry(value, options))


def check_session(text: Any, options: Optional[SessionOptions] = None) -> SessionReport:
    """Every problem of a JSON Lines session text (str or bytes) as {"ok", "entries",
    "problems": [{"line", "code", "path", "message"}], "roots", "leaves"}; raises
    ContractError only for invalid options."""
    ac = _core()
    result: SessionReport = ac._unwrap(ac._call_text("check-session", text, options, whole=True))
    return result


def query_session(text: Any, query: Any, options: Optional[SessionOptions] = None) -> Any:
    """The session read as read_session does, then one tree query: {"branch": id},
    {"children": id} or {"context": leaf_id}."""
    ac = _core()
    before = (write(query, DEFAULT_MAX_DEPTH, DEFAULT_MAX_BYTES),)
    return ac._unwrap(ac._call_text("query-session", text, options, before=before, whole=True))


class Session:
    """A session read whole (read_session): `header`, `entries`, `roots`, `leaves()`, and the
    tree queries `branch(id)`, `children(id)`, `context(leaf_id)`, each answered by the core."""

    header: SessionHeader
    entries: list[Any]
    roots: list[str]

    def __init__(self, text: Any, options: Any, value: dict[str, Any]) -> None:
        self._text = text
        self._options = options
        self.header = value["header"]
        self.entries = value["entries"]
        self.roots = value["roots"]
        self._leaves: list[str] = value["leaves"]

    def leaves(self) -> list[str]:
        return list(self._leaves)

    def branch(self, entry_id: str) -> list[Any]:
        result: list[Any] = query_session(self._text, {"branch": entry_id}, self._options)
        return result

    def children(self, entry_id: str) -> list[str]:
        result: list[str] = query_session(self._text, {"children": entry_id}, self._options)
        return result

    def context(self, leaf_id: str) -> SessionContext:
        result: SessionContext = query_session(self._text, {"context": leaf_id}, self._options)
        return result


def read_session(text: Any, options: Optional[SessionOptions] = None) -> Session:
    """The session, or its first problem raised as a ContractError."""
    ac = _core()
    held = snapshot(text)  # an immutable copy (a bytearray may change later); None: not text
    value = ac._unwrap(ac._call_text("read-session", text if held is None else held, options, whole=True))
    return Session(held, options, value)


def safe_read_session(text: Any, options: Optional[SessionOptions] = None) -> Outcome[Session]:
    return _core()._safe(lambda: read_session(text, options))


class _Checker(_Resource):
    """The `session-checker` resource (interface `assembly`, beside the assemblers)."""

    _kind = "session-checker"


class SessionChecker:
    """The incremental session reader: `push(chunk)` (str or bytes, cut anywhere) returns the
    problems of the lines the chunk completed; `finish()` the report check_session gives for the
    whole text. A component resource, used from the thread that created it; `close()` (or a
    `with` block) frees it, garbage collection too. Raises ContractError for invalid options."""

    def __init__(self, options: Optional[SessionOptions] = None) -> None:
        self._resource = _Checker(_core()._options_text(options))

    def push(self, chunk: Any) -> list[Any]:
        snap = snapshot(chunk)
        r = self._resource
        if snap is None:
            ac = _core()
            ac._unwrap(ac._not_text(chunk))
        if type(snap) is str:
            try:
                found: list[Any] = r._unwrap(r._call("push", snap))
                return found
            except UnicodeEncodeError:
                data = wtf8(snap)
        else:
            data = snap  # type: ignore[assignment]
            try:
                decoded = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                found = r._unwrap(r._call("push", decoded))
                return found
        found = r._unwrap(r._call("push-bytes", carried(data)))
        return found

    def problems(self) -> list[Any]:
        """Every problem found so far."""
        found: list[Any] = self._resource._unwrap(self._resource._call("preview"))
        return found

    def finish(self) -> SessionReport:
        result: SessionReport = self._resource._unwrap(self._resource._call("finish"))
        return result

    def close(self) -> None:
        self._resource.close()

    def __enter__(self) -> "SessionChecker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_session_checker(options: Optional[SessionOptions] = None) -> SessionChecker:
    """The JS `createSessionChecker` twin."""
    return SessionChecker(options)


def from_seed_tool(definition: Any, extra: Any, options: Optional[Options] = None) -> ToolDefinition:
    """A seed ToolDefinition {"name", "description", "parameters"} as a tool contract; the seed
    has no permissions, so `extra` must give them: {"permissions": [...]}."""
    ac = _core()
    max_depth, max_bytes = limits_of(options)
    arguments = (write(definition, max_depth, max_bytes), ac._config(extra))
    result: ToolDefinition = ac._unwrap(
        ac._reply(_runtime.call_args("from-seed-tool", arguments, ac._options_text(options)))
    )
    return result


def to_seed_tool(tool: Any) -> SeedToolDefinition:
    """A tool contract as the seed's {"name", "description", "parameters"}."""
    ac = _core()
    result: SeedToolDefinition = ac._unwrap(ac._reply(_runtime.call_args("to-seed-tool", (ac._config(tool),))))
    return result


__all__ = [
    "parse_agent_message",
    "safe_parse_agent_message",
    "parse_agent_message_json",
    "safe_parse_agent_message_json",
    "parse_tool_result",
    "safe_parse_tool_result",
    "parse_session_entry",
    "safe_parse_session_entry",
    "check_session",
    "read_session",
    "safe_read_session",
    "query_session",
    "from_seed_tool",
    "to_seed_tool",
    "Session",
    "SessionChecker",
    "create_session_checker",
    "MessageEntry",
    "CompactionEntry",
]
