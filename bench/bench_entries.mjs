// The two cores of the npm package side by side, on the hot paths. 'agent-contract'
// loads the full core (with the schema engine), 'agent-contract/protocol' the protocol core (the
// crate without it, built for size). The same calls through each, interleaved in one group:
// (a) parseAgentAction on one tool_call object, (b) parseAgentActionJson on its text, (g) the
// strict parse of ~1 MiB (parseJson, target: ≤ 2× JSON.parse), with JSON.parse beside them.
// Usage: node bench_entries.mjs [--json out.json]
import { writeFileSync } from 'node:fs';
import * as full from 'agent-contract';
import * as protocol from 'agent-contract/protocol';
import { measureGroup, table } from './harness.mjs';
import { strictText } from './stream_cases.mjs';

const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const small = JSON.stringify(action);
const big = strictText();
for (const api of [full, protocol]) {
  if (JSON.stringify(api.parseAgentAction(action)) !== small) throw new Error('parseAgentAction differs');
  if (JSON.stringify(api.parseAgentActionJson(small)) !== small) throw new Error('parseAgentActionJson differs');
  if (JSON.stringify(api.parseJson(big)) !== JSON.stringify(JSON.parse(big))) throw new Error('parseJson differs');
}

const a = measureGroup({ full: () => full.parseAgentAction(action), protocol: () => protocol.parseAgentAction(action) });
const b = measureGroup({
  full: () => full.parseAgentActionJson(small),
  protocol: () => protocol.parseAgentActionJson(small),
  jsonParse: () => JSON.parse(small),
});
const g = measureGroup({ full: () => full.parseJson(big), protocol: () => protocol.parseJson(big), jsonParse: () => JSON.parse(big) });

table('(a) parseAgentAction, one tool_call object: protocol core against the full core', [
  { label: 'agent-contract (full core)', result: a.full, base: a.full, baseName: 'full' },
  { label: 'agent-contract/protocol', result: a.protocol, base: a.full, baseName: 'full' },
]);
table('(b) parseAgentActionJson, the same action as text', [
  { label: 'agent-contract (full core)', result: b.full, base: b.jsonParse, baseName: 'JSON.parse' },
  { label: 'agent-contract/protocol', result: b.protocol, base: b.jsonParse, baseName: 'JSON.parse' },
  { label: 'JSON.parse alone', result: b.jsonParse, base: b.jsonParse, baseName: 'JSON.parse' },
]);
table(`(g) strict parse of ${(Buffer.byteLength(big) / 1048576).toFixed(2)} MiB (parseJson) — target: ≤ 2× JSON.parse`, [
  { label: 'agent-contract (full core)', result: g.full, base: g.jsonParse, baseName: 'JSON.parse' },
  { label: 'agent-contract/protocol', result: g.protocol, base: g.jsonParse, baseName: 'JSON.parse' },
  { label: 'JSON.parse alone', result: g.jsonParse, base: g.jsonParse, baseName: 'JSON.parse' },
]);

const results = {
  node: process.version,
  a: { full: a.full.ns, protocol: a.protocol.ns, ratio: a.protocol.ns / a.full.ns },
  b: { full: b.full.ns, protocol: b.protocol.ns, jsonParse: b.jsonParse.ns, ratio: b.protocol.ns / b.full.ns },
  g: { full: g.full.ns, protocol: g.protocol.ns, jsonParse: g.jsonParse.ns,
    fullVsJsonParse: g.full.ns / g.jsonParse.ns, protocolVsJsonParse: g.protocol.ns / g.jsonParse.ns },
};
console.log(`\nprotocol/full: (a) ${results.a.ratio.toFixed(2)}×  (b) ${results.b.ratio.toFixed(2)}×  `
  + `(g) ${(g.protocol.ns / g.full.ns).toFixed(2)}×; (g) against JSON.parse: full ${results.g.fullVsJsonParse.toFixed(2)}×, `
  + `protocol ${results.g.protocolVsJsonParse.toFixed(2)}×`);
const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(results, null, 2));
