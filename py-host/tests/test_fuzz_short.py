"""The short run of the hostile-input fuzzer (py-host/fuzz/hostile_fuzz.py): ~60 s of inputs over
every public function and method, with zero escapes and no instance left over the memory bound;
calls over 1 s per MB (1 s on at most 1 MB) are listed, and fail the run under AGENT_CONTRACT_TIME_BOUNDS=1
(the benchmark command's absolute bound: timing.py). AGENT_CONTRACT_FUZZ_SECONDS changes the
duration, AGENT_CONTRACT_FUZZ_SEED the seed (printed in the summary, so a failure replays)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import hostile_fuzz  # noqa: E402

from conftest import SUMMARY  # noqa: E402
from timing import TIME_BOUNDS  # noqa: E402


def test_every_public_function_is_fuzzed() -> None:
    # Every function and class of __all__ (agent_contract, agent_contract.mcp,
    # agent_contract.ray) has a target, or is in NOT_FUZZED with the reason: a function added
    # without one fails here.
    assert hostile_fuzz.public_functions() - hostile_fuzz.covered() == set()
    assert {"check_chat_row", "from_mcp_tools", "create_mcp_validator", "CheckSessions", "CheckChatRows"} <= hostile_fuzz.covered()


def test_short_fuzz_run() -> None:
    seconds = float(os.environ.get("AGENT_CONTRACT_FUZZ_SECONDS", "60"))
    seed = int(os.environ.get("AGENT_CONTRACT_FUZZ_SEED", "20260801"))
    # Line floods up to 256 KiB here; the long run draws them up to 1 MB.
    result = hostile_fuzz.run(10**9, seed, seconds, flood_bytes=256 << 10)
    SUMMARY.append(
        f"fuzz (python): seed {seed}, {result['inputs']} inputs in {result['seconds']:.0f} s, {len(result['escapes'])} escapes, "
        f"{len(result['slow'])} slow, max wasm memory {result['max_wasm_memory'] >> 20} MB "
        f"({result['max_wasm_memory_at_defaults'] >> 20} MB at the default limits on <= 1 MB)"
    )
    assert result["inputs"] >= 1000
    assert result["escapes"] == [], f"seed {seed}: {result['escapes'][:3]}"
    assert result["generator_errors"] == [], f"seed {seed}: the generator failed: {result['generator_errors'][:3]}"
    if TIME_BOUNDS:
        assert result["slow"] == [], f"seed {seed}: {result['slow'][:3]}"
    assert result["over_bound"] == [], f"seed {seed}: {result['over_bound'][:3]}"
    assert all(s["calls"] > 0 for s in result["stats"].values())
    # Every method of every public class, and of every object a call returned, was called.
    assert hostile_fuzz.uncalled(result) == set(), f"seed {seed}"
