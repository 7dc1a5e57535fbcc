// Types for 'agent-contract/mcp': the core's tool contracts for the MCP SDKs and MCP messages.
// The result types below are written out (not imported from the SDK) so that the package needs
// no MCP SDK; they match @modelcontextprotocol/sdk's `jsonSchemaValidator` interface.
import type { LimitOptions, McpToolResult, Options, Permission, Policy, Registry, ToolDefinition, ToolInput } from './index.js';

/** What a validator returns: the SDK's `JsonSchemaValidatorResult`. */
export type McpValidatorResult<T> =
  | { valid: true; data: T; errorMessage: undefined }
  | { valid: false; data: undefined; errorMessage: string };

/** The SDK's `jsonSchemaValidator` interface: a schema compiled once, a validator per schema. */
export interface McpJsonSchemaValidator {
  /** Throws ContractError when the core cannot compile the schema. */
  getValidator<T>(schema: { readonly [key: string]: unknown }): (input: unknown) => McpValidatorResult<T>;
}

export interface McpValidatorOptions {
  /** Which check the error text names: `client` (structuredContent against a tool's
   * outputSchema), `server` (an elicitation answer against its requestedSchema). */
  role?: 'client' | 'server';
}

/** A `jsonSchemaValidator` for `new Client(info, {jsonSchemaValidator})` / `new Server(...)`. */
export function createMcpValidator(options?: McpValidatorOptions): McpJsonSchemaValidator;
/** The validator with neutral error text. */
export declare const jsonSchemaValidator: McpJsonSchemaValidator;

/** Core options for `fromMcpTools`: MCP names and asserted formats are the default. */
export interface McpToolsOptions extends Options {
  names?: 'mcp' | (string & {});
  formats?: 'assert' | (string & {});
}

/** A registry from a tools/list answer (`{tools}` or the list): MCP names, schemas compiled. */
export function fromMcpTools(listToolsResult: unknown, options?: McpToolsOptions): Registry;

/** tools/call params the registry accepts: the core's copy, with the tool's permissions. */
export interface McpCheckedCall {
  name: string;
  arguments: ToolInput;
  permissions: Permission[];
}

/** Checks tools/call params `{name, arguments?}`; with a policy, the policy too. */
export function checkMcpToolCall(registry: Registry, params: unknown, policy?: Policy): McpCheckedCall;

export type { McpToolResult };
/** Checks a tools/call result's structuredContent (and its text mirror) against the tool. */
export function checkMcpToolResult(tool: ToolDefinition | { readonly outputSchema?: unknown }, result: unknown, options?: LimitOptions): McpToolResult;
