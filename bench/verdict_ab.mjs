// Verdict replies, old beside new under load: the verdict path, the full-reply path and the peer,
// interleaved batches of a fixed size timed in process CPU time (process.cpuUsage), so that
// time spent waiting for a core on a loaded machine does not count. Medians of 15 rounds.
// Usage: node verdict_ab.mjs [a|b|ab]
import '../pkg/index.mjs';
import { api as whole } from '../pkg/wasm.mjs';
// The full-reply path is in the test build (scripts/build-testing.sh).
import { fullReply as full } from '../js-tests/testing-core.mjs';
import { zodAction } from './schemas.mjs';
import { parseAgentAction as seedParse } from './seed_parser.mjs';
const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const text = JSON.stringify(action);
let sink = 0;
function group(fns, rounds = 15) {
  const names = Object.keys(fns), per = Object.fromEntries(names.map((n) => [n, []]));
  const mk = () => new Function('fn', 'n', 'let s = 0; const t = process.cpuUsage(); for (let i = 0; i < n; i++) s += fn() ? 1 : 0; const d = process.cpuUsage(t); return [(d.user + d.system) * 1000, s];');
  const timers = Object.fromEntries(names.map((n) => [n, mk()]));
  const sizes = {};
  for (const n of names) { timers[n](fns[n], 2000); const [t] = timers[n](fns[n], 2000); sizes[n] = Math.max(200, Math.round(2000 * 10e6 / t)); }
  for (let r = 0; r < rounds; r++) for (const n of names) { const [t, s] = timers[n](fns[n], sizes[n]); sink += s; per[n].push(t / sizes[n]); }
  const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const out = Object.fromEntries(names.map((n) => [n, med(per[n])]));
  const base = out[names[0]];
  for (const n of names) console.log(n.padEnd(8), out[n].toFixed(0).padStart(7), 'ns', (out[n] / base).toFixed(2) + '×');
  return out;
}
const only = process.argv[2] || 'ab';
if (only.includes('a')) group({ zod: () => zodAction.parse(action), new: () => whole.parseAgentAction(action), old: () => full.parseAgentAction(action) });
if (only.includes('b')) group({ seed: () => seedParse(JSON.parse(text)), new: () => whole.parseAgentActionJson(text), old: () => full.parseAgentActionJson(text) });
