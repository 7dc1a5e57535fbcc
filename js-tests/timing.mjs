// Outcomes and time in the test suite. Every call's outcome is asserted (its value, or a
// ContractError with its exact code). Time is asserted as growth, in CPU time: a machine shared
// with other builds stretches the wall clock of a long call (it waits for a core) more than a
// short one's, which often fits in one time slice, so even a ratio of wall times breaks under
// load; the CPU time the process spends is what the code does. Absolute bounds (1 s per call at
// the default limits) are the benchmark command's: AGENT_CONTRACT_TIME_BOUNDS=1 (scripts/bench.sh
// sets it) turns them on here.
import assert from 'node:assert/strict';
import { ContractError } from 'agent-contract';

export const TIME_BOUNDS = process.env.AGENT_CONTRACT_TIME_BOUNDS === '1';

function clock(call) {
  const started = performance.now();
  let result;
  let error;
  let threw = false;
  try {
    result = call();
  } catch (e) {
    threw = true;
    error = e;
  }
  return { result, error, threw, ms: performance.now() - started };
}

// The process's CPU time around the call, in ms (user and system: the wasm runs on this thread;
// the engine's helper threads add a little). Their sum, not user time alone: Linux measures the
// sum exactly and splits it by where its clock ticks fell, so a short call's user time can read 0.
function cpu(call) {
  const before = process.cpuUsage();
  try {
    call();
  } catch (e) {
    if (!(e instanceof ContractError)) throw e;
  }
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}

function withinBound(ms, took) {
  if (TIME_BOUNDS) assert.ok(took < ms, `took ${took.toFixed(0)} ms, over ${ms} ms`);
}

const described = (e) => (e instanceof ContractError ? `ContractError ${e.code} at ${JSON.stringify(e.path)}: ${e.message}` : String(e && e.stack ? e.stack : e));

/** The call's value: a throw of any kind fails the test. `ms` is the benchmark's bound. */
export function returns(call, ms = 1000) {
  const { result, error, threw, ms: took } = clock(call);
  assert.ok(!threw, `expected a value, got ${described(error)}`);
  withinBound(ms, took);
  return result;
}

/** The ContractError the call throws, checked to carry `code`; anything else fails the test. */
export function rejects(code, call, ms = 1000) {
  const { result, error, threw, ms: took } = clock(call);
  assert.ok(threw, `expected ContractError ${code}, got a value: ${String(JSON.stringify(result)).slice(0, 200)}`);
  assert.ok(error instanceof ContractError, `expected ContractError ${code}, got ${described(error)}`);
  assert.equal(error.code, code, `expected ContractError ${code}, got ${described(error)}`);
  withinBound(ms, took);
  return error;
}

/** Asserts how the CPU time of `make(n)()` grows: `make` builds the input (not measured) and
 *  returns the call. Runs at n and factor * n alternate and the fastest of each is kept (caches
 *  and other work only ever add time). Over the bound, up to three more rounds of runs are taken
 *  before failing: a collection or another process can slow a whole round of a few-millisecond
 *  call (a 12x once beside a full test run, 3.5-5.8x otherwise), while code that grows faster
 *  stays over in every round. Returns the ratio of the two. */
export function assertGrowth(make, n, { factor, bound, runs = 5 }) {
  const small = make(n);
  const large = make(factor * n);
  for (const call of [small, large]) {
    const { error, threw } = clock(call);
    assert.ok(!threw || error instanceof ContractError, `the measured call threw ${described(error)}`);
  }
  let a = Infinity;
  let b = Infinity;
  let ratio = Infinity;
  for (let round = 0; round < 4 && ratio >= bound; round++) {
    for (let i = 0; i < runs; i++) {
      a = Math.min(a, cpu(small));
      b = Math.min(b, cpu(large));
    }
    ratio = b / Math.max(a, 0.01);
  }
  assert.ok(ratio < bound, `${factor}x the input took ${ratio.toFixed(1)}x the time (${a.toFixed(2)} ms at n=${n}, ${b.toFixed(2)} ms at ${factor}n), over ${bound}x`);
  return ratio;
}

/** Linear: 4x the input, under 10x the time (linear code gives ~4, less when a fixed cost
 *  dominates; quadratic code 16). */
export const assertLinear = (make, n, options = {}) => assertGrowth(make, n, { factor: 4, bound: 10, ...options });

/** Stopped by a limit before the input is read: 16x the input, under 6x the time (reading the
 *  input whole would give ~16; measured up to 2.4). */
export const assertFlat = (make, n, options = {}) => assertGrowth(make, n, { factor: 16, bound: 6, ...options });
