// The npm package's JS layer before and after the table-driven API, in one process on one wasm
// build: OLD is a directory holding the previous pkg/*.mjs with this pkg/dist linked in
// (AGENT_CONTRACT_OLD_PKG), so only the host code differs. Interleaved batches (harness.mjs);
// Zod 4 and JSON.parse + the seed's hand check as the peers of issue targets.
// Usage: AGENT_CONTRACT_OLD_PKG=/path/to/old/pkg node bench/host_ab.mjs
import { createRequire } from 'node:module';
import { measureGroup, fmtNs } from './harness.mjs';
import { parseAgentAction as seedParse } from './seed_parser.mjs';
import { zodAction } from './schemas.mjs';

const require = createRequire(import.meta.url);
const fresh = require('../pkg/index.cjs');
const old = require(`${process.env.AGENT_CONTRACT_OLD_PKG}/index.cjs`);
const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const text = JSON.stringify(action);
const readFile = {
  name: 'read_file', description: 'Read a file.', permission: 'read',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, encoding: { enum: ['utf8', 'base64'] } }, required: ['path'], additionalProperties: false },
};
const tools = { old: old.defineTool(readFile), fresh: fresh.defineTool(readFile) };
const input = { path: 'src/index.ts', encoding: 'utf8' };
const r = measureGroup({
  'parseAgentAction old': () => old.parseAgentAction(action),
  'parseAgentAction new': () => fresh.parseAgentAction(action),
  'zod 4 parse': () => zodAction.parse(action),
  'parseAgentActionJson old': () => old.parseAgentActionJson(text),
  'parseAgentActionJson new': () => fresh.parseAgentActionJson(text),
  'JSON.parse + hand check': () => seedParse(JSON.parse(text)),
  'validateToolInput old': () => old.validateToolInput(tools.old, input),
  'validateToolInput new': () => fresh.validateToolInput(tools.fresh, input),
  'previewAction old': () => old.previewAction(action),
  'previewAction new': () => fresh.previewAction(action),
});
for (const [name, { ns, lo, hi }] of Object.entries(r)) console.log(`${name.padEnd(28)} ${fmtNs(ns).padStart(10)}  (${fmtNs(lo)}-${fmtNs(hi)})`);
const ratio = (a, b) => (r[a].ns / r[b].ns).toFixed(2);
console.log(`parseAgentAction vs Zod: old ${ratio('parseAgentAction old', 'zod 4 parse')}x, new ${ratio('parseAgentAction new', 'zod 4 parse')}x`);
console.log(`parseAgentActionJson vs JSON.parse+hand: old ${ratio('parseAgentActionJson old', 'JSON.parse + hand check')}x, new ${ratio('parseAgentActionJson new', 'JSON.parse + hand check')}x`);
