// The two cores of the npm package, gzip -9 (zlib level 9, as bench/sizes.mjs measures when there
// is no gzip binary): what an application downloads, so growth must be a decision, not an accident.
// The targets are 150 KB for the protocol core and 450 KB for the full one; the bounds below are
// what the build reaches (bench/RESULTS.md says why the targets are missed), with a little room: a
// build that grows past them fails here. Last raised for fixes found by hostile probes: issue floods
// kept to what is listed, a mirror compared by value, patterns read as ECMA-262 reads them (+5.3 KB in
// the full core; docs/decisions.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../../pkg/dist/', import.meta.url);
const gzip9 = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
const KB = 1024;

// file, bound in bytes gzipped, the target.
const CORES = [
  ['agent_contract_protocol_bg.wasm', 297 * KB, 150 * KB],
  ['agent_contract_bg.wasm', 898 * KB, 450 * KB],
];

test('the protocol core and the full core stay within their gzip -9 bounds', () => {
  for (const [file, bound, target] of CORES) {
    const size = gzip9(file);
    console.log(`${file}: ${(size / KB).toFixed(1)} KB gzip -9 (bound ${bound / KB} KB; target ${target / KB} KB ${size <= target ? 'met' : 'missed'})`);
    assert.ok(size <= bound, `${file} is ${size} bytes gzipped, over its bound of ${bound}`);
  }
  // The protocol core is the small one: a build that put the schema engine back in it fails.
  assert.ok(gzip9('agent_contract_protocol_bg.wasm') < gzip9('agent_contract_bg.wasm') / 2);
});

test('the protocol core has no export of a tool function, the full core has them', () => {
  const exportsOf = (file) => new Set(WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(new URL(file, dist)))).map((e) => e.name));
  const protocol = exportsOf('agent_contract_protocol_bg.wasm');
  const full = exportsOf('agent_contract_bg.wasm');
  for (const name of ['validateToolInputs', 'validateToolInput', 'checkToolCall', 'toOpenAITools', 'validateToolInputJson', 'normalizeToolResult']) {
    assert.ok(full.has(name), `full core lacks ${name}`);
    assert.ok(!protocol.has(name), `protocol core exports ${name}`);
  }
  for (const name of ['parseAgentActionVerdict', 'parseJson', 'parseDecisionVerdict', 'classifyJsonRpc', 'admitPrompt', 'checkSession']) {
    assert.ok(protocol.has(name), `protocol core lacks ${name}`);
  }
});
