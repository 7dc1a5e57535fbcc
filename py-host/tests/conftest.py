"""Shared test set-up: where the fixtures are, and the parity summary line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(os.environ.get("AGENT_CONTRACT_FIXTURES") or Path(__file__).resolve().parents[2] / "fixtures")

# The reason of every skip that is allowed: a case whose conformance data (../shared, outside
# this repository) is absent. Such a case is counted as skipped, as every host counts it; any
# other skip of a fixture case counts as a failure.
SHARED_ABSENT = "conformance data absent"

# `AGENT_CONTRACT_HOST=component`: the calls go through wasmtime-py's component runtime
# (tests/component_host.py), a second component host for the same fixtures.
HOST = os.environ.get("AGENT_CONTRACT_HOST", "")
if HOST == "component":
    from agent_contract import _runtime

    from component_host import ComponentInstance

    _runtime._Instance = ComponentInstance  # type: ignore[misc]

_fixture_counts = {"passed": 0, "failed": 0, "skipped": 0}
GENERATED = {"values": 0}  # property tests count the values they feed in
SUMMARY: list[str] = []  # lines a test wants in the closing summary (e.g. JSONTestSuite counts)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "test_fixtures.py::test_fixture[" not in report.nodeid:
        return
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _fixture_counts["skipped" if SHARED_ABSENT in reason else "failed"] += 1
    elif report.when == "call" or (report.when == "setup" and not report.passed):
        _fixture_counts["passed" if report.passed else "failed"] += 1


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    for line in SUMMARY:
        terminalreporter.write_line(line)
    if GENERATED["values"]:
        terminalreporter.write_line(f"property tests (python): {GENERATED['values']} generated values")
    if sum(_fixture_counts.values()):
        passed, failed, skipped = _fixture_counts["passed"], _fixture_counts["failed"], _fixture_counts["skipped"]
        host = "python component" if HOST == "component" else "python"
        if skipped:
            terminalreporter.write_line(f"fixtures ({host}): SKIPPED {skipped} cases: {SHARED_ABSENT} (../shared)")
        terminalreporter.write_line(f"fixtures ({host}): {passed} passed, {failed} failed")
