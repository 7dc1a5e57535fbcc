"""Hostile Python objects: values whose dunder methods, properties or metaclass raise, or that
claim a type they are not. The fuzzer (hostile_fuzz.py) draws from them and the hostile-host
tests (py-host/tests/test_hostile_host.py) use them by name."""

from __future__ import annotations

from typing import Any


class Boom(Exception):
    """What our hostile objects raise."""


# --- hostile objects ---------------------------------------------------------------------


class ClaimsStr:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str


class ClaimsBytes:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return bytes


class ClaimsDict:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return dict

    def items(self) -> Any:
        raise Boom


class HostileStr(str):
    def __str__(self) -> str:
        raise Boom

    def __len__(self) -> int:
        raise Boom

    def __iter__(self) -> Any:
        raise Boom

    def __eq__(self, other: object) -> bool:
        raise Boom

    def __hash__(self) -> int:
        raise Boom

    def encode(self, *a: Any, **k: Any) -> bytes:  # type: ignore[override]
        raise Boom

    def endswith(self, *a: Any) -> bool:  # type: ignore[override]
        raise Boom

    def __getitem__(self, key: Any) -> str:  # type: ignore[override]
        raise Boom


class HostileBytes(bytes):
    def __bytes__(self) -> bytes:
        raise Boom

    def __len__(self) -> int:
        raise Boom

    def decode(self, *a: Any, **k: Any) -> str:  # type: ignore[override]
        raise Boom

    def __getitem__(self, key: Any) -> Any:
        raise Boom


class HostileBytearray(bytearray):
    def __len__(self) -> int:
        raise Boom

    def __bytes__(self) -> bytes:
        raise Boom


class HostileDict(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        raise Boom

    def keys(self) -> Any:
        raise Boom

    def __iter__(self) -> Any:
        raise Boom

    def __len__(self) -> int:
        raise Boom

    def get(self, *a: Any) -> Any:
        raise Boom

    def __getitem__(self, key: Any) -> Any:
        raise Boom


class HostileList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise Boom

    def __len__(self) -> int:
        raise Boom

    def __getitem__(self, key: Any) -> Any:
        raise Boom


class HostileInt(int):
    def __repr__(self) -> str:
        raise Boom

    def __index__(self) -> int:
        raise Boom

    def __eq__(self, other: object) -> bool:
        raise Boom

    def __hash__(self) -> int:
        return 1


class HostileFloat(float):
    def __repr__(self) -> str:
        raise Boom

    def __float__(self) -> float:
        raise Boom

    def is_integer(self) -> bool:
        raise Boom


class NamelessMeta(type):
    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise Boom


class Nameless(metaclass=NamelessMeta):
    pass


class BadKey:
    """A dict key whose comparisons and hash raise after the dict is built."""

    armed = False

    def __init__(self, mimic: str) -> None:
        self.mimic = mimic

    def __hash__(self) -> int:
        if BadKey.armed:
            raise Boom
        return hash(self.mimic)

    def __eq__(self, other: object) -> bool:
        if BadKey.armed:
            raise Boom
        return self is other


def released() -> memoryview:
    view = memoryview(b'{"type": "finish", "summary": "s"}')
    view.release()
    return view
