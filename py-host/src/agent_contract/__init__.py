"""agent_contract: decides whether what an LLM produced may act.

Every verdict comes from the Rust core, run as a WebAssembly component with no imports (it
cannot do I/O). This module only translates: Python values become host text, text goes in as
it is, and the core's JSON reply becomes plain dicts and lists (or a ContractError).
"""

from __future__ import annotations

import contextlib
import gc
import json
from typing import Any, Iterator, Literal, Optional, Union

from . import _runtime
from ._host_text import (
    DEFAULT_MAX_BYTES,
    CONFIG_MAX_BYTES,
    DEFAULT_MAX_DEPTH,
    MAX_BYTES_CEILING,
    MAX_DEPTH_CEILING,
    OPTIONS_MAX_DEPTH,
    OPTIONS_MAX_VALUES,
    UNDEFINED,
    limits_of,
    write,
)
from ._text import Snapshot, carried, max_text_bytes, snapshot, stand_in, wtf8
from . import _tools  # Compiled tools
from ._tools import Tool
from ._types import TOOL_HANDLE_FREED  # noqa: E402
from ._types import (
    AnthropicTool,
    McpTool,
    OpenAIResponsesTool,
    OpenAITool,
    ActionPreview,
    ApprovedCall,
    Policy,
    Registry,
    ToolResult,
    AssembledResponse,
    AssemblerOptions,
    AssemblerPreview,
    FinishReason,
    Provider,
    ProviderResponse,
    AgentAction,
    Decision,
    DecisionOptions,
    ErrorPosition,
    Failure,
    FinalDecision,
    FinishAction,
    LimitOptions,
    MessageAction,
    Options,
    ToolOptions,
    ToolReadOptions,
    NameRule,
    FormatMode,
    Outcome,
    RequestApprovalAction,
    SchemaIssue,
    Success,
    ToolCall,
    ToolCallAction,
    ToolDecision,
    ToolDefinition,
    # ACP prompt admission and lifecycle:
    AdmissibleImageType,
    AdmissionOptions,
    AdmissionPlan,
    AdmittedMedia,
    AdmittedResource,
    PromptCapabilities,
    PromptCapabilityFacts,
    StopReason,
)

__all__ = [
    "UNDEFINED",
    "Assembler",
    "create_assembler",
    "ProviderAssembler",
    "create_provider_assembler",
    "assemble_provider_stream",
    "safe_assemble_provider_stream",
    "assemble_sse_lines",
    "assemble_sse_lines_async",
    "Provider",
    "ProviderResponse",
    "AssembledResponse",
    "AssemblerOptions",
    "AssemblerPreview",
    "FinishReason",
    "ContractError",
    "parse_agent_action",
    "parse_agent_action_json",
    "preview_action",
    "define_tool",
    "define_tool_json",
    "safe_parse_agent_action",
    "safe_define_tool",
    "safe_define_tool_json",
    "safe_parse_agent_action_json",
    "parse_agent_actions",
    "parse_agent_actions_jsonl",
    "parse_json",
    "safe_parse_json",
    "parse_decision",
    "parse_decision_json",
    "safe_parse_decision",
    "safe_parse_decision_json",
    "validate_tool_input",
    "validate_tool_input_json",
    "safe_validate_tool_input",
    "safe_validate_tool_input_json",
    "create_registry",
    "safe_create_registry",
    "catalog",
    "define_policy",
    "safe_define_policy",
    "check_tool_call",
    "safe_check_tool_call",
    "to_openai_tools",
    "to_openai_responses_tools",
    "to_anthropic_tools",
    "to_mcp_tools",
    "normalize_tool_result",
    "strict_schema_issues",
    "json_schema_for_target",
    "standard_json_schema",
    "compare_contracts",
    "diff_catalogs",
    "SchemaIssue",
    "Registry",
    "Policy",
    "ApprovedCall",
    "ToolResult",
    "OpenAITool",
    "OpenAIResponsesTool",
    "AnthropicTool",
    "McpTool",
    "AgentAction",
    "MessageAction",
    "ToolCallAction",
    "FinishAction",
    "RequestApprovalAction",
    "ToolDefinition",
    "ActionPreview",
    "Options",
    "ToolOptions",
    "ToolReadOptions",
    "NameRule",
    "FormatMode",
    "LimitOptions",
    "DecisionOptions",
    "Decision",
    "ToolDecision",
    "FinalDecision",
    "ToolCall",
    "ErrorPosition",
    "Outcome",
    "Success",
    "Failure",
    # Messages and sessions (seed 004)
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
    "AgentMessage",
    "UserMessage",
    "AssistantMessage",
    "ToolResultMessage",
    "TextContent",
    "ToolCallContent",
    "Usage",
    "SeedToolDefinition",
    "SeedToolResult",
    "SessionEntry",
    "SessionHeader",
    "MessageEntry",
    "CompactionEntry",
    "SessionOptions",
    "SessionProblem",
    "SessionReport",
    "SessionContext",
    # ACP prompt admission and lifecycle:
    "admit_prompt",
    "safe_admit_prompt",
    "is_canonical_base64",
    "sniff_media_type",
    "advertise_prompt_capabilities",
    "create_prompt_lifecycle",
    "PromptLifecycle",
    "AdmissibleImageType",
    "AdmissionOptions",
    "AdmissionPlan",
    "AdmittedMedia",
    "AdmittedResource",
    "PromptCapabilities",
    "PromptCapabilityFacts",
    "StopReason",
    # JSON-RPC over NDJSON
    "classify_json_rpc",
    "classify_json_rpc_json",
    "method_not_found",
    "internal_error",
    "invalid_params",
    "NdjsonDecoder",
    "create_ndjson_decoder",
    "ndjson_frames",
    "ndjson_frames_async",
    "check_stdout_purity",
    "RpcSession",
    "create_rpc_session",
    "JsonRpcClassification",
    "JsonRpcErrorReply",
    "JsonRpcOptions",
    "NdjsonFrame",
    "NdjsonOptions",
    "RpcObservation",
    "RpcSessionOptions",
    "StdoutPurity",
    # Gemini projection:
    "to_gemini_tools",
    "gemini_schema_issues",
    "GeminiFunctionDeclaration",
    "GeminiTool",
    # Agent events and the session response:
    "parse_agent_event",
    "safe_parse_agent_event",
    "check_event_sequence",
    "safe_check_event_sequence",
    "check_session_response",
    "safe_check_session_response",
    "AgentEvent",
    "AgentStartEvent",
    "AgentEndEvent",
    "TurnStartEvent",
    "TurnEndEvent",
    "MessageStartEvent",
    "MessageUpdateEvent",
    "MessageEndEvent",
    "ToolExecutionStartEvent",
    "ToolExecutionEndEvent",
    "CompactionEvent",
    "SessionResponse",
    # The protocol as JSON Schema:
    "protocol_schemas",
    "ProtocolSchemas",
    # Compiled tools:
    "Tool",
    "validate_tool_inputs",
    "TOOL_HANDLE_FREED",
    # Dataset rows and batches of sessions:
    "check_chat_row",
    "check_chat_rows",
    "check_chat_rows_jsonl",
    "check_sessions",
    "ChatRowOptions",
    "ChatRowProblem",
    "ChatRowReport",
    "ChatRowLineReport",
]

Text = Union[str, bytes, bytearray, memoryview]


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


# --- translation -------------------------------------------------------------------------


def _options_text(options: Any) -> str:
    if options is None:
        return ""
    return write(options, OPTIONS_MAX_DEPTH, DEFAULT_MAX_BYTES, max_values=OPTIONS_MAX_VALUES)


def _call_value(export: str, value: Any, options: Any, batch: bool = False) -> dict[str, Any]:
    max_depth, max_bytes = limits_of(options)
    root_depth, copies = 1, 1
    if batch:
        # Each element is an action of its own: its own depth count (the list is depth 0) and
        # its own size budget, as the core gives it.
        root_depth = 0
        if type(value) is list:
            copies = max(1, len(value))
    text = write(value, max_depth, max_bytes, root_depth, copies)
    return _reply(_runtime.call_args(export, (text,), _options_text(options)))


def _not_text(value: Any) -> dict[str, Any]:
    # Neither text nor bytes (or a bytes-like that cannot be read, such as a released
    # memoryview): the verdict is the core's. It reads only the kind of the value, so a
    # container is sent without its contents (max depth 0).
    return _reply(_runtime.call_args("not-text", (write(value, 0, DEFAULT_MAX_BYTES),)))


def _cross_text(export: str, before: tuple[str, ...], text: Snapshot, options: str, decode: Any = None) -> Any:
    """Calls `export` with the arguments `before`, then `text`: as a string when it is valid
    Unicode, else through the `-bytes` twin, its (WTF-8) bytes carried one per code point, so
    the core reports the exact code and byte position either way, in one copy. `decode` turns
    the reply text into the result (`_reply` unless given)."""
    decode = decode or _reply
    if type(text) is str:
        try:
            return decode(_runtime.call_args(export, before + (text,), options))
        except UnicodeEncodeError:
            # Lone surrogates: not valid Unicode, so not a WIT string (wasmtime refuses it
            # before the core runs). Asking wasmtime first spares valid text a second scan.
            data = wtf8(text)
    else:
        try:
            # Valid UTF-8 takes the string export: the core receives the very same bytes.
            decoded = text.decode("utf-8")
        except UnicodeDecodeError:
            data = text
        else:
            return decode(_runtime.call_args(export, before + (decoded,), options))
    return decode(_runtime.call_args(export + "-bytes", before + (carried(data),), options))


def _call_text(
    export: str, text: Any, options: Any, before: tuple[str, ...] = (), whole: bool = False, decode: Any = None
) -> Any:
    """A text function: `text` is the caller's argument or its snapshot. Text over `maxBytes`
    crosses as its stand-in (see `_text.stand_in`) unless `whole` (JSON Lines: the limit is
    per line)."""
    opts = _options_text(options)
    max_bytes = None if whole else max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if snap is None:
        return _not_text(text)
    if max_bytes is not None:
        cut = stand_in(snap, max_bytes)
        if cut is not None:
            snap = cut
    return _cross_text(export, before, snap, opts, decode)


def _call_tool(export: str, tool: Any, argument: Any, options: Any) -> dict[str, Any]:
    """A tool definition plus an input value."""
    max_depth, max_bytes = limits_of(options)
    arguments = (write(tool, max_depth, max_bytes), write(argument, max_depth, max_bytes))
    return _reply(_runtime.call_args(export, arguments, _options_text(options)))


def _reply(text: str) -> dict[str, Any]:
    if text == '{"ok":true}':
        # A verdict-only success (most replies of the text operations): nothing to decode.
        return {"ok": True}
    reply: dict[str, Any] = json.loads(text)
    # JSON cannot hold undefined: the core lists where it was, as JSON Pointers into the reply.
    for pointer in reply.pop("undefined", ()):
        segments = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]
        node: Any = reply
        for segment in segments[:-1]:
            node = node[int(segment)] if type(node) is list else node[segment]
        last = segments[-1]
        if type(node) is list:
            node[int(last)] = UNDEFINED
        else:
            node[last] = UNDEFINED
    return reply


def _error(e: dict[str, Any]) -> ContractError:
    error = ContractError(
        e["layer"], e["code"], e["path"], e["message"], e["retryable"], e.get("position"), e.get("issues")
    )
    error.available_tools = e.get("availableTools")
    error.proposal = e.get("proposal")
    error.truncated = e.get("truncated", False)
    return error


def _unwrap(reply: dict[str, Any]) -> Any:
    if reply["ok"]:
        return reply["value"]
    raise _error(reply["error"])


def _text_value(reply: dict[str, Any], text: Any) -> Any:
    """The value of a verdict-only reply (`parse-json`, `validate-tool-input-json`): on success
    the core replies `{"ok": true}` alone, having accepted `text` as exactly one I-JSON value
    (valid UTF-8, no BOM, no duplicate names, no lone surrogates, finite numbers), so
    `json.loads` of the same text is the value the core would have written back (numbers from
    the same digits: exact integers). See docs/decisions.md."""
    if not reply["ok"]:
        raise _error(reply["error"])
    if type(text) is str:
        return json.loads(text)
    # The core accepted these bytes, so they are UTF-8 (decoded explicitly: json.loads would
    # guess an encoding from the first bytes).
    return json.loads(text.decode("utf-8"))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """A batch reply builds up to maxArrayLength outcomes (65,536 by default), each a few
    containers: the cyclic collector ran over the growing result again and again, ~40% of the
    time of 65,536 failed JSON Lines (1.5 s -> 0.9 s without it). None of these objects can form
    a cycle, so collection is held off while they are built and runs normally after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _outcomes(reply: dict[str, Any]) -> list[Outcome[Any]]:
    return [
        {"ok": True, "value": item["value"]} if item["ok"] else {"ok": False, "error": _error(item["error"])}
        for item in _unwrap(reply)
    ]


from . import _verdict  # noqa: E402  (needs the helpers above)
from ._session import (  # noqa: E402  (needs the helpers above)
    Session,
    SessionChecker,
    create_session_checker,
    check_session,
    from_seed_tool,
    parse_agent_message,
    parse_agent_message_json,
    parse_session_entry,
    parse_tool_result,
    query_session,
    read_session,
    safe_parse_agent_message,
    safe_parse_agent_message_json,
    safe_parse_session_entry,
    safe_parse_tool_result,
    safe_read_session,
    to_seed_tool,
)
from ._types import (  # noqa: E402
    AgentMessage,
    AssistantMessage,
    CompactionEntry,
    MessageEntry,
    SeedToolDefinition,
    SeedToolResult,
    SessionContext,
    SessionEntry,
    SessionHeader,
    SessionOptions,
    SessionProblem,
    SessionReport,
    TextContent,
    ToolCallContent,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from ._stream import (  # noqa: E402  (needs the helpers above)
    Assembler,
    ProviderAssembler,
    assemble_provider_stream,
    assemble_sse_lines,
    assemble_sse_lines_async,
    safe_assemble_provider_stream,
)


def create_assembler(options: Optional[AssemblerOptions] = None) -> Assembler:
    """The JS `createAssembler` twin."""
    return Assembler(options)


def create_provider_assembler(provider: Provider, options: Optional[AssemblerOptions] = None) -> ProviderAssembler:
    """The JS `createProviderAssembler` twin."""
    return ProviderAssembler(provider, options)

# --- public API ----------------------------------------------------------------------------


def parse_agent_action(value: Any, options: Optional[Options] = None) -> AgentAction:
    """Validates a Python value as an agent action; raises ContractError."""
    result: AgentAction = _unwrap(_call_value("parse-agent-action", value, options))
    return result


def parse_agent_action_json(text: Text, options: Optional[Options] = None) -> AgentAction:
    """Validates strict JSON text (str or bytes) as an agent action; raises ContractError."""
    result: AgentAction = _verdict.one("parse-agent-action-json-verdict", text, options)
    return result


def preview_action(value: Any, options: Optional[Options] = None) -> ActionPreview:
    """A log-safe summary of an action; never raises ContractError: bad input gives
    `{"ok": False, "code": ..., "path": ...}`."""
    reply = _call_value("preview-action", value, options)
    if not reply["ok"]:
        # The core could not even read the host text (e.g. the value is too large to send):
        # the same summary shape the core gives for every other error.
        error = reply["error"]
        return {"ok": False, "code": error["code"], "path": error["path"]}
    result: ActionPreview = reply["value"]
    return result


def define_tool(defn: Any, options: Optional[ToolOptions] = None) -> Tool:
    """Validates a tool definition; returns a normalised copy, frozen, whose compiled schema
    stays in the core (a `Tool`: a dict; `close()` or `with` frees it); raises ContractError."""
    max_depth, max_bytes = limits_of(options)
    instance = _runtime.assembler_instance()
    resource = instance.resource_new("compiled-tool", write(defn, max_depth, max_bytes), _options_text(options))
    try:
        definition = _unwrap(_reply(instance.resource_call("compiled-tool", "reply", resource)))
    except BaseException:
        instance.drop_resource(resource)
        raise
    return Tool._made(definition, instance, resource)


def define_tool_json(text: Text, options: Optional[ToolOptions] = None) -> Tool:
    """Validates a tool definition given as strict JSON text; returns a `Tool` as `define_tool`
    does; raises ContractError."""
    opts = _options_text(options)
    max_bytes = max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if snap is None:
        _unwrap(_not_text(text))
    cut = stand_in(snap, max_bytes)
    if cut is not None:
        snap = cut
    instance = _runtime.assembler_instance()
    instance.drain()
    funcs = instance.resource_funcs["compiled-tool"]
    if type(snap) is str:
        try:
            resource = funcs["from-json"](instance.store, snap, opts)
            data = None
        except UnicodeEncodeError:
            data = wtf8(snap)
    else:
        try:
            decoded = snap.decode("utf-8")
        except UnicodeDecodeError:
            data = snap
        else:
            resource = funcs["from-json"](instance.store, decoded, opts)
            data = None
    if data is not None:
        resource = funcs["from-json-bytes"](instance.store, carried(data), opts)
    instance.checked(len(snap) + len(opts))
    try:
        definition = _unwrap(_reply(instance.resource_call("compiled-tool", "reply", resource)))
    except BaseException:
        instance.drop_resource(resource)
        raise
    return Tool._made(definition, instance, resource)


def safe_parse_agent_action(value: Any, options: Optional[Options] = None) -> Outcome[AgentAction]:
    try:
        return {"ok": True, "value": parse_agent_action(value, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def safe_parse_agent_action_json(text: Text, options: Optional[Options] = None) -> Outcome[AgentAction]:
    try:
        return {"ok": True, "value": parse_agent_action_json(text, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def safe_define_tool(defn: Any, options: Optional[ToolOptions] = None) -> Outcome[ToolDefinition]:
    try:
        return {"ok": True, "value": define_tool(defn, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def safe_define_tool_json(text: Text, options: Optional[ToolOptions] = None) -> Outcome[ToolDefinition]:
    try:
        return {"ok": True, "value": define_tool_json(text, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def parse_agent_actions(values: Any, options: Optional[Options] = None) -> list[Outcome[AgentAction]]:
    """One outcome per element of a list, in one crossing. Raises ContractError only when
    `values` is not a list or the options are invalid."""
    with _collector_paused():
        return _outcomes(_call_value("parse-agent-actions", values, options, batch=True))


def parse_agent_actions_jsonl(text: Text, options: Optional[Options] = None) -> list[Outcome[AgentAction]]:
    """JSON Lines: one outcome per line, in one crossing; positions are in the whole text."""
    with _collector_paused():
        return _verdict.jsonl("parse-agent-actions-jsonl-verdict", text, options)


def parse_json(text: Text, options: Optional[LimitOptions] = None) -> Any:
    """Strict JSON text (str or bytes) to its value: exactly one RFC 8259 value with the
    I-JSON rules and the size limits; raises ContractError (parse layer) with the position.
    Numbers keep their exact text, so integers come back exact."""
    snap = snapshot(text, max_text_bytes(options))
    return _text_value(_call_text("parse-json", text if snap is None else snap, options), snap)


def safe_parse_json(text: Text, options: Optional[LimitOptions] = None) -> Outcome[Any]:
    try:
        return {"ok": True, "value": parse_json(text, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def parse_decision(value: Any, options: Optional[DecisionOptions] = None) -> Decision:
    """Validates a Python value as a decision: `{"kind": "tool", "calls": [...]}` or
    `{"kind": "final", "answer": ...}`; raises ContractError."""
    result: Decision = _unwrap(_call_value("parse-decision", value, options))
    return result


def parse_decision_json(text: Text, options: Optional[DecisionOptions] = None) -> Decision:
    """Validates strict JSON text (str or bytes) as a decision; raises ContractError."""
    result: Decision = _verdict.one("parse-decision-json-verdict", text, options)
    return result


def safe_parse_decision(value: Any, options: Optional[DecisionOptions] = None) -> Outcome[Decision]:
    try:
        return {"ok": True, "value": parse_decision(value, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def safe_parse_decision_json(text: Text, options: Optional[DecisionOptions] = None) -> Outcome[Decision]:
    try:
        return {"ok": True, "value": parse_decision_json(text, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def _compiled(tool: Any) -> Any:
    """The compiled-tool resource of a `Tool` this thread's instance holds, else None (the
    plain path then reads the tool again in the core)."""
    if type(tool) is not Tool:
        return None
    return tool._handle(_runtime.current_instance())


def validate_tool_input(tool: Any, value: Any, options: Optional[ToolReadOptions] = None) -> Any:
    """Returns a copy of `value` when it satisfies `tool["inputSchema"]`; raises ContractError
    (`SCHEMA_MISMATCH` with `issues`, or a limit / tool error). `tool` is what `define_tool`
    returned (validated through its compiled schema, nothing sent again; TOOL_HANDLE_FREED once
    closed), or a definition as plain data, which the core reads again."""
    resource = _compiled(tool)
    if resource is None:
        return _unwrap(_call_tool("validate-tool-input", tool, value, options))
    max_depth, max_bytes = limits_of(options)
    text = write(value, max_depth, max_bytes)
    if options is None:
        return _unwrap(_reply(_tools.call(tool._instance, "validate", resource, text)))
    return _unwrap(_reply(_tools.call(tool._instance, "validate-with-options", resource, text, _options_text(options))))


def validate_tool_input_json(tool: Any, text: Text, options: Optional[ToolReadOptions] = None) -> Any:
    """The same with the input as strict JSON text (str or bytes)."""
    resource = _compiled(tool)
    if resource is not None:
        snap, reply = _handle_text(tool, resource, text, options)
        return _text_value(reply, snap)
    snap = snapshot(text, max_text_bytes(options))
    max_depth, max_bytes = limits_of(options)
    tool_text = write(tool, max_depth, max_bytes)
    reply = _call_text("validate-tool-input-json", text if snap is None else snap, options, (tool_text,))
    return _text_value(reply, snap)


def _handle_text(tool: Tool, resource: Any, text: Any, options: Any) -> tuple[Any, dict[str, Any]]:
    """`_call_text` for a compiled tool's `validate-json` (its `-bytes` twin for text that is
    not valid Unicode), with the same stand-in for text over `maxBytes`: the text as read (a
    snapshot, or None when it is not text) and the reply."""
    opts = _options_text(options)
    max_bytes = max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if snap is None:
        return None, _not_text(text)
    cut = stand_in(snap, max_bytes)
    sent = snap if cut is None else cut
    instance = tool._instance
    if type(sent) is str:
        try:
            return snap, _reply(_tools.call(instance, "validate-json", resource, sent, opts))
        except UnicodeEncodeError:
            data = wtf8(sent)
    else:
        try:
            decoded = sent.decode("utf-8")
        except UnicodeDecodeError:
            data = sent
        else:
            return snap, _reply(_tools.call(instance, "validate-json", resource, decoded, opts))
    return snap, _reply(_tools.call(instance, "validate-json-bytes", resource, carried(data), opts))


def validate_tool_inputs(tool: Any, values: Any, options: Optional[ToolReadOptions] = None) -> list[Outcome[Any]]:
    """Many inputs for one tool in one call into the core: one outcome per input, in order
    (`{"ok": True, "value"}` or `{"ok": False, "error": ContractError}`). Raises ContractError
    only for the tool, the options, or a `values` that is not a list of at most maxArrayLength."""
    max_depth, max_bytes = limits_of(options)
    copies = max(1, len(values)) if type(values) is list else 1
    text = write(values, max_depth, max_bytes, 0, copies)
    # Room for the batch's reply first: a tool compiled in an instance replaced here takes the
    # plain path in the fresh one.
    _runtime.make_room(_runtime.need_of("validate-tool-inputs", len(text)))
    resource = _compiled(tool)
    if resource is None:
        reply = _runtime.call_rpc("validate-tool-inputs", write(tool, max_depth, max_bytes), text, _options_text(options))
    else:
        reply = _tools.call(tool._instance, "validate-many", resource, text, _options_text(options))
    with _collector_paused():
        return _outcomes(_reply(reply))


def safe_validate_tool_input(tool: Any, value: Any, options: Optional[ToolReadOptions] = None) -> Outcome[Any]:
    try:
        return {"ok": True, "value": validate_tool_input(tool, value, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def safe_validate_tool_input_json(tool: Any, text: Text, options: Optional[ToolReadOptions] = None) -> Outcome[Any]:
    try:
        return {"ok": True, "value": validate_tool_input_json(tool, text, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


# --- registry and pipeline ------------------------------------------------------------------
# A registry is the plain dict create_registry returns ({"tools": [...]}); every function reads
# it again in the core. Configuration (registries, policies, tools) is written under the
# ceilings: the limits in options are for the model's output.

def _config(value: Any) -> str:
    # Nested up to the ceiling, but sized by the default budget: configuration is not read
    # under limits the caller raises, and the ceiling's budget would let a few shared
    # containers expand to 32 Mi values the core must hold (docs/decisions.md, "Hostile input:
    # Python host").
    return write(value, MAX_DEPTH_CEILING, CONFIG_MAX_BYTES)


def _safe(call: Any) -> Outcome[Any]:
    try:
        return {"ok": True, "value": call()}
    except ContractError as error:
        return {"ok": False, "error": error}


def create_registry(tools: Any, options: Optional[ToolOptions] = None) -> Registry:
    """Defines every tool, refuses duplicate names (TOOL_DUPLICATE); returns
    {"tools": [...definitions sorted by name]}. `tools` is a list, or {"tools": [...],
    "resources": {uri: schema}}: documents the tools share (each tool takes those its schemas
    reference; its own win)."""
    instance = _runtime.assembler_instance()
    resource = instance.resource_new("compiled-registry", _config(tools), _options_text(options))
    try:
        value = _unwrap(_reply(instance.resource_call("compiled-registry", "reply", resource)))
    except BaseException:
        instance.drop_resource(resource)
        raise
    result: Registry = _tools.CompiledRegistry._made(value, instance, resource)  # type: ignore[assignment]
    return result


def _projected(registry: Any, kind: int, export: str) -> Any:
    """A projection (or the catalog, kind 0) of a registry `create_registry` returned, from its
    compiled registry; any other value is read again by the core."""
    resource = _tools.registry_handle(registry, _runtime.current_instance())
    if resource is None:
        return _unwrap(_reply(_runtime.call_args(export, (_config(registry),))))
    return _unwrap(_reply(_tools.call(registry._instance, "project", resource, kind, kind="compiled-registry")))


def safe_create_registry(tools: Any, options: Optional[ToolOptions] = None) -> Outcome[Registry]:
    return _safe(lambda: create_registry(tools, options))


def catalog(registry: Any) -> list[ToolDefinition]:
    """The registry's definitions sorted by name (the registry is read again)."""
    result: list[ToolDefinition] = _projected(registry, 0, "catalog")
    return result


def define_policy(policy: Any) -> Policy:
    """Checks a policy {"rules": [{"effect", "tool" | "permission"}]} (POLICY_INVALID)."""
    result: Policy = _unwrap(_reply(_runtime.call_args("define-policy", (_config(policy),))))
    return result


def safe_define_policy(policy: Any) -> Outcome[Policy]:
    return _safe(lambda: define_policy(policy))


def check_tool_call(registry: Any, action: Any, policy: Any, options: Optional[Options] = None) -> ApprovedCall:
    """protocol -> UNKNOWN_TOOL -> SCHEMA_MISMATCH -> POLICY_DENIED / APPROVAL_REQUIRED -> the
    approved call {callId, tool, input, permissions}. Executes nothing. `action` is a tool call in
    any shape: an action, a decision or assembled call, an OpenAI Chat / Responses, Anthropic,
    Gemini or MCP tools/call call object (docs/semantics.md, "Pipeline")."""
    max_depth, max_bytes = limits_of(options)
    action_text = write(action, max_depth, max_bytes)
    resource = _tools.registry_handle(registry, _runtime.current_instance())
    if resource is not None:
        reply = _tools.call(registry._instance, "check-tool-call", resource, action_text, _config(policy), _options_text(options), kind="compiled-registry")
        result: ApprovedCall = _unwrap(_reply(reply))
        return result
    arguments = (_config(registry), action_text, _config(policy))
    result = _unwrap(_reply(_runtime.call_args("check-tool-call", arguments, _options_text(options))))
    return result


def safe_check_tool_call(
    registry: Any, action: Any, policy: Any, options: Optional[Options] = None
) -> Outcome[ApprovedCall]:
    return _safe(lambda: check_tool_call(registry, action, policy, options))


def to_openai_tools(registry: Any) -> list[OpenAITool]:
    """[{"type": "function", "function": {name, description, parameters, strict}}]."""
    result: list[OpenAITool] = _projected(registry, 1, "to-openai-tools")
    return result


def to_openai_responses_tools(registry: Any) -> list[OpenAIResponsesTool]:
    """OpenAI Responses `FunctionTool`s: [{"type": "function", name, description, parameters, strict}]."""
    result: list[OpenAIResponsesTool] = _projected(registry, 2, "to-openai-responses-tools")
    return result


def to_anthropic_tools(registry: Any) -> list[AnthropicTool]:
    """[{name, description, input_schema}]."""
    result: list[AnthropicTool] = _projected(registry, 3, "to-anthropic-tools")
    return result


def to_mcp_tools(registry: Any) -> list[McpTool]:
    """[{name, description, inputSchema, outputSchema?, annotations}]."""
    result: list[McpTool] = _projected(registry, 4, "to-mcp-tools")
    return result


def normalize_tool_result(tool: Any, value: Any, options: Optional[LimitOptions] = None) -> ToolResult:
    """Always a tool result ({"ok": True, "data"} or {"ok": False, "code", "message",
    "retryable"}); raises ContractError only for an invalid tool or options."""
    max_depth, max_bytes = limits_of(options)
    arguments = (_config(tool), write(value, max_depth, max_bytes))
    result: ToolResult = _unwrap(
        _reply(_runtime.call_args("normalize-tool-result", arguments, _options_text(options)))
    )
    return result


def json_schema_for_target(schema: Any, target: Any) -> dict[str, Any]:
    """`schema` for a JSON Schema draft ("draft-2020-12", "draft-07"), when every keyword in it
    means the same there; else ContractError SCHEMA_TARGET_UNSUPPORTED at the keyword."""
    result: dict[str, Any] = _unwrap(
        _reply(_runtime.call_args("json-schema-for-target", (_config(schema), _config(target))))
    )
    return result


def standard_json_schema(schema: Any, target: Any) -> dict[str, Any]:
    """What a Standard JSON Schema converter answers for `target`: json_schema_for_target's
    schema, or, when a keyword has no faithful form there, the schema in its own draft with its
    `$schema`. An unsupported target is ContractError SCHEMA_TARGET_UNSUPPORTED."""
    result: dict[str, Any] = _unwrap(
        _reply(_runtime.call_args("standard-json-schema", (_config(schema), _config(target))))
    )
    return result


def strict_schema_issues(schema: Any) -> list[SchemaIssue]:
    """Why OpenAI strict mode would reject `schema` ([] when it would accept it)."""
    result: list[SchemaIssue] = _unwrap(_reply(_runtime.call_args("strict-schema-issues", (_config(schema),))))
    return result


# --- contract versions -----------------------------------------------------------------------


def compare_contracts(old: Any, new: Any) -> dict[str, Any]:
    """How one tool's contract changed: {"change": "identical" | "compatible" | "breaking",
    "reasons": [{path, change, message}], "bump": {required, actual, ok}}."""
    result: dict[str, Any] = _unwrap(_reply(_runtime.call_args("compare-contracts", (_config(old), _config(new)))))
    return result


def diff_catalogs(old: Any, new: Any) -> dict[str, Any]:
    """Registries (or catalogs) compared tool by tool: {"change", "tools", "addedPermissions"}."""
    result: dict[str, Any] = _unwrap(_reply(_runtime.call_args("diff-catalogs", (_config(old), _config(new)))))
    return result


# --- ACP prompt admission and lifecycle -----------------------------------------------------

from ._acp import (  # noqa: E402  (needs the helpers above)
    PromptLifecycle,
    admit_prompt,
    advertise_prompt_capabilities,
    create_prompt_lifecycle,
    is_canonical_base64,
    safe_admit_prompt,
    sniff_media_type,
)


# --- JSON-RPC over NDJSON -------------------------------------------------------------------

from ._rpc import (  # noqa: E402  (needs the helpers above)
    NdjsonDecoder,
    RpcSession,
    check_stdout_purity,
    classify_json_rpc,
    classify_json_rpc_json,
    create_ndjson_decoder,
    create_rpc_session,
    internal_error,
    invalid_params,
    method_not_found,
    ndjson_frames,
    ndjson_frames_async,
)
from ._types import (  # noqa: E402
    JsonRpcClassification,
    JsonRpcErrorReply,
    JsonRpcOptions,
    NdjsonFrame,
    NdjsonOptions,
    RpcObservation,
    RpcSessionOptions,
    StdoutPurity,
)


# --- Gemini projection --------------------------------------------------------------------

from ._types import GeminiFunctionDeclaration, GeminiTool  # noqa: E402


def to_gemini_tools(registry: Any) -> list[GeminiTool]:
    """Gemini `tools`: [{"functionDeclarations": [{name, description, parametersJsonSchema}]}]."""
    result: list[GeminiTool] = _projected(registry, 5, "to-gemini-tools")
    return result


def gemini_schema_issues(schema: Any) -> list[SchemaIssue]:
    """Why `schema` could not be Gemini's OpenAPI-subset `parameters` (empty: it could)."""
    result: list[SchemaIssue] = _unwrap(_reply(_runtime.call_args("gemini-schema-issues", (_config(schema),))))
    return result


# --- Agent events and the session response --------------------------------------------------

from ._events import (  # noqa: E402  (needs the helpers above)
    check_event_sequence,
    check_session_response,
    parse_agent_event,
    protocol_schemas,
    safe_check_event_sequence,
    safe_check_session_response,
    safe_parse_agent_event,
)
from ._types import (  # noqa: E402
    AgentEndEvent,
    AgentEvent,
    AgentStartEvent,
    CompactionEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ProtocolSchemas,
    SessionResponse,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    TurnEndEvent,
    TurnStartEvent,
)

# --- Dataset rows and batches of sessions ---------------------------------------------------

from ._rows import check_chat_row, check_chat_rows, check_chat_rows_jsonl, check_sessions  # noqa: E402
from ._types import ChatRowLineReport, ChatRowOptions, ChatRowProblem, ChatRowReport  # noqa: E402
