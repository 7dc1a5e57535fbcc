// Compiled tool handles, Node: validateToolInput through the tool defineTool returned (its compiled schema
// held in the instance) vs the plain path (a JSON copy of the same definition, read again by the
// core on every call: what every call did before), against Ajv 8 compiled once, in the same run
// (interleaved batches, ratio of medians); validateToolInputs per input; the wasm memory over
// 10^6 calls and over 100,000 tools created and dropped.
// Usage: node --expose-gc bench_tool_handles.mjs [--json out.json] [--calls N]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineTool, validateToolInput, validateToolInputs, memoryReport, createRegistry, checkToolCall, toOpenAITools } from 'agent-contract';
import { measureGroup, table } from './harness.mjs';
import { toolDef, inputSchema, small } from './tool_schema.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const ajvValidate = new Ajv2020({ allErrors: false }).compile(inputSchema);
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const calls = Number(arg('--calls', 1e6));
const ITEMS = 1000;

const tool = defineTool(toolDef);
const plain = JSON.parse(JSON.stringify(tool));
if (JSON.stringify(validateToolInput(tool, small)) !== JSON.stringify(validateToolInput(plain, small))) throw new Error('paths differ');
const items = Array.from({ length: ITEMS }, (_, i) => ({ ...small, path: `src/file_${i}.ts`, edits: [{ line: i + 1, text: `line ${i}` }, { line: i + 2, text: 'x' }] }));
if (!validateToolInputs(tool, items).every((o) => o.ok)) throw new Error('batch rejected');

const r = measureGroup({
  s_new: () => validateToolInput(tool, small),
  s_old: () => validateToolInput(plain, small),
  s_ajv: () => ajvValidate(small),
});
const b = measureGroup({
  b_new: () => validateToolInputs(tool, items),
  b_new_loop: () => items.map((i) => validateToolInput(tool, i)),
  b_old_loop: () => items.map((i) => validateToolInput(plain, i)),
  b_ajv_loop: () => items.map((i) => ajvValidate(i)),
});
for (const [k, v] of Object.entries(b)) r[k] = { ...v, ns: v.ns / ITEMS, lo: v.lo / ITEMS, hi: v.hi / ITEMS };

// A registry of 500 tools (bench_registry.mjs's shape): the created value vs a plain copy.
const regTools = Array.from({ length: 500 }, (_, i) => ({
  name: `tool_${String(i).padStart(3, '0')}`, description: `Tool number ${i}.`, permissions: i % 2 ? ['read'] : ['write'],
  inputSchema: { type: 'object', properties: { path: { type: 'string', pattern: '^[a-z0-9_./-]+$', maxLength: 200 + i }, mode: { enum: ['create', 'overwrite'] } }, required: ['path'], additionalProperties: false },
}));
const registry = createRegistry(regTools);
const plainRegistry = JSON.parse(JSON.stringify(registry));
const policy = { rules: [{ effect: 'allow', permission: 'read' }, { effect: 'ask', permission: 'write' }] };
const action = { type: 'tool_call', callId: 'c1', tool: 'tool_251', input: { path: 'docs/a.md', mode: 'create' } };
Object.assign(r, measureGroup({
  r_check_new: () => checkToolCall(registry, action, policy),
  r_check_old: () => checkToolCall(plainRegistry, action, policy),
  r_openai_new: () => toOpenAITools(registry),
  r_openai_old: () => toOpenAITools(plainRegistry),
}));

const gc = globalThis.gc ?? (() => {});
for (let i = 0; i < calls / 10; i++) validateToolInput(tool, small);
const mem0 = memoryReport();
const heap0 = process.memoryUsage().heapUsed;
for (let i = 0; i < calls; i++) validateToolInput(tool, small);
gc();
r.mem_calls = calls;
r.mem_wasm_growth = memoryReport().bytes - mem0.bytes;
r.mem_heap_growth = process.memoryUsage().heapUsed - heap0;
// Tools: two rounds first (the allocator grows to the most tools alive between collections),
// then 20 rounds of 5,000 measured.
const toolRound = async (round) => {
  for (let i = 0; i < 5000; i++) {
    const t = defineTool({ ...toolDef, name: `tool_${i % 997}` });
    if (round % 2 === 0) t.free();
  }
  gc();
  await new Promise((resolve) => setImmediate(resolve));
};
for (let round = 0; round < 2; round++) await toolRound(round);
const toolsBefore = memoryReport().bytes;
for (let round = 0; round < 20; round++) await toolRound(round);
r.tools_wasm_growth = memoryReport().bytes - toolsBefore;
r.renewals = memoryReport().renewals - mem0.renewals;

table(`Compiled tool (Node) validateToolInput, small valid input (${JSON.stringify(small).length} bytes)`, [
  { label: 'validateToolInput(tool) through the handle', result: r.s_new, base: r.s_ajv, baseName: 'Ajv' },
  { label: 'validateToolInput(plain copy) (old path)', result: r.s_old, base: r.s_ajv, baseName: 'Ajv' },
  { label: 'Ajv compiled', result: r.s_ajv, base: r.s_ajv, baseName: 'Ajv' },
]);
table(`Compiled tool (Node) per input, ${ITEMS} small inputs`, [
  { label: 'validateToolInputs(tool, items)', result: r.b_new, base: r.b_ajv_loop, baseName: 'Ajv' },
  { label: 'validateToolInput(tool) per item', result: r.b_new_loop, base: r.b_ajv_loop, baseName: 'Ajv' },
  { label: 'validateToolInput(plain) per item (old)', result: r.b_old_loop, base: r.b_ajv_loop, baseName: 'Ajv' },
  { label: 'Ajv per item', result: r.b_ajv_loop, base: r.b_ajv_loop, baseName: 'Ajv' },
]);
table('Compiled tool (Node) registry of 500 tools: the value createRegistry returned vs a plain copy (old path)', [
  { label: 'checkToolCall(registry)', result: r.r_check_new, base: r.r_check_old, baseName: 'old' },
  { label: 'checkToolCall(plain copy) (old path)', result: r.r_check_old, base: r.r_check_old, baseName: 'old' },
  { label: 'toOpenAITools(registry)', result: r.r_openai_new, base: r.r_openai_old, baseName: 'old' },
  { label: 'toOpenAITools(plain copy) (old path)', result: r.r_openai_old, base: r.r_openai_old, baseName: 'old' },
]);
console.log(`\nmemory over ${calls} validateToolInput calls: wasm ${r.mem_wasm_growth >= 0 ? '+' : ''}${r.mem_wasm_growth} bytes, JS heap ${(r.mem_heap_growth / 1024).toFixed(0)} KiB after gc`);
console.log(`100,000 tools created and dropped (half freed, half left to gc): wasm ${r.tools_wasm_growth >= 0 ? '+' : ''}${r.tools_wasm_growth} bytes, renewals ${r.renewals}`);
if (process.argv.includes('--json')) writeFileSync(arg('--json'), JSON.stringify(r, null, 2));
