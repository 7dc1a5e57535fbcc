"""Writes a Python value as *host text* (see wit/agent-contract.wit and src/json.rs Mode::Host).

This is translation only: every value gets a faithful token and the core decides what is
valid. Exact types only, so a subclass never passes for its base (a dict subclass may hide
keys or override lookups the core would not see).
"""

from __future__ import annotations

import re
from json.encoder import encode_basestring  # the C version: non-ASCII left as is
from typing import Any, Final

DEFAULT_MAX_DEPTH: Final = 128
MAX_DEPTH_CEILING: Final = 512
DEFAULT_MAX_BYTES: Final = 4 * 1024 * 1024
MAX_BYTES_CEILING: Final = 64 * 1024 * 1024  # src/limits.rs; tests/test_translation.py checks they agree
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


def _kind(t: type) -> str:
    # `!name` for a value with no JSON form; the core only uses the name in messages.
    return "!" + (_NOT_NAME.sub("_", t.__name__)[:64] or "_")


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


def limits_of(options: Any) -> tuple[int, int]:
    """(maxDepth, maxBytes) to size the translation. An invalid option falls back to the
    default here; the core rejects it with OPTION_INVALID, so this never decides anything."""

    def count(name: str, default: int, ceiling: int) -> int:
        v = options.get(name) if type(options) is dict else None
        if type(v) is float and v.is_integer():
            v = int(v)
        return v if type(v) is int and 1 <= v <= ceiling else default

    return (
        count("maxDepth", DEFAULT_MAX_DEPTH, MAX_DEPTH_CEILING),
        count("maxBytes", DEFAULT_MAX_BYTES, MAX_BYTES_CEILING),
    )


def max_chars(max_bytes: int) -> int:
    """Bound on the host text of one value: it bounds the work on huge or self-referencing
    values (JS reads in place and never has to copy)."""
    return 8 * max_bytes + (1 << 20)


def write(value: Any, max_depth: int, limit: int, root_depth: int = 1) -> str:
    """Host text for `value`. A container at depth > max_depth (the root container is at
    `root_depth`) is written as `!![` / `!!{` without descending, so cycles and deep values
    stop; text longer than `limit` characters becomes `!!large`. Iterative: no recursion."""
    out: list[str] = []
    emit = out.append
    size = 0
    # Open containers, innermost last: (iterator over its items, is it a dict). The bottom frame
    # yields the root value.
    frames: list[tuple[Any, bool]] = [(iter((value,)), False)]
    while frames:
        items, is_dict = frames[-1]
        for item in items:
            if is_dict:
                key, item = item
                piece = encode_basestring(key)
                emit(piece)
                emit(":")
                size += len(piece) + 1
            t = type(item)
            if t is str:
                piece = encode_basestring(item)
            elif t is dict or t is list:
                if t is dict and not _STR_ONLY.issuperset(map(type, item)):
                    piece = "!dict_with_non_string_keys"
                elif len(frames) - 1 + root_depth > max_depth:
                    piece = "!!{" if t is dict else "!!["
                else:
                    emit("{" if t is dict else "[")
                    size += 1
                    frames.append((iter(item.items()) if t is dict else iter(item), t is dict))
                    break  # descend; this frame's iterator resumes after the child closes
            elif item is None:
                piece = "null"
            elif t is bool:
                piece = "true" if item else "false"
            elif t is int:
                piece = _int(item)
            elif t is float:
                piece = _float(item)
            elif item is UNDEFINED:
                piece = "undefined"
            else:
                piece = _kind(t)
            emit(piece)
            emit(",")
            size += len(piece) + 1
            if size > limit:
                return LARGE
        else:
            frames.pop()
            if frames:
                # Close the container: its last element left a separator to overwrite.
                closer = "}" if is_dict else "]"
                if out[-1] == ",":
                    out[-1] = closer
                else:
                    emit(closer)
                emit(",")
                size += 2
    if out and out[-1] == ",":
        out.pop()
    text = "".join(out)
    if has_surrogates(text):
        text = _SURROGATE.sub(_escape_surrogate, text)
    return text
