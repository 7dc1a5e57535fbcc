// JS benchmarks: (a) object input, (b) JSON text input, plus a breakdown of where our time goes.
// Usage: node bench_js.mjs [--json out.json]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAgentAction, parseAgentActionJson, parseAgentActionsJsonl } from 'agent-contract';
import { measureGroup, table, consume } from './harness.mjs';
import { parseAgentAction as seedParse } from './seed_parser.mjs';
import { zodAction, ajvAction } from './schemas.mjs';
import { core as rawCore } from './raw_core.mjs';
// The full-reply path (what the package did before verdict replies), in the test build
// (scripts/build-testing.sh): the old numbers beside the new, in the same run.
import { fullReply as full } from '../js-tests/testing-core.mjs';

// The raw wasm-bindgen exports under the package API (each returns the core's JSON reply), to
// split our cost into its pieces: an instance of the package's wasm of its own (raw_core.mjs).
const require = createRequire(import.meta.url);
const core = rawCore;

const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const text = JSON.stringify(action);

// Sanity: every contender accepts the case and gives the same action.
const expected = JSON.stringify(action);
for (const [name, out] of [
  ['ours', parseAgentAction(action)],
  ['seed', seedParse(action)],
  ['zod', zodAction.parse(action)],
  ['ours json', parseAgentActionJson(text)],
  ['seed json', seedParse(JSON.parse(text))],
]) {
  if (JSON.stringify(out) !== expected) throw new Error(`${name} gave ${JSON.stringify(out)}`);
}
if (!ajvAction(action)) throw new Error('ajv rejected the case');

const results = { node: process.version, zod: zodVersion(), ajv: require('ajv/package.json').version };
const LINES = 1000;
const jsonl = Array.from({ length: LINES }, (_, i) => JSON.stringify({ ...action, callId: `call_${i}` })).join('\n');
if (parseAgentActionsJsonl(jsonl).length !== LINES) throw new Error('batch size');
const replyObj = core.parseAgentAction(action, undefined);
const replyText = core.parseAgentActionJson(text, undefined);

Object.assign(
  results,
  // (a) object input
  measureGroup({
    a_ours: () => parseAgentAction(action),
    a_full: () => full.parseAgentAction(action),
    a_seed: () => seedParse(action),
    a_zod: () => zodAction.parse(action),
    a_ajv: () => ajvAction(action),
    // where our time goes: the raw core call (value in, reply string out), then decoding it
    p_core_obj: () => core.parseAgentAction(action, undefined),
    p_decode_obj: () => JSON.parse(replyObj),
  }),
  // (b) text input
  measureGroup({
    b_ours: () => parseAgentActionJson(text),
    b_full: () => full.parseAgentActionJson(text),
    b_seed: () => seedParse(JSON.parse(text)),
    b_zod: () => zodAction.parse(JSON.parse(text)),
    b_jsonparse: () => JSON.parse(text),
    p_core_text: () => core.parseAgentActionJson(text, undefined),
    p_decode_text: () => JSON.parse(replyText),
  }),
);
// Batch: JSON Lines of 1,000 actions, per action.
const batch = measureGroup({
  batch_ours: () => parseAgentActionsJsonl(jsonl),
  batch_full: () => full.parseAgentActionsJsonl(jsonl),
  batch_seed: () => {
    const out = [];
    for (const line of jsonl.split('\n')) out.push(seedParse(JSON.parse(line)));
    return out;
  },
});
for (const [k, v] of Object.entries(batch)) results[k] = { ...v, ns: v.ns / LINES, lo: v.lo / LINES, hi: v.hi / LINES };

function zodVersion() {
  return require('zod/package.json').version;
}

const r = results;
table('(a) JS object input, one valid tool_call — target: ours ≤ 10× Zod', [
  { label: 'agent-contract parseAgentAction', result: r.a_ours, base: r.a_zod, baseName: 'Zod' },
  { label: '  full reply (before verdicts)', result: r.a_full, base: r.a_zod, baseName: 'Zod' },
  { label: 'seed hand-written (JS port)', result: r.a_seed, base: r.a_zod, baseName: 'Zod' },
  { label: 'Zod 4 discriminatedUnion', result: r.a_zod, base: r.a_zod, baseName: 'Zod' },
  { label: 'Ajv 8 compiled (validate only)', result: r.a_ajv, base: r.a_zod, baseName: 'Zod' },
]);
table('(b) JS text input, same action as JSON — target: ours ≤ 1.5× JSON.parse + hand-written', [
  { label: 'agent-contract parseAgentActionJson', result: r.b_ours, base: r.b_seed, baseName: 'JSON.parse+seed' },
  { label: '  full reply (before verdicts)', result: r.b_full, base: r.b_seed, baseName: 'JSON.parse+seed' },
  { label: 'JSON.parse + seed hand-written', result: r.b_seed, base: r.b_seed, baseName: 'JSON.parse+seed' },
  { label: 'JSON.parse + Zod 4', result: r.b_zod, base: r.b_seed, baseName: 'JSON.parse+seed' },
  { label: 'JSON.parse alone', result: r.b_jsonparse, base: r.b_seed, baseName: 'JSON.parse+seed' },
]);
table('    where our time goes (raw wasm-bindgen export → reply string; JSON.parse of the reply)', [
  { label: 'core.parseAgentAction (object → reply)', result: r.p_core_obj, base: r.a_ours, baseName: 'of (a) ours' },
  { label: 'JSON.parse(reply) [object case]', result: r.p_decode_obj, base: r.a_ours, baseName: 'of (a) ours' },
  { label: 'core.parseAgentActionJson (text → reply)', result: r.p_core_text, base: r.b_ours, baseName: 'of (b) ours' },
  { label: 'JSON.parse(reply) [text case]', result: r.p_decode_text, base: r.b_ours, baseName: 'of (b) ours' },
]);
table(`    batch: JSON Lines, ${LINES} actions, per action`, [
  { label: 'agent-contract parseAgentActionsJsonl', result: r.batch_ours, base: r.batch_seed, baseName: 'split+JSON.parse+seed' },
  { label: '  full reply (before verdicts)', result: r.batch_full, base: r.batch_seed, baseName: 'split+JSON.parse+seed' },
  { label: 'split + JSON.parse + seed per line', result: r.batch_seed, base: r.batch_seed, baseName: 'split+JSON.parse+seed' },
]);

const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(results, null, 2));
consume(null);
