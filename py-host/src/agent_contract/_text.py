"""Text arguments (JSON text, SSE): the caller's str or bytes-like taken as an immutable snapshot,
cut to a stand-in when it is over the size limit, and carried into the core in one string.

Nothing here runs the caller's code: types are exact or checked with `issubclass` on the real
type (never `isinstance`, which believes a `__class__` property), a str subclass is copied with
`str` methods, and bytes-likes are read through the buffer protocol. What still fails (a
released memoryview) makes the argument "not text", whose verdict is the core's.
"""

from __future__ import annotations

from typing import Any, Final, Optional, Union

from ._host_text import DEFAULT_MAX_BYTES, MAX_BYTES_CEILING

Snapshot = Union[str, bytes]

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


def max_text_bytes(options: Any) -> int:
    """The `maxBytes` the core will apply to a text, to cut it before it is copied: the
    option's value, the default when it is absent, the ceiling when it is invalid (the core then
    rejects the options, which it reads first). Never raises."""
    if options is None:
        return DEFAULT_MAX_BYTES
    from ._host_text import limit_options

    given = limit_options(options)[1]
    if given is not None:
        return given
    if type(options) is dict and any(type(k) is str and k == "maxBytes" for k in list(options)):
        return MAX_BYTES_CEILING
    return DEFAULT_MAX_BYTES


def stand_in(text: Snapshot, max_bytes: int) -> Optional[bytes]:
    """For text over `max_bytes` UTF-8 bytes, its first `max_bytes + 1` bytes: the core checks
    the size before anything else, so it reports INPUT_TOO_LARGE at "" with the position of byte
    `max_bytes`, exactly as for the whole text, while only the stand-in is encoded and copied.
    None when the text fits (a str of at most `max_bytes` characters may still be over in
    bytes: the core then sees all of it, at most 4 bytes per character)."""
    if type(text) is str:
        if len(text) <= max_bytes:
            return None
        return text[: max_bytes + 1].encode("utf-8", "surrogatepass")[: max_bytes + 1]
    if len(text) <= max_bytes:
        return None
    return text[: max_bytes + 1]


def carried(data: bytes) -> str:
    """Bytes that are not valid UTF-8, carried in a WIT string one byte per code point
    (U+0000..U+00FF): wasmtime-py lowers a string in one copy but a `list<u8>` one element at a
    time. The binding (`src/bindings/component.rs`) turns it back into the exact bytes."""
    return data.decode("latin-1")


def wtf8(text: str) -> bytes:
    """A str holding lone surrogates, as the WTF-8 bytes the core reads them from."""
    return text.encode("utf-8", "surrogatepass")
