// 'agent-contract/mcp': the core's tool contracts where the MCP SDKs and MCP messages need them.
// A host module over public operations (defineTool, createRegistry, validateToolInput,
// checkToolCall, parseJson): it decides no verdict. A caller's value is read by the core first
// (validateToolInput against the empty schema answers the core's plain copy, or the core's
// ContractError for a value with no JSON form), so this code only ever reads plain data.
// docs/decisions.md, "MCP helpers", has the choices: what is cached, what a mirror is, the
// wording of the SDK's error text, how annotations become permissions.
import { api } from './wasm.mjs';

// The core options that make a tool an MCP tool: any MCP name (1-128 of A-Z a-z 0-9 _ - .)
// and `format` asserted, as the SDKs' default validators (Ajv with ajv-formats) do.
const MCP_OPTIONS = Object.freeze({ names: 'mcp', formats: 'assert' });
// Schemas held compiled by canonical text, beyond the identity cache: at most this many.
const TEXT_CACHE_ENTRIES = 256;

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

const where = (pointer) => (pointer === '' ? '(root)' : pointer);

// One line for the issues of a SCHEMA_MISMATCH, or the code and place of any other failure.
function describeFailure(error) {
  if (error.code === 'SCHEMA_MISMATCH' && Array.isArray(error.issues) && error.issues.length > 0) {
    const listed = error.issues.map((i) => `${where(i.path)}: ${i.message} (${i.keyword})`).join('; ');
    return error.truncated ? `${listed}; (more issues not listed)` : listed;
  }
  return `${error.code} at ${where(error.path)}: ${error.message}`;
}

// What a check is of, in the SDK's error text: the client checks a tool's structuredContent
// against its outputSchema, the server an elicitation answer against its requestedSchema.
const ROLES = Object.freeze({
  client: { subject: 'structuredContent', schema: "the tool's outputSchema" },
  server: { subject: 'the elicitation answer (content)', schema: 'the requestedSchema' },
  any: { subject: 'the value', schema: 'the JSON Schema' },
});

// Compiled schemas: by identity (the SDK passes the same object for every call of a tool), then
// by the canonical text of the core's copy of the schema (a new tools/list answer repeats the
// schemas of the last one as new objects), the oldest text dropped past TEXT_CACHE_ENTRIES.
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
    if (byText.size > TEXT_CACHE_ENTRIES) byText.delete(byText.keys().next().value);
  }
  if (schema !== null && typeof schema === 'object') byIdentity.set(schema, tool);
  return tool;
}

/**
 * An implementation of the MCP TypeScript SDK's `jsonSchemaValidator` interface
 * (`getValidator(schema) → (input) → {valid, data, errorMessage}`). `role` names the check in the
 * error text: `client` (structuredContent against a tool's outputSchema), `server` (an
 * elicitation answer against its requestedSchema), or neither.
 */
export function createMcpValidator(options) {
  let role = 'any';
  if (options !== undefined && options !== null) {
    const copied = copy(options);
    if (copied === null || typeof copied !== 'object' || Array.isArray(copied)) {
      throw new api.ContractError({ layer: 'contract', code: 'OPTION_INVALID', path: '', retryable: false, message: 'options must be an object' });
    }
    const given = copied.role;
    if (given !== undefined) {
      if (!Object.hasOwn(ROLES, given) || given === 'any') {
        throw new api.ContractError({
          layer: 'contract', code: 'OPTION_INVALID', path: '/role', retryable: false,
          message: `role must be "client" or "server", got ${JSON.stringify(given)}`,
        });
      }
      role = given;
    }
  }
  const { subject, schema: schemaName } = ROLES[role];
  return Object.freeze({
    getValidator(schema) {
      const tool = compile(schema, schemaName);
      return (input) => {
        const out = api.safeValidateToolInput(tool, input);
        if (out.ok) return { valid: true, data: input, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: `${subject} does not match ${schemaName}: ${describeFailure(out.error)}` };
      };
    },
  });
}

/** The validator with neutral wording, for `new Client(info, {jsonSchemaValidator})` or a Server. */
export const jsonSchemaValidator = createMcpValidator();

// The permissions an MCP tool's annotations allow us to assume. Hints come from the server and
// are not trusted to grant anything: only `readOnlyHint: true` makes a tool read-only, and only
// `openWorldHint: false` takes `network` away (MCP's defaults are not read-only and open world).
function permissionsOf(annotations) {
  const hints = annotations !== null && typeof annotations === 'object' && !Array.isArray(annotations) ? annotations : {};
  const permissions = [hints.readOnlyHint === true ? 'read' : 'write'];
  if (hints.openWorldHint !== false) permissions.push('network');
  return permissions;
}

// One MCP tool (from tools/list) as a tool definition. Anything that is not an object goes to
// the core as it is, which refuses it at its pointer.
function definitionOf(tool) {
  if (tool === null || typeof tool !== 'object' || Array.isArray(tool)) return tool;
  const description = typeof tool.description === 'string' ? tool.description
    : typeof tool.title === 'string' ? tool.title
      : `The MCP tool ${typeof tool.name === 'string' ? tool.name : ''}`.trim();
  const definition = {};
  if (Object.hasOwn(tool, 'name')) definition.name = tool.name;
  definition.description = description;
  if (Object.hasOwn(tool, 'inputSchema')) definition.inputSchema = tool.inputSchema;
  definition.permissions = permissionsOf(tool.annotations);
  // A member holding null is absent, as for the SDK's pydantic models in Python.
  if (tool.outputSchema !== undefined && tool.outputSchema !== null) definition.outputSchema = tool.outputSchema;
  return definition;
}

const mcpTools = new WeakSet();

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
  const result = copy(listToolsResult);
  const tools = Array.isArray(result) ? result : result !== null && typeof result === 'object' ? result.tools : result;
  const definitions = Array.isArray(tools) ? tools.map(definitionOf) : tools;
  const coreOptions = withOptions(options);
  let registry;
  try {
    registry = api.createRegistry({ tools: definitions }, coreOptions);
  } catch (error) {
    throw Array.isArray(result) ? moved(error, '/tools', '') : error;
  }
  for (const tool of registry.tools) {
    if (tool.outputSchema !== undefined && tool.outputSchema !== null) {
      try {
        compile(tool.outputSchema, "the tool's outputSchema");
      } catch (error) {
        const at = Array.isArray(tools) ? tools.findIndex((t) => t !== null && typeof t === 'object' && t.name === tool.name) : -1;
        throw moved(error, '', `${Array.isArray(result) ? '' : '/tools'}/${at}/outputSchema`);
      }
    }
    mcpTools.add(tool);
  }
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

function failure(code, path, message, extra) {
  return new api.ContractError({ layer: 'schema', code, path, message, retryable: true, ...extra });
}

// JSON text starts with `{` after its insignificant whitespace: it claims to be an object.
const OBJECT_TEXT = /^[ \t\n\r]*\{/;

/**
 * Checks a tools/call result against the tool (a tool of fromMcpTools's registry, or any tool
 * definition or MCP tool with an outputSchema): nothing when `isError` is true; else
 * structuredContent is required and must match the outputSchema, and the mirror (the first
 * text block of `content` whose text starts with `{`), when there is one, must parse to the same
 * value. Returns the core's copy of the result.
 */
export function checkMcpToolResult(tool, result) {
  const definition = mcpTools.has(tool) ? tool : copy(tool);
  const outputSchema = definition !== null && typeof definition === 'object' ? definition.outputSchema : undefined;
  const checked = copy(result);
  if (checked === null || typeof checked !== 'object' || Array.isArray(checked)) {
    throw failure('FIELD_TYPE', '', 'a tools/call result must be an object');
  }
  if (outputSchema === undefined || outputSchema === null || checked.isError === true) return checked;
  const compiled = compile(outputSchema, "the tool's outputSchema");
  if (checked.structuredContent === undefined || checked.structuredContent === null) {
    throw failure('FIELD_MISSING', '/structuredContent', 'the tool has an outputSchema: a result that is not an error must carry structuredContent');
  }
  const structured = checked.structuredContent;
  const out = api.safeValidateToolInput(compiled, structured);
  if (!out.ok) {
    throw moved(out.error, '', '/structuredContent', `structuredContent does not match the tool's outputSchema: ${describeFailure(out.error)}`);
  }
  const content = Array.isArray(checked.content) ? checked.content : [];
  const at = content.findIndex((block) => block !== null && typeof block === 'object' && block.type === 'text'
    && typeof block.text === 'string' && OBJECT_TEXT.test(block.text));
  if (at >= 0) {
    const path = `/content/${at}/text`;
    const parsed = api.safeParseJson(content[at].text);
    if (!parsed.ok) {
      throw moved(parsed.error, parsed.error.path, path, `the text block mirroring structuredContent is not JSON: ${parsed.error.message}`);
    }
    const same = api.safeValidateToolInput(schemaTool({ const: structured }), parsed.value);
    if (!same.ok) {
      throw moved(same.error, '', path, 'the text block mirroring structuredContent parses to a different value');
    }
  }
  return checked;
}
