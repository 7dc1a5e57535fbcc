"""The test build of the core: Cargo feature `testing`, world `agent-contract-testing`, built by
scripts/build-testing.sh into target/testing/core.wasm. It has every export of the shipped
component plus interface `testing`: the full-reply forms of the verdict text operations and
`echo`, which the package never calls and so does not ship. Tests and benchmarks reach them here, in one instance of the
test build made the way the package makes its own (`_runtime._Instance`); each call makes it
this thread's instance for its duration, so the package's own host code (options, text crossing,
reply decoding) runs against it unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import wasmtime

from agent_contract import _core, _runtime

WASM = Path(__file__).resolve().parents[2] / "target" / "testing" / "core.wasm"
# What the test build exports beyond the shipped component: interface `testing`.
TESTING = "agent-contract:core/testing@0.1.0"
FULL_REPLY = ("parse-agent-action-json-full", "parse-agent-actions-jsonl-full", "parse-decision-json-full")
EXTRA = FULL_REPLY + ("echo",)

_made: Optional[_runtime._Instance] = None


def instance() -> _runtime._Instance:
    """The test build's instance (made on first use): `_runtime._Instance` over the test
    component's core module, whose callers reach the extra exports too."""
    global _made
    if _made is None:
        if not WASM.is_file():
            raise RuntimeError(f"the test build is missing ({WASM}): run scripts/build-testing.sh component")
        engine, _ = _runtime.compiled()
        module = wasmtime.Module(engine, _core.core_module(WASM.read_bytes()))
        saved = _runtime.compiled
        _runtime.compiled = lambda: (engine, module)  # type: ignore[assignment]
        try:
            _made = _runtime._Instance()
        finally:
            _runtime.compiled = saved
        for name in EXTRA:  # callable by their names, as the world's functions are
            _made.funcs[name] = _made.core.function(f"{TESTING}#{name}")
    return _made


def call_args(export: str, arguments: tuple[Any, ...]) -> str:
    """`_runtime.call_args` in the test build's instance."""
    made = instance()
    local = _runtime._local
    saved = getattr(local, "instance", None)
    local.instance = made
    try:
        return _runtime.call_args(export, arguments)
    finally:
        local.instance = saved


def call(export: str, *arguments: Any) -> str:
    """An export of the test build called with `arguments`."""
    return call_args(export, arguments)


def full_reply(export: str, text: Any, options: Any, whole: bool = False) -> Any:
    """The full-reply path of verdict operation `export` (the core writes the whole result;
    what the package did before verdict replies): the package's `_call_text` in the test
    build's instance."""
    from agent_contract import _call_text

    made = instance()
    local = _runtime._local
    saved = getattr(local, "instance", None)
    local.instance = made
    try:
        return _call_text(export + "-full", text, options, whole=whole)
    finally:
        local.instance = saved
