"""The package's types under the strict checkers people run: `py-host/typing/usage.py` (results
narrowed on `ok`, the action and decision unions, the projections) is clean under
`mypy --strict` and `pyright` in strict mode, and a misuse is an error (the check can fail)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PY_HOST = Path(__file__).resolve().parents[1]
USAGE = PY_HOST / "typing" / "usage.py"
MISUSE = """# pyright: strict
import agent_contract as ac

out = ac.safe_parse_agent_action({})
print(out["value"])  # not narrowed: a Failure has no value
"""


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(PY_HOST / "src"))


def _mypy(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)],
        env=_env(), capture_output=True, text=True, timeout=300,
    )


def _pyright(path: Path) -> subprocess.CompletedProcess[str]:
    pyright = Path(sys.executable).parent / "pyright"
    return subprocess.run(
        [str(pyright), "--pythonpath", sys.executable, str(path)], env=_env(), capture_output=True, text=True, timeout=300
    )


def test_the_usage_file_is_clean_under_mypy_and_pyright_strict() -> None:
    mypy = _mypy(USAGE)
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr
    pyright = _pyright(USAGE)
    assert pyright.returncode == 0, pyright.stdout + pyright.stderr
    assert "0 errors" in pyright.stdout


def test_a_result_used_without_narrowing_is_an_error(tmp_path: Path) -> None:
    misuse = tmp_path / "misuse.py"
    misuse.write_text(MISUSE)
    assert _mypy(misuse).returncode != 0
    assert _pyright(misuse).returncode != 0
