"""Compiled tools: what `define_tool` returns.

A `Tool` is the definition as plain, frozen data (a `dict` whose nested dicts and lists are
frozen too: equal to, and written like, the plain dict; `json.dumps`, `dict(tool)`,
`copy.deepcopy` and pickling give plain data) holding the core's `compiled-tool` resource: its
compiled input schema stays in the instance of the thread that defined it. `validate_tool_input*`
given that very object on that thread validate through the resource, so the definition is
neither written nor read again. Anything else (a plain dict, a copy, another thread, an
instance that was replaced) takes the plain path, where the core reads the tool again.

`close()` (or leaving `with tool:`) releases the compiled schema at once; validating with the
tool afterwards is the core's `TOOL_HANDLE_FREED`. The resource itself is dropped when the object
is garbage-collected (queued, and dropped by the next resource call on its thread, as for
assemblers: a finalizer may run on any thread and must not touch the store).
"""

from __future__ import annotations

import threading
from typing import Any

from . import _host_text
from ._objects import Handle


def _refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError("a defined tool is frozen: copy it (copy.deepcopy, json round trip) to change it")


def _thaw(value: Any) -> Any:
    """Plain dicts and lists (iterative: a definition may be nested up to the ceiling)."""
    t = type(value)
    if t is not FrozenDict and t is not FrozenList and t is not Tool and t is not CompiledRegistry:
        return value
    root: Any = {} if t is not FrozenList else []
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if type(target) is dict else enumerate(source)
        for key, item in items:
            ti = type(item)
            if ti is FrozenDict or ti is FrozenList:
                copy: Any = {} if ti is FrozenDict else []
                stack.append((item, copy))
                item = copy
            if type(target) is dict:
                target[key] = item
            else:
                target.append(item)
    return root


class FrozenList(list[Any]):
    """A list of a defined tool: read-only, equal to the plain list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> Any:
        return (list, (_thaw(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: Any) -> Any:
        return _thaw(self)


class FrozenDict(dict[str, Any]):
    """A dict of a defined tool: read-only, equal to the plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> Any:
        return (dict, (_thaw(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: Any) -> Any:
        return _thaw(self)


def _frozen(value: Any) -> Any:
    """The frozen form of a reply's plain value (iterative)."""
    if type(value) is dict:
        root: Any = FrozenDict()
    elif type(value) is list:
        root = FrozenList()
    else:
        return value
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        is_dict = type(source) is dict
        items = source.items() if is_dict else enumerate(source)
        for key, item in items:
            t = type(item)
            if t is dict or t is list:
                copy: Any = FrozenDict() if t is dict else FrozenList()
                stack.append((item, copy))
                item = copy
            if is_dict:
                dict.__setitem__(target, key, item)
            else:
                list.append(target, item)
    return root


class _Compiled(FrozenDict, Handle):
    """Frozen plain data holding a resource of the core's `tools` interface."""

    __slots__ = ("_instance", "_resource", "_thread", "_finalizer", "__weakref__")

    @classmethod
    def _made(cls, value: dict[str, Any], instance: Any, resource: Any) -> Any:
        made = cls()
        for key, item in _frozen(value).items():
            dict.__setitem__(made, key, item)
        made._bind(instance, resource)
        return made

    def _handle(self, current: Any) -> Any:
        """The resource when this thread's instance (`current`) holds it, else None."""
        if self._instance is not current or threading.get_ident() != self._thread or self._finalizer is None:
            return None
        return self._resource


class Tool(_Compiled):
    """A defined tool: its definition as frozen plain data, and its compiled schema in the core.

    Use it as a dict (`tool["name"]`, `json.dumps(tool)`, in `create_registry([tool])`); pass it
    to `validate_tool_input*` to validate without sending the definition again. `close()` or
    `with define_tool(...) as tool:` frees the compiled schema now; garbage collection does too."""

    __slots__ = ("_released", "_done")
    _kind = "compiled-tool"
    _released: bool  # close() was called
    _done: bool  # the core released the compiled schema

    @classmethod
    def _made(cls, value: dict[str, Any], instance: Any, resource: Any) -> "Tool":
        tool: Tool = super()._made(value, instance, resource)
        tool._released = tool._done = False
        return tool

    def _handle(self, current: Any) -> Any:
        """The resource when this thread's instance (`current`) holds it, else None."""
        if self._instance is not current or threading.get_ident() != self._thread or self._finalizer is None:
            return None
        if self._released and not self._done:
            # Closed from another thread: released here, on the store's own thread.
            self._done = True
            self._instance.resource_call("compiled-tool", "release", self._resource)
        return self._resource

    def close(self) -> None:
        """Frees the compiled schema in the core now (idempotent). The definition stays readable;
        validating with this object afterwards raises ContractError TOOL_HANDLE_FREED."""
        if self._released:
            return
        self._released = True
        if threading.get_ident() == self._thread:
            self._done = True
            self._instance.resource_call("compiled-tool", "release", self._resource)
            # The finalizer stays: it drops the (now empty) resource with the object.


class CompiledRegistry(_Compiled):
    """What `create_registry` returns: the registry `{"tools": [...]}` as frozen plain data, and
    the core's compiled registry (names, definitions, compiled input schemas): `check_tool_call`,
    the projections and `catalog` given this very object on its thread read none of it again."""

    __slots__ = ()
    _kind = "compiled-registry"


def registry_handle(registry: Any, current: Any) -> Any:
    """The compiled-registry resource of a `CompiledRegistry` this thread's instance holds."""
    if type(registry) is not CompiledRegistry:
        return None
    return registry._handle(current)


_host_text._FROZEN.update({FrozenDict: dict, FrozenList: list, Tool: dict, CompiledRegistry: dict})
