// toStandardSchema: an agent-contract tool as a Standard Schema v1 with the
// Standard JSON Schema extension, taken as it is by the Vercel AI SDK (`ai`, pinned in
// package-lock.json) and run with its mock language model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, stepCountIs, tool } from 'ai';
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
  assert.throws(() => schema.jsonSchema.input({ target: 'openapi-3.0' }), { code: 'SCHEMA_TARGET_UNSUPPORTED' });
  const tuple = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { p: { prefixItems: [{ type: 'string' }] } } } });
  assert.throws(() => api.toStandardSchema(tuple)['~standard'].jsonSchema.input({ target: 'draft-07' }), { code: 'SCHEMA_TARGET_UNSUPPORTED', path: '/properties/p/prefixItems' });
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
