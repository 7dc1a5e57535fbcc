"""What ships is what users call: a wheel built from py-host (`pip wheel`, from a copy of the
package without its tests) carries a component that exports exactly what the package calls, and
nothing only tests use.

- allow: the component's interfaces are exactly the four the package opens, with the resources
  `_runtime` knows; and each function, interface function and resource member is one the
  package's modules call by name, so a new export only tests use fails here under any name;
- deny: no export of the test build's extras (`testing_core.EXTRA`: the full-reply twins of the
  verdict text functions and `echo`) nor the old conformance hook, anywhere in it, and no module
  of the wheel names one. Each denied name is checked to be real, an export of the test build
  (target/testing/core.wasm, scripts/build-testing.sh), so a renamed hook cannot slip past."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import wasmtime
from wasmtime import component as wc

import agent_contract as ac
from agent_contract import _runtime
from testing_core import EXTRA, TESTING, WASM

PY_HOST = Path(__file__).resolve().parents[1]
# The conformance hook the component once exported (the suite now runs through the public API).
REMOVED = ("schema-suite-check",)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    assert (PY_HOST / "src/agent_contract/core.wasm").is_file(), "run scripts/build-python.sh first"
    work = tmp_path_factory.mktemp("wheel")
    source = work / "py-host"
    shutil.copytree(
        PY_HOST, source,
        ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "tests"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
         "-w", str(work / "dist"), str(source)],
        check=True, capture_output=True, timeout=600,
    )
    (built,) = (work / "dist").glob("*.whl")
    with zipfile.ZipFile(built) as z:
        return {name: z.read(name) for name in z.namelist()}


def _exports(wasm: bytes) -> tuple[set[str], dict[str, set[str]]]:
    """The component's own exports and, per interface, the names it exports."""
    engine = wasmtime.Engine()
    items = wc.Component(engine, wasm).type.exports(engine)
    functions, interfaces = set(), {}
    for name, item in items.items():
        if isinstance(item.ty, wc.ComponentInstanceType):
            interfaces[name] = set(item.ty.exports(engine))
        else:
            functions.add(name)
    return functions, interfaces


def _resource_names(resources: dict[str, Any], statics: dict[str, Any]) -> set[str]:
    names = set()
    for resource, methods in resources.items():
        names |= {resource, f"[constructor]{resource}"} | {f"[method]{resource}.{m}" for m in methods}
        names |= {f"[static]{resource}.{s}" for s in statics.get(resource, ())}
    return names


def test_the_denied_names_are_the_test_builds() -> None:
    _, interfaces = _exports(WASM.read_bytes())
    assert set(EXTRA) <= interfaces[TESTING], set(EXTRA) - interfaces[TESTING]


def test_the_wheels_component_exports_what_the_package_calls_and_nothing_else(wheel: dict[str, bytes]) -> None:
    functions, interfaces = _exports(wheel["agent_contract/core.wasm"])
    print(f"\nshipped component: {len(functions)} functions, interfaces {sorted((k, len(v)) for k, v in interfaces.items())}")
    everything = functions | {name for names in interfaces.values() for name in names}
    assert sorted(everything & (set(EXTRA) | set(REMOVED))) == []
    # The interfaces are the four the package opens, and their resources the ones it knows.
    assert set(interfaces) == {_runtime.ASSEMBLY, _runtime.ACP, _runtime.RPC, _runtime.TOOLS}
    for interface, names in interfaces.items():
        resources = {n for n in names if f"[constructor]{n}" in names}
        assert resources == {r for r, i in _runtime._INTERFACE_OF.items() if i == interface}, interface


def test_every_function_of_the_component_is_one_the_package_calls(wheel: dict[str, bytes]) -> None:
    functions, interfaces = _exports(wheel["agent_contract/core.wasm"])
    sources = {name: data.decode("utf-8") for name, data in wheel.items() if name.endswith(".py")}
    calls = "\n".join(sources.values())
    members = {n.split("]", 1)[-1].split(".")[-1] for names in interfaces.values() for n in names if n.startswith("[")}
    plain = {n for names in interfaces.values() for n in names if not n.startswith("[") and n not in _runtime._INTERFACE_OF}
    # The functions the package makes from the operation table call the row's export
    # (`agent_contract._made`).
    made = {
        row["python"].replace("_", "-")
        for row in _runtime.described()["operations"]
        if row["python"] in ac.__all__ and row["hosts"] != "js"
    }
    uncalled = [name for name in sorted(functions | plain | members) if f'"{name}"' not in calls and name not in made]
    assert uncalled == []


def test_no_module_of_the_wheel_names_a_test_hook(wheel: dict[str, bytes]) -> None:
    modules = {name: data.decode("utf-8") for name, data in wheel.items() if name.endswith(".py")}
    assert "agent_contract/__init__.py" in modules and "agent_contract/_runtime.py" in modules
    quoted = re.compile("|".join(re.escape(f'"{name}"') for name in EXTRA + REMOVED))
    for name, source in modules.items():
        assert quoted.search(source) is None, f"{name} names the test export {quoted.search(source)}"
        assert "full_reply" not in source, name
