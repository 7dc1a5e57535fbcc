"""The test build of the core: Cargo feature `testing`, world `agent-contract-testing`, built by
scripts/build-testing.sh into target/testing/core.wasm. It has every export of the shipped
component plus the full-reply twins of the verdict text functions and `echo`, which the package
never calls and so does not ship. Tests and benchmarks reach them here, in one instance of the
test build made the way the package makes its own (`_runtime._Instance`); each call makes it
this thread's instance for its duration, so the package's own host code (options, text crossing,
reply decoding) runs against it unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import wasmtime

from agent_contract import _core, _runtime

WASM = Path(__file__).resolve().parents[2] / "target" / "testing" / "core.wasm"
# What the test build exports beyond the shipped component.
FULL_REPLY = tuple(
    name + suffix
    for name in ("parse-agent-action-json", "parse-agent-actions-jsonl", "parse-decision-json")
    for suffix in ("", "-with-options", "-bytes", "-bytes-with-options")
)
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
    return _made


def call_args(export: str, arguments: tuple[Any, ...], options: str = "") -> str:
    """`_runtime.call_args` in the test build's instance."""
    made = instance()
    local = _runtime._local
    saved = getattr(local, "instance", None)
    local.instance = made
    try:
        return _runtime.call_args(export, arguments, options)
    finally:
        local.instance = saved


def call(export: str, argument: Any, options: str = "") -> str:
    """`_runtime.call` in the test build's instance."""
    return call_args(export, (argument,), options)


def full_reply(export: str, text: Any, options: Any, whole: bool = False) -> Any:
    """The full-reply path (the core writes the whole result; what the package did before
    verdict replies): the package's `_call_text` in the test build's instance."""
    from agent_contract import _call_text

    made = instance()
    local = _runtime._local
    saved = getattr(local, "instance", None)
    local.instance = made
    try:
        return _call_text(export, text, options, whole=whole)
    finally:
        local.instance = saved
