"""The protocol schemas (`protocol_schemas()`) against the parsers in Python: every
fixture input of the parsers a schema can judge (no host values, no options, text that is JSON)
is validated with its schema through define_tool_json / validate_tool_input_json (suite_check.py),
and the verdict must be the fixture's, except for the exact list in
tests/protocol_schema_differences.json. The same check as tests/protocol_schemas.rs and
js-tests/test/protocol-schemas.test.mjs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import agent_contract as ac
from suite_check import schema_suite_check

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_OF = {
    "parseAgentAction": "action",
    "parseAgentActionJson": "action",
    "parseDecision": "decision",
    "parseDecisionJson": "decision",
    "parseAgentMessage": "message",
    "parseAgentMessageJson": "message",
    "parseSessionEntry": "sessionEntry",
    "parseAgentEvent": "event",
}


def test_schemas_give_the_parsers_verdicts() -> None:
    schemas = ac.protocol_schemas()
    known = json.loads((ROOT / "tests/protocol_schema_differences.json").read_text(encoding="utf-8"))["differences"]
    groups: dict[str, list[tuple[str, Any, bool]]] = {}
    for path in sorted((ROOT / "fixtures").glob("*.json")):
        for c in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            name = SCHEMA_OF.get(c["op"])
            if name is None or "host" in c or "options" in c:
                continue
            value = c.get("input")
            if c["op"].endswith("Json"):
                if not isinstance(c.get("text"), str) or c["expect"].get("layer") == "parse":
                    continue
                try:
                    value = json.loads(c["text"])
                except ValueError:
                    continue
            groups.setdefault(name, []).append((c["id"], value, c["expect"]["ok"]))
    unexpected, differing = [], set()
    for name, cases in groups.items():
        assert len(cases) >= 20, f"{name}: only {len(cases)} cases"
        request = json.dumps({"schema": schemas[name], "instances": [v for _, v, _ in cases]})  # type: ignore[literal-required]
        reply = schema_suite_check(request)
        assert reply["ok"], reply
        for (case_id, _, ok), verdict in zip(cases, reply["value"]):
            if verdict is not ok:
                differing.add(case_id)
                if case_id not in known:
                    unexpected.append(f"{case_id} ({name}): parser {ok}, schema {verdict}")
            elif case_id in known:
                unexpected.append(f"{case_id} is listed as a difference, but schema and parser agree")
    assert set(known) <= differing, f"listed differences not checked: {set(known) - differing}"
    assert unexpected == []


def test_strict_forms_are_strict_ready() -> None:
    schemas = ac.protocol_schemas()
    assert ac.strict_schema_issues(schemas["strict"]["action"]) == []
    assert ac.strict_schema_issues(schemas["strict"]["decision"]) == []
    assert ac.protocol_schemas() == schemas
