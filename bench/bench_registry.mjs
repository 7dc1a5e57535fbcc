// Registry of 500 tools: createRegistry time and checkToolCall latency in Node.
// Run by scripts/bench.sh (cd bench && node bench_registry.mjs [--json out.json]). Each tool has its own small schema (5 properties,
// an enum, a pattern, a nested array), so 500 tools are more than the 256-entry schema cache.
import { createRegistry, checkToolCall, toOpenAITools } from 'agent-contract';
import { writeFileSync } from 'node:fs';
import { measureGroup, table } from './harness.mjs';

const tools = Array.from({ length: 500 }, (_, i) => ({
  name: `tool_${String(i).padStart(3, '0')}`,
  description: `Tool number ${i}.`,
  permissions: i % 2 ? ['read'] : ['write'],
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', pattern: '^[a-z0-9_./-]+$', maxLength: 200 + i },
      mode: { enum: ['create', 'overwrite'] },
      tags: { type: 'array', items: { type: 'string' } },
      retries: { type: 'integer', minimum: 0, maximum: 5 },
      note: { type: 'string' },
    },
    required: ['path'],
    additionalProperties: false,
  },
}));
const policy = { rules: [{ effect: 'allow', permission: 'read' }, { effect: 'ask', permission: 'write' }] };
const registry = createRegistry(tools);
const action = { type: 'tool_call', callId: 'c1', tool: 'tool_251', input: { path: 'docs/a.md', mode: 'create', tags: ['x'] } };
checkToolCall(registry, action, policy);

// Cold: every schema new to the core's compiled-schema cache (a fresh `$comment` per round), so
// the 500 schemas are compiled; warm: the same 500 tools again (all schemas cached).
let round = 0;
const coldTools = () => {
  round++;
  return tools.map((t) => ({ ...t, inputSchema: { ...t.inputSchema, $comment: `r${round}` } }));
};
// Separate groups: interleaved, the cold rounds would evict the warm tools from the cache.
const r = measureGroup({ create_cold: () => createRegistry(coldTools()) });
createRegistry(tools);
Object.assign(r, measureGroup({
  create: () => createRegistry(tools),
  check: () => checkToolCall(registry, action, policy),
  openai: () => toOpenAITools(registry),
}));
table('Tool registry (Node) 500 tools (each its own schema) — no target', [
  { label: 'createRegistry (500 tools, schemas compiled)', result: r.create_cold },
  { label: 'createRegistry (500 tools, schemas cached)', result: r.create },
  { label: 'checkToolCall (500-tool registry, allowed)', result: r.check },
  { label: 'toOpenAITools (500 tools)', result: r.openai },
]);

const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(r, null, 2));
