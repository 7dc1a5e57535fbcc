// JSON-RPC over NDJSON from the JS host: what the fixtures cannot say (real Error and
// ContractError objects, the iterator helpers, freeing, hostile chunk lists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'agent-contract';

const request = { jsonrpc: '2.0', id: 7, method: 'session/prompt', params: {} };

test('internalError takes an Error\'s message, never its stack', () => {
  const error = new Error('database unavailable');
  assert.ok(error.stack.includes('rpc.test.mjs'));
  const reply = api.internalError(request, error);
  assert.deepEqual(reply, { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'database unavailable' } });
  assert.equal(api.internalError({ jsonrpc: '2.0', method: 'n' }, error), null);
});

test('invalidParams maps a thrown ContractError to -32602 with its code and path', () => {
  let caught;
  try {
    api.parseAgentAction({ type: 'message' });
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof api.ContractError);
  const reply = api.invalidParams(request, caught);
  assert.deepEqual(reply.error, { code: -32602, message: 'Invalid params', data: { code: caught.code, path: caught.path } });
  assert.equal(api.methodNotFound({ jsonrpc: '2.0', method: 'n' }), null);
});

test('ndjsonFrames and ndjsonFramesAsync give the decoder frames', async () => {
  const chunks = ['{"jsonrpc":"2.0","method":"a"}\r', '\nnoise\n{"jsonrpc":"2.0","id":1,', '"result":2}'];
  const frames = [...api.ndjsonFrames(chunks)];
  assert.deepEqual(frames.map((f) => [f.kind, f.line, f.ignored]), [['notification', 1, false], ['parse_error', 2, true], ['response', 3, false]]);
  async function* source() {
    yield* chunks.map((c) => new TextEncoder().encode(c));
  }
  const got = [];
  for await (const f of api.ndjsonFramesAsync(source())) got.push(f);
  assert.deepEqual(got, frames);
  // Steps asked for together, before any settles, give the frames in order, then the end.
  const together = api.ndjsonFramesAsync(source());
  const steps = await Promise.all([0, 1, 2, 3, 4].map(() => together.next()));
  assert.deepEqual(steps.map((s) => s.done), [false, false, false, true, true]);
  assert.deepEqual(steps.slice(0, 3).map((s) => s.value), frames);
  // return() ends it early; a chunk the decoder refuses ends it with that ContractError.
  const early = api.ndjsonFramesAsync(source());
  assert.equal((await early.next()).value.line, 1);
  assert.deepEqual(await early.return('r'), { value: 'r', done: true });
  assert.deepEqual(await early.next(), { value: undefined, done: true });
  const refused = api.ndjsonFramesAsync((async function* () { yield chunks[0] + '\n'; yield 42; })());
  assert.equal((await refused.next()).value.kind, 'notification');
  await assert.rejects(refused.next(), (e) => e instanceof api.ContractError);
  assert.deepEqual(await refused.next(), { value: undefined, done: true });
});

test('a surrogate pair cut between string chunks reaches the core whole', () => {
  const line = '{"jsonrpc":"2.0","method":"😀"}';
  const at = line.indexOf('😀') + 1;
  const d = api.createNdjsonDecoder();
  const frames = [...d.push(line.slice(0, at)), ...d.push(line.slice(at) + '\n'), ...d.end()];
  d.free();
  assert.equal(frames.length, 1);
  assert.equal(frames[0].method, '😀');
  assert.throws(() => d.push('x'), /freed/);
});

test('invalid options throw at creation; a chunk that is not text is a ContractError', () => {
  assert.throws(() => api.createNdjsonDecoder({ onMalformed: 'throw' }), (e) => e instanceof api.ContractError && e.code === 'OPTION_INVALID');
  assert.throws(() => api.createRpcSession({ profile: 'lsp' }), (e) => e.code === 'OPTION_INVALID' && e.path === '/profile');
  const d = api.createNdjsonDecoder();
  assert.throws(() => d.push(42), (e) => e instanceof api.ContractError && e.code === 'JSON_INVALID');
  d.free();
  assert.throws(() => api.checkStdoutPurity(['ok\n', 5]), (e) => e.code === 'JSON_INVALID' && e.path === '/1');
});

test('a chunk list whose getter throws is a ContractError, not a throw through the core', () => {
  const list = ['{"jsonrpc":"2.0","method":"a"}\n'];
  Object.defineProperty(list, 1, { get() { throw new Error('trap'); }, enumerable: true });
  assert.throws(() => api.checkStdoutPurity(list), (e) => e instanceof api.ContractError);
  // The instance still works afterwards.
  assert.equal(api.checkStdoutPurity('{"jsonrpc":"2.0","method":"a"}\n').pure, true);
});

test('a session follows ids both ways', () => {
  const s = api.createRpcSession();
  assert.deepEqual(s.outgoing({ jsonrpc: '2.0', id: 1, method: 'initialize' }).problems, []);
  assert.deepEqual(s.incoming({ jsonrpc: '2.0', id: 1, result: {} }).problems, []);
  assert.deepEqual(s.incoming({ jsonrpc: '2.0', id: 1, result: {} }).problems.map((p) => p.code), ['RPC_ALREADY_ANSWERED']);
  s.free();
});
