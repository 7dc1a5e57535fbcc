# pyright: strict
"""A strict type-checking target (pyright --strict, mypy --strict; tests/test_typing.py): how a
caller narrows the package's results. Not run, only checked."""

from __future__ import annotations

import agent_contract as ac


def handle(value: object) -> str:
    out = ac.safe_parse_agent_action(value)
    # Narrowing on `ok`: mypy narrows every form; pyright narrows `is False` / `is True` and
    # `== False` / `== True` (not the truthiness `if not out["ok"]`, a pyright limitation for
    # TypedDict keys), so that is the documented form.
    if out["ok"] is False:
        error: ac.ContractError = out["error"]
        return f"{error.code} at {error.path}"
    action: ac.AgentAction = out["value"]
    if action["type"] == "tool_call":
        return action["callId"]
    return action["type"]


def decide(text: str) -> list[str]:
    out = ac.safe_parse_decision_json(text)
    if out["ok"] is True:
        decision = out["value"]
        if decision["kind"] == "tool":
            return [call["name"] for call in decision["calls"]]
        return [decision["answer"]]
    return [out["error"].code]


def projections(registry: ac.Registry) -> int:
    mcp = ac.to_mcp_tools(registry)
    openai = ac.to_openai_tools(registry)
    anthropic = ac.to_anthropic_tools(registry)
    return len(mcp) + len(openai) + len(anthropic)


def messages(value: object, text: str) -> list[str]:
    out = ac.safe_parse_agent_message(value, {"strict": True, "dialect": "seed"})
    names: list[str] = []
    if out["ok"] is True:
        message = out["value"]
        if message["role"] == "assistant":
            for block in message["content"]:
                if block["type"] == "toolCall":
                    names.append(block["name"])
        elif message["role"] == "toolResult":
            names.append(message["toolName"])
    report: ac.SessionReport = ac.check_session(text, {"maxIssues": 10})
    names.extend(f"{p['line']}: {p['code']}" for p in report["problems"])
    session = ac.read_session(text.encode(), {"dialect": "pi"})
    context: ac.SessionContext = session.context(session.leaves()[0])
    if context["compaction"] is not None:
        names.append(context["compaction"]["summary"])
    with ac.SessionChecker() as checker:
        names.extend(p["code"] for p in checker.push(text))
        names.append(str(checker.finish()["ok"]))
    tool = ac.from_seed_tool({"name": "read", "description": "r", "parameters": {"type": "object"}}, {"permissions": ["read"]})
    seed: ac.SeedToolDefinition = ac.to_seed_tool(tool)
    names.append(seed["name"])
    return names


# ACP prompt admission and lifecycle.
caps = ac.advertise_prompt_capabilities({"attachmentStore": True, "inputModalities": ["image"]})
admitted = ac.safe_admit_prompt({"sessionId": "s", "prompt": []}, caps, {"maxImages": 4, "mimeTypes": ["image/png"]})
if admitted["ok"] is False:
    failure_code: str = admitted["error"].code
else:
    for picture in admitted["value"]["images"]:
        raw: bytes = picture["bytes"]
        digest: str = picture["sha256"]
canonical: bool = ac.is_canonical_base64("AQ==")
sniffed: str | None = ac.sniff_media_type(b"\x89PNG\r\n\x1a\n")
with ac.create_prompt_lifecycle() as lifecycle:
    lifecycle.admitted()
    lifecycle.enqueue()
    must_cancel: bool = lifecycle.cancel()
    lifecycle.agent_idle()
    lifecycle.output_delivered()
    stop: ac.StopReason = lifecycle.settle("end_turn")


# Compiled tools: a Tool reads as a mapping, validates, closes.
compiled: ac.Tool = ac.define_tool({"name": "get_weather", "description": "d", "inputSchema": {}, "permissions": ["read"]})
tool_name: str = compiled["name"]
batch = ac.validate_tool_inputs(compiled, [{"city": "Paris"}, {}])
for item in batch:
    if item["ok"] is False:
        handle_code: str = item["error"].code
with ac.define_tool_json('{"name": "a", "description": "d", "inputSchema": {}, "permissions": ["read"]}') as scoped:
    scoped_input = ac.validate_tool_input(scoped, {})
compiled.close()


def mcp_call(listing: object, params: object) -> list[str]:
    from agent_contract.mcp import check_mcp_tool_call, create_mcp_validator, from_mcp_tools

    registry: ac.Registry = from_mcp_tools(listing)
    call = check_mcp_tool_call(registry, params)
    verdict = create_mcp_validator("server").get_validator({"type": "object"})({"a": 1})
    message: str | None = verdict["error_message"]
    return [call["name"], *call["permissions"], str(verdict["valid"]), message or ""]
