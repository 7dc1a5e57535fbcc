// JS-only behaviours: things no JSON fixture can express (getters, Proxies, symbols, bigint,
// realms, identity and freezing). Each asserts the exact code and path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import * as api from 'agent-contract';
import { TIME_BOUNDS, assertFlat } from '../timing.mjs';

const { parseAgentAction, parseAgentActionJson, defineTool, previewAction, ContractError } = api;

function error(call) {
  try {
    call();
  } catch (e) {
    assert.ok(e instanceof ContractError, `expected ContractError, got ${e}`);
    return { layer: e.layer, code: e.code, path: e.path };
  }
  assert.fail('expected a ContractError');
}

const toolCall = (input) => ({ type: 'tool_call', callId: 'c1', tool: 'read_file', input });

test('ContractError is an Error with the documented fields', () => {
  let caught;
  try { parseAgentAction([]); } catch (e) { caught = e; }
  assert.ok(caught instanceof Error && caught instanceof ContractError);
  assert.equal(caught.name, 'ContractError');
  assert.deepEqual({ layer: caught.layer, code: caught.code, path: caught.path, retryable: caught.retryable },
    { layer: 'protocol', code: 'ACTION_NOT_OBJECT', path: '', retryable: true });
  assert.equal(typeof caught.message, 'string');
});

test('a getter that throws is VALUE_NOT_JSON at its path, and the getter runs once', () => {
  const action = { type: 'message' };
  Object.defineProperty(action, 'content', { enumerable: true, get() { throw new Error('boom'); } });
  assert.deepEqual(error(() => parseAgentAction(action)), { layer: 'parse', code: 'VALUE_NOT_JSON', path: '/content' });
  let reads = 0;
  const counted = { type: 'message', get content() { reads++; return 'hi'; } };
  assert.equal(parseAgentAction(counted).content, 'hi');
  assert.equal(reads, 1);
});

test('Proxy traps that throw, and revoked Proxies, give ContractErrors', () => {
  const hostile = new Proxy({ type: 'message', content: 'x' }, { ownKeys() { throw new Error('trap'); } });
  assert.deepEqual(error(() => parseAgentAction(hostile, { strict: true })), { layer: 'parse', code: 'VALUE_NOT_JSON', path: '' });
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.deepEqual(error(() => parseAgentAction(proxy)), { layer: 'protocol', code: 'ACTION_NOT_OBJECT', path: '' });
  assert.deepEqual(error(() => parseAgentAction(toolCall({ p: proxy }))), { layer: 'parse', code: 'VALUE_NOT_JSON', path: '/input/p' });
});

test('symbols and bigints are not JSON', () => {
  assert.deepEqual(error(() => parseAgentAction({ type: Symbol('x') })), { layer: 'protocol', code: 'FIELD_TYPE', path: '/type' });
  assert.deepEqual(error(() => parseAgentAction(toolCall({ n: 10n }))), { layer: 'parse', code: 'VALUE_NOT_JSON', path: '/input/n' });
  const withSymbolKey = { type: 'message', content: 'x', [Symbol('s')]: 1 };
  assert.deepEqual(parseAgentAction(withSymbolKey, { strict: true }), { type: 'message', content: 'x' });
});

test('a cycle is VALUE_CYCLE at the back-reference; shared-reference blow-ups end with a limit error, quickly', () => {
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  assert.deepEqual(error(() => parseAgentAction(toolCall(cyclic))), { layer: 'parse', code: 'VALUE_CYCLE', path: '/input/self' });
  let dag = { leaf: 'x'.repeat(100) };
  for (let i = 0; i < 60; i++) dag = { a: dag, b: dag };
  const started = Date.now();
  assert.deepEqual(error(() => parseAgentAction(toolCall(dag))), { layer: 'parse', code: 'INPUT_TOO_LARGE', path: '' });
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  // Over maxArrayLength (reported at the array) before the size budget is even consulted.
  assert.deepEqual(error(() => parseAgentAction(toolCall(sparse))), { layer: 'parse', code: 'INPUT_TOO_LARGE', path: '/input' });
  const sparseMillion = [];
  sparseMillion.length = 2 ** 20;
  assert.deepEqual(error(() => parseAgentAction(toolCall(sparseMillion), { maxArrayLength: 2 ** 20, maxBytes: 50_000 })),
    { layer: 'parse', code: 'INPUT_TOO_LARGE', path: '' });
  if (TIME_BOUNDS) assert.ok(Date.now() - started < 5000, 'limits must stop the work early');
  // The budget stops the walk, whatever the depth: 2^15 or 2^60 paths, the same time.
  assertFlat((depth) => {
    let deep = { leaf: 'x'.repeat(100) };
    for (let i = 0; i < depth; i++) deep = { a: deep, b: deep };
    return () => api.safeParseAgentAction(toolCall(deep));
  }, 15, { factor: 4 });
});

test('inherited properties never count, even with Object.prototype polluted', () => {
  Object.prototype.input = { path: '/etc/passwd' };
  try {
    assert.deepEqual(error(() => parseAgentAction({ type: 'tool_call', callId: 'c', tool: 't' })),
      { layer: 'protocol', code: 'ACTION_INPUT_MISSING', path: '/input' });
  } finally {
    delete Object.prototype.input;
  }
  const inheriting = Object.create({ type: 'message', content: 'x' });
  assert.deepEqual(error(() => parseAgentAction(inheriting)), { layer: 'protocol', code: 'ACTION_NOT_OBJECT', path: '' });
});

test('null-prototype and other-realm plain objects are plain objects', () => {
  const bare = Object.assign(Object.create(null), { type: 'finish', summary: 'ok' });
  assert.deepEqual(parseAgentAction(bare), { type: 'finish', summary: 'ok' });
  const foreign = vm.runInNewContext('({ type: "tool_call", callId: "c", tool: "t", input: [1, { a: null }] })');
  assert.deepEqual(parseAgentAction(foreign), { type: 'tool_call', callId: 'c', tool: 't', input: [1, { a: null }] });
});

test('input: undefined is an own property of the result; the result shares no reference', () => {
  const undef = parseAgentAction(toolCall(undefined));
  assert.ok(Object.hasOwn(undef, 'input'));
  assert.equal(undef.input, undefined);
  const source = toolCall({ path: 'a', nested: { keep: undefined } });
  const parsed = parseAgentAction(source);
  assert.notEqual(parsed.input, source.input);
  source.input.path = 'changed';
  assert.equal(parsed.input.path, 'a');
  assert.ok(Object.hasOwn(parsed.input.nested, 'keep') && parsed.input.nested.keep === undefined);
});

test('__proto__ keys stay own data properties and never touch prototypes', () => {
  const parsed = parseAgentActionJson('{"type":"tool_call","callId":"c","tool":"t","input":{"__proto__":{"polluted":true}}}');
  assert.ok(Object.hasOwn(parsed.input, '__proto__'));
  assert.equal(Object.getPrototypeOf(parsed.input), Object.prototype);
  assert.equal(({}).polluted, undefined);
  assert.deepEqual(Object.keys(parsed.input), ['__proto__']);
});

test('tool definitions are deep-frozen copies', () => {
  const schema = { type: 'object', properties: { path: { type: 'string' } } };
  const tool = defineTool({ name: 'read_file', description: ' Read. ', inputSchema: schema, permissions: ['read'] });
  schema.properties.path.type = 'number';
  assert.equal(tool.inputSchema.properties.path.type, 'string');
  assert.ok(Object.isFrozen(tool) && Object.isFrozen(tool.inputSchema.properties.path) && Object.isFrozen(tool.permissions));
  assert.throws(() => { 'use strict'; tool.inputSchema.properties.path.type = 'x'; }, TypeError);
});

test('text: lone surrogates are reported, never replaced; non-text is JSON_INVALID', () => {
  const e = error(() => parseAgentActionJson('{"type":"message","content":"a\ud800b"}'));
  assert.deepEqual(e, { layer: 'parse', code: 'STRING_LONE_SURROGATE', path: '/content' });
  assert.deepEqual(error(() => parseAgentActionJson(42)), { layer: 'parse', code: 'JSON_INVALID', path: '' });
  assert.deepEqual(error(() => parseAgentActionJson(undefined)), { layer: 'parse', code: 'JSON_INVALID', path: '' });
  const bytes = new TextEncoder().encode('{"type":"finish","summary":"\u{1F600}"}');
  assert.deepEqual(parseAgentActionJson(bytes), { type: 'finish', summary: '\u{1F600}' });
});

test('previewAction never throws, even on hostile input', () => {
  const hostile = new Proxy({}, { getPrototypeOf() { throw new Error('x'); } });
  assert.deepEqual(previewAction(hostile), { ok: false, code: 'ACTION_NOT_OBJECT', path: '' });
  assert.deepEqual(previewAction(toolCall({ Password: 'hunter2', deep: [{ apiKey: 'k' }] })), {
    ok: true, type: 'tool_call', callId: 'c1', tool: 'read_file', fields: ['type', 'callId', 'tool', 'input'],
    input: { Password: '[REDACTED]', deep: [{ apiKey: '[REDACTED]' }] },
  });
});

test('1,000 failing calls leave the instance usable', () => {
  for (let i = 0; i < 1000; i++) {
    assert.equal(api.safeParseAgentAction({ type: 'tool_call', callId: '', tool: 't', input: i }).ok, false);
  }
  assert.deepEqual(parseAgentAction({ type: 'finish', summary: 'still fine' }), { type: 'finish', summary: 'still fine' });
});

test('real huge and deep inputs at the default limits', () => {
  const big = 'x'.repeat(5 * 1024 * 1024);
  assert.deepEqual(error(() => parseAgentActionJson(`{"type":"message","content":"${big}"}`)), { layer: 'parse', code: 'INPUT_TOO_LARGE', path: '' });
  // Over maxStringBytes (1 MiB) before maxBytes: reported at the string.
  assert.deepEqual(error(() => parseAgentAction({ type: 'message', content: big })), { layer: 'parse', code: 'INPUT_TOO_LARGE', path: '/content' });
  // The action is depth 1, so 127 nested arrays reach the default limit (128) and 128 pass it.
  const nested = (n) => `{"type":"tool_call","callId":"c","tool":"t","input":${'['.repeat(n)}${']'.repeat(n)}}`;
  assert.equal(parseAgentActionJson(nested(127)).type, 'tool_call');
  assert.deepEqual(error(() => parseAgentActionJson(nested(128))), { layer: 'parse', code: 'INPUT_TOO_DEEP', path: '/input' + '/0'.repeat(127) });
  const wide = Array.from({ length: 60_000 }, (_, i) => i); // under the default maxArrayLength (65536)
  assert.equal(parseAgentAction(toolCall(wide)).input.length, 60_000);
  assert.equal(parseAgentActionJson(JSON.stringify(toolCall(wide))).input[59_999], 59_999);
});

test('every ES module entry exports exactly what the CommonJS entry does', async () => {
  const { createRequire } = await import('node:module');
  const cjs = createRequire(import.meta.url)('agent-contract');
  const names = Object.keys(cjs).sort();
  const esm = await import('agent-contract');
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), names);
  assert.equal(esm.default, cjs);
  // The other entries (and the list they share) give the same names and the same API object.
  // The instance is loaded already, so browser.mjs's automatic init does nothing here.
  for (const entry of ['shared.mjs', 'init.mjs', 'browser.mjs']) {
    const ns = await import(new URL(`../../pkg/${entry}`, import.meta.url));
    assert.deepEqual(Object.keys(ns).filter((k) => k !== 'default').sort(), names, entry);
    assert.equal(ns.default, cjs, entry);
    assert.equal(ns.ContractError, cjs.ContractError, entry);
  }
});
