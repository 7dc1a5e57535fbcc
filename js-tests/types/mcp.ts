// 'agent-contract/mcp' as an ES module caller types it: our validator is what the MCP SDK's
// Client and Server take as `jsonSchemaValidator`, and the helpers return the package's types.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { jsonSchemaValidator as SdkValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { checkMcpToolCall, checkMcpToolResult, createMcpValidator, fromMcpTools, jsonSchemaValidator } from 'agent-contract/mcp';
import type { McpCheckedCall, McpToolResult } from 'agent-contract/mcp';
import type { Permission, Registry } from 'agent-contract';

const asSdk: SdkValidator = jsonSchemaValidator;
const client = new Client({ name: 'c', version: '1.0.0' }, { jsonSchemaValidator: createMcpValidator({ role: 'client' }) });
const server = new Server({ name: 's', version: '1.0.0' }, { capabilities: {}, jsonSchemaValidator: createMcpValidator({ role: 'server' }) });
const registry: Registry = fromMcpTools({ tools: [] }, { names: 'mcp', formats: 'assert', maxDepth: 64 });
const call: McpCheckedCall = checkMcpToolCall(registry, { name: 'get-weather', arguments: {} });
const permissions: Permission[] = call.permissions;
const result: McpToolResult = checkMcpToolResult(registry.tools[0], { content: [] });
const check = jsonSchemaValidator.getValidator<{ n: number }>({ type: 'object' })({ n: 1 });
if (check.valid) {
  const n: number = check.data.n;
  void n;
} else {
  const message: string = check.errorMessage;
  void message;
}
// @ts-expect-error the role is client or server
createMcpValidator({ role: 'inputSchema' });
void [asSdk, client, server, permissions, result];
