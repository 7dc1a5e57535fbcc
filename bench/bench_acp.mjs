// ACP prompt admission performance, Node: admission of a prompt with a 5 MiB PNG (`admitPrompt`: canonical
// base64 check and decode, signature, SHA-256, the bytes handed out as a Uint8Array) vs the peer
// `Buffer.from(data, "base64")` + `crypto.createHash("sha256")` (which checks nothing: Buffer
// skips invalid characters and accepts any padding). Also where our time goes: a prompt refused
// before decoding (the crossing and the reading), one refused after decoding (at the signature:
// decode, no hash), and `isCanonicalBase64` alone. Medians of interleaved rounds.
// Usage: cd bench && node bench_acp.mjs [--json out.json]
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as api from 'agent-contract';

const MIB = 1 << 20;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5 * MIB - 8)]);
const data = png.toString('base64');
const prompt = (block) => ({ sessionId: 's', prompt: [{ type: 'text', text: 'what is this?' }, block] });
const ok = prompt({ type: 'image', mimeType: 'image/png', data });
const refusedEarly = prompt({ type: 'image', mimeType: 'image/bmp', data });
const refusedAtSignature = prompt({ type: 'image', mimeType: 'image/jpeg', data });
const caps = { image: true };

const plan = api.admitPrompt(ok, caps);
if (Buffer.compare(Buffer.from(plan.images[0].bytes), png) !== 0) throw new Error('bytes differ');
if (plan.images[0].sha256 !== createHash('sha256').update(png).digest('hex')) throw new Error('hash differs');

const cases = {
  'admitPrompt 5 MiB PNG': () => api.admitPrompt(ok, caps),
  'peer: Buffer.from base64 + sha256': () => createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex'),
  'refused before decoding (MIME)': () => api.safeAdmitPrompt(refusedEarly, caps),
  'refused at the signature (decoded, not hashed)': () => api.safeAdmitPrompt(refusedAtSignature, caps),
  'isCanonicalBase64 of the 6.7 MB text': () => api.isCanonicalBase64(data),
};
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, f] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    f();
    times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const out = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
const ratio = out['admitPrompt 5 MiB PNG'] / out['peer: Buffer.from base64 + sha256'];
console.log(`node ${process.version}, load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}, ${rounds} rounds, medians`);
for (const [k, v] of Object.entries(out)) console.log(`  ${k.padEnd(48)} ${v.toFixed(1).padStart(8)} ms`);
console.log(`  ratio admitPrompt / peer: ${ratio.toFixed(2)}× (target ≤ 2×)`);
const json = process.argv.indexOf('--json');
if (json > 0) writeFileSync(process.argv[json + 1], JSON.stringify({ ms: out, ratio }, null, 1));
