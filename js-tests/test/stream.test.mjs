// The stream assembler from JS: random chunk splits of valid streams (code points, and raw UTF-8
// bytes split anywhere then decoded with a streaming TextDecoder) give the unsplit result;
// random event sequences never yield a call unless the stream is valid; replay is identical;
// many assemblers do not interfere; 100,000 created and freed do not grow the wasm memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';
import v8 from 'node:v8';
import vm from 'node:vm';

// A handle on the garbage collector without a command-line flag.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const RUNS = 300;

function run(events, options) {
  const a = api.createAssembler(options);
  try {
    for (const e of events) a.push(e);
    return { ok: true, value: a.finish() };
  } catch (error) {
    if (!(error instanceof api.ContractError)) throw error;
    return { ok: false, code: error.code, layer: error.layer, path: error.path };
  } finally {
    a.free();
  }
}

const args = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const calls = fc.array(fc.tuple(fc.constantFrom('read_file', 'search', 'write'), args), { minLength: 0, maxLength: 3 });

/** Splits `s` at random code-point boundaries (pieces may be empty or one character). */
function splitCodePoints(s, cuts) {
  const cps = Array.from(s);
  const points = [...new Set(cuts.map((c) => Math.floor(c * (cps.length + 1))))].sort((a, b) => a - b);
  const out = [];
  let prev = 0;
  for (const p of points) {
    out.push(cps.slice(prev, p).join(''));
    prev = Math.max(prev, p);
  }
  out.push(cps.slice(prev).join(''));
  return out;
}

/** Splits the UTF-8 bytes of `s` anywhere (inside multi-byte characters too) and decodes each piece
 *  with one streaming TextDecoder, as an adapter reading a byte stream must. */
function splitBytes(s, cuts) {
  const bytes = new TextEncoder().encode(s);
  const points = [...new Set(cuts.map((c) => Math.floor(c * (bytes.length + 1))))].sort((a, b) => a - b);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out = [];
  let prev = 0;
  for (const p of points) {
    out.push(decoder.decode(bytes.subarray(prev, p), { stream: true }));
    prev = Math.max(prev, p);
  }
  out.push(decoder.decode(bytes.subarray(prev)));
  return out;
}

/** A valid stream: every call started, its pieces interleaved with the others', ended, finished. */
function stream(callList, pieces, order) {
  const events = [];
  let seq = 0;
  const queues = callList.map(([name], i) => [
    { type: 'start', itemId: `i${i}`, callId: `c${i}`, name },
    ...pieces[i].map((text) => ({ type: 'delta', itemId: `i${i}`, text })),
    { type: 'end', itemId: `i${i}` },
  ]);
  let k = 0;
  while (queues.some((q) => q.length)) {
    const live = queues.filter((q) => q.length);
    const q = live[order[k++ % order.length] % live.length];
    events.push({ ...q.shift(), sequence: seq++ });
  }
  events.push({ type: 'finish', sequence: seq, reason: 'tool_calls' });
  return events;
}

test('random splits and interleavings of a valid stream give the unsplit result', () => {
  fc.assert(
    fc.property(calls, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), fc.array(fc.nat(7), { minLength: 1, maxLength: 20 }), fc.boolean(), (cs, cuts, order, bytes) => {
      const texts = cs.map(([, a]) => JSON.stringify(a));
      const whole = run(stream(cs, texts.map((t) => [t]), [0]));
      assert.equal(whole.ok, true);
      assert.deepEqual(whole.value.calls.map((c) => c.arguments), cs.map(([, a]) => JSON.parse(JSON.stringify(a))));
      const split = texts.map((t) => (bytes ? splitBytes(t, cuts) : splitCodePoints(t, cuts)));
      const events = stream(cs, split, order);
      // Calls come out in start order; interleaving may start them in another order.
      const byCallId = (r) => (r.ok ? { ...r, value: { ...r.value, calls: [...r.value.calls].sort((x, y) => (x.callId < y.callId ? -1 : 1)) } } : r);
      const got = run(events);
      assert.deepEqual(byCallId(got), byCallId(whole));
      assert.deepEqual(run(events), got, 'replay');
    }),
    { numRuns: RUNS },
  );
});

test('a lone surrogate half in a delta (a pair split between JS strings) is rejected, never joined', () => {
  const events = [
    { type: 'start', sequence: 1, itemId: 'i', callId: 'c', name: 't' },
    { type: 'delta', sequence: 2, itemId: 'i', text: '{"a":"\ud83d' },
    { type: 'delta', sequence: 3, itemId: 'i', text: '\ude00"}' },
  ];
  assert.equal(run(events).code, 'STRING_LONE_SURROGATE');
});

const anyEvent = fc.oneof(
  fc.record({ type: fc.constant('start'), sequence: fc.nat(9), itemId: fc.constantFrom('i0', 'i1'), callId: fc.constantFrom('c0', 'c1'), name: fc.constantFrom('a', 'b') }),
  fc.record({ type: fc.constant('delta'), sequence: fc.nat(9), itemId: fc.constantFrom('i0', 'i1', 'i2'), text: fc.constantFrom('{', '}', '"a":1', '', '{}', ',') }),
  fc.record({ type: fc.constant('end'), sequence: fc.nat(9), itemId: fc.constantFrom('i0', 'i1', 'i2') }),
  fc.record({ type: fc.constant('finish'), sequence: fc.nat(9), reason: fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter', 'cancelled', 'error', 'unknown') }),
  fc.constant({ type: 'cancel' }),
  fc.anything({ maxDepth: 2 }),
);

/** The rules restated independently: does this event list assemble? */
function valid(events) {
  let last = -1;
  const items = new Map();
  const callIds = new Set();
  let finished = false;
  for (const e of events) {
    if (finished || e === null || typeof e !== 'object' || Array.isArray(e)) return false;
    if (e.type === 'cancel' || typeof e.sequence !== 'number' || e.sequence <= last) return false;
    last = e.sequence;
    if (e.type === 'start') {
      if (items.has(e.itemId) || callIds.has(e.callId)) return false;
      items.set(e.itemId, { text: '', ended: false });
      callIds.add(e.callId);
    } else if (e.type === 'delta' || e.type === 'end') {
      const item = items.get(e.itemId);
      if (!item || item.ended) return false;
      if (e.type === 'delta') item.text += e.text;
      else {
        try {
          const v = JSON.parse(item.text);
          if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
        } catch {
          return false;
        }
        item.ended = true;
      }
    } else if (e.type === 'finish') {
      if (e.reason !== 'stop' && e.reason !== 'tool_calls') return false;
      if ([...items.values()].some((i) => !i.ended)) return false;
      finished = true;
    } else return false;
  }
  return finished;
}

test('random event sequences yield calls only when the stream is valid; replay agrees; no trap', () => {
  fc.assert(
    fc.property(fc.array(anyEvent, { maxLength: 12 }), (events) => {
      const got = run(events);
      // Duplicate keys are the only difference JSON.parse does not see; the generator makes none.
      assert.equal(got.ok, valid(events), JSON.stringify(got));
      assert.deepEqual(run(events), got, 'replay');
    }),
    { numRuns: 3000 },
  );
});

test('assemblers interleaved with each other do not interfere', () => {
  const a = api.createAssembler();
  const b = api.createAssembler();
  a.push({ type: 'start', sequence: 5, itemId: 'x', callId: 'c', name: 'a' });
  b.push({ type: 'start', sequence: 1, itemId: 'x', callId: 'c', name: 'b' });
  a.push({ type: 'delta', sequence: 6, itemId: 'x', text: '{"n":1}' });
  b.push({ type: 'delta', sequence: 2, itemId: 'x', text: '{"n":2}' });
  assert.deepEqual(b.preview(), { executable: false, finishReason: null, calls: [{ callId: 'c', name: 'b', argumentsText: '{"n":2}', complete: false }] });
  a.push({ type: 'end', sequence: 7, itemId: 'x' });
  b.push({ type: 'end', sequence: 3, itemId: 'x' });
  a.push({ type: 'finish', sequence: 8, reason: 'stop' });
  assert.throws(() => b.push({ type: 'finish', sequence: 4, reason: 'length' }), { code: 'INCOMPLETE_RESPONSE' });
  assert.deepEqual(a.finish(), { finishReason: 'stop', calls: [{ callId: 'c', name: 'a', arguments: { n: 1 } }] });
  assert.throws(() => b.finish(), { code: 'INCOMPLETE_RESPONSE', layer: 'stream' });
  a.free();
  b.free();
  assert.throws(() => a.push({ type: 'cancel' }), /freed/);
});

test('invalid options throw at createAssembler', () => {
  assert.throws(() => api.createAssembler({ maxBytes: 1 }), { code: 'OPTION_INVALID', path: '/maxBytes' });
});

test('100,000 assemblers created and freed do not grow the wasm memory', () => {
  const use = (a) => {
    a.push({ type: 'start', sequence: 1, itemId: 'i', callId: 'c', name: 'read_file' });
    a.push({ type: 'delta', sequence: 2, itemId: 'i', text: '{"path":"' + 'x'.repeat(200) + '"}' });
    a.push({ type: 'end', sequence: 3, itemId: 'i' });
  };
  for (let i = 0; i < 1000; i++) {
    const a = api.createAssembler();
    use(a);
    a.free();
  }
  const before = api.memoryReport().bytes;
  for (let i = 0; i < 100_000; i++) {
    const a = api.createAssembler();
    use(a);
    a.free();
  }
  // 100,000 leaked assemblers would hold > 25 MB; freed ones reuse the same few pages.
  assert.ok(api.memoryReport().bytes - before <= 1 << 20, `memory grew from ${before} to ${api.memoryReport().bytes}`);
});

test('100,000 assemblers dropped without free() are reclaimed by garbage collection', async () => {
  const before = api.memoryReport().bytes;
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 10_000; i++) {
      const a = api.createAssembler();
      a.push({ type: 'start', sequence: 1, itemId: 'i', callId: 'c', name: 'read_file' });
      a.push({ type: 'delta', sequence: 2, itemId: 'i', text: 'x'.repeat(200) });
    }
    gc();
    await new Promise((r) => setTimeout(r, 0));
  }
  assert.ok(api.memoryReport().bytes - before <= 16 << 20, `memory grew from ${before} to ${api.memoryReport().bytes}`);
});
