"""Build hooks: the package is not whole without `agent_contract/core.wasm`, the core compiled
to a WebAssembly component. It is built from the Rust sources, not kept in git, so a build from
a clean tree either builds it (`scripts/build-python.sh`, when this is a checkout of the
repository with cargo at hand) or stops with an error: never a wheel or sdist without the core.
The metadata is in pyproject.toml."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
CORE = HERE / "src" / "agent_contract" / "core.wasm"
BUILD_SCRIPT = HERE.parent / "scripts" / "build-python.sh"


def ensure_core() -> None:
    if CORE.is_file():
        return
    if BUILD_SCRIPT.is_file() and shutil.which("cargo"):
        print(f"building the core component: {BUILD_SCRIPT}")
        subprocess.run(["bash", str(BUILD_SCRIPT)], check=True, env=dict(os.environ))
        if CORE.is_file():
            return
    raise SystemExit(
        f"error: {CORE} is missing. It is the Rust core compiled to a WebAssembly component; "
        "build it from a checkout of the repository with scripts/build-python.sh (needs cargo), "
        "or install a built wheel."
    )


class BuildPyWithCore(build_py):
    def run(self) -> None:
        ensure_core()
        super().run()


class SdistWithCore(sdist):
    def run(self) -> None:
        ensure_core()
        super().run()


setup(cmdclass={"build_py": BuildPyWithCore, "sdist": SdistWithCore})
