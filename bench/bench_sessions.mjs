// Session check performance (Node): checkSession on the 2.4 MB recorded session (dialect "pi") vs
// splitting the lines and JSON.parse of each; the same file repeated to 24 MB (linear: ≤ 11×);
// and a 100 MB stream through createSessionChecker in 1 MB chunks (the wasm instance's memory
// stays under 64 MB). Needs ../shared/conformance/pi-mono-sessions/ (skipped when absent).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as api from 'agent-contract';
import { measureGroup } from './harness.mjs';

const file = fileURLToPath(new URL('../../shared/conformance/pi-mono-sessions/before-compaction.jsonl', import.meta.url));
if (!existsSync(file)) {
  console.log(`sessions: SKIPPED: ${file} is absent`);
  process.exit(0);
}
const text = readFileSync(file, 'utf8');
const big = text.repeat(10);
const pi = { dialect: 'pi', maxIssues: 1 };
const ms = (r) => (r.ns / 1e6).toFixed(2);

const small = measureGroup({
  checkSession: () => api.checkSession(text, pi),
  'split + JSON.parse': () => text.split('\n').filter((l) => l).map((l) => JSON.parse(l)),
});
console.log(`checkSession 2.4 MB: ${ms(small.checkSession)} ms; split + JSON.parse ${ms(small['split + JSON.parse'])} ms; ratio ${(small.checkSession.ns / small['split + JSON.parse'].ns).toFixed(2)} (target ≤ 2)`);

const scale = measureGroup({ small: () => api.checkSession(text, pi), big: () => api.checkSession(big, pi) });
console.log(`checkSession 24 MB / 2.4 MB: ${(scale.big.ns / scale.small.ns).toFixed(2)}× (target ≤ 11)`);

const bytes = new Uint8Array(readFileSync(file));
const checker = api.createSessionChecker(pi);
let fed = 0;
let peak = api.memoryReport().bytes;
const t0 = performance.now();
while (fed < 100e6) {
  for (let at = 0; at < bytes.length; at += 1 << 20) checker.push(bytes.subarray(at, at + (1 << 20)));
  fed += bytes.length;
  peak = Math.max(peak, api.memoryReport().bytes);
}
const report = checker.finish();
checker.free();
console.log(`createSessionChecker, ${(fed / 1e6).toFixed(0)} MB in 1 MB chunks: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${report.problems.length ? 'problems (header repeated)' : 'ok'}, wasm memory ${(peak / 2 ** 20).toFixed(1)} MB (target < 64 MB)`);
