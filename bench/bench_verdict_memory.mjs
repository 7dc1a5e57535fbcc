// Memory per call of the verdict-reply functions in Node. Each function is called
// 10^6 times (BENCH_CALLS to change) on a valid input; the JS heap (after a full GC) and the
// wasm instance's memory are read after a warm-up and at the end: no growth is the target.
// Run with `node --expose-gc bench_verdict_memory.mjs [--json out.json]`.
import { writeFileSync } from 'node:fs';
import { parseAgentAction, parseAgentActionJson, parseAgentActionsJsonl, parseDecision, parseDecisionJson, memoryReport } from 'agent-contract';

const CALLS = Number(process.env.BENCH_CALLS || 1e6);
const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const text = JSON.stringify(action);
const decision = { kind: 'tool', calls: [{ callId: 'c1', name: 'read_file', arguments: { path: 'a' } }] };
const decisionText = JSON.stringify(decision);
const jsonl = `${text}\n${text}\n`;
const gc = globalThis.gc ?? (() => { throw new Error('run with --expose-gc'); });

function measure(name, call, calls) {
  for (let i = 0; i < 10000; i++) call();
  gc();
  const heap0 = process.memoryUsage().heapUsed, wasm0 = memoryReport().bytes;
  const t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) call();
  const ns = Number(process.hrtime.bigint() - t) / calls;
  gc();
  const heap1 = process.memoryUsage().heapUsed, wasm1 = memoryReport().bytes;
  return { name, calls, ns, heapGrowth: heap1 - heap0, wasmGrowth: wasm1 - wasm0, renewals: memoryReport().renewals };
}

const rows = [
  measure('parseAgentAction', () => parseAgentAction(action), CALLS),
  measure('parseAgentActionJson', () => parseAgentActionJson(text), CALLS),
  measure('parseDecision', () => parseDecision(decision), CALLS),
  measure('parseDecisionJson', () => parseDecisionJson(decisionText), CALLS),
  measure('parseAgentActionsJsonl (2 lines)', () => parseAgentActionsJsonl(jsonl), CALLS / 2),
];
console.log('\nMemory per call of the verdict-reply functions, Node — target: no growth');
for (const r of rows) {
  const ok = r.wasmGrowth === 0 && r.heapGrowth < 1 << 20;
  console.log(`  ${r.name.padEnd(34)} ${String(r.calls).padStart(8)} calls  ${(r.ns / 1000).toFixed(2).padStart(6)} µs/call  JS heap ${(r.heapGrowth / 1024).toFixed(0).padStart(6)} KiB  wasm ${(r.wasmGrowth / 1024).toFixed(0).padStart(5)} KiB  ${ok ? 'no growth' : 'GROWTH'}`);
}
const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(rows, null, 2));
