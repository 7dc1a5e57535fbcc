"""A second component host for the fixtures: the package's calls made through wasmtime-py's
component runtime instead of the package's own canonical ABI (`agent_contract._core`).

`core.wasm` ships as a component so that any component host can run it. The package runs its
core module directly; this host runs the component itself, so the fixtures also hold the
component, its world and wasmtime's lowering to the verdicts every other host gives
(`AGENT_CONTRACT_HOST=component`, see conftest.py and scripts/test-python.sh).
"""

from __future__ import annotations

import collections
import json
import os
from importlib import resources
from typing import Any

import wasmtime
from wasmtime import component as wc

from agent_contract import _runtime

_compiled: tuple[wasmtime.Engine, wc.Component] | None = None


def compiled() -> tuple[wasmtime.Engine, wc.Component]:
    global _compiled
    if _compiled is None:
        engine = wasmtime.Engine()
        wasm = resources.files("agent_contract").joinpath("core.wasm").read_bytes()
        _compiled = (engine, wc.Component(engine, wasm))
    return _compiled


def _lowered(func: Any, store: wasmtime.Store) -> Any:
    """`func` taking the package's arguments: the package gives a variant (`text`,
    `value-or-text`) as its case's index followed by its string, wasmtime-py a `Variant`."""
    cases = [
        [name for name, _ in ty.cases] if isinstance(ty, wc.VariantType) else None for _, ty in func.type(store).params
    ]
    if not any(cases):
        return func

    def call(store: wasmtime.Store, *args: Any) -> Any:
        given, lowered = iter(args), []
        for names in cases:
            arg = next(given)
            lowered.append(wc.Variant(names[arg], next(given)) if names else arg)
        return func(store, *lowered)

    return call


class _Exports(dict):  # type: ignore[type-arg]
    """The component's functions by name (`interface` for an interface's), found on first use."""

    def __init__(self, instance: Any, store: wasmtime.Store, interface: str | None = None) -> None:
        super().__init__()
        self._instance, self._store = instance, store
        self._interface = instance.get_export_index(store, interface) if interface else None

    def __missing__(self, name: str) -> Any:
        if self._interface is not None:
            index = self._instance.get_export_index(self._store, name, self._interface)
            func = self._instance.get_func(self._store, index) if index is not None else None
        else:
            func = self._instance.get_func(self._store, name)
        if func is None:
            raise RuntimeError(f"the component has no export {name!r}")
        func = self[name] = _lowered(func, self._store)
        return func


class _ResourceExports(_Exports):
    def __init__(self, instance: Any, store: wasmtime.Store, resource: str) -> None:
        super().__init__(instance, store, _runtime._INTERFACE_OF[resource])
        self._resource = resource

    def __missing__(self, name: str) -> Any:
        candidates = (
            [f"[constructor]{self._resource}"]
            if name == "new"
            else [f"[method]{self._resource}.{name}", f"[static]{self._resource}.{name}"]
        )
        for candidate in candidates:
            index = self._instance.get_export_index(self._store, candidate, self._interface)
            if index is not None:
                func = self[name] = _lowered(self._instance.get_func(self._store, index), self._store)
                return func
        raise RuntimeError(f"the component has no {self._resource} member {name!r}")


class ComponentInstance(_runtime._Instance):
    """`_runtime._Instance` over the component: the same callers, made by wasmtime-py."""

    def __init__(self) -> None:  # noqa: D107 - the base's attributes, from the component
        engine, component = compiled()
        self.store = wasmtime.Store(engine)
        instance = wc.Linker(engine).instantiate(self.store, component)
        self.funcs = _Exports(instance, self.store)
        self.funcs["seed"](self.store, os.urandom(32))
        self.described = json.loads(self.funcs["describe"](self.store))["value"]
        self.policy = _runtime._Policy(self.described)
        self.rpc_funcs = _Exports(instance, self.store, _runtime.RPC)
        tools = _Exports(instance, self.store, _runtime.TOOLS)
        self.rpc_funcs["validate-tool-inputs"] = tools["validate-tool-inputs"]
        self.resource_funcs = {r: _ResourceExports(instance, self.store, r) for r in _runtime._INTERFACE_OF}
        self.pending_drops: collections.deque[Any] = collections.deque()
        self.calls = 0
        self.fresh_bytes = 0

    def memory_bytes(self) -> int:
        # A component's memory is not the host's to read; the memory policy is tested through
        # the package's own host, so this host never renews.
        return 0
