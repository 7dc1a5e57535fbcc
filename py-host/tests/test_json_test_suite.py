"""JSONTestSuite (nst/JSONTestSuite, test_parsing/) through the component: parse_json on each
file's bytes, with the expectations of tests/json_test_suite.json (the table the Rust and Node
runners use too). Skips with a message when ../shared is absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agent_contract as ac
from conftest import SUMMARY

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT.parent / "shared" / "conformance" / "json-test-suite" / "test_parsing"
TABLE = ROOT / "tests" / "json_test_suite.json"


def test_json_test_suite() -> None:
    if not SUITE.is_dir():
        SUMMARY.append(f"SKIPPED: JSONTestSuite not found at {SUITE} (../shared is absent outside this workplace)")
        pytest.skip("../shared is absent")
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    counts = {"y_": 0, "n_": 0, "i_": 0}
    passed, failures = 0, []
    for path in sorted(SUITE.iterdir()):
        prefix = path.name[:2]
        if prefix not in counts:
            continue
        counts[prefix] += 1
        result = ac.safe_parse_json(path.read_bytes())
        got = "accept" if result["ok"] else result["error"].code
        if prefix == "y_":
            expected = table["rejectedY"].get(path.name, "accept")
        elif prefix == "n_":
            expected = "a rejection" if got == "accept" else got
        else:
            expected = table["i"].get(path.name, "(not in the table)")
        if got == expected:
            passed += 1
        else:
            failures.append(f"FAIL {path.name}: expected {expected}, got {got}")
    for f in failures:
        print(f)
    SUMMARY.append(f"JSONTestSuite (python): {counts['y_']} y_, {counts['n_']} n_, {counts['i_']} i_ files; "
                   f"{passed} passed, {len(failures)} failed")
    assert passed > 300, f"too few files ran: {passed}"
    assert not failures
