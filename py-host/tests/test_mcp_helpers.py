"""`agent_contract.mcp` with the Python MCP SDK (`mcp`, pinned in requirements-dev.txt): a real
Client and Server over the SDK's in-memory transport (`Client(server, mode="legacy")` runs
`InMemoryTransport`), the server checking tools/call params on receipt, its own results before
sending, and an elicitation answer; the client building a registry from tools/list and
checking a call before sending and a result on receipt (formats asserted, which the SDK's
`jsonschema` check does not do); hostile values ending as ContractError."""

from __future__ import annotations

import json
from typing import Any, Callable

import anyio
import mcp.types as types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.server import Server

import agent_contract as ac
from agent_contract.mcp import (
    check_mcp_tool_call,
    check_mcp_tool_result,
    create_mcp_validator,
    from_mcp_tools,
    json_schema_validator,
)

WEATHER_OUTPUT = {
    "type": "object",
    "properties": {
        "temperature": {"type": "number"},
        "observedAt": {"type": "string", "format": "date-time"},
        "contact": {"type": "string", "format": "email"},
    },
    "required": ["temperature", "observedAt"],
}
TOOLS = [
    types.Tool(
        name="get-weather",
        title="Weather",
        description="Current weather for a city.",
        input_schema={"type": "object", "properties": {"city": {"type": "string", "minLength": 1}}, "required": ["city"]},
        output_schema=WEATHER_OUTPUT,
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=True),
    ),
    types.Tool(
        name="resolve-library-id",
        description="Resolves a package name to a library id.",
        input_schema={"type": "object", "properties": {"libraryName": {"type": "string"}}, "required": ["libraryName"]},
    ),
    types.Tool(name="a.b", input_schema={"type": "object"}, annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False)),
]
ANSWERS: dict[str, dict[str, Any]] = {
    "Lyon": {"temperature": 21.5, "observedAt": "2026-05-01T12:00:00Z", "contact": "meteo@example.com"},
    "Typo": {"temperature": "warm", "observedAt": "2026-05-01T12:00:00Z"},
    "Clock": {"temperature": 3, "observedAt": "yesterday at noon"},
    "Mail": {"temperature": 3, "observedAt": "2026-05-01T12:00:00Z", "contact": "not-an-email"},
}
PERSON = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "email": {"type": "string", "format": "email"}},
    "required": ["name", "email"],
}


def _error_result(error: ac.ContractError) -> types.CallToolResult:
    text = json.dumps({"code": error.code, "path": error.path, "message": error.message})
    return types.CallToolResult(is_error=True, content=[types.TextContent(type="text", text=text)])


def weather_server(send_unchecked: bool = False) -> Server[Any]:
    listed = types.ListToolsResult(tools=TOOLS)
    registry = from_mcp_tools(listed)
    by_name = {t["name"]: t for t in registry["tools"]}
    elicit_validator = create_mcp_validator("server").get_validator(PERSON)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            call = check_mcp_tool_call(registry, params)  # on receipt
        except ac.ContractError as error:
            return _error_result(error)
        if call["name"] == "a.b":
            answer = await ctx.session.elicit_form("Who are you?", PERSON)
            verdict = elicit_validator(answer.content)
            if not verdict["valid"]:
                return types.CallToolResult(is_error=True, content=[types.TextContent(type="text", text=str(verdict["error_message"]))])
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"hello {answer.content['name']}")])
        structured = ANSWERS.get(call["arguments"]["city"])
        if structured is None:
            return types.CallToolResult(is_error=True, content=[types.TextContent(type="text", text="unknown city")])
        result = types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(structured))], structured_content=structured)
        if send_unchecked:
            return result
        try:
            check_mcp_tool_result(by_name[call["name"]], result)  # before sending
        except ac.ContractError as error:
            return _error_result(error)
        return result

    return Server("weather", on_list_tools=list_tools, on_call_tool=call_tool)


def run(body: Any, server: Server[Any], elicit: Any = None) -> None:
    async def main() -> None:
        async with Client(server, mode="legacy", elicitation_callback=elicit) as client:
            await body(client)

    anyio.run(main)


def test_the_server_checks_params_on_receipt_and_its_results_before_sending() -> None:
    async def body(client: Client) -> None:
        good = await client.call_tool("get-weather", {"city": "Lyon"})
        assert good.is_error is False and good.structured_content == ANSWERS["Lyon"]
        refused = await client.call_tool("get-weather", {"city": ""})
        assert refused.is_error is True
        assert json.loads(refused.content[0].text)["code"] == "SCHEMA_MISMATCH"  # type: ignore[union-attr]
        assert json.loads(refused.content[0].text)["path"] == "/arguments"  # type: ignore[union-attr]
        for city, pointer in [("Typo", "/structuredContent"), ("Clock", "/structuredContent"), ("Mail", "/structuredContent")]:
            out = await client.call_tool("get-weather", {"city": city})
            assert out.is_error is True, city
            error = json.loads(out.content[0].text)  # type: ignore[union-attr]
            assert (error["code"], error["path"]) == ("SCHEMA_MISMATCH", pointer)
            assert error["message"].startswith("structuredContent does not match the tool's outputSchema: ")
            assert "inputSchema" not in error["message"]
        unknown = await client.call_tool("get_weather", {})
        assert json.loads(unknown.content[0].text)["code"] == "UNKNOWN_TOOL"  # type: ignore[union-attr]

    run(body, weather_server())


def test_the_client_checks_calls_before_sending_and_results_on_receipt() -> None:
    async def body(client: Client) -> None:
        listed = await client.list_tools()
        registry = from_mcp_tools(listed)
        assert [t["name"] for t in registry["tools"]] == ["a.b", "get-weather", "resolve-library-id"]
        assert [t["permissions"] for t in registry["tools"]] == [["read"], ["read", "network"], ["write", "network"]]
        params = types.CallToolRequestParams(name="resolve-library-id", arguments={"libraryName": "react"})
        assert check_mcp_tool_call(registry, params) == {
            "name": "resolve-library-id",
            "arguments": {"libraryName": "react"},
            "permissions": ["write", "network"],
        }
        with pytest.raises(ac.ContractError) as bad:
            check_mcp_tool_call(registry, {"name": "resolve-library-id", "arguments": {"libraryName": 7}})
        assert (bad.value.code, bad.value.path) == ("SCHEMA_MISMATCH", "/arguments")
        # A policy given as None is a missing policy, refused as JS refuses null: never "allow
        # everything" (only leaving the policy out means no policy).
        with pytest.raises(ac.ContractError) as no_policy:
            check_mcp_tool_call(registry, params, None)
        assert (no_policy.value.code, no_policy.value.path) == ("POLICY_INVALID", "")
        weather = next(t for t in registry["tools"] if t["name"] == "get-weather")
        # A tool that is not an object (a failed lookup's None) checks nothing: refused.
        for not_a_tool in (None, "get-weather", [], 0):
            with pytest.raises(ac.ContractError) as refused_tool:
                check_mcp_tool_result(not_a_tool, {"structuredContent": {}})
            assert (refused_tool.value.code, refused_tool.value.path) == ("TOOL_NOT_OBJECT", "")
        good = await client.call_tool("get-weather", {"city": "Lyon"})
        assert check_mcp_tool_result(weather, good)["structuredContent"] == ANSWERS["Lyon"]
        # The SDK's own check (jsonschema) does not assert formats; ours refuses the bad email.
        mail = await client.call_tool("get-weather", {"city": "Mail"})
        assert mail.is_error is False
        with pytest.raises(ac.ContractError) as refused:
            check_mcp_tool_result(weather, mail)
        assert (refused.value.code, refused.value.path) == ("SCHEMA_MISMATCH", "/structuredContent")
        assert refused.value.issues is not None and refused.value.issues[0]["keyword"] == "format"
        # An error result is not checked.
        failed = await client.call_tool("get-weather", {"city": "Atlantis"})
        assert failed.is_error is True and check_mcp_tool_result(weather, failed)["isError"] is True

    run(body, weather_server(send_unchecked=True))


def test_an_elicitation_answer_is_checked_against_requested_schema() -> None:
    answers: list[dict[str, Any]] = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Ada", "email": "not-an-email"}, {"name": 7, "email": "a@b.c"}]

    async def elicit(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content=answers.pop(0))

    async def body(client: Client) -> None:
        ok = await client.call_tool("a.b", {})
        assert ok.is_error is False and ok.content[0].text == "hello Ada"  # type: ignore[union-attr]
        email = await client.call_tool("a.b", {})
        text = email.content[0].text  # type: ignore[union-attr]
        assert email.is_error is True
        assert text.startswith("the elicitation answer (content) does not match the requestedSchema: /email: ")
        assert text.endswith("(format)")
        name = await client.call_tool("a.b", {})
        assert name.is_error is True and "/name: " in name.content[0].text  # type: ignore[union-attr]

    run(body, weather_server(), elicit)


def _error(call: Any) -> ac.ContractError:
    with pytest.raises(ac.ContractError) as raised:
        call()
    return raised.value


def test_results_and_their_text_mirror() -> None:
    registry = from_mcp_tools([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in TOOLS])
    weather = next(t for t in registry["tools"] if t["name"] == "get-weather")
    lyon = ANSWERS["Lyon"]
    good = {"content": [{"type": "text", "text": json.dumps(lyon)}], "structuredContent": lyon}
    assert check_mcp_tool_result(weather, good) == good
    assert check_mcp_tool_result(TOOLS[0], good) == good
    relaid = '  {"observedAt":"2026-05-01T12:00:00Z",\n "temperature": 21.50, "contact": "meteo@example.com"}'
    check_mcp_tool_result(weather, {"content": [{"type": "text", "text": "Sunny."}, {"type": "text", "text": relaid}], "structuredContent": lyon})
    check_mcp_tool_result(weather, {"content": [{"type": "text", "text": "It is 21.5 degrees."}], "structuredContent": lyon})
    check_mcp_tool_result(weather, {"isError": True, "content": [], "structuredContent": {"nope": 1}})
    differs = _error(lambda: check_mcp_tool_result(weather, {"content": [{"type": "text", "text": '{"temperature": 20}'}], "structuredContent": lyon}))
    assert (differs.code, differs.path) == ("SCHEMA_MISMATCH", "/content/0/text")
    # True is not 1 for the core's comparison (it is for Python's ==).
    flag = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    flagged = {"name": "f", "inputSchema": {"type": "object"}, "outputSchema": flag}
    one = _error(lambda: check_mcp_tool_result(flagged, {"content": [{"type": "text", "text": '{"ok": 1}'}], "structuredContent": {"ok": True}}))
    assert one.path == "/content/0/text"
    bad_json = [{"type": "image", "data": "", "mimeType": "image/png"}, {"type": "text", "text": '{"temperature": 21.5,}'}]
    not_json = _error(lambda: check_mcp_tool_result(weather, {"content": bad_json, "structuredContent": lyon}))
    assert (not_json.code, not_json.path) == ("JSON_INVALID", "/content/1/text")
    assert not_json.position is not None and not_json.position["offset"] == 21
    missing = _error(lambda: check_mcp_tool_result(weather, {"content": []}))
    assert (missing.code, missing.path) == ("FIELD_MISSING", "/structuredContent")


def test_from_mcp_tools_refuses_a_bad_answer_at_its_pointer() -> None:
    tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in TOOLS]
    assert _error(lambda: from_mcp_tools({"tools": [tools[0], {**tools[1], "name": ""}]})).path == "/tools/1/name"
    assert _error(lambda: from_mcp_tools({"tools": [tools[0], tools[0]]})).code == "TOOL_DUPLICATE"
    lookaround = {"name": "x", "inputSchema": {"type": "object", "properties": {"a": {"pattern": "(?=a)"}}}}
    unsupported = _error(lambda: from_mcp_tools({"tools": [lookaround]}))
    assert (unsupported.code, unsupported.path) == ("TOOL_SCHEMA_UNSUPPORTED", "/tools/0/inputSchema/properties/a/pattern")
    bad_output = [{"name": "x", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "minProperties": -1}}]
    assert _error(lambda: from_mcp_tools(bad_output)).path == "/0/outputSchema/minProperties"


class Exploding:
    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(name)


class BadDump:
    def model_dump(self, **kwargs: Any) -> Any:
        raise RuntimeError("dump")


def test_hostile_values_end_as_contract_errors_or_invalid() -> None:
    validate = create_mcp_validator().get_validator(WEATHER_OUTPUT)
    for hostile in [Exploding(), BadDump(), {"temperature": float("nan"), "observedAt": "2026-05-01T12:00:00Z"}, {1: 2}]:
        out = validate(hostile)
        assert out["valid"] is False and out["data"] is None and isinstance(out["error_message"], str)
    cycle: dict[str, Any] = {"temperature": 1, "observedAt": "2026-05-01T12:00:00Z"}
    cycle["self"] = cycle
    assert "VALUE_CYCLE at /self" in str(validate(cycle)["error_message"])
    registry = from_mcp_tools(TOOLS)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    calls: list[Callable[[], object]] = [
        lambda: create_mcp_validator().get_validator(Exploding()),
        lambda: create_mcp_validator().get_validator({"type": "object", "properties": BadDump()}),
        lambda: create_mcp_validator("inputSchema"),  # type: ignore[arg-type]
        lambda: create_mcp_validator(["client"]),  # type: ignore[arg-type]
        # A role whose repr raises (an int past the digit limit) or recurses past the stack.
        lambda: create_mcp_validator(10**5000),  # type: ignore[arg-type]
        lambda: create_mcp_validator(deep),  # type: ignore[arg-type]
        # A list nested past Python's stack: the core refuses it at maxDepth.
        lambda: from_mcp_tools(deep),
        lambda: create_mcp_validator().get_validator(deep),
        lambda: from_mcp_tools(Exploding()),
        lambda: from_mcp_tools({"tools": [BadDump()]}),
        lambda: from_mcp_tools(TOOLS, Exploding()),  # type: ignore[arg-type]
        lambda: check_mcp_tool_call(registry, Exploding()),
        lambda: check_mcp_tool_call(registry, {"name": "a.b", "arguments": {"x": Exploding()}}),
        lambda: check_mcp_tool_call(Exploding(), {"name": "a.b"}),
        lambda: check_mcp_tool_result(registry["tools"][1], BadDump()),
        lambda: check_mcp_tool_result(Exploding(), {"content": []}),
    ]
    for call in calls:
        with pytest.raises(ac.ContractError):
            call()
    # A member set to UNDEFINED has no JSON text: the core refuses the schema at its pointer
    # (before, the cache key's json.dumps raised TypeError).
    with pytest.raises(ac.ContractError) as e:
        create_mcp_validator().get_validator({"type": "object", "required": ac.UNDEFINED})
    assert (e.value.code, e.value.path) == ("VALUE_NOT_JSON", "/required")
    with pytest.raises(ac.ContractError, match="got a value that is not a string") as e:
        create_mcp_validator(10**5000)  # type: ignore[arg-type]
    assert (e.value.code, e.value.path) == ("OPTION_INVALID", "/role")
    # The core's words, the same in JS (js-tests/test/mcp-validator.test.mjs).
    for role, got in (("any", '"any"'), (5, "a value that is not a string")):
        with pytest.raises(ac.ContractError) as e:
            create_mcp_validator(role)  # type: ignore[arg-type]
        assert (e.value.code, e.value.path, e.value.message) == ("OPTION_INVALID", "/role", f'role must be "client" or "server", got {got}')
    # A long failure (1,000 issues quoting their schema) is still one line, never a raise; the
    # same line in JS.
    wide = {"type": "object", "properties": {f"k{i}": {"const": "x" * 900} for i in range(1000)}}
    long = create_mcp_validator("client").get_validator(wide)({f"k{i}": "b" for i in range(1000)})
    assert long["valid"] is False and long["error_message"] is not None
    assert len(long["error_message"]) == 27469
    assert long["error_message"].endswith("… (const); (more issues not listed)")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**53), max_value=2**53) | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON, st.booleans())
def test_property_the_validator_never_raises_and_answers_by_the_schema(value: Any, wrap: bool) -> None:
    validate = create_mcp_validator("client").get_validator(WEATHER_OUTPUT)
    data = {"temperature": 1, "observedAt": "2026-05-01T12:00:00Z", "extra": value} if wrap else value
    out = validate(data)
    assert out["valid"] is wrap
    if wrap:
        assert out["data"] is data
    else:
        assert str(out["error_message"]).startswith("structuredContent does not match the tool's outputSchema: ")


@settings(max_examples=100, deadline=None)
@given(JSON, st.text(min_size=1, max_size=8))
def test_property_an_unreadable_value_anywhere_is_refused(value: Any, key: str) -> None:
    validate = create_mcp_validator().get_validator(WEATHER_OUTPUT)
    data = {"temperature": 1, "observedAt": "2026-05-01T12:00:00Z", "extra": {"value": value, key: Exploding()}}
    out = validate(data)
    assert out["valid"] is False
    assert "VALUE_NOT_JSON at /extra/" in str(out["error_message"])


def test_the_neutral_validator_and_validators_of_one_schema_agree() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    for validate in [json_schema_validator.get_validator(schema), json_schema_validator.get_validator(json.loads(json.dumps(schema)))]:
        assert validate({"n": 1}) == {"valid": True, "data": {"n": 1}, "error_message": None}
        message = str(validate({"n": 1.5})["error_message"])
        assert message.startswith("the value does not match the JSON Schema: /n: ") and message.endswith("(type)")
    # A valid schema the core cannot check refuses every value, with the reason (the same words
    # as JS); an invalid one raises.
    unchecked = json_schema_validator.get_validator({"type": "object", "properties": {"a": {"pattern": "(?=a)"}}})
    assert unchecked({"a": "a"}) == {
        "valid": False,
        "data": None,
        "error_message": "the value cannot be checked against the JSON Schema: TOOL_SCHEMA_UNSUPPORTED at /properties/a/pattern: the JSON Schema: pattern \"(?=a)\" uses look-around (?=, ?!, ?<=, ?<!), which the linear-time regex engine does not run",
    }
    with pytest.raises(ac.ContractError) as raised:
        json_schema_validator.get_validator({"type": "object", "properties": {"a": {"type": 5}}})
    assert (raised.value.code, raised.value.path) == ("TOOL_SCHEMA_INVALID", "/properties/a/type")


def test_importing_the_module_loads_no_core() -> None:
    # `json_schema_validator` is made at import; its words are asked on first use, so importing
    # `agent_contract.mcp` compiles and instantiates nothing (the package's own import does not).
    import subprocess
    import sys

    code = "import agent_contract.mcp, agent_contract._runtime as r; print(r._compiled is None, r._described is None)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
    message = ac.mcp.json_schema_validator.get_validator({"type": "object", "required": ["a"]})({})["error_message"]
    assert message is not None and message.startswith("the value does not match the JSON Schema: ")


def test_schemas_kept_compiled_are_bounded_by_the_core_and_the_oldest_go_first() -> None:
    from agent_contract import _runtime
    from agent_contract import mcp as module

    kept = _runtime.described()["mcp"]["compiledSchemasKept"]
    assert kept == 256
    first = {"type": "object", "title": "schema 0"}
    json_schema_validator.get_validator(first)
    for i in range(1, kept + 10):  # each a new text: a peer sending ever new schemas
        json_schema_validator.get_validator({"type": "object", "title": f"schema {i}"})
    assert len(module._compiled) == kept
    assert json.dumps(first, separators=(",", ":")) not in module._compiled
    # Used again, a schema is kept as the most recent.
    recent = {"type": "object", "title": "schema 20"}
    json_schema_validator.get_validator(recent)
    assert list(module._compiled)[-1] == json.dumps(recent, separators=(",", ":"))


def test_the_tool_options_are_the_cores() -> None:
    from agent_contract import _runtime

    assert _runtime.described()["mcp"]["toolOptions"] == {"names": "mcp", "formats": "assert"}
    # An MCP name the core's own names refuse, and `format` asserted.
    registry = from_mcp_tools({"tools": [{"name": "files.read", "inputSchema": {"type": "object"}}]})
    assert [tool["name"] for tool in registry["tools"]] == ["files.read"]
    with pytest.raises(ac.ContractError) as raised:
        ac.create_registry({"tools": [{"name": "files.read", "description": "d", "permission": "read", "inputSchema": {"type": "object"}}]})
    assert (raised.value.code, raised.value.path) == ("TOOL_NAME_INVALID", "/tools/0/name")
    validate = json_schema_validator.get_validator({"type": "object", "properties": {"at": {"format": "date"}}})
    assert validate({"at": "2026-12-07"})["valid"] and not validate({"at": "not a date"})["valid"]
