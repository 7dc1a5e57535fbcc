// Registry of 500 tools (issue 3 §2): createRegistry time and checkToolCall latency in Node.
// Run: cd bench && node bench_registry.mjs. Each tool has its own small schema (5 properties,
// an enum, a pattern, a nested array), so 500 tools are more than the 256-entry schema cache.
import { createRegistry, checkToolCall, toOpenAITools } from 'agent-contract';
import { measureGroup } from './harness.mjs';

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

const results = measureGroup({
  'createRegistry (500 tools)': () => createRegistry(tools),
  'checkToolCall (500-tool registry)': () => checkToolCall(registry, action, policy),
  'toOpenAITools (500 tools)': () => toOpenAITools(registry),
});
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(36)} ${(r.ns / 1e6).toFixed(2)} ms  (${(r.lo / 1e6).toFixed(2)}–${(r.hi / 1e6).toFixed(2)})`);
}
