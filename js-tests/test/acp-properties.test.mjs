// ACP admission and lifecycle properties in Node (fast-check): every interleaving of lifecycle
// calls up to five, and random longer ones, keep the seed's invariants (no message queued after
// a cancel, the agent cancelled only for an enqueued message, settlement only after quiescence,
// `cancelled` exactly when a cancel came first, one prompt in flight); canonical base64 agrees
// with Buffer's decode-and-re-encode; admitted payloads are the sent bytes with Node's SHA-256;
// hostile values never escape as anything but a ContractError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import * as api from 'agent-contract';

const CALLS = ['admitted', 'written', 'enqueue', 'cancel', 'agentIdle', 'outputDelivered', 'settle', 'abandon'];

function outcome(call) {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    if (!(error instanceof api.ContractError)) throw error;
    return { ok: false, error };
  }
}

/** Runs `seq` (indexes into CALLS) on one lifecycle, checking each outcome against the log of
 *  the prompt in flight (the calls that succeeded since its admitted(); `enqueue!` a queued
 *  message, `enqueue` one refused after a cancel). */
function checkSequence(seq) {
  const lifecycle = api.createPromptLifecycle();
  let log = null;
  try {
    for (const i of seq) {
      const call = CALLS[i];
      const out = outcome(() => lifecycle[call]());
      const has = (name) => log !== null && log.includes(name);
      const pos = (name) => (log === null ? -1 : log.indexOf(name));
      const where = JSON.stringify(seq.map((k) => CALLS[k]));
      switch (call) {
        case 'admitted':
          assert.equal(out.ok, log === null, where);
          if (!out.ok) assert.equal(out.error.code, 'PROMPT_IN_FLIGHT', where);
          break;
        case 'enqueue':
          if (has('cancel')) assert.equal(out.ok, false, `queued after cancel: ${where}`);
          if (out.ok) assert.ok(log !== null && !has('enqueue') && !has('enqueue!'), where);
          if (has('cancel') && !has('enqueue') && !has('enqueue!')) assert.equal(out.error.code, 'PROMPT_CANCELLED', where);
          break;
        case 'cancel':
          assert.equal(out.value, log !== null && has('enqueue!') && !has('cancel') && !has('agentIdle'), where);
          break;
        case 'settle': {
          const queued = Math.max(pos('enqueue'), pos('enqueue!'));
          const quiet = queued >= 0 && pos('agentIdle') > queued && pos('outputDelivered') > pos('agentIdle');
          assert.equal(out.ok, log !== null && quiet, where);
          if (out.ok) assert.equal(out.value, has('cancel') ? 'cancelled' : 'end_turn', where);
          break;
        }
        default:
      }
      if (call === 'admitted' && out.ok) log = [];
      else if ((call === 'settle' || call === 'abandon') && out.ok) log = null;
      else if (call === 'enqueue' && out.ok) log.push('enqueue!');
      else if (call === 'enqueue' && !out.ok && out.error.code === 'PROMPT_CANCELLED') log.push('enqueue');
      else if (call === 'cancel' && log !== null && !has('cancel')) log.push('cancel');
      else if (out.ok && log !== null && call !== 'cancel' && !log.includes(call)) log.push(call);
    }
  } finally {
    lifecycle.free();
  }
}

test('lifecycle: every interleaving of up to five calls keeps the invariants', () => {
  let count = 0;
  for (let len = 1; len <= 5; len++) {
    for (let n = 0; n < 8 ** len; n++) {
      const seq = [];
      for (let k = 0, m = n; k < len; k++, m = Math.floor(m / 8)) seq.push(m % 8);
      checkSequence(seq);
      count++;
    }
  }
  assert.equal(count, 8 + 64 + 512 + 4096 + 32768);
});

test('lifecycle: random longer sessions keep the invariants', () => {
  fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 40 }), (seq) => checkSequence(seq)),
    { numRuns: 2000 });
});

test('lifecycle: settle takes only an agent stop reason, anything else is OPTION_INVALID', () => {
  fc.assert(fc.property(fc.anything(), (reason) => {
    const lifecycle = api.createPromptLifecycle();
    try {
      lifecycle.admitted();
      lifecycle.enqueue();
      lifecycle.agentIdle();
      lifecycle.outputDelivered();
      const out = outcome(() => lifecycle.settle(reason));
      const known = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal'];
      if (reason === undefined || reason === null) assert.equal(out.value, 'end_turn');
      else if (known.includes(reason)) assert.equal(out.value, reason);
      else assert.equal(out.error.code, 'OPTION_INVALID');
    } finally {
      lifecycle.free();
    }
  }), { numRuns: 500 });
});

const base64ish = fc.array(fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') },
  { weight: 2, arbitrary: fc.constant('=') },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\n', '-', '_', 'é', '\ud800') },
), { maxLength: 24 }).map((a) => a.join(''));

test('isCanonicalBase64 agrees with decoding and re-encoding', () => {
  fc.assert(fc.property(base64ish, (text) => {
    const oracle = /^[A-Za-z0-9+/=]*$/.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
    assert.equal(api.isCanonicalBase64(text), oracle, JSON.stringify(text));
  }), { numRuns: 5000 });
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
    assert.equal(api.isCanonicalBase64(Buffer.from(bytes).toString('base64')), true);
  }), { numRuns: 1000 });
});

const SIGNATURES = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/gif': [...Buffer.from('GIF89a')],
};

test('admitted images are the sent bytes, hashed as Node hashes them, in wire order', () => {
  const image = fc.tuple(fc.constantFrom(...Object.keys(SIGNATURES)), fc.uint8Array({ maxLength: 300 }));
  fc.assert(fc.property(fc.array(fc.oneof(image, fc.string()), { minLength: 1, maxLength: 6 }), (items) => {
    const blocks = items.map((item) => (typeof item === 'string'
      ? { type: 'text', text: `${item}.` }
      : { type: 'image', mimeType: item[0], data: Buffer.from([...SIGNATURES[item[0]], ...item[1]]).toString('base64') }));
    const plan = api.admitPrompt({ sessionId: 's', prompt: blocks }, { image: true });
    const sent = blocks.map((b, index) => [b, index]).filter(([b]) => b.type === 'image');
    assert.equal(plan.images.length, sent.length);
    plan.images.forEach((img, k) => {
      const [block, index] = sent[k];
      assert.equal(img.index, index);
      assert.ok(img.bytes instanceof Uint8Array);
      assert.equal(Buffer.from(img.bytes).toString('base64'), block.data);
      assert.equal(img.byteLength, img.bytes.length);
      assert.equal(img.sha256, createHash('sha256').update(img.bytes).digest('hex'));
    });
  }), { numRuns: 300 });
});

const hostile = fc.anything({
  maxDepth: 4, withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true,
  withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withUnicodeString: true,
});
const blockLike = fc.record({
  type: fc.oneof(fc.constantFrom('text', 'image', 'audio', 'resource', 'resource_link', 'video'), hostile),
  text: fc.oneof(fc.string(), hostile), data: fc.oneof(fc.constantFrom('AQ==', 'AB==', ''), hostile),
  mimeType: fc.oneof(fc.constantFrom('image/png', 'image/bmp'), hostile), uri: hostile, name: hostile, resource: hostile,
}, { requiredKeys: [] });

test('any request, capabilities and options: a plan or a ContractError, never another throw', () => {
  fc.assert(fc.property(
    fc.oneof(fc.record({ sessionId: fc.oneof(fc.string(), hostile), prompt: fc.oneof(fc.array(blockLike, { maxLength: 5 }), hostile) },
      { requiredKeys: [] }), hostile),
    fc.oneof(fc.record({ image: fc.boolean(), audio: fc.boolean(), embeddedContext: fc.boolean() }, { requiredKeys: [] }), hostile),
    fc.oneof(fc.constant(undefined), fc.record({ maxImages: fc.integer({ min: 0, max: 3 }), mimeTypes: hostile }, { requiredKeys: [] }), hostile),
    (request, caps, options) => {
      const a = outcome(() => api.admitPrompt(request, caps, options));
      const b = api.safeAdmitPrompt(request, caps, options);
      assert.equal(a.ok, b.ok);
      if (!a.ok) {
        assert.equal(a.error.code, b.error.code);
        assert.equal(a.error.path, b.error.path);
        if (a.error.layer === 'admission') assert.equal(a.error.retryable, false);
      }
      assert.equal(typeof api.isCanonicalBase64(request), 'boolean');
      outcome(() => api.advertisePromptCapabilities(caps));
      outcome(() => api.sniffMediaType(request));
    },
  ), { numRuns: 1500 });
});

test('long strings (64 Ki units and more) cross exactly, by TextEncoder.encodeInto', () => {
  for (const unit of ['a', 'é', '😀', 'aé😀\u2028']) {
    const text = unit.repeat(Math.ceil(70_000 / unit.length));
    assert.equal(api.admitPrompt({ sessionId: 's', prompt: [{ type: 'text', text }] }, null).text, text);
    assert.equal(api.parseJson(JSON.stringify({ text })).text, text);
  }
  const bytes = new Uint8Array(3 * 1024 * 1024);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 7919) & 255;
  const data = Buffer.from(bytes).toString('base64');
  const plan = api.admitPrompt({ sessionId: 's', prompt: [{ type: 'image', mimeType: 'image/png', data }] }, { image: true });
  assert.equal(Buffer.compare(Buffer.from(plan.images[0].bytes), Buffer.from(bytes)), 0);
  assert.equal(plan.images[0].sha256, createHash('sha256').update(bytes).digest('hex'));
  assert.equal(api.isCanonicalBase64(data), true);
  assert.equal(api.isCanonicalBase64(`${data.slice(0, -1)}\n`), false);
});
