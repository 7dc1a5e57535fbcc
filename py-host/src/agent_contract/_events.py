"""Agent events and the session response (seed 004 §AgentEvent): thin calls into
the core, which reads every value and decides every verdict."""

from __future__ import annotations

from typing import Any, Optional

from . import _runtime
from ._types import AgentEvent, Outcome, ProtocolSchemas, SessionOptions, SessionResponse


def _core() -> Any:
    """The package module, for its translation helpers (imported late: it imports this one)."""
    from importlib import import_module

    return import_module(__package__ or "agent_contract")


def parse_agent_event(value: Any, options: Optional[SessionOptions] = None) -> AgentEvent:
    """Validates one agent event (the seed's ten kinds, a union on "type"); raises
    ContractError. Unknown fields are dropped, or FIELD_UNKNOWN with {"strict": True}."""
    ac = _core()
    result: AgentEvent = ac._unwrap(ac._call_value("parse-agent-event", value, options))
    return result


def safe_parse_agent_event(value: Any, options: Optional[SessionOptions] = None) -> Outcome[AgentEvent]:
    return _core()._safe(lambda: parse_agent_event(value, options))


def check_event_sequence(events: Any, options: Optional[SessionOptions] = None) -> list[AgentEvent]:
    """Checks one run's events in order (agent_start ... agent_end) and returns them; raises the
    first offending event (EVENT_SEQUENCE_INVALID at "/<index>")."""
    ac = _core()
    result: list[AgentEvent] = ac._unwrap(ac._call_value("check-event-sequence", events, options))
    return result


def safe_check_event_sequence(events: Any, options: Optional[SessionOptions] = None) -> Outcome[list[AgentEvent]]:
    return _core()._safe(lambda: check_event_sequence(events, options))


def check_session_response(value: Any, options: Optional[SessionOptions] = None) -> SessionResponse:
    """Checks {"sessionId", "messages", "events", "tools", "entries"}, the events a projection of
    the messages; raises the first problem."""
    ac = _core()
    result: SessionResponse = ac._unwrap(ac._call_value("check-session-response", value, options))
    return result


def safe_check_session_response(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SessionResponse]:
    return _core()._safe(lambda: check_session_response(value, options))


def protocol_schemas() -> ProtocolSchemas:
    """JSON Schema (draft 2020-12) of the action, the decision, the message, the session entry
    and the event as the parsers read them by default, plus "strict": the action and the
    decision in the form OpenAI structured outputs accept. A fresh copy on every call."""
    ac = _core()
    result: ProtocolSchemas = ac._unwrap(ac._reply(_runtime.call_args("protocol-schemas", ())))
    return result


__all__ = [
    "parse_agent_event",
    "safe_parse_agent_event",
    "check_event_sequence",
    "safe_check_event_sequence",
    "check_session_response",
    "safe_check_session_response",
    "protocol_schemas",
]
