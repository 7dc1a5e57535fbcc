// JSON parse and stream assembly performance, Node: (1) strict JSON parse of ~1 MiB of text, ours vs JSON.parse, with
// where our time goes; (2) stream assembly, ours vs the AI SDK approach (append each delta to a
// buffer and call `ai`'s exported parsePartialJson on the whole buffer): a recorded OpenAI Chat
// stream, and synthetic arguments streams of 1 KB, 100 KB and 10 MB.
// Usage: node bench_streams.mjs [--json out.json]
//   BENCH_AISDK_MAX_KB (default 320): largest synthetic size run through the AI SDK approach;
//   above 100 KB it runs once per size (quadratic: ~16 s at 320 KB on the reference machine).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as api from 'agent-contract';
import { parsePartialJson } from 'ai';
import { measureGroup, table, fmtNs } from './harness.mjs';
import { recordedSse, RECORDED, strictText, argumentsText, deltas, fnv1a } from './stream_cases.mjs';
import { core as rawCore } from './raw_core.mjs';

const require = createRequire(import.meta.url);
// The raw wasm-bindgen exports (the core's JSON reply), to split our time.
const core = rawCore;
const aiVersion = require('ai/package.json').version;
const results = { node: process.version, ai: aiVersion };

// ---------------------------------------------------------------------------------------------
// (1) Strict parse of ~1 MiB.
const text = strictText();
const bytes = Buffer.byteLength(text);
if (JSON.stringify(api.parseJson(text)) !== JSON.stringify(JSON.parse(text))) throw new Error('parseJson differs from JSON.parse');
// On success the core replies the verdict alone ({"ok":true}); api.mjs then JSON.parses the text.
const reply = core.parseJson(text, undefined);
if (reply !== '{"ok":true}') throw new Error(`unexpected reply ${reply.slice(0, 80)}`);
const badStart = `x${text.slice(1)}`; // same length; fails at byte 0: the crossing alone
const badEnd = `${text.slice(0, -1)}x`; // same length; fails at the last byte: crossing + full parse
for (const t of [badStart, badEnd]) if (JSON.parse(core.parseJson(t, undefined)).ok) throw new Error('stage text accepted');
results.strict_bytes = bytes;
results.strict_hash = fnv1a(text);
Object.assign(
  results,
  measureGroup({
    p_ours: () => api.parseJson(text),
    p_json_parse: () => JSON.parse(text),
    p_core: () => core.parseJson(text, undefined),
    p_stage_crossing: () => core.parseJson(badStart, undefined),
    p_stage_parse: () => core.parseJson(badEnd, undefined),
  }),
);
const R = results;
table(`Node: strict JSON parse, ${bytes} bytes (${JSON.parse(text).length} objects) — target: ours ≤ 2× JSON.parse`, [
  { label: 'parseJson(text)', result: R.p_ours, base: R.p_json_parse, baseName: 'JSON.parse' },
  { label: 'JSON.parse(text)', result: R.p_json_parse, base: R.p_json_parse, baseName: 'JSON.parse' },
  { label: '  ours: core export (text → verdict)', result: R.p_core, base: R.p_ours, baseName: 'of ours' },
  { label: '  ours: then JSON.parse(text) in api.mjs', result: R.p_json_parse, base: R.p_ours, baseName: 'of ours' },
  { label: '  stage: crossing only (fails at byte 0)', result: R.p_stage_crossing, base: R.p_ours, baseName: 'of ours' },
  { label: '  stage: + strict check (fails at last byte)', result: R.p_stage_parse, base: R.p_ours, baseName: 'of ours' },
]);
console.log(`    reply: ${reply} (the core's verdict; the value is JSON.parse of the caller's text)`);

// ---------------------------------------------------------------------------------------------
// (2) Streams. Every contender returns the final arguments as a value.
const hrtime = process.hrtime.bigint;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
// Interleaved rounds (round r runs every contender once, each a batch of n streams, awaited);
// n is calibrated to ~20 ms for short streams, 1 for long ones. Median ns per stream.
async function measureStreams(fns, rounds, batchMs = 20) {
  const entries = [];
  for (const [name, fn] of Object.entries(fns)) {
    await fn();
    let n = 1;
    const t0 = hrtime();
    await fn();
    const once = Number(hrtime() - t0);
    if (once < batchMs * 1e6) n = Math.max(1, Math.round((batchMs * 1e6) / Math.max(once, 1)));
    entries.push({ name, fn, n, perOp: [] });
  }
  for (let r = 0; r < rounds; r++) {
    for (const e of entries) {
      const t0 = hrtime();
      for (let i = 0; i < e.n; i++) await e.fn();
      e.perOp.push(Number(hrtime() - t0) / e.n);
    }
  }
  const out = {};
  for (const e of entries) {
    const s = [...e.perOp].sort((a, b) => a - b);
    out[e.name] = { ns: median(e.perOp), lo: s[Math.floor(s.length / 4)], hi: s[Math.ceil((3 * s.length) / 4) - 1], n: e.n, rounds };
  }
  return out;
}

// (2a) The recorded OpenAI Chat stream.
const sse = recordedSse();
const sseBytes = new TextEncoder().encode(sse);
// The SSE split by events, as a network would deliver it (one chunk per event).
const sseEvents = sse.split(/(?<=\n\n)/);

// The AI SDK approach on raw SSE: split the events, JSON.parse each chunk, append the argument
// fragments per tool-call index, parsePartialJson(buffer) per fragment (the partial value a UI
// shows), and at the end the final parse of each call's arguments.
async function aiSdkRecorded() {
  const calls = [];
  let finishReason;
  for (const block of sse.split('\n\n')) {
    if (!block.startsWith('data: ')) continue;
    const data = block.slice(6);
    if (data === '[DONE]') break;
    const chunk = JSON.parse(data);
    const choice = chunk.choices[0];
    if (!choice) continue;
    for (const d of choice.delta?.tool_calls ?? []) {
      const call = (calls[d.index] ??= { callId: d.id, name: d.function?.name, text: '', partial: undefined });
      const fragment = d.function?.arguments;
      if (fragment) {
        call.text += fragment;
        call.partial = (await parsePartialJson(call.text)).value;
      }
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  return { finishReason, calls: calls.map((c) => ({ callId: c.callId, name: c.name, arguments: JSON.parse(c.text) })) };
}
// The same number of awaits of an async no-op, to bound the share of the async API itself.
const noop = async (x) => x;
async function awaitsOnly(count) {
  for (let i = 0; i < count; i++) await noop(i);
  return count;
}

// The provider entry point (raw SSE in, normalized response out), or, where this build of the
// package predates it, ours fed the same stream converted to normalized events beforehand.
const hasProvider = typeof api.assembleProviderStream === 'function';
function normalizedEvents() {
  const events = [];
  let seq = 0;
  const open = new Map();
  let reason;
  for (const block of sse.split('\n\n')) {
    if (!block.startsWith('data: ') || block === 'data: [DONE]') continue;
    const choice = JSON.parse(block.slice(6)).choices[0];
    if (!choice) continue;
    for (const d of choice.delta?.tool_calls ?? []) {
      if (!open.has(d.index)) {
        open.set(d.index, `item_${d.index}`);
        events.push({ type: 'start', sequence: seq++, itemId: `item_${d.index}`, callId: d.id, name: d.function.name });
      }
      if (d.function?.arguments) events.push({ type: 'delta', sequence: seq++, itemId: open.get(d.index), text: d.function.arguments });
    }
    if (choice.finish_reason) reason = choice.finish_reason;
  }
  for (const itemId of open.values()) events.push({ type: 'end', sequence: seq++, itemId });
  events.push({ type: 'finish', sequence: seq++, reason });
  return events;
}
const recordedEvents = normalizedEvents();
const oursEvents = () => {
  const a = api.createAssembler();
  for (const e of recordedEvents) a.push(e);
  const r = a.finish();
  a.free();
  return r;
};

const expected = await aiSdkRecorded();
const fragments = expected.calls.length && recordedEvents.filter((e) => e.type === 'delta').length;
const same = (r) => JSON.stringify(r.calls.map((c) => [c.callId, c.name, c.arguments])) === JSON.stringify(expected.calls.map((c) => [c.callId, c.name, c.arguments]));
if (!same(oursEvents())) throw new Error('ours (events) differs from the AI SDK approach');
const recordedFns = {};
if (hasProvider) {
  if (!same(api.assembleProviderStream('openai-chat', sse))) throw new Error('assembleProviderStream differs');
  recordedFns.r_ours_sse = async () => api.assembleProviderStream('openai-chat', sse);
  recordedFns.r_ours_bytes = async () => api.assembleProviderStream('openai-chat', sseBytes);
  recordedFns.r_ours_push_sse = async () => {
    const a = api.createProviderAssembler('openai-chat');
    for (const chunk of sseEvents) a.pushSse(chunk);
    const r = a.finish();
    a.free();
    return r;
  };
}
recordedFns.r_ours_events = async () => oursEvents();
recordedFns.r_aisdk = aiSdkRecorded;
recordedFns.r_awaits = () => awaitsOnly(2 * fragments);
Object.assign(results, await measureStreams(recordedFns, 15));
results.recorded = { file: RECORDED.split('/').pop(), bytes: sseBytes.length, sse_events: sseEvents.length, fragments, provider_api: hasProvider };
const rows = [];
if (hasProvider) {
  rows.push({ label: "assembleProviderStream('openai-chat', string)", result: R.r_ours_sse, base: R.r_aisdk, baseName: 'AI SDK' });
  rows.push({ label: "assembleProviderStream('openai-chat', bytes)", result: R.r_ours_bytes, base: R.r_aisdk, baseName: 'AI SDK' });
  rows.push({ label: 'createProviderAssembler + pushSse per event', result: R.r_ours_push_sse, base: R.r_aisdk, baseName: 'AI SDK' });
}
rows.push({ label: `createAssembler, pre-converted events${hasProvider ? '' : ' (no provider API in this build)'}`, result: R.r_ours_events, base: R.r_aisdk, baseName: 'AI SDK' });
rows.push({ label: 'AI SDK: split + JSON.parse + parsePartialJson/fragment', result: R.r_aisdk, base: R.r_aisdk, baseName: 'AI SDK' });
rows.push({ label: `  of which: ${2 * fragments} awaits of an async no-op`, result: R.r_awaits, base: R.r_aisdk, baseName: 'AI SDK' });
table(`Node: recorded OpenAI Chat stream (${sseBytes.length} bytes SSE, ${sseEvents.length} events, ${expected.calls.length} tool calls, ${fragments} argument fragments), per stream`, rows);

// (2b) Synthetic arguments streams: one call, deltas of 16–64 characters.
const OPTIONS = { maxArgumentsBytes: 64 << 20, maxResponseBytes: 64 << 20, maxArrayLength: 1 << 22 };
function ours(pieces) {
  const a = api.createAssembler(OPTIONS);
  let seq = 0;
  a.push({ type: 'start', sequence: seq++, itemId: 'i', callId: 'c', name: 'edit' });
  for (const t of pieces) a.push({ type: 'delta', sequence: seq++, itemId: 'i', text: t });
  a.push({ type: 'end', sequence: seq++, itemId: 'i' });
  a.push({ type: 'finish', sequence: seq++, reason: 'tool_calls' });
  const r = a.finish();
  a.free();
  return r.calls[0].arguments;
}
async function aiSdk(pieces) {
  let buffer = '';
  let partial;
  for (const t of pieces) {
    buffer += t;
    partial = (await parsePartialJson(buffer)).value;
  }
  return partial && JSON.parse(buffer);
}

const maxAiKb = Number(process.env.BENCH_AISDK_MAX_KB || 320);
const sizes = [
  ['1 KB', 1 << 10, 15],
  ['100 KB', 100 << 10, 7],
  ['10 MB', 10 << 20, 5],
];
results.synthetic = [];
console.log('\nNode: synthetic arguments stream, one call, deltas of 16–64 characters — target: ours 10 MB ≤ 120× 100 KB');
for (const [label, size, rounds] of sizes) {
  const t = argumentsText(size);
  const pieces = deltas(t);
  const fns = { ours: async () => ours(pieces) };
  if (size <= 100 << 10) fns.aisdk = () => aiSdk(pieces);
  if (JSON.stringify(ours(pieces)) !== t || (fns.aisdk && JSON.stringify(await aiSdk(pieces)) !== t)) throw new Error(`${label}: wrong arguments`);
  const r = await measureStreams(fns, rounds, size <= 1 << 10 ? 20 : 0);
  const row = { label, bytes: Buffer.byteLength(t), deltas: pieces.length, hash: fnv1a(t), ours: r.ours, aisdk: r.aisdk ?? null };
  results.synthetic.push(row);
  console.log(
    `  ${label.padEnd(7)} ${String(row.bytes).padStart(9)} B ${String(pieces.length).padStart(7)} deltas  ours ${fmtNs(r.ours.ns).padStart(10)}` +
      (r.aisdk ? `  AI SDK ${fmtNs(r.aisdk.ns).padStart(10)}  (${(r.aisdk.ns / r.ours.ns).toFixed(1)}× ours)` : ''),
  );
}
// The AI SDK approach past 100 KB: one run per size while it stays under the bound, then the
// 10 MB time extrapolated with the exponent measured between the two largest sizes.
const curve = results.synthetic.filter((r) => r.aisdk).map((r) => ({ bytes: r.bytes, ns: r.aisdk.ns, runs: r.aisdk.rounds }));
for (const kb of [200, 320, 640, 1000]) {
  if (kb > maxAiKb) break;
  const t = argumentsText(kb << 10);
  const pieces = deltas(t);
  const t0 = hrtime();
  await aiSdk(pieces);
  const ns = Number(hrtime() - t0);
  curve.push({ bytes: Buffer.byteLength(t), ns, runs: 1 });
  console.log(`  AI SDK approach, ${kb} KB (${pieces.length} deltas, one run): ${fmtNs(ns)}`);
  if (ns > 30e9) break;
}
const [p, q] = curve.slice(-2);
const exponent = Math.log(q.ns / p.ns) / Math.log(q.bytes / p.bytes);
const big = results.synthetic[2];
const extrapolated = q.ns * (big.bytes / q.bytes) ** exponent;
results.aisdk_curve = curve;
results.aisdk_exponent = exponent;
results.aisdk_10mb_extrapolated_ns = extrapolated;
const [s1, s100, s10m] = results.synthetic;
// The scaling target from one group of ours alone (the three sizes interleaved), so that the
// AI SDK runs' garbage does not land in some sizes' rounds and not others'.
const piecesBySize = sizes.map(([, size]) => deltas(argumentsText(size)));
const scale = await measureStreams(
  { s_1k: async () => ours(piecesBySize[0]), s_100k: async () => ours(piecesBySize[1]), s_10m: async () => ours(piecesBySize[2]) },
  5,
  0,
);
results.scaling_group = scale;
results.scaling = scale.s_10m.ns / scale.s_100k.ns;
console.log(`  ours alone, sizes interleaved (5 rounds): 1 KB ${fmtNs(scale.s_1k.ns)}, 100 KB ${fmtNs(scale.s_100k.ns)}, 10 MB ${fmtNs(scale.s_10m.ns)}`);
console.log(`  AI SDK approach: time ∝ size^${exponent.toFixed(2)} (measured ${(p.bytes / 1024).toFixed(0)} → ${(q.bytes / 1024).toFixed(0)} KB);` +
  ` 10 MB extrapolated: ${(extrapolated / 1e9 / 60).toFixed(0)} min (${(extrapolated / s10m.ours.ns).toFixed(0)}× ours)`);
console.log(`  ours: 10 MB / 100 KB = ${results.scaling.toFixed(1)}× (byte ratio ${(s10m.bytes / s100.bytes).toFixed(1)}×; target ≤ 120×): ${results.scaling <= 120 ? 'met' : 'NOT met'}`);
console.log(`  ours per delta (alone): 1 KB ${fmtNs(scale.s_1k.ns / s1.deltas)}, 100 KB ${fmtNs(scale.s_100k.ns / s100.deltas)}, 10 MB ${fmtNs(scale.s_10m.ns / s10m.deltas)}`);

const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(results, null, 2));
