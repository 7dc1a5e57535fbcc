// Property test of the draft-07 conversion (jsonSchemaForTarget): for random 2020-12 schemas
// built from keywords that have a faithful draft-07 form (prefixItems and items, $defs and
// pointers into them, dependentRequired / dependentSchemas, $ref beside assertions, every
// applicator) and random instances, a real draft-07 validator (Ajv, pinned in package-lock.json)
// on the converted schema gives the verdict the core gives on the 2020-12 one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Ajv from 'ajv';
import * as api from 'agent-contract';

const RUNS = 400;
const NAMES = ['a', 'b', 'c'];
// Pointers into $defs: d0 is any schema, d1 a tuple, so pointers cross prefixItems and items.
const REFS = ['#/$defs/d0', '#/$defs/d1', '#/$defs/d1/prefixItems/0', '#/$defs/d1/prefixItems/1', '#/$defs/d1/items'];

const small = fc.integer({ min: -3, max: 3 });
const scalar = fc.oneof(small, fc.constantFrom(1.5, -0.5, '', 'a', 'ab', 'abc', true, false, null));
const { value: instance } = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 3, depthSize: 'small' }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  // Plain objects: Ajv's uniqueItems tells {} from a null-prototype {} apart, JSON does not.
  object: fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 3, noNullPrototype: true }),
}));
const names = fc.subarray(NAMES, { minLength: 1 });

function schemas(withRefs) {
  const leaf = fc.oneof(
    fc.boolean(),
    fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object') }),
    fc.record({ type: fc.constantFrom(['string', 'null'], ['integer', 'array'], ['object', 'boolean']) }),
    fc.record({ minimum: small }),
    fc.record({ maximum: small }),
    fc.record({ exclusiveMinimum: small }),
    fc.record({ minLength: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ maxLength: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ minItems: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ maxItems: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ uniqueItems: fc.boolean() }),
    fc.record({ required: names }),
    fc.record({ maxProperties: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ const: scalar }),
    fc.record({ enum: fc.uniqueArray(scalar, { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) }) }),
    ...(withRefs ? [fc.record({ $ref: fc.constantFrom(...REFS) })] : []),
  );
  // A node is one or two small groups of keywords (each a subschema location or an interplay the
  // conversion rewrites), so a schema three levels deep stays small enough to compile fast.
  return fc.letrec((tie) => {
    const list = fc.array(tie('schema'), { minLength: 1, maxLength: 2 });
    const optional = (record) => fc.record(record, { requiredKeys: Object.keys(record).slice(0, 1) });
    const group = fc.oneof(
      optional({ prefixItems: list, items: tie('schema'), type: fc.constant('array') }),
      optional({ items: tie('schema'), minItems: fc.integer({ min: 0, max: 3 }) }),
      optional({ contains: tie('schema'), maxItems: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ not: tie('schema') }),
      fc.record({ allOf: list }),
      fc.record({ anyOf: list }),
      fc.record({ oneOf: list }),
      // An `if` alone asserts nothing (strict Ajv refuses it as ignored).
      fc.record({ if: tie('schema'), then: tie('schema'), else: tie('schema') }, { requiredKeys: ['if', 'then'] }),
      optional({ properties: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { minKeys: 1, maxKeys: 2 }), required: names, type: fc.constant('object') }),
      optional({ patternProperties: fc.dictionary(fc.constantFrom('^a', 'b$'), tie('schema'), { minKeys: 1, maxKeys: 1 }), additionalProperties: tie('schema') }),
      optional({ additionalProperties: tie('schema') }),
      optional({ propertyNames: tie('schema') }),
      optional({ dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), names, { minKeys: 1, maxKeys: 2 }), dependentSchemas: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { minKeys: 1, maxKeys: 2 }) }),
      optional({ dependentSchemas: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { minKeys: 1, maxKeys: 2 }) }),
      ...(withRefs ? [fc.record({ $ref: fc.constantFrom(...REFS) })] : []),
    );
    return {
      schema: fc.oneof({ maxDepth: 3, depthSize: 'small' }, leaf, tie('node')),
      node: fc.tuple(group, fc.option(group, { nil: {} })).map(([a, b]) => ({ ...b, ...a })),
    };
  }).schema;
}

const tuple = fc.record({
  type: fc.constant('array'),
  prefixItems: fc.array(schemas(false), { minLength: 2, maxLength: 3 }),
  items: schemas(false),
});
const root = fc
  .record({ v: schemas(true), d0: schemas(false), d1: tuple })
  .map(({ v, d0, d1 }) => ({ type: 'object', properties: { v }, required: ['v'], $defs: { d0, d1 } }));

// No keyword draft-07 lacks may be left: strictSchema makes Ajv refuse an unknown keyword.
const ajv = new Ajv({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true, allowMatchingProperties: true, logger: false });
const LEFT = ['$defs', 'prefixItems', 'dependentRequired', 'dependentSchemas'];

function keywordsLeft(schema, out = []) {
  if (Array.isArray(schema)) schema.forEach((s) => keywordsLeft(s, out));
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (LEFT.includes(k)) out.push(k);
      if (k !== 'const' && k !== 'enum') keywordsLeft(v, out);
    }
  }
  return out;
}

test('a draft-07 validator on the converted schema agrees with the core on the 2020-12 schema', () => {
  let valid = 0;
  let invalid = 0;
  fc.assert(
    fc.property(root, fc.array(instance, { minLength: 1, maxLength: 8 }), (schema, instances) => {
      const tool = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: schema });
      const converted = api.jsonSchemaForTarget(schema, 'draft-07');
      assert.deepEqual(keywordsLeft(converted), []);
      const check = ajv.compile(converted);
      for (const value of instances) {
        const input = { v: value };
        const ours = api.safeValidateToolInput(tool, input).ok;
        assert.equal(check(input), ours, `draft-07 ${JSON.stringify(converted)} on ${JSON.stringify(input)}`);
        if (ours) valid += 1;
        else invalid += 1;
      }
      tool.free();
    }),
    { numRuns: RUNS, seed: 7307 },
  );
  // Both verdicts were reached often enough for the agreement to mean something.
  assert.ok(valid > RUNS / 4 && invalid > RUNS / 4, `valid ${valid}, invalid ${invalid}`);
});
