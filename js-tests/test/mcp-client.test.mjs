// The MCP TypeScript SDK (pinned in package-lock.json) against our projections and pipeline:
// its own schemas parse every MCP projection of the fixtures, and a real Client <-> Server pair
// over its in-memory transport lists the tools and calls them through checkToolCall, which takes
// the tools/call request as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as api from 'agent-contract';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const projectionCases = JSON.parse(readFileSync(fixtures + 'projection.json', 'utf8')).cases;

test("the MCP SDK's schema accepts toMcpTools of every registry in the projection fixtures", () => {
  const registries = projectionCases
    .filter((c) => c.op.startsWith('to') && c.op.endsWith('Tools') && c.expect.ok)
    .map((c) => c.args[0]);
  assert.ok(registries.length >= 5);
  for (const registry of registries) {
    const tools = api.toMcpTools(registry);
    const parsed = ListToolsResultSchema.safeParse({ tools });
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    for (const tool of tools) assert.equal(tool.inputSchema.type, 'object');
  }
  // The check can fail: the SDK refuses a root schema without `type` (the bug this guards).
  assert.equal(ListToolsResultSchema.safeParse({ tools: [{ name: 'x', inputSchema: {} }] }).success, false);
});

const registry = api.createRegistry([
  api.defineTool({
    name: 'read_file',
    description: 'Read a file.',
    inputSchema: { properties: { path: { type: 'string', minLength: 1 } }, required: ['path'] },
    permission: 'read',
  }),
  api.defineTool({ name: 'any_input', description: 'Takes any object.', inputSchema: {}, permission: 'read' }),
  api.defineTool({
    name: 'write_file',
    description: 'Write a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    permission: 'write',
  }),
]);
const policy = api.definePolicy({ rules: [{ effect: 'allow', permission: 'read' }, { effect: 'deny', permission: 'write' }] });

// The server a user would write: tools/list from the projection, tools/call through the
// pipeline; a refused call is a tool error carrying our code (MCP: isError, not a protocol error).
function agentServer() {
  const server = new Server({ name: 'agent-contract-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: api.toMcpTools(registry) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // The tools/call request as it came over the wire: checkToolCall takes that shape.
    const call = { jsonrpc: '2.0', id: extra.requestId, method: request.method, params: request.params };
    const verdict = api.safeCheckToolCall(registry, call, policy);
    if (!verdict.ok) {
      const { code, path, message } = verdict.error;
      return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code, path, message }) }] };
    }
    return { content: [{ type: 'text', text: JSON.stringify(verdict.value) }] };
  });
  return server;
}

test('an MCP Client lists the tools and calls valid and invalid ones through checkToolCall', async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = agentServer();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['any_input', 'read_file', 'write_file']);
    assert.deepEqual(tools.find((t) => t.name === 'any_input').inputSchema, { type: 'object' });

    const ok = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    assert.equal(ok.isError, undefined);
    const approved = JSON.parse(ok.content[0].text);
    assert.match(approved.callId, /^\d+$/, 'the JSON-RPC request id');
    assert.deepEqual({ ...approved, callId: undefined }, {
      callId: undefined, tool: 'read_file', input: { path: 'README.md' }, permissions: ['read'],
    });

    const error = async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true);
      return JSON.parse(result.content[0].text);
    };
    const mismatch = await error('read_file', { path: '' });
    assert.equal(mismatch.code, 'SCHEMA_MISMATCH');
    assert.equal(mismatch.path, '/params/arguments');
    assert.equal((await error('write_file', { path: 'a' })).code, 'POLICY_DENIED');
    assert.equal((await error('delete_file', {})).code, 'UNKNOWN_TOOL');
  } finally {
    await client.close();
    await server.close();
  }
});
