// Provider adapter properties from JS (fast-check), the twin of tests/provider_properties.rs and
// py-host/tests/test_provider_properties.py, for every provider (OpenAI Chat, OpenAI Responses,
// Anthropic, Gemini: whole and streamed functionCalls, partial args at JSON Paths):
// - random chunk splits of raw SSE give the unsplit outcome: Uint8Array chunks cut anywhere
//   (single bytes, inside multi-byte UTF-8), string chunks cut anywhere (between the halves of a
//   surrogate pair too) and providerResponseStream, for every recording in
//   ../shared/conformance/provider-streams (skipped, with a message, when ../shared is absent) and
//   for synthetic streams with non-ASCII arguments, interleaved parallel calls, ignorable events and
//   every SSE framing; synthetic streams also match an oracle;
// - mutated streams never yield a call the valid stream did not have; truncation, a non-normal
//   finish, a dropped tool-call end and cut arguments are errors with their codes;
// - replay (two assemblers, finish() twice, preview()) is identical;
// - arbitrary values, strings and bytes never throw anything but ContractError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import * as api from 'agent-contract';

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];
const dir = fileURLToPath(new URL('../../../shared/conformance/provider-streams/', import.meta.url));
const haveRecordings = existsSync(dir);
const utf8 = new TextEncoder();

/** The outcome of `f`: {ok, value} or the ContractError's {layer, code, path}; anything else thrown fails the test. */
function capture(f) {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    if (!(error instanceof api.ContractError)) throw error;
    return { ok: false, layer: error.layer, code: error.code, path: error.path };
  }
}

function withAssembler(provider, f) {
  const a = api.createProviderAssembler(provider);
  try {
    return capture(() => f(a));
  } finally {
    a.free();
  }
}

const chunked = (provider, chunks) =>
  withAssembler(provider, (a) => {
    for (const c of chunks) a.pushSse(c);
    return a.finish();
  });
const whole = (provider, input) => capture(() => api.assembleProviderStream(provider, input));

/** Cuts an array-like (bytes, or a string's UTF-16 units) at the given fractions. */
function cut(seq, cuts) {
  const points = cuts.map((c) => Math.min(seq.length, Math.floor(c * (seq.length + 1)))).sort((a, b) => a - b);
  const out = [];
  let prev = 0;
  for (const p of points) {
    out.push(seq.slice(prev, p));
    prev = p;
  }
  out.push(seq.slice(prev));
  return out;
}

/** Cuts a string at code-point boundaries. */
const cutCodePoints = (s, cuts) => cut(Array.from(s), cuts).map((cps) => cps.join(''));

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 40 });

// ---------------------------------------------------------------------------------------------
// Recordings

/** Every recording as raw SSE bytes: raw files as they are; each .chunks.txt framed as `data:`
 *  lines, and again with `event:` lines, CRLF and comments. */
function recordedSse() {
  if (!haveRecordings) return [];
  const out = [];
  for (const p of PROVIDERS) {
    for (const name of readdirSync(dir + p).sort()) {
      const bytes = new Uint8Array(readFileSync(`${dir}${p}/${name}`));
      if (!name.endsWith('.chunks.txt')) {
        out.push({ provider: p, name, bytes });
        continue;
      }
      const lines = new TextDecoder().decode(bytes).split('\n').filter((l) => l.trim() !== '');
      out.push({ provider: p, name: `${name} (data lines)`, bytes: utf8.encode(lines.map((l) => `data: ${l}\n\n`).join('')) });
      const framed = ': recorded\r\n\r\n' + lines.map((l) => `event: e\r\ndata:${l}\r\n: keep-alive\r\n\r\n`).join('');
      out.push({ provider: p, name: `${name} (event lines, CRLF, comments)`, bytes: utf8.encode(framed) });
    }
  }
  return out;
}

const recorded = recordedSse();
const skipRecordings = haveRecordings ? false : `${dir} is absent`;
if (!haveRecordings) console.log(`provider properties (node): recordings SKIPPED, ${dir} is absent (synthetic streams still run)`);

test('recordings: single-byte chunks give the whole outcome', { skip: skipRecordings }, () => {
  for (const r of recorded) {
    const expected = whole(r.provider, r.bytes);
    // Byte by byte for the smaller files; every file is cut at random below.
    if (r.bytes.length > 20_000) continue;
    const bytes = Array.from(r.bytes, (b) => Uint8Array.of(b));
    assert.deepEqual(chunked(r.provider, bytes), expected, `${r.provider} ${r.name}`);
  }
});

test('recordings: random byte and string splits give the whole outcome', { skip: skipRecordings }, () => {
  fc.assert(
    fc.property(fc.nat(), cuts, (pick, cs) => {
      const r = recorded[pick % recorded.length];
      const expected = whole(r.provider, r.bytes);
      const text = new TextDecoder().decode(r.bytes);
      assert.deepEqual(whole(r.provider, text), expected, `${r.name}: as a string`);
      assert.deepEqual(chunked(r.provider, cut(r.bytes, cs)), expected, `${r.name}: bytes`);
      assert.deepEqual(chunked(r.provider, cutCodePoints(text, cs)), expected, `${r.name}: code points`);
      assert.deepEqual(chunked(r.provider, cut(text, cs)), expected, `${r.name}: UTF-16 units`);
    }),
    { numRuns: 300 },
  );
});

/** A provider's response body through providerResponseStream: the response, or the ContractError. */
async function throughStream(provider, chunks) {
  const body = new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const out = [];
  try {
    for await (const v of body.pipeThrough(api.providerResponseStream(provider))) out.push(v);
  } catch (error) {
    if (!(error instanceof api.ContractError)) throw error;
    return { ok: false, layer: error.layer, code: error.code, path: error.path };
  }
  assert.equal(out.length, 1);
  return { ok: true, value: out[0] };
}

test('recordings: providerResponseStream with random chunks gives the whole outcome', { skip: skipRecordings }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.nat(), cuts, fc.boolean(), async (pick, cs, asText) => {
      const r = recorded[pick % recorded.length];
      const chunks = asText ? cut(new TextDecoder().decode(r.bytes), cs) : cut(r.bytes, cs);
      assert.deepEqual(await throughStream(r.provider, chunks), whole(r.provider, r.bytes), r.name);
    }),
    { numRuns: 100 },
  );
});

// ---------------------------------------------------------------------------------------------
// Synthetic streams: calls with non-ASCII arguments, random fragmenting and interleaving.

const callId = (p, i) => (p === 'anthropic' ? `toolu_${i}` : `call_${i}`);

/** Gemini: `args` without empty arrays and objects (partial args set values, never [] or {}). */
function prune(v) {
  if (Array.isArray(v)) {
    const kept = v.map(prune).filter((x) => x !== undefined);
    return kept.length ? kept : undefined;
  }
  if (v !== null && typeof v === 'object') {
    const kept = Object.entries(v).flatMap(([k, x]) => ((x = prune(x)) === undefined ? [] : [[k, x]]));
    return kept.length ? Object.fromEntries(kept) : undefined;
  }
  return v;
}

/** A JSON Path (RFC 9535) in one of three spellings: `.name` where the shorthand can name it,
 *  `['name']`, `["name"]` with non-ASCII as \u escapes (surrogate pairs too). */
function jsonPath(path, style) {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') {
      out += `[${seg}]`;
      continue;
    }
    if (style === 0 && /^[A-Za-z_\u0080-\u{10ffff}][A-Za-z_0-9\u0080-\u{10ffff}]*$/u.test(seg)) {
      out += `.${seg}`;
      continue;
    }
    const q = style === 2 ? '"' : "'";
    const esc = { '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', [q]: `\\${q}` };
    let name = '';
    for (const c of seg) {
      const code = c.codePointAt(0);
      if (esc[c]) name += esc[c];
      else if (code < 0x20 || (style === 2 && code > 0x7f)) {
        for (let k = 0; k < c.length; k++) name += `\\u${c.charCodeAt(k).toString(16).padStart(4, '0')}`;
      } else name += c;
    }
    out += `[${q}${name}${q}]`;
  }
  return out;
}

/** Gemini: the partial args that build `args` (pruned), strings in pieces at `cuts`. */
function partialArgs(args, cuts, shape, seed) {
  const found = [];
  const leaves = (v, path) => {
    if (Array.isArray(v)) v.forEach((x, i) => leaves(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...path, k]);
    else found.push([path, v]);
  };
  const pruned = prune(args);
  if (pruned !== undefined) leaves(pruned, []);
  return found.flatMap(([path, value], k) => {
    const jsonPath_ = jsonPath(path, (k + seed) % 3);
    if (typeof value === 'string') {
      const parts = cutCodePoints(value, cuts);
      if (shape & 8) parts.push('');
      return parts.map((piece, j) => ({ jsonPath: jsonPath_, stringValue: piece, ...(j < parts.length - 1 ? { willContinue: true } : {}) }));
    }
    if (typeof value === 'number') return [{ jsonPath: jsonPath_, numberValue: value }];
    if (typeof value === 'boolean') return [{ jsonPath: jsonPath_, boolValue: value }];
    return [{ jsonPath: jsonPath_, nullValue: k % 2 === 0 ? 'NULL_VALUE' : null }];
  });
}

/** Gemini: a part that carries no call (text, thought, signature, inline data, a call in a thought). */
const geminiNoise = (t, kind) =>
  [
    { text: t },
    { text: t, thought: true },
    { text: t, thoughtSignature: 'c2lnbmF0dXJl' },
    { inlineData: { mimeType: 'text/plain', data: '5p2x5Lqs' } },
    { thought: true, functionCall: { name: 'write', args: { t } } },
  ][kind % 5];
const GEMINI_RID = 'gem-東京-😀';
const geminiPayload = (parts, rid, index) => ({
  candidates: [{ content: { role: 'model', parts }, ...(index ? { index: 0 } : {}) }],
  modelVersion: 'gemini-3-flash',
  ...(rid ? { responseId: GEMINI_RID } : {}),
});
/** A Gemini payload's call part: its first functionCall outside a thought. */
const callPart = (payload) => payload.candidates[0].content.parts.find((part) => part.thought === undefined && part.functionCall)?.functionCall;

/** The provider's events for `spec` ({calls: [[name, args]], cuts, order, noise, shapes}), each
 *  tagged with its role, and the response they must give. Gemini's shape of call i is
 *  shapes[i] (bits): 1 streamed (else a whole functionCall), 2 the part gives an id, 4 a streamed
 *  call ends with an empty functionCall (else with its last partial args), 8 strings closed by an
 *  empty piece, 16 three partial args per part (the id repeated, an explicit willContinue: false),
 *  32 no args for {} (whole) / a bare willContinue part (streamed), 64 the first partial args in
 *  the naming part, 128 a thoughtSignature on it. */
function build(p, spec) {
  const n = spec.calls.length;
  const texts = spec.calls.map(([, a]) => JSON.stringify(a));
  const pieces = (i) => cutCodePoints(texts[i], spec.cuts[i] ?? []);
  const ev = (payload, role = 'other', i = -1) => ({ payload, role, i });
  const queues = [];
  let rid, prologue, epilogue;
  if (p === 'openai-chat') {
    rid = 'chatcmpl-東京';
    const chunk = (delta, finish = null) => ({ id: rid, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    prologue = [ev(chunk({ role: 'assistant', content: '' }))];
    spec.calls.forEach(([name], i) => {
      queues.push([
        ev(chunk({ tool_calls: [{ index: i, id: callId(p, i), type: 'function', function: { name, arguments: '' } }] }), 'start', i),
        ...pieces(i).map((t) => ev(chunk({ tool_calls: [{ index: i, function: { arguments: t } }] }), 'delta', i)),
      ]);
    });
    queues.push(spec.noise.map((t) => ev(chunk({ content: t }))));
    epilogue = [
      ev(chunk({}, n ? 'tool_calls' : 'stop'), 'finish'),
      ev({ id: rid, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3 } }),
      ev('[DONE]'),
    ];
  } else if (p === 'anthropic') {
    rid = 'msg_😀';
    prologue = [ev({ type: 'message_start', message: { id: rid, type: 'message', role: 'assistant', content: [], stop_reason: null } })];
    spec.calls.forEach(([name], i) => {
      queues.push([
        ev({ type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: callId(p, i), name, input: {} } }, 'start', i),
        ...pieces(i).map((t) => ev({ type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: t } }, 'delta', i)),
        ev({ type: 'content_block_stop', index: i }, 'end', i),
      ]);
    });
    queues.push([
      ev({ type: 'content_block_start', index: n, content_block: { type: 'text', text: '' } }),
      ...spec.noise.flatMap((t) => [ev({ type: 'content_block_delta', index: n, delta: { type: 'text_delta', text: t } }), ev({ type: 'ping' })]),
      ev({ type: 'content_block_stop', index: n }),
    ]);
    epilogue = [
      ev({ type: 'message_delta', delta: { stop_reason: n ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }, 'finish'),
      ev({ type: 'message_stop' }),
    ];
  } else if (p === 'gemini') {
    rid = GEMINI_RID;
    const index = spec.order[0] % 2 === 1;
    const payload = (parts) => geminiPayload(parts, true, index);
    prologue = [];
    // Gemini has no call index: one call streams at a time, and only ignorable parts come
    // between its parts. Calls go in order, noise anywhere.
    const q = [];
    spec.calls.forEach(([name, args], i) => {
      const shape = spec.shapes[i];
      const id = shape & 2 ? { id: `fc-ü-${i}` } : {};
      if (!(shape & 1)) {
        const omit = shape & 32 && Object.keys(args).length === 0;
        q.push(ev(payload([{ functionCall: { name, ...(omit ? {} : { args }), ...id } }]), 'start', i));
        return;
      }
      const items = partialArgs(args, spec.cuts[i], shape, i);
      const size = shape & 16 ? 3 : 1;
      const groups = [];
      for (let k = 0; k < items.length; k += size) groups.push(items.slice(k, k + size));
      const start = { name, willContinue: true, ...id };
      if (shape & 64 && groups.length) start.partialArgs = groups.shift();
      q.push(ev(payload([{ functionCall: start, ...(shape & 128 ? { thoughtSignature: 'c2lnbmF0dXJl' } : {}) }]), 'start', i));
      if (shape & 32) q.push(ev(payload([{ functionCall: { willContinue: true } }]), 'delta', i));
      const byEmpty = shape & 4 || groups.length === 0;
      groups.forEach((g, j) => {
        const ends = !byEmpty && j === groups.length - 1;
        const call = { partialArgs: g, ...(ends ? (shape & 16 ? { willContinue: false } : {}) : { willContinue: true }) };
        if (shape & 16) Object.assign(call, id);
        q.push(ev(payload([{ functionCall: call }]), ends ? 'end' : 'delta', i));
      });
      if (byEmpty) q.push(ev(payload([{ functionCall: {} }]), 'end', i));
    });
    queues.push(q);
    const kind = spec.order[0];
    queues.push(spec.noise.map((t, j) => ev(geminiPayload([geminiNoise(t, j + kind)], (j + kind) % 2 === 0, index))));
    const finish = payload([{ text: '' }]);
    if (spec.order[0] % 4 >= 2) delete finish.candidates[0].content;
    finish.candidates[0].finishReason = 'STOP';
    finish.usageMetadata = { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 };
    epilogue = [ev(finish, 'finish'), ev({ usageMetadata: { promptTokenCount: 3, totalTokenCount: 8 }, responseId: rid })];
  } else {
    rid = 'resp_é';
    prologue = [
      ev({ type: 'response.created', response: { id: rid, status: 'in_progress', output: [] } }),
      ev({ type: 'response.in_progress', response: { id: rid, status: 'in_progress' } }),
    ];
    spec.calls.forEach(([name], i) => {
      const item = (args, status) => ({ type: 'function_call', id: `fc_${i}`, call_id: callId(p, i), name, arguments: args, status });
      queues.push([
        ev({ type: 'response.output_item.added', output_index: i, item: item('', 'in_progress') }, 'start', i),
        ...pieces(i).map((t) => ev({ type: 'response.function_call_arguments.delta', item_id: `fc_${i}`, output_index: i, delta: t }, 'delta', i)),
        ev({ type: 'response.function_call_arguments.done', item_id: `fc_${i}`, output_index: i, arguments: texts[i] }, 'argsDone', i),
        ev({ type: 'response.output_item.done', output_index: i, item: item(texts[i], 'completed') }, 'end', i),
      ]);
    });
    const message = (status) => ({ type: 'message', id: 'msg_1', role: 'assistant', content: [], status });
    queues.push([
      ev({ type: 'response.output_item.added', output_index: n, item: message('in_progress') }),
      ...spec.noise.map((t) => ev({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: n, content_index: 0, delta: t })),
      ev({ type: 'response.output_item.done', output_index: n, item: message('completed') }),
    ]);
    epilogue = [ev({ type: 'response.completed', response: { id: rid, status: 'completed' } }, 'finish')];
  }
  const events = [...prologue];
  const started = [];
  let k = 0;
  while (queues.some((q) => q.length)) {
    const live = queues.filter((q) => q.length);
    const e = live[spec.order[k++ % spec.order.length] % live.length].shift();
    if (e.role === 'start') started.push(e.i);
    events.push(e);
  }
  let merged = events;
  if (p === 'gemini') {
    // Parallel whole calls and ignorable parts, several parts to a payload.
    const whole = (e) => e.role === 'other' || (e.role === 'start' && !(spec.shapes[e.i] & 1));
    merged = [];
    events.forEach((e, k) => {
      const prev = merged.at(-1);
      if (prev && whole(prev) && whole(e) && spec.order[k % spec.order.length] >= 5) {
        prev.payload.candidates[0].content.parts.push(...e.payload.candidates[0].content.parts);
        prev.payload.responseId = rid;
        if (prev.role === 'other') Object.assign(prev, { role: e.role, i: e.i });
      } else merged.push(e);
    });
  }
  events.splice(0, events.length, ...merged, ...epilogue);
  if (p === 'openai-responses') events.forEach((e, s) => (e.payload.sequence_number = s));
  const calls = started.map((i, n) => {
    const [name, args] = spec.calls[i];
    if (p !== 'gemini') return { callId: callId(p, i), name, arguments: args };
    const shape = spec.shapes[i];
    return { callId: shape & 2 ? `fc-ü-${i}` : `gemini:${rid}:${n}`, name, arguments: shape & 1 ? (prune(args) ?? {}) : args };
  });
  return { events, expected: { ok: true, value: { responseId: rid, finishReason: n ? 'tool_calls' : 'stop', calls } } };
}

const payloadText = (e) => (typeof e.payload === 'string' ? e.payload : JSON.stringify(e.payload));

/** Raw SSE text for `events` in one of several framings (line ends, BOM, comments, event lines,
 *  multi-line data, id/retry fields). */
function toSse(p, events, framing) {
  const end = ['\n', '\r\n', '\r'][framing % 3];
  let s = framing & 4 ? '\ufeff' : '';
  events.forEach((e, i) => {
    if (framing & 8 && i % 3 === 0) s += `: ping 東京${end}`;
    if (p === 'anthropic' || framing & 16) s += `event: ${e.payload.type ?? 'message'}${end}`;
    if (framing & 32 && typeof e.payload !== 'string') {
      for (const line of JSON.stringify(e.payload, null, 2).split('\n')) s += `data:${line}${end}`;
    } else s += `data: ${payloadText(e)}${end}`;
    if (framing & 64) s += `id: ${i}${end}retry: 10${end}`;
    s += end;
  });
  return s;
}

const text = fc.oneof(
  fc.constantFrom('東京', '😀👍🏽', 'é\u0301ü', '"\\\n\t\u0000'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ maxLength: 6 }),
);
const argValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom('a', '1 b'), fc.string({ unit: 'grapheme', maxLength: 3 })), tie('value'), { maxKeys: 2, noNullPrototype: true }),
  ),
})).value;
const args = fc.dictionary(fc.oneof(fc.constantFrom('city', '都市', 'a\t\'"\\b'), fc.string({ unit: 'grapheme', maxLength: 4 })), argValue, { maxKeys: 3, noNullPrototype: true });
const spec = fc.record({
  calls: fc.array(fc.tuple(fc.constantFrom('read_file', 'search', 'get_weather', 'write'), args), { maxLength: 3 }),
  cuts: fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 5 }), { minLength: 3, maxLength: 3 }),
  order: fc.array(fc.nat(7), { minLength: 1, maxLength: 20 }),
  noise: fc.array(fc.oneof(fc.constantFrom('東京は晴れ', '🌧️'), fc.string({ unit: 'grapheme', maxLength: 5 })), { maxLength: 2 }),
  shapes: fc.array(fc.nat(255), { minLength: 3, maxLength: 3 }),
});
const provider = fc.constantFrom(...PROVIDERS);

test('synthetic streams: any fragmenting, interleaving, framing and split gives the oracle', () => {
  fc.assert(
    fc.property(provider, spec, fc.nat(127), cuts, (p, s, framing, cs) => {
      const { events, expected } = build(p, s);
      assert.deepEqual(whole(p, events.map((e) => e.payload)), expected, 'events as objects');
      assert.deepEqual(whole(p, events.map(payloadText)), expected, 'events as payload texts');
      const sse = toSse(p, events, framing);
      const bytes = utf8.encode(sse);
      assert.deepEqual(whole(p, sse), expected, 'SSE string');
      assert.deepEqual(whole(p, bytes), expected, 'SSE bytes');
      assert.deepEqual(chunked(p, cut(bytes, cs)), expected, 'bytes cut anywhere');
      assert.deepEqual(chunked(p, cutCodePoints(sse, cs)), expected, 'string cut at code points');
      assert.deepEqual(chunked(p, cut(sse, cs)), expected, 'string cut between surrogate halves too');
    }),
    { numRuns: 400 },
  );
});

test('synthetic streams: single-byte and single-UTF-16-unit chunks give the oracle', () => {
  fc.assert(
    fc.property(provider, spec, fc.nat(127), (p, s, framing) => {
      const { events, expected } = build(p, s);
      const sse = toSse(p, events, framing);
      assert.deepEqual(chunked(p, Array.from(utf8.encode(sse), (b) => Uint8Array.of(b))), expected);
      assert.deepEqual(chunked(p, sse.split('')), expected);
    }),
    { numRuns: 100 },
  );
});

test('synthetic streams: providerResponseStream with random chunks gives the oracle', async () => {
  await fc.assert(
    fc.asyncProperty(provider, spec, fc.nat(127), cuts, fc.boolean(), async (p, s, framing, cs, asText) => {
      const { events, expected } = build(p, s);
      const sse = toSse(p, events, framing);
      assert.deepEqual(await throughStream(p, asText ? cut(sse, cs) : cut(utf8.encode(sse), cs)), expected);
    }),
    { numRuns: 100 },
  );
});

test('a surrogate pair cut between string chunks is joined, never replaced', () => {
  const { events, expected } = build('anthropic', { calls: [['f', { a: '😀' }]], cuts: [[]], order: [0], noise: [], shapes: [0] });
  const sse = toSse('anthropic', events, 0);
  const at = sse.lastIndexOf('😀') + 1;
  assert.deepEqual(chunked('anthropic', [sse.slice(0, at), sse.slice(at)]), expected);
  assert.deepEqual(chunked('anthropic', [sse.slice(0, at), '', sse.slice(at)]), expected);
  // A lead half followed by bytes, or by nothing, is sent alone: U+FFFD, as the core decodes it.
  const lone = withAssembler('anthropic', (a) => {
    a.pushSse(sse.slice(0, at));
    a.pushSse(utf8.encode(sse.slice(at + 1)));
    return a.finish();
  });
  assert.equal(lone.value.calls[0].arguments.a, new TextDecoder().decode(Uint8Array.of(0xed, 0xa0, 0xbd)));
});

// ---------------------------------------------------------------------------------------------
// Mutations and replay

/** Two assemblers fed the same events agree, finish() twice agrees, previews agree. */
function replay(p, list) {
  const run = () => {
    const a = api.createProviderAssembler(p);
    try {
      for (const e of list) {
        if (!capture(() => a.push(e)).ok) break;
      }
      const preview = capture(() => a.preview());
      return [capture(() => a.finish()), capture(() => a.finish()), preview];
    } finally {
      a.free();
    }
  };
  const [first, again, preview] = run();
  const [second, , preview2] = run();
  assert.deepEqual(again, first, 'finish() twice');
  assert.deepEqual(second, first, 'two assemblers');
  assert.deepEqual(preview2, preview, 'previews');
  assert.equal(preview.ok, true, 'preview never throws');
  assert.equal(preview.value.executable, false);
  assert.deepEqual(whole(p, list), first, 'assembleProviderStream');
  return first;
}

const index = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const at = (u, n) => Math.floor(u * n);
const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom('type', 'index', 'choices', 'delta', 'id', 'item', 'item_id', 'tool_calls', 'function', 'finish_reason', 'response', 'candidates', 'content', 'parts', 'functionCall', 'partialArgs', 'finishReason'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.anything({ maxDepth: 2 }),
);
const mutation = fc.oneof(
  fc.record({ op: fc.constant('drop'), i: index }),
  fc.record({ op: fc.constant('duplicate'), i: index }),
  fc.record({ op: fc.constant('swap'), i: index, j: index }),
  fc.record({ op: fc.constant('junk'), i: index, v: fc.oneof(fc.string(), fc.constantFrom('[DONE]', '{', '')) }),
  fc.record({ op: fc.constant('value'), i: index, v: junkValue }),
  fc.record({ op: fc.constant('cut'), i: index, j: index }),
);

function mutate(list, m) {
  const n = list.length;
  if (n === 0 && !['junk', 'value'].includes(m.op)) return;
  if (m.op === 'drop') list.splice(at(m.i, n), 1);
  else if (m.op === 'duplicate') list.splice(at(m.i, n), 0, list[at(m.i, n)]);
  else if (m.op === 'swap') [list[at(m.i, n)], list[at(m.j, n)]] = [list[at(m.j, n)], list[at(m.i, n)]];
  else if (m.op === 'junk' || m.op === 'value') list.splice(at(m.i, n + 1), 0, m.v);
  else {
    const k = at(m.i, n);
    let t = '';
    try {
      t = typeof list[k] === 'string' ? list[k] : (JSON.stringify(list[k]) ?? '');
    } catch {
      // a value JSON cannot write: cut to nothing
    }
    list[k] = t.slice(0, at(m.j, t.length + 1));
  }
}

/** `callId name` of each call. Gemini's derived ids are positions (gemini:<responseId>:<n>, n the
 *  call's place in the response): a dropped or repeated whole functionCall part (Gemini gives no
 *  index to tell a repeat from a second call) renumbers the calls after it, so a derived id is
 *  checked to be the call's place and compared as gemini:*; ids Gemini gave are compared as they are. */
const names = (o) =>
  o.ok
    ? o.value.calls.map((c, n) => {
        if (!c.callId.startsWith('gemini:')) return `${c.callId} ${c.name}`;
        const rid = o.value.responseId === null ? '' : `${o.value.responseId}:`;
        assert.equal(c.callId, `gemini:${rid}${n}`, "a derived id is the call's place");
        return `gemini:* ${c.name}`;
      })
    : [];

test('mutated streams never yield a call the valid stream did not have; replay is identical', () => {
  fc.assert(
    fc.property(provider, spec, fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean(), (p, s, ms, asText) => {
      const { events, expected } = build(p, s);
      const list = events.map((e) => (asText ? payloadText(e) : e.payload));
      for (const m of ms) mutate(list, m);
      const known = names(expected);
      for (const c of names(replay(p, list))) assert.ok(known.includes(c), c);
    }),
    { numRuns: 1000 },
  );
});

test('mutated recordings never yield a call the recording did not have', { skip: skipRecordings }, () => {
  const lists = [];
  for (const p of PROVIDERS) {
    for (const name of readdirSync(dir + p).sort()) {
      if (!name.endsWith('.chunks.txt')) continue;
      const lines = readFileSync(`${dir}${p}/${name}`, 'utf8').split('\n').filter((l) => l.trim() !== '');
      lists.push({ p, lines });
    }
  }
  fc.assert(
    fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), (pick, ms) => {
      const { p, lines } = lists[pick % lists.length];
      const known = names(whole(p, lines));
      const list = [...lines];
      for (const m of ms) mutate(list, m);
      for (const c of names(replay(p, list))) assert.ok(known.includes(c), c);
    }),
    { numRuns: 200 },
  );
});

const deltaPath = { 'openai-chat': ['choices', 0, 'delta', 'tool_calls', 0, 'function', 'arguments'], anthropic: ['delta', 'partial_json'], 'openai-responses': ['delta'] };
const getPath = (o, path) => path.reduce((v, k) => v[k], o);
const setPath = (o, path, v) => (getPath(o, path.slice(0, -1))[path.at(-1)] = v);
const clone = (events) => events.map((e) => ({ ...e, payload: structuredClone(e.payload) }));

test('truncation, a non-normal finish, a dropped tool-call end and cut arguments are errors with their codes', () => {
  fc.assert(
    fc.property(provider, spec, index, index, fc.nat(3), fc.nat(127), (p, s, keep, which, reason, framing) => {
      const { events } = build(p, s);
      const finish = events.findIndex((e) => e.role === 'finish');
      const check = (evs, codes, what) => {
        const got = replay(p, evs.map((e) => e.payload));
        assert.ok(!got.ok && codes.includes(got.code), `${what}: ${JSON.stringify(got)}`);
        assert.deepEqual(chunked(p, cut(utf8.encode(toSse(p, evs, framing)), [keep, which])), got, `${what}: as SSE`);
      };
      check(events.slice(0, at(keep, finish + 1)), ['INCOMPLETE_RESPONSE'], 'truncated');

      const changed = clone(events);
      const f = changed[finish];
      if (p === 'openai-chat') f.payload.choices[0].finish_reason = ['length', 'content_filter', 'weird', 'insufficient_system_resource'][reason];
      else if (p === 'anthropic') f.payload.delta.stop_reason = ['max_tokens', 'refusal', 'pause_turn', 'model_context_window_exceeded'][reason];
      else if (p === 'gemini') {
        if (reason === 3) f.payload = { error: { code: 500, message: 'x', status: 'INTERNAL' } };
        else f.payload.candidates[0].finishReason = ['MAX_TOKENS', 'SAFETY', 'MALFORMED_FUNCTION_CALL'][reason];
      } else {
        f.payload = {
          ...[
            { type: 'response.incomplete', response: { id: 'r', incomplete_details: { reason: 'max_output_tokens' } } },
            { type: 'response.incomplete', response: { id: 'r', incomplete_details: { reason: 'content_filter' } } },
            { type: 'response.failed', response: { id: 'r', error: { code: 'server_error' } } },
            { type: 'error', code: 'server_error', message: 'x' },
          ][reason],
          sequence_number: f.payload.sequence_number,
        };
      }
      check(changed, ['INCOMPLETE_RESPONSE'], 'non-normal finish');

      if (!s.calls.length) return;
      const i = at(which, s.calls.length);
      const end = events.findIndex((e) => e.role === 'end' && e.i === i);
      // A Gemini call still streaming when the next is named is STREAM_EVENT_INVALID.
      if (end >= 0) check(events.toSpliced(end, 1), p === 'gemini' ? ['INCOMPLETE_TOOL_CALL', 'STREAM_EVENT_INVALID'] : ['INCOMPLETE_TOOL_CALL'], 'end dropped');

      if (p === 'gemini') {
        const cutArgs = clone(events);
        const last = cutArgs.findLastIndex((e) => e.i === i && e.role !== 'other' && (callPart(e.payload).partialArgs || callPart(e.payload).args));
        if (last < 0) return;
        const call = callPart(cutArgs[last].payload);
        if (call.args) {
          // A whole call's args as the JSON text cut by one character: not an object.
          call.args = JSON.stringify(call.args).slice(0, -1);
          check(cutArgs, ['STREAM_EVENT_INVALID'], 'whole arguments cut');
        } else {
          // The last value still going on when the call ends (a string) or at all (others).
          call.partialArgs.at(-1).willContinue = true;
          check(cutArgs, ['INCOMPLETE_TOOL_CALL', 'STREAM_EVENT_INVALID'], 'partial args cut');
        }
        return;
      }

      const cutArgs = clone(events);
      const last = cutArgs.findLastIndex((e) => e.role === 'delta' && e.i === i && getPath(e.payload, deltaPath[p]) !== '');
      const t = Array.from(getPath(cutArgs[last].payload, deltaPath[p])).slice(0, -1).join('');
      if (t === '') cutArgs.splice(last, 1);
      else setPath(cutArgs[last].payload, deltaPath[p], t);
      check(cutArgs, ['JSON_INVALID', 'STREAM_EVENT_INVALID'], 'arguments cut');
      if (p === 'openai-responses') {
        const short = JSON.stringify(s.calls[i][1]).slice(0, -1);
        for (const e of cutArgs) {
          if (e.i !== i) continue;
          if (e.role === 'argsDone') e.payload.arguments = short;
          if (e.role === 'end') e.payload.item.arguments = short;
        }
        check(cutArgs, ['JSON_INVALID'], 'arguments cut everywhere');
      }
    }),
    { numRuns: 300 },
  );
});

// ---------------------------------------------------------------------------------------------
// Hostile input

const sseToken = fc.oneof(
  fc.constantFrom(
    'data: ', 'data:', 'event: ', ':', '\n', '\r', '\r\n', '\n\n', '[DONE]', '{', '}', '"', ',', '\\', '\ufeff', '東', '😀', '\ud83d', '\ude00',
    '{"type":"message_start","message":{"id":"m"}}',
    '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"message_delta","delta":{"stop_reason":"tool_use"}}',
    '{"id":"r","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}',
    '{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
    '{"type":"response.created","response":{"id":"r"}}',
    '{"type":"response.output_item.added","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}',
    '{"type":"response.output_item.done","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}',
    '{"type":"response.completed","response":{"id":"r"}}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}],"responseId":"r"}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}]}}]}',
    '{"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}',
    '{"candidates":[{"content":{"parts":[{"text":"t","thought":true}]}}]}',
    '{"usageMetadata":{"totalTokenCount":1}}',
  ),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const sseText = fc.array(sseToken, { maxLength: 40 }).map((t) => t.join(''));
const anyChunk = fc.oneof(sseText, fc.uint8Array({ maxLength: 64 }), fc.anything({ maxDepth: 2 }));
const anyProvider = fc.oneof(provider, fc.constantFrom('gemini-nope', '', 'OpenAI-Chat', 'Gemini'), fc.anything({ maxDepth: 1 }));
const anyOptions = fc.oneof(fc.constant(undefined), fc.constant({}), fc.record({ maxArgumentsBytes: fc.oneof(fc.nat(100), fc.anything({ maxDepth: 0 })) }), fc.anything({ maxDepth: 1 }));

test('arbitrary SSE text and bytes: only ContractError, the first error is final, the chunking does not matter', () => {
  fc.assert(
    fc.property(provider, sseText, cuts, fc.boolean(), (p, sse, cs, asBytes) => {
      const expected = whole(p, sse);
      const a = api.createProviderAssembler(p);
      let first = null;
      for (const c of asBytes ? cut(utf8.encode(sse), cs) : cut(sse, cs)) {
        const r = capture(() => a.pushSse(c));
        if (!r.ok) {
          if (first) assert.deepEqual(r, first, 'the first error is final');
          first ??= r;
        }
      }
      const got = capture(() => a.finish());
      a.free();
      if (first) assert.deepEqual(got, first);
      // Lone surrogates in a string are replaced (as in bytes, where they are invalid UTF-8), so
      // only a string with none must match its UTF-8 bytes.
      if (asBytes || sse.isWellFormed()) assert.deepEqual(got, expected);
    }),
    { numRuns: 1000 },
  );
});

test('arbitrary values into every entry point: only ContractError', () => {
  fc.assert(
    fc.property(anyProvider, anyOptions, fc.array(fc.oneof(anyChunk, junkValue), { maxLength: 6 }), fc.anything({ maxDepth: 3 }), (p, options, chunks, input) => {
      capture(() => api.assembleProviderStream(p, input, options));
      capture(() => api.assembleProviderStream(p, chunks, options));
      const safe = api.safeAssembleProviderStream(p, input, options);
      assert.ok(safe.ok || safe.error instanceof api.ContractError);
      const created = capture(() => api.createProviderAssembler(p, options));
      if (!created.ok) return;
      const a = created.value;
      for (const c of chunks) {
        capture(() => a.push(c));
        capture(() => a.pushSse(c));
      }
      assert.equal(capture(() => a.preview()).ok, true);
      capture(() => a.finish());
      a.free();
    }),
    { numRuns: 1000 },
  );
});

test('arbitrary chunks through providerResponseStream: only ContractError', async () => {
  await fc.assert(
    fc.asyncProperty(provider, fc.array(anyChunk, { maxLength: 6 }), async (p, chunks) => {
      await throughStream(p, chunks).catch((e) => assert.fail(e));
    }),
    { numRuns: 200 },
  );
});
