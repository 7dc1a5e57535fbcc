// The long run: node js-tests/fuzz/run.mjs --inputs 1000000 [--seed N] [--seconds S] [--trace-memory]
// (--trace-memory prints every call after which the instance's memory reached a new high)
// Prints progress, then the summary (inputs, escapes, calls over 1 s per MB, memory, methods never called,
// per function the typical and the slowest time per MB) and the first escapes found. Fails on an
// escape, a call over 1 s per MB (1 s on at most 1 MB), a method a result held that no call reached, or an instance past the memory bound after a call at the default
// limits (64 MiB on at most 1 MB, plus 48 MiB per MB past the first).
import { run, summary } from './fuzz.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const inputs = arg('inputs', 100000), seed = arg('seed', Date.now() % 2 ** 31), seconds = arg('seconds', Infinity);
console.error(`seed ${seed} (replay: --seed ${seed})`);
let lastLog = 0;
const report = await run({
  inputs, seed, seconds,
  onGrow: process.argv.includes('--trace-memory')
    ? (g) => console.error(`memory ${(g.bytes / 2 ** 20).toFixed(1)} MiB after ${g.name} #${g.index} (${g.size} B, ${g.defaults ? 'default' : 'other'} limits, ${g.ms.toFixed(0)} ms)`)
    : undefined,
  log: (r) => {
    if (Date.now() - lastLog > 30000) {
      lastLog = Date.now();
      console.error(`${r.inputs} inputs, ${r.escapes.length} escapes, ${r.slowCalls.length} slow (${r.stalls} of them stalls), max memory ${(r.maxMemoryBytes / 2 ** 20).toFixed(1)} MiB`);
    }
  },
});
const s = summary(report);
console.log(JSON.stringify({ ...s, rows: undefined }, null, 1));
console.table(s.rows);
for (const e of report.escapes.slice(0, 10)) console.log('ESCAPE', e);
for (const e of report.slowCalls.slice(0, 40)) console.log('SLOW', e);
for (const e of report.memoryOverBound.slice(0, 10)) console.log('MEMORY', e);
if (s.uncalledMethods.length) console.log('NEVER CALLED', s.uncalledMethods);
process.exitCode = s.uncalledMethods.length || s.escapes || s.callsOver1sPerMB || s.memoryOverBoundAtDefaults || s.maxMemoryAtDefaultsMiB > 64 ? 1 : 0;
