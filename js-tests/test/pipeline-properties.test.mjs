// Property tests for the registry and the pipeline (fast-check): random registries, actions,
// policies and tool results give a result or a ContractError, nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 1500;
const word = fc.constantFrom('read', 'write', 'network', 'execute', 'admin', 'allow', 'ask', 'deny', 'read_file', 'x', '');
const key = fc.constantFrom('rules', 'effect', 'tool', 'permission', 'type', 'callId', 'input', 'tools', 'ok', 'data',
  'code', 'message', 'retryable', 'name', 'permissions', '__proto__');
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, word, fc.anything({ maxDepth: 1, withMap: true, withDate: true }),
    fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
})).v;
const tool = (name, permissions) => ({ name, description: 'd', inputSchema: { type: 'object' }, permissions });
const registry = fc.oneof(fc.constant(api.createRegistry([tool('read_file', ['read']), tool('write_file', ['write', 'network'])])), value);
const rule = fc.record({ effect: fc.constantFrom('allow', 'ask', 'deny', 'maybe'), k: fc.constantFrom('tool', 'permission'),
  v: fc.constantFrom('read', 'write', 'network', 'read_file', 'write_file', 'Bad') }).map(({ effect, k, v }) => ({ effect, [k]: v }));
const policy = fc.oneof(fc.array(rule, { maxLength: 5 }).map((rules) => ({ rules })), value);
const action = fc.oneof(
  fc.record({ type: fc.constant('tool_call'), callId: fc.constant('c'), tool: fc.constantFrom('read_file', 'write_file', 'read_flie', ''), input: value }),
  value,
);

function check(call) {
  try {
    return call();
  } catch (e) {
    if (!(e instanceof api.ContractError)) throw e;
    assert.ok(e.code && e.layer && typeof e.path === 'string');
    return undefined;
  }
}

test('checkToolCall gives an approved call or a ContractError', () => {
  fc.assert(fc.property(registry, action, policy, (r, a, p) => {
    const got = check(() => api.checkToolCall(r, a, p));
    if (got) assert.deepEqual(Object.keys(got), ['callId', 'tool', 'input', 'permissions']);
  }), { numRuns: RUNS });
});

test('policies, registries, results and strict checks never escape as anything else', () => {
  const t = api.defineTool(tool('read_file', ['read']));
  fc.assert(fc.property(value, (v) => {
    check(() => api.definePolicy(v));
    check(() => api.createRegistry([v]));
    check(() => api.catalog(v));
    check(() => api.strictSchemaIssues(v));
    check(() => api.compareContracts(v, t));
    check(() => api.diffCatalogs(v, v));
    const result = api.normalizeToolResult(t, v);
    assert.equal(typeof result.ok, 'boolean');
  }), { numRuns: RUNS });
});
