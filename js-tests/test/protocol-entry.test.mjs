// 'agent-contract/protocol': its entries give one API object with the same names,
// those names and the left-out ones (js-tests/protocol-cases.mjs, with the reason for each) are
// exactly the full entry's, a left-out function is absent (not a stub), errors are the full
// entry's ContractError class, and the two cores are separate instances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { LEFT_OUT } from '../protocol-cases.mjs';

const require = createRequire(import.meta.url);

test('every ES module entry of agent-contract/protocol exports exactly what its CommonJS entry does', async () => {
  const cjs = require('agent-contract/protocol');
  const names = Object.keys(cjs).sort();
  const esm = await import('agent-contract/protocol');
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), names);
  assert.equal(esm.default, cjs);
  assert.equal(require('agent-contract/protocol/init'), cjs);
  // The instance is loaded already, so browser.mjs's automatic init does nothing here.
  for (const entry of ['shared.mjs', 'init.mjs', 'browser.mjs']) {
    const ns = await import(new URL(`../../pkg/protocol/${entry}`, import.meta.url));
    assert.deepEqual(Object.keys(ns).filter((k) => k !== 'default').sort(), names, entry);
    assert.equal(ns.default, cjs, entry);
  }
});

test('the protocol entry has every function of the full entry but those LEFT_OUT lists', () => {
  const full = require('agent-contract');
  const protocol = require('agent-contract/protocol');
  const expected = Object.keys(full).filter((name) => !Object.hasOwn(LEFT_OUT, name)).sort();
  assert.deepEqual(Object.keys(protocol).sort(), expected);
  for (const name of Object.keys(LEFT_OUT)) {
    assert.equal(typeof full[name], 'function', `LEFT_OUT lists ${name}, which the full entry does not have`);
    assert.equal(protocol[name], undefined, name);
  }
  // The same classes: an error from either core is a ContractError of both entries.
  assert.equal(protocol.ContractError, full.ContractError);
  assert.equal(protocol.NotInitializedError, full.NotInitializedError);
});

test('the same call gives the same verdict from either core, each its own instance', () => {
  const full = require('agent-contract');
  const protocol = require('agent-contract/protocol');
  const inputs = [
    { type: 'tool_call', callId: 'c1', tool: 'read_file', input: { path: 'a' } },
    { type: 'tool_call', callId: 'c1', tool: 'read_file' },
    { type: 'finish', summary: '  ' },
    null,
  ];
  for (const input of inputs) {
    const a = full.safeParseAgentAction(input);
    const b = protocol.safeParseAgentAction(input);
    assert.equal(a.ok, b.ok);
    if (a.ok) assert.deepEqual(b.value, a.value);
    else {
      assert.ok(b.error instanceof full.ContractError);
      assert.deepEqual([b.error.code, b.error.path, b.error.layer, b.error.message], [a.error.code, a.error.path, a.error.layer, a.error.message]);
    }
  }
  // Separate wasm instances: memory grown in one is not the other's.
  const before = protocol.memoryReport().bytes;
  full.parseJson(JSON.stringify({ x: 'y'.repeat(4 << 20) }), { maxBytes: 8 << 20, maxStringBytes: 8 << 20 });
  assert.equal(protocol.memoryReport().bytes, before);
});
