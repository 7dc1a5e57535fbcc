"""Runs every case in fixtures/ through the Python host (host 4 of 4), compared exactly as
tests/fixtures.rs compares them. See fixtures/README.md."""

from __future__ import annotations

import datetime
import json
import math
import types
from typing import Any

import pytest

import agent_contract as ac
from agent_contract import _tools
from conftest import FIXTURES, SHARED_ABSENT


def load_cases() -> list[dict[str, Any]]:
    cases, ids = [], set()
    for file in sorted(FIXTURES.glob("*.json")):
        for case in json.loads(file.read_text(encoding="utf-8"))["cases"]:
            assert case["id"] not in ids, f"duplicate case id {case['id']}"
            ids.add(case["id"])
            cases.append(case)
    return cases


CASES = load_cases()


class Point:
    pass


class ToolCrashError(Exception):
    pass


_OMIT = object()


def host_value(spec: Any) -> Any:
    if isinstance(spec, dict) and "inherited" in spec:
        return _OMIT  # a dict inherits nothing: the field is simply absent
    return {
        "undefined": lambda: ac.UNDEFINED,
        "NaN": lambda: float("nan"),
        "Infinity": lambda: float("inf"),
        "-Infinity": lambda: float("-inf"),
        "function": lambda: (lambda: None),
        "Map": lambda: types.MappingProxyType({}),
        "Set": lambda: set(),
        "Date": lambda: datetime.datetime(1970, 1, 1),
        "classInstance": lambda: Point(),
        "loneSurrogate": lambda: "\ud800",
        "exception": lambda: ToolCrashError("failed at /home/user/secret.txt"),
    }[spec]()


def apply_host(root: Any, host: dict[str, Any] | None) -> Any:
    for pointer, spec in (host or {}).items():
        value = host_value(spec)
        if value is _OMIT:
            continue
        segments = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]
        if not segments:
            root = value
            continue
        node = root
        for segment in segments[:-1]:
            node = node[int(segment)] if isinstance(node, list) else node[segment]
        last = segments[-1]
        if isinstance(node, list):
            i = int(last)
            if i == len(node):
                node.append(value)
            else:
                node[i] = value
        else:
            node[last] = value
    return root


def text_arg(case: dict[str, Any]) -> str | bytes:
    if "text" in case:
        return case["text"]
    if "textHex" in case:
        # WTF-8: a host string that may hold lone surrogates.
        return bytes.fromhex(case["textHex"]).decode("utf-8", "surrogatepass")
    return bytes.fromhex(case["bytesHex"])


def outcome(call: Any) -> dict[str, Any]:
    try:
        return {"ok": True, "value": call()}
    except ac.ContractError as error:
        return {"ok": False, "error": error}


# ACP prompt admission and lifecycle:


def plan_as_hex(plan: Any) -> Any:
    """An admission plan as the fixtures write it: each payload's `bytes` as `bytesHex`."""
    for key in ("images", "audio", "resources"):
        for entry in plan[key]:
            if "sha256" in entry:
                assert type(entry["bytes"]) is bytes, f"{key}: bytes is {type(entry['bytes'])}"
                entry["bytesHex"] = entry.pop("bytes").hex()
    return plan


def admit_prompt_hex(*args: Any) -> Any:
    return plan_as_hex(ac.admit_prompt(*args))


def safe_admit_prompt_hex(*args: Any) -> Any:
    out = ac.safe_admit_prompt(*args)
    if out["ok"]:
        plan_as_hex(out["value"])
    return out


def compiled_tool(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Compiled tools: the tool defined, then each step on the very object."""
    tool = ac.define_tool(case["tool"], case.get("options"))
    copy = json.loads(json.dumps(tool))
    out: list[dict[str, Any]] = []
    for step in case["steps"]:
        o = step.get("options")
        if "validate" in step:
            out.append(ac.safe_validate_tool_input(tool, step["validate"], o))
        elif "validateJson" in step:
            out.append(ac.safe_validate_tool_input_json(tool, step["validateJson"], o))
        elif "validateMany" in step:
            out.append(outcome(lambda: ac.validate_tool_inputs(tool, step["validateMany"], o)))
        elif "free" in step:
            tool.close()
            out.append({"ok": True, "value": None})
        else:
            out.append(ac.safe_validate_tool_input(copy, step["validateCopy"], o))
    return out


SNAKE_CALLS = {"agentIdle": "agent_idle", "outputDelivered": "output_delivered"}


def prompt_lifecycle(calls: list[Any]) -> list[dict[str, Any]]:
    outcomes = []
    with ac.create_prompt_lifecycle() as lifecycle:
        for call in calls:
            name, args = (call, ()) if isinstance(call, str) else (call["call"], (call["reason"],))
            method = getattr(lifecycle, SNAKE_CALLS.get(name, name))
            outcomes.append(outcome(lambda: method(*args)))
    return outcomes


ARGS_OPS = {
    "admitPrompt": admit_prompt_hex,
    "advertisePromptCapabilities": ac.advertise_prompt_capabilities,
    "createRegistry": ac.create_registry,
    "catalog": ac.catalog,
    "definePolicy": ac.define_policy,
    "checkToolCall": ac.check_tool_call,
    "toOpenAITools": ac.to_openai_tools,
    "toOpenAIResponsesTools": ac.to_openai_responses_tools,
    "toAnthropicTools": ac.to_anthropic_tools,
    "toMcpTools": ac.to_mcp_tools,
    "normalizeToolResult": ac.normalize_tool_result,
    "strictSchemaIssues": ac.strict_schema_issues,
    "toGeminiTools": ac.to_gemini_tools,
    "geminiSchemaIssues": ac.gemini_schema_issues,
    "jsonSchemaForTarget": ac.json_schema_for_target,
    "standardJsonSchema": ac.standard_json_schema,
    "compareContracts": ac.compare_contracts,
    "diffCatalogs": ac.diff_catalogs,
    "mcpToolDefinitions": ac.mcp_tool_definitions,
    "checkMcpToolResult": ac.check_mcp_tool_result,
    "fromSeedTool": ac.from_seed_tool,
    "toSeedTool": ac.to_seed_tool,
    "methodNotFound": ac.method_not_found,
    "internalError": ac.internal_error,
    "invalidParams": ac.invalid_params,
    "protocolSchemas": ac.protocol_schemas,
}
SAFE_ARGS_OPS = {
    "admitPrompt": safe_admit_prompt_hex,
    "createRegistry": ac.safe_create_registry,
    "definePolicy": ac.safe_define_policy,
    "checkToolCall": ac.safe_check_tool_call,
}


def args_of(case: dict[str, Any]) -> list[Any]:
    args = apply_host(json.loads(json.dumps(case["args"])), case.get("host"))
    if "options" in case:
        args.append(case["options"])
    return list(args)


CONFORMANCE = FIXTURES.parent.parent / "shared" / "conformance"


def referenced(case: dict[str, Any]) -> Any:
    """A case's `reference`: `{file, id}` (a case of a JSON file: its `send` text) or `{file,
    line}` (a JSON Lines file's 1-based line: its `value`)."""
    ref = case["reference"]
    text = (CONFORMANCE / ref["file"]).read_text(encoding="utf-8")
    if "id" in ref:
        return next(c for c in json.loads(text)["cases"] if c["id"] == ref["id"])["send"]
    return json.loads(text.split("\n")[ref["line"] - 1])["value"]


def chunks_of(case: dict[str, Any]) -> list[Any]:
    """The chunks of an NDJSON case: `chunks` (str), `chunksHex` (bytes) or `text` (one)."""
    if "chunks" in case:
        return list(case["chunks"])
    if "chunksHex" in case:
        return [bytes.fromhex(h) for h in case["chunksHex"]]
    return [text_arg(case)]


def decode_ndjson(chunks: list[Any], options: Any) -> list[Any]:
    with ac.NdjsonDecoder(options) as decoder:
        frames = []
        for chunk in chunks:
            frames.extend(decoder.push(chunk))
        frames.extend(decoder.end())
        return frames


def rpc_session(steps: list[dict[str, Any]], options: Any) -> list[Any]:
    with ac.RpcSession(options) as session:
        return [session.incoming(s["message"]) if s["dir"] == "in" else session.outgoing(s["message"]) for s in steps]


def run_rpc(case: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON-RPC operations; None for the others."""
    op, options = case["op"], case.get("options")
    if op in ("classifyJsonRpc", "classifyJsonRpcJson"):
        if "reference" in case:
            arg = referenced(case)
        elif "input" in case:
            arg = apply_host(case["input"], case.get("host"))
        else:
            arg = text_arg(case)
        fn = ac.classify_json_rpc if op == "classifyJsonRpc" else ac.classify_json_rpc_json
        return outcome(lambda: fn(arg, options))
    if op == "decodeNdjson":
        return outcome(lambda: decode_ndjson(chunks_of(case), options))
    if op == "checkStdoutPurity":
        arg = chunks_of(case) if ("chunks" in case or "chunksHex" in case) else text_arg(case)
        return outcome(lambda: ac.check_stdout_purity(arg, options))
    if op == "rpcSession":
        return outcome(lambda: rpc_session(case["steps"], options))
    return None


def run(case: dict[str, Any]) -> dict[str, Any]:
    op = case["op"]
    rpc = run_rpc(case)
    if rpc is not None:
        return rpc
    if "args" in case:
        return outcome(lambda: ARGS_OPS[op](*args_of(case)))
    options = case.get("options")
    value = apply_host(case["input"], case.get("host")) if "input" in case else None
    if op == "parseAgentAction":
        return outcome(lambda: ac.parse_agent_action(value, options))
    if op == "defineTool":
        return outcome(lambda: ac.define_tool(value, options))
    if op == "previewAction":
        return {"ok": True, "value": ac.preview_action(value, options)}
    if op == "parseAgentActionJson":
        return outcome(lambda: ac.parse_agent_action_json(text_arg(case), options))
    if op == "defineToolJson":
        return outcome(lambda: ac.define_tool_json(text_arg(case), options))
    if op == "parseAgentActions":
        return outcome(lambda: ac.parse_agent_actions(value, options))
    if op == "parseAgentActionsJsonl":
        return outcome(lambda: ac.parse_agent_actions_jsonl(text_arg(case), options))
    if op == "parseJson":
        return outcome(lambda: ac.parse_json(text_arg(case), options))
    if op == "parseDecision":
        return outcome(lambda: ac.parse_decision(value, options))
    if op == "parseDecisionJson":
        return outcome(lambda: ac.parse_decision_json(text_arg(case), options))
    if op == "validateToolInput":
        return outcome(lambda: ac.validate_tool_input(case["tool"], value, options))
    if op == "validateToolInputJson":
        return outcome(lambda: ac.validate_tool_input_json(case["tool"], text_arg(case), options))
    if op == "parseAgentMessage":
        return outcome(lambda: ac.parse_agent_message(value, options))
    if op == "parseAgentMessageJson":
        return outcome(lambda: ac.parse_agent_message_json(text_arg(case), options))
    if op == "parseToolResult":
        return outcome(lambda: ac.parse_tool_result(value, options))
    if op == "parseSessionEntry":
        return outcome(lambda: ac.parse_session_entry(value, options))
    # Agent events and the session response
    if op == "parseAgentEvent":
        return outcome(lambda: ac.parse_agent_event(value, options))
    if op == "checkEventSequence":
        return outcome(lambda: ac.check_event_sequence(value, options))
    if op == "checkSessionResponse":
        return outcome(lambda: ac.check_session_response(value, options))
    if op == "checkSession":
        return outcome(lambda: without_messages(ac.check_session(session_text(case), options)))
    if op == "readSession":
        got = outcome(lambda: plain_session(ac.read_session(session_text(case), options)))
        twin = ac.safe_read_session(session_text(case), options)
        assert twin["ok"] == got["ok"] and (not got["ok"] or same(plain_session(twin["value"]), got["value"]))
        return got
    if op == "querySession":
        return outcome(lambda: ac.query_session(session_text(case), case["query"], options))
    if op == "assembleStream":
        return assemble_stream(value, options)
    # Dataset rows: a row as a value (`input`) or as its JSON text (`text`, `bytesHex`).
    if op == "checkChatRow":
        return outcome(lambda: ac.check_chat_row(value if "input" in case else text_arg(case), options))
    if op == "checkChatRows":
        return outcome(lambda: ac.check_chat_rows(value, options))
    if op == "checkChatRowsJsonl":
        return outcome(lambda: ac.check_chat_rows_jsonl(text_arg(case), options))
    if op == "isCanonicalBase64":
        return outcome(lambda: ac.is_canonical_base64(case["text"] if "text" in case else value))
    if op == "sniffMediaType":
        return outcome(lambda: ac.sniff_media_type(text_arg(case)))
    if op == "promptLifecycle":
        return {"ok": True, "value": prompt_lifecycle(value)}
    if op == "compiledTool":
        return outcome(lambda: compiled_tool(case))
    if op == "assembleProviderStream":
        return outcome(lambda: ac.assemble_provider_stream(case["provider"], provider_input(case, value), options))
    raise AssertionError(f"unknown op {op}")


# Recorded pi-mono sessions: external data, absent in a clone elsewhere.
SESSIONS = FIXTURES.parent.parent / "shared" / "conformance" / "pi-mono-sessions"


def session_text(case: dict[str, Any]) -> str | bytes:
    if "sessionFile" in case:
        return (SESSIONS / case["sessionFile"]).read_bytes()
    return text_arg(case)


def without_messages(report: Any) -> Any:
    """checkSession's problems as the fixtures write them: by line, code and path."""
    for problem in report["problems"]:
        assert isinstance(problem["message"], str) and problem["message"], f"problem without a message: {problem!r}"
        del problem["message"]
    return report


def plain_session(session: Any) -> dict[str, Any]:
    return {"header": session.header, "entries": session.entries, "roots": session.roots, "leaves": session.leaves()}


# Recorded provider streams: external data, absent in a clone elsewhere.
RECORDINGS = FIXTURES.parent.parent / "shared" / "conformance" / "provider-streams"


def payload(line: str) -> Any:
    """A recording's line parsed as JSON, or kept as text when it is not JSON (a hand-made
    recording's typo): the adapter then parses it and reports it in the transport layer."""
    try:
        return json.loads(line)
    except ValueError:
        return line


def provider_input(case: dict[str, Any], value: Any) -> Any:
    """A recording (raw SSE bytes, or a `.chunks.txt` file's non-blank lines parsed as JSON or
    kept as text, `lines: [from, to)` of them when given), SSE text, or `input`."""
    if "recording" in case:
        data = (RECORDINGS / case["recording"]).read_bytes()
        if not case["recording"].endswith(".chunks.txt"):
            return data
        lines = [line for line in data.decode("utf-8").split("\n") if line.strip()]
        start, end = case.get("lines", [0, len(lines)])
        return [payload(line) for line in lines[start:end]]
    if any(k in case for k in ("text", "textHex", "bytesHex")):
        return text_arg(case)
    return value


def assemble_stream(events: list[Any], options: Any) -> dict[str, Any]:
    """One assembler, every event pushed, then finish(); an error carries `at` (the index of the
    event whose push failed, or the number of events when finish() failed)."""
    try:
        assembler = ac.Assembler(options)
    except ac.ContractError as error:
        return {"ok": False, "error": error, "at": 0}
    with assembler:
        for i, event in enumerate(events):
            try:
                assembler.push(event)
            except ac.ContractError as error:
                return {"ok": False, "error": error, "at": i}
        first = outcome(assembler.finish)
        again = outcome(assembler.finish)  # replay: the same outcome
        assert first["ok"] == again["ok"]
        if first["ok"]:
            assert same(first["value"], again["value"])
        else:
            assert first["error"].code == again["error"].code
        return {**first, "at": len(events)}


# A defined tool is frozen data: compared as the dict and lists it is equal to.
FROZEN: dict[type, type] = {ac.Tool: dict, _tools.CompiledRegistry: dict, _tools.FrozenDict: dict, _tools.FrozenList: list}


def same(a: Any, b: Any) -> bool:
    """Deep equality: numbers by value and type (`1` is not `1.0`; a bool is not a number) and a
    float's sign (`-0.0` is not `0.0`; an int cannot be -0), dicts by the same key set in any
    order, UNDEFINED by identity."""
    if a is ac.UNDEFINED or b is ac.UNDEFINED:
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if type(a) is not type(b):
            return False
        if isinstance(a, float) and math.isnan(a):
            return math.isnan(b)
        return a == b and (not isinstance(a, float) or math.copysign(1.0, a) == math.copysign(1.0, b))
    if FROZEN.get(type(a), type(a)) is not FROZEN.get(type(b), type(b)):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def is_outcome_list(want: Any) -> bool:
    return isinstance(want, list) and all(
        isinstance(w, dict) and "ok" in w and ("value" in w or "error" in w) for w in want
    )


def check(got: dict[str, Any], expect: dict[str, Any], host: dict[str, Any] | None) -> None:
    ok = expect["ok"]
    assert got["ok"] == ok, f"expected ok={ok}, got {got!r}"
    if ok:
        value = got["value"]
        if is_outcome_list(expect["value"]) and isinstance(value, list):
            assert len(value) == len(expect["value"]), f"expected {len(expect['value'])} items, got {value!r}"
            for i, (item, want) in enumerate(zip(value, expect["value"])):
                if "error" in want:
                    want = {**want["error"], "ok": False}
                try:
                    check(item, want, want.get("host"))
                except AssertionError as e:
                    raise AssertionError(f"item {i}: {e}") from None
            return
        want = apply_host(json.loads(json.dumps(expect["value"])), host)
        assert same(value, want), f"expected value {want!r}, got {value!r}"
        return
    error = got["error"]
    assert isinstance(error, ac.ContractError), f"expected a ContractError, got {error!r}"
    for key in ("layer", "code", "path"):
        assert getattr(error, key) == expect[key], f"expected {key} {expect[key]!r}, got {error!r}"
    if "message" in expect:  # exactly, where the case gives one
        assert error.message == expect["message"], f"expected message {expect['message']!r}, got {error.message!r}"
    if "issues" in expect:
        got = [f"{i['path']} {i['keyword']}" for i in (error.issues or [])]
        want = [f"{i['path']} {i['keyword']}" for i in expect["issues"]]
        assert got == want, f"expected issues {want!r}, got {got!r}"
        for i, w in enumerate(expect["issues"]):
            if "messageIncludes" in w:
                assert w["messageIncludes"] in error.issues[i]["message"], f"issue {i}: {error.issues[i]!r}"
    if "truncated" in expect:  # False when the list was not cut
        assert error.truncated is expect["truncated"], f"expected truncated {expect['truncated']}, got {error!r}"
    if "availableTools" in expect:
        assert error.available_tools == expect["availableTools"], f"availableTools {error.available_tools!r}"
    if "proposal" in expect:
        assert error.proposal == expect["proposal"], f"proposal {error.proposal!r}"
    if "at" in expect:
        assert got.get("at") == expect["at"], f"expected the error at event {expect['at']}, got {got.get('at')} ({error!r})"
    if "position" in expect:
        assert error.position is not None and same(error.position, expect["position"]), (
            f"expected position {expect['position']!r}, got {error.position!r}"
        )


def check_safe_twin(case: dict[str, Any], got: dict[str, Any]) -> None:
    op = case["op"]
    if "args" in case:
        if op not in SAFE_ARGS_OPS:
            return
        twin = SAFE_ARGS_OPS[op](*args_of(case))
    elif op == "validateToolInput":
        twin = ac.safe_validate_tool_input(case["tool"], apply_host(case["input"], case.get("host")), case.get("options"))
    elif op == "validateToolInputJson":
        twin = ac.safe_validate_tool_input_json(case["tool"], text_arg(case), case.get("options"))
    elif op == "assembleProviderStream":
        value = apply_host(case["input"], case.get("host")) if "input" in case else None
        twin = ac.safe_assemble_provider_stream(case["provider"], provider_input(case, value), case.get("options"))
    else:
        safe = {
            "parseAgentAction": ac.safe_parse_agent_action,
            "defineTool": ac.safe_define_tool,
            "parseDecision": ac.safe_parse_decision,
            "parseJson": ac.safe_parse_json,
            "parseDecisionJson": ac.safe_parse_decision_json,
            "parseAgentActionJson": ac.safe_parse_agent_action_json,
            "defineToolJson": ac.safe_define_tool_json,
            "parseAgentMessage": ac.safe_parse_agent_message,
            "parseAgentMessageJson": ac.safe_parse_agent_message_json,
            "parseToolResult": ac.safe_parse_tool_result,
            "parseSessionEntry": ac.safe_parse_session_entry,
            "parseAgentEvent": ac.safe_parse_agent_event,
            "checkEventSequence": ac.safe_check_event_sequence,
            "checkSessionResponse": ac.safe_check_session_response,
        }.get(op)
        if safe is None:
            return
        value = text_arg(case) if op.endswith("Json") else apply_host(case["input"], case.get("host"))
        twin = safe(value, case.get("options"))
    assert twin["ok"] == got["ok"], f"safe twin disagrees: {twin!r} vs {got!r}"
    if twin["ok"]:
        assert same(twin["value"], got["value"]), f"safe twin value {twin['value']!r} vs {got['value']!r}"
    else:
        a, b = twin["error"], got["error"]
        assert (a.layer, a.code, a.path, a.message, a.retryable, a.position, a.issues) == (
            b.layer, b.code, b.path, b.message, b.retryable, b.position, b.issues
        ), f"safe twin error {a!r} vs {b!r}"


def test_fixture_cases_found() -> None:
    assert CASES, f"no fixture cases found in {FIXTURES}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_fixture(case: dict[str, Any]) -> None:
    if "recording" in case and not RECORDINGS.is_dir():
        pytest.skip(f"{SHARED_ABSENT}: recorded provider streams, {RECORDINGS}")
    if "sessionFile" in case and not SESSIONS.is_dir():
        pytest.skip(f"{SHARED_ABSENT}: recorded pi-mono sessions, {SESSIONS}")
    if "reference" in case and not CONFORMANCE.is_dir():
        pytest.skip(f"{SHARED_ABSENT}: {CONFORMANCE}")
    got = run(case)
    check(got, case["expect"], case["expect"].get("host"))
    check_safe_twin(case, got)
    if case["op"] == "previewAction":
        assert "ok" in got["value"], "previewAction must return a summary"
