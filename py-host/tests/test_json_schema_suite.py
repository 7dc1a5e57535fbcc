"""The official JSON Schema Test Suite (draft 2020-12) through the component in Python, with
remotes/ served as http://localhost:1234/... from the files (no network): each group's schema is a
tool's, defined and used through the public API (suite_check.py: define_tool_json with the remotes
as `resources`, validate_tool_input_json). Required tests must all pass, and so must optional/format
with formats: "assert"; the rest of optional/ is reported. Skips with a message when ../shared is
absent."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from suite_check import schema_suite_check

ROOT = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "json-schema-test-suite"
# The required draft 2020-12 tests when ../shared is present: a lower bound, the count when it
# was pinned (the same in every host: tests/json_schema_suite.rs).
REQUIRED_AT_LEAST = 1299
REF_REMOTE_AT_LEAST = 31
# optional/format with formats: "assert": every test passes, the same count in every host.
FORMAT_ASSERTED = 764


# A tool carries at most 64 documents: the remotes of the other drafts' directories (draft4 ...
# draft2019-09, v1) go only with a schema that names that directory.
_OTHER_DRAFT = re.compile(r"^http://localhost:1234/(draft(?!2020-12/)[^/]*|v1)/")


def _remotes_for(schema_text: str, remotes: dict[str, Any]) -> dict[str, Any]:
    if "localhost:1234" not in schema_text:
        return {}
    kept = {}
    for url, doc in remotes.items():
        other = _OTHER_DRAFT.match(url)
        if other is None or f"localhost:1234/{other.group(1)}/" in schema_text:
            kept[url] = doc
    return kept


def _run(paths: list[Path], remotes: dict[str, Any], tool_options: dict[str, Any] | None = None) -> tuple[int, list[str]]:
    passed, failures = 0, []
    for path in paths:
        for group in json.loads(path.read_text(encoding="utf-8")):
            request = json.dumps(
                {
                    "schema": group["schema"],
                    "instances": [t["data"] for t in group["tests"]],
                    "resources": _remotes_for(json.dumps(group["schema"]), remotes),
                }
            )
            reply = schema_suite_check(request, tool_options)
            verdicts = reply["value"] if reply["ok"] else [reply["error"]["code"]] * len(group["tests"])
            for t, got in zip(group["tests"], verdicts):
                if got is t["valid"]:
                    passed += 1
                else:
                    failures.append(f"{path.relative_to(ROOT)} | {group['description']} | {t['description']}: got {got}")
    return passed, failures


def test_json_schema_test_suite_draft2020_12(capsys: pytest.CaptureFixture[str]) -> None:
    if not ROOT.is_dir():
        pytest.skip(f"SKIPPED: JSON Schema Test Suite not found at {ROOT} (../shared is absent outside this workplace)")
    remotes = {
        f"http://localhost:1234/{p.relative_to(ROOT / 'remotes').as_posix()}": json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "remotes").rglob("*.json"))
    }
    directory = ROOT / "tests" / "draft2020-12"
    optional = sorted((directory / "optional").rglob("*.json"))
    passed, failures = _run(sorted(directory.glob("*.json")), remotes)
    op, of = _run([p for p in optional if "format" not in p.parts], remotes)
    fp, ff = _run([p for p in optional if "format" in p.parts], remotes, {"formats": "assert"})
    with capsys.disabled():
        for failure in failures + ff:
            print(f"FAIL {failure}")
        print(f"\njson-schema-test-suite draft2020-12 (python): required {passed} passed, {len(failures)} failed")
        print(f"json-schema-test-suite draft2020-12 (python): optional {op} passed, {len(of)} failed (not asserted)")
        print(f"json-schema-suite optional/format (python): {fp} passed, {len(ff)} failed")
    # A lower bound (tests/json_schema_suite.rs, REQUIRED_AT_LEAST): nothing run also fails.
    assert passed >= REQUIRED_AT_LEAST, f"only {passed} required tests ran, expected at least {REQUIRED_AT_LEAST}"
    assert not failures
    # format asserted (define_tool_json with formats: "assert"): pinned, the same in every host.
    assert fp == FORMAT_ASSERTED
    assert not ff


def test_ref_remote_through_the_public_api(capsys: pytest.CaptureFixture[str]) -> None:
    """refRemote through define_tool(resources) and validate_tool_input; the
    Anthropic projection (documents bundled) gives the same verdicts for objects when defined
    again without resources, or is refused with TOOL_RESOURCE_UNBUNDLABLE."""
    if not ROOT.is_dir():
        pytest.skip(f"SKIPPED: JSON Schema Test Suite not found at {ROOT} (../shared is absent outside this workplace)")
    import agent_contract as ac

    resources: dict[str, Any] = {}
    for p in sorted((ROOT / "remotes").rglob("*.json")):
        rel = p.relative_to(ROOT / "remotes").as_posix()
        if (rel.startswith("draft") or rel.startswith("v1/")) and not rel.startswith("draft2020-12/"):
            continue
        resources[f"http://localhost:1234/{rel}"] = json.loads(p.read_text(encoding="utf-8"))

    def tool(schema: Any, res: dict[str, Any] | None) -> dict[str, Any]:
        t: dict[str, Any] = {"name": "suite_case", "description": "A conformance case.", "permission": "read", "inputSchema": schema}
        if res is not None:
            t["resources"] = res
        return t

    def verdict(definition: dict[str, Any], data: Any) -> bool | str:
        r = ac.safe_validate_tool_input(ac.define_tool(definition), data)
        if r["ok"]:
            return True
        error = r["error"]
        return False if error.code == "SCHEMA_MISMATCH" else f"{error.code} {error.path}"

    passed, bundled, refused, failures = 0, 0, 0, []
    for group in json.loads((ROOT / "tests" / "draft2020-12" / "refRemote.json").read_text(encoding="utf-8")):
        definition = tool(group["schema"], resources)
        for c in group["tests"]:
            got = verdict(definition, c["data"])
            if got is c["valid"]:
                passed += 1
            else:
                failures.append(f"{group['description']} | {c['description']}: want {c['valid']}, got {got}")
        try:
            projected = ac.to_anthropic_tools(ac.create_registry([definition]))
        except ac.ContractError as e:
            assert e.code == "TOOL_RESOURCE_UNBUNDLABLE", e
            refused += 1
            continue
        bundled += 1
        for c in group["tests"]:
            want = c["valid"] and isinstance(c["data"], dict)
            got = verdict(tool(projected[0]["input_schema"], None), c["data"])
            if got is not want:
                failures.append(f"bundled {group['description']} | {c['description']}: got {got}")
    with capsys.disabled():
        for f in failures:
            print(f"FAIL {f}")
        print(f"\nrefRemote through the public API (python): {passed} passed, {len(failures)} failed; {bundled} bundled, {refused} refused")
    assert passed >= REF_REMOTE_AT_LEAST and bundled > 0, f"only {passed} refRemote checks ran, expected at least {REF_REMOTE_AT_LEAST}"
    assert failures == []
