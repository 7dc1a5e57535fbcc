"""The core module inside `core.wasm`, called through the canonical ABI done here.

`core.wasm` is a component: any component host can run it. A component is a core module plus
the types of its exports; wasmtime-py lowers and lifts a component call in Python, ~12 us a
call of which ~4 us is the call itself (measured), and reads the function's type from the store
on every call. This module runs the component's core module directly instead, and does the
canonical ABI for the few types the world uses: `string` and `list<u8>` parameters (copied into
memory the core allocates with `cabi_realloc`), `u32`, a variant of strings (its case as an int,
then its string), the core's own resources (handles kept here), and `string`, `bool`, `u64`,
`result<u32, string>` and resource results. A call then costs three core calls through
wasmtime's unchecked entry point (allocate, call, free the reply), two when a verdict function
succeeds (no reply to free). The verdicts are the component's: the same code runs, only the
lowering is done here.

The engine is configured so that a linear memory never moves (`engine_config`): its base
address is read once per instance, where asking wasmtime for it on every access cost ~0.7 us.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
from ctypes import POINTER, byref
from typing import Any, Callable

import wasmtime
from wasmtime import _ffi as ffi

_COMPONENT_LAYER = b"\x00asm\x0d\x00\x01\x00"
_CORE_MODULE_SECTION = 1

# The two C functions every call goes through, declared here a second time (same library, same
# functions): wasmtime-py's declarations wrap each in a Python function and convert each
# argument (`byref`, pointer types), which cost more than the call itself. The call's arguments
# are ready-made ctypes objects, made once per export (`_raw`), so nothing is converted per
# call: ~0.4 us a call, against ~0.55 with declared argument types and ~4 through wasmtime-py.
_LIB = ctypes.CDLL(ffi.dll._name)
_call_unchecked = _LIB.wasmtime_func_call_unchecked
_call_unchecked.restype = ctypes.c_void_p
_memory_data = _LIB.wasmtime_memory_data
_memory_data.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
_memory_data.restype = ctypes.c_void_p


def engine_config() -> wasmtime.Config:
    """The engine's configuration: a memory that never moves (it is reserved whole, 4 GiB of
    address space on 64-bit hosts, wasmtime's default there), so the base address `Core` keeps
    stays valid for the instance's life. A memory that cannot move and cannot grow in place fails
    to grow, which the core sees as an allocation failure, never a stale address."""
    config = wasmtime.Config()
    config.memory_may_move = False
    return config


# Views of a whole 32-bit address space, made at an instance's memory base: as 32-bit words, a
# return area's two words (a reply's address and length) are read without a copy; as bytes, a
# text is copied in and a reply decoded by slicing, in C (a `ctypes.memmove` or `string_at` call
# costs ~0.3 us more each, measured).
_Words = ctypes.c_uint32 * (1 << 30)
_Bytes = ctypes.c_char * (1 << 32)


def core_module(component: bytes) -> bytes:
    """The core module a component made by `wasm-tools component new` wraps: its first core
    module section (wit-component writes the main module first; the small modules after it are
    its shim and fixup, which route the resource destructors the component model calls, and
    which this host does not need: it calls the destructors itself). Anything that is not a
    component is refused, so a change of the build is seen at once."""
    if not component.startswith(_COMPONENT_LAYER):
        raise RuntimeError("core.wasm is not a component: rebuild it with scripts/build-python.sh")
    modules = []
    at = len(_COMPONENT_LAYER)
    while at < len(component):
        section = component[at]
        at += 1
        size = shift = 0
        while True:
            byte = component[at]
            at += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if section == _CORE_MODULE_SECTION:
            modules.append(component[at : at + size])
        at += size
    if not modules:
        raise RuntimeError("core.wasm wraps no core module: rebuild it with scripts/build-python.sh")
    return modules[0]


class Handle:
    """A resource the core made (its representation in the core, `rep`), owned by the host:
    `drop` runs the core's destructor once."""

    __slots__ = ("rep", "_dtor", "__weakref__")

    def __init__(self, rep: int, dtor: Callable[[int], Any]) -> None:
        self.rep = rep
        self._dtor = dtor

    def drop(self, _store: Any = None) -> None:
        dtor, self._dtor = self._dtor, None
        if dtor is not None:
            dtor(self.rep)


class Core:
    """One instance of the core module in `store`, with callers for its exports."""

    def __init__(self, store: wasmtime.Store, module: wasmtime.Module) -> None:
        self.store = store
        # Resources the core makes: `[resource-new]` gives the host a handle for a rep; the
        # constructor returns that handle, which the caller here turns into a `Handle`. The
        # intrinsics hold only this table: wasmtime-py keeps a host function's callable until
        # its store is dropped, so a callable holding this object (and so the store) would keep
        # every instance ever made alive, its whole memory with it.
        made: dict[int, int] = {}
        handles = itertools.count(1)
        self._made = made

        def resource_new(rep: int) -> int:
            handle = next(handles)
            made[handle] = rep
            return handle

        def resource_drop(handle: int) -> None:
            made.pop(handle, None)

        imports = []
        i32 = wasmtime.ValType.i32()
        for item in module.imports:
            name = item.name or ""
            if name.startswith("[resource-new]"):
                imports.append(wasmtime.Func(store, wasmtime.FuncType([i32], [i32]), resource_new))
            elif name.startswith("[resource-rep]"):
                imports.append(wasmtime.Func(store, wasmtime.FuncType([i32], [i32]), made.__getitem__))
            elif name.startswith("[resource-drop]"):
                imports.append(wasmtime.Func(store, wasmtime.FuncType([i32], []), resource_drop))
            else:
                raise RuntimeError(f"core.wasm imports {item.module}::{name}, which this host does not give")
        instance = wasmtime.Instance(store, module, imports)
        self._exports = instance.exports(store)
        memory = self._exports["memory"]
        assert isinstance(memory, wasmtime.Memory)
        self.memory = memory
        self._context = store._context()
        self._memory_raw = byref(memory._memory)
        # Addresses for the C functions above (each object is kept alive by this instance).
        self._context_at = ctypes.cast(self._context, ctypes.c_void_p).value
        self._memory_at = ctypes.addressof(memory._memory)
        self._trap = ctypes.c_void_p()
        self._trap_at = ctypes.addressof(self._trap)
        self._base = _memory_data(self._context_at, self._memory_at)
        self._words = _Words.from_address(self._base)
        self._bytes = memoryview(_Bytes.from_address(self._base)).cast("B")
        self._args = (ffi.wasmtime_val_raw_t * 16)()
        self._args_at = ctypes.addressof(self._args)
        # The same slots (16 bytes each) as 32- and 64-bit integers: an element of a ctypes
        # array of integers is set without making a union object for the slot first.
        self._i32 = (ctypes.c_int32 * 64).from_address(self._args_at)
        self._i64 = (ctypes.c_int64 * 32).from_address(self._args_at)
        # The allocator has slots of its own, so a text is copied in while a call's arguments
        # are being set.
        self._alloc_args = (ffi.wasmtime_val_raw_t * 4)()
        self._alloc_i32 = (ctypes.c_int32 * 16).from_address(ctypes.addressof(self._alloc_args))
        self._realloc = self._raw("cabi_realloc", 4, self._alloc_args)
        self._alloc_i32[8] = 1

    def memory_bytes(self) -> int:
        return int(ffi.wasmtime_memory_data_size(self._context, self._memory_raw))

    def _raw(self, name: str, n: int, slots: Any = None) -> Callable[[], None]:
        """A caller of export `name` on the `n` values already in `slots` (`self._args` unless
        given); its results replace them."""
        func = self._exports[name] if self.has(name) else None
        if not isinstance(func, wasmtime.Func):
            raise RuntimeError(f"core.wasm has no function {name!r}: rebuild it with scripts/build-python.sh")
        args = self._args_at if slots is None else ctypes.addressof(slots)
        at, trap = ctypes.addressof(func._func), self._trap
        keep = func  # the `wasmtime_func_t` lives in it
        # The slots hold at least one value: a function of no parameters may have a result.
        void, size = ctypes.c_void_p, ctypes.c_size_t
        call = functools.partial(
            _call_unchecked, void(self._context_at), void(at), void(args), size(max(n, 1)), void(self._trap_at)
        )

        def run() -> None:
            error = call()
            if error:
                raise wasmtime.WasmtimeError._from_ptr(ctypes.cast(error, POINTER(ffi.wasmtime_error_t)))
            if trap.value:
                caught = wasmtime.Trap._from_ptr(ctypes.cast(trap.value, POINTER(ffi.wasm_trap_t)))
                trap.value = None
                raise caught

        run.keep = keep  # type: ignore[attr-defined]
        return run

    def _text(self, data: bytes) -> int:
        """`data` copied into memory the core allocated (the callee owns it): its address."""
        n = len(data)
        if n == 0:
            return 1
        i32 = self._alloc_i32
        i32[0] = 0  # the result's slot: the old address (none)
        i32[12] = n  # the old size, 0, and the alignment, 1, stay in theirs
        self._realloc()
        ptr = i32[0] & 0xFFFFFFFF
        self._bytes[ptr : ptr + n] = data
        return ptr

    def has(self, name: str) -> bool:
        try:
            self._exports[name]
        except KeyError:
            return False
        return True

    def function(self, name: str, verdict: bool = False) -> Callable[..., Any]:
        """A caller of export `name` (`interface#name` for an interface's), taking Python
        values: `str` (a `string`, encoded as UTF-8: a str holding lone surrogates raises
        UnicodeEncodeError before the core runs, as wasmtime-py's lowering does), `bytes` (a
        `list<u8>`), `int` (a `u32`, or the case of a variant, before its string) and `Handle`
        (a resource, `self` of a method). The result is decided by the export's core type: a
        string reply (freed by its post-return), a resource (constructors and statics), a `u64`,
        a `bool`, or nothing; for a `verdict` function (`result<u32, string>`), the verdict as an
        int, or the error's string (freed by the post-return: a verdict holds nothing to free, so
        it skips that call)."""
        func = self._exports[name] if self.has(name) else None
        if not isinstance(func, wasmtime.Func):
            raise RuntimeError(f"core.wasm has no function {name!r}: rebuild it with scripts/build-python.sh")
        ty = func.type(self.store)
        results = [str(r) for r in ty.results]
        # The unchecked entry point trusts the caller with the arguments' number and types:
        # every call is checked against the export's type here, once.
        arity = len(ty.params)
        run = self._raw(name, arity)
        post = self._raw("cabi_post_" + name, 1) if self.has("cabi_post_" + name) else None
        makes = "[constructor]" in name or "[static]" in name
        dtor = None
        if makes:
            interface, _, member = name.partition("#")
            resource = member.split("]", 1)[1].split(".", 1)[0]
            dtor_run = self._raw(f"{interface}#[dtor]{resource}", 1)

            def dtor(rep: int) -> None:
                self._i32[0] = rep
                dtor_run()

        i32, i64, words, view = self._i32, self._i64, self._words, self._bytes
        copy_in = self._text

        # What the result is, decided once: nothing, a u64, a resource, a bool or a string.
        returns = "none" if not results else "u64" if results[0] == "i64" else "resource" if makes else "bool" if post is None else "string"
        string = returns == "string"
        if verdict and not string:
            raise RuntimeError(f"core.wasm's {name!r} is no verdict function: rebuild it with scripts/build-python.sh")

        def call(_store: Any, *params: Any) -> Any:
            # Every text is encoded before any is copied in: a str the core cannot take (lone
            # surrogates) raises before the core allocated anything.
            n = 0  # the slot's index times 4 (its first 32-bit integer)
            for value in [p.encode("utf-8") if type(p) is str else p for p in params]:
                kind = type(value)
                if kind is bytes:
                    i32[n] = copy_in(value)
                    i32[n + 4] = len(value)
                    n += 8
                elif kind is Handle:
                    if value._dtor is None:
                        raise wasmtime.WasmtimeError("the resource was dropped")
                    i32[n] = value.rep
                    n += 4
                elif kind is int:
                    i32[n] = value
                    n += 4
                else:
                    raise TypeError(f"no canonical lowering for {kind.__name__}")
            if n != arity * 4:
                raise TypeError(f"{name} takes {arity} core arguments, given {n // 4}")
            run()
            if string:
                retptr = i32[0] & 0xFFFFFFFF
                word = retptr >> 2
                if verdict:
                    # The result's case (a byte), then at 4 its u32, or the error's string.
                    if not view[retptr]:
                        return words[word + 1]
                    word += 1
                at = words[word]
                text = str(view[at : at + words[word + 1]], "utf-8")
                i32[0] = retptr
                post()  # type: ignore[misc]
                return text
            if returns == "none":
                return None
            if returns == "u64":
                return i64[0] & 0xFFFFFFFFFFFFFFFF
            if returns == "resource":
                return Handle(self._made.pop(i32[0]), dtor)  # type: ignore[arg-type]
            return i32[0] != 0

        return call
