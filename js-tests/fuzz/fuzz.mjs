// A fuzzer for the package's public functions with hostile JS values and texts.
// Every input is built by a seeded generator, so a failure is reproduced by its seed and index.
// The promise checked: every call returns or throws a ContractError (a safe* function never
// throws), within 1 s for an input of at most 1 MB, and a call with the default limits on an
// input of at most 1 MB leaves every instance it ran in under 64 MiB (each API call of it, a
// stateful object's methods included: `memoryReport().lastCallBytes`, see `check`). Program data
// over the default limits, which the core reads under its ceilings, makes a call one with
// raised limits (PROGRAM_DATA).
import * as api from 'agent-contract';

const MB = 1 << 20;
const MEMORY_BOUND = 64 * MB;
// Past 1 MB the bound grows with the input (docs/decisions.md, "The memory bound"): 48 MiB per
// MB past the first. Sizes here are lower bounds (a shared container is counted once, a walk
// stops at 200,000 containers), so the check errs towards reporting.
const MEMORY_PER_MB_PAST_THE_FIRST = 48;
const memoryBoundFor = (size) => MEMORY_BOUND + Math.max(0, size - MB) * MEMORY_PER_MB_PAST_THE_FIRST;

export function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

// Generators return [value, size]: size is the generator's own count of the bytes it made, so
// that measuring a hostile value never runs its traps.
function makers(r, floodBytes = 1e6) {
  // One input in fifty may be large (up to ~2 MB); the others stay small, so that a long run
  // covers many shapes.
  let big = false;
  const n = (large) => r.int(big ? large : Math.min(large, 300));
  // Copies own properties without running setters (a `__proto__` key stays a key); a hostile
  // source may throw, and then the copy has what was read.
  const copyInto = (o, inner) => {
    try {
      for (const key of Reflect.ownKeys(inner)) Object.defineProperty(o, key, { value: inner[key], writable: true, enumerable: true, configurable: true });
    } catch (_) { /* a hostile source */ }
    return o;
  };
  const strings = ['', ' ', 'x', 'message', 'tool_call', 'finish', 'request_approval', 'read', 'echo', 'c1',
    '\ud800', '\udc00x', '😀', '€', '__proto__', 'constructor', '0', '4294967295', 'a'.repeat(70), '\u0000', 'type', 'input'];
  const str = () => {
    const k = r.int(10);
    if (k < 6) return r.pick(strings);
    if (k < 8) return r.pick(strings).repeat(1 + r.int(300));
    if (k < 9) return '€'.repeat(n(1 << 16)) + (r.chance(0.3) ? '\ud800' : '');
    return 'x'.repeat(big && r.chance(0.1) ? (1 << 20) + r.int(64) : n(1 << 16));
  };
  const number = () => r.pick([0, -0, 1, -1, 1.5, 2 ** 53, 1e308, NaN, Infinity, -Infinity, 4, 128, 65536, 2 ** 32]);
  const primitive = () => r.pick([
    () => undefined, () => null, () => true, () => false, number, str,
    () => 10n, () => Symbol('s'), () => () => 1, () => new Date(0), () => new Map([[1, 2]]), () => new Set([1]),
    () => new (class Point {})(), () => new Error('e'), () => new String('s'), () => new Number(1),
  ])();
  const throwing = () => { throw r.pick([new Error('boom'), new TypeError('t'), 42, undefined, Symbol('x'), { message: 'o' }]); };
  const hostile = (inner) => {
    const k = r.int(16);
    switch (k) {
      case 0: { const { proxy, revoke } = Proxy.revocable(inner, {}); revoke(); return proxy; }
      case 1: return new Proxy(inner, { get: throwing });
      case 2: return new Proxy(inner, { ownKeys: throwing });
      case 3: return new Proxy(inner, { getPrototypeOf: throwing });
      case 4: return new Proxy(inner, { has: throwing, getOwnPropertyDescriptor: throwing });
      case 5: return new Proxy(inner, { ownKeys: () => ['ghost', 'type', 'input'] }); // lies about its keys
      case 6: { let n = 0; return new Proxy(inner, { get: (t, key) => (n++ % 2 ? 'message' : t[key]) }); } // changes
      case 7: return new Proxy(inner, { get: (t, key, self) => self, has: () => true }); // every field is itself
      case 8: { const o = copyInto({}, inner); Object.defineProperty(o, r.pick(['type', 'input', 'content', 'name', 'tools', 'rules', 'calls']), { get: throwing, enumerable: true }); return o; }
      case 9: { const o = copyInto(Object.create(Array.prototype), inner); return o; } // an array by prototype only
      case 10: { const o = copyInto({ [Symbol.toStringTag]: 'Object' }, inner); Object.setPrototypeOf(o, Map.prototype); return o; }
      case 11: { class Sub extends Array {} const a = new Sub(); a.push(inner); return a; }
      case 12: { const a = [inner]; Object.defineProperty(a, 0, { get: throwing }); return a; }
      case 13: {
        // A sparse array of a huge length. Writing past the end first makes V8 keep it as a
        // dictionary (setting `length` on a packed array allocates the whole backing store:
        // that alone was most of the fuzzer's own time).
        const a = [], length = r.pick([2 ** 32 - 1, 70000, 1 << 20]);
        a[length - 1] = 0;
        delete a[length - 1];
        return a;
      }
      case 14: { const o = copyInto({}, inner); o[r.pick(['€', 'x', '\ud800']).repeat(big ? 1 << 21 : 100)] = 1; return o; }
      default: return copyInto(Object.create(null), inner);
    }
  };
  // A JSON-ish value with hostile parts; `pool` holds containers for shared references/cycles.
  let nodes = 0; // values made for the current input: bounds each input's size
  const value = (depth, pool) => {
    const k = r.int(10);
    if (depth > 4 || k < 3 || ++nodes > 20000) return r.chance(0.9) ? primitive() : hostile({ a: 1 });
    if (k < 5 && pool.length) return r.pick(pool); // shared, or a cycle when it is an ancestor
    const container = r.chance(0.5) ? [] : {};
    pool.push(container);
    const count = depth < 2 && r.chance(0.05) ? n(3000) : r.int(6);
    for (let i = 0; i < count; i++) {
      const v = value(depth + 1, pool);
      if (Array.isArray(container)) container.push(v);
      else Object.defineProperty(container, r.chance(0.7) ? r.pick(strings) : `k${i}`, { value: v, writable: true, enumerable: true, configurable: true });
    }
    return r.chance(0.15) ? hostile(container) : container;
  };
  const field = (pool) => (r.chance(0.6) ? r.pick(strings) : value(1, pool));
  const action = () => {
    const pool = [];
    const o = { type: r.pick(['message', 'tool_call', 'finish', 'request_approval', field(pool)]) };
    for (const key of r.pick([['content'], ['callId', 'tool', 'input'], ['summary'], ['requestId', 'capability', 'resource', 'reason'], []])) {
      o[key] = key === 'input' ? value(1, pool) : field(pool);
    }
    if (r.chance(0.1)) o.schemaVersion = r.pick([1, 2, '1', field(pool)]);
    if (r.chance(0.1)) o.self = o;
    if (r.chance(0.1)) o.input = o;
    return r.chance(0.15) ? hostile(o) : o;
  };
  const toolDef = () => {
    const pool = [];
    const o = { name: r.pick(['echo', 'read_file', 'get-weather', 'ns:tool', field(pool)]), description: r.pick(['Echo.', field(pool)]),
      inputSchema: r.pick([{ type: 'object' }, { type: 'array', items: { $ref: '#' } }, { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { a: { type: 'string', format: r.pick(['email', 'regex', 'idn-hostname', 'uri-template']) } } }, value(1, pool)]),
      permissions: r.pick([['read'], ['read', 'write'], field(pool)]) };
    if (r.chance(0.2)) o.names = r.pick(['mcp', 'openai', 'gemini', field(pool)]);
    if (r.chance(0.2)) o.formats = r.pick(['assert', 'annotate', field(pool)]);
    return r.chance(0.15) ? hostile(o) : o;
  };
  const decision = () => {
    const pool = [];
    const o = r.chance(0.5) ? { kind: 'tool', calls: [{ callId: field(pool), name: field(pool), arguments: value(1, pool) }] } : { kind: 'final', answer: field(pool) };
    return r.chance(0.2) ? hostile(o) : o;
  };
  const options = () => {
    if (r.chance(0.6)) return [undefined, true];
    const pool = [];
    const o = r.pick([{ strict: true }, { maxBytes: 1 << 22 }, { maxDepth: r.pick([1, 512, 0, 1e9]) }, { maxStringBytes: 64 * MB }, { typo: 1 },
      { names: r.pick(['mcp', 'gemini', field(pool)]) }, { formats: r.pick(['assert', field(pool)]) }, value(1, pool), null]);
    const raised = o && typeof o === 'object' && (o.maxStringBytes || o.maxBytes > 4 * MB);
    return [r.chance(0.2) ? hostile(o ?? {}) : o, !raised && r.chance(0.9)];
  };
  const bytes = (n) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = r.int(256); return b; };
  const text = () => {
    const k = r.int(14);
    const docs = ['{"type":"message","content":"hi"}', '{"type":"tool_call","callId":"c","tool":"echo","input":{"a":[1,2,{"b":null}]}}',
      '{"kind":"final","answer":"x"}', '{"name":"echo","description":"d","inputSchema":{"type":"object"},"permissions":["read"]}', '[1,2,3]', '"\\ud800"'];
    switch (k) {
      case 0: return r.pick(docs);
      case 1: { const d = r.pick(docs); const i = r.int(d.length); return d.slice(0, i) + String.fromCharCode(r.int(0x10000)) + d.slice(i + 1); }
      case 2: return '['.repeat(n(5000)) + ']'.repeat(n(5000));
      case 3: return ' '.repeat(n(2 * MB)) + '1';
      case 4: return '\n'.repeat(n(20000));
      case 5: return r.pick(docs) + '\n' + r.pick(docs) + '\r\n' + r.pick(docs);
      case 6: return bytes(n(4096));
      case 7: { class Sub extends Uint8Array { get buffer() { throw new Error('b'); } get length() { throw new Error('l'); } } return new Sub(new TextEncoder().encode(r.pick(docs))); }
      case 8: return new Proxy(new TextEncoder().encode(r.pick(docs)), {});
      case 9: { const b = new Uint8Array(16); structuredClone(b.buffer, { transfer: [b.buffer] }); return b; }
      case 10: { const buffer = new ArrayBuffer(8, { maxByteLength: 64 }); const v = new Uint8Array(buffer); v.set([91, 49, 93]); buffer.resize(3); return v; }
      case 11: return `{"a":"${'\\u00e9'.repeat(n(100000))}"}`;
      case 12: return '"' + 'x'.repeat(n(MB)) + '\ud800"';
      default: return hostile({});
    }
  };
  const sse = () => {
    const events = ['data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"echo","arguments":"{}"}}]}}]}\n\n',
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n', 'data: [DONE]\n\n', ': ping\n\n', 'event: x\r\ndata: y\r\n\r\n',
      'data: {"type":"message_start","message":{"id":"m"}}\n\n'];
    const k = r.int(6);
    if (k === 0) return text();
    if (k === 1) return new TextEncoder().encode(r.pick(events).repeat(1 + n(1000)));
    if (k === 2) return ':' + 'x'.repeat(n(MB)) + '\n\n';
    return Array.from({ length: 1 + r.int(20) }, () => r.pick(events)).join('').slice(r.int(5));
  };
  // Up to a megabyte of short lines of one kind, as a string or bytes: per byte, the most frames
  // (blank lines, a garbage byte each, `[i]`) or the most replies (batch lines of invalid
  // elements, 2 bytes each), the shapes that cost a decoder most per MB.
  const lineFlood = () => {
    const size = 1 + r.int(floodBytes - 1);
    const k = r.int(5);
    let text;
    if (k === 0) text = '\n'.repeat(size);
    else if (k === 1) text = 'x\n'.repeat(size >> 1);
    else if (k === 2) text = Array.from({ length: size >> 3 }, (_, i) => `[${i}]\n`).join('');
    else {
      const width = r.pick([2, 62, 1024, 2 + r.int(1023)]);
      const ones = ',1'.repeat(width - 1);
      text = Array.from({ length: Math.max(1, Math.floor(size / (2 * width + 10))) }, (_, i) => `[${i}${ones}]\n`).join('');
    }
    return r.chance(0.5) ? new TextEncoder().encode(text) : text;
  };
  const providerEvent = () => (r.chance(0.3) ? r.pick(['[DONE]', '{"choices":[]}', '{']) : r.chance(0.5) ? value(0, []) : { type: r.pick(['message_start', 'content_block_start', 'message_delta']), message: value(1, []), index: number(), delta: value(1, []) });
  const provider = () => r.pick(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'nope', field([])]);
  const registry = () => {
    const k = r.int(4);
    if (k === 0) return value(0, []);
    const tools = [toolDef(), toolDef()];
    const safe = api.safeCreateRegistry([{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, permissions: ['read'] }]);
    return k === 1 ? { tools } : r.chance(0.5) ? safe.value : hostile({ tools });
  };
  const policy = () => (r.chance(0.5) ? { rules: [{ effect: r.pick(['allow', 'ask', 'deny', field([])]), tool: field([]) }] } : value(0, []));
  // ACP prompt admission: params with blocks of every type, fields hostile at times.
  const prompt = () => {
    const pool = [];
    const b64 = () => r.pick(['iVBORw0KGgo=', 'AQ==', 'AB==', '', '/9j/', 'R0lGODlh', field(pool)]);
    const block = () => {
      const type = r.pick(['text', 'image', 'audio', 'resource_link', 'resource', 'video', field(pool)]);
      const o = { type, text: field(pool), data: b64(), mimeType: r.pick(['image/png', 'image/jpeg', 'image/bmp', field(pool)]) };
      if (r.chance(0.3)) Object.assign(o, { uri: field(pool), name: field(pool) });
      if (r.chance(0.3)) o.resource = r.pick([{ uri: field(pool), text: field(pool) }, { uri: 'file:///a', blob: b64() }, value(1, pool)]);
      return r.chance(0.1) ? hostile(o) : o;
    };
    const o = { sessionId: r.pick(['s', field(pool)]), prompt: r.chance(0.9) ? Array.from({ length: r.int(6) }, block) : value(1, pool) };
    if (r.chance(0.05)) o.prompt.push(o);
    return r.chance(0.1) ? hostile(o) : o;
  };
  const capabilities = () => r.pick([{ image: true, audio: true, embeddedContext: true }, { image: true }, null, value(0, [])]);
  const fresh = () => { nodes = 0; big = r.chance(0.02); };
  return { fresh, value: () => value(0, []), action, toolDef, decision, options, text, sse, lineFlood, providerEvent, provider, registry, policy, str, prompt, capabilities };
}

// Every public function: how to call it with generated arguments. `kind` says how its outcome
// is checked: throws (ContractError or a value), safe (never throws), assembler, stream.
export function targets(m, r) {
  const t = (name, args) => ({ name, args });
  return [
    t('parseAgentAction', () => [m.action()]), t('safeParseAgentAction', () => [m.action()]),
    t('parseAgentActionJson', () => [m.text()]), t('safeParseAgentActionJson', () => [m.text()]),
    t('parseAgentActions', () => [[m.action(), m.action(), m.value()]]), t('parseAgentActionsJsonl', () => [m.text()]),
    t('previewAction', () => [m.action()]), t('defineTool', () => [m.toolDef()]), t('safeDefineTool', () => [m.toolDef()]),
    t('defineToolJson', () => [m.text()]), t('safeDefineToolJson', () => [m.text()]),
    t('parseJson', () => [m.text()]), t('safeParseJson', () => [m.text()]),
    t('parseDecision', () => [m.decision()]), t('safeParseDecision', () => [m.decision()]),
    t('parseDecisionJson', () => [m.text()]), t('safeParseDecisionJson', () => [m.text()]),
    t('validateToolInput', () => [m.toolDef(), m.value()]), t('safeValidateToolInput', () => [m.toolDef(), m.value()]),
    t('validateToolInputJson', () => [m.toolDef(), m.text()]), t('safeValidateToolInputJson', () => [m.toolDef(), m.text()]),
    // Compiled tools: the batch, the tool as plain data or as defined (the handle).
    t('validateToolInputs', () => {
      const def = m.toolDef();
      let defined = { ok: false };
      try {
        if (r.chance(0.5)) defined = api.safeDefineTool(def);
      } catch (_) { /* the call under test is validateToolInputs */ }
      return [defined.ok ? defined.value : def, [m.value(), m.value()]];
    }),
    t('createRegistry', () => [[m.toolDef(), m.toolDef()]]), t('safeCreateRegistry', () => [[m.toolDef(), m.value()]]),
    t('catalog', () => [m.registry()]), t('definePolicy', () => [m.policy()]), t('safeDefinePolicy', () => [m.policy()]),
    t('checkToolCall', () => [m.registry(), m.action(), m.policy()]), t('safeCheckToolCall', () => [m.registry(), m.action(), m.policy()]),
    t('toOpenAITools', () => [m.registry()]), t('toAnthropicTools', () => [m.registry()]), t('toMcpTools', () => [m.registry()]),
    t('normalizeToolResult', () => [m.toolDef(), m.value()]), t('strictSchemaIssues', () => [m.value()]),
    t('compareContracts', () => [m.toolDef(), m.toolDef()]), t('diffCatalogs', () => [[m.toolDef()], m.value()]),
    t('assembleProviderStream', () => [m.provider(), m.sse()]), t('safeAssembleProviderStream', () => [m.provider(), [m.providerEvent(), m.providerEvent()]]),
    t('createAssembler', () => []), t('createProviderAssembler', () => [m.provider()]), t('providerResponseStream', () => [m.provider()]),
    // Messages and sessions (seed 004)
    t('parseAgentMessage', () => [m.value()]), t('safeParseAgentMessage', () => [m.action()]),
    t('parseAgentMessageJson', () => [m.text()]), t('safeParseAgentMessageJson', () => [m.text()]),
    t('parseToolResult', () => [m.value()]), t('safeParseToolResult', () => [m.value()]),
    t('parseSessionEntry', () => [m.value()]), t('safeParseSessionEntry', () => [m.value()]),
    t('checkSession', () => [m.text()]), t('readSession', () => [m.text()]), t('safeReadSession', () => [m.text()]),
    t('querySession', () => [m.text(), m.value()]), t('fromSeedTool', () => [m.toolDef(), m.value()]), t('toSeedTool', () => [m.toolDef()]),
    t('createSessionChecker', () => []),
    // ACP prompt admission and lifecycle:
    t('admitPrompt', () => [m.prompt(), m.capabilities()]), t('safeAdmitPrompt', () => [m.prompt(), m.capabilities()]),
    t('isCanonicalBase64', () => [m.text()]), t('sniffMediaType', () => [m.text()]),
    t('advertisePromptCapabilities', () => [m.value()]), t('createPromptLifecycle', () => []),
    // JSON-RPC over NDJSON
    t('classifyJsonRpc', () => [m.value()]), t('classifyJsonRpcJson', () => [m.text()]),
    t('methodNotFound', () => [m.value()]), t('internalError', () => [m.value(), m.value()]),
    t('invalidParams', () => [m.value(), m.value()]), t('checkStdoutPurity', () => [r.chance(0.01) ? m.lineFlood() : r.chance(0.5) ? m.sse() : [m.sse(), m.text(), m.value()]]),
    t('ndjsonFrames', () => [r.chance(0.01) ? m.lineFlood() : r.chance(0.2) ? m.value() : [m.sse(), m.text(), m.sse()]]),
    t('createNdjsonDecoder', () => []), t('createRpcSession', () => []),
    // Gemini projection
    t('toGeminiTools', () => [m.registry()]), t('geminiSchemaIssues', () => [m.value()]),
    // Agent events and the session response
    t('parseAgentEvent', () => [m.value()]), t('safeParseAgentEvent', () => [m.value()]),
    t('checkEventSequence', () => [[m.value(), m.value(), m.value()]]), t('safeCheckEventSequence', () => [m.value()]),
    t('checkSessionResponse', () => [m.value()]), t('safeCheckSessionResponse', () => [m.value()]),
    t('protocolSchemas', () => []),
    // Dataset rows
    t('checkChatRow', () => [r.chance(0.5) ? m.value() : m.text()]), t('checkChatRows', () => [[m.value(), m.text(), m.value()]]),
    t('checkChatRowsJsonl', () => [m.text()]),
  ];
}

// A rough byte count of what a call was given: texts by their length, values by a bounded,
// trap-free walk (Proxies and getters are not entered).
// `budget.longest`, when given, is set to the most UTF-8 bytes of one string or key seen.
function sizeOf(v, seen = new Set(), budget = { n: 200000 }) {
  if (typeof v === 'string') return longest(budget, v);
  if (v === null || typeof v !== 'object' || isProxyLike(v) || seen.has(v) || budget.n-- <= 0) return 8;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  seen.add(v);
  let n = 8;
  try {
    for (const key of Reflect.ownKeys(v)) {
      const d = Reflect.getOwnPropertyDescriptor(v, key);
      n += (typeof key === 'string' ? longest(budget, key) : 8) + (d && 'value' in d ? sizeOf(d.value, seen, budget) : 8);
    }
  } catch (_) { /* a hostile object: counted as what was measured */ }
  return n;
}
function longest(budget, s) {
  if (budget.longest !== undefined && s.length * 3 > budget.longest) {
    budget.longest = Math.max(budget.longest, Buffer.byteLength(s));
  }
  return s.length;
}
const proxies = new WeakSet();
const isProxyLike = (v) => proxies.has(v);
const RealProxy = Proxy;
// Proxies made by the generators are remembered so the size walk never runs their traps.
globalThis.Proxy = new RealProxy(RealProxy, {
  construct(target, args) { const p = Reflect.construct(target, args); proxies.add(p); return p; },
  get(target, key) {
    if (key === 'revocable') return (t, h) => { const r = RealProxy.revocable(t, h); proxies.add(r.proxy); return r; };
    return target[key];
  },
});

// Arguments the core reads as program data, under the ceilings rather than the call's limits
// (docs/decisions.md: a tool handed back, registries, policies, schemas given for their issues):
// a call whose program data is over the default limits (a string over 1 MiB of UTF-8, or over
// 4 MiB measured) is a call with raised limits, which may renew the instance.
const PROGRAM_DATA = {
  validateToolInput: [0], safeValidateToolInput: [0], validateToolInputJson: [0], safeValidateToolInputJson: [0],
  validateToolInputs: [0], createRegistry: [0], safeCreateRegistry: [0], catalog: [0], definePolicy: [0],
  safeDefinePolicy: [0], checkToolCall: [0, 2], safeCheckToolCall: [0, 2], toOpenAITools: [0],
  toAnthropicTools: [0], toMcpTools: [0], toGeminiTools: [0], normalizeToolResult: [0],
  strictSchemaIssues: [0], geminiSchemaIssues: [0], compareContracts: [0, 1], diffCatalogs: [0, 1],
  fromSeedTool: [0], toSeedTool: [0],
};
const overDefaults = (value) => {
  const budget = { n: 200000, longest: 0 };
  return sizeOf(value, new Set(), budget) > 4 * MB || budget.longest > MB;
};

const PROGRAMMER_ERRORS = [/^this object was freed$/];
// Functions that take no options argument.
const NO_OPTIONS = new Set(['isCanonicalBase64', 'sniffMediaType', 'advertisePromptCapabilities', 'geminiSchemaIssues']);
const LIFECYCLE_CALLS = ['admitted', 'written', 'enqueue', 'cancel', 'agentIdle', 'outputDelivered', 'settle', 'abandon'];

// `onGrow` sees each call after which the instance's memory was larger than ever before: the
// calls to look at when the memory ends near its bound.
// floodBytes: the largest line flood (1 MB in long runs; the short test keeps them smaller: the
// worst take 0.5-0.9 s per MB on an idle machine, and a shared CI machine would flag them at random).
export async function run({ inputs = 1000, seconds = Infinity, seed = 1, log = () => {}, onGrow = () => {}, floodBytes = 1e6 } = {}) {
  const r = rng(seed);
  const m = makers(r, floodBytes);
  const list = targets(m, r);
  const stats = new Map(list.map((x) => [x.name, { calls: 0, perMB: [], worstPerMB: 0, slowest: 0 }]));
  const report = { seed, inputs: 0, escapes: [], slowCalls: [], memoryOverBound: [], maxMemoryBytes: 0, maxMemoryAtDefaultsBytes: 0, maxMemoryAtDefaultsOver1MBBytes: 0, maxMiBPerMBPastTheFirst: { value: 0 }, stats };
  const started = performance.now();
  // What a call left the instance it ran in at, before any renewal: memoryReport().lastCallBytes.
  // The crossings of one API call (or one method) all run in one instance, whose memory never
  // shrinks, so the last is the most. A small call first sets it to the current instance's, so
  // a call that never reached the core reports that rather than the previous call's.
  const check = (name, index, call, defaults, size) => {
    api.parseJson('0');
    const t0 = performance.now();
    let outcome;
    try {
      outcome = call();
    } catch (e) {
      if (!(e instanceof api.ContractError) && !PROGRAMMER_ERRORS.some((p) => p.test(String(e?.message)))) {
        report.escapes.push({ name, index, error: String(e?.stack ?? e).slice(0, 500) });
      }
    }
    const ms = performance.now() - t0;
    if (name.startsWith('safe') && outcome && !(outcome.ok === true || (outcome.ok === false && outcome.error instanceof api.ContractError))) {
      report.escapes.push({ name, index, error: 'safe twin returned ' + String(outcome) });
    }
    const s = stats.get(name) ?? stats.get(name.split('.')[0]);
    s.calls++;
    if (ms > s.slowest) s.slowest = ms;
    if (size >= 16 * 1024) {
      const perMB = ms / (size / MB);
      s.perMB.push(perMB);
      if (perMB > s.worstPerMB) s.worstPerMB = perMB;
    }
    if (ms > 1000 && size <= MB) report.slowCalls.push({ name, index, ms: Math.round(ms), size });
    const mem = api.memoryReport();
    if (mem.bytes > report.maxMemoryBytes) {
      report.maxMemoryBytes = mem.bytes;
      onGrow({ name, index, defaults, size, bytes: mem.bytes, ms });
    }
    // The bound (docs/decisions.md, "The memory bound"): at the default limits, an input of at
    // most 1 MB leaves every instance its API calls ran in under 64 MiB (read before any
    // renewal); a larger one under 64 MiB plus 48 MiB per MB past the first.
    const peak = api.memoryReport().lastCallBytes;
    if (defaults) {
      if (peak > memoryBoundFor(size)) report.memoryOverBound.push({ name, index, size, peakBytes: peak });
      if (size <= MB) {
        if (peak > report.maxMemoryAtDefaultsBytes) report.maxMemoryAtDefaultsBytes = peak;
      } else {
        if (peak > report.maxMemoryAtDefaultsOver1MBBytes) report.maxMemoryAtDefaultsOver1MBBytes = peak;
        const perMB = Math.max(0, peak - MEMORY_BOUND) / ((size - MB) / MB) / MB;
        if (perMB > report.maxMiBPerMBPastTheFirst.value) report.maxMiBPerMBPastTheFirst = { value: perMB, name, size, peakBytes: peak };
      }
    }
    return outcome;
  };
  for (let i = 0; i < inputs && (performance.now() - started) / 1000 < seconds; i++) {
    report.inputs++;
    const target = list[i % list.length];
    m.fresh();
    let args, options, defaults, size;
    try {
      args = target.args();
      [options, defaults] = m.options();
      size = args.reduce((n, a) => n + sizeOf(a), 0);
      if (defaults && PROGRAM_DATA[target.name]?.some((i) => overDefaults(args[i]))) defaults = false;
    } catch (e) {
      // The generator's own hostile parts can throw while it builds an input: not a finding.
      report.generatorFaults = (report.generatorFaults ?? 0) + 1;
      continue;
    }
    if (target.name === 'createSessionChecker') {
      const checker = check(target.name, i, () => api.createSessionChecker(options), defaults, size);
      if (!checker) continue;
      for (let j = 0; j < 1 + r.int(6); j++) {
        const c = m.text();
        if (r.int(4) === 0) check(target.name, i, () => checker.finish(), defaults, size);
        else check(target.name, i, () => checker.push(c), defaults, sizeOf(c));
      }
      if (r.chance(0.5)) checker.free();
      if (r.chance(0.1)) check(target.name, i, () => checker.push(''), defaults, size); // after free: a programmer error
    } else if (target.name === 'createAssembler' || target.name === 'createProviderAssembler') {
      const assembler = check(target.name, i, () => api[target.name](...args, options), defaults, size);
      if (!assembler) continue;
      for (let j = 0; j < 1 + r.int(6); j++) {
        const k = r.int(4);
        if (k === 0) check(target.name, i, () => assembler.push(m.providerEvent()), defaults, size);
        else if (k === 1 && assembler.pushSse) { const c = m.sse(); check(target.name, i, () => assembler.pushSse(c), defaults, sizeOf(c)); }
        else if (k === 2) check(target.name, i, () => assembler.preview(), defaults, size);
        else check(target.name, i, () => assembler.finish(), defaults, size);
      }
      if (r.chance(0.5)) assembler.free();
      if (r.chance(0.1)) check(target.name, i, () => assembler.push({}), defaults, size); // after free: a programmer error
    } else if (target.name === 'createPromptLifecycle') {
      const lifecycle = check(target.name, i, () => api.createPromptLifecycle(), defaults, size);
      if (!lifecycle) continue;
      for (let j = 0; j < 1 + r.int(12); j++) {
        const call = r.pick(LIFECYCLE_CALLS);
        const arg = call === 'settle' && r.chance(0.5) ? m.value() : undefined;
        check(target.name, i, () => lifecycle[call](arg), defaults, size);
      }
      lifecycle.free();
      if (r.chance(0.1)) check(target.name, i, () => lifecycle.cancel(), defaults, size); // after free: a programmer error
    } else if (target.name === 'createNdjsonDecoder' || target.name === 'createRpcSession') {
      const object = check(target.name, i, () => api[target.name](options), defaults, size);
      if (!object) continue;
      for (let j = 0; j < 1 + r.int(6); j++) {
        if (target.name === 'createNdjsonDecoder') {
          const c = r.chance(0.01) ? m.lineFlood() : r.chance(0.5) ? m.sse() : m.text();
          check(target.name, i, () => (r.chance(0.8) ? object.push(c) : object.end()), defaults, sizeOf(c));
        } else {
          const v = m.value();
          check(target.name, i, () => (r.chance(0.5) ? object.incoming(v) : object.outgoing(v)), defaults, sizeOf(v));
        }
      }
      if (r.chance(0.5)) object.free();
      if (r.chance(0.1)) check(target.name, i, () => (object.push ? object.push('x') : object.incoming({})), defaults, size);
    } else if (target.name === 'ndjsonFrames') {
      check(target.name, i, () => [...api.ndjsonFrames(...args, options)], defaults, size);
    } else if (target.name === 'providerResponseStream') {
      const stream = check(target.name, i, () => api.providerResponseStream(...args, options), defaults, size);
      if (!stream) continue;
      const chunks = [m.sse(), m.sse()];
      const t0 = performance.now();
      try {
        const writer = stream.writable.getWriter();
        const reading = stream.readable.getReader().read();
        for (const c of chunks) await writer.write(c).catch(() => {});
        await writer.close().catch(() => {});
        await reading;
      } catch (e) {
        if (!(e instanceof api.ContractError)) report.escapes.push({ name: target.name, index: i, error: String(e?.stack ?? e).slice(0, 500) });
      }
      const ms = performance.now() - t0;
      const s = stats.get(target.name);
      s.calls++;
      if (ms > s.slowest) s.slowest = ms;
    } else {
      check(target.name, i, () => api[target.name](...args, ...(target.name === 'catalog' || target.name.includes('Policy') || target.name.startsWith('to') || target.name === 'strictSchemaIssues' || target.name === 'compareContracts' || target.name === 'diffCatalogs' || target.name === 'methodNotFound' || target.name === 'internalError' || target.name === 'invalidParams' || NO_OPTIONS.has(target.name) ? [] : [options])), defaults, size);
    }
    if (i % 1000 === 999) log(report);
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

export function summary(report) {
  const rows = [...report.stats].map(([name, s]) => {
    const sorted = [...s.perMB].sort((a, b) => a - b);
    const typical = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
    return { name, calls: s.calls, typicalMsPerMB: +typical.toFixed(1), worstMsPerMB: +s.worstPerMB.toFixed(1), slowestMs: +s.slowest.toFixed(1) };
  });
  return {
    seed: report.seed, inputs: report.inputs, seconds: +report.seconds.toFixed(1), escapes: report.escapes.length,
    callsOver1sAtMost1MB: report.slowCalls.length, memoryOverBoundAtDefaults: report.memoryOverBound.length,
    renewals: api.memoryReport().renewals, maxMemoryMiB: +(report.maxMemoryBytes / MB).toFixed(1), maxMemoryAtDefaultsMiB: +(report.maxMemoryAtDefaultsBytes / MB).toFixed(1),
    maxMemoryAtDefaultsOver1MBMiB: +(report.maxMemoryAtDefaultsOver1MBBytes / MB).toFixed(1),
    maxMiBPerMBPastTheFirst: { ...report.maxMiBPerMBPastTheFirst, value: +report.maxMiBPerMBPastTheFirst.value.toFixed(1) }, rows,
  };
}
