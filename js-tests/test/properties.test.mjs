// Property tests: any input gives a result or a ContractError (never a TypeError, RangeError or
// wasm trap), and the value and text paths agree on valid actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 2500; // per property; 5 properties over generated values => 12,500 values.

function resultOrContractError(call) {
  try {
    call();
    return true;
  } catch (e) {
    if (e instanceof api.ContractError && typeof e.code === 'string' && typeof e.path === 'string') return true;
    throw e;
  }
}

const hostile = fc.anything({
  maxDepth: 6,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

const field = fc.oneof(fc.string(), fc.constant(undefined), fc.constant(null), fc.integer(), fc.constant('  '),
  fc.constant('\ud800'), hostile);
const actionLike = fc.record({
  type: fc.oneof(fc.constantFrom('message', 'tool_call', 'finish', 'request_approval', 'Message', ''), field),
  content: field, summary: field, callId: field, tool: field, input: hostile, requestId: field,
  capability: field, resource: field, reason: field, schemaVersion: fc.oneof(fc.constant(1), field),
}, { requiredKeys: [] });

test('any value into the value functions gives a result or a ContractError', () => {
  fc.assert(fc.property(fc.oneof(hostile, actionLike), fc.boolean(), (value, strict) => {
    resultOrContractError(() => api.parseAgentAction(value, { strict }));
    resultOrContractError(() => api.defineTool(value, { strict }));
    const preview = api.previewAction(value);
    assert.equal(typeof preview.ok, 'boolean');
    resultOrContractError(() => api.parseAgentActions([value, value]));
  }), { numRuns: RUNS });
});

test('any text or bytes into the JSON functions gives a result or a ContractError', () => {
  const text = fc.oneof(fc.string({ unit: 'binary' }), fc.json(), fc.string({ unit: 'grapheme' }),
    fc.uint8Array({ maxLength: 64 }), fc.jsonValue().map((v) => JSON.stringify(v) + ' '));
  fc.assert(fc.property(text, (t) => {
    resultOrContractError(() => api.parseAgentActionJson(t));
    resultOrContractError(() => api.defineToolJson(t));
    resultOrContractError(() => api.parseAgentActionsJsonl(t));
  }), { numRuns: RUNS });
});

test('hostile options give OPTION_INVALID or work', () => {
  fc.assert(fc.property(hostile, (options) => {
    resultOrContractError(() => api.parseAgentAction({ type: 'finish', summary: 's' }, options));
  }), { numRuns: RUNS });
});

const nonBlank = fc.string({ minLength: 1 }).filter((s) => /\S/u.test(s) && s.isWellFormed());
const validAction = fc.oneof(
  fc.record({ type: fc.constant('message'), content: nonBlank }),
  fc.record({ type: fc.constant('finish'), summary: nonBlank }),
  fc.record({ type: fc.constant('tool_call'), callId: nonBlank, tool: nonBlank, input: fc.jsonValue() }),
  fc.record({ type: fc.constant('request_approval'), requestId: nonBlank, capability: nonBlank, resource: nonBlank, reason: nonBlank }),
);

test('valid actions: the object and its JSON text give the same action', () => {
  fc.assert(fc.property(validAction, (action) => {
    const fromValue = api.parseAgentAction(action);
    const fromText = api.parseAgentActionJson(JSON.stringify(action));
    assert.deepEqual(fromText, fromValue);
    assert.deepEqual(fromValue, JSON.parse(JSON.stringify(action)));
  }), { numRuns: RUNS });
});

const jsonField = fc.oneof(fc.string(), fc.constant(null), fc.integer(), fc.constant('  '), fc.jsonValue({ maxDepth: 4 }));
const jsonActionLike = fc.record({
  type: fc.oneof(fc.constantFrom('message', 'tool_call', 'finish', 'request_approval', 'Message', ''), jsonField),
  content: jsonField, summary: jsonField, callId: jsonField, tool: jsonField, input: jsonField, requestId: jsonField,
  capability: jsonField, resource: jsonField, reason: jsonField, schemaVersion: fc.oneof(fc.constant(1), jsonField),
}, { requiredKeys: [] });

// Nesting stays far below the depth limit: beyond it the text path (which bounds the whole
// text) and the value path (which reads in place) legitimately differ on unread fields.
test('any JSON value: text and value paths reach the same verdict', () => {
  fc.assert(fc.property(fc.oneof(jsonActionLike, fc.jsonValue({ maxDepth: 6 })), fc.boolean(), (value, strict) => {
    const a = api.safeParseAgentAction(value, { strict });
    const b = api.safeParseAgentActionJson(JSON.stringify(value), { strict });
    assert.equal(a.ok, b.ok);
    if (a.ok) assert.deepEqual(a.value, b.value);
    else assert.deepEqual([a.error.code, a.error.path], [b.error.code, b.error.path]);
  }), { numRuns: RUNS });
});
