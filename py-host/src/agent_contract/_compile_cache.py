"""The compiled core, cached on disk so a new process does not compile it again.

Compiling the core takes seconds; loading a compiled artifact takes milliseconds. The
artifact is kept in the user's cache directory under a key made of the wasm's hash, the
wasmtime version, the engine's configuration and the machine, so a rebuilt core or a wasmtime
upgrade compiles afresh.
Everything here may fail (no cache directory, a read-only one, a corrupt or truncated file,
another process writing at the same moment): every failure falls back to compiling, and the
cache is only ever written whole (a temporary file renamed into place).

A compiled artifact is machine code that wasmtime trusts; the file is therefore checked
against the SHA-256 it was stored with before wasmtime reads it (a torn or corrupt file is
recompiled, never loaded), and the directory is created private to the user. Someone who can
write to your cache directory can already run code as you.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import sys
import tempfile
from pathlib import Path

import wasmtime

_MAGIC = b"agent-contract compiled core\n"


def cache_dir() -> Path | None:
    """`AGENT_CONTRACT_CACHE_DIR` (empty: no cache), else the platform's user cache directory."""
    configured = os.environ.get("AGENT_CONTRACT_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        root = Path(base) if base else Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Caches"
    else:
        base = os.environ.get("XDG_CACHE_HOME")
        root = Path(base) if base else Path.home() / ".cache"
    return root / "agent-contract"


def _key(wasm: bytes) -> str:
    h = hashlib.sha256()
    h.update(wasm)
    # "fixed-memory": the engine's configuration (`_core.engine_config`), which wasmtime checks
    # an artifact against; one compiled under another is compiled afresh.
    for part in (importlib.metadata.version("wasmtime"), platform.machine(), sys.platform, "fixed-memory"):
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:40]


def _load(engine: wasmtime.Engine, path: Path) -> wasmtime.Module | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    if len(data) <= head or not data.startswith(_MAGIC):
        return None
    payload = data[head:]
    if hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]:
        return None
    try:
        return wasmtime.Module.deserialize(engine, payload)
    except Exception:  # noqa: BLE001 - an artifact from another engine build or CPU: compile
        return None


def _store(module: wasmtime.Module, directory: Path, path: Path) -> None:
    try:
        payload = module.serialize()
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".core-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, path)  # atomic: readers see the old file or the whole new one
        except BaseException:
            os.unlink(temporary)
            raise
    except Exception:  # noqa: BLE001 - a cache that cannot be written is no cache
        pass


def load_module(engine: wasmtime.Engine, wasm: bytes) -> wasmtime.Module:
    """The compiled core module: from the cache when a valid artifact is there, else compiled
    (and stored for the next process)."""
    directory = cache_dir()
    if directory is None:
        return wasmtime.Module(engine, wasm)
    path = directory / f"core-{_key(wasm)}.cwasm"
    module = _load(engine, path)
    if module is None:
        module = wasmtime.Module(engine, wasm)
        _store(module, directory, path)
    return module
