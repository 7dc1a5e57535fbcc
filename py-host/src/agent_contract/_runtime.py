"""Runs the core component: one compiled component per process, one instance per thread.

A wasmtime `Store` must not be used from two threads at once, so each thread lazily gets its
own `Store` and instance (cheap: compilation is shared). The component imports nothing, so it
is instantiated with an empty `Linker`.
"""

from __future__ import annotations

import collections
import os
import threading
from importlib import resources
from typing import Any

import wasmtime
from wasmtime import component as wc

from ._compile_cache import load_component

# Each has a twin `<name>-with-options`: wasmtime-py converts every argument in Python, so a call
# without options passes one argument instead of two (measured: ~5 us per string argument).
_WITH_OPTIONS = (
    "parse-agent-action",
    "preview-action",
    "parse-agent-actions",
    "parse-json",
    "parse-json-bytes",
    "parse-decision",
    "validate-tool-input",
    "validate-tool-input-json",
    "validate-tool-input-json-bytes",
    "check-tool-call",
    "normalize-tool-result",
    "assemble-provider-stream",
    # Messages and sessions (seed 004)
    "parse-agent-message",
    "parse-agent-message-json",
    "parse-agent-message-json-bytes",
    "parse-tool-result",
    "parse-session-entry",
    "check-session",
    "check-session-bytes",
    "read-session",
    "read-session-bytes",
    "query-session",
    "query-session-bytes",
    "from-seed-tool",
    # Agent events and the session response (issue 9 §3)
    "parse-agent-event",
    "check-event-sequence",
    "check-session-response",
)
EXPORTS = _WITH_OPTIONS + tuple(name + "-with-options" for name in _WITH_OPTIONS) + (
    "not-text",
    "seed",
    "catalog",
    "define-policy",
    "to-openai-tools",
    "to-openai-responses-tools",
    "to-anthropic-tools",
    "to-mcp-tools",
    "strict-schema-issues",
    "json-schema-for-target",
    "compare-contracts",
    "diff-catalogs",
    "memory-bytes",
    "to-seed-tool",
    # ACP prompt admission and lifecycle (issue 10 §3-§4):
    "admit-prompt",
    "is-canonical-base64",
    "is-canonical-base64-text",
    "sniff-media-type",
    "not-bytes",
    "advertise-prompt-capabilities",
    # Gemini projection (issue 11 §2):
    "to-gemini-tools",
    "gemini-schema-issues",
    # The protocol as JSON Schema (issue 9 §4)
    "protocol-schemas",
    # Verdict replies (issue 12 §1)
    "verdict-shapes",
) + tuple(
    name + suffix
    for name in (
        "parse-agent-action-json-verdict",
        "parse-agent-actions-jsonl-verdict",
        "parse-decision-json-verdict",
    )
    for suffix in ("", "-with-options", "-bytes", "-bytes-with-options")
)

ASSEMBLY = "agent-contract:core/assembly@0.1.0"
# The resources of that interface and their methods.
RESOURCES = {
    "assembler": ("push", "preview", "finish"),
    "provider-assembler": ("push", "push-sse", "push-sse-bytes", "push-sse-value", "preview", "finish"),
    # Messages and sessions (seed 004)
    "session-checker": ("push", "push-bytes", "preview", "finish"),
}
# ACP prompt admission and lifecycle (issue 10 §4): the interface `acp` and its resource.
ACP = "agent-contract:core/acp@0.1.0"
ACP_RESOURCES = {"prompt-lifecycle": ("call",)}

# JSON-RPC over NDJSON (issue 10 §1-§2): interface `rpc`, its functions and resources.
RPC = "agent-contract:core/rpc@0.1.0"
RPC_FUNCS = (
    "classify-json-rpc",
    "classify-json-rpc-json",
    "classify-json-rpc-json-bytes",
    "method-not-found",
    "internal-error",
    "invalid-params",
)
RPC_RESOURCES = {
    "ndjson-decoder": ("check", "push", "push-bytes", "end", "buffered"),
    "stdout-purity": ("check", "push", "push-bytes", "finish"),
    "rpc-session": ("check", "incoming", "outgoing"),
}

# Compiled tools (issue 12 §2): interface `tools`, its function and the `compiled-tool` resource.
TOOLS = "agent-contract:core/tools@0.1.0"
TOOLS_FUNCS = ("validate-tool-inputs",)
TOOLS_RESOURCES = {
    "compiled-tool": ("reply", "release", "validate", "validate-with-options", "validate-json", "validate-json-bytes", "validate-many"),
    "compiled-registry": ("reply", "check-tool-call", "project"),
}
# Static functions of those resources (`define_tool_json`).
TOOLS_STATICS = {"compiled-tool": ("from-json", "from-json-bytes")}

_lock = threading.Lock()
_compiled: tuple[wasmtime.Engine, wc.Component] | None = None
_local = threading.local()


def compiled() -> tuple[wasmtime.Engine, wc.Component]:
    """The process-wide engine and compiled component (compiled on first use, or loaded from
    the compile cache: `_compile_cache`)."""
    global _compiled
    if _compiled is None:
        with _lock:
            if _compiled is None:
                wasm = resources.files(__package__).joinpath("core.wasm").read_bytes()
                engine = wasmtime.Engine()
                _compiled = (engine, load_component(engine, wasm))
    return _compiled


# Wasm memory never shrinks. After a call an instance over this stops being the thread's
# instance (the next call gets a fresh one), so calls start in an instance of at most this much,
# and a call within the default limits on an input of at most 1 MB (which needs less than
# 32 MiB more, or gets the room first: `make_room`) ends under MEMORY_BOUND, the documented
# 64 MiB (docs/decisions.md, "The memory bound").
RENEW_AFTER_BYTES = 32 << 20
MEMORY_BOUND = 64 << 20
# The size check costs a crossing (10-15 us), so it runs after calls whose arguments are this
# long and every `_CHECK_EVERY` calls. Shorter arguments grow the memory by ~11 MiB at most (a
# schema's compiled form, the worst per character outside batches, is ~0.7 KB per character),
# and what they leave behind between checks is bounded by the caches. (At 4 Ki characters the
# check made a 5 KB call 13-22 % slower.)
_CHECK_FROM_CHARS = 16 << 10
_CHECK_EVERY = 64
# Room before a call: a call that may need more than the 32 MiB an instance can start it with
# gets a fresh instance first when the current one lacks the room. What a call may need: per
# character of host text, 48 bytes (1 MB of numbers took +42 MiB: the core holds the value and
# the result it builds); a batch, 768 bytes per item, and no more items than characters
# (65,535 failed JSON Lines, 64 KB: +40 MiB). Checked only when the need is this large.
_NEED_PER_CHAR = 48
BATCH_ITEM_BYTES = 768
BATCH_ITEMS_MAX = 65536
_ROOM_FROM = 3 << 20
BATCH_EXPORTS = frozenset({
    "parse-agent-actions", "parse-agent-actions-jsonl-verdict", "parse-agent-actions-jsonl-verdict-bytes",
    "validate-tool-inputs",
})


def need_of(export: str, chars: int) -> int:
    """The most a call of `export` on `chars` characters of host text may need."""
    if export in BATCH_EXPORTS:
        return BATCH_ITEM_BYTES * min(chars, BATCH_ITEMS_MAX)
    return _NEED_PER_CHAR * chars


class _Instance:
    def __init__(self) -> None:
        engine, component = compiled()
        self.store = wasmtime.Store(engine)
        instance = wc.Linker(engine).instantiate(self.store, component)
        self.funcs: dict[str, wc.Func] = {}
        for name in EXPORTS:
            func = instance.get_func(self.store, name)
            if func is None:
                raise RuntimeError(f"core.wasm has no export {name!r}: rebuild it with scripts/build-python.sh")
            self.funcs[name] = func
        # The schema engine's hash keys come from the host, fresh for every instance.
        self.funcs["seed"](self.store, os.urandom(32))
        # The resources of the interfaces `assembly` (stream assemblers), `acp` (prompt lifecycles)
        # and `rpc` (NDJSON decoders, RPC sessions): their constructor and methods.
        self.resource_funcs: dict[str, dict[str, wc.Func]] = {}
        self.rpc_funcs: dict[str, wc.Func] = {}
        rpc = instance.get_export_index(self.store, RPC)
        for name in RPC_FUNCS:
            index = instance.get_export_index(self.store, name, rpc) if rpc is not None else None
            func = instance.get_func(self.store, index) if index is not None else None
            if func is None:
                raise RuntimeError(f"core.wasm has no export {name!r}: rebuild it with scripts/build-python.sh")
            self.rpc_funcs[name] = func
        tools = instance.get_export_index(self.store, TOOLS)
        for name in TOOLS_FUNCS:
            index = instance.get_export_index(self.store, name, tools) if tools is not None else None
            func = instance.get_func(self.store, index) if index is not None else None
            if func is None:
                raise RuntimeError(f"core.wasm has no export {name!r}: rebuild it with scripts/build-python.sh")
            self.rpc_funcs[name] = func
        for interface, resource, methods in (
            [(ASSEMBLY, r, m) for r, m in RESOURCES.items()]
            + [(ACP, r, m) for r, m in ACP_RESOURCES.items()]
            + [(RPC, r, m) for r, m in RPC_RESOURCES.items()]
            + [(TOOLS, r, m) for r, m in TOOLS_RESOURCES.items()]
        ):
            iface = instance.get_export_index(self.store, interface)
            funcs = self.resource_funcs[resource] = {}
            statics = tuple(f"[static]{resource}.{m}" for m in TOOLS_STATICS.get(resource, ()))
            for name in (f"[constructor]{resource}",) + tuple(f"[method]{resource}.{m}" for m in methods) + statics:
                index = instance.get_export_index(self.store, name, iface) if iface is not None else None
                func = instance.get_func(self.store, index) if index is not None else None
                if func is None:
                    raise RuntimeError(f"core.wasm has no export {name!r}: rebuild it with scripts/build-python.sh")
                funcs["new" if name.startswith("[constructor]") else name.rsplit(".", 1)[-1]] = func
        # Resources of assemblers garbage-collected unclosed, dropped by this thread's next
        # assembler call (a finalizer may run on any thread; the store is single-threaded).
        self.pending_drops: collections.deque[Any] = collections.deque()
        self.calls = 0
        # What a fresh instance holds: replacing one that holds no more makes no room.
        self.fresh_bytes = self.memory_bytes()

    def memory_bytes(self) -> int:
        size: int = self.funcs["memory-bytes"](self.store)
        return size

    def checked(self, chars: int) -> None:
        """After a call whose arguments held `chars` characters: this thread's instance, when
        its memory is past RENEW_AFTER_BYTES, stops being the thread's instance, and the next
        call gets a fresh one. Stateful objects (assemblers, decoders, sessions...) keep the
        instance they were created in (their resources live there), so a live one goes on
        working; the memory is freed when the last of them is gone."""
        self.calls += 1
        if chars < _CHECK_FROM_CHARS and self.calls % _CHECK_EVERY:
            return
        if getattr(_local, "instance", None) is self and self.memory_bytes() > RENEW_AFTER_BYTES:
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

    def resource_call(self, resource: str, method: str, handle: Any, *args: str) -> str:
        self.drain()
        reply: str = self.resource_funcs[resource][method](self.store, handle, *args)
        self.checked(sum(map(len, args)))
        return reply


def _instance() -> _Instance:
    instance: _Instance | None = getattr(_local, "instance", None)
    if instance is None:
        instance = _local.instance = _Instance()
    return instance


def make_room(need: int) -> _Instance:
    """This thread's instance, replaced first when a call that may need `need` bytes would take
    it past MEMORY_BOUND (see `need_of`) and a fresh one holds less."""
    instance = _instance()
    if need < _ROOM_FROM:
        return instance
    memory = instance.memory_bytes()
    if memory + need > MEMORY_BOUND and memory > instance.fresh_bytes + (1 << 20):
        _local.instance = None
        instance = _instance()
    return instance


def call_rpc(export: str, *arguments: str) -> str:
    """Calls a function of interface `rpc` in this thread's instance (strings in, JSON reply)."""
    chars = sum(len(a) for a in arguments)
    instance = make_room(need_of(export, chars))
    try:
        reply: str = instance.rpc_funcs[export](instance.store, *arguments)
    except UnicodeEncodeError:
        raise
    except Exception:
        _local.instance = None
        raise
    instance.checked(chars)
    return reply


def assembler_instance() -> _Instance:
    """This thread's instance, for an assembler to keep (its resource lives there)."""
    return _instance()


def call(export: str, argument: Any, options: str = "") -> str:
    """`call_args` with one argument."""
    return call_args(export, (argument,), options)


def call_args(export: str, arguments: tuple[Any, ...], options: str = "") -> str:
    """Calls an export of this thread's instance with `arguments` (strings) and returns its
    JSON reply. Options (host text, "" for none) go to the `-with-options` twin."""
    chars = sum(len(a) for a in arguments if type(a) is str) + len(options)
    instance = make_room(need_of(export, chars))
    try:
        if options:
            reply: str = instance.funcs[export + "-with-options"](instance.store, *arguments, options)
        else:
            reply = instance.funcs[export](instance.store, *arguments)
    except UnicodeEncodeError:
        # wasmtime encodes a str argument as UTF-8 before entering the core and raises this for
        # one holding lone surrogates (not a WIT string); the instance is untouched, and the
        # caller may send the text by the `-bytes` twin instead.
        raise
    except Exception:
        # A trap is a bug in the core and surfaces as is; the instance may be left in any
        # state, so this thread's next call starts from a fresh one.
        _local.instance = None
        raise
    instance.checked(chars)
    return reply


def current_instance() -> _Instance | None:
    """This thread's instance, or None before its first call (compiled tools compare theirs)."""
    return getattr(_local, "instance", None)
