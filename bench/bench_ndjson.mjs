// NDJSON decoding performance: ~100 MB of recorded-like ACP traffic (session/update
// notifications with text chunks, tool calls, requests and responses, one frame per line) cut
// in 64 KiB reads, through createNdjsonDecoder (frames classified, messages parsed) against a
// split("\n") + JSON.parse loop over the same reads (no classification, no bound). Target: at
// most 2x. Usage: node bench_ndjson.mjs [MB]  (not part of the test suite)
import { createNdjsonDecoder } from 'agent-contract';

const MB = Number(process.argv[2] ?? 100);
const READ = 64 * 1024;

function corpus(bytes) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    let line;
    if (i % 50 === 0) line = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'session/prompt', params: { sessionId: 'sess_abc123', prompt: [{ type: 'text', text: 'Refactor the parser so that '.repeat(1 + (i % 7)) }] } });
    else if (i % 50 === 1) line = JSON.stringify({ jsonrpc: '2.0', id: i - 1, result: { stopReason: 'end_turn' } });
    else if (i % 10 === 5) line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_abc123', update: { sessionUpdate: 'tool_call', toolCallId: `call_${i}`, title: 'Reading configuration file', kind: 'read', status: 'pending', locations: [{ path: `/home/user/project/src/file_${i}.ts` }] } } });
    else line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_abc123', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${i}: ` + 'the quick brown fox jumps over the lazy dög — “quoted” \u2028 '.repeat(1 + (i % 13)) } } } });
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  const bytes_ = new TextEncoder().encode(lines.join('\n') + '\n');
  const reads = [];
  for (let i = 0; i < bytes_.length; i += READ) reads.push(bytes_.subarray(i, i + READ));
  return { reads, lines: lines.length, bytes: bytes_.length };
}

function ours(reads) {
  const d = createNdjsonDecoder();
  let n = 0;
  for (const r of reads) for (const f of d.push(r)) if (!f.ignored && f.message) n++;
  n += d.end().length;
  d.free();
  return n;
}

function peer(reads) {
  const decoder = new TextDecoder();
  let pending = '';
  let n = 0;
  for (const r of reads) {
    const parts = (pending + decoder.decode(r, { stream: true })).split('\n');
    pending = parts.pop();
    for (const p of parts) if (p && JSON.parse(p)) n++;
  }
  if (pending && JSON.parse(pending)) n++;
  return n;
}

const { reads, lines, bytes } = corpus(MB * 1024 * 1024);
const time = (f) => {
  const t = performance.now();
  const n = f(reads);
  return [performance.now() - t, n];
};
const runs = { ours: [], peer: [] };
for (let i = 0; i < 3; i++) {
  const [tp, np] = time(peer);
  const [to, no] = time(ours);
  if (no !== lines || np !== lines) throw new Error(`frames: ours ${no}, peer ${np}, lines ${lines}`);
  runs.peer.push(tp);
  runs.ours.push(to);
}
const median = (a) => [...a].sort((x, y) => x - y)[1];
const [o, p] = [median(runs.ours), median(runs.peer)];
const mbs = (ms) => (bytes / 1048576 / (ms / 1000)).toFixed(0);
console.log(`NDJSON ${(bytes / 1048576).toFixed(1)} MB, ${lines} frames, ${READ / 1024} KiB reads (median of 3)`);
console.log(`  createNdjsonDecoder          ${o.toFixed(0)} ms  (${mbs(o)} MB/s)`);
console.log(`  split + JSON.parse           ${p.toFixed(0)} ms  (${mbs(p)} MB/s)`);
console.log(`  ratio ${(o / p).toFixed(2)}x (target <= 2x); rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
