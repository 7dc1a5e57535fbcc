"""The component imports nothing (no WASI, no host functions), so it cannot do I/O."""

from __future__ import annotations

import json

import wasmtime
from wasmtime import component as wc

from agent_contract import _runtime


def test_component_has_no_imports() -> None:
    engine, component = _runtime.compiled()
    assert component.type.imports(engine) == {}


def test_component_instantiates_with_an_empty_linker() -> None:
    # An empty Linker provides nothing: instantiation would fail on any import.
    engine, component = _runtime.compiled()
    store = wasmtime.Store(engine)
    instance = wc.Linker(engine).instantiate(store, component)
    parse_json = instance.get_func(store, "parse-json")
    assert parse_json is not None and json.loads(parse_json(store, '["héllo"]')) == {"ok": True}


def test_component_exports_what_the_binding_calls() -> None:
    engine, component = _runtime.compiled()
    assert set(component.type.exports(engine)) == set(_runtime.EXPORTS) | {_runtime.ASSEMBLY, _runtime.ACP, _runtime.RPC, _runtime.TOOLS}
