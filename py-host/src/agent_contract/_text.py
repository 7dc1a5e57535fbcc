"""Text arguments (JSON text, SSE, session files): the caller's str or bytes-like taken as an
immutable snapshot, cut to a stand-in when it is over the size limit, and the one routine that
carries it into the core.

Nothing here runs the caller's code: types are exact or checked with `issubclass` on the real
type (never `isinstance`, which believes a `__class__` property), a str subclass is copied with
`str` methods, and bytes-likes are read through the buffer protocol. What still fails (a
released memoryview) makes the argument "not text", whose verdict is the core's.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Optional, TypeVar, Union

from . import _runtime

Snapshot = Union[str, bytes]
T = TypeVar("T")

_BYTES_LIKE: Final = (bytes, bytearray, memoryview)


def snapshot(text: Any, keep: Optional[int] = None) -> Optional[Snapshot]:
    """`text` as an exact str or bytes (None when it is neither, or cannot be read). With
    `keep`, text longer than `keep` (characters of a str, bytes of a bytes-like) is cut to its
    first `keep + 1`, without copying the rest: the caller then knows it is over the limit."""
    t = type(text)
    try:
        if t is str or issubclass(t, str):
            if keep is not None and str.__len__(text) > keep:
                return str.__getitem__(text, slice(0, keep + 1))  # an exact str
            return text if t is str else str.__str__(text)  # an exact copy, whatever a subclass overrides
        if t is bytes and keep is None:
            return text
        if issubclass(t, _BYTES_LIKE):
            with memoryview(text) as view:
                if keep is not None and view.nbytes > keep and view.c_contiguous:
                    with view.cast("B") as flat:
                        return flat[: keep + 1].tobytes()
                return view.tobytes()
    except Exception:
        return None
    return None


def is_text(value: Any) -> bool:
    return issubclass(type(value), (str, *_BYTES_LIKE))


def limit_options(options: Any) -> tuple[Optional[int], Optional[int], bool]:
    """(maxDepth, maxBytes) as the options give them, to size the translation (None where absent
    or not a count within the core's ceilings), and whether `maxBytes` is given at all. Whether
    an option is valid is the core's verdict: it reads the options first and rejects them, so
    this never decides anything. Reads an exact dict item by item (`options.get(name)` would run
    the `__eq__` of a key of the same hash) and never raises (another thread may change it)."""
    found: dict[str, Any] = {}
    if type(options) is dict:
        try:
            for key, v in options.items():
                if type(key) is str and (key == "maxDepth" or key == "maxBytes"):
                    found[key] = v
        except Exception:
            return None, None, False
    n = _numbers or numbers()

    def count(name: str, ceiling: int) -> Optional[int]:
        v = found.get(name)
        if type(v) is float and v.is_integer():
            v = int(v)
        return v if type(v) is int and 1 <= v <= ceiling else None

    return count("maxDepth", n[2]), count("maxBytes", n[3]), "maxBytes" in found


# The core's default maxDepth and maxBytes and their ceilings, read once from `describe()`.
_numbers: list[int] = []


def numbers() -> list[int]:
    """[default maxDepth, default maxBytes, maxDepth ceiling, maxBytes ceiling], the core's."""
    if not _numbers:
        d = _runtime.described()
        _numbers.extend((d["limits"]["maxDepth"], d["limits"]["maxBytes"], d["ceilings"]["maxDepth"], d["ceilings"]["maxBytes"]))
    return _numbers


def limits_of(options: Any) -> tuple[int, int]:
    """(maxDepth, maxBytes) to write a value with: the options', else the core's defaults."""
    n = _numbers or numbers()
    if options is None:
        return n[0], n[1]
    depth, size, _ = limit_options(options)
    return depth or n[0], size or n[1]


def max_text_bytes(options: Any) -> int:
    """The `maxBytes` the core will apply to a text, to cut it before it is copied: the
    option's value, the default when it is absent, the ceiling when it is invalid (the core then
    rejects the options, which it reads first)."""
    n = _numbers or numbers()
    if options is None:
        return n[1]
    _, size, given = limit_options(options)
    return size if size is not None else n[3] if given else n[1]


def crosses_as_is(text: Any, options: Any) -> bool:
    """Whether `text` is an exact str short enough to be under the default `maxBytes` whatever
    its characters (4 UTF-8 bytes at most each), given with no options: it then crosses as it
    is, as `cross` would send it, with no snapshot or stand-in."""
    return options is None and type(text) is str and len(text) <= (_numbers or numbers())[1] >> 2


def stand_in(text: Snapshot, max_bytes: int) -> Snapshot:
    """For text over `max_bytes` UTF-8 bytes, its first `max_bytes + 1` bytes: the core checks
    the size before anything else, so it reports INPUT_TOO_LARGE at "" with the position of byte
    `max_bytes`, exactly as for the whole text, while only the stand-in is encoded and copied.
    The text itself when it fits (a str of at most `max_bytes` characters may still be over in
    bytes: the core then sees all of it, at most 4 bytes per character)."""
    if len(text) <= max_bytes:
        return text
    if type(text) is str:
        return text[: max_bytes + 1].encode("utf-8", "surrogatepass")[: max_bytes + 1]
    return text[: max_bytes + 1]


STR, CARRIED = 0, 1  # the cases of the component's `text` variant


def cross(call: Callable[[int, str], T], text: Snapshot) -> T:
    """The one way text enters the core, as the component's `text` variant (its case, then its
    string): `call(STR, text)` when the text is valid Unicode (valid UTF-8 bytes are decoded:
    the core receives the very same bytes), else `call(CARRIED, ...)` with its (WTF-8) bytes
    carried one per code point (U+0000..U+00FF), which the binding turns back into the exact
    bytes, so the core reports the exact code and byte position either way, in one copy."""
    if type(text) is str:
        try:
            return call(STR, text)
        except UnicodeEncodeError:
            # Lone surrogates: not a WIT string (refused before the core runs). Asking the
            # encoder first spares valid text a second scan.
            data = text.encode("utf-8", "surrogatepass")
    else:
        try:
            decoded = text.decode("utf-8")
        except UnicodeDecodeError:
            data = text
        else:
            return call(STR, decoded)
    return call(CARRIED, data.decode("latin-1"))
