"""Outcomes and time in the test suite. Every call's outcome is asserted (its value, or a
ContractError with its exact code). Time is asserted as growth, in the thread's CPU time: a
machine shared with other builds stretches the wall clock of a long call (it waits for a core)
more than a short one's, which often fits in one time slice, so even a ratio of wall times breaks
under load; the CPU time the thread spends is what the code does. Absolute bounds (1 s per call
at the default limits) are the benchmark command's: AGENT_CONTRACT_TIME_BOUNDS=1
(scripts/bench.sh sets it) turns them on here."""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import agent_contract as ac

TIME_BOUNDS = os.environ.get("AGENT_CONTRACT_TIME_BOUNDS") == "1"


def within(seconds: float, took: float, what: str = "the call") -> None:
    """The benchmark's absolute bound: asserted only when AGENT_CONTRACT_TIME_BOUNDS=1."""
    if TIME_BOUNDS:
        assert took < seconds, f"{what} took {took:.2f} s, over {seconds} s"


def returns(fn: Callable[..., Any], *args: Any, seconds: float = 1.0, **kwargs: Any) -> Any:
    """`fn(*args)`'s value: any exception fails the test."""
    start = time.perf_counter()
    try:
        result = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - any exception is the failure reported
        raise AssertionError(f"expected a value from {getattr(fn, '__name__', fn)}, got {e!r}") from e
    within(seconds, time.perf_counter() - start, getattr(fn, "__name__", "the call"))
    return result


def raises(code: str, fn: Callable[..., Any], *args: Any, seconds: float = 1.0, **kwargs: Any) -> ac.ContractError:
    """The ContractError `fn(*args)` raises, checked to carry `code`; anything else fails."""
    start = time.perf_counter()
    try:
        result = fn(*args, **kwargs)
    except ac.ContractError as e:
        within(seconds, time.perf_counter() - start, getattr(fn, "__name__", "the call"))
        assert e.code == code, f"expected ContractError {code}, got {e!r}"
        return e
    except Exception as e:  # noqa: BLE001 - any other exception is the failure reported
        raise AssertionError(f"expected ContractError {code}, got {e!r}") from e
    raise AssertionError(f"expected ContractError {code}, got a value: {repr(result)[:200]}")


def _cpu(call: Callable[[], Any]) -> float:
    """The calling thread's CPU time around the call (the component runs on it)."""
    start = time.thread_time()
    try:
        call()
    except ac.ContractError:
        pass
    return time.thread_time() - start


def assert_growth(make: Callable[[int], Callable[[], Any]], n: int, factor: int, bound: float, runs: int = 5) -> float:
    """Asserts how the CPU time of `make(n)()` grows: `make` builds the input (not measured) and
    returns the call. Runs at n and factor * n alternate and the fastest of each is kept (caches
    and other work only ever add time). Over the bound, up to three more rounds of runs are taken
    before failing: a collection or another process can slow a whole round of a short call, while
    code that grows faster stays over in every round (as js-tests/timing.mjs). Returns the ratio
    of the two."""
    small, large = make(n), make(factor * n)
    _cpu(small), _cpu(large)  # warm: first-call costs are not the growth
    a = b = ratio = float("inf")
    for _ in range(4):
        for _ in range(runs):
            a = min(a, _cpu(small))
            b = min(b, _cpu(large))
        ratio = b / max(a, 1e-6)
        if ratio < bound:
            break
    assert ratio < bound, f"{factor}x the input took {ratio:.1f}x the time ({a * 1000:.2f} ms at n={n}, {b * 1000:.2f} ms at {factor}n), over {bound}x"
    return ratio


def assert_linear(make: Callable[[int], Callable[[], Any]], n: int, runs: int = 5) -> float:
    """4x the input, under 10x the time (linear code gives ~4, less when a fixed cost dominates;
    quadratic code 16)."""
    return assert_growth(make, n, 4, 10.0, runs)


def assert_flat(make: Callable[[int], Callable[[], Any]], n: int, runs: int = 5) -> float:
    """Stopped by a limit before the input is read: 16x the input, under 6x the time (reading the
    input whole would give ~16)."""
    return assert_growth(make, n, 16, 6.0, runs)
