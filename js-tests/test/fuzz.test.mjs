// The short run of the Node fuzzer (js-tests/fuzz/): hostile values and texts over every public
// function for about a minute; the long run is `node js-tests/fuzz/run.mjs --inputs 1000000`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, summary, unfuzzed } from '../fuzz/fuzz.mjs';
import { TIME_BOUNDS } from '../timing.mjs';

// A function added to the package or the MCP module without a fuzz target fails here.
test('fuzz: every exported function has a target', () => {
  assert.deepEqual(unfuzzed(), []);
});

test('fuzz: every public function returns or throws a ContractError within the memory bound', { timeout: 180_000 }, async (t) => {
  // A new seed each run covers new inputs; printed first so that a failure replays with
  // FUZZ_SEED=<seed>.
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  console.log(`fuzz (node): seed ${seed} (replay: FUZZ_SEED=${seed})`);
  // Line floods up to 256 KiB here; the long run draws them up to 1 MB.
  const report = await run({ inputs: 1_000_000, seconds: Number(process.env.FUZZ_SECONDS ?? 60), seed, floodBytes: 256 * 1024 });
  const s = summary(report);
  const context = JSON.stringify({ seed, escapes: report.escapes.slice(0, 3), slow: report.slowCalls.slice(0, 3), memory: report.memoryOverBound.slice(0, 3) });
  assert.ok(s.inputs > 1000, `only ${s.inputs} inputs`);
  assert.equal(s.escapes, 0, context);
  // 1 s per MB (1 s on at most 1 MB) is an absolute bound: the benchmark command's, and the long
  // run's (js-tests/fuzz/run.mjs). Here the slow calls are shown, to replay with the seed.
  if (s.callsOver1sPerMB > 0) t.diagnostic(`calls over 1 s per MB (1 s on at most 1 MB): ${JSON.stringify(report.slowCalls.slice(0, 3))}`);
  if (TIME_BOUNDS) assert.equal(s.callsOver1sPerMB, 0, context);
  assert.equal(s.memoryOverBoundAtDefaults, 0, context);
  // Every function was called, and every method of every object a call returned.
  for (const row of s.rows) assert.ok(row.calls > 0, `${row.name} never called`);
  assert.ok(s.methodsCalled > s.rows.length, `only ${s.methodsCalled} functions and methods called`);
  assert.deepEqual(s.uncalledMethods, [], 'methods offered by a result and never called');
});
