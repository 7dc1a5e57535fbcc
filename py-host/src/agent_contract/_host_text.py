"""Writes a Python value as *host text* (see wit/agent-contract.wit and src/json.rs Mode::Host).

This is translation only: every value gets a faithful token and the core decides what is
valid. Exact types only, so a subclass never passes for its base (a dict subclass may hide
keys or override lookups the core would not see).
"""

from __future__ import annotations

import re
from json.encoder import c_make_encoder, encode_basestring  # the C versions: non-ASCII left as is
from typing import Any, Final

from ._text import _numbers, numbers

LARGE: Final = "!!large"


class _Undefined:
    """JS `undefined`: a field that is present but holds no value."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __reduce__(self) -> str:
        return "UNDEFINED"  # pickles as the module attribute, so identity survives

    def __copy__(self) -> _Undefined:
        return self

    def __deepcopy__(self, memo: Any) -> _Undefined:
        return self


UNDEFINED: Final = _Undefined()

_STR_ONLY: Final = frozenset({str})
_NOT_NAME: Final = re.compile("[^0-9A-Za-z]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_INF: Final = float("inf")


def has_surrogates(text: str) -> bool:
    """True when `text` is not valid Unicode (holds surrogate code points)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def _escape_surrogate(match: re.Match[str]) -> str:
    # A Python str holds code points, so every surrogate in it is lone, even a high one followed
    # by a low one ('\ud83d\ude00' is not '😀'). Written as a *low* surrogate escape, which the
    # parser never pairs with anything; host mode turns the string into its ill-formed marker
    # (whose content no rule reads), and WIT strings must be valid Unicode anyway.
    return "\\u%04x" % (0xDC00 | (ord(match.group()) & 0x3FF))


def _int(n: int) -> str:
    try:
        return int.__repr__(n)
    except ValueError:
        # Over sys.get_int_max_str_digits() (4300 digits): far beyond the f64 range, where the
        # core reads any digit string as an infinite number. 1e999 reads exactly the same.
        return "1e999" if n > 0 else "-1e999"


def _float(x: float) -> str:
    if x != x:
        return "NaN"
    if x == _INF:
        return "Infinity"
    if x == -_INF:
        return "-Infinity"
    return float.__repr__(x)  # shortest round-trip form, valid JSON for finite numbers


def max_chars(max_bytes: int) -> int:
    """Bound on the host text of one value: it bounds the memory of huge values (JS reads in
    place and never has to copy). A string may take up to 6 characters per byte escaped."""
    return 8 * max_bytes + (1 << 20)


def max_nodes(max_bytes: int) -> int:
    """Bound on the values written for one value, a shared one counted each time it is written.
    Every value a rule reads costs the core at least one unit of `maxBytes`, so a value JS
    accepts with everything read has at most `max_bytes` of them; the 1 Mi more leave room for
    fields no rule reads (JS never touches those, Python must write them). Never more than the
    values the largest JSON text the core accepts can hold ("[0,0,...]" at the `maxBytes`
    ceiling): the core parses host text into values of ~80 bytes each in its 4 GiB memory, so
    host text may not hold more than text could, whatever the limits."""
    return min(max_bytes + (1 << 20), (_numbers or numbers())[3] // 2)


def __getattr__(name: str) -> int:
    # The core's limits by the names tests and the fuzzer use (`describe()`: no copy here).
    where = ["DEFAULT_MAX_DEPTH", "DEFAULT_MAX_BYTES", "MAX_DEPTH_CEILING", "MAX_BYTES_CEILING"]
    if name in where:
        return numbers()[where.index(name)]
    raise AttributeError(name)


# The name of a type as the type itself holds it: the descriptor of `type`, so a metaclass
# that overrides `__name__` (even with a property that raises) is not asked.
_type_name: Final = type.__dict__["__name__"].__get__


def _kind(t: type) -> str:
    # `!name` for a value with no JSON form; the core only uses the name in messages.
    return "!" + (_NOT_NAME.sub("_", _type_name(t))[:64] or "_")


class _Written:
    """A container already written, whose text a later reference at the same depth reuses
    instead of walking it again (see `write`). Keeps the container alive so that its id()
    cannot be reused during the write."""

    __slots__ = ("container", "start", "end", "depth", "height", "nodes", "units", "text")

    def __init__(
        self, container: Any, start: int, end: int, depth: int, height: int | None, nodes: int, units: int
    ) -> None:
        self.container = container
        self.start, self.end = start, end  # its text is out[start:end]
        self.depth = depth
        self.height = height  # None: it holds a marker, so its text holds at this depth only
        self.nodes = nodes
        self.units = units  # what the core charges to read it all (`_write`)
        self.text: str | None = None

    def fits(self, depth: int, max_depth: int) -> bool:
        if self.height is None:
            return depth == self.depth
        return depth + self.height <= max_depth


# Containers holding fewer values are walked again rather than remembered: walking them costs
# at most this many steps per reference, and most containers are small and referenced once.
_REUSED_FROM_NODES: Final = 16
_NO_REFERENCE: Final = 1 << 30
# Strings at least this long are remembered, so that one written again is charged as shared.
_SHARED_STRING_FROM: Final = 256

# The fields of a frame (an open container) in `_write`.
_ITEMS, _IS_DICT, _CONTAINER, _START, _NODES, _CLEAN, _HEIGHT, _SEPARATE, _REFERS, _DEPTH, _UNITS = range(11)


# The package's own frozen containers (a defined tool, `_tools.Tool`), filled in by `_tools`:
# their items are what they hold (no method of theirs runs when read), so they are written as
# the dict or list they are equal to.
_FROZEN: dict[type, type] = {}


# How an options argument is written. Every option is a scalar, and the core reads only the
# kind of a value that is not (`strict must be a boolean`) or the name of an unknown option, so
# containers inside an option's value are written as depth markers and the values written are
# few. Written like a value instead, a member of shared references (`a = [a0, a0]` nested) was
# expanded to ~2 Mi values, over a second, before the core saw its name. An option whose value
# is a container would need this deeper.
OPTIONS_MAX_DEPTH: Final = 2
OPTIONS_MAX_VALUES: Final = 1 << 17


def write(
    value: Any, max_depth: int, max_bytes: int, root_depth: int = 1, copies: int = 1, max_values: int | None = None
) -> str:
    """Host text for `value`, judged by the core against `max_bytes` / `max_depth` (`copies`
    values each with that budget for a batch). Never runs the caller's code and never raises.

    - A container deeper than `max_depth` (the root container is at `root_depth`) is written as
      `!![` / `!!{` without descending; one that is its own ancestor on the path from the root
      as `!!cycle` (checked first, as JS does): the core reports each only where a rule reads it.
    - Work is bounded by the budget, not by the object graph: past `max_nodes` values or
      `max_chars` characters (a shared container counts each time it is written) the text is
      `!!large` (INPUT_TOO_LARGE). What is written again, a shared container or a long string
      met before, is also charged as the core charges reading it (a unit per value, a
      string's and a key's length), within `copies` × `max_bytes` (at most the ceiling) and
      1 Mi: a value the core accepts read whole fits, and sharing cannot expand a small value
      into text many times the limit (JS reads a shared value in place; Python writes it out).
    - A container met again is not walked again: its text is reused when it cannot differ. That
      is when it held no marker and its height still fits under `max_depth`, or, when it held
      depth or cycle markers, at the same depth and with every `!!cycle` inside pointing into
      the container itself (one pointing above it depends on the path). So a shared reference
      costs O(1) however large its subtree (`[[0] * 65536] * 65536`, `a = [a0, a0]` 64 times).
    `max_values` replaces `max_nodes(max_bytes)` (options: `OPTIONS_MAX_VALUES`).
    Iterative: no recursion."""
    try:
        if root_depth < max_depth and max_values is None:
            shallow = _write_shallow(value)
            if shallow is not None:
                return shallow
        return _write(value, max_depth, max_bytes, root_depth, copies, max_values)
    except Exception:
        # Exact types only are walked, so nothing of the caller's runs here; what remains is
        # another thread changing a dict or list while it is read. The core reports it at the
        # root, as a value that has no JSON form.
        return "!value_changed_while_read"


# The most text `_write_shallow` writes before it leaves a value to `_write`.
_SHALLOW_CHARS: Final = 1 << 18


# The scalars `_write_shallow` takes besides str; an int only within `_INT_BOUND`.
_SHALLOW_SCALARS: Final = frozenset({int, float, bool, type(None)})
_INT_BOUND: Final = 10**20
# CPython's C encoder (None where there is none): the JSON of exact dicts, lists, str, int,
# float, bool and None, which is their host text. No cycle check (none can occur in a shallow
# value), no `default` (every type is checked first), NaN and infinities refused (their host
# text is not JSON).
_encode: Final = c_make_encoder and c_make_encoder(None, None, encode_basestring, None, ":", ",", False, False, False)


def _write_shallow(value: Any) -> str | None:
    """`_write`'s text for the common small value, without its bookkeeping (a tool input, an
    action, a batch of them): a dict or list whose items are scalars or dicts or lists of
    scalars, no string or key long enough to be remembered, no NaN, infinity or surrogate, at
    most `_SHALLOW_CHARS` characters. The types are checked here and the text written by the C
    encoder (a batch of small dicts in about two thirds of the time Python took to write it).
    None for anything else, which `_write` then writes. For these the text is `_write`'s:
    no cycle can occur (an inner container holds no container), no budget can run out (fewer
    values than any limit allows), a container met twice is written twice as `_write` writes it
    (its reuse gives the same text), and the caller checked that the inner containers are
    within `max_depth`. The text is strict JSON: the value's text twin."""
    try:
        return _shallow_json(value)
    except Exception:  # another thread changing a dict while it is read: `_write` reports it
        return None


def _shallow_json(value: Any) -> str | None:
    """`_write_shallow` itself, which may raise while a dict changes size. The checks of an
    item and of an inner container's item are written out twice: one loop over a worklist of
    (items, depth) was 15-30% slower (an action 2.9 -> 3.5 µs)."""
    t = type(value)
    if _encode is None or (t is not dict and t is not list):
        return None
    # Characters, counted before they are written (the text itself is measured after, escapes
    # included): a value at least two with its separator, a string its length and quotes, a
    # member's name its length, quotes and colon.
    left = _SHALLOW_CHARS - 2 * len(value)
    if t is dict:
        items = value.values()
        for key in value:
            if type(key) is not str or len(key) >= _SHARED_STRING_FROM:
                return None
            left -= len(key) + 3
    else:
        items = value
    scalars, long, bound = _SHALLOW_SCALARS, _SHARED_STRING_FROM, _INT_BOUND
    for item in items:
        u = type(item)
        if u is str:
            n = len(item)
            if n >= long:
                return None
            left -= n + 2
        elif u in scalars:
            if u is int and not -bound < item < bound:
                return None
        elif (u is dict or u is list) and item is not value:
            left -= 2 * len(item)
            for sub in item.values() if u is dict else item:
                v = type(sub)
                if v is str:
                    n = len(sub)
                    if n >= long:
                        return None
                    left -= n + 2
                elif v in scalars:
                    if v is int and not -bound < sub < bound:
                        return None
                else:
                    return None
            if u is dict:
                for name in item:
                    if type(name) is not str or len(name) >= long:
                        return None
                    left -= len(name) + 3
        else:
            return None
        if left < 0:
            return None
    try:
        text: str = "".join(_encode(value, 0))
    except ValueError:  # NaN or an infinity: `_write` writes its token
        return None
    if len(text) > _SHALLOW_CHARS or not (text.isascii() or _SURROGATE.search(text) is None):
        return None
    return text


def _write(value: Any, max_depth: int, max_bytes: int, root_depth: int, copies: int, max_values: int | None) -> str:
    ceiling = (_numbers or numbers())[3]
    chars_left = min(copies * max_chars(max_bytes), max_chars(ceiling))
    nodes_left = min(copies * max_nodes(max_bytes), ceiling // 2) if max_values is None else max_values
    shared_left = min(copies * max_bytes, ceiling) + (1 << 20)
    units = 0  # charged so far, as the core charges reading the text's values
    out: list[str] = []
    emit = out.append
    written: dict[int, _Written] = {}
    strings: dict[int, str] = {}  # id of a long string written -> the string (kept alive)
    on_path: dict[int, int] = {}  # id of an open container -> its depth
    # Open containers, innermost last (fields: _ITEMS...): the iterator over its items, is it a
    # dict, the container, index in `out` of its opening bracket, nodes_left then, clean (no
    # marker inside), its height (tallest child's + 1, 0 for none), whether the next item needs
    # a separator, the smallest depth a `!!cycle` inside points at, its depth. The bottom frame
    # is a pseudo container yielding the root value.
    frames: list[list[Any]] = [[iter((value,)), False, None, 0, 0, True, 0, False, _NO_REFERENCE, root_depth - 1, 0]]
    while frames:
        frame = frames[-1]
        items, is_dict, need_separator = frame[_ITEMS], frame[_IS_DICT], frame[_SEPARATE]
        for item in items:
            if need_separator:
                emit(",")
                chars_left -= 1
            need_separator = True
            if is_dict:
                key, item = item
                piece = encode_basestring(key)
                emit(piece)
                emit(":")
                chars_left -= len(piece) + 1
                units += len(key)
            nodes_left -= 1
            units += 1
            t = type(item)
            if t is str:
                piece = encode_basestring(item)
                n = len(item)
                units += n
                if n >= _SHARED_STRING_FROM:
                    if strings.get(id(item)) is item:
                        shared_left -= n + 1
                        if shared_left < 0:
                            return LARGE
                    else:
                        strings[id(item)] = item
            elif item is None:
                piece = "null"
            elif t is bool:
                piece = "true" if item else "false"
            elif t is int:
                piece = _int(item)
            elif t is float:
                piece = _float(item)
            elif t is dict or t is list or t in _FROZEN:
                if t is not dict and t is not list:
                    # A defined tool's frozen containers (`_tools`): exactly what they hold.
                    t = _FROZEN[t]
                ident = id(item)
                depth = frame[_DEPTH] + 1
                done = written.get(ident)
                if ident in on_path:
                    piece = "!!cycle"
                    frame[_CLEAN] = False
                    if on_path[ident] < frame[_REFERS]:
                        frame[_REFERS] = on_path[ident]
                elif done is not None and done.fits(depth, max_depth):
                    if done.text is None:
                        done.text = "".join(out[done.start : done.end])
                    piece = done.text
                    nodes_left -= done.nodes
                    units += done.units - 1  # its root was charged above
                    shared_left -= done.units
                    if shared_left < 0:
                        return LARGE
                    if done.height is None:
                        frame[_CLEAN] = False
                    elif done.height + 1 > frame[_HEIGHT]:
                        frame[_HEIGHT] = done.height + 1
                elif t is dict and not _STR_ONLY.issuperset(map(type, item)):
                    piece = "!dict_with_non_string_keys"
                elif depth > max_depth:
                    piece = "!!{" if t is dict else "!!["
                    frame[_CLEAN] = False
                else:
                    frame[_SEPARATE] = True
                    items_of = iter(item.items()) if t is dict else iter(item)
                    frames.append([items_of, t is dict, item, len(out), nodes_left, True, 0, False, _NO_REFERENCE, depth, units])
                    on_path[ident] = depth
                    emit("{" if t is dict else "[")
                    chars_left -= 1
                    break  # descend; this frame's iterator resumes after the child closes
            elif item is UNDEFINED:
                piece = "undefined"
            else:
                piece = _kind(t)
            emit(piece)
            chars_left -= len(piece)
            if chars_left < 0 or nodes_left < 0:
                return LARGE
        else:
            frames.pop()
            if not frames:
                break
            emit("}" if is_dict else "]")
            chars_left -= 1
            if chars_left < 0:
                return LARGE
            container, depth = frame[_CONTAINER], frame[_DEPTH]
            del on_path[id(container)]
            parent = frames[-1]
            if frame[_HEIGHT] + 1 > parent[_HEIGHT]:
                parent[_HEIGHT] = frame[_HEIGHT] + 1
            if not frame[_CLEAN]:
                parent[_CLEAN] = False
            if frame[_REFERS] < parent[_REFERS]:
                parent[_REFERS] = frame[_REFERS]
            nodes = frame[_NODES] - nodes_left
            if nodes >= _REUSED_FROM_NODES and frame[_REFERS] >= depth:
                height = frame[_HEIGHT] if frame[_CLEAN] else None
                # Its units: its own value (charged before it opened) and everything inside.
                written[id(container)] = _Written(container, frame[_START], len(out), depth, height, nodes, units - frame[_UNITS] + 1)
    text = "".join(out)
    if has_surrogates(text):
        text = _SURROGATE.sub(_escape_surrogate, text)
    return text
