// Inputs of the stream benches (bench_streams.mjs). bench_streams.py builds the very same texts
// and deltas with the same code (checked: same lengths and hashes, printed by both).
import { readFileSync } from 'node:fs';

// The recorded OpenAI Chat stream (raw SSE, two tool calls) from the shared conformance data.
export const RECORDED =
  process.env.BENCH_RECORDED_STREAM ||
  '/work/shared/conformance/provider-streams/openai-chat/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin';
export const recordedSse = () => readFileSync(RECORDED, 'utf8');

const utf8 = (s) => Buffer.byteLength(s, 'utf8');

// ~1 MiB of realistic JSON text for the strict parse: an array of tool-call-like objects with
// strings (escapes, non-ASCII: Latin-1, CJK, a BMP symbol), integers, decimals, an exponent,
// booleans, null, nested objects and arrays. Written as text, so every host gets the same bytes.
export function strictText(bytes = 1 << 20) {
  const items = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item =
      `{"type":"tool_call","callId":"call_${i}","tool":"write_file","input":{` +
      `"path":"src/modules/m${i % 50}/file_${i}.ts","mode":"overwrite","line":${(i * 7) % 1000},` +
      `"ratio":${i % 100}.25,"content":"line ${i}: café, naïve, 日本語のテキスト\\n\\tindented \\"quoted\\" ✓",` +
      `"tags":["edit","auto",null,true,false],"meta":{"attempt":${i % 5},"score":-1.5e-3,` +
      `"owner":{"name":"Zoë","id":${i}}}}}`;
    items.push(item);
    size += utf8(item) + 1;
  }
  return `[${items.join(',')}]`;
}

// One tool call's arguments of about `bytes` UTF-8 bytes: an object holding an array of edits.
export function argumentsText(bytes) {
  const items = [];
  let size = 12;
  for (let i = 0; size < bytes; i++) {
    const item = `{"path":"src/file_${i}.ts","line":${i},"text":"const x${i} = \\"café ✓\\";\\n","done":true}`;
    items.push(item);
    size += utf8(item) + 1;
  }
  return `{"edits":[${items.join(',')}]}`;
}

// Deltas of 16–64 characters (Park–Miller minimal standard generator, seed 1: the same
// sequence in Python). Real models stream a token or a few per chunk; 16–64 is on the large
// side, which favours re-parsing per delta (fewer parses). The texts above are BMP-only, so
// the split is the same in UTF-16 (JS) and code points (Python).
export function deltas(text) {
  const out = [];
  let seed = 1;
  for (let i = 0; i < text.length; ) {
    seed = (seed * 48271) % 2147483647;
    const n = 16 + (seed % 49);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

// A short content hash, to check that Node and Python bench the same texts.
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
