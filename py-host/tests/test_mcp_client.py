"""The MCP Python SDK (`mcp`, pinned in requirements-dev.txt) takes our MCP projections as
`mcp.types.Tool`, in strict mode, for every registry of the projection fixtures."""

from __future__ import annotations

import json
from typing import Any

import mcp.types
import pydantic
import pytest

import agent_contract as ac
from conftest import FIXTURES


def _registries() -> list[Any]:
    cases = json.loads((FIXTURES / "projection.json").read_text())["cases"]
    return [c["args"][0] for c in cases if c["op"].startswith("to") and c["op"].endswith("Tools") and c["expect"]["ok"]]


def test_mcp_types_tool_validates_every_projection() -> None:
    registries = _registries()
    assert len(registries) >= 5
    for registry in registries:
        for tool in ac.to_mcp_tools(registry):
            parsed = mcp.types.Tool.model_validate(tool, strict=True)
            assert parsed.model_dump(by_alias=True, exclude_none=True) == tool
            assert tool["inputSchema"]["type"] == "object"
    result = mcp.types.ListToolsResult.model_validate({"tools": ac.to_mcp_tools(registries[0])}, strict=True)
    assert [t.name for t in result.tools] == [t["name"] for t in registries[0]["tools"]]


def test_the_check_can_fail() -> None:
    with pytest.raises(pydantic.ValidationError):
        mcp.types.Tool.model_validate({"name": "x"}, strict=True)
    with pytest.raises(pydantic.ValidationError):
        mcp.types.Tool.model_validate(
            {"name": "x", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}, strict=True
        )
