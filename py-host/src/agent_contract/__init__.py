"""agent_contract: decides whether what an LLM produced may act.

Every verdict comes from the Rust core, run as a WebAssembly component with no imports (it
cannot do I/O). This package only translates: Python values become host text, text goes in as
it is, and the core's JSON reply becomes plain dicts and lists (or a ContractError).

Most functions are rows of the core's operation table (`describe()`), made from their row on
first use: the row's argument kinds say how each argument crosses, its reply kind how the reply
is read. The functions below are those whose row needs more of the host (a compiled tool or
registry it holds, an iterable it reads, an object it returns). The reference is
docs/reference.md; the signatures are in `_types.py`.
"""

from __future__ import annotations

import binascii
import inspect
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import _runtime, _types, _verdict
from ._host_text import UNDEFINED, _write_shallow, max_nodes, write
from ._objects import (
    Assembler,
    NdjsonDecoder,
    PromptLifecycle,
    ProviderAssembler,
    RpcSession,
    Session,
    SessionChecker,
    _items,
    assemble_provider_stream,
    assemble_sse_lines,
    assemble_sse_lines_async,
    check_stdout_purity,
    link_batch_reply,
    ndjson_frames,
    ndjson_frames_async,
    rpc_message,
)
from ._text import STR, cross, crosses_as_is, is_text, limits_of, max_text_bytes, numbers, snapshot, stand_in
from ._tools import CompiledRegistry, Tool, registry_handle
from ._types import *  # noqa: F403  (the result types, and the signatures of the rows made below)
from ._wire import (
    ContractError,
    at,
    call_text as _call_text,
    call_value,
    collector_paused,
    config,
    loads,
    not_text,
    options_text,
    outcomes,
    reply,
    text_value,
    unwrap,
    value,
)

__all__ = [
    "UNDEFINED",
    "ContractError",
    "TOOL_HANDLE_FREED",
    # Actions, decisions and JSON text
    "parse_agent_action",
    "safe_parse_agent_action",
    "parse_agent_action_json",
    "safe_parse_agent_action_json",
    "parse_agent_actions",
    "parse_agent_actions_jsonl",
    "preview_action",
    "parse_json",
    "safe_parse_json",
    "parse_decision",
    "safe_parse_decision",
    "parse_decision_json",
    "safe_parse_decision_json",
    # Tools, registries, the pipeline, projections, contract versions
    "Tool",
    "define_tool",
    "safe_define_tool",
    "define_tool_json",
    "safe_define_tool_json",
    "validate_tool_input",
    "safe_validate_tool_input",
    "validate_tool_input_json",
    "safe_validate_tool_input_json",
    "validate_tool_inputs",
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
    # Provider streams
    "Assembler",
    "create_assembler",
    "ProviderAssembler",
    "create_provider_assembler",
    "assemble_provider_stream",
    "safe_assemble_provider_stream",
    "assemble_sse_lines",
    "assemble_sse_lines_async",
    # Messages, sessions and agent events
    "parse_agent_message",
    "safe_parse_agent_message",
    "parse_agent_message_json",
    "safe_parse_agent_message_json",
    "parse_tool_result",
    "safe_parse_tool_result",
    "parse_session_entry",
    "safe_parse_session_entry",
    "check_session",
    "Session",
    "read_session",
    "safe_read_session",
    "query_session",
    "SessionChecker",
    "create_session_checker",
    "from_seed_tool",
    "to_seed_tool",
    "parse_agent_event",
    "safe_parse_agent_event",
    "check_event_sequence",
    "safe_check_event_sequence",
    "check_session_response",
    "safe_check_session_response",
    "protocol_schemas",
    "check_sessions",
    # Dataset rows
    "check_chat_row",
    "check_chat_rows",
    "check_chat_rows_jsonl",
    # ACP prompt admission and lifecycle
    "admit_prompt",
    "safe_admit_prompt",
    "is_canonical_base64",
    "sniff_media_type",
    "advertise_prompt_capabilities",
    "PromptLifecycle",
    "create_prompt_lifecycle",
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
]
__all__ += _types.__all__

# --- rows that need more of the host -------------------------------------------------------


def preview_action(value: Any, options: Any = None) -> Any:
    """A log-safe summary of an action; never raises ContractError: bad input gives
    `{"ok": False, "code": ..., "path": ...}`."""
    decoded = call_value("preview-action", value, options)
    if not decoded["ok"]:
        # The core could not read the host text at all (e.g. too large to send): the summary
        # shape the core gives for every other error.
        return {"ok": False, "code": decoded["error"]["code"], "path": decoded["error"]["path"]}
    return decoded["value"]


def _defined(make: Callable[[Any], Any], kind: type) -> Any:
    """A compiled tool or registry made in this thread's instance, its reply read at once."""
    instance = _runtime.assembler_instance()
    instance.drain()
    resource = make(instance)
    try:
        definition = value(instance.resource_call(kind._kind, "reply", resource))  # type: ignore[attr-defined]
    except BaseException:
        instance.drop_resource(resource)
        raise
    return kind._made(definition, instance, resource)  # type: ignore[attr-defined]


def define_tool(defn: Any, options: Any = None) -> Tool:
    """A tool definition checked and compiled: a frozen `Tool` whose compiled schema stays in the
    core (`close()` or `with` frees it); raises ContractError."""
    text = write(defn, *limits_of(options))
    return _defined(lambda i: i.resource_new("compiled-tool", text, options_text(options)), Tool)  # type: ignore[no-any-return]


def define_tool_json(text: Any, options: Any = None) -> Tool:
    """`define_tool` for a definition given as strict JSON text."""
    opts, max_bytes = options_text(options), max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if snap is None:
        unwrap(not_text(text))
    sent = stand_in(snap, max_bytes)  # type: ignore[arg-type]

    def make(instance: Any) -> Any:
        funcs = instance.resource_funcs["compiled-tool"]
        resource = cross(lambda case, t: funcs["from-json"](instance.store, case, t, opts), sent)
        instance.checked(len(sent) + len(opts))
        return resource

    return _defined(make, Tool)  # type: ignore[no-any-return]


def create_registry(tools: Any, options: Any = None) -> Registry:
    """Every tool defined, duplicate names refused (TOOL_DUPLICATE): `{"tools": [...sorted by
    name]}`, holding the compiled registry. `tools` is a list, or `{"tools", "resources"}`."""
    text = config(tools)
    return _defined(lambda i: i.resource_new("compiled-registry", text, options_text(options)), CompiledRegistry)  # type: ignore[no-any-return]


def _compiled(tool: Any) -> Any:
    """The compiled-tool resource of a `Tool` this thread's instance holds, else None (the plain
    path then reads the tool again in the core)."""
    return tool._handle(_runtime.current_instance()) if type(tool) is Tool else None


def validate_tool_input(tool: Any, value: Any, options: Any = None) -> Any:
    """A copy of `value` when it satisfies the tool's `inputSchema`; raises ContractError
    (`SCHEMA_MISMATCH` with `issues`). A `Tool` validates through its compiled schema (nothing
    sent again; TOOL_HANDLE_FREED once closed); a plain definition is read again by the core."""
    resource = _compiled(tool)
    shallow = _write_shallow(value) if options is None else None
    # Its text twin (`validateToolInputJson`): on success the reply is the verdict 0 alone.
    if resource is not None and shallow is not None:
        if type(tool._instance.resource_call("compiled-tool", "validate-json", resource, STR, shallow, "")) is int:
            return loads(shallow)
    limits = limits_of(options)
    text = write(value, *limits) if shallow is None else shallow
    if resource is None:
        # The tool is configuration, read under the ceilings: the call's limits are the input's.
        arguments = (config(tool), text)
        return unwrap(reply(_runtime.call_args("validate-tool-input", (*arguments, options_text(options)))))
    return unwrap(reply(tool._instance.resource_call("compiled-tool", "validate", resource, text, options_text(options))))


def validate_tool_input_json(tool: Any, text: Any, options: Any = None) -> Any:
    """The same with the input as strict JSON text (str or bytes)."""
    resource = _compiled(tool)
    if resource is not None and crosses_as_is(text, options):
        try:
            answer = tool._instance.resource_call("compiled-tool", "validate-json", resource, STR, text, "")
        except UnicodeEncodeError:  # lone surrogates: `cross` carries the bytes
            pass
        else:
            return loads(text) if type(answer) is int else text_value(reply(answer), text)
    max_bytes = max_text_bytes(options)
    snap = snapshot(text, max_bytes)
    if resource is None:
        before = (config(tool),)
        return text_value(_call_text("validate-tool-input-json", text if snap is None else snap, options, before), snap)
    if snap is None:
        return text_value(not_text(text), snap)
    opts, instance = options_text(options), tool._instance
    sent = stand_in(snap, max_bytes)
    call = lambda case, t: instance.resource_call("compiled-tool", "validate-json", resource, case, t, opts)  # noqa: E731
    return text_value(reply(cross(call, sent)), snap)


def validate_tool_inputs(tool: Any, values: Any, options: Any = None) -> list[Outcome[Any]]:
    """Many inputs for one tool in one call into the core: one outcome per input, in order.
    Raises ContractError only for the tool, the options, or a `values` that is not a list."""
    max_depth, max_bytes = limits_of(options)
    copies = max(1, len(values)) if type(values) is list else 1
    shallow = _write_shallow(values) if options is None else None
    text = write(values, max_depth, max_bytes, 0, copies) if shallow is None else shallow
    # Room for the batch's reply first: a tool compiled in an instance replaced here takes the
    # plain path in the fresh one.
    _runtime.make_room(_runtime.need_of("validate-tool-inputs", len(text)))
    resource = _compiled(tool)
    if resource is None:
        answer = _runtime.call_rpc("validate-tool-inputs", config(tool), text, options_text(options))
        return outcomes(answer)
    if shallow is not None:
        # The batch's text twin: accepted inputs answer a verdict, each its own JSON here.
        found = _verdict.batch(tool._instance.resource_call("compiled-tool", "validate-many-json", resource, STR, shallow, ""), shallow)
        if found is not None:
            return found
    return outcomes(tool._instance.resource_call("compiled-tool", "validate-many", resource, text, options_text(options)))


def check_tool_call(registry: Any, action: Any, policy: Any, options: Any = None) -> ApprovedCall:
    """protocol -> UNKNOWN_TOOL -> SCHEMA_MISMATCH -> POLICY_DENIED / APPROVAL_REQUIRED -> the
    approved call `{callId, tool, input, permissions}`. Executes nothing. `action` is a tool
    call in any shape (docs/semantics.md, "Pipeline")."""
    action_text = write(action, *limits_of(options))
    resource = registry_handle(registry, _runtime.current_instance())
    if resource is not None:
        answer = registry._instance.resource_call("compiled-registry", "check-tool-call", resource, action_text, config(policy), options_text(options))
    else:
        answer = _runtime.call_args("check-tool-call", (config(registry), action_text, config(policy), options_text(options)))
    return value(answer)  # type: ignore[no-any-return]


def _projection(name: str, export: str) -> Callable[[Any], Any]:
    """A projection (or the catalog) of a registry `create_registry` returned, from its compiled
    registry; any other value is read again by the core. Its kind is its index in the core's
    projection list."""
    kind = _runtime.described()["projections"].index("catalog" if name == "catalog" else name[3:-6].replace("_", "-"))

    def project(registry: Any) -> Any:
        resource = registry_handle(registry, _runtime.current_instance())
        if resource is None:
            return value(_runtime.call_args(export, (config(registry),)))
        return value(registry._instance.resource_call("compiled-registry", "project", resource, kind))

    return project


def admit_prompt(request: Any, capabilities: Any, options: Any = None) -> AdmissionPlan:
    """The pure first pass of an ACP `session/prompt` (its params `{sessionId, prompt}`): the
    plan `{sessionId, text, images, audio, resources}`, entries with a `sha256` holding their
    decoded `bytes`; or raises ContractError. Each payload crosses back as the canonical base64
    text the core decoded and hashed, beside the pointer of its entry, decoded here by the C
    decoder."""
    # Its strings up to the ceiling: the core judges the request by the admission limits. Its
    # values as many as the default limits allow: a request is a few values per block, its size
    # is in its strings, and 32 Mi values (the ceiling's) held as a tree took gigabytes.
    text = write(request, limits_of(None)[0], numbers()[3], max_values=max_nodes(numbers()[1]))
    decoded = reply(_runtime.call_args("admit-prompt", (text, config(capabilities), options_text(options))))
    plan: AdmissionPlan = unwrap(decoded)
    for pointer, payload in decoded["payloads"]:
        node, last = at(plan, pointer)
        node[last]["bytes"] = binascii.a2b_base64(payload, strict_mode=True)
    return plan


# The cases of the component's `value-or-text` variant: host text of a value, then the two
# cases of `text` (`_text.cross`'s, shifted by one).
_VALUE, _TEXT = 0, 1


def is_canonical_base64(text: Any) -> bool:
    """Canonical RFC 4648 base64; False for anything that is not a str."""
    if type(text) is str:
        return cross(lambda case, t: _runtime.call_args("is-canonical-base64", (case + _TEXT, t)), text)  # type: ignore[no-any-return]
    return _runtime.call_args("is-canonical-base64", (_VALUE, write(text, 0, numbers()[3])))  # type: ignore[return-value]


def sniff_media_type(data: Any) -> Optional[str]:
    """The media type whose WHATWG MIME Sniffing signature `data` (bytes-like) starts with, or
    None; ContractError FIELD_TYPE for anything that is not bytes."""
    head: Optional[bytes] = None
    try:
        if issubclass(type(data), (bytes, bytearray, memoryview)):
            with memoryview(data) as view, view.cast("B") as flat:
                head = flat[:64].tobytes()  # every signature is shorter
    except Exception:
        head = None
    if head is None:
        return value(_runtime.call_args("not-bytes", (write(data, 0, limits_of(None)[1]),)))  # type: ignore[no-any-return]
    return value(_runtime.call_args("sniff-media-type", (head.decode("latin-1"),)))  # type: ignore[no-any-return]


def classify_json_rpc(value: Any, options: Any = None) -> JsonRpcClassification:
    """`{kind, id?, method?, reply, code?, path?, reason?, items?}` of one message or batch."""
    return link_batch_reply(_rpc("classify-json-rpc", rpc_message(value, options), options_text(options)))  # type: ignore[no-any-return]


def classify_json_rpc_json(text: Any, options: Any = None) -> JsonRpcClassification:
    """The same for JSON text (str or bytes): text that is not strict JSON is a `parse_error`."""
    snap = snapshot(text)
    if snap is None:
        return unwrap(not_text(text))  # type: ignore[no-any-return]
    return link_batch_reply(cross(lambda case, t: _rpc("classify-json-rpc-json", case, t, options_text(options)), snap))  # type: ignore[no-any-return]


def _rpc(export: str, *arguments: Any) -> Any:
    return unwrap(reply(_runtime.call_rpc(export, *arguments)))


def method_not_found(request: Any) -> Optional[JsonRpcErrorReply]:
    """`-32601 Method not found` for a request; None for a notification or anything else."""
    return _rpc("method-not-found", rpc_message(request))  # type: ignore[no-any-return]


def internal_error(request: Any, error: Any) -> Optional[JsonRpcErrorReply]:
    """`-32603` with the error's message (a str, or an exception's message, read through
    BaseException's own descriptor: no code of the caller runs; never a traceback)."""
    if issubclass(type(error), ContractError):
        error = {"message": error.message}
    elif issubclass(type(error), BaseException):
        args = BaseException.args.__get__(error)  # type: ignore[attr-defined]
        error = {"message": args[0]} if type(args) is tuple and len(args) == 1 and type(args[0]) is str else {}
    return _rpc("internal-error", rpc_message(request), config(error))  # type: ignore[no-any-return]


def invalid_params(request: Any, contract_error: Any) -> Optional[JsonRpcErrorReply]:
    """`-32602 Invalid params` with `data: {code, path}` of a ContractError (or a dict with
    `code` and `path`); None for a notification or anything that is not a request."""
    if issubclass(type(contract_error), ContractError):
        contract_error = {"code": contract_error.code, "path": contract_error.path}
    return _rpc("invalid-params", rpc_message(request), config(contract_error))  # type: ignore[no-any-return]


def query_session(text: Any, query: Any, options: Any = None) -> Any:
    """The session read as `read_session` does, then one tree query: `{"branch": id}`,
    `{"children": id}` or `{"context": leaf_id}`."""
    before = (write(query, *limits_of(None)),)
    return unwrap(_call_text("query-session", text, options, before=before, whole=True))


def read_session(text: Any, options: Any = None) -> Session:
    """The session, or its first problem raised as a ContractError."""
    held = snapshot(text)  # an immutable copy (a bytearray may change later); None: not text
    found = unwrap(_call_text("read-session", text if held is None else held, options, whole=True))
    return Session(held, options, found, query_session)


def check_chat_row(row: Any, options: Any = None) -> ChatRowReport:
    """One row of the OpenAI chat fine-tuning format as `{"ok", "problems", "stats"}`: a dict,
    or the row's JSON text. Raises ContractError only for invalid options."""
    opts = options_text(options)
    if is_text(row):
        snap = snapshot(row)  # the limit is per line: the text crosses whole
        if snap is None:
            return unwrap(not_text(row))  # type: ignore[no-any-return]
        return value(cross(lambda case, t: _runtime.call_args("check-chat-row", (case + _TEXT, t, opts)), snap))  # type: ignore[no-any-return]
    return value(_runtime.call_args("check-chat-row", (_VALUE, write(row, *limits_of(options)), opts)))  # type: ignore[no-any-return]


# Items of an iterator sent to the core per crossing: large enough that the crossing's cost
# vanishes beside the rows' checks, small enough that a stream of rows is never held whole.
_CHUNK = 1024


def check_chat_rows(rows: Any, options: Any = None) -> list[ChatRowReport]:
    """One report per row of an iterable of rows (dicts, or JSON texts). A list crosses whole
    (`maxArrayLength` bounds it, as in every host); another iterable in chunks of 1,024 rows."""

    def whole(chunk: Any) -> list[ChatRowReport]:
        with collector_paused():
            return unwrap(call_value("check-chat-rows", chunk, options, batch=True))  # type: ignore[no-any-return]

    if type(rows) is list or is_text(rows) or issubclass(type(rows), dict) or not hasattr(type(rows), "__iter__"):
        return whole(rows)  # the core's verdict: a list's reports, or why anything else is not one
    reports: list[ChatRowReport] = []
    chunk: list[Any] = []
    for item in _items(rows, whole):
        chunk.append(item)
        if len(chunk) == _CHUNK:
            reports.extend(whole(chunk))
            chunk = []
    return reports + whole(chunk) if chunk else reports


def check_sessions(texts: Any, options: Any = None) -> list[SessionReport]:
    """`check_session` over an iterable of session texts (one text alone is one session), one
    report each; each crosses on its own (a session is a whole file, already one copy)."""
    if is_text(texts):
        return [check_session(texts, options)]
    refuse = lambda v: unwrap(not_text(v))  # noqa: E731
    if issubclass(type(texts), dict):
        refuse(texts)  # iterable, but its keys are not session texts
    return [check_session(text, options) for text in _items(texts, refuse)]


# --- rows made from the table ---------------------------------------------------------------


def _made(row: dict[str, Any]) -> Callable[..., Any]:
    """A row's function from its argument and reply kinds. Text crosses by `_text.cross`, whole
    when the limit is per line (reports and batches); other arguments are written as host text,
    the first value under the options' limits (each item of a batch on its own) and the rest as
    configuration."""
    name, args, reply_kind = row["python"], row["args"], row["reply"]
    export = name.replace("_", "-")
    if type(reply_kind) is dict:  # a stateful object: its class
        return globals()[reply_kind["object"]]  # type: ignore[no-any-return]
    if args == ["registry"]:
        return _projection(name, export)
    if args == ["text"]:
        if reply_kind == "verdict":
            return lambda text, options=None: _verdict.one(export, text, options)
        if reply_kind == "text-verdict":
            return lambda text, options=None: text_value(_call_text(export, text, options), snapshot(text, max_text_bytes(options)))
        if reply_kind == "batch":
            return lambda text, options=None: _paused(lambda: unwrap(_call_text(export, text, options, whole=True)))
        return lambda text, options=None: unwrap(_call_text(export, text, options, whole=reply_kind == "report"))
    if args == ["value"] and row["options"] is not None:
        if row["textTwin"] is not None:
            [twin] = [r["python"].replace("_", "-") for r in _runtime.described()["operations"] if r["name"] == row["textTwin"]]

            def via_twin(given: Any, options: Any = None) -> Any:
                text = None if options is not None else _write_shallow(given)
                if text is None:
                    return call_value(export, given, options, decode=value)
                found = _verdict.through_twin(twin, text)
                return value(_runtime.call_args(export, (text, ""))) if found is None else found

            return via_twin
        if reply_kind == "batch":
            return lambda values, options=None: call_value(export, values, options, batch=True, decode=outcomes)
        return lambda given, options=None: call_value(export, given, options, decode=value)
    first = args.index("value") if row["options"] is not None else -1
    most = len(args) + (first >= 0)

    def call(*given: Any, **options: Any) -> Any:
        if set(options) - {"options"} or not len(args) <= len(given) + len(options) <= most:
            raise TypeError(f"{name}() takes {len(args)} arguments" + (" and options" if first >= 0 else ""))
        opts = given[len(args)] if len(given) > len(args) else options.get("options")
        texts = tuple(write(v, *limits_of(opts)) if i == first else config(v) for i, v in enumerate(given[: len(args)]))
        return value(_runtime.call_args(export, (*texts, options_text(opts)) if first >= 0 else texts))

    return call


def parse_agent_actions_jsonl(text: Any, options: Any = None) -> list[Outcome[AgentAction]]:
    """JSON Lines: one outcome per line, in one crossing; positions are in the whole text."""
    with collector_paused():
        return _verdict.jsonl("parse-agent-actions-jsonl", text, options)


def _lazy(name: str) -> Callable[..., Any]:
    """`name`'s function, made from its row on first call (the table is the core's, read when
    the core is first loaded), then bound in the module in its place."""
    safe = name.startswith("safe_")
    made: list[Callable[..., Any]] = []

    def first(*args: Any, **kwargs: Any) -> Any:
        if not made:
            if safe:
                made.append(_safe(name[5:]))
            else:
                [row] = [r for r in _runtime.described()["operations"] if r["python"] == name]
                made.append(_made(row))
            if not inspect.isclass(made[0]):
                made[0].__name__ = made[0].__qualname__ = name
                made[0].__doc__ = first.__doc__
                globals()[name] = made[0]
        return made[0](*args, **kwargs)

    first.__name__ = first.__qualname__ = name
    first.__doc__ = f"The `{name}` row of the operation table (docs/reference.md)."
    return first


def _safe(base: str) -> Callable[..., Any]:
    """The safe form of function `base`: `{"ok": True, "value"}` or `{"ok": False, "error"}`."""

    def safe(*args: Any, **kwargs: Any) -> Any:
        try:
            return {"ok": True, "value": globals()[base](*args, **kwargs)}
        except ContractError as error:
            return {"ok": False, "error": error}

    return safe


def _paused(call: Callable[[], Any]) -> Any:
    with collector_paused():
        return call()


if not TYPE_CHECKING:
    for _name in __all__:
        if _name[0].islower() and _name not in globals():
            globals()[_name] = _lazy(_name)
    del _name
