"""Runs the core: one compiled core module per process, one instance per thread.

`core.wasm` is a component with no imports; its core module runs here through `_core`, which
does the canonical ABI itself (a call costs a few microseconds instead of wasmtime-py's ~12).
A wasmtime `Store` must not be used from two threads at once, so each thread lazily gets its
own `Store` and instance (cheap: compilation is shared).
"""

from __future__ import annotations

import collections
import json
import os
import threading
from importlib import resources
from typing import Any

import wasmtime

from . import _core
from ._compile_cache import load_module

# The interfaces of the component's world, and the interface of each resource.
ASSEMBLY = "agent-contract:core/assembly@0.1.0"
ACP = "agent-contract:core/acp@0.1.0"
RPC = "agent-contract:core/rpc@0.1.0"
TOOLS = "agent-contract:core/tools@0.1.0"
_INTERFACE_OF = {
    "assembler": ASSEMBLY,
    "provider-assembler": ASSEMBLY,
    "session-checker": ASSEMBLY,
    "prompt-lifecycle": ACP,
    "ndjson-decoder": RPC,
    "stdout-purity": RPC,
    "rpc-session": RPC,
    "compiled-tool": TOOLS,
    "compiled-registry": TOOLS,
}


class _Callers(dict):  # type: ignore[type-arg]
    """Callers of the core's exports, each made on first use: by their names in the world
    (`prefix` + name), or, for a resource (`resource`), its constructor (`new`), statics and
    methods by name."""

    def __init__(self, core: _core.Core, prefix: str = "", resource: str = "") -> None:
        super().__init__()
        self._core, self._resource = core, resource
        self._prefix = f"{_INTERFACE_OF[resource]}#" if resource else prefix
        # The names of its verdict functions (`result<u32, string>`).
        self.verdicts: frozenset[str] = frozenset()

    def __missing__(self, name: str) -> Any:
        full, r = self._prefix + name, self._resource
        if r:
            full = f"{self._prefix}[constructor]{r}" if name == "new" else f"{self._prefix}[static]{r}.{name}"
            if name != "new" and not self._core.has(full):
                full = f"{self._prefix}[method]{r}.{name}"
        caller = self[name] = self._core.function(full, verdict=name in self.verdicts)
        return caller


def _verdicts(described: dict[str, Any]) -> frozenset[str]:
    """The component's verdict functions, as the table marks them (`witVerdict`). A compiled
    tool's `validate-json`, which is `validate-tool-input-json` through the handle, is one too
    (`_Instance` names it)."""
    return frozenset(op["python"].replace("_", "-") for op in described["operations"] if op["witVerdict"])


_lock = threading.Lock()
_compiled: tuple[wasmtime.Engine, wasmtime.Module] | None = None
_local = threading.local()


def compiled() -> tuple[wasmtime.Engine, wasmtime.Module]:
    """The process-wide engine and the compiled core module of `core.wasm` (compiled on first
    use, or loaded from the compile cache: `_compile_cache`)."""
    global _compiled
    if _compiled is None:
        with _lock:
            if _compiled is None:
                wasm = resources.files(__package__).joinpath("core.wasm").read_bytes()
                engine = wasmtime.Engine(_core.engine_config())
                _compiled = (engine, load_module(engine, _core.core_module(wasm)))
    return _compiled


# Wasm memory never shrinks. After a call an instance past the core's `renewAfterBytes` stops
# being the thread's instance (the next call gets a fresh one), so calls start in an instance of
# at most that much, and a call within the default limits on an input of at most 1 MB ends under
# the memory `bound` (or gets the room first: `make_room`). The policy and its numbers, when the
# size is checked included, are the core's (`describe()`, src/api/describe.rs; docs/decisions.md,
# "The memory bound").


class _Policy:
    """The core's memory policy, as `describe()` gives it."""

    def __init__(self, described: dict[str, Any]) -> None:
        m = described["memory"]
        self.renew_after_bytes, self.bound, self.need_per_char = m["renewAfterBytes"], m["bound"], m["needPerChar"]
        self.batch_item_bytes, self.batch_items_max = m["batchItemBytes"], m["batchItemsMax"]
        self.check_from_chars, self.check_every, self.room_from = m["checkFromChars"], m["checkEvery"], m["roomFromBytes"]
        self.ndjson_slice_units = m["ndjsonSliceUnits"]
        # Arguments of fewer characters never need room checked, whatever the call (`need_of`).
        self.roomy_below = self.room_from // max(self.need_per_char, self.batch_item_bytes)
        # The component's name of each batch operation.
        self.batches = frozenset(op["python"].replace("_", "-") for op in described["operations"] if op["reply"] == "batch")


_policy: _Policy | None = None
_described: dict[str, Any] | None = None


def policy() -> _Policy:
    """The memory policy, read from the core by the first instance."""
    return _policy if _policy is not None else _instance().policy


def described() -> dict[str, Any]:
    """The core's `describe()`: limits, ceilings, memory policy, projections, the table."""
    return _described if _described is not None else _instance().described


def __getattr__(name: str) -> int:
    # The bound by its documented name, for tests and tools.
    if name == "MEMORY_BOUND":
        return int(policy().bound)
    raise AttributeError(name)


def need_of(export: str, chars: int) -> int:
    """The most a call of `export` on `chars` characters of host text may need."""
    p = policy()
    if export in p.batches:
        return p.batch_item_bytes * min(chars, p.batch_items_max)
    return p.need_per_char * chars


class _Instance:
    def __init__(self) -> None:
        engine, module = compiled()
        self.store = wasmtime.Store(engine)
        self.core = core = _core.Core(self.store, module)
        self.funcs = _Callers(core)
        # The schema engine's hash keys come from the host, fresh for every instance.
        self.funcs["seed"](self.store, os.urandom(32))
        global _policy, _described
        if _described is None:
            _described = json.loads(self.funcs["describe"](self.store))["value"]
            _policy = _Policy(_described)
        self.described: dict[str, Any] = _described
        self.policy: _Policy = _policy  # type: ignore[assignment]
        # The functions of the interfaces `rpc` and `tools`, and the resources of the
        # interfaces `assembly` (stream assemblers), `acp` (prompt lifecycles), `rpc` (NDJSON
        # decoders, RPC sessions) and `tools` (compiled tools and registries).
        self.rpc_funcs = _Callers(core, f"{RPC}#")
        self.rpc_funcs["validate-tool-inputs"] = core.function(f"{TOOLS}#validate-tool-inputs")
        self.resource_funcs = {resource: _Callers(core, resource=resource) for resource in _INTERFACE_OF}
        self.funcs.verdicts = _verdicts(_described)
        self.resource_funcs["compiled-tool"].verdicts = frozenset({"validate-json"})
        # Resources of assemblers garbage-collected unclosed, dropped by this thread's next
        # assembler call (a finalizer may run on any thread; the store is single-threaded).
        self.pending_drops: collections.deque[Any] = collections.deque()
        self.calls = 0
        # What a fresh instance holds: replacing one that holds no more makes no room.
        self.fresh_bytes = self.memory_bytes()

    def memory_bytes(self) -> int:
        return self.core.memory_bytes()

    def checked(self, chars: int) -> None:
        """After a call whose arguments held `chars` characters: this thread's instance, when
        its memory is past the policy's `renew_after_bytes`, stops being the thread's instance, and the next
        call gets a fresh one. Stateful objects (assemblers, decoders, sessions...) keep the
        instance they were created in (their resources live there), so a live one goes on
        working; the memory is freed when the last of them is gone."""
        self.calls += 1
        if chars < self.policy.check_from_chars and self.calls % self.policy.check_every:
            return
        if getattr(_local, "instance", None) is self and self.memory_bytes() > self.policy.renew_after_bytes:
            _local.instance = None

    def drain(self) -> None:
        while self.pending_drops:
            self.drop_resource(self.pending_drops.popleft())

    def drop_resource(self, resource: Any) -> None:
        resource.drop(self.store)

    def resource_new(self, resource: str, *args: str) -> Any:
        self.drain()
        handle = self.resource_funcs[resource]["new"](self.store, *args)
        self.checked(sum(map(len, args)))
        return handle

    def resource_call(self, resource: str, method: str, handle: Any, *args: Any) -> Any:
        if self.pending_drops:
            self.drain()
            if type(handle) is _core.Handle and handle._dtor is None:
                # Closed from another thread after the caller checked it, dropped just now.
                from ._wire import error

                raise error(self.described["objectFreed"])
        reply = self.resource_funcs[resource][method](self.store, handle, *args)
        self.checked(sum([len(a) for a in args if type(a) is str]))
        return reply


def _instance() -> _Instance:
    instance: _Instance | None = getattr(_local, "instance", None)
    if instance is None:
        instance = _local.instance = _Instance()
    return instance


def make_room(need: int) -> _Instance:
    """This thread's instance, replaced first when a call that may need `need` bytes would take
    it past the memory bound (see `need_of`) and a fresh one holds less."""
    instance = _instance()
    if need < instance.policy.room_from:
        return instance
    memory = instance.memory_bytes()
    if memory + need > instance.policy.bound and memory > instance.fresh_bytes + (1 << 20):
        _local.instance = None
        instance = _instance()
    return instance


def _call(table: str, export: str, arguments: tuple[Any, ...]) -> str:
    chars = sum(len(a) for a in arguments if type(a) is str)
    instance = make_room(need_of(export, chars))
    try:
        reply: str = getattr(instance, table)[export](instance.store, *arguments)
    except UnicodeEncodeError:
        # A str argument holding lone surrogates is not a WIT string: refused before the core
        # runs, the instance untouched (the caller may send its bytes as `carried` text).
        raise
    except Exception:
        # A trap is a bug in the core and surfaces as is; the instance may be left in any
        # state, so this thread's next call starts from a fresh one.
        _local.instance = None
        raise
    instance.checked(chars)
    return reply


def call_args(export: str, arguments: tuple[Any, ...]) -> Any:
    """Calls an export of this thread's world with `arguments` (strings, and the case of a
    `text` variant before its string) and returns its JSON reply (a verdict function's
    success: its verdict, an int)."""
    # `_call` written out: the path of every call.
    chars = 0
    for a in arguments:
        if type(a) is str:
            chars += len(a)
    instance = getattr(_local, "instance", None)
    if instance is None or chars >= instance.policy.roomy_below:
        instance = make_room(need_of(export, chars))
    try:
        reply = instance.funcs[export](instance.store, *arguments)
    except UnicodeEncodeError:
        raise
    except Exception:
        _local.instance = None
        raise
    instance.checked(chars)
    return reply


def call_rpc(export: str, *arguments: str) -> str:
    """Calls a function of interface `rpc` (or `tools`) in this thread's instance."""
    return _call("rpc_funcs", export, arguments)


assembler_instance = _instance  # the instance a resource is made in (and lives in)


def current_instance() -> _Instance | None:
    """This thread's instance, or None before its first call (compiled tools compare theirs)."""
    return getattr(_local, "instance", None)
