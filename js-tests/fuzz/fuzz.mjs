// A fuzzer for the package's public functions with hostile JS values and texts.
// Every input is built by a seeded generator, so a failure is reproduced by its seed and index.
// The promise checked: every call returns or throws a ContractError (a safe* function never
// throws), within 1 s per MB of input (1 s for any input up to 1 MB), and a call with the default limits on an
// input of at most 1 MB leaves every instance it ran in under 64 MiB (each API call of it, a
// stateful object's methods included: `memoryReport().lastCallBytes`, see `check`). Program data
// over the default limits, which the core reads under its ceilings, makes a call one with
// raised limits (PROGRAM_DATA).
import * as api from 'agent-contract';
import * as mcp from 'agent-contract/mcp';

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
  const OPTION_KEYS = ['strict', 'maxBytes', 'maxDepth', 'maxStringBytes', 'maxArrayLength', 'maxObjectMembers', 'maxCalls', 'maxIssues',
    'names', 'formats', 'dialect', 'allowNullId', 'profile', 'maxLineBytes', 'maxBatchLength', 'onMalformed', 'maxArgumentsBytes',
    'maxResponseBytes', 'target'];
  const options = () => {
    if (r.chance(0.6)) return [undefined, true];
    const pool = [];
    const o = r.pick([{ strict: true }, { maxBytes: 1 << 22 }, { maxDepth: r.pick([1, 512, 0, 1e9]) }, { maxStringBytes: 64 * MB }, { typo: 1 },
      { names: r.pick(['mcp', 'gemini', field(pool)]) }, { formats: r.pick(['assert', field(pool)]) }, value(1, pool), null,
      // Any option the core reads, holding a value of any kind (a word option given a number
      // once reached the text encoder, whose TypeError escaped).
      { [r.pick(OPTION_KEYS)]: value(1, pool) }]);
    // Limits past the defaults void the time and memory bounds (a random option may raise one).
    const raised = o && typeof o === 'object' && (o.maxStringBytes || o.maxBytes > 4 * MB
      || Object.keys(o).some((k) => k.startsWith('max') && typeof o[k] === 'number' && k !== 'maxBytes' && k !== 'maxDepth'));
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
  // An object whose member `key` answers differently on each read: a check that reads a field
  // twice (once to decide, once to copy) sees two values.
  const lying = (o, key = r.pick(Object.keys(o).length ? Object.keys(o) : ['type'])) => {
    const first = o[key];
    const other = r.pick(['user', 'tool', 'assistant', '', null, 5, [], { a: 1 }]);
    let reads = 0;
    Object.defineProperty(o, key, { get: () => (reads++ % 2 ? other : first), enumerable: true, configurable: true });
    hidden.set(o, [...(hidden.get(o) ?? []), first]);
    return o;
  };
  const maybe = (o, p = 0.1) => (r.chance(p) ? hostile(o) : r.chance(p) ? lying(o) : o);
  // A schema whose parts are shared: one list (or subschema) referenced from many members, so
  // that a walk that copies or converts per reference does references × width work on an input
  // a walk that counts each container once measures as small.
  const sharedSchema = (large = big) => {
    const width = large ? 1000 : 1 + r.int(20), refs = large ? 1000 : 1 + r.int(20);
    const list = Array.from({ length: width }, (_, i) => (r.chance(0.5) ? i : `v${i}`));
    const sub = r.pick([{ enum: list }, { type: 'string', examples: list }, { type: 'array', items: { enum: list } }, { anyOf: [{ enum: list }, { type: 'null' }] }]);
    const properties = {};
    for (let i = 0; i < refs; i++) properties[`p${i}`] = sub;
    return { type: 'object', properties, ...(r.chance(0.3) ? { $defs: { shared: sub }, required: ['p0'] } : {}) };
  };
  const schema = () => r.pick([
    () => ({ type: 'object', properties: { path: { type: 'string', minLength: 1 }, mode: { enum: ['r', 'w'] } }, required: ['path'] }),
    () => ({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }),
    () => ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { a: { type: 'string' } }, properties: { a: { $ref: '#/definitions/a' } } }),
    () => ({ $defs: { n: { type: 'integer' } }, $ref: '#/$defs/n', minimum: 0 }),
    () => ({ type: 'object', dependentRequired: { a: ['b'] }, dependentSchemas: { c: { required: ['d'] } } }),
    () => ({ type: 'array', items: { $ref: '#' } }),
    sharedSchema, () => value(0, []),
  ])();
  const target = () => r.pick(['draft-07', 'draft-2020-12', 'draft-2019-09', 'draft-04', 'openapi-3.0', '', field([])]);
  // Argument texts of a row's tool call: JSON, broken JSON, deep nesting, or a huge string.
  // A large row is either long (thousands of messages) or holds one huge argument text, not
  // both: thousands of megabyte strings would be gigabytes for the generator alone.
  let longRow = false;
  const argumentsText = () => {
    const k = r.int(8);
    if (k === 0) return '{"a":"' + 'x'.repeat(longRow ? r.int(64) : big ? MB + r.int(64) : n(1 << 16)) + '"}';
    if (k === 1) return '['.repeat(n(5000)) + ']'.repeat(n(5000));
    if (k === 2) return r.pick(['{', '', 'null', '{"a":1,"a":2}', '"\ud800"', '{"a":"x"} trailing']);
    if (k === 3) return value(1, []);
    return JSON.stringify({ a: r.pick(['x', 1, null, [1, 2]]), location: 'Paris', format: r.pick(['celsius', 'kelvin']) });
  };
  const rowTool = (pool) => maybe({
    type: r.pick(['function', 'function', 'code_interpreter', field(pool)]),
    function: maybe({
      name: r.pick(['get_current_weather', 'echo', 'bad name', 'x'.repeat(65), field(pool)]), description: 'd',
      parameters: r.chance(0.3) ? sharedSchema() : r.pick([{ type: 'object', properties: { a: { type: 'string' }, location: { type: 'string' } }, required: ['location'] }, { type: 'object' }, value(1, pool)]),
    }),
  });
  const rowMessage = (pool) => {
    const role = r.pick(['system', 'developer', 'user', 'assistant', 'assistant', 'tool', field(pool)]);
    const o = { role };
    if (role === 'assistant' && r.chance(0.6)) {
      o.tool_calls = Array.from({ length: 1 + r.int(3) }, () => maybe({
        id: r.pick(['c1', 'c2', field(pool)]), type: 'function',
        function: maybe({ name: r.pick(['get_current_weather', 'echo', field(pool)]), arguments: argumentsText() }),
      }));
      if (r.chance(0.3)) o.content = r.pick([null, 'ok']);
    } else if (role === 'tool') {
      o.tool_call_id = r.pick(['c1', 'c2', field(pool)]);
      o.content = r.chance(0.7) ? str() : [{ type: 'text', text: str() }];
    } else {
      o.content = r.chance(0.7) ? str() : r.pick([[{ type: 'text', text: str() }], [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }], value(1, pool)]);
    }
    if (r.chance(0.1)) o.weight = r.pick([0, 1, 2, field(pool)]);
    if (r.chance(0.05)) o.name = field(pool);
    return maybe(o, 0.07);
  };
  // A row of the OpenAI chat fine-tuning format, with hostile messages, calls and tools.
  const chatRow = () => {
    const pool = [];
    longRow = big && r.chance(0.5);
    const messages = Array.from({ length: longRow ? n(3000) : r.int(8) }, () => rowMessage(pool));
    longRow = false;
    const row = { messages: r.chance(0.95) ? messages : value(1, pool) };
    if (r.chance(0.7)) row.tools = r.chance(0.95) ? Array.from({ length: 1 + r.int(3) }, () => rowTool(pool)) : value(1, pool);
    if (r.chance(0.2)) row.parallel_tool_calls = r.pick([true, false, field(pool)]);
    if (r.chance(0.03)) messages.push(row); // a cycle
    return maybe(row);
  };
  // JSON Lines of rows (plain data: the text is what a dataset file holds), mutated at times.
  const rowsText = () => {
    const line = () => {
      const args = JSON.stringify({ location: 'Paris', format: r.pick(['celsius', 'kelvin']) });
      const row = {
        messages: [{ role: 'user', content: 'Weather?' },
          { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: r.pick(['get_current_weather', 'other']), arguments: r.chance(0.05) ? '"' + 'x'.repeat(n(1 << 16)) : args } }] },
          { role: 'tool', tool_call_id: r.pick(['c1', 'c2']), content: '18' }, { role: 'assistant', content: 'Foggy.' }],
        tools: [{ type: 'function', function: { name: 'get_current_weather', description: 'd', parameters: r.chance(0.2) ? sharedSchema(false) : { type: 'object', properties: { location: { type: 'string' }, format: { enum: ['celsius', 'fahrenheit'] } }, required: ['location'] } } }],
      };
      let t = JSON.stringify(row);
      if (r.chance(0.1)) { const i = r.int(t.length); t = t.slice(0, i) + r.pick(['', '"', '\ud800', '\u0000', '}']) + t.slice(i + 1); }
      return t;
    };
    const text = Array.from({ length: r.int(big ? 2000 : 6) }, line).join(r.pick(['\n', '\r\n', '\n\n'])) + (r.chance(0.5) ? '\n' : '');
    const k = r.int(10);
    if (k === 0) return text + '\n' + text.slice(r.int(text.length));
    if (k === 1) return new TextEncoder().encode(text);
    if (k === 2) return text();
    return text;
  };
  // MCP messages: a tools/list answer, tools/call params and results, with hostile parts.
  const outputSchemas = [{ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, { type: 'object', properties: { s: { type: 'string', format: 'email' } } }];
  const mcpTool = (pool) => {
    const o = { name: r.pick(['get_weather', 'echo', 'a.b-c', 'x'.repeat(129), field(pool)]),
      inputSchema: r.pick([{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object' }, sharedSchema(), value(1, pool)]) };
    if (r.chance(0.5)) o.description = field(pool);
    if (r.chance(0.2)) o.title = field(pool);
    if (r.chance(0.5)) o.annotations = maybe({ readOnlyHint: r.pick([true, false, 'yes']), openWorldHint: r.pick([false, true, undefined]) });
    if (r.chance(0.5)) o.outputSchema = r.pick([...outputSchemas, sharedSchema(), null, value(1, pool)]);
    return maybe(o);
  };
  const mcpToolsList = () => {
    const pool = [];
    const tools = Array.from({ length: 1 + r.int(3) }, () => mcpTool(pool));
    const k = r.int(10);
    return maybe(k < 7 ? { tools } : k < 9 ? tools : value(0, pool));
  };
  const mcpParams = () => {
    const pool = [];
    const o = { name: r.pick(['get_weather', 'echo', 'nope', field(pool)]) };
    if (r.chance(0.9)) o.arguments = r.pick([{ a: 'x' }, { a: 1 }, {}, value(1, pool)]);
    return maybe(o, 0.15);
  };
  const mcpResult = () => {
    const pool = [];
    const structured = r.pick([{ n: 1 }, { n: 'x' }, { s: 'a@b.c' }, { s: 'not an email' }, value(1, pool)]);
    const content = [
      { type: 'text', text: r.pick(['{"n":1}', ' {"n":2}', '{', '{"s":"a@b.c"}', '{"n":1,"n":1}', 'plain', field(pool)]) },
      { type: r.pick(['image', 'text']), data: 'AQ==', mimeType: 'image/png', text: field(pool) },
    ];
    // Throwing getters on the content items, or items that are Proxies.
    if (r.chance(0.2)) Object.defineProperty(content[r.int(2)], r.pick(['type', 'text']), { get: throwing, enumerable: true });
    if (r.chance(0.1)) content[r.int(2)] = hostile(content[0]);
    const o = { content: r.chance(0.9) ? content : value(1, pool) };
    if (r.chance(0.85)) o.structuredContent = r.chance(0.2) ? hostile(structured) : structured;
    if (r.chance(0.3)) o.isError = r.pick([true, false, 'true', field(pool)]);
    return maybe(o, 0.1);
  };
  // A session file (seed format), whole or cut.
  const SESSION = ['{"type":"session","version":1,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}',
    '{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}',
    '{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{}}],"stopReason":"toolUse","usage":{"input":1,"output":1,"totalTokens":2},"timestamp":2}}',
    '{"type":"message","id":"c","parentId":"b","timestamp":"2025-01-01T00:00:01Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":3}}',
    '{"type":"message","id":"d","parentId":"a","timestamp":"2025-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"text","text":"again"}],"timestamp":4}}'];
  const sessionText = () => (r.chance(0.8) ? SESSION.slice(0, 1 + r.int(SESSION.length)).join('\n') + (r.chance(0.5) ? '\n' : '') : text());
  // An argument for a method of a result (a session's query, a Standard Schema's validate, an
  // MCP validator): ids the session holds, schemas, values, texts, or nothing.
  const argument = () => r.pick([
    () => r.pick(['a', 'b', 'c', 'd', 's1', 'zz']), () => value(0, []), () => text(), schema, () => ({ target: target() }),
    () => r.pick([{ n: 1 }, { a: 'x' }, { path: 'p' }]), () => undefined, () => hostile({ target: 'draft-07' }),
  ])();
  const fresh = () => { nodes = 0; big = r.chance(0.02); };
  const m = { fresh, value: () => value(0, []), action, toolDef, decision, options, text, sse, lineFlood, providerEvent, provider, registry, policy, str, prompt, capabilities,
    schema, target, chatRow, rowsText, mcpToolsList, mcpParams, mcpResult, sessionText, argument, outputSchemas };
  return m;
}

// Every public function: how to call it with generated arguments. `fn` is the function when it
// is not the package's own (the MCP module's); `options: false` when it takes no options
// argument. A safe twin must never throw; the stateful objects have drivers of their own in
// `run`; any other result's methods (a session's queries, a Standard Schema's validate, an MCP
// validator) are called by `exercise`.
export function targets(m, r) {
  const t = (name, args, extra = {}) => ({ name, args, ...extra });
  const bare = { options: false };
  // A registry fromMcpTools made (its tools carry the MCP module's mark), or any value.
  const mcpRegistry = () => {
    try {
      return mcp.fromMcpTools({ tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, outputSchema: r.pick(m.outputSchemas) }, { name: 'echo', inputSchema: { type: 'object' } }] });
    } catch (_) {
      return undefined;
    }
  };
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
    t('checkSession', () => [m.sessionText()]), t('readSession', () => [m.sessionText()]), t('safeReadSession', () => [m.sessionText()]),
    t('querySession', () => [m.sessionText(), r.chance(0.5) ? { [r.pick(['branch', 'children', 'context'])]: r.pick(['a', 'b', 'c', m.value()]) } : m.value()]), t('fromSeedTool', () => [m.toolDef(), m.value()]), t('toSeedTool', () => [m.toolDef()]),
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
    t('checkChatRow', () => [r.chance(0.7) ? m.chatRow() : r.chance(0.5) ? m.value() : m.rowsText()]),
    t('checkChatRows', () => [r.chance(0.9) ? [m.chatRow(), m.chatRow(), r.chance(0.5) ? m.value() : m.rowsText()] : m.value()]),
    t('checkChatRowsJsonl', () => [m.rowsText()]),
    // Projections and schemas for other drafts; the Standard Schema object of a tool.
    t('toOpenAIResponsesTools', () => [m.registry()]),
    t('jsonSchemaForTarget', () => [m.schema(), m.target()], bare), t('standardJsonSchema', () => [m.schema(), m.target()], bare),
    t('toStandardSchema', () => [r.chance(0.8) ? m.toolDef() : { name: 'echo', description: 'd', inputSchema: m.schema(), outputSchema: r.pick(m.outputSchemas), permissions: ['read'] }]),
    // Loading (a no-op once loaded, whatever it is given) and the memory report.
    t('init', () => [r.chance(0.5) ? m.value() : m.text()], bare), t('initSync', () => [r.chance(0.5) ? m.value() : m.text()], bare),
    t('memoryReport', () => [], bare),
    t('ndjsonFramesAsync', () => [r.chance(0.01) ? m.lineFlood() : r.chance(0.2) ? m.value() : [m.sse(), m.text(), m.sse()]]),
    // The MCP module ('agent-contract/mcp').
    t('createMcpValidator', () => [r.pick([undefined, { role: 'client' }, { role: 'server' }, { role: 'any' }, null, m.value()])], { fn: mcp.createMcpValidator, ...bare }),
    t('jsonSchemaValidator', () => [], { fn: () => mcp.jsonSchemaValidator, ...bare }),
    t('mcpToolDefinitions', () => [m.mcpToolsList()], bare),
    t('fromMcpTools', () => [m.mcpToolsList(), r.chance(0.7) ? undefined : m.options()[0]], { fn: mcp.fromMcpTools, ...bare }),
    t('checkMcpToolCall', () => [r.chance(0.8) ? mcpRegistry() : m.registry(), m.mcpParams(), r.chance(0.7) ? undefined : m.policy()], { fn: mcp.checkMcpToolCall, ...bare }),
    t('checkMcpToolResult', () => {
      const registry = r.chance(0.7) ? mcpRegistry() : undefined;
      const tool = registry ? r.pick(registry.tools) : r.chance(0.5) ? { name: 'x', outputSchema: r.pick([...m.outputSchemas, m.schema()]) } : m.value();
      return [tool, m.mcpResult()];
    }, { fn: mcp.checkMcpToolResult, ...bare }),
  ];
}

// A rough byte count of what a call was given: texts by their length, values by a bounded,
// trap-free walk (Proxies and getters are not entered). A container referenced from several
// places counts each time, as the core reads it (1,000 references to one 1,000-element list
// are a million elements to read), each container walked once (`memo`), a cycle cut at its
// ancestor (`stack`).
// `budget.longest`, when given, is set to the most UTF-8 bytes of one string or key seen.
function sizeOf(v, memo = new Map(), budget = { n: 200000 }, stack = new Set()) {
  if (typeof v === 'string') return longest(budget, v);
  if (v === null || typeof v !== 'object' || stack.has(v)) return 8;
  if (isProxyLike(v)) return sizeOf(proxies.get(v), memo, budget, stack);
  const known = memo.get(v);
  if (known !== undefined) return known;
  if (budget.n-- <= 0) return 8;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  stack.add(v);
  let n = 8;
  try {
    for (const key of Reflect.ownKeys(v)) {
      const d = Reflect.getOwnPropertyDescriptor(v, key);
      n += (typeof key === 'string' ? longest(budget, key) : 8) + (d && 'value' in d ? sizeOf(d.value, memo, budget, stack) : 8);
    }
  } catch (_) { /* a hostile object: counted as what was measured */ }
  for (const value of hidden.get(v) ?? []) n += sizeOf(value, memo, budget, stack);
  stack.delete(v);
  memo.set(v, n);
  return n;
}
function longest(budget, s) {
  if (budget.longest !== undefined && s.length * 3 > budget.longest) {
    budget.longest = Math.max(budget.longest, Buffer.byteLength(s));
  }
  return s.length;
}
// Proxy → its target: the size walk measures a Proxy by its target (what the core reads through
// a pass-through trap), never running a trap.
const proxies = new WeakMap();
const isProxyLike = (v) => proxies.has(v);
// Object → the values its lying getters answer (`lying` in makers), measured with it.
const hidden = new WeakMap();
const RealProxy = Proxy;
// Proxies made by the generators are remembered so the size walk never runs their traps.
globalThis.Proxy = new RealProxy(RealProxy, {
  construct(target, args) { const p = Reflect.construct(target, args); proxies.set(p, args[0]); return p; },
  get(target, key) {
    if (key === 'revocable') return (t, h) => { const r = RealProxy.revocable(t, h); proxies.set(r.proxy, t); return r; };
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
  fromSeedTool: [0], toSeedTool: [0], toOpenAIResponsesTools: [0], jsonSchemaForTarget: [0], standardJsonSchema: [0],
  toStandardSchema: [0], fromMcpTools: [0], checkMcpToolCall: [0, 2], checkMcpToolResult: [0],
};
const overDefaults = (value) => {
  const budget = { n: 200000, longest: 0 };
  return sizeOf(value, new Map(), budget) > 4 * MB || budget.longest > MB;
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
  // `offered`: every method (and returned function) a result held, by label
  // (`readSession.branch`, `createMcpValidator.getValidator()`); `called`: every label called.
  const report = { seed, inputs: 0, escapes: [], slowCalls: [], memoryOverBound: [], maxMemoryBytes: 0, maxMemoryAtDefaultsBytes: 0, maxMemoryAtDefaultsOver1MBBytes: 0, maxMiBPerMBPastTheFirst: { value: 0 }, stats,
    offered: new Set(), called: new Set(), stalls: 0 };
  const started = performance.now();
  // What a call left the instance it ran in at, before any renewal: memoryReport().lastCallBytes.
  // The crossings of one API call (or one method) all run in one instance, whose memory never
  // shrinks, so the last is the most. A small call first sets it to the current instance's, so
  // a call that never reached the core reports that rather than the previous call's.
  const escaped = (name, index, e) => {
    if (!(e instanceof api.ContractError) && !PROGRAMMER_ERRORS.some((p) => p.test(String(e?.message)))) {
      report.escapes.push({ name, index, error: String(e?.stack ?? e).slice(0, 500) });
    }
  };
  const check = (name, index, call, defaults, size) => {
    api.parseJson('0');
    report.called.add(name);
    const t0 = performance.now();
    let outcome;
    const cpu0 = process.cpuUsage();
    try {
      outcome = call();
    } catch (e) {
      escaped(name, index, e);
    }
    return record(name, index, t0, outcome, defaults, size, cpu0);
  };
  // The same for a call that answers a promise (init) or an async iterator read to its end.
  const checkAsync = async (name, index, call, defaults, size) => {
    api.parseJson('0');
    report.called.add(name);
    const t0 = performance.now();
    // The fuzzer awaits one call at a time, so the process's CPU time over it is the call's.
    const cpu0 = process.cpuUsage();
    let outcome;
    try {
      outcome = await call();
    } catch (e) {
      escaped(name, index, e);
    }
    return record(name, index, t0, outcome, defaults, size, cpu0);
  };
  const record = (name, index, t0, outcome, defaults, size, cpu0) => {
    const ms = performance.now() - t0;
    const cpu = cpu0 && process.cpuUsage(cpu0);
    if (name.startsWith('safe') && !name.includes('.') && outcome && !(outcome.ok === true || (outcome.ok === false && outcome.error instanceof api.ContractError))) {
      report.escapes.push({ name, index, error: 'safe twin returned ' + String(outcome) });
    }
    const s = stats.get(name) ?? stats.get(name.split('.')[0]);
    s.calls++;
    s.totalMs = (s.totalMs ?? 0) + ms;
    if (ms > s.slowest) s.slowest = ms;
    if (size >= 16 * 1024) {
      const perMB = ms / (size / MB);
      s.perMB.push(perMB);
      if (perMB > s.worstPerMB) s.worstPerMB = perMB;
    }
    // 1 s per MB of input, and 1 s for any input up to 1 MB. A call over it in wall-clock time
    // but not in the process's CPU time waited for a core (a stall on a shared machine).
    const bound = 1000 * Math.max(1, size / MB);
    if (ms > bound) {
      const cpuMs = cpu ? (cpu.user + cpu.system) / 1000 : Infinity;
      report.slowCalls.push({ name, index, ms: Math.round(ms), cpuMs: Math.round(cpuMs), size });
      if (cpuMs <= bound) report.stalls++;
    }
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
  // Calls every method of a result (and a function it is), with generated arguments, then the
  // methods of what those return, to a depth of three calls; `free` last. A method works on
  // what the object holds (a session's text, a tool's schema): its size is that of the call
  // that made the object (`size`) plus its own arguments.
  const exercise = (label, index, outcome, defaults, size, depth = 0) => {
    if (depth > 2) return;
    const found = methodsOf(outcome, label);
    for (const { label: l } of found) report.offered.add(l);
    found.sort((a, b) => (a.label.endsWith('.free')) - (b.label.endsWith('.free')));
    for (const { label: l, fn, self } of found) {
      let args;
      try {
        args = Array.from({ length: r.int(3) }, m.argument);
      } catch (_) {
        report.generatorFaults = (report.generatorFaults ?? 0) + 1;
        continue;
      }
      const total = size + args.reduce((n, a) => n + sizeOf(a), 0);
      const out = check(l, index, () => Reflect.apply(fn, self, args), defaults, total);
      exercise(l, index, out, defaults, total, depth + 1);
    }
  };
  // The methods of a stateful object its driver calls: offered here, so that a method the
  // driver does not call shows in `uncalledMethods`.
  const offer = (label, object) => {
    for (const { label: l } of methodsOf(object, label)) report.offered.add(l);
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
      offer(target.name, checker);
      for (let j = 0; j < 1 + r.int(6); j++) {
        const c = r.chance(0.5) ? m.sessionText() : m.text();
        if (r.int(4) === 0) check(`${target.name}.finish`, i, () => checker.finish(), defaults, size);
        else check(`${target.name}.push`, i, () => checker.push(c), defaults, sizeOf(c));
      }
      if (r.chance(0.5)) check(`${target.name}.free`, i, () => checker.free(), defaults, size);
      if (r.chance(0.1)) check(`${target.name}.push`, i, () => checker.push(''), defaults, size); // after free: a programmer error
    } else if (target.name === 'createAssembler' || target.name === 'createProviderAssembler') {
      const assembler = check(target.name, i, () => api[target.name](...args, options), defaults, size);
      if (!assembler) continue;
      offer(target.name, assembler);
      for (let j = 0; j < 1 + r.int(6); j++) {
        const k = r.int(4);
        if (k === 0) { const e = m.providerEvent(); check(`${target.name}.push`, i, () => assembler.push(e), defaults, size); }
        else if (k === 1 && assembler.pushSse) { const c = m.sse(); check(`${target.name}.pushSse`, i, () => assembler.pushSse(c), defaults, sizeOf(c)); }
        else if (k === 2) check(`${target.name}.preview`, i, () => assembler.preview(), defaults, size);
        else check(`${target.name}.finish`, i, () => assembler.finish(), defaults, size);
      }
      if (r.chance(0.5)) check(`${target.name}.free`, i, () => assembler.free(), defaults, size);
      if (r.chance(0.1)) check(`${target.name}.push`, i, () => assembler.push({}), defaults, size); // after free: a programmer error
    } else if (target.name === 'createPromptLifecycle') {
      const lifecycle = check(target.name, i, () => api.createPromptLifecycle(), defaults, size);
      if (!lifecycle) continue;
      offer(target.name, lifecycle);
      for (let j = 0; j < 1 + r.int(12); j++) {
        const call = r.pick(LIFECYCLE_CALLS);
        const arg = call === 'settle' && r.chance(0.5) ? m.value() : undefined;
        check(`${target.name}.${call}`, i, () => lifecycle[call](arg), defaults, size);
      }
      check(`${target.name}.free`, i, () => lifecycle.free(), defaults, size);
      if (r.chance(0.1)) check(`${target.name}.cancel`, i, () => lifecycle.cancel(), defaults, size); // after free: a programmer error
    } else if (target.name === 'createNdjsonDecoder' || target.name === 'createRpcSession') {
      const object = check(target.name, i, () => api[target.name](options), defaults, size);
      if (!object) continue;
      offer(target.name, object);
      for (let j = 0; j < 1 + r.int(6); j++) {
        if (target.name === 'createNdjsonDecoder') {
          const c = r.chance(0.01) ? m.lineFlood() : r.chance(0.5) ? m.sse() : m.text();
          const k = r.int(10);
          if (k < 7) check(`${target.name}.push`, i, () => object.push(c), defaults, sizeOf(c));
          else if (k < 9) check(`${target.name}.end`, i, () => object.end(), defaults, size);
          else check(`${target.name}.bufferedBytes`, i, () => object.bufferedBytes(), defaults, size);
        } else {
          const v = m.value();
          const method = r.chance(0.5) ? 'incoming' : 'outgoing';
          check(`${target.name}.${method}`, i, () => object[method](v), defaults, sizeOf(v));
        }
      }
      if (r.chance(0.5)) check(`${target.name}.free`, i, () => object.free(), defaults, size);
      if (r.chance(0.1)) check(`${target.name}.${object.push ? 'push' : 'incoming'}`, i, () => (object.push ? object.push('x') : object.incoming({})), defaults, size);
    } else if (target.name === 'ndjsonFrames') {
      check(target.name, i, () => [...api.ndjsonFrames(...args, options)], defaults, size);
    } else if (target.name === 'ndjsonFramesAsync') {
      await checkAsync(target.name, i, async () => {
        const frames = [];
        for await (const frame of api.ndjsonFramesAsync(...args, options)) frames.push(frame);
        return frames;
      }, defaults, size);
    } else if (target.name === 'init') {
      await checkAsync(target.name, i, () => api.init(...args), defaults, size);
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
      const fn = target.fn ?? api[target.name];
      const takesOptions = target.options !== false && !(target.name === 'catalog' || target.name.includes('Policy') || target.name.startsWith('to') || target.name === 'strictSchemaIssues' || target.name === 'compareContracts' || target.name === 'diffCatalogs' || target.name === 'methodNotFound' || target.name === 'internalError' || target.name === 'invalidParams' || NO_OPTIONS.has(target.name));
      const outcome = check(target.name, i, () => fn(...args, ...(takesOptions ? [options] : [])), defaults, size);
      exercise(target.name, i, outcome, defaults, size);
    }
    if (i % 1000 === 999) log(report);
  }
  report.seconds = (performance.now() - started) / 1000;
  report.uncalledMethods = [...report.offered].filter((label) => !report.called.has(label)).sort();
  return report;
}

// The functions and methods a result holds, each with the object to call it on and its label:
// a returned function (`label()`), own members that are functions, the methods of a class
// instance's prototypes (short of the built-in ones), and those of plain objects it holds, two
// levels down. Arrays, typed arrays, errors and streams are data, not API. Getters are not run.
const BUILT_IN = new Set([Object.prototype, Function.prototype, Array.prototype, Error.prototype, Promise.prototype, null]);
function methodsOf(value, label, out = [], depth = 0) {
  if (typeof value === 'function') {
    if (depth === 0) out.push({ label: `${label}()`, fn: value, self: undefined });
    return out;
  }
  if (value === null || typeof value !== 'object' || depth > 2 || isProxyLike(value) || Array.isArray(value) || ArrayBuffer.isView(value)
    || value instanceof Error || (typeof ReadableStream === 'function' && (value instanceof ReadableStream || value instanceof WritableStream))) return out;
  const seen = new Set();
  for (let o = value, own = true; !BUILT_IN.has(o); o = Object.getPrototypeOf(o), own = false) {
    const keys = Object.getOwnPropertyNames(o);
    if (keys.length > 64) break; // a data object (a result's members), not an API
    for (const key of keys) {
      if (seen.has(key) || (!own && key === 'constructor')) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d || !('value' in d)) continue;
      if (typeof d.value === 'function') out.push({ label: `${label}.${key}`, fn: d.value, self: value });
      else if (own) methodsOf(d.value, `${label}.${key}`, out, depth + 1);
    }
  }
  return out;
}

// What must be fuzzed: every function the package exports (its names are the operation table's
// JS rows: pkg/shared.mjs, generated from src/api/table.rs) and every
// export of the MCP module, less what is listed here with the reason.
export const NOT_FUZZED = new Map([
  ['ContractError', 'the error class itself: what a call throws, not a function on a caller value'],
  ['NotInitializedError', 'the error class of a call before the wasm is loaded'],
]);
export function publicNames() {
  const names = [];
  for (const [module, namespace] of [['agent-contract', api], ['agent-contract/mcp', mcp]]) {
    for (const [name, value] of Object.entries(namespace)) {
      if (name === 'default' || (typeof value !== 'function' && (value === null || typeof value !== 'object'))) continue;
      names.push({ module, name });
    }
  }
  return names;
}
/** The public names no target calls (empty when every public function is fuzzed). */
export function unfuzzed() {
  const fuzzed = new Set(targets(makers(rng(1)), rng(1)).map((t) => t.name));
  return publicNames().filter(({ name }) => !fuzzed.has(name) && !NOT_FUZZED.has(name)).map(({ module, name }) => `${module}: ${name}`);
}

export function summary(report) {
  const rows = [...report.stats].map(([name, s]) => {
    const sorted = [...s.perMB].sort((a, b) => a - b);
    const typical = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
    return { name, calls: s.calls, typicalMsPerMB: +typical.toFixed(1), worstMsPerMB: +s.worstPerMB.toFixed(1), slowestMs: +s.slowest.toFixed(1) };
  });
  return {
    seed: report.seed, inputs: report.inputs, seconds: +report.seconds.toFixed(1), escapes: report.escapes.length,
    callsOver1sPerMB: report.slowCalls.length - report.stalls, stalls: report.stalls, memoryOverBoundAtDefaults: report.memoryOverBound.length,
    renewals: api.memoryReport().renewals, maxMemoryMiB: +(report.maxMemoryBytes / MB).toFixed(1), maxMemoryAtDefaultsMiB: +(report.maxMemoryAtDefaultsBytes / MB).toFixed(1),
    maxMemoryAtDefaultsOver1MBMiB: +(report.maxMemoryAtDefaultsOver1MBBytes / MB).toFixed(1),
    maxMiBPerMBPastTheFirst: { ...report.maxMiBPerMBPastTheFirst, value: +report.maxMiBPerMBPastTheFirst.value.toFixed(1) },
    methodsCalled: report.called.size, uncalledMethods: report.uncalledMethods, rows,
  };
}
