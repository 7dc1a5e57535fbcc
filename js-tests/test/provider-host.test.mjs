// Provider streams from JS: the provider assembler's push / pushSse / preview /
// finish / free, the fetch-body TransformStream, the errors a host can cause, and memory: many
// assemblers at once do not interfere, 100,000 created and dropped do not grow the wasm memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'agent-contract';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const chunk = (o) => `data: ${JSON.stringify(o)}\n\n`;
const start = (id, name, index = 0) => ({ id: 'r', choices: [{ index: 0, delta: { tool_calls: [{ index, id, function: { name, arguments: '' } }] } }] });
const args = (text, index = 0) => ({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: text } }] } }] });
const fin = (reason) => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });
const sse = [chunk(start('c1', 'read_file')), chunk(args('{"path":"東京/')), chunk(args('😀.txt"}')), chunk(fin('tool_calls')), 'data: [DONE]\n\n'].join('');
const expected = { responseId: 'r', finishReason: 'tool_calls', calls: [{ callId: 'c1', name: 'read_file', arguments: { path: '東京/😀.txt' } }] };

test('pushSse takes strings and bytes split anywhere, inside a UTF-8 character too', () => {
  const bytes = new TextEncoder().encode(sse);
  for (const size of [1, 2, 3, 5, 7, 64]) {
    const a = api.createProviderAssembler('openai-chat');
    for (let i = 0; i < bytes.length; i += size) a.pushSse(bytes.subarray(i, i + size));
    assert.deepEqual(a.finish(), expected, `byte chunks of ${size}`);
    a.free();
  }
  const a = api.createProviderAssembler('openai-chat');
  for (const piece of sse.match(/[\s\S]{1,4}/gu)) a.pushSse(piece);
  assert.deepEqual(a.finish(), expected);
  assert.deepEqual(a.finish(), expected, 'finish() twice');
  a.free();
});

test('push takes parsed payloads and payload texts, [DONE] included', () => {
  const a = api.createProviderAssembler('openai-chat');
  a.push(start('c1', 'read_file'));
  a.push(JSON.stringify(args('{"path":"東京/')));
  a.push(args('😀.txt"}'));
  a.push(fin('tool_calls'));
  a.push('[DONE]');
  assert.deepEqual(a.finish(), expected);
  a.free();
});

test('preview is never executable and carries the responseId', () => {
  const a = api.createProviderAssembler('openai-chat');
  a.pushSse(chunk(start('c1', 'read_file')) + chunk(args('{"pa')));
  assert.deepEqual(a.preview(), {
    responseId: 'r', executable: false, finishReason: null,
    calls: [{ callId: 'c1', name: 'read_file', argumentsText: '{"pa', complete: false }],
  });
  assert.throws(() => a.finish(), { code: 'INCOMPLETE_RESPONSE', layer: 'stream' });
  a.free();
});

test('the first error ends the stream; every later call throws it again', () => {
  const a = api.createProviderAssembler('anthropic');
  assert.throws(() => a.pushSse('data: {"type":\n\n'), { code: 'JSON_INVALID', layer: 'transport' });
  assert.throws(() => a.push({ type: 'ping' }), { code: 'JSON_INVALID', layer: 'transport' });
  assert.throws(() => a.finish(), { code: 'JSON_INVALID' });
  a.free();
});

test('host mistakes are ContractErrors: a chunk that is not text, an event JSON cannot write, an unknown provider', () => {
  const a = api.createProviderAssembler('openai-chat');
  assert.throws(() => a.pushSse(42), { code: 'STREAM_EVENT_INVALID', layer: 'stream', path: '' });
  assert.throws(() => a.pushSse(''), { code: 'STREAM_EVENT_INVALID' }, 'the stream stays failed');
  a.free();
  const b = api.createProviderAssembler('openai-chat');
  assert.throws(() => b.push({ id: 'r', choices: [{ index: NaN }] }), { code: 'VALUE_NOT_JSON', layer: 'transport', path: '/choices/0/index' });
  b.free();
  assert.throws(() => api.createProviderAssembler('openai'), { code: 'PROVIDER_UNKNOWN', layer: 'contract' });
  assert.throws(() => api.createProviderAssembler(undefined), { code: 'PROVIDER_UNKNOWN' });
  assert.throws(() => api.createProviderAssembler('gemini', { maxBytes: 1 }), { code: 'OPTION_INVALID', path: '/maxBytes' });
  assert.throws(() => api.assembleProviderStream('anthropic', 7), { code: 'STREAM_EVENT_INVALID' });
  const safe = api.safeAssembleProviderStream('anthropic', {});
  assert.equal(safe.ok, false);
  assert.ok(safe.error instanceof api.ContractError);
});

test('providerResponseStream turns a fetch body into one normalized response', async () => {
  const body = new Response(sse).body; // bytes, as fetch gives them
  const out = [];
  for await (const r of body.pipeThrough(api.providerResponseStream('openai-chat'))) out.push(r);
  assert.deepEqual(out, [expected]);
  const text = new Response(sse).body.pipeThrough(new TextDecoderStream());
  const reader = text.pipeThrough(api.providerResponseStream('openai-chat')).getReader();
  assert.deepEqual((await reader.read()).value, expected);
  assert.equal((await reader.read()).done, true);
});

test('providerResponseStream errors with the ContractError, at the bad chunk or at the end', async () => {
  const cut = new Response(sse.slice(0, sse.indexOf('data: {"choices":[{"index":0,"delta":{},"finish_reason"')));
  await assert.rejects(async () => {
    for await (const r of cut.body.pipeThrough(api.providerResponseStream('openai-chat'))) void r;
  }, (e) => e instanceof api.ContractError && e.code === 'INCOMPLETE_RESPONSE');
  await assert.rejects(async () => {
    for await (const r of new Response('data: nope\n\n').body.pipeThrough(api.providerResponseStream('openai-chat'))) void r;
  }, (e) => e instanceof api.ContractError && e.code === 'JSON_INVALID' && e.layer === 'transport');
  assert.throws(() => api.providerResponseStream('nope'), { code: 'PROVIDER_UNKNOWN' });
});

test('provider assemblers interleaved with each other do not interfere', () => {
  const a = api.createProviderAssembler('openai-chat');
  const b = api.createProviderAssembler('openai-chat');
  a.pushSse(chunk(start('a1', 'read_file')));
  b.pushSse(chunk(start('b1', 'write_file')));
  a.pushSse(chunk(args('{"n":1}')));
  b.pushSse(chunk(args('{"n":2}')));
  assert.throws(() => b.pushSse(chunk(fin('length'))), { code: 'INCOMPLETE_RESPONSE' });
  a.pushSse(chunk(fin('tool_calls')));
  assert.deepEqual(a.finish().calls, [{ callId: 'a1', name: 'read_file', arguments: { n: 1 } }]);
  assert.throws(() => b.finish(), { code: 'INCOMPLETE_RESPONSE' });
  a.free();
  b.free();
  assert.throws(() => a.pushSse(''), (e) => e instanceof api.ContractError && e.code === 'OBJECT_FREED' && e.layer === 'contract' && e.path === '' && e.retryable === false);
});

test('100,000 provider assemblers created and freed, or dropped, do not grow the wasm memory', async () => {
  const text = chunk(start('c', 'read_file')) + chunk(args('{"path":"' + 'x'.repeat(200) + '"}'));
  for (let i = 0; i < 1000; i++) {
    const a = api.createProviderAssembler('openai-chat');
    a.pushSse(text);
    a.free();
  }
  const before = api.memoryReport().bytes;
  for (let i = 0; i < 100_000; i++) {
    const a = api.createProviderAssembler('openai-chat');
    a.pushSse(text);
    a.free();
  }
  assert.ok(api.memoryReport().bytes - before <= 1 << 20, `memory grew from ${before} to ${api.memoryReport().bytes}`);
  // Dropped without free(): the garbage collector's finalizers free them. The memory of the
  // first rounds (10,000 live at once) is reused by the later ones; a leak would add ~15 MB.
  let settled = 0;
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 10_000; i++) api.createProviderAssembler('openai-chat').pushSse(text);
    gc();
    await new Promise((r) => setTimeout(r, 0));
    if (round === 1) settled = api.memoryReport().bytes;
  }
  assert.ok(api.memoryReport().bytes - settled <= 4 << 20, `memory grew from ${settled} to ${api.memoryReport().bytes}`);
});
