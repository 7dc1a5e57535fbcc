// Every public function, and every method of the objects they return, given a revoked Proxy in
// each argument position (the top-level argument itself, not a value nested in it): the outcome
// is the core's, never a raw TypeError from reading the Proxy on this side. The functions come
// from the package's export list, so a new export is covered (or fails here for want of a
// baseline) without editing this file's loop.
//
// The code asserted is the one the core gives for another value with no JSON form (a function)
// in the same position: a revoked Proxy is such a value (js_host.js `kindOf`), and the core
// alone decides what that costs each argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'agent-contract';

const { ContractError } = api;

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
function notJson() {}

const TOOL = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, permissions: ['read'] };
const ACTION = { type: 'tool_call', callId: 'c1', tool: 'echo', input: {} };
const MESSAGE = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 };
const HEADER = { type: 'session', version: 1, id: 's1', timestamp: '2025-01-01T00:00:00Z', cwd: '/w' };
const ENTRY = { type: 'message', id: 'a', parentId: null, timestamp: '2025-01-01T00:00:01Z', message: MESSAGE };
const SESSION = JSON.stringify(HEADER) + '\n' + JSON.stringify(ENTRY) + '\n';
const REQUEST = { jsonrpc: '2.0', method: 'm', id: 1 };
const RESPONSE = { sessionId: 's1', messages: [MESSAGE], events: [], tools: [], entries: [] };
const ROW = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] };
const SSE = 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

// Valid arguments for each export: the call succeeds with them, so the Proxy put in one
// position is the only thing wrong with the call. Exports taking no argument have [].
const BASELINE = {
  parseAgentAction: () => [ACTION, {}],
  safeParseAgentAction: () => [ACTION, {}],
  parseAgentActionJson: () => [JSON.stringify(ACTION), {}],
  safeParseAgentActionJson: () => [JSON.stringify(ACTION), {}],
  parseAgentActions: () => [[ACTION], {}],
  parseAgentActionsJsonl: () => [JSON.stringify(ACTION), {}],
  previewAction: () => [ACTION, {}],
  defineTool: () => [TOOL, {}],
  safeDefineTool: () => [TOOL, {}],
  defineToolJson: () => [JSON.stringify(TOOL), {}],
  safeDefineToolJson: () => [JSON.stringify(TOOL), {}],
  parseJson: () => ['{}', {}],
  safeParseJson: () => ['{}', {}],
  parseDecision: () => [{ kind: 'final', answer: 'x' }, {}],
  safeParseDecision: () => [{ kind: 'final', answer: 'x' }, {}],
  parseDecisionJson: () => ['{"kind":"final","answer":"x"}', {}],
  safeParseDecisionJson: () => ['{"kind":"final","answer":"x"}', {}],
  validateToolInput: () => [api.defineTool(TOOL), {}, {}],
  safeValidateToolInput: () => [TOOL, {}, {}],
  validateToolInputJson: () => [api.defineTool(TOOL), '{}', {}],
  safeValidateToolInputJson: () => [TOOL, '{}', {}],
  validateToolInputs: () => [api.defineTool(TOOL), [{}], {}],
  createRegistry: () => [[TOOL], {}],
  safeCreateRegistry: () => [[TOOL], {}],
  catalog: () => [api.createRegistry([TOOL])],
  definePolicy: () => [{ rules: [{ effect: 'allow', tool: 'echo' }] }],
  safeDefinePolicy: () => [{ rules: [{ effect: 'allow', tool: 'echo' }] }],
  checkToolCall: () => [api.createRegistry([TOOL]), ACTION, { rules: [{ effect: 'allow', tool: 'echo' }] }, {}],
  safeCheckToolCall: () => [{ tools: [TOOL] }, ACTION, { rules: [{ effect: 'allow', tool: 'echo' }] }, {}],
  toOpenAITools: () => [{ tools: [TOOL] }],
  toOpenAIResponsesTools: () => [{ tools: [TOOL] }],
  toAnthropicTools: () => [api.createRegistry([TOOL])],
  toMcpTools: () => [{ tools: [TOOL] }],
  toGeminiTools: () => [{ tools: [TOOL] }],
  normalizeToolResult: () => [TOOL, { ok: true, data: 1 }, {}],
  strictSchemaIssues: () => [{ type: 'object' }],
  geminiSchemaIssues: () => [{ type: 'object' }],
  jsonSchemaForTarget: () => [{ type: 'object' }, 'draft-07'],
  standardJsonSchema: () => [{ type: 'object' }, 'draft-07'],
  toStandardSchema: () => [{ ...TOOL, outputSchema: { type: 'object' } }],
  compareContracts: () => [TOOL, TOOL],
  diffCatalogs: () => [[TOOL], [TOOL]],
  mcpToolDefinitions: () => [{ tools: [{ name: 'get-weather', inputSchema: { type: 'object' } }] }],
  checkMcpToolResult: () => [{ ...TOOL, outputSchema: { type: 'object' } }, { content: [], structuredContent: {} }],
  createAssembler: () => [{}],
  createProviderAssembler: () => ['openai-chat', {}],
  assembleProviderStream: () => ['openai-chat', SSE, {}],
  safeAssembleProviderStream: () => ['openai-chat', SSE, {}],
  providerResponseStream: () => ['openai-chat', {}],
  parseAgentMessage: () => [MESSAGE, {}],
  safeParseAgentMessage: () => [MESSAGE, {}],
  parseAgentMessageJson: () => [JSON.stringify(MESSAGE), {}],
  safeParseAgentMessageJson: () => [JSON.stringify(MESSAGE), {}],
  parseToolResult: () => [{ content: [{ type: 'text', text: 'ok' }] }, {}],
  safeParseToolResult: () => [{ content: [{ type: 'text', text: 'ok' }] }, {}],
  parseSessionEntry: () => [HEADER, {}],
  safeParseSessionEntry: () => [HEADER, {}],
  checkSession: () => [SESSION, {}],
  readSession: () => [SESSION, {}],
  safeReadSession: () => [SESSION, {}],
  querySession: () => [SESSION, { branch: 'a' }, {}],
  fromSeedTool: () => [{ name: 'echo', description: 'Echo.', parameters: { type: 'object' } }, { permissions: ['read'] }, {}],
  toSeedTool: () => [TOOL],
  createSessionChecker: () => [{}],
  parseAgentEvent: () => [{ type: 'agent_start' }, {}],
  safeParseAgentEvent: () => [{ type: 'agent_start' }, {}],
  checkEventSequence: () => [[{ type: 'agent_start' }, { type: 'agent_end', messages: [] }], {}],
  safeCheckEventSequence: () => [[{ type: 'agent_start' }, { type: 'agent_end', messages: [] }], {}],
  checkSessionResponse: () => [RESPONSE, {}],
  checkChatRow: () => [ROW, {}],
  checkChatRows: () => [[ROW, JSON.stringify(ROW)], {}],
  checkChatRowsJsonl: () => [JSON.stringify(ROW) + '\n', {}],
  safeCheckSessionResponse: () => [RESPONSE, {}],
  protocolSchemas: () => [],
  admitPrompt: () => [{ sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] }, {}, {}],
  safeAdmitPrompt: () => [{ sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] }, {}, {}],
  isCanonicalBase64: () => ['AQ=='],
  sniffMediaType: () => [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  advertisePromptCapabilities: () => [{ attachmentStore: true }],
  createPromptLifecycle: () => [],
  classifyJsonRpc: () => [REQUEST, {}],
  classifyJsonRpcJson: () => [JSON.stringify(REQUEST), {}],
  methodNotFound: () => [REQUEST],
  internalError: () => [REQUEST, new Error('boom')],
  invalidParams: () => [REQUEST, api.safeParseAgentAction(1).error],
  createNdjsonDecoder: () => [{}],
  ndjsonFrames: () => [['{"jsonrpc":"2.0","method":"m"}\n'], {}],
  ndjsonFramesAsync: () => [['{"jsonrpc":"2.0","method":"m"}\n'], {}],
  checkStdoutPurity: () => ['{"jsonrpc":"2.0","method":"m"}\n', {}],
  createRpcSession: () => [{}],
};

// Not calls into the core: the loader, the error classes, the memory probes.
const NOT_CORE = new Set(['init', 'initSync', 'NotInitializedError', 'ContractError', 'memoryBytes', 'memoryReport', 'default']);

// The outcome of a call, settled: what it threw (a ContractError's layer, code and path, or
// the class and message of anything else), or what it gave. Iterators, async iterators and
// streams are drained, since their work (and their errors) come as they are read.
async function outcome(call) {
  try {
    let value = call();
    if (value instanceof TransformStream) return { stream: true };
    if (value && typeof value[Symbol.asyncIterator] === 'function') {
      for await (const _ of value);
      return { drained: true };
    }
    if (value && typeof value.next === 'function' && typeof value[Symbol.iterator] === 'function') {
      for (const _ of value);
      return { drained: true };
    }
    if (value && typeof value === 'object' && 'ok' in value && value.ok === false && value.error instanceof ContractError) {
      value = { safe: describe(value.error) };
    }
    return { value: shape(value) };
  } catch (e) {
    return { threw: describe(e) };
  }
}

function describe(e) {
  if (e instanceof ContractError) return { contract: true, layer: e.layer, code: e.code, path: e.path };
  return { contract: false, name: e?.name, message: String(e?.message) };
}

// What a returned value is, for comparing two calls: plain data as JSON, objects with methods
// by their method names.
function shape(value) {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? 'function' : value;
  if (value instanceof Uint8Array) return 'bytes';
  const methods = Object.keys(value).filter((k) => typeof value[k] === 'function');
  if (methods.length) return { methods };
  try {
    // Messages name what was given ("a revoked Proxy", "a function"): compared without them.
    return JSON.parse(JSON.stringify(value), (key, v) => (key === 'message' ? undefined : v));
  } catch (_) {
    return 'unserialisable';
  }
}

function assertSame(name, hostile, reference) {
  for (const o of [hostile.threw, hostile.value?.safe]) {
    if (o) assert.ok(o.contract, `${name}: a revoked Proxy gave ${o.name}: ${o.message}, not a ContractError`);
  }
  assert.deepEqual(hostile, reference, `${name}: a revoked Proxy and a function give different outcomes`);
}

// The objects an export returns whose methods take caller values, by the path of each method;
// each call gets a fresh object (an assembler's first error is final).
function methodsOf(make) {
  const found = [];
  const walk = (object, path, depth) => {
    if (object === null || typeof object !== 'object' || depth > 2) return;
    for (const key of Object.keys(object)) {
      const v = object[key];
      if (typeof v === 'function' && key !== 'free') found.push([...path, key]);
      else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v, [...path, key], depth + 1);
    }
  };
  let sample;
  try {
    sample = make();
  } catch (_) {
    return [];
  }
  walk(sample, [], 0);
  sample?.free?.();
  return found;
}

function callMethod(make, path, arg) {
  return () => {
    let target = make();
    for (const key of path.slice(0, -1)) target = target[key];
    return target[path.at(-1)](arg);
  };
}

const exported = Object.keys(api).filter((name) => typeof api[name] === 'function' && !NOT_CORE.has(name)).sort();

test('every export has a baseline call that succeeds', async () => {
  assert.ok(exported.length >= 80, `export list read: ${exported.length} functions`);
  const missing = exported.filter((name) => !(name in BASELINE));
  assert.deepEqual(missing, [], 'exports without a baseline: add one to BASELINE');
  for (const name of exported) {
    const o = await outcome(() => api[name](...BASELINE[name]()));
    assert.ok(!o.threw && !o.value?.safe, `${name}'s baseline fails: ${JSON.stringify(o)}`);
  }
});

test('a revoked Proxy in any argument position of any export is the core\'s verdict', async () => {
  let calls = 0;
  for (const name of exported) {
    const args = BASELINE[name]();
    const positions = Math.max(args.length, api[name].length);
    for (let i = 0; i < positions; i++) {
      const at = (value) => () => {
        const given = BASELINE[name]();
        given[i] = value;
        return api[name](...given);
      };
      assertSame(`${name} argument ${i}`, await outcome(at(revoked())), await outcome(at(notJson)));
      calls++;
    }
  }
  assert.ok(calls >= 150, `${calls} calls`);
});

test('a revoked Proxy given to a method of a returned object is the core\'s verdict', async () => {
  let calls = 0;
  for (const name of exported) {
    const make = () => api[name](...BASELINE[name]());
    for (const path of methodsOf(make)) {
      const label = `${name}(...).${path.join('.')}`;
      assertSame(label, await outcome(callMethod(make, path, revoked())), await outcome(callMethod(make, path, notJson)));
      calls++;
    }
  }
  // Assemblers, the session checker, the decoder, the RPC session, the lifecycle, a read session
  // and the Standard Schema object: each method once.
  assert.ok(calls >= 30, `${calls} method calls`);
});

test('a revoked Proxy written to providerResponseStream is the core\'s verdict', async () => {
  const run = async (chunk) => {
    const stream = api.providerResponseStream('openai-chat');
    const writer = stream.writable.getWriter();
    const read = stream.readable.getReader().read();
    try {
      await writer.write(chunk);
      await writer.close();
      await read;
      return { done: true };
    } catch (e) {
      read.catch(() => {});
      return { threw: describe(e) };
    }
  };
  const hostile = await run(revoked());
  assert.equal(hostile.threw?.contract, true, JSON.stringify(hostile));
  assert.deepEqual(hostile, await run(notJson));
});

test('parseAgentActions given a revoked Proxy: a ContractError, not the TypeError of Array.isArray', () => {
  // The case the hostile-input run found: Array.isArray threw before the core was called.
  assert.throws(() => api.parseAgentActions(revoked()), { name: 'ContractError', code: 'FIELD_TYPE', path: '' });
});

// The widest tool the complexity bounds admit (8,190 `true` items in prefixItems): defineTool
// compiles it once and the handle holds that compile, so the instance is renewed at most once
// and validations go through the handle, as fast as for a small tool.
test('a tool of 8,190 prefixItems: at most one renewal, validations through the handle', () => {
  const wide = { name: 'wide', description: 'd', permissions: ['read'],
    inputSchema: { type: 'object', properties: { a: { prefixItems: Array(8190).fill(true) } } } };
  const small = api.defineTool({ name: 'small', description: 'd', permissions: ['read'],
    inputSchema: { type: 'object', properties: { a: { prefixItems: [true] } } } });
  const before = api.memoryReport().renewals;
  const tool = api.defineTool(wide);
  const input = { a: [1, 2, 3] };
  const median = (t) => {
    const times = [];
    for (let i = 0; i < 41; i++) {
      const started = performance.now();
      assert.deepEqual(api.validateToolInput(t, input), input);
      assert.throws(() => api.validateToolInput(t, []), { name: 'ContractError', code: 'SCHEMA_MISMATCH' });
      times.push(performance.now() - started);
    }
    return times.sort((x, y) => x - y)[20];
  };
  const wideMs = median(tool), smallMs = median(small);
  assert.ok(api.memoryReport().renewals - before <= 1, `renewals: ${api.memoryReport().renewals - before}`);
  // The plain path (the tool read again and its schema compiled or looked up) took 160-230 ms
  // against ~0.1 ms through a handle: a ratio of 1,000+, far from this bound.
  assert.ok(wideMs <= 20 * smallMs + 0.5, `wide ${wideMs.toFixed(3)} ms, small ${smallMs.toFixed(3)} ms`);
  tool.free();
  small.free();
});

// A registry whose schema holds k references to one k-number array (2k² bytes as JSON, read in
// full by the core): the time grows with those bytes, not faster. 2 MB took 4.1 s in
// toOpenAITools. Every call gets a schema of its own (property names differ), so each one reads
// and compiles it rather than finding it in the compiled-schema cache. Ratios, not times: 8x the
// bytes may take at most 24x the time (quadratic work would take 64x).
test('shared arrays in a schema: toOpenAITools and validateToolInputJson grow linearly', () => {
  let run = 0;
  const toolOf = (k) => {
    const shared = Array(k).fill(0);
    const properties = {};
    run++;
    for (let i = 0; i < k; i++) properties[`p${i}_${run}`] = { enum: shared };
    return { name: 'wide', description: 'd', permissions: ['read'], inputSchema: { type: 'object', properties } };
  };
  const fastest = (k, call) => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const tool = toolOf(k);
      const started = performance.now();
      call(tool, k);
      times.push(performance.now() - started);
    }
    return Math.min(...times);
  };
  const project = (tool, k) => {
    const [projected] = api.toOpenAITools({ tools: [tool] });
    assert.equal(projected.function.name, 'wide');
    const properties = Object.values(projected.function.parameters.properties);
    assert.equal(properties.length, k);
    assert.equal(properties[k - 1].enum.length, k);
    assert.equal(projected.function.strict, false);
  };
  const validate = (tool) => {
    const first = Object.keys(tool.inputSchema.properties)[0];
    assert.deepEqual(api.validateToolInputJson(tool, `{"${first}":0}`), { [first]: 0 });
    assert.throws(() => api.validateToolInputJson(tool, `{"${first}":1}`), { name: 'ContractError', code: 'SCHEMA_MISMATCH' });
  };
  fastest(50, project);
  for (const [name, call] of [['toOpenAITools', project], ['validateToolInputJson', validate]]) {
    const small = fastest(354, call); // 2 * 354² ≈ 0.25 MB
    const large = fastest(1000, call); // 2 MB
    assert.ok(large <= 24 * small, `${name}: ${small.toFixed(0)} ms at 0.25 MB, ${large.toFixed(0)} ms at 2 MB`);
  }
});
