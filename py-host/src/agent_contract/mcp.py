"""`agent_contract.mcp`: the core's tool contracts where MCP messages need them.

The Python MCP SDK (`mcp`) validates tool output with `jsonschema` and has no validator to
inject, so this module gives the checks as functions over MCP's messages, as dicts or as the
SDK's pydantic models (`ListToolsResult`, `CallToolRequestParams`, `CallToolResult`):
`from_mcp_tools`, `check_mcp_tool_call`, `check_mcp_tool_result`, and `create_mcp_validator`
(the TypeScript SDK's `jsonSchemaValidator` shape) for an elicitation answer or any schema an
MCP peer sent. What an MCP message means (a tools/list answer's definitions, a tools/call
result's checks) is the core's (`mcp_tool_definitions`, `check_mcp_tool_result`); this module
composes those with other public functions and decides no verdict: a caller's value is copied
by the core first (`validate_tool_input` against the empty schema), so only plain data is read
here. docs/decisions.md, "MCP helpers", has the choices.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, Callable, Literal, Optional, TypedDict

from . import _runtime
from ._host_text import write
from ._text import numbers
from ._wire import config, value as _reply_value
from . import (
    UNDEFINED,
    ContractError,
    Registry,
    Tool,
    check_mcp_tool_result as _check_tool_result,
    check_tool_call,
    create_registry,
    define_policy,
    define_tool,
    mcp_tool_definitions,
    safe_validate_tool_input,
    validate_tool_input,
)

__all__ = [
    "McpCheckedCall",
    "McpValidator",
    "McpValidatorResult",
    "check_mcp_tool_call",
    "check_mcp_tool_result",
    "create_mcp_validator",
    "from_mcp_tools",
    "json_schema_validator",
]


def _mcp(member: str) -> Any:
    """What the core says this module passes and keeps (`describe()`, `mcp`): `toolOptions`, the
    options that make a tool an MCP tool (any MCP name, `format` asserted), and
    `compiledSchemasKept`. Asked on first use: importing the module starts no core."""
    return _runtime.described()["mcp"][member]


_ANY_VALUE = {"name": "mcp_value", "description": "Any JSON value.", "permission": "read", "inputSchema": {}}


def _plain(value: Any, items: bool = True) -> Any:
    """A pydantic model (the SDK's types), or a list of them, as its JSON form; anything else as
    it is. A model whose dump fails goes to the core as it is, which refuses it as a value with
    no JSON form. Only the list itself is mapped, not lists in it: a caller's list may nest
    deeper than Python's stack."""
    if type(value) is list and items:  # a list of models: the tools of a tools/list answer
        return [_plain(item, False) for item in value]
    try:
        dump = getattr(type(value), "model_dump", None)
        if dump is None:
            return value
        return dump(value, mode="json", by_alias=True, exclude_none=True)
    except Exception:
        return value


def _copy(value: Any) -> Any:
    """The core's plain copy of a caller's value (raises the core's ContractError for a value
    with no JSON form)."""
    return validate_tool_input(_ANY_VALUE, _plain(value))


def _moved(error: ContractError, old: str, new: str, message: Optional[str] = None) -> ContractError:
    """`error` with its pointer moved from under `old` to under `new`."""
    path = error.path
    if path == old or path.startswith(old + "/"):
        path = new + path[len(old) :]
    moved = ContractError(
        error.layer,
        error.code,
        path,
        error.message if message is None else message,
        error.retryable,
        error.position,
        error.issues,
        error.available_tools,
        error.proposal,
    )
    moved.truncated = error.truncated
    return moved


def _core(export: str, text: str) -> Any:
    """One of the core's exports for the MCP modules (its words for a validator)."""
    return _reply_value(_runtime.call_args(export, (text,)))


def _describe(error: ContractError) -> str:
    """The core's line for a failure: a SCHEMA_MISMATCH's issues, or the code and place. Written
    under the ceilings: the failure is one the core wrote, and a validator never raises."""
    fields = {"code": error.code, "path": error.path, "message": error.message, "issues": error.issues, "truncated": error.truncated}
    n = numbers()
    return _core("mcp-failure-line", write(fields, n[2], n[3]))  # type: ignore[no-any-return]


def _wording(role: Any) -> tuple[str, str]:
    """What a check is of in a validator's error text, (subject, schema), the core's for the
    role; OPTION_INVALID for a role that is not "client" or "server"."""
    words = _core("mcp-validator-wording", config({"role": role}))
    return words["subject"], words["schema"]


def _schema_tool(schema: Any) -> dict[str, Any]:
    return {"name": "mcp_schema", "description": "A JSON Schema an MCP peer sent.", "permission": "read", "inputSchema": schema}


_compiled: "OrderedDict[str, Tool]" = OrderedDict()
_compiled_lock = threading.Lock()


def _compile(schema: Any, label: str) -> Tool:
    """A schema compiled by the core, cached by the text of the core's copy (a dict has no
    identity to key on: it is neither hashable nor weakly referenceable); or the ContractError
    with its pointer inside the schema."""
    try:
        copied = _copy(schema)
        try:
            text: Optional[str] = json.dumps(copied, ensure_ascii=False, separators=(",", ":"), default=_no_key)
        except _NoKey:
            text = None
        with _compiled_lock:
            hit = _compiled.get(text) if text is not None else None
            if hit is not None:
                _compiled.move_to_end(text)  # type: ignore[arg-type]
                return hit
        tool = define_tool(_schema_tool(copied), _mcp("toolOptions"))
    except ContractError as error:
        raise _moved(error, "/inputSchema", "", f"{label}: {error.message}") from None
    if text is not None:
        with _compiled_lock:
            _compiled[text] = tool
            if len(_compiled) > _mcp("compiledSchemasKept"):
                _compiled.popitem(last=False)
    return tool


class _NoKey(Exception):
    pass


def _no_key(value: Any) -> Any:
    """The core's copy holds `UNDEFINED` for a member set to it, which has no JSON text: such a
    schema goes to the core with no cache key (any text for it could be a real schema's), and
    the core refuses it at the member's pointer."""
    raise _NoKey


class McpValidatorResult(TypedDict):
    valid: bool
    data: Any
    error_message: Optional[str]


class McpValidator:
    """The TypeScript SDK's `jsonSchemaValidator` shape: `get_validator(schema)` compiles once and
    returns `(value) -> {"valid", "data", "error_message"}`, which never raises."""

    def __init__(self, role: Optional[Literal["client", "server"]] = None) -> None:
        # The core's words for the role: asked now for a role (an invalid one raises here), else
        # on first use, so that importing this module (`json_schema_validator`) loads no core.
        self._role = role
        self._words: Optional[tuple[str, str]] = None if role is None else _wording(role)

    def get_validator(self, schema: Any) -> Callable[[Any], McpValidatorResult]:
        if self._words is None:
            self._words = _wording(self._role)
        subject, name = self._words
        try:
            tool = _compile(schema, name)
        except ContractError as error:
            # A valid schema the core cannot check: every value is refused, with the reason (the
            # core's `uncheckableCode`; raising failed the SDK's listTools in JS).
            if error.code != _mcp("uncheckableCode"):
                raise
            refused: McpValidatorResult = {"valid": False, "data": None, "error_message": f"{subject} cannot be checked against {name}: {_describe(error)}"}
            return lambda value: dict(refused)  # type: ignore[return-value]

        def validate(value: Any) -> McpValidatorResult:
            out = safe_validate_tool_input(tool, _plain(value))
            if out["ok"] is True:
                return {"valid": True, "data": value, "error_message": None}
            message = f"{subject} does not match {name}: {_describe(out['error'])}"
            return {"valid": False, "data": None, "error_message": message}

        return validate


def create_mcp_validator(role: Optional[Literal["client", "server"]] = None) -> McpValidator:
    """A validator whose error text names the check: `client` (structuredContent against a
    tool's outputSchema), `server` (an elicitation answer against its requestedSchema)."""
    return McpValidator(role)


json_schema_validator = McpValidator()
"""The validator with neutral error text."""


def from_mcp_tools(list_tools_result: Any, options: Optional[dict[str, Any]] = None) -> Registry:
    """A registry from a tools/list answer (`{"tools": [...]}`, a `ListToolsResult`, or the list):
    MCP names, input and output schemas compiled, permissions from the annotations. Raises
    ContractError at the pointer inside the answer."""
    answer = mcp_tool_definitions(_plain(list_tools_result))
    tools, at = answer["tools"], answer["at"]
    core_options: Any = _mcp("toolOptions")
    if options is not None:
        given = _copy(options)
        core_options = {**core_options, **given} if isinstance(given, dict) else given
    try:
        registry = create_registry({"tools": tools}, core_options)
    except ContractError as error:
        raise _moved(error, "/tools", at) from None
    # The output schemas in the answer's order (the definitions', each a dict once the registry
    # took them), so that a failure's pointer is its tool's in the answer.
    label = _wording("client")[1]
    for index, tool in enumerate(tools):
        if "outputSchema" in tool:
            try:
                _compile(tool["outputSchema"], label)
            except ContractError as error:
                raise _moved(error, "", f"{at}/{index}/outputSchema") from None
    return registry


class McpCheckedCall(TypedDict):
    name: str
    arguments: Any
    permissions: list[str]


_allow_all: list[Any] = []


def check_mcp_tool_call(registry: Any, params: Any, policy: Any = UNDEFINED) -> McpCheckedCall:
    """Checks tools/call params (`{"name", "arguments"?}` or `CallToolRequestParams`) against a
    registry (`from_mcp_tools`): the tool exists (UNKNOWN_TOOL with the closest names), its
    arguments match its inputSchema (SCHEMA_MISMATCH at /arguments); with a policy, the policy.
    Returns the core's copy as {name, arguments, permissions}. A policy given as None is a
    policy that is missing (POLICY_INVALID, as JS's null), never "allow everything"."""
    if policy is UNDEFINED:
        if not _allow_all:
            rules = [{"effect": "allow", "permission": p} for p in ("read", "write", "execute", "network")]
            _allow_all.append(define_policy({"rules": rules}))
        policy = _allow_all[0]
    request = {"jsonrpc": "2.0", "id": "check", "method": "tools/call", "params": _plain(params)}
    try:
        call = check_tool_call(registry, request, policy)
    except ContractError as error:
        raise _moved(error, "/params", "") from None
    return {"name": call["tool"], "arguments": call["input"], "permissions": list(call["permissions"])}


def check_mcp_tool_result(tool: Any, result: Any, options: Optional[dict[str, Any]] = None) -> Any:
    """Checks a tools/call result (a dict or `CallToolResult`) against the tool (of
    `from_mcp_tools`'s registry, a tool definition, or an MCP tool): the core's
    `check_mcp_tool_result` (nothing when `isError` is true; else structuredContent is required
    and must match the outputSchema, and its text mirror, when there is one, must parse to the
    same value). Returns the core's copy of the result. `options`: the limits the result is
    read under (a content block's base64 past 1 MiB needs `maxStringBytes`)."""
    return _check_tool_result(_plain(tool), _plain(result), options)
