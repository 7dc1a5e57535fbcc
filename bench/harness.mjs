// Timing for the JS benches: calibrated batches timed with process.hrtime.bigint, median ns/op.
// The machine is shared and noisy, so every number is the median of BATCHES batches, each long
// enough (>= BATCH_MS) that timer resolution and one-off pauses do not matter.

export const BATCHES = Number(process.env.BENCH_BATCHES || 15);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS || 20);

// Results are folded into this so that no call can be optimised away.
export let sink = 0;
export function consume(result) {
  sink = (sink + (result === undefined ? 1 : typeof result === 'object' && result !== null ? 2 : 3)) | 0;
}

// Each contender gets its own copy of the timing loop (new Function), so that the call site
// `fn()` stays monomorphic and one contender's JIT feedback cannot slow another's.
function makeTimer() {
  // eslint-disable-next-line no-new-func
  return new Function(
    'fn', 'consume', 'n', 'hrtime',
    'const start = hrtime(); for (let i = 0; i < n; i++) consume(fn()); return Number(hrtime() - start);',
  );
}
const hrtime = process.hrtime.bigint;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Measures several contenders together: each is warmed up and given a batch size of about
// BATCH_MS, then the batches are interleaved (round r times every contender once), so that a
// burst of load from other processes hits all of them alike. Returns, per name, {ns: median
// ns/op, lo, hi: quartiles of the per-batch ns/op, n: calls per batch}.
export function measureGroup(fns) {
  const entries = Object.entries(fns).map(([name, fn]) => {
    const timer = makeTimer();
    const time = (n) => timer(fn, consume, n, hrtime);
    let n = 1;
    for (;;) {
      const t = time(n);
      if (t >= (BATCH_MS * 1e6) / 4 || n >= 1 << 26) {
        n = Math.max(1, Math.ceil((n * BATCH_MS * 1e6) / Math.max(t, 1)));
        break;
      }
      n *= 2;
    }
    time(n);
    return { name, time, n, perOp: [] };
  });
  for (let b = 0; b < BATCHES; b++) for (const e of entries) e.perOp.push(e.time(e.n) / e.n);
  const out = {};
  for (const e of entries) {
    const s = [...e.perOp].sort((a, b) => a - b);
    out[e.name] = { ns: median(e.perOp), lo: s[Math.floor(s.length / 4)], hi: s[Math.ceil((3 * s.length) / 4) - 1], n: e.n };
  }
  return out;
}

export function fmtNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

// Prints rows [label, result, baseline-or-null] as an aligned table with ratios.
export function table(title, rows) {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((r) => r.label.length));
  for (const r of rows) {
    const spread = r.result.ns > 0 ? ((r.result.hi - r.result.lo) / r.result.ns) * 100 : 0;
    const ratio = r.base ? `${(r.result.ns / r.base.ns).toFixed(2)}× ${r.baseName}` : '';
    console.log(
      `  ${r.label.padEnd(width)}  ${fmtNs(r.result.ns).padStart(10)}/op  (IQR ±${(spread / 2).toFixed(0).padStart(2)}%)  ${ratio}`,
    );
  }
}
