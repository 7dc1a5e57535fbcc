"""The compile cache (`agent_contract._compile_cache`): a new process loads the compiled core
instead of compiling it, and every way the cache can be missing or broken still works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

# A fresh process: imports the package, makes its first call, reports what it saw.
_PROBE = """
import json, time
from agent_contract import _compile_cache, _runtime
import agent_contract as ac
start = time.perf_counter()
value = ac.parse_agent_action({"type": "finish", "summary": "done"})
first_call = time.perf_counter() - start
print(json.dumps({"first_call_ms": first_call * 1000, "value": value}))
"""


def _run(cache: Path | str) -> dict:
    env = dict(os.environ, AGENT_CONTRACT_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result: dict = json.loads(out.stdout)
    assert result["value"] == {"type": "finish", "summary": "done"}
    return result


def _artifacts(cache: Path) -> list[Path]:
    return sorted(cache.glob("core-*.cwasm"))


def _artifact_name() -> str:
    """The file name the package uses for the core it ships (its key)."""
    from agent_contract import _compile_cache, _core

    wasm = resources.files("agent_contract").joinpath("core.wasm").read_bytes()
    return f"core-{_compile_cache._key(_core.core_module(wasm))}.cwasm"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, float]:
    """One cold run (it compiles and stores): the artifact's bytes and the cold first call."""
    cache = tmp_path_factory.mktemp("cold")
    cold = _run(cache)
    (artifact,) = _artifacts(cache)
    assert not list(cache.glob(".core-*")), "no temporary file is left behind"
    return artifact.read_bytes(), cold["first_call_ms"]


def _seeded(directory: Path, artifact: bytes, name: str) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / name
    path.write_bytes(artifact)
    return path


def test_the_second_process_loads_the_compiled_core(tmp_path: Path, compiled: tuple[bytes, float]) -> None:
    artifact, cold = compiled
    path = _seeded(tmp_path, artifact, _artifact_name())
    stamp = path.stat().st_mtime_ns
    warm = min(_run(tmp_path)["first_call_ms"] for _ in range(3))
    assert path.stat().st_mtime_ns == stamp, "a valid artifact is read, not written again"
    assert path.read_bytes() == artifact
    # Compiling takes seconds; loading the artifact, milliseconds. The bound (warm
    # <= 100 ms) is measured by bench/first_call.py; a test on a shared machine asserts the
    # order of magnitude only (measured at load 8 on 2 cores: 6.2 s cold, 108 ms warm).
    assert warm * 10 < cold, (cold, warm)


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_a_corrupt_artifact_is_compiled_again_and_replaced(
    tmp_path: Path, compiled: tuple[bytes, float], damage: str
) -> None:
    artifact, _ = compiled
    name = _artifact_name()
    broken = {
        "truncate": artifact[: len(artifact) // 2],
        "flip": artifact[:-100] + bytes([artifact[-100] ^ 0xFF]) + artifact[-99:],
    }[damage]
    path = _seeded(tmp_path, broken, name)
    _run(tmp_path)
    assert path.read_bytes() == artifact, "the artifact is written again, whole"


def test_a_read_only_or_unusable_cache_still_works(tmp_path: Path, compiled: tuple[bytes, float]) -> None:
    read_only = tmp_path / "ro"
    _seeded(read_only, compiled[0], _artifact_name())
    read_only.chmod(0o500)
    try:
        _run(read_only)  # loads; nothing to write
    finally:
        read_only.chmod(0o700)
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory would be")
    _run(blocker / "cache")  # compiles; cannot store
    _run("")  # AGENT_CONTRACT_CACHE_DIR empty: no cache at all


def test_concurrent_first_runs_all_work(tmp_path: Path) -> None:
    env = dict(os.environ, AGENT_CONTRACT_CACHE_DIR=str(tmp_path))
    procs = [
        subprocess.Popen([sys.executable, "-c", _PROBE], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert json.loads(out)["value"] == {"type": "finish", "summary": "done"}
    assert len(_artifacts(tmp_path)) == 1
    assert not list(tmp_path.glob(".core-*"))


def test_the_key_changes_with_the_core_and_wasmtime() -> None:
    from agent_contract import _compile_cache

    wasm = b"\0asm\1\0\0\0"
    assert _compile_cache._key(wasm) != _compile_cache._key(wasm + b"\0")
    assert len(_compile_cache._key(wasm)) == 40
