"""`pip install py-host` into a fresh venv works, without the source tree.

Runs by default; set AGENT_CONTRACT_SKIP_PACKAGING=1 to skip it in quick local runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
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
