"""`pip install py-host` into a fresh venv works, without the source tree; wheels and sdists
built from a fresh clone carry the core, and a build that cannot make the core stops.

Runs by default; set AGENT_CONTRACT_SKIP_PACKAGING=1 to skip it in quick local runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

PY_HOST = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.packaging,
    pytest.mark.skipif(os.environ.get("AGENT_CONTRACT_SKIP_PACKAGING") == "1", reason="AGENT_CONTRACT_SKIP_PACKAGING=1"),
]

SCRIPT = """
import agent_contract as ac, pathlib, sys
here = pathlib.Path(ac.__file__).parent
assert "site-packages" in str(here), here
assert (here / "core.wasm").is_file() and (here / "py.typed").is_file()
action = ac.parse_agent_action({"type": "tool_call", "callId": "c1", "tool": "ls", "input": ac.UNDEFINED})
assert action["input"] is ac.UNDEFINED
try:
    ac.parse_agent_action_json('{"type": "nope"}')
except ac.ContractError as e:
    print(e.code)
print(action["type"])
"""


def test_pip_install_into_a_fresh_venv(tmp_path: Path) -> None:
    assert (PY_HOST / "src/agent_contract/core.wasm").is_file(), "run scripts/build-python.sh first"
    # Install from a copy, so nothing can come from the source tree and nothing is built in it.
    source = tmp_path / "py-host"
    shutil.copytree(PY_HOST, source, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "tests"))
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv/bin/python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(source)], check=True, env=env, timeout=600)
    shutil.rmtree(source)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run([python, "-c", SCRIPT], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["ACTION_TYPE_UNKNOWN", "tool_call"]
    assert sys.executable != str(python)


REPO = PY_HOST.parent

CALL = "import agent_contract as ac; print(ac.parse_agent_action({'type': 'finish', 'summary': 'ok'})['type'])"


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def test_a_wheel_and_an_sdist_built_from_a_fresh_clone_work(tmp_path: Path) -> None:
    """`python -m build` in a fresh clone (no core.wasm: it is not in git) runs the component
    build itself; the wheel, installed in a fresh venv, works; so does a wheel built from the
    sdist alone (it carries the core)."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True, timeout=300)
    # The clone has what is committed; the working tree's uncommitted changes are not in it.
    assert not (clone / "py-host/src/agent_contract/core.wasm").exists()
    env = _clean_env()
    # Compiled dependencies are shared with this checkout's build (only the core crate rebuilds).
    env["CARGO_TARGET_DIR"] = str(REPO / "target")
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(clone / "py-host")],
        check=True, env=env, timeout=1200, capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")

    assert "agent_contract/core.wasm" in zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("/src/agent_contract/core.wasm") for n in tarfile.open(sdist).getnames())
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("licenses/LICENSE-MIT") for n in names) and any(n.endswith("licenses/LICENSE-APACHE") for n in names)

    # A wheel from the sdist alone, away from the repository (no scripts/, no cargo needed).
    unpacked = tmp_path / "unpacked"
    tarfile.open(sdist).extractall(unpacked, filter="data")
    (sdist_root,) = unpacked.iterdir()
    from_sdist = tmp_path / "from-sdist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(from_sdist), str(sdist_root)],
        check=True, env=_clean_env(), timeout=600, capture_output=True,
    )
    for built in (wheel, next(from_sdist.glob("*.whl"))):
        target = tmp_path / f"venv-{built.parent.name}"
        venv.create(target, with_pip=True)
        python = target / "bin/python"
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(built)], check=True, env=_clean_env(), timeout=600)
        run = subprocess.run([python, "-c", CALL], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=120)
        assert (run.returncode, run.stdout.strip()) == (0, "finish"), run.stderr


def test_a_build_without_the_core_and_without_the_repository_fails_loudly(tmp_path: Path) -> None:
    source = tmp_path / "py-host"
    shutil.copytree(PY_HOST, source, ignore=shutil.ignore_patterns("core.wasm", "build", "dist", "*.egg-info", "__pycache__", "tests"))
    out = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(tmp_path / "dist"), str(source)],
        env=_clean_env(), capture_output=True, text=True, timeout=600,
    )
    assert out.returncode != 0
    assert "core.wasm is missing" in out.stdout + out.stderr
    assert not list(tmp_path.glob("dist/*.whl"))
