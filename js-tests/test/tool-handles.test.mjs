// Compiled tools: defineTool's value is frozen plain data whose compiled schema
// lives in the wasm instance. Its lifetime (free, double free, use after free, `using`, garbage
// collection), the batch form, bounded memory (100,000 tools created and dropped; many
// validations), and a property: validating through the handle gives the outcome validating a
// plain copy of the definition gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import * as api from 'agent-contract';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const settle = () => new Promise((resolve) => setImmediate(resolve));

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'] },
  permissions: ['read'],
};

test('a defined tool is frozen plain data: its keys, JSON and clone are the definition', () => {
  const tool = api.defineTool(weather);
  assert.deepEqual(Object.keys(tool), ['name', 'description', 'inputSchema', 'permissions']);
  assert.deepEqual(JSON.parse(JSON.stringify(tool)), weather);
  assert.deepEqual(structuredClone(tool), weather);
  assert.equal(Object.getPrototypeOf(tool), Object.prototype);
  assert.ok(Object.isFrozen(tool) && Object.isFrozen(tool.inputSchema.properties.city));
  assert.equal(typeof tool.free, 'function');
  assert.equal(Object.getOwnPropertyDescriptor(tool, 'free').enumerable, false);
  // Strict mode reads the definition's own enumerable keys only: free is no unknown field.
  assert.deepEqual(api.defineTool(tool, { strict: true }), weather);
  assert.equal(api.toOpenAITools(api.createRegistry([tool]))[0].function.name, 'get_weather');
});

test('free, double free, use after free: TOOL_HANDLE_FREED; the data and its copies keep working', () => {
  const tool = api.defineTool(weather);
  assert.deepEqual(api.validateToolInput(tool, { city: 'Paris' }), { city: 'Paris' });
  tool.free();
  tool.free();
  for (const call of [
    () => api.validateToolInput(tool, { city: 'Paris' }),
    () => api.validateToolInputJson(tool, '{"city":"Paris"}'),
    () => api.validateToolInputs(tool, [{ city: 'Paris' }]),
  ]) {
    assert.throws(call, (e) => e instanceof api.ContractError && e.code === 'TOOL_HANDLE_FREED' && e.path === '' && e.layer === 'contract');
  }
  const safe = api.safeValidateToolInput(tool, { city: 'Paris' });
  assert.equal(safe.ok, false);
  assert.equal(safe.error.code, 'TOOL_HANDLE_FREED');
  assert.equal(tool.name, 'get_weather');
  assert.deepEqual(api.validateToolInput({ ...tool }, { city: 'Paris' }), { city: 'Paris' });
  assert.deepEqual(api.validateToolInput(JSON.parse(JSON.stringify(tool)), { city: 'Oslo' }), { city: 'Oslo' });
  assert.equal(api.catalog(api.createRegistry([tool]))[0].name, 'get_weather');
});

test('Symbol.dispose frees the tool (what `using` calls)', { skip: !Symbol.dispose && 'no Symbol.dispose in this Node' }, () => {
  const tool = api.defineTool(weather);
  tool[Symbol.dispose]();
  assert.throws(() => api.validateToolInput(tool, { city: 'x' }), { code: 'TOOL_HANDLE_FREED' });
});

test('a look-alike (a Proxy over the tool, a forged copy) takes the plain path', () => {
  const tool = api.defineTool(weather);
  tool.free();
  // The Proxy is another object: it is read again in the core, as any plain data is.
  const proxy = new Proxy(tool, {});
  assert.deepEqual(api.validateToolInput(proxy, { city: 'Paris' }), { city: 'Paris' });
  assert.throws(() => api.validateToolInput(tool, { city: 'Paris' }), { code: 'TOOL_HANDLE_FREED' });
  const forged = { ...weather, inputSchema: { type: 'object', required: ['x'] } };
  assert.equal(api.safeValidateToolInput(forged, { city: 'Paris' }).error.code, 'SCHEMA_MISMATCH');
});

test('a getter of the input freeing the tool mid-call: that call finishes, the next is TOOL_HANDLE_FREED', () => {
  const tool = api.defineTool(weather);
  const input = { get city() { tool.free(); return 'Paris'; } };
  assert.deepEqual(api.validateToolInput(tool, input), { city: 'Paris' });
  assert.throws(() => api.validateToolInput(tool, { city: 'x' }), { code: 'TOOL_HANDLE_FREED' });
});

test('validateToolInputs: one outcome per input, for a defined tool and for plain data alike', () => {
  const tool = api.defineTool(weather);
  const inputs = [{ city: 'Paris' }, { city: 1 }, {}, { city: 'Rome', days: 0 }, { city: 'Oslo', days: 2 }];
  const outcome = (o) => (o.ok ? { ok: true, value: o.value } : { ok: false, code: o.error.code, issues: o.error.issues });
  const viaHandle = api.validateToolInputs(tool, inputs).map(outcome);
  assert.deepEqual(viaHandle.map((o) => o.ok), [true, false, false, false, true]);
  assert.deepEqual(api.validateToolInputs(JSON.parse(JSON.stringify(tool)), inputs).map(outcome), viaHandle);
  assert.deepEqual(inputs.map((i) => outcome(api.safeValidateToolInput(tool, i))), viaHandle);
  assert.ok(api.validateToolInputs(tool, [{ city: 1 }])[0].error instanceof api.ContractError);
  assert.throws(() => api.validateToolInputs(tool, { city: 'x' }), { code: 'FIELD_TYPE' });
});

test('garbage collection frees dropped tools: 100,000 created and dropped do not grow the instance', async () => {
  const before = api.memoryReport();
  const round = async (n, free) => {
    for (let i = 0; i < n; i++) {
      const tool = api.defineTool({ ...weather, name: `tool_${i % 997}` });
      if (i % 3 === 0) api.validateToolInput(tool, { city: 'x' });
      if (free && i % 2 === 0) tool.free();
    }
    gc();
    await settle();
    gc();
    await settle();
  };
  // Warm up (the allocator's free lists, the schema cache), then measure.
  for (let r = 0; r < 2; r++) await round(5000, r === 0);
  const start = api.memoryReport().bytes;
  for (let r = 0; r < 20; r++) await round(5000, r % 2 === 0);
  const end = api.memoryReport().bytes;
  const after = api.memoryReport();
  assert.equal(after.renewals, before.renewals, 'the instance was not replaced (its memory stayed under the bound)');
  // A leak would be the tools themselves (about 18 MB for 100,000, measured); what the free
  // lists of the allocator round up to is a few pages, 3 seen once under load: the bound is 8.
  assert.ok(end - start <= 8 * 65536, `memory grew by ${end - start} bytes over 100,000 tools (${start} -> ${end})`);
});

test('validateToolInput through a handle: no memory growth over 200,000 calls', () => {
  const tool = api.defineTool(weather);
  for (let i = 0; i < 20000; i++) api.safeValidateToolInput(tool, i % 2 ? { city: 'Paris', days: 2 } : { city: 3 });
  const start = api.memoryReport().bytes;
  for (let i = 0; i < 200000; i++) api.safeValidateToolInput(tool, i % 2 ? { city: 'Paris', days: 2 } : { city: 3 });
  assert.equal(api.memoryReport().bytes, start);
});

// The property: the handle path and the plain path (a JSON copy of the same definition) give the
// same outcome, value or error (code, path, issues), on random schemas and inputs.
const json = fc.jsonValue({ maxDepth: 3 });
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc.constant({}),
    fc.constantFrom('string', 'integer', 'number', 'object', 'array', 'null').map((type) => ({ type })),
    fc.constantFrom('^a+$', '\\d{2,3}', '\\p{L}').map((pattern) => ({ pattern })),
    fc.tuple(fc.constantFrom('minimum', 'maxLength', 'required', 'enum', 'const', 'multipleOf', 'uniqueItems'), json)
      .map(([k, v]) => ({ [k]: v })),
    fc.tuple(fc.constantFrom('properties', 'items', 'allOf', 'anyOf', 'not', 'additionalProperties', 'prefixItems'),
      tie('schema'), tie('schema')).map(([k, a, b]) => {
      if (k === 'properties') return { [k]: { a, b } };
      if (k === 'allOf' || k === 'anyOf' || k === 'prefixItems') return { [k]: [a, b] };
      return { [k]: a };
    }),
  ),
}));
const input = fc.anything({ maxDepth: 3, withNullPrototype: true, withSparseArray: true });

const seen = (call) => {
  try {
    return { ok: true, value: call() };
  } catch (e) {
    if (!(e instanceof api.ContractError)) throw e;
    return { ok: false, code: e.code, path: e.path, issues: e.issues, truncated: e.truncated };
  }
};

test('property: the handle path gives the plain path\'s outcome', () => {
  fc.assert(
    fc.property(fc.record({ properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), schema) }), fc.array(input, { maxLength: 4 }), fc.constantFrom(undefined, { maxDepth: 2 }, { strict: true }), (inputSchema, inputs, options) => {
      const defined = api.safeDefineTool({ name: 't', description: 'd', inputSchema, permissions: ['read'] });
      if (!defined.ok) return;
      const tool = defined.value;
      const plain = JSON.parse(JSON.stringify(tool));
      for (const i of inputs) {
        assert.deepEqual(seen(() => api.validateToolInput(tool, i, options)), seen(() => api.validateToolInput(plain, i, options)));
        const text = JSON.stringify(i);
        if (typeof text === 'string') {
          assert.deepEqual(seen(() => api.validateToolInputJson(tool, text, options)), seen(() => api.validateToolInputJson(plain, text, options)));
        }
      }
      const many = (t) => seen(() => api.validateToolInputs(t, inputs, options).map((o) => (o.ok ? o : { ok: false, code: o.error.code, path: o.error.path, issues: o.error.issues })));
      assert.deepEqual(many(tool), many(plain));
      tool.free();
    }),
    { numRuns: 300 },
  );
});

// Registries: createRegistry's value keys the core's compiled registry; checkToolCall, the
// projections and catalog given it answer what they answer for a plain copy of it.
test('property: a registry createRegistry returned gives the plain copy\'s outcomes', () => {
  const policies = [
    { rules: [{ effect: 'allow', permission: 'read' }] },
    { rules: [{ effect: 'ask', tool: 't0' }, { effect: 'allow', permission: 'write' }] },
    { rules: [] },
    { rules: [{ effect: 'sometimes' }] },
  ];
  fc.assert(
    fc.property(
      fc.array(fc.tuple(schema, fc.constantFrom(['read'], ['write'], ['read', 'network'])), { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.constantFrom('t0', 't1', 't2', 'nope', 7), input, fc.nat(3)), { maxLength: 4 }),
      (specs, calls) => {
        const tools = specs.map(([s, permissions], i) => ({ name: `t${i}`, description: 'd', inputSchema: { properties: { a: s } }, permissions }));
        const made = api.safeCreateRegistry(tools);
        if (!made.ok) return;
        const registry = made.value;
        const plain = JSON.parse(JSON.stringify(registry));
        for (const project of ['catalog', 'toOpenAITools', 'toOpenAIResponsesTools', 'toAnthropicTools', 'toMcpTools', 'toGeminiTools']) {
          assert.deepEqual(seen(() => api[project](registry)), seen(() => api[project](plain)), project);
        }
        for (const [tool, i, p] of calls) {
          const call = { type: 'tool_call', callId: 'c1', tool, input: { a: i } };
          const out = (r) => {
            const o = seen(() => api.checkToolCall(r, call, policies[p]));
            return o;
          };
          assert.deepEqual(out(registry), out(plain));
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('checkToolCall with a created registry: approved call, UNKNOWN_TOOL with suggestions, APPROVAL_REQUIRED', () => {
  const registry = api.createRegistry([weather, { ...weather, name: 'get_forecast' }]);
  const policy = { rules: [{ effect: 'allow', tool: 'get_weather' }, { effect: 'ask', tool: 'get_forecast' }] };
  assert.deepEqual(api.checkToolCall(registry, { type: 'tool_call', callId: 'c', tool: 'get_weather', input: { city: 'x' } }, policy),
    { callId: 'c', tool: 'get_weather', input: { city: 'x' }, permissions: ['read'] });
  const unknown = api.safeCheckToolCall(registry, { type: 'tool_call', callId: 'c', tool: 'get_wether', input: {} }, policy);
  assert.equal(unknown.error.code, 'UNKNOWN_TOOL');
  assert.deepEqual(unknown.error.availableTools, ['get_weather', 'get_forecast']);
  assert.equal(api.safeCheckToolCall(registry, { type: 'tool_call', callId: 'c', tool: 'get_forecast', input: { city: 'x' } }, policy).error.code, 'APPROVAL_REQUIRED');
  assert.ok(Object.isFrozen(registry) && Object.isFrozen(registry.tools[0].inputSchema));
  assert.deepEqual(Object.keys(registry), ['tools']);
});
