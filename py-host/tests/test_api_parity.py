"""The Python API has every function the npm package declares, under its snake_case name."""

from __future__ import annotations

import re
from pathlib import Path

import agent_contract as ac

# memoryReport: the npm package's report of its instance's memory (Python renews its instances by
# the same policy, per thread, and reports nothing). providerResponseStream is a WHATWG TransformStream; Python's twin for a response body is
# assemble_sse_lines (an iterable of lines).
JS_ONLY = {"memoryReport", "providerResponseStream", "toStandardSchema"}
# Loading the wasm in the npm package (bundlers and explicit init); the Python package loads its component itself.
JS_ONLY |= {"init", "initSync"}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("open_a_i", "openai")


def test_every_js_function_has_a_python_twin() -> None:
    declarations = (Path(__file__).resolve().parents[2] / "pkg" / "index.d.ts").read_text(encoding="utf-8")
    names = re.findall(r"^export function (\w+)", declarations, re.M)
    assert len(names) > 20
    missing = [n for n in names if n not in JS_ONLY and not hasattr(ac, snake(n))]
    assert missing == []


def test_all_names_exist() -> None:
    assert [n for n in ac.__all__ if not hasattr(ac, n)] == []
