// Provider adapter properties from JS (fast-check), the twin of tests/provider_properties.rs and
// py-host/tests/test_provider_properties.py:
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

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic'];
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

/** The provider's events for `spec` ({calls: [[name, args]], cuts, order, noise}), each tagged
 *  with its role, and the response they must give. */
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
  events.push(...epilogue);
  if (p === 'openai-responses') events.forEach((e, s) => (e.payload.sequence_number = s));
  const calls = started.map((i) => ({ callId: callId(p, i), name: spec.calls[i][0], arguments: spec.calls[i][1] }));
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
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 })),
})).value;
const args = fc.dictionary(fc.oneof(fc.constantFrom('city', '都市'), fc.string({ unit: 'grapheme', maxLength: 4 })), argValue, { maxKeys: 3, noNullPrototype: true });
const spec = fc.record({
  calls: fc.array(fc.tuple(fc.constantFrom('read_file', 'search', 'get_weather', 'write'), args), { maxLength: 3 }),
  cuts: fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 5 }), { minLength: 3, maxLength: 3 }),
  order: fc.array(fc.nat(7), { minLength: 1, maxLength: 20 }),
  noise: fc.array(fc.oneof(fc.constantFrom('東京は晴れ', '🌧️'), fc.string({ unit: 'grapheme', maxLength: 5 })), { maxLength: 2 }),
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
  const { events, expected } = build('anthropic', { calls: [['f', { a: '😀' }]], cuts: [[]], order: [0], noise: [] });
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
  fc.dictionary(fc.constantFrom('type', 'index', 'choices', 'delta', 'id', 'item', 'item_id', 'tool_calls', 'function', 'finish_reason', 'response'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
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

const names = (o) => (o.ok ? o.value.calls.map((c) => `${c.callId} ${c.name}`) : []);

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
      else {
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
      if (end >= 0) check(events.toSpliced(end, 1), ['INCOMPLETE_TOOL_CALL'], 'end dropped');

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
  ),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const sseText = fc.array(sseToken, { maxLength: 40 }).map((t) => t.join(''));
const anyChunk = fc.oneof(sseText, fc.uint8Array({ maxLength: 64 }), fc.anything({ maxDepth: 2 }));
const anyProvider = fc.oneof(provider, fc.constantFrom('gemini-nope', '', 'OpenAI-Chat'), fc.anything({ maxDepth: 1 }));
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
