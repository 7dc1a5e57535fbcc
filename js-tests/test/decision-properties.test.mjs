// Property tests of decisions (fast-check): any value or text gives a decision or a ContractError
// (never a TypeError, RangeError or wasm trap); accepted decisions survive a JSON round trip; the
// value and text paths agree; the safe twins agree with the throwing forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 2500;

const hostile = fc.anything({
  maxDepth: 5, withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true,
  withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withUnicodeString: true,
});
const text = fc.oneof(fc.constantFrom('c1', 'c2', 'read_file', '', ' ', '\ud800'), fc.string());
const field = fc.oneof(text, fc.constant(undefined), fc.constant(null), fc.integer(), hostile);
const callLike = fc.record({
  callId: fc.oneof(text, field), name: fc.oneof(text, field),
  arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), field), extra: field,
}, { requiredKeys: [] });
const decisionLike = fc.record({
  kind: fc.oneof(fc.constantFrom('tool', 'final', 'Tool', ''), field),
  calls: fc.oneof(fc.array(callLike, { maxLength: 6 }), field),
  answer: fc.oneof(text, field),
  extra: field,
}, { requiredKeys: [] });
const options = fc.oneof(fc.constant(undefined), fc.record({ maxCalls: fc.oneof(fc.integer({ min: 0, max: 300 }), hostile) },
  { requiredKeys: [] }), hostile);

function outcome(call) {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    if (!(error instanceof api.ContractError) || typeof error.code !== 'string' || typeof error.path !== 'string') throw error;
    return { ok: false, error };
  }
}

function same(a, b) {
  assert.equal(a.ok, b.ok);
  if (a.ok) assert.deepEqual(a.value, b.value);
  else assert.deepEqual([a.error.layer, a.error.code, a.error.path], [b.error.layer, b.error.code, b.error.path]);
}

test('any value into parseDecision gives a decision or a ContractError; the safe twin agrees', () => {
  fc.assert(fc.property(fc.oneof(decisionLike, hostile), options, (value, opts) => {
    const got = outcome(() => api.parseDecision(value, opts));
    same(api.safeParseDecision(value, opts), got);
    if (got.ok) {
      // An accepted decision, written as JSON, is accepted again as the same decision.
      same(outcome(() => api.parseDecisionJson(JSON.stringify(got.value), opts)), got);
    }
  }), { numRuns: RUNS });
});

const nonBlank = fc.string({ minLength: 1 }).filter((s) => /\S/u.test(s) && s.isWellFormed());
const validDecision = fc.oneof(
  fc.record({ kind: fc.constant('final'), answer: nonBlank }),
  fc.record({
    kind: fc.constant('tool'),
    calls: fc.uniqueArray(fc.record({ callId: nonBlank, name: nonBlank, arguments: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })) }),
      { minLength: 1, maxLength: 4, selector: (c) => c.callId }),
  }),
);

test('valid decisions are accepted, unchanged, from the value and from its text', () => {
  fc.assert(fc.property(validDecision, (decision) => {
    const expected = JSON.parse(JSON.stringify(decision));
    assert.deepEqual(api.parseDecision(decision), expected);
    assert.deepEqual(api.parseDecisionJson(JSON.stringify(decision)), expected);
  }), { numRuns: RUNS });
});

test('JSON-only values: parseDecision and parseDecisionJson reach the same verdict', () => {
  const jsonDecisionLike = fc.record({
    kind: fc.oneof(fc.constantFrom('tool', 'final', 'x'), fc.jsonValue({ maxDepth: 1 })),
    calls: fc.oneof(fc.array(fc.record({ callId: fc.constantFrom('a', 'b', ' '), name: fc.string(), arguments: fc.jsonValue({ maxDepth: 3 }), x: fc.integer() },
      { requiredKeys: [] }), { maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
    answer: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  }, { requiredKeys: [] });
  fc.assert(fc.property(jsonDecisionLike, (value) => {
    same(outcome(() => api.parseDecision(value)), outcome(() => api.parseDecisionJson(JSON.stringify(value))));
  }), { numRuns: RUNS });
});

test('any text or bytes into parseDecisionJson and parseJson gives a result or a ContractError', () => {
  const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.json(), fc.uint8Array({ maxLength: 64 }),
    validDecision.map((d) => JSON.stringify(d).slice(0, -1)), validDecision.map((d) => JSON.stringify(d) + ' x'));
  fc.assert(fc.property(anyText, (t) => {
    outcome(() => api.parseDecisionJson(t));
    const parsed = outcome(() => api.parseJson(t));
    if (typeof t === 'string' && parsed.ok) assert.deepEqual(parsed.value, JSON.parse(t));
  }), { numRuns: RUNS });
});
