"""JSON Schema conformance through the package's public API, for the JSON Schema Test Suite and the
protocol schema test: `schema_suite_check(JSON text of {schema, instances, resources})` defines a
tool whose inputSchema is the schema (`define_tool_json`, with the documents as the tool's
`resources`) and validates each instance, as JSON text, with `validate_tool_input_json`: the reply
`{"ok": True, "value": [one bool per instance]}` (SCHEMA_MISMATCH is False). A tool's inputSchema is
an object schema whose root type is "object" or absent; any other schema (a boolean, a root type
such as "integer") is served as a resource and the inputSchema is a `$ref` to it, as a tool reaches
a shared document. Any other error is the reply `{"ok": False, "error": {code, path, message}}`
for the whole group. Documents and instances are read under the limits' ceilings, so no case is
judged by a size limit rather than by its schema. The same as js-tests/suite-core.mjs."""

from __future__ import annotations

import json
from typing import Any

import agent_contract as ac

SCHEMA_URI = "https://conformance.invalid/schema.json"
_MIB64 = 64 << 20
CEILINGS: Any = {"maxBytes": _MIB64, "maxDepth": 512, "maxStringBytes": _MIB64, "maxArrayLength": _MIB64, "maxObjectMembers": _MIB64}


def _error(e: ac.ContractError) -> dict[str, Any]:
    return {"ok": False, "error": {"code": e.code, "path": e.path, "message": e.message}}


def schema_suite_check(request: str, tool_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """`tool_options`: define_tool_json's options beyond the ceilings ({"formats": "assert"} for
    the optional format tests)."""
    doc = json.loads(request)
    schema, instances, resources = doc["schema"], doc["instances"], doc.get("resources", {})
    direct = isinstance(schema, dict) and schema.get("type", "object") == "object"
    definition = {
        "name": "conformance_case",
        "description": "One group of a JSON Schema conformance suite.",
        "permission": "read",
        "inputSchema": schema if direct else {"$ref": SCHEMA_URI},
        "resources": resources if direct else {**resources, SCHEMA_URI: schema},
    }
    try:
        tool = ac.define_tool_json(json.dumps(definition), {**CEILINGS, **(tool_options or {})})
    except ac.ContractError as e:
        return _error(e)
    with tool:
        verdicts = []
        for instance in instances:
            outcome = ac.safe_validate_tool_input_json(tool, json.dumps(instance), CEILINGS)
            if outcome["ok"]:
                verdicts.append(True)
            elif outcome["error"].code == "SCHEMA_MISMATCH":
                verdicts.append(False)
            else:
                return _error(outcome["error"])
    return {"ok": True, "value": verdicts}
