import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as api from 'agent-contract';
import { runFixtures } from '../fixture-runner.mjs';

const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));
// Recorded provider streams: external data, absent in a clone elsewhere.
const recordings = fileURLToPath(new URL('../../../shared/conformance/provider-streams/', import.meta.url));
const recording = (name) => (existsSync(recordings) ? new Uint8Array(readFileSync(recordings + name)) : null);
// Recorded pi-mono sessions: the same.
const sessions = fileURLToPath(new URL('../../../shared/conformance/pi-mono-sessions/', import.meta.url));
const sessionFile = (name) => (existsSync(sessions) ? new Uint8Array(readFileSync(sessions + name)) : null);
// The other conformance data (`reference` cases), absent likewise.
const conformance = fileURLToPath(new URL('../../../shared/conformance/', import.meta.url));
const reference = (file) => (existsSync(conformance + file) ? readFileSync(conformance + file, 'utf8') : null);

test('every fixture case gives the expected outcome in Node', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((name) => ({ name, doc: JSON.parse(readFileSync(dir + name, 'utf8')) }));
  const result = runFixtures(api, files, recording, sessionFile, reference);
  for (const f of result.failures) console.log(`FAIL ${f.id} (${f.file}): ${f.message}`);
  if (result.skipped) console.log(`fixtures (node): SKIPPED ${result.skipped} cases of recorded streams, sessions or conformance data: ${recordings}, ${sessions} or ${conformance} is absent`);
  console.log(`fixtures (node): ${result.passed} passed, ${result.failed} failed`);
  assert.ok(result.passed > 0, 'no fixture ran');
  assert.equal(result.failed, 0);
});

// The same cases through 'agent-contract/protocol' (the core built without the
// schema engine), except those of the functions it leaves out (js-tests/protocol-cases.mjs).
test('every fixture case of a protocol function gives the same outcome through agent-contract/protocol', async () => {
  const protocol = await import('agent-contract/protocol');
  const { protocolSelection, PROTOCOL_CASES, LEFT_OUT_CASES } = await import('../protocol-cases.mjs');
  const all = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((name) => ({ name, doc: JSON.parse(readFileSync(dir + name, 'utf8')) }));
  const { files, selected, leftOut } = protocolSelection(all, protocol);
  const result = runFixtures(protocol, files, recording, sessionFile, reference);
  for (const f of result.failures) console.log(`FAIL ${f.id} (${f.file}): ${f.message}`);
  const excluded = Object.values(leftOut).reduce((a, b) => a + b, 0);
  console.log(`fixtures (node, protocol entry): ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped; `
    + `${excluded} cases of functions it leaves out: ${JSON.stringify(leftOut)}`);
  assert.equal(selected, PROTOCOL_CASES, 'cases of protocol functions (PROTOCOL_CASES in js-tests/protocol-cases.mjs)');
  assert.equal(excluded, LEFT_OUT_CASES, 'cases of left-out functions (LEFT_OUT_CASES in js-tests/protocol-cases.mjs)');
  assert.equal(result.passed + result.skipped, PROTOCOL_CASES);
  assert.equal(result.failed, 0);
});
