// NDJSON decoder properties from JS (fast-check), the twin of tests/rpc_properties.rs: any
// chunking of a stream (bytes cut anywhere, or strings cut anywhere, between the halves of a
// surrogate pair too) gives the unsplit frames; random bytes never throw anything but a
// ContractError-free result, the decoder never holds more than maxLineBytes, and lines and
// offsets agree with an independent split at LF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 200;
const utf8 = new TextEncoder();

function decode(chunks, options) {
  const d = api.createNdjsonDecoder(options);
  try {
    const frames = [];
    for (const c of chunks) {
      frames.push(...d.push(c));
      assert.ok(d.bufferedBytes() <= (options?.maxLineBytes ?? 16 << 20), `holds ${d.bufferedBytes()} bytes`);
    }
    frames.push(...d.end());
    return frames;
  } finally {
    d.free();
  }
}

function cutAt(value, cuts) {
  const points = cuts.map((c) => Math.floor(c * (value.length + 1))).sort((a, b) => a - b);
  const out = [];
  let prev = 0;
  for (const p of points) {
    out.push(value.slice(prev, p));
    prev = p;
  }
  out.push(value.slice(prev));
  return out;
}

const text = fc.stringMatching(/^[ -~é😀\u2028\u2029]{0,20}$/u);
const line = fc.oneof(
  fc.stringMatching(/^[a-z/]{0,12}$/).map((m) => `{"jsonrpc":"2.0","method":"${m}"}`),
  fc.tuple(fc.integer({ min: -5, max: 1000 }), text).map(([id, s]) => `{"jsonrpc":"2.0","id":${id},"method":"m","params":[${JSON.stringify(s)}]}`),
  fc.integer({ min: 0, max: 99 }).map((id) => `{"jsonrpc":"2.0","id":${id},"result":null}`),
  fc.constantFrom('', ' ', '\t', '[]', 'not json', '{"a":1,"a":2}', '[{"jsonrpc":"2.0","method":"a"},1]'),
  text,
);
const stream = fc.tuple(fc.array(fc.tuple(line, fc.boolean()), { maxLength: 8 }), fc.boolean()).map(([lines, lastLf]) =>
  lines.map(([l, crlf], i) => l + (i + 1 < lines.length || lastLf ? (crlf ? '\r\n' : '\n') : '')).join(''));
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 8 });
const max = fc.oneof(fc.constant(1 << 20), fc.integer({ min: 8, max: 80 }));

test('any chunking of bytes or strings gives the unsplit frames', () => {
  fc.assert(
    fc.property(stream, cuts, max, (s, cs, maxLineBytes) => {
      const options = { maxLineBytes };
      const whole = decode([s], options);
      assert.deepEqual(decode(cutAt(utf8.encode(s), cs), options), whole);
      // String chunks cut at any UTF-16 unit: a pair cut in two still reaches the core whole.
      assert.deepEqual(decode(cutAt(s, cs), options), whole);
    }),
    { numRuns: RUNS },
  );
});

function oracle(bytes) {
  const out = [];
  let start = 0;
  let n = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (i === bytes.length && i === start) break;
      out.push({ line: n++, offset: start });
      start = i + 1;
    }
  }
  return out;
}

test('random bytes: no throw, at most maxLineBytes held, one frame per line', () => {
  const byte = fc.oneof(fc.constantFrom(0x0a, 0x0d, 0x7b, 0x22), fc.integer({ min: 0, max: 255 }));
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 300 }), cuts, fc.integer({ min: 1, max: 64 }), (arr, cs, maxLineBytes) => {
      const bytes = Uint8Array.from(arr);
      const frames = decode(cutAt(bytes, cs), { maxLineBytes });
      assert.deepEqual(frames.map((f) => ({ line: f.line, offset: f.offset })), oracle(bytes));
    }),
    { numRuns: RUNS },
  );
});

test('random strings, lone surrogates included: no throw, one frame per line', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('\n', '\r\n', '\ud800', '\udc00')), { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      const frames = decode([s], { maxLineBytes: 64 });
      assert.equal(frames.length, s.split('\n').length - (s.endsWith('\n') || s === '' ? 1 : 0));
    }),
    { numRuns: RUNS },
  );
});

// A repeated short line, and a line whose members are the previous frame's, cross as a row or a run
// (wire::FrameWriter) that this side expands: each frame must be what a decoder that met the
// line alone gives, moved to its place, and share no object with another frame.
test('frames written as rows are each line read alone', () => {
  const repeated = fc.oneof(line, fc.constantFrom('x', 'x', '', '[1]', '[2]', 'x'.repeat(129), '[1,2]', '[3,{"jsonrpc":"2.0","id":4}]'));
  fc.assert(
    fc.property(fc.array(fc.tuple(repeated, fc.boolean()), { maxLength: 24 }), fc.boolean(), max, ([...lines], reply, maxLineBytes) => {
      const options = { maxLineBytes, onMalformed: reply ? 'reply' : 'ignore' };
      const s = lines.map(([l, crlf]) => l + (crlf ? '\r\n' : '\n')).join('');
      const frames = decode([s], options);
      let offset = 0;
      const alone = lines.map(([l, crlf], i) => {
        const [f] = decode([l + (crlf ? '\r\n' : '\n')], options);
        const at = { ...f, line: i + 1, offset };
        offset += utf8.encode(l).length + (crlf ? 2 : 1);
        return at;
      });
      assert.deepEqual(frames, alone);
      const held = new Set(); // no two frames share an object, near or far apart
      for (const frame of frames) {
        for (const key of ['reply', 'items', 'message', 'id']) {
          if (frame[key] !== null && typeof frame[key] === 'object') {
            assert.ok(!held.has(frame[key]), key);
            held.add(frame[key]);
          }
        }
      }
      for (let i = 1; i < frames.length; i++) {
        if (frames[i].items && frames[i - 1].items?.length === frames[i].items.length) {
          frames[i].items.forEach((item, k) => item.reply && assert.notEqual(item.reply, frames[i - 1].items[k].reply));
        }
      }
      for (const frame of frames) assertLinked(frame);
    }),
    { numRuns: RUNS },
  );
});

// A batch's reply holds its items' reply objects, those that are not null, in order
// (wire::batch_reply_linked): one object per reply, not two equal ones.
function assertLinked(c) {
  if (c.kind !== 'batch' || c.reply === null) return;
  const answered = c.items.filter((item) => item.reply !== null);
  assert.equal(c.reply.length, answered.length);
  c.reply.forEach((reply, j) => assert.equal(reply, answered[j].reply));
}

test('a batch reply holds its items\' reply objects, in every operation that classifies', () => {
  const element = fc.oneof(
    fc.constantFrom(1, 'x', null, [], {}, { jsonrpc: '2.0', method: 'n' }, { jsonrpc: '2.0', id: 3, result: 1 }),
    fc.integer({ min: 0, max: 9 }).map((id) => ({ jsonrpc: '2.0', id })),
    fc.integer({ min: 0, max: 9 }).map((id) => ({ jsonrpc: '2.0', id, method: 'm' })),
  );
  fc.assert(
    fc.property(fc.array(element, { minLength: 1, maxLength: 12 }), (batch) => {
      const text = JSON.stringify(batch);
      const session = api.createRpcSession();
      const all = [
        api.classifyJsonRpc(batch),
        api.classifyJsonRpcJson(text),
        api.classifyJsonRpcJson(utf8.encode(text)),
        session.incoming(batch),
        session.outgoing(batch),
        ...decode([`${text}\n${text}\n`], { onMalformed: 'reply' }),
      ];
      session.free();
      for (const c of all) assertLinked(c);
      assert.deepEqual(all[1].reply, all[0].reply);
    }),
    { numRuns: RUNS },
  );
});
