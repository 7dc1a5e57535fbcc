"""The component imports nothing (no WASI, no host functions), so it cannot do I/O; its core
module, which the package runs itself, imports only the resource intrinsics the component
model defines for the core's own resources."""

from __future__ import annotations

from importlib import resources

import wasmtime
from wasmtime import component as wc

from agent_contract import _core, _runtime
from component_host import compiled


def test_component_has_no_imports() -> None:
    engine, component = compiled()
    assert component.type.imports(engine) == {}


def test_component_instantiates_with_an_empty_linker() -> None:
    # An empty Linker provides nothing: instantiation would fail on any import.
    engine, component = compiled()
    store = wasmtime.Store(engine)
    instance = wc.Linker(engine).instantiate(store, component)
    describe = instance.get_func(store, "describe")
    assert describe is not None and '"memory"' in describe(store)


def test_the_core_module_imports_only_resource_intrinsics() -> None:
    engine, module = _runtime.compiled()
    imports = [(i.module, i.name) for i in module.imports]
    assert imports, "the core module makes resources, so it imports their intrinsics"
    for module_name, name in imports:
        assert module_name.startswith("[export]agent-contract:core/"), module_name
        assert (name or "").startswith(("[resource-new]", "[resource-rep]", "[resource-drop]")), name


def test_the_core_module_is_the_one_the_component_wraps() -> None:
    wasm = resources.files("agent_contract").joinpath("core.wasm").read_bytes()
    module = _core.core_module(wasm)
    assert module.startswith(b"\x00asm\x01\x00\x00\x00")
    # Not a component, nor anything else.
    for bad in (module, b"", b"\x00asm\x0d\x00\x01\x00"):
        try:
            _core.core_module(bad)
        except RuntimeError:
            continue
        raise AssertionError("refused nothing")


def test_both_hosts_give_the_same_replies() -> None:
    from component_host import ComponentInstance

    ours, theirs = _runtime._Instance(), ComponentInstance()
    calls = [
        ("parse-agent-action-json", (0, '{"type":"message","content":"hi"}', "")),
        ("parse-agent-action-json", (0, '{"type":"message","content":"hi"} x', "")),
        ("parse-json", (1, "\u00ff\u00fe", "")),
        ("is-canonical-base64", (1, "aGk=")),
        ("is-canonical-base64", (1, "aGk")),
        ("is-canonical-base64", (0, '"aGk="')),
        ("protocol-schemas", ()),
        ("describe", ()),
    ]
    for name, args in calls:
        assert ours.funcs[name](ours.store, *args) == theirs.funcs[name](theirs.store, *args), name
    tool = '{"name":"read_file","description":"Read","inputSchema":{"type":"object","required":["path"]},"permission":"read"}'
    mine = ours.resource_funcs["compiled-tool"]["new"](ours.store, tool, "")
    other = theirs.resource_funcs["compiled-tool"]["new"](theirs.store, tool, "")
    for text in ('{"path":"a"}', "{}", "[1,"):
        assert ours.resource_funcs["compiled-tool"]["validate-json"](ours.store, mine, 0, text, "") == theirs.resource_funcs[
            "compiled-tool"
        ]["validate-json"](theirs.store, other, 0, text, "")
    mine.drop(ours.store)
    other.drop(theirs.store)
