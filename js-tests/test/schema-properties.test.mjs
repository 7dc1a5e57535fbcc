// Property tests for tool schemas: random schema-like objects (valid or not) and random inputs,
// undefined and non-JSON values included, give a result or a ContractError from defineTool and
// validateToolInput: never a TypeError, RangeError or wasm trap; the instance stays usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 2000;
const CODES = new Set(['TOOL_SCHEMA_INVALID', 'TOOL_SCHEMA_UNSUPPORTED', 'TOOL_SCHEMA_NOT_OBJECT', 'TOOL_SCHEMA_ROOT_NOT_OBJECT', 'SCHEMA_MISMATCH',
  'INPUT_TOO_DEEP', 'INPUT_TOO_LARGE', 'VALUE_NOT_JSON', 'STRING_LONE_SURROGATE', 'FIELD_TYPE']);

const json = fc.jsonValue({ maxDepth: 3 });
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc.constant({}),
    fc.constantFrom('string', 'integer', 'number', 'object', 'array', 'null', 'strin').map((type) => ({ type })),
    fc.constantFrom('^a+$', '(?=a)', '(a)\\1', '[a-', '\\d{2,3}', '\\p{L}').map((pattern) => ({ pattern })),
    fc.constantFrom('#', '#/$defs/a', '#/properties/a', '#nope', 'http://x.test/s.json').map(($ref) => ({ $ref })),
    fc.tuple(fc.constantFrom('minimum', 'maxLength', 'required', 'enum', 'const', 'multipleOf', 'format'), json)
      .map(([k, v]) => ({ [k]: v })),
    fc.tuple(fc.constantFrom('properties', '$defs', 'items', 'allOf', 'anyOf', 'not', 'additionalProperties', 'if', 'then', 'prefixItems'),
      tie('schema'), tie('schema')).map(([k, a, b]) => {
      if (k === 'properties' || k === '$defs') return { [k]: { a, b } };
      if (k === 'allOf' || k === 'anyOf' || k === 'prefixItems') return { [k]: [a, b] };
      return { [k]: a };
    }),
  ),
}));
const input = fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true });

function check(call) {
  try {
    return call();
  } catch (e) {
    if (!(e instanceof api.ContractError)) throw e;
    assert.ok(CODES.has(e.code), `${e.code} ${e.path}: ${e.message}`);
    assert.equal(e.code === 'SCHEMA_MISMATCH', Array.isArray(e.issues) && e.issues.length > 0);
    return undefined;
  }
}

test('random schemas and inputs never escape as anything but ContractError', () => {
  fc.assert(fc.property(schema, fc.array(input, { minLength: 1, maxLength: 3 }), (s, inputs) => {
    const tool = check(() => api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: s }));
    if (tool) for (const i of inputs) check(() => api.validateToolInput(tool, i));
    // The same schema under a property, so schemas whose root type is not an object (refused
    // at the root: TOOL_SCHEMA_ROOT_NOT_OBJECT) still meet inputs.
    const wrapped = check(() => api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { v: s } } }));
    if (wrapped) for (const i of inputs) check(() => api.validateToolInput(wrapped, { v: i }));
  }), { numRuns: RUNS });
  // Still usable afterwards.
  const tool = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } });
  assert.deepEqual(api.validateToolInput(tool, { n: 3 }), { n: 3 });
});
