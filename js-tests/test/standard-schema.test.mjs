// toStandardSchema: an agent-contract tool as a Standard Schema v1 with the
// Standard JSON Schema extension, taken as it is by the Vercel AI SDK (`ai`, pinned in
// package-lock.json) and run with its mock language model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, InvalidToolInputError, stepCountIs, tool, TypeValidationError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as api from 'agent-contract';

const readFile = api.defineTool({
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false },
  permission: 'read',
});

test('the Standard Schema object validates with the core and gives the JSON Schema per target', () => {
  const schema = api.toStandardSchema(readFile)['~standard'];
  assert.equal(schema.version, 1);
  assert.equal(schema.vendor, 'agent-contract');
  assert.deepEqual(schema.validate({ path: 'a.md' }), { value: { path: 'a.md' } });
  assert.deepEqual(schema.validate({ path: '' }), {
    issues: [{ message: 'SCHEMA_MISMATCH: minLength: ' + api.safeValidateToolInput(readFile, { path: '' }).error.issues[0].message, path: ['path'], code: 'SCHEMA_MISMATCH' }],
  });
  assert.deepEqual(schema.validate({ path: 5, extra: 1 }).issues.map((i) => [i.code, i.path]), [['SCHEMA_MISMATCH', ['extra']], ['SCHEMA_MISMATCH', ['path']]]);
  const expected = { type: 'object', ...readFile.inputSchema };
  assert.deepEqual(schema.jsonSchema.input({ target: 'draft-07' }), expected);
  assert.deepEqual(schema.jsonSchema.input({ target: 'draft-2020-12' }), expected);
  assert.throws(() => schema.jsonSchema.input({ target: 'openapi-3.0' }), { code: 'SCHEMA_TARGET_UNSUPPORTED', path: '' });
  assert.throws(() => schema.jsonSchema.input({ target: 7 }), { code: 'FIELD_TYPE' });
  assert.throws(() => schema.jsonSchema.input(undefined), { code: 'FIELD_TYPE' });
  const tuple = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { p: { prefixItems: [{ type: 'string' }] } } } });
  assert.deepEqual(api.toStandardSchema(tuple)['~standard'].jsonSchema.input({ target: 'draft-07' }), { type: 'object', properties: { p: { items: [{ type: 'string' }] } } });
  // No faithful draft-07 form: the consumer still gets a schema, in its own draft; asked directly,
  // jsonSchemaForTarget names the keyword.
  const open = api.defineTool({ name: 'o', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false } });
  assert.deepEqual(api.toStandardSchema(open)['~standard'].jsonSchema.input({ target: 'draft-07' }), {
    $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false,
  });
  assert.throws(() => api.jsonSchemaForTarget(open.inputSchema, 'draft-07'), { code: 'SCHEMA_TARGET_UNSUPPORTED', path: '/unevaluatedProperties' });
  // A tool without an output schema has no output type: a ContractError, like every refusal.
  assert.throws(() => api.toStandardSchema(tuple)['~standard'].jsonSchema.output({ target: 'draft-07' }),
    (e) => e instanceof api.ContractError && e.code === 'FIELD_MISSING' && e.path === '/outputSchema' && e.message === 'tool t has no outputSchema');
  // The output schema goes through the same converter.
  const pair = api.defineTool({
    name: 'p', description: 'd', permission: 'read', inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { xy: { prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } }, $defs: { n: { type: 'number' } } },
  });
  assert.deepEqual(api.toStandardSchema(pair)['~standard'].jsonSchema.output({ target: 'draft-07' }), {
    type: 'object', properties: { xy: { items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } }, definitions: { n: { type: 'number' } },
  });
});

test("an imported catalog's tool is a Standard Schema under its own name rule", () => {
  const inputSchema = { properties: { when: { type: 'string', format: 'date' } } };
  for (const [name, names] of [['github.search_issues', 'mcp'], ['ns:lookup', 'gemini'], ['get-weather', 'openai']]) {
    const tool = api.defineTool({ name, description: 'd', permission: 'read', inputSchema }, { names, formats: 'assert' });
    const schema = api.toStandardSchema(tool)['~standard'];
    assert.deepEqual(schema.jsonSchema.input({ target: 'draft-2020-12' }), { type: 'object', ...inputSchema }, name);
    assert.deepEqual(schema.validate({ when: 'tomorrow' }).issues.map((i) => [i.code, i.path]), [['SCHEMA_MISMATCH', ['when']]], name);
  }
});

// A model that calls read_file with `input` on its first step and answers on its second.
function model(input) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step += 1;
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      if (step === 1) {
        return { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

async function run(input) {
  const executed = [];
  const result = await generateText({
    model: model(input),
    prompt: 'read it',
    tools: { read_file: tool({ description: readFile.description, inputSchema: api.toStandardSchema(readFile), execute: async (args) => { executed.push(args); return 'contents'; } }) },
    stopWhen: stepCountIs(2),
  });
  return { executed, result };
}

test('the AI SDK runs a valid call through the tool, and an invalid one becomes a tool error with our code', async () => {
  const valid = await run({ path: 'a.md' });
  assert.deepEqual(valid.executed, [{ path: 'a.md' }]);
  const firstStep = valid.result.steps[0];
  assert.deepEqual(firstStep.toolResults.map((r) => r.output), ['contents']);

  const invalid = await run({ path: '' });
  assert.deepEqual(invalid.executed, [], 'an invalid input never reaches execute');
  const errors = invalid.result.steps[0].content.filter((p) => p.type === 'tool-error');
  assert.equal(errors.length, 1);
  assert.match(String(errors[0].error?.message ?? errors[0].error), /SCHEMA_MISMATCH/);
});

// A tool whose input holds a tuple (`prefixItems`), which draft-07 spells as the array form of
// `items`, and a model that calls it with `input` and records the call options it is given.
const placePin = api.defineTool({
  name: 'place_pin',
  description: 'Place a pin on the map.',
  inputSchema: {
    type: 'object',
    properties: {
      at: { type: 'array', prefixItems: [{ type: 'number', minimum: -90, maximum: 90 }, { type: 'number', minimum: -180, maximum: 180 }], items: false, minItems: 2 },
      label: { type: 'string', minLength: 1 },
    },
    required: ['at'],
    additionalProperties: false,
  },
  permission: 'write',
});

function recordingModel(name, input, calls) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      step += 1;
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      if (step === 1) {
        return { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: name, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

async function runTool(definition, input) {
  const executed = [];
  const calls = [];
  const result = await generateText({
    model: recordingModel(definition.name, input, calls),
    prompt: 'do it',
    tools: {
      [definition.name]: tool({ description: definition.description, inputSchema: api.toStandardSchema(definition), execute: async (args) => { executed.push(args); return 'ok'; } }),
    },
    stopWhen: stepCountIs(2),
  });
  return { executed, calls, result };
}

test('generateText with a prefixItems tool: the model is given the draft-07 schema and a valid call runs the tool', async () => {
  const { executed, calls, result } = await runTool(placePin, { at: [52.5, 13.4], label: 'Berlin' });
  assert.deepEqual(executed, [{ at: [52.5, 13.4], label: 'Berlin' }]);
  assert.deepEqual(result.steps[0].toolResults.map((r) => [r.toolName, r.input, r.output]), [['place_pin', { at: [52.5, 13.4], label: 'Berlin' }, 'ok']]);
  assert.equal(result.text, 'done');
  const draft07 = {
    type: 'object',
    properties: {
      at: { type: 'array', items: [{ type: 'number', minimum: -90, maximum: 90 }, { type: 'number', minimum: -180, maximum: 180 }], additionalItems: false, minItems: 2 },
      label: { type: 'string', minLength: 1 },
    },
    required: ['at'],
    additionalProperties: false,
  };
  assert.deepEqual(api.jsonSchemaForTarget(api.toMcpTools(api.createRegistry([placePin]))[0].inputSchema, 'draft-07'), draft07);
  assert.equal(calls.length, 2);
  for (const options of calls) {
    assert.deepEqual(options.tools.map((t) => [t.type, t.name, t.description]), [['function', 'place_pin', placePin.description]]);
    assert.deepEqual(options.tools[0].inputSchema, draft07);
  }
});

test('generateText with a prefixItems tool: invalid arguments take the SDK tool-error path with our code and path', async () => {
  const input = { at: [52.5, 'east'] };
  const { executed, result } = await runTool(placePin, input);
  assert.deepEqual(executed, [], 'an invalid input never reaches execute');
  const errors = result.steps[0].content.filter((p) => p.type === 'tool-error');
  assert.equal(errors.length, 1);
  const [part] = errors;
  assert.equal(part.toolName, 'place_pin');
  assert.deepEqual(part.input, input);
  const expected = api.safeValidateToolInput(placePin, input).error;
  assert.equal(expected.code, 'SCHEMA_MISMATCH');
  const issues = expected.issues.map((i) => ({ message: `SCHEMA_MISMATCH: ${i.keyword}: ${i.message}`, path: i.path.split('/').slice(1), code: 'SCHEMA_MISMATCH' }));
  assert.deepEqual(issues.map((i) => [i.path, i.message.slice(0, 23)]), [[['at', '1'], 'SCHEMA_MISMATCH: type: ']]);
  // The SDK's InvalidToolInputError around its TypeValidationError, whose cause is our issues,
  // reaches the step as its message.
  const message = `Invalid input for tool place_pin: Type validation failed: Value: ${JSON.stringify(input)}.\nError message: ${JSON.stringify(issues)}`;
  assert.equal(part.error, message);
  const thrown = new InvalidToolInputError({ toolName: 'place_pin', toolInput: JSON.stringify(input), cause: new TypeValidationError({ value: input, cause: issues }) });
  assert.equal(thrown.message, message);
  // The error goes back to the model as the tool's result, and the run goes on.
  const [, second] = result.steps;
  assert.ok(second, 'the run goes on to the next step');
  assert.equal(result.text, 'done');
});

test('generateText with a tool draft-07 cannot hold: the model is given the 2020-12 schema and the run does not throw', async () => {
  // At most one "urgent" tag: maxContains has no draft-07 form.
  const inputSchema = {
    type: 'object',
    properties: { tags: { type: 'array', items: { type: 'string' }, contains: { const: 'urgent' }, maxContains: 1 } },
    required: ['tags'],
    additionalProperties: false,
  };
  const tagTask = api.defineTool({ name: 'tag_task', description: 'Tag a task.', inputSchema, permission: 'write' });
  assert.throws(() => api.jsonSchemaForTarget(inputSchema, 'draft-07'), { code: 'SCHEMA_TARGET_UNSUPPORTED', path: '/properties/tags/maxContains' });
  const valid = await runTool(tagTask, { tags: ['urgent', 'home'] });
  assert.deepEqual(valid.executed, [{ tags: ['urgent', 'home'] }]);
  assert.deepEqual(valid.calls[0].tools[0].inputSchema, { $schema: 'https://json-schema.org/draft/2020-12/schema', ...inputSchema });
  const invalid = await runTool(tagTask, { tags: ['urgent', 'urgent'] });
  assert.deepEqual(invalid.executed, []);
  const [part] = invalid.result.steps[0].content.filter((p) => p.type === 'tool-error');
  const [, issues] = part.error.split('\nError message: ');
  assert.deepEqual(JSON.parse(issues).map((i) => [i.code, i.path, i.message.split(':').slice(0, 2).join(':')]), [['SCHEMA_MISMATCH', ['tags'], 'SCHEMA_MISMATCH: maxContains']]);
});
