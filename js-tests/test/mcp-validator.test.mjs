// 'agent-contract/mcp' with the MCP TypeScript SDK (pinned in package-lock.json): our validator
// passed as the SDK's `jsonSchemaValidator` to a real Client and Server over the SDK's in-memory
// transport (structuredContent against outputSchema, elicitation answers against
// requestedSchema, formats as the SDK's default Ajv asserts them), a registry built from a
// tools/list answer of third-party names, tools/call params and results checked, and hostile
// schemas and values that must end as ContractError or {valid: false}.
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ElicitRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ContractError, definePolicy } from 'agent-contract';
import {
  checkMcpToolCall, checkMcpToolResult, createMcpValidator, fromMcpTools, jsonSchemaValidator,
} from 'agent-contract/mcp';

const weatherOutput = {
  type: 'object',
  properties: {
    temperature: { type: 'number' },
    observedAt: { type: 'string', format: 'date-time' },
    contact: { type: 'string', format: 'email' },
  },
  required: ['temperature', 'observedAt'],
};
// A third-party server's tools/list answer: names our defineTool would refuse without MCP names.
const TOOLS = [
  {
    name: 'get-weather',
    title: 'Weather',
    description: 'Current weather for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] },
    outputSchema: weatherOutput,
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'resolve-library-id',
    description: 'Resolves a package name to a library id.',
    inputSchema: { type: 'object', properties: { libraryName: { type: 'string' } }, required: ['libraryName'] },
  },
  { name: 'a.b', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
];

// What the weather tool answers, by city: good, a wrong type, a bad date-time, a bad email, an
// error result carrying nothing structured.
const ANSWERS = {
  Lyon: { temperature: 21.5, observedAt: '2026-05-01T12:00:00Z', contact: 'meteo@example.com' },
  Typo: { temperature: 'warm', observedAt: '2026-05-01T12:00:00Z' },
  Clock: { temperature: 3, observedAt: 'yesterday at noon' },
  Mail: { temperature: 3, observedAt: '2026-05-01T12:00:00Z', contact: 'not-an-email' },
};

function weatherServer(validator) {
  const server = new Server({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    if (params.name !== 'get-weather') return { content: [{ type: 'text', text: 'ok' }] };
    const structured = ANSWERS[params.arguments.city];
    if (!structured) return { isError: true, content: [{ type: 'text', text: `unknown city ${params.arguments.city}` }] };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  });
  return server;
}

async function connected(server, client) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return async () => {
    await client.close();
    await server.close();
  };
}

async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return error.message;
  }
  assert.fail('expected the call to be refused');
}

test('a Client with our validator checks structuredContent against outputSchema, formats included', async () => {
  const server = weatherServer();
  const client = new Client({ name: 'c', version: '1.0.0' }, { jsonSchemaValidator: createMcpValidator({ role: 'client' }) });
  const close = await connected(server, client);
  try {
    await client.listTools();
    const good = await client.callTool({ name: 'get-weather', arguments: { city: 'Lyon' } });
    assert.deepEqual(good.structuredContent, ANSWERS.Lyon);

    const typo = await refusal(client.callTool({ name: 'get-weather', arguments: { city: 'Typo' } }));
    assert.match(typo, /structuredContent does not match the tool's outputSchema: \/temperature: .*\(type\)/);
    assert.doesNotMatch(typo, /inputSchema/);
    assert.match(await refusal(client.callTool({ name: 'get-weather', arguments: { city: 'Clock' } })), /\/observedAt: .*\(format\)/);
    assert.match(await refusal(client.callTool({ name: 'get-weather', arguments: { city: 'Mail' } })), /\/contact: .*\(format\)/);

    // An error result: nothing structured to check, the client passes it on.
    const failed = await client.callTool({ name: 'get-weather', arguments: { city: 'Atlantis' } });
    assert.equal(failed.isError, true);
  } finally {
    await close();
  }
});

test("the SDK's default validator refuses the same formats (the behaviour ours matches)", async () => {
  const ajv = new AjvJsonSchemaValidator().getValidator(weatherOutput);
  const ours = jsonSchemaValidator.getValidator(weatherOutput);
  for (const answer of Object.values(ANSWERS)) assert.equal(ours(answer).valid, ajv(answer).valid, JSON.stringify(answer));
  assert.deepEqual(Object.values(ANSWERS).map((a) => ours(a).valid), [true, false, false, false]);
});

// Formats as the SDK's default validator (Ajv with ajv-formats, full mode) judges them: the same
// verdict on every sample but the pinned ones, where the core follows the format's
// specification (docs/decisions.md, "MCP helpers").
const FORMAT_SAMPLES = {
  email: ['a@b.co', 'not-an-email', 'a..b@c.com', 'ü@example.com', 'a@-b.com', 'a@b', '"quoted"@example.com', 'user@[127.0.0.1]'],
  'date-time': ['2026-05-01T12:00:00Z', '2026-05-01T12:00:00', '2026-05-01T12:00:00.5+02:00', 'yesterday', '2026-02-30T00:00:00Z',
    '2026-05-01T23:59:60Z', '2026-05-01t12:00:00z', '2026-05-01 12:00:00Z'],
  date: ['2026-05-01', '2026-13-01', '2026-5-1', '2024-02-29', '2026-02-29'],
  time: ['12:00:00Z', '12:00:00', '25:00:00Z'],
  uri: ['https://example.com', 'example.com', 'urn:isbn:123', 'http://[::1]/', 'http://a b'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000'],
  ipv4: ['127.0.0.1', '256.0.0.1', '01.2.3.4'],
  hostname: ['example.com', '-a.com', 'a_b.com'],
};
// [format, sample, Ajv's verdict, ours]: RFC 5321 takes a dotless domain, a quoted local part and
// an address literal (Ajv's pattern does not); RFC 3339's date-time has `T` (Ajv also takes a
// space); a uuid is the bare RFC 9562 form (Ajv also takes its URN).
const FORMAT_DIFFERENCES = [
  ['email', 'a@b', false, true],
  ['email', '"quoted"@example.com', false, true],
  ['email', 'user@[127.0.0.1]', false, true],
  ['date-time', '2026-05-01 12:00:00Z', true, false],
  ['uuid', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', true, false],
];

test("formats: the SDK's default validator's verdicts, but for the pinned differences", () => {
  const differences = [];
  let same = 0;
  for (const [format, samples] of Object.entries(FORMAT_SAMPLES)) {
    const schema = { type: 'object', properties: { v: { type: 'string', format } } };
    const ajv = new AjvJsonSchemaValidator().getValidator(schema);
    const ours = jsonSchemaValidator.getValidator(schema);
    for (const sample of samples) {
      const [a, o] = [ajv({ v: sample }).valid, ours({ v: sample }).valid];
      if (a === o) same++;
      else differences.push([format, sample, a, o]);
    }
  }
  assert.deepEqual(differences, FORMAT_DIFFERENCES);
  assert.equal(same, 33);
});

test('a Server with our validator refuses an elicitation answer that does not match requestedSchema', async () => {
  const server = new Server({ name: 's', version: '1.0.0' }, { capabilities: {}, jsonSchemaValidator: createMcpValidator({ role: 'server' }) });
  const client = new Client({ name: 'c', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const answers = [
    { name: 'Ada', email: 'ada@example.com', start: '2026-05-01' },
    { name: 'Ada', email: 'not-an-email', start: '2026-05-01' },
    { name: 7, email: 'ada@example.com', start: '2026-05-01' },
  ];
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: answers.shift() }));
  const close = await connected(server, client);
  const requestedSchema = {
    type: 'object',
    properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, start: { type: 'string', format: 'date' } },
    required: ['name', 'email'],
  };
  try {
    const ok = await server.elicitInput({ message: 'Who are you?', requestedSchema });
    assert.equal(ok.content.email, 'ada@example.com');
    const email = await refusal(server.elicitInput({ message: 'Who are you?', requestedSchema }));
    assert.match(email, /the elicitation answer \(content\) does not match the requestedSchema: \/email: .*\(format\)/);
    const name = await refusal(server.elicitInput({ message: 'Who are you?', requestedSchema }));
    assert.match(name, /\/name: .*\(type\)/);
    assert.doesNotMatch(name, /inputSchema|outputSchema/);
  } finally {
    await close();
  }
});

test('fromMcpTools takes a tools/list answer of third-party names; checkMcpToolCall checks tools/call params', async () => {
  const server = weatherServer();
  const client = new Client({ name: 'c', version: '1.0.0' });
  const close = await connected(server, client);
  let listed;
  try {
    listed = await client.listTools();
  } finally {
    await close();
  }
  const registry = fromMcpTools(listed);
  assert.deepEqual(registry.tools.map((t) => t.name), ['a.b', 'get-weather', 'resolve-library-id']);
  assert.deepEqual(registry.tools.map((t) => t.permissions), [['read'], ['read', 'network'], ['write', 'network']]);
  assert.deepEqual(fromMcpTools(TOOLS).tools.map((t) => t.name), registry.tools.map((t) => t.name));

  assert.deepEqual(checkMcpToolCall(registry, { name: 'resolve-library-id', arguments: { libraryName: 'react' } }), {
    name: 'resolve-library-id', arguments: { libraryName: 'react' }, permissions: ['write', 'network'],
  });
  assert.deepEqual(checkMcpToolCall(registry, { name: 'a.b' }).arguments, {});

  const bad = (params, policy) => {
    try {
      checkMcpToolCall(registry, params, policy);
    } catch (error) {
      assert.ok(error instanceof ContractError, String(error));
      return error;
    }
    assert.fail('expected a ContractError');
  };
  const mismatch = bad({ name: 'get-weather', arguments: { city: '' } });
  assert.equal(mismatch.code, 'SCHEMA_MISMATCH');
  assert.equal(mismatch.path, '/arguments');
  assert.deepEqual(mismatch.issues.map((i) => [i.path, i.keyword]), [['/city', 'minLength']]);
  const unknown = bad({ name: 'get_weather', arguments: {} });
  assert.equal(unknown.code, 'UNKNOWN_TOOL');
  assert.equal(unknown.path, '/name');
  assert.ok(unknown.availableTools.includes('get-weather'));
  assert.equal(bad({ arguments: {} }).path, '/name');
  assert.equal(bad({ name: 'a.b', arguments: [] }).path, '/arguments');
  const readOnly = definePolicy({ rules: [{ effect: 'allow', permission: 'read' }] });
  assert.equal(bad({ name: 'resolve-library-id', arguments: { libraryName: 'x' } }, readOnly).code, 'POLICY_DENIED');
  assert.equal(checkMcpToolCall(registry, { name: 'a.b', arguments: {} }, readOnly).name, 'a.b');
});

test('fromMcpTools refuses a bad tools/list answer at its pointer', () => {
  const code = (value) => {
    try {
      fromMcpTools(value);
    } catch (error) {
      assert.ok(error instanceof ContractError, String(error));
      return [error.code, error.path];
    }
    assert.fail('expected a ContractError');
  };
  assert.deepEqual(code({ tools: [TOOLS[0], { ...TOOLS[1], name: '' }] }), ['TOOL_NAME_INVALID', '/tools/1/name']);
  assert.deepEqual(code({ tools: [TOOLS[0], TOOLS[0]] }), ['TOOL_DUPLICATE', '/tools/1/name']);
  assert.deepEqual(code({ tools: [{ name: 'x', inputSchema: { type: 'object', properties: { a: { pattern: '(?=a)' } } } }] }),
    ['TOOL_SCHEMA_UNSUPPORTED', '/tools/0/inputSchema/properties/a/pattern']);
  assert.deepEqual(code([{ name: 'x', inputSchema: { type: 'object' }, outputSchema: { type: 'object', minProperties: -1 } }])[1],
    '/0/outputSchema/minProperties');
});

test('checkMcpToolResult: structuredContent, its text mirror, isError', () => {
  const registry = fromMcpTools(TOOLS);
  const weather = registry.tools.find((t) => t.name === 'get-weather');
  const good = { content: [{ type: 'text', text: JSON.stringify(ANSWERS.Lyon) }], structuredContent: ANSWERS.Lyon };
  assert.deepEqual(checkMcpToolResult(weather, good), good);
  // The same through the tool as tools/list gave it (compiled from its outputSchema).
  assert.deepEqual(checkMcpToolResult(TOOLS[0], good), good);
  // The mirror: the same value, whatever its layout, key order or number spelling.
  const relaid = '  {"observedAt":"2026-05-01T12:00:00Z",\n "temperature": 21.50, "contact": "meteo@example.com"}';
  checkMcpToolResult(weather, { content: [{ type: 'text', text: 'Sunny.' }, { type: 'text', text: relaid }], structuredContent: ANSWERS.Lyon });
  // Prose only: no mirror to check.
  checkMcpToolResult(weather, { content: [{ type: 'text', text: 'It is 21.5 degrees.' }], structuredContent: ANSWERS.Lyon });
  // An error result is not checked (MCP: structured content is for successful results).
  checkMcpToolResult(weather, { isError: true, content: [{ type: 'text', text: 'down' }], structuredContent: { nope: 1 } });
  // A tool without outputSchema: nothing to check.
  const plain = registry.tools.find((t) => t.name === 'a.b');
  checkMcpToolResult(plain, { content: [{ type: 'text', text: '{not json' }] });

  const error = (tool, result) => {
    try {
      checkMcpToolResult(tool, result);
    } catch (e) {
      assert.ok(e instanceof ContractError, String(e));
      return e;
    }
    assert.fail('expected a ContractError');
  };
  const typo = error(weather, { content: [], structuredContent: ANSWERS.Typo });
  assert.deepEqual([typo.code, typo.path, typo.issues.map((i) => i.path)], ['SCHEMA_MISMATCH', '/structuredContent', ['/temperature']]);
  assert.match(typo.message, /^structuredContent does not match the tool's outputSchema: \/temperature/);
  assert.equal(error(weather, { content: [], structuredContent: ANSWERS.Mail }).issues[0].keyword, 'format');
  assert.deepEqual([error(weather, { content: [] }).code, error(weather, { content: [] }).path], ['FIELD_MISSING', '/structuredContent']);
  const differs = error(weather, { content: [{ type: 'text', text: '{"temperature": 20}' }], structuredContent: ANSWERS.Lyon });
  assert.deepEqual([differs.code, differs.path], ['SCHEMA_MISMATCH', '/content/0/text']);
  const notJson = error(weather, { content: [{ type: 'image', data: '', mimeType: 'image/png' }, { type: 'text', text: '{"temperature": 21.5,}' }], structuredContent: ANSWERS.Lyon });
  assert.deepEqual([notJson.code, notJson.path, notJson.position.offset], ['JSON_INVALID', '/content/1/text', 21]);
  assert.equal(error(weather, { content: [{ type: 'text', text: '{"a":1,"a":1}' }], structuredContent: ANSWERS.Lyon }).code, 'JSON_DUPLICATE_KEY');
});

function throwingGetter(value, key) {
  const target = { ...value };
  Object.defineProperty(target, key, { enumerable: true, get() { throw new Error('boom'); } });
  return target;
}
function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

test('hostile schemas, inputs, answers and params end as ContractError or {valid: false}', () => {
  const contract = (f) => assert.throws(f, (e) => e instanceof ContractError);
  contract(() => jsonSchemaValidator.getValidator(revoked()));
  contract(() => jsonSchemaValidator.getValidator(throwingGetter(weatherOutput, 'properties')));
  contract(() => jsonSchemaValidator.getValidator(new Proxy(weatherOutput, { ownKeys() { throw new Error('keys'); } })));
  contract(() => createMcpValidator(revoked()));
  contract(() => createMcpValidator({ role: 'inputSchema' }));
  // The core's words, the same in Python (py-host/tests/test_mcp_helpers.py).
  const invalid = (path, message) => (e) => e instanceof ContractError && e.code === 'OPTION_INVALID' && e.path === path && e.message === message;
  assert.throws(() => createMcpValidator({ role: 'any' }), invalid('/role', 'role must be "client" or "server", got "any"'));
  assert.throws(() => createMcpValidator({ role: 5 }), invalid('/role', 'role must be "client" or "server", got a value that is not a string'));
  assert.throws(() => createMcpValidator('client'), invalid('', 'options must be an object'));
  // An unknown option is refused as in every operation's options; one holding undefined is not given.
  assert.throws(() => createMcpValidator({ role: 'client', extra: 1 }), invalid('/extra', 'unknown option "extra"'));
  assert.equal(typeof createMcpValidator({ role: 'client', extra: undefined }).getValidator, 'function');
  // A long failure (1,000 issues quoting their schema) is still one line, never a throw; the
  // same line in Python.
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { const: 'x'.repeat(900) }])) };
  const long = createMcpValidator({ role: 'client' }).getValidator(wide)(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'b'])));
  assert.equal(long.valid, false);
  assert.equal(long.errorMessage.length, 27469);
  assert.ok(long.errorMessage.endsWith('… (const); (more issues not listed)'));
  const validate = jsonSchemaValidator.getValidator(weatherOutput);
  for (const input of [revoked(), throwingGetter(ANSWERS.Lyon, 'temperature'), { ...ANSWERS.Lyon, temperature: NaN }, () => 1]) {
    const out = validate(input);
    assert.equal(out.valid, false);
    assert.equal(out.data, undefined);
    assert.match(out.errorMessage, /VALUE_NOT_JSON/);
  }
  const cycle = { ...ANSWERS.Lyon };
  cycle.self = cycle;
  assert.match(validate(cycle).errorMessage, /VALUE_CYCLE at \/self/);
  contract(() => fromMcpTools(revoked()));
  contract(() => fromMcpTools({ tools: [throwingGetter(TOOLS[0], 'inputSchema')] }));
  contract(() => fromMcpTools(TOOLS, revoked()));
  const registry = fromMcpTools(TOOLS);
  contract(() => checkMcpToolCall(registry, revoked()));
  contract(() => checkMcpToolCall(registry, { name: 'a.b', arguments: throwingGetter({}, 'x') }));
  contract(() => checkMcpToolCall(revoked(), { name: 'a.b' }));
  const weather = registry.tools[1];
  contract(() => checkMcpToolResult(weather, throwingGetter({ content: [] }, 'structuredContent')));
  contract(() => checkMcpToolResult(revoked(), { content: [] }));
  contract(() => checkMcpToolResult(weather, { content: [{ type: 'text', get text() { throw new Error('t'); } }], structuredContent: ANSWERS.Lyon }));
});

test('property: the validator never throws and agrees with itself on a copy of the input; hostile values are refused', () => {
  const validate = jsonSchemaValidator.getValidator(weatherOutput);
  fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (value, wrap) => {
    const input = wrap ? { temperature: 1, observedAt: '2026-05-01T12:00:00Z', extra: value } : value;
    const out = validate(input);
    const again = validate(JSON.parse(JSON.stringify(input)));
    assert.equal(out.valid, again.valid);
    assert.equal(out.valid, wrap ? true : false, JSON.stringify(input));
    if (out.valid) assert.equal(out.data, input);
    else assert.equal(typeof out.errorMessage, 'string');
  }), { numRuns: 300 });
  // A throwing getter anywhere in an otherwise valid answer: refused, never thrown.
  fc.assert(fc.property(fc.jsonValue(), fc.string({ minLength: 1, maxLength: 8 }), (value, key) => {
    const input = { temperature: 1, observedAt: '2026-05-01T12:00:00Z', extra: throwingGetter({ value }, key) };
    const out = validate(input);
    assert.equal(out.valid, false);
    assert.match(out.errorMessage, /VALUE_NOT_JSON at \/extra\//);
  }), { numRuns: 200 });
});

test('the neutral wording; validators of one schema, by object or by copy, give the same verdicts', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } } };
  const first = jsonSchemaValidator.getValidator(schema);
  const second = jsonSchemaValidator.getValidator(schema);
  const copy = jsonSchemaValidator.getValidator(structuredClone(schema));
  for (const v of [first, second, copy]) {
    assert.equal(v({ n: 1 }).valid, true);
    assert.match(v({ n: 1.5 }).errorMessage, /^the value does not match the JSON Schema: \/n: .*\(type\)$/);
  }
  // A valid schema the core cannot check refuses every value, with the reason; an invalid one throws.
  const unchecked = jsonSchemaValidator.getValidator({ type: 'object', properties: { a: { pattern: '(?=a)' } } });
  assert.deepEqual(unchecked({ a: 'a' }), { valid: false, data: undefined,
    errorMessage: 'the value cannot be checked against the JSON Schema: TOOL_SCHEMA_UNSUPPORTED at /properties/a/pattern: the JSON Schema: pattern "(?=a)" uses look-around (?=, ?!, ?<=, ?<!), which the linear-time regex engine does not run' });
  assert.throws(() => jsonSchemaValidator.getValidator({ type: 'object', properties: { a: { type: 5 } } }),
    (e) => e instanceof ContractError && e.code === 'TOOL_SCHEMA_INVALID' && e.path === '/properties/a/type');
  assert.throws(() => createMcpValidator('client'), (e) => e instanceof ContractError && e.code === 'OPTION_INVALID');
});

test("schemas kept compiled are bounded by the core's compiledSchemasKept, the least recently used dropped first", async () => {
  // Observed through the public API the module calls: every schema is compiled by defineTool on
  // the package's API object (the CommonJS entry's exports), and a tool compiled for a text
  // already kept is freed at once, the kept one used instead (validateToolInput on it then
  // answers TOOL_HANDLE_FREED).
  const require = createRequire(import.meta.url);
  const shared = require('agent-contract');
  const { MCP } = await import(new URL('./dist/operations.js', pathToFileURL(require.resolve('agent-contract'))));
  const kept = MCP.compiledSchemasKept;
  assert.ok(Number.isInteger(kept) && kept > 20, `compiledSchemasKept ${kept}`);
  const made = [];
  const define = shared.defineTool;
  shared.defineTool = (...args) => {
    const tool = define(...args);
    made.push(tool);
    return tool;
  };
  // Whether the schema's text was kept: a new object with its text, and whether the tool just
  // made for it was freed.
  const wasKept = (i) => {
    jsonSchemaValidator.getValidator({ type: 'object', title: `bounded ${i}` });
    const outcome = shared.safeValidateToolInput(made.at(-1), {});
    return !outcome.ok && outcome.error.code === 'TOOL_HANDLE_FREED';
  };
  try {
    assert.equal(wasKept(0), false); // a new text: kept
    assert.equal(wasKept(0), true); // the same text again, as a new object: the kept tool
    for (let i = 1; i <= kept; i++) assert.equal(wasKept(i), false);
    // `kept` texts after schema 0: it was the least recently used, and is gone.
    assert.equal(wasKept(0), false);
    // Schema 1 went for schema 0, so schema 2 is the least recently used; used again, it is
    // the most recent, and the next new text drops schema 3 instead.
    assert.equal(wasKept(2), true);
    assert.equal(wasKept(kept + 1), false);
    assert.equal(wasKept(2), true);
    assert.equal(wasKept(3), false);
    assert.equal(wasKept(kept), true);
  } finally {
    shared.defineTool = define;
  }
});
