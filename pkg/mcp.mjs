// 'agent-contract/mcp': the core's tool contracts where the MCP SDKs and MCP messages need them.
// A host module over public operations: what an MCP message means (a tools/list answer's
// definitions, a tools/call result's checks) is the core's (mcpToolDefinitions,
// checkMcpToolResult); this composes them with defineTool, createRegistry, validateToolInput and
// checkToolCall, and decides no verdict. A caller's value is read by the core first
// (validateToolInput against the empty schema answers the core's plain copy, or the core's
// ContractError for a value with no JSON form), so this code only ever reads plain data.
// docs/decisions.md, "MCP helpers", has the choices: what is cached, what a mirror is, the
// wording of the SDK's error text, how annotations become permissions.
import { api } from './wasm.mjs';
import { support } from './api.mjs';
import { MCP } from './dist/operations.js';

// The core's options that make a tool an MCP tool (any MCP name, `format` asserted), as
// describe() gives them (src/tools/mcp.rs).
const MCP_OPTIONS = Object.freeze(MCP.toolOptions);

let anyValue;
// The core's plain copy of a caller's value (throws the core's ContractError for a value with
// no JSON form: a getter or Proxy that throws, a cycle, NaN, ...).
function copy(value) {
  anyValue ??= api.defineTool({ name: 'mcp_value', description: 'Any JSON value.', permission: 'read', inputSchema: {} });
  return api.validateToolInput(anyValue, value);
}

// A ContractError like `error`, its pointer moved from under `from` to under `to` (the host
// wrapped the caller's value in a request, or took a part of it).
function moved(error, from, to, message = error.message) {
  if (!(error instanceof api.ContractError)) return error;
  const path = error.path === from || error.path.startsWith(`${from}/`) ? to + error.path.slice(from.length) : error.path;
  const fields = { layer: error.layer, code: error.code, path, message, retryable: error.retryable };
  for (const key of ['position', 'issues', 'availableTools', 'proposal', 'truncated']) {
    if (error[key] !== undefined) fields[key] = error[key];
  }
  return new api.ContractError(fields);
}

// The core's words for a failure: the line that ends a validator's error text (a SCHEMA_MISMATCH's
// issues, or the code and place of another failure).
const failureLine = ({ code, path, message, issues, truncated }) =>
  support(api).mcpFailureLine({ code, path, message, issues, truncated });

// Compiled schemas: by identity (the SDK passes the same object for every call of a tool), then
// by the canonical text of the core's copy of the schema (a new tools/list answer repeats the
// schemas of the last one as new objects), the least recently used text dropped past the core's
// `compiledSchemasKept`.
const byIdentity = new WeakMap();
const byText = new Map();

function schemaTool(schema) {
  return { name: 'mcp_schema', description: 'A JSON Schema an MCP peer sent.', permission: 'read', inputSchema: schema };
}

// A schema compiled by the core, or its ContractError with the pointer inside the schema.
function compile(schema, label) {
  if (schema !== null && typeof schema === 'object') {
    const hit = byIdentity.get(schema);
    if (hit) return hit;
  }
  let tool;
  try {
    tool = api.defineTool(schemaTool(schema), MCP_OPTIONS);
  } catch (error) {
    throw moved(error, '/inputSchema', '', error instanceof api.ContractError ? `${label}: ${error.message}` : undefined);
  }
  const text = JSON.stringify(tool.inputSchema);
  const known = byText.get(text);
  if (known) {
    byText.delete(text);
    byText.set(text, known);
    tool.free();
    tool = known;
  } else {
    byText.set(text, tool);
    if (byText.size > MCP.compiledSchemasKept) byText.delete(byText.keys().next().value);
  }
  if (schema !== null && typeof schema === 'object') byIdentity.set(schema, tool);
  return tool;
}

/**
 * An implementation of the MCP TypeScript SDK's `jsonSchemaValidator` interface
 * (`getValidator(schema) → (input) → {valid, data, errorMessage}`). `options.role` names the
 * check in the error text: `client` (structuredContent against a tool's outputSchema), `server`
 * (an elicitation answer against its requestedSchema), or neither.
 */
export function createMcpValidator(options) {
  // What a check is of, in the SDK's error text (`{subject, schema}`), the core's for the role:
  // asked now when options are given (invalid ones throw here), else on first use. This module
  // makes `jsonSchemaValidator` while it is imported, and a Worker may not call the core in its
  // global scope (its first call seeds from crypto.getRandomValues).
  const given = options !== undefined && options !== null;
  let words = given ? support(api).mcpValidatorWording(options) : undefined;
  return Object.freeze({
    getValidator(schema) {
      const { subject, schema: schemaName } = (words ??= support(api).mcpValidatorWording(options));
      let tool;
      try {
        tool = compile(schema, schemaName);
      } catch (error) {
        // A valid schema the core cannot check: every value is refused, with the reason (the
        // core's `uncheckableCode`). Thrown, it failed the SDK's whole listTools.
        if (!(error instanceof api.ContractError) || error.code !== MCP.uncheckableCode) throw error;
        const errorMessage = `${subject} cannot be checked against ${schemaName}: ${failureLine(error)}`;
        return () => ({ valid: false, data: undefined, errorMessage });
      }
      return (input) => {
        const out = api.safeValidateToolInput(tool, input);
        if (out.ok) return { valid: true, data: input, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: `${subject} does not match ${schemaName}: ${failureLine(out.error)}` };
      };
    },
  });
}

/** The validator with neutral wording, for `new Client(info, {jsonSchemaValidator})` or a Server. */
export const jsonSchemaValidator = createMcpValidator();

function withOptions(options) {
  if (options === undefined || options === null) return MCP_OPTIONS;
  const given = copy(options);
  return given !== null && typeof given === 'object' && !Array.isArray(given) ? { ...MCP_OPTIONS, ...given } : given;
}

/**
 * A registry from a tools/list answer (`{tools: [...]}`, or the list itself): MCP names, input
 * and output schemas compiled, permissions from the annotations. Throws ContractError at the
 * pointer inside the answer.
 */
export function fromMcpTools(listToolsResult, options) {
  const { tools, at } = api.mcpToolDefinitions(listToolsResult);
  let registry;
  try {
    registry = api.createRegistry({ tools }, withOptions(options));
  } catch (error) {
    throw moved(error, '/tools', at);
  }
  // The output schemas, in the answer's order (the definitions', each an object once the
  // registry took them), so that a failure's pointer is its tool's in the answer.
  const label = support(api).mcpValidatorWording({ role: 'client' }).schema;
  tools.forEach((tool, i) => {
    if (tool.outputSchema === undefined) return;
    try {
      compile(tool.outputSchema, label);
    } catch (error) {
      throw moved(error, '', `${at}/${i}/outputSchema`);
    }
  });
  return registry;
}

let allowAll;
/**
 * Checks tools/call params (`{name, arguments?}`) against a registry (fromMcpTools): the tool
 * exists (UNKNOWN_TOOL with the closest names), its arguments match its inputSchema
 * (SCHEMA_MISMATCH at /arguments). With a policy, the policy too. Returns the core's copy as
 * `{name, arguments, permissions}`.
 */
export function checkMcpToolCall(registry, params, policy) {
  if (policy === undefined) {
    allowAll ??= api.definePolicy({
      rules: ['read', 'write', 'execute', 'network'].map((permission) => ({ effect: 'allow', permission })),
    });
    policy = allowAll;
  }
  const request = { jsonrpc: '2.0', id: 'check', method: 'tools/call', params };
  let call;
  try {
    call = api.checkToolCall(registry, request, policy);
  } catch (error) {
    throw moved(error, '/params', '');
  }
  return { name: call.tool, arguments: call.input, permissions: call.permissions };
}

/**
 * Checks a tools/call result against the tool (a tool of fromMcpTools's registry, or any tool
 * definition or MCP tool with an outputSchema): the core's row (`tools::mcp`). Returns the core's
 * copy of the result. `options`: the limits the result is read under (a content block's base64
 * past 1 MiB needs `maxStringBytes`).
 */
export function checkMcpToolResult(tool, result, options) {
  return api.checkMcpToolResult(tool, result, options);
}
