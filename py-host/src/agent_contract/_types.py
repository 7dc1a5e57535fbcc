"""Static types of the results (plain dicts and lists at run time)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Generic, Literal, NotRequired, Optional, TypedDict, TypeVar, Union

if TYPE_CHECKING:
    from . import ContractError

T = TypeVar("T")


class MessageAction(TypedDict):
    type: Literal["message"]
    content: str


class ToolCallAction(TypedDict):
    type: Literal["tool_call"]
    callId: str
    tool: str
    input: Any  # JSON value, or agent_contract.UNDEFINED


class FinishAction(TypedDict):
    type: Literal["finish"]
    summary: str


class RequestApprovalAction(TypedDict):
    type: Literal["request_approval"]
    requestId: str
    capability: str
    resource: str
    reason: str


AgentAction = Union[MessageAction, ToolCallAction, FinishAction, RequestApprovalAction]

Permission = Literal["read", "write", "execute", "network"]


class ToolDefinition(TypedDict):
    name: str
    description: str
    inputSchema: dict[str, Any]
    permissions: list[Permission]
    outputSchema: NotRequired[dict[str, Any]]
    version: NotRequired[str]
    # Schema documents the schemas may $ref by URI (absolute, no fragment); never fetched.
    resources: NotRequired[dict[str, Any]]
    # The name rule of the catalog the tool came from (absent: ours, ^[a-z][a-z0-9_]*$).
    names: NotRequired["NameRule"]
    # Present when format is asserted.
    formats: NotRequired[Literal["assert"]]


# Whose name rule a tool's name follows (absent: ours). "mcp": 1-128 of A-Z a-z 0-9 _ - .;
# "openai" and "anthropic": ^[a-zA-Z0-9_-]{1,64}$; "gemini": a letter or _, then A-Z a-z 0-9
# _ . : -, at most 128. Each projection refuses (TOOL_NAME_INVALID) a name its target does not accept.
NameRule = Literal["mcp", "openai", "anthropic", "gemini"]
# "annotate" (default): format is an annotation (JSON Schema 2020-12). "assert": the formats
# JSON Schema defines are checked, a failure being a SCHEMA_MISMATCH issue with keyword "format".
FormatMode = Literal["annotate", "assert"]


class LimitOptions(TypedDict, total=False):
    maxBytes: int
    maxDepth: int
    maxStringBytes: int
    maxArrayLength: int
    maxObjectMembers: int


class Options(LimitOptions, total=False):
    strict: bool


class ToolOptions(Options, total=False):
    """define_tool, define_tool_json, create_registry: the catalog options, kept in each
    definition (`names`, `formats`) so the tool read again follows them."""

    names: NameRule
    formats: FormatMode


class ToolReadOptions(Options, total=False):
    """validate_tool_input*: `names` reads a plain definition from a catalog (a definition that
    names its own rule must agree); `formats` is the tool's, not the call's."""

    names: NameRule


class DecisionOptions(LimitOptions, total=False):
    """Decisions are always closed: no `strict`."""

    maxCalls: int


class ToolCall(TypedDict):
    callId: str
    name: str
    arguments: dict[str, Any]


class ToolDecision(TypedDict):
    kind: Literal["tool"]
    calls: list[ToolCall]


class FinalDecision(TypedDict):
    kind: Literal["final"]
    answer: str


Decision = Union[ToolDecision, FinalDecision]


class ErrorPosition(TypedDict):
    offset: int
    line: int
    column: int


class SchemaIssue(TypedDict):
    """One failure of a tool input against its schema."""

    path: str  # JSON Pointer into the input
    keyword: str  # the JSON Schema keyword that failed
    message: str


class ActionPreview(TypedDict, total=False):
    """`ok` True: type, fields and the linking fields (callId, tool, requestId, capability),
    plus the redacted input of a tool call. `ok` False: code and path of the error."""

    ok: bool
    type: str
    callId: str
    tool: str
    requestId: str
    capability: str
    fields: list[str]
    input: Any
    code: str
    path: str


class Success(TypedDict, Generic[T]):
    ok: Literal[True]
    value: T


class Failure(TypedDict):
    ok: Literal[False]
    error: ContractError


Outcome = Union[Success[T], Failure]


class Registry(TypedDict):
    """What create_registry returns: the definitions sorted by name."""

    tools: list[ToolDefinition]


class Policy(TypedDict):
    """{"rules": [{"effect": "allow" | "ask" | "deny", "tool" | "permission": ...}]}."""

    rules: list[dict[str, str]]


class ApprovedCall(TypedDict):
    """What check_tool_call returns: a call the policy allows."""

    callId: str
    tool: str
    input: Any
    permissions: list[str]


class ToolResult(TypedDict, total=False):
    """{"ok": True, "data"} or {"ok": False, "code", "message", "retryable"}."""

    ok: bool
    data: Any
    code: str
    message: str
    retryable: bool

# --- stream assembly -------------------------------------------------------------------------

FinishReason = Literal["stop", "tool_calls", "length", "content_filter", "cancelled", "error", "unknown"]


class AssemblerOptions(TypedDict, total=False):
    maxArgumentsBytes: int
    maxResponseBytes: int
    maxDepth: int
    maxStringBytes: int
    maxArrayLength: int
    maxObjectMembers: int


class AssembledResponse(TypedDict):
    """What `Assembler.finish()` returns: only after every call ended and a normal finish."""

    finishReason: Literal["stop", "tool_calls"]
    calls: list[ToolCall]


class ProviderResponse(TypedDict):
    """What a provider stream gives: the normalized response plus the provider's response id."""

    responseId: Optional[str]
    finishReason: Literal["stop", "tool_calls"]
    calls: list[ToolCall]


Provider = Literal["openai-chat", "openai-responses", "anthropic", "gemini"]


class PreviewCall(TypedDict):
    callId: str
    name: str
    argumentsText: str
    complete: bool


class AssemblerPreview(TypedDict):
    """What has arrived so far; never executable."""

    executable: Literal[False]
    finishReason: Optional[FinishReason]
    calls: list[PreviewCall]


# --- provider projections (to_*_tools): an input schema always has "type": "object" at its root


class OpenAIFunction(TypedDict):
    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool


class OpenAITool(TypedDict):
    """Chat Completions `tools[]`."""

    type: Literal["function"]
    function: OpenAIFunction


class OpenAIResponsesTool(TypedDict):
    """Responses API `FunctionTool`."""

    type: Literal["function"]
    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool


class AnthropicTool(TypedDict):
    name: str
    description: str
    input_schema: dict[str, Any]


class McpToolAnnotations(TypedDict):
    readOnlyHint: bool
    destructiveHint: bool
    openWorldHint: bool


class McpTool(TypedDict):
    name: str
    description: str
    inputSchema: dict[str, Any]
    outputSchema: NotRequired[dict[str, Any]]
    annotations: McpToolAnnotations


# --- messages and sessions (seed 004) ------------------------------------------------------


class SessionOptions(LimitOptions, total=False):
    strict: bool
    dialect: Literal["seed", "pi"]
    maxIssues: int


class TextContent(TypedDict):
    type: Literal["text"]
    text: str


class ToolCallContent(TypedDict):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any]


class Usage(TypedDict):
    input: int
    output: int
    totalTokens: int


class UserMessage(TypedDict):
    role: Literal["user"]
    content: list[TextContent]
    timestamp: float


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: list[Union[TextContent, ToolCallContent]]
    stopReason: Literal["stop", "toolUse", "error", "aborted"]
    usage: Usage
    timestamp: float
    errorMessage: NotRequired[str]


class ToolResultMessage(TypedDict):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: list[TextContent]
    details: NotRequired[Any]
    isError: bool
    timestamp: float


AgentMessage = Union[UserMessage, AssistantMessage, ToolResultMessage]


class SeedToolResult(TypedDict):
    content: list[TextContent]
    details: NotRequired[Any]
    terminate: NotRequired[bool]


class SeedToolDefinition(TypedDict):
    name: str
    description: str
    parameters: dict[str, Any]


class SessionHeader(TypedDict):
    type: Literal["session"]
    version: Literal[1]
    id: str
    timestamp: str
    cwd: str


class MessageEntry(TypedDict):
    type: Literal["message"]
    id: str
    parentId: Optional[str]
    timestamp: str
    message: AgentMessage


class CompactionEntry(TypedDict):
    type: Literal["compaction"]
    id: str
    parentId: Optional[str]
    timestamp: str
    summary: str
    firstKeptEntryId: str
    tokensBefore: int


SessionEntry = Union[SessionHeader, MessageEntry, CompactionEntry]


class SessionProblem(TypedDict):
    line: int
    code: str
    path: str
    message: str


class SessionReport(TypedDict):
    ok: bool
    entries: int
    problems: list[SessionProblem]
    roots: list[str]
    leaves: list[str]
    truncated: NotRequired[bool]


class ChatRowOptions(LimitOptions, total=False):
    strict: bool
    maxIssues: int


class ChatRowProblem(TypedDict):
    code: str
    path: str
    message: str


class ChatRowStats(TypedDict):
    messages: int
    toolCalls: int


class ChatRowReport(TypedDict):
    ok: bool
    problems: list[ChatRowProblem]
    stats: ChatRowStats
    truncated: NotRequired[bool]


class ChatRowLineReport(ChatRowReport):
    line: int


class SessionContext(TypedDict):
    compaction: Optional[CompactionEntry]
    messages: list[AgentMessage]


# --- ACP prompt admission and lifecycle -----------------------------------------------------


class PromptCapabilities(TypedDict, total=False):
    """The `promptCapabilities` an agent advertised at `initialize` (absent or None: False)."""

    image: Optional[bool]
    audio: Optional[bool]
    embeddedContext: Optional[bool]


AdmissibleImageType = Literal["image/png", "image/jpeg", "image/webp", "image/gif"]


class AdmissionOptions(TypedDict, total=False):
    """Limits of `admit_prompt` (decoded bytes; text in UTF-8 bytes); `mimeTypes` may only narrow."""

    maxImageBytes: int
    maxImages: int
    maxTotalImageBytes: int
    maxAttachmentBytes: int
    maxTextBytes: int
    mimeTypes: list[AdmissibleImageType]


class AdmittedMedia(TypedDict):
    """A decoded payload, content-addressed by `sha256` (lowercase hex)."""

    index: int
    mimeType: str
    byteLength: int
    sha256: str
    bytes: bytes


class AdmittedResource(TypedDict, total=False):
    """An embedded resource: `text`, or a blob's `byteLength`, `sha256` and `bytes`."""

    index: int
    uri: str
    mimeType: Optional[str]
    text: str
    byteLength: int
    sha256: str
    bytes: bytes


class AdmissionPlan(TypedDict):
    """What admission decided, before any I/O."""

    sessionId: str
    text: str
    images: list[AdmittedMedia]
    audio: list[AdmittedMedia]
    resources: list[AdmittedResource]


class PromptCapabilityFacts(TypedDict, total=False):
    attachmentStore: Optional[bool]
    providerResolved: Optional[bool]
    modelResolved: Optional[bool]
    inputModalities: Optional[list[str]]
    storeMimeTypes: Optional[list[str]]
    embeddedContext: Optional[bool]


StopReason = Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]


# --- JSON-RPC over NDJSON ------------------------------------------------------------------

JsonRpcId = Union[str, int, float, None]
JsonRpcKind = Literal[
    "request",
    "notification",
    "response",
    "error_response",
    "invalid_request",
    "invalid_response",
    "parse_error",
    "batch",
]
RpcCode = Literal[
    "RPC_PARSE_ERROR",
    "RPC_INVALID_REQUEST",
    "RPC_INVALID_RESPONSE",
    "RPC_MESSAGE_TOO_LARGE",
    "RPC_BLANK_LINE",
    "RPC_ID_IN_FLIGHT",
    "RPC_UNKNOWN_ID",
    "RPC_ALREADY_ANSWERED",
    "RPC_REPLY_TO_NOTIFICATION",
    "RPC_TOO_MANY_IN_FLIGHT",
]


class JsonRpcErrorObject(TypedDict):
    code: int
    message: str
    data: NotRequired[Any]


JsonRpcErrorReply = TypedDict("JsonRpcErrorReply", {"jsonrpc": Literal["2.0"], "id": JsonRpcId, "error": JsonRpcErrorObject})


class JsonRpcClassification(TypedDict):
    kind: JsonRpcKind
    id: NotRequired[JsonRpcId]
    method: NotRequired[str]
    # A batch's: its items' replies that are not None, in order, the same dicts.
    reply: Union[JsonRpcErrorReply, list[JsonRpcErrorReply], None]
    code: NotRequired[RpcCode]
    path: NotRequired[str]
    reason: NotRequired[str]
    items: NotRequired[list["JsonRpcClassification"]]


class JsonRpcOptions(TypedDict, total=False):
    allowNullId: bool
    profile: Literal["jsonrpc", "mcp"]
    maxBytes: int
    maxDepth: int
    maxBatchLength: int


class NdjsonOptions(TypedDict, total=False):
    allowNullId: bool
    profile: Literal["jsonrpc", "mcp"]
    maxLineBytes: int
    maxDepth: int
    onMalformed: Literal["ignore", "reply"]
    maxBatchLength: int


class RpcSessionOptions(TypedDict, total=False):
    allowNullId: bool
    profile: Literal["jsonrpc", "mcp"]
    maxBytes: int
    maxDepth: int
    maxBatchLength: int


class NdjsonFrame(JsonRpcClassification):
    text: str
    line: int
    offset: int
    ignored: bool
    message: NotRequired[Any]


class StdoutPurityProblem(TypedDict):
    line: int
    offset: int
    code: RpcCode
    reason: str


class StdoutPurity(TypedDict):
    pure: bool
    frames: int
    problemCount: int
    problems: list[StdoutPurityProblem]
    truncated: bool


class RpcSessionProblem(TypedDict):
    code: RpcCode
    path: str
    id: NotRequired[JsonRpcId]
    message: str


class RpcObservation(JsonRpcClassification):
    problems: list[RpcSessionProblem]


# Gemini projection
class GeminiFunctionDeclaration(TypedDict):
    """Gemini `FunctionDeclaration` with the input schema as `parametersJsonSchema`."""

    name: str
    description: str
    parametersJsonSchema: dict[str, Any]


class GeminiTool(TypedDict):
    """Gemini `Tool`: every declaration of a registry."""

    functionDeclarations: list[GeminiFunctionDeclaration]


# Agent events and the session response (seed 004 §AgentEvent): a union on "type".


class AgentStartEvent(TypedDict):
    type: Literal["agent_start"]


class AgentEndEvent(TypedDict):
    type: Literal["agent_end"]
    messages: list[AgentMessage]


class TurnStartEvent(TypedDict):
    type: Literal["turn_start"]
    turn: int


class TurnEndEvent(TypedDict):
    type: Literal["turn_end"]
    turn: int
    message: AssistantMessage
    toolResults: list[ToolResultMessage]


class MessageStartEvent(TypedDict):
    type: Literal["message_start"]
    message: AgentMessage


class MessageUpdateEvent(TypedDict):
    type: Literal["message_update"]
    message: AssistantMessage
    delta: str


class MessageEndEvent(TypedDict):
    type: Literal["message_end"]
    message: AgentMessage


class ToolExecutionStartEvent(TypedDict):
    type: Literal["tool_execution_start"]
    toolCallId: str
    toolName: str
    args: dict[str, Any]


class ToolExecutionEndEvent(TypedDict):
    type: Literal["tool_execution_end"]
    toolCallId: str
    toolName: str
    result: SeedToolResult
    isError: bool


class CompactionEvent(TypedDict):
    type: Literal["compaction"]
    summary: str
    tokensBefore: int
    firstKeptEntryId: str


AgentEvent = Union[
    AgentStartEvent,
    AgentEndEvent,
    TurnStartEvent,
    TurnEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    MessageEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionEndEvent,
    CompactionEvent,
]


class SessionResponse(TypedDict):
    sessionId: str
    messages: list[AgentMessage]
    events: list[AgentEvent]
    tools: list[SeedToolDefinition]
    entries: list[SessionEntry]


class ProtocolSchemaForms(TypedDict):
    action: dict[str, Any]
    decision: dict[str, Any]


class ProtocolSchemas(TypedDict):
    """`protocol_schemas()`."""

    action: dict[str, Any]
    decision: dict[str, Any]
    message: dict[str, Any]
    sessionEntry: dict[str, Any]
    event: dict[str, Any]
    strict: ProtocolSchemaForms


# Compiled tools: the code of a tool used after `close()` (docs/errors.md).
TOOL_HANDLE_FREED: Final = "TOOL_HANDLE_FREED"

__all__ = [
    "Provider",
    "ProviderResponse",
    "AssembledResponse",
    "AssemblerOptions",
    "AssemblerPreview",
    "FinishReason",
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
    "AdmissibleImageType",
    "AdmissionOptions",
    "AdmissionPlan",
    "AdmittedMedia",
    "AdmittedResource",
    "PromptCapabilities",
    "PromptCapabilityFacts",
    "StopReason",
    "JsonRpcClassification",
    "JsonRpcErrorReply",
    "JsonRpcOptions",
    "NdjsonFrame",
    "NdjsonOptions",
    "RpcObservation",
    "RpcSessionOptions",
    "StdoutPurity",
    "GeminiFunctionDeclaration",
    "GeminiTool",
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
    "ProtocolSchemas",
    "ChatRowOptions",
    "ChatRowProblem",
    "ChatRowReport",
    "ChatRowLineReport",
    "TOOL_HANDLE_FREED",
]

if TYPE_CHECKING:
    __all__ += [
        "create_assembler",
        "create_provider_assembler",
        "create_session_checker",
        "create_prompt_lifecycle",
        "create_ndjson_decoder",
        "create_rpc_session",
        "parse_agent_action",
        "safe_parse_agent_action",
        "parse_agent_action_json",
        "safe_parse_agent_action_json",
        "parse_agent_actions",
        "parse_json",
        "safe_parse_json",
        "parse_decision",
        "safe_parse_decision",
        "parse_decision_json",
        "safe_parse_decision_json",
        "safe_define_tool",
        "safe_define_tool_json",
        "safe_validate_tool_input",
        "safe_validate_tool_input_json",
        "safe_create_registry",
        "catalog",
        "define_policy",
        "safe_define_policy",
        "safe_check_tool_call",
        "to_openai_tools",
        "to_openai_responses_tools",
        "to_anthropic_tools",
        "to_mcp_tools",
        "to_gemini_tools",
        "normalize_tool_result",
        "strict_schema_issues",
        "gemini_schema_issues",
        "json_schema_for_target",
        "standard_json_schema",
        "compare_contracts",
        "diff_catalogs",
        "mcp_tool_definitions",
        "check_mcp_tool_result",
        "safe_assemble_provider_stream",
        "parse_agent_message",
        "safe_parse_agent_message",
        "parse_agent_message_json",
        "safe_parse_agent_message_json",
        "parse_tool_result",
        "safe_parse_tool_result",
        "parse_session_entry",
        "safe_parse_session_entry",
        "check_session",
        "safe_read_session",
        "from_seed_tool",
        "to_seed_tool",
        "parse_agent_event",
        "safe_parse_agent_event",
        "check_event_sequence",
        "safe_check_event_sequence",
        "check_session_response",
        "safe_check_session_response",
        "protocol_schemas",
        "check_chat_rows_jsonl",
        "safe_admit_prompt",
        "advertise_prompt_capabilities",
    ]

# The rows `agent_contract` makes from the operation table at run time, as type checkers see
# them (docs/reference.md has each one's reference).
if TYPE_CHECKING:
    from ._objects import Assembler, NdjsonDecoder, PromptLifecycle, ProviderAssembler, RpcSession, Session, SessionChecker
    from ._tools import Tool

    Text = Union[str, bytes, bytearray, memoryview]

    def create_assembler(options: Optional[AssemblerOptions] = None) -> Assembler: ...

    def create_provider_assembler(provider: Provider, options: Optional[AssemblerOptions] = None) -> ProviderAssembler: ...

    def create_session_checker(options: Optional[SessionOptions] = None) -> SessionChecker: ...

    def create_prompt_lifecycle() -> PromptLifecycle: ...

    def create_ndjson_decoder(options: Optional[NdjsonOptions] = None) -> NdjsonDecoder: ...

    def create_rpc_session(options: Optional[RpcSessionOptions] = None) -> RpcSession: ...

    def parse_agent_action(value: Any, options: Optional[Options] = None) -> AgentAction:
        """A Python value validated as an agent action; raises ContractError."""

    def safe_parse_agent_action(value: Any, options: Optional[Options] = None) -> Outcome[AgentAction]: ...

    def parse_agent_action_json(text: Text, options: Optional[Options] = None) -> AgentAction:
        """Strict JSON text (str or bytes) validated as an agent action; raises ContractError."""

    def safe_parse_agent_action_json(text: Text, options: Optional[Options] = None) -> Outcome[AgentAction]: ...

    def parse_agent_actions(values: Any, options: Optional[Options] = None) -> list[Outcome[AgentAction]]:
        """One outcome per element of a list, in one crossing; raises only for the list or options."""

    def parse_json(text: Text, options: Optional[LimitOptions] = None) -> Any:
        """Strict JSON text to its value (I-JSON, the limits, positions; integers exact)."""

    def safe_parse_json(text: Text, options: Optional[LimitOptions] = None) -> Outcome[Any]: ...

    def parse_decision(value: Any, options: Optional[DecisionOptions] = None) -> Decision:
        """`{"kind": "tool", "calls": [...]}` or `{"kind": "final", "answer": ...}`; raises ContractError."""

    def safe_parse_decision(value: Any, options: Optional[DecisionOptions] = None) -> Outcome[Decision]: ...

    def parse_decision_json(text: Text, options: Optional[DecisionOptions] = None) -> Decision:
        """A decision from strict JSON text (str or bytes); raises ContractError."""

    def safe_parse_decision_json(text: Text, options: Optional[DecisionOptions] = None) -> Outcome[Decision]: ...

    def safe_define_tool(defn: Any, options: Optional[ToolOptions] = None) -> Outcome[Tool]: ...

    def safe_define_tool_json(text: Text, options: Optional[ToolOptions] = None) -> Outcome[Tool]: ...

    def safe_validate_tool_input(tool: Any, value: Any, options: Optional[ToolReadOptions] = None) -> Outcome[Any]: ...

    def safe_validate_tool_input_json(tool: Any, text: Text, options: Optional[ToolReadOptions] = None) -> Outcome[Any]: ...

    def safe_create_registry(tools: Any, options: Optional[ToolOptions] = None) -> Outcome[Registry]: ...

    def catalog(registry: Any) -> list[ToolDefinition]:
        """The registry's definitions sorted by name."""

    def define_policy(policy: Any) -> Policy:
        """A policy `{"rules": [{"effect", "tool" | "permission"}]}` checked (POLICY_INVALID)."""

    def safe_define_policy(policy: Any) -> Outcome[Policy]: ...

    def safe_check_tool_call(registry: Any, action: Any, policy: Any, options: Optional[Options] = None) -> Outcome[ApprovedCall]: ...

    def to_openai_tools(registry: Any) -> list[OpenAITool]:
        """`[{"type": "function", "function": {name, description, parameters, strict}}]`."""

    def to_openai_responses_tools(registry: Any) -> list[OpenAIResponsesTool]:
        """OpenAI Responses `FunctionTool`s."""

    def to_anthropic_tools(registry: Any) -> list[AnthropicTool]:
        """`[{name, description, input_schema}]`."""

    def to_mcp_tools(registry: Any) -> list[McpTool]:
        """`[{name, description, inputSchema, outputSchema?, annotations}]`."""

    def to_gemini_tools(registry: Any) -> list[GeminiTool]:
        """Gemini `tools`: `[{"functionDeclarations": [...]}]`."""

    def normalize_tool_result(tool: Any, value: Any, options: Optional[LimitOptions] = None) -> ToolResult:
        """Always a tool result; raises ContractError only for an invalid tool or options."""

    def strict_schema_issues(schema: Any) -> list[SchemaIssue]:
        """Why OpenAI strict mode would reject `schema` ([] when it would accept it)."""

    def gemini_schema_issues(schema: Any) -> list[SchemaIssue]:
        """Why `schema` could not be Gemini's OpenAPI-subset `parameters` ([]: it could)."""

    def json_schema_for_target(schema: Any, target: Any) -> dict[str, Any]:
        """`schema` for another JSON Schema draft, or SCHEMA_TARGET_UNSUPPORTED at the keyword."""

    def standard_json_schema(schema: Any, target: Any) -> dict[str, Any]:
        """What a Standard JSON Schema converter answers for `target`."""

    def compare_contracts(old: Any, new: Any) -> dict[str, Any]:
        """How one tool's contract changed: `{"change", "reasons", "bump"}`."""

    def diff_catalogs(old: Any, new: Any) -> dict[str, Any]:
        """Registries (or catalogs) compared tool by tool: `{"change", "tools", "addedPermissions"}`."""

    def mcp_tool_definitions(list_tools_result: Any) -> dict[str, Any]:
        """A tools/list answer as tool definitions: `{"tools", "at"}`, `tools` for
        `create_registry({"tools": ...})` (permissions from each tool's annotations), `at` the
        pointer of the list in the answer."""

    def check_mcp_tool_result(tool: Any, result: Any, options: Optional[LimitOptions] = None) -> Any:
        """A tools/call result checked against its tool's outputSchema (structuredContent and its
        text mirror); the core's copy of the result, or raises ContractError."""

    def safe_assemble_provider_stream(provider: Any, input: Any, options: Optional[AssemblerOptions] = None) -> Outcome[ProviderResponse]: ...

    def parse_agent_message(value: Any, options: Optional[SessionOptions] = None) -> AgentMessage:
        """An agent message (user / assistant / toolResult); raises ContractError."""

    def safe_parse_agent_message(value: Any, options: Optional[SessionOptions] = None) -> Outcome[AgentMessage]: ...

    def parse_agent_message_json(text: Text, options: Optional[SessionOptions] = None) -> AgentMessage:
        """The same from strict JSON text (str or bytes)."""

    def safe_parse_agent_message_json(text: Text, options: Optional[SessionOptions] = None) -> Outcome[AgentMessage]: ...

    def parse_tool_result(value: Any, options: Optional[SessionOptions] = None) -> SeedToolResult:
        """A tool's local result `{"content", "details"?, "terminate"?}`."""

    def safe_parse_tool_result(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SeedToolResult]: ...

    def parse_session_entry(value: Any, options: Optional[SessionOptions] = None) -> SessionEntry:
        """One session entry (header, message or compaction) on its own."""

    def safe_parse_session_entry(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SessionEntry]: ...

    def check_session(text: Text, options: Optional[SessionOptions] = None) -> SessionReport:
        """Every problem of a JSON Lines session text; raises only for invalid options."""

    def safe_read_session(text: Text, options: Optional[SessionOptions] = None) -> Outcome[Session]: ...

    def from_seed_tool(definition: Any, extra: Any, options: Optional[Options] = None) -> ToolDefinition:
        """A seed ToolDefinition as a tool contract, `extra` giving its `permissions`."""

    def to_seed_tool(tool: Any) -> SeedToolDefinition:
        """A tool contract as the seed's `{"name", "description", "parameters"}`."""

    def parse_agent_event(value: Any, options: Optional[SessionOptions] = None) -> AgentEvent:
        """One agent event (the seed's ten kinds, a union on "type"); raises ContractError."""

    def safe_parse_agent_event(value: Any, options: Optional[SessionOptions] = None) -> Outcome[AgentEvent]: ...

    def check_event_sequence(events: Any, options: Optional[SessionOptions] = None) -> list[AgentEvent]:
        """One run's events checked in order; raises the first offending one."""

    def safe_check_event_sequence(events: Any, options: Optional[SessionOptions] = None) -> Outcome[list[AgentEvent]]: ...

    def check_session_response(value: Any, options: Optional[SessionOptions] = None) -> SessionResponse:
        """A session response checked, its events a projection of its messages."""

    def safe_check_session_response(value: Any, options: Optional[SessionOptions] = None) -> Outcome[SessionResponse]: ...

    def protocol_schemas() -> ProtocolSchemas:
        """The protocol as JSON Schema 2020-12, and the strict structured-output forms."""

    def check_chat_rows_jsonl(text: Text, options: Optional[ChatRowOptions] = None) -> list[ChatRowLineReport]:
        """One report per line of a JSON Lines dataset; a bad line is reported, never raised."""

    def safe_admit_prompt(request: Any, capabilities: Optional[PromptCapabilities], options: Optional[AdmissionOptions] = None) -> Outcome[AdmissionPlan]: ...

    def advertise_prompt_capabilities(facts: Any) -> PromptCapabilities:
        """`promptCapabilities` for `initialize`: each true only when every fact behind it is."""
