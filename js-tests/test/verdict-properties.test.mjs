// Verdict replies: the public functions build their result from the core's verdict
// and the values this side holds (the reader's mirror, JSON.parse of the accepted text); the
// full-reply path (the core writes the whole result) is in the test build (testing-core.mjs).
// Both must give the same outcome on any input, hostile ones included: getters that answer
// differently on each read, that throw or delete members, Proxies, undefined members, null,
// missing fields. Every hostile value is built twice from one recipe, so each path meets the
// same sequence of reads; a host that read the caller's value again would see other answers,
// and the number of reads must match too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { api } from '../../pkg/wasm.mjs';
import { fullReply as full } from '../testing-core.mjs';
import 'agent-contract'; // loads the instance the API object uses

const RUNS = 1500;

// A ContractError as plain data (every field of its shape), a success as it is.
function plain(outcome) {
  if (outcome.ok) return outcome;
  const e = outcome.error;
  assert.ok(e instanceof api.ContractError);
  return { ok: false, error: { ...e, message: e.message } };
}

// Equal, keys in the same order too (deepStrictEqual ignores their order, and a result promises
// the protocol's).
function assertSame(actual, expected) {
  assert.deepStrictEqual(actual, expected);
  assert.deepStrictEqual(keyOrder(actual), keyOrder(expected));
}

function keyOrder(v) {
  if (v === null || typeof v !== 'object') return null;
  return Array.isArray(v) ? v.map(keyOrder) : Object.keys(v).map((k) => [k, keyOrder(v[k])]);
}

function safely(call) {
  try {
    return { ok: true, value: call() };
  } catch (e) {
    if (e instanceof api.ContractError) return { ok: false, error: e };
    throw e;
  }
}

const scalar = fc.oneof(
  fc.string(), fc.constantFrom('', '  ', '\ud800', 'message', 'tool_call', 'finish', 'request_approval', 'tool', 'final'),
  fc.integer(), fc.double(), fc.constantFrom(-0, 0, 1, NaN, Infinity), fc.boolean(), fc.constant(null),
  fc.constant(undefined), fc.bigInt(),
);

const mode = fc.constantFrom('data', 'data', 'data', 'getter', 'flip', 'throws', 'deletes', 'missing');

// Recipes of values: scalars, plain objects and arrays, objects whose members are getters of
// several kinds, Proxies.
const { recipe } = fc.letrec((tie) => ({
  recipe: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((v) => ({ k: 'scalar', v })),
    fc.array(fc.tuple(fc.constantFrom('a', 'path', '__proto__', 'constructor', '0', '1', 'x y', 'toString'),
      tie('recipe'), mode), { maxLength: 4 }).map((members) => ({ k: 'object', members })),
    fc.array(tie('recipe'), { maxLength: 4 }).map((items) => ({ k: 'array', items, sparse: false })),
    fc.array(tie('recipe'), { maxLength: 3 }).map((items) => ({ k: 'array', items, sparse: true })),
    tie('recipe').map((target) => ({ k: 'proxy', target })),
    fc.constant({ k: 'date' }),
  ),
}));


// Builds a fresh value from a recipe; `reads` counts getter and trap calls.
function make(r, reads) {
  switch (r.k) {
    case 'scalar': return r.v;
    case 'date': return new Date(0);
    case 'array': {
      const a = r.items.map((i) => make(i, reads));
      if (r.sparse && a.length > 0) delete a[0];
      return a;
    }
    case 'proxy': {
      const target = make(r.target, reads);
      if (target === null || typeof target !== 'object') return target;
      let n = 0;
      return new Proxy(target, {
        get(t, key, receiver) {
          reads.n++;
          n++;
          const v = Reflect.get(t, key, receiver);
          // A trap that answers differently on the second read of anything.
          return n === 2 && typeof v === 'string' ? v + '!' : v;
        },
      });
    }
    case 'object': {
      const o = {};
      for (const [key, value, m] of r.members) {
        if (m === 'missing') continue;
        if (m === 'data') {
          Object.defineProperty(o, key, { value: make(value, reads), enumerable: true, configurable: true, writable: true });
          continue;
        }
        let n = 0;
        Object.defineProperty(o, key, {
          enumerable: true,
          configurable: true,
          get() {
            reads.n++;
            n++;
            if (m === 'throws') throw new Error('getter ' + key);
            if (m === 'deletes') {
              for (const other of Object.keys(o)) if (other !== key) delete o[other];
              return make(value, reads);
            }
            if (m === 'flip') return n % 2 ? make(value, reads) : 'second read';
            return make(value, reads);
          },
        });
      }
      return o;
    }
    default: throw new Error(r.k);
  }
}

const field = (names) => fc.tuple(fc.constantFrom(...names), fc.oneof(recipe, recipe, scalar.map((v) => ({ k: 'scalar', v }))), mode);
const strings = fc.constantFrom('read_file', 'c1', 'x', ' ', '');
const good = (key) => fc.tuple(fc.constant(key), strings.map((v) => ({ k: 'scalar', v })), mode);

// Action-like and decision-like recipes: every field of the variant (mostly good strings, modes
// mostly plain data), sometimes hostile extras.
const FIELDS = { message: ['content'], tool_call: ['callId', 'tool', 'input'], finish: ['summary'],
  request_approval: ['requestId', 'capability', 'resource', 'reason'], other: ['content'] };
const mostlyData = fc.oneof({ weight: 6, arbitrary: fc.constant('data') }, { weight: 1, arbitrary: mode });
// Plain JSON data (shared by both builds: it has no getters).
const data = fc.jsonValue({ maxDepth: 2 }).map((v) => ({ k: 'scalar', v }));
const objectRecipe = fc.array(fc.tuple(fc.constantFrom('a', 'path', '__proto__', '0', 'b'), fc.oneof(data, data, recipe), mostlyData), { maxLength: 3 })
  .map((m) => ({ k: 'object', members: m }));
const value = (key) => (key === 'input' || key === 'arguments' ? fc.oneof(objectRecipe, objectRecipe, recipe)
  : fc.oneof({ weight: 5, arbitrary: strings.map((v) => ({ k: 'scalar', v })) }, { weight: 1, arbitrary: recipe }));
const members = (keys) => fc.tuple(...keys.map((key) => fc.tuple(fc.constant(key), value(key), mostlyData)));
const actionRecipe = fc.constantFrom('message', 'tool_call', 'finish', 'request_approval', 'other')
  .chain((type) => fc.tuple(fc.constant(type), members(FIELDS[type]), mostlyData,
    fc.array(field(['input', 'callId', 'schemaVersion', 'extra', '__proto__']), { maxLength: 2 })))
  .map(([type, fields, m, extra]) => ({ k: 'object', members: [['type', { k: 'scalar', v: type }, m], ...fields, ...extra] }));

const callRecipe = fc.tuple(members(['callId', 'name', 'arguments']).chain((m) => fc.string({ minLength: 1, maxLength: 4 })
  .map((id) => (m[0][1].v === 'c1' ? [['callId', { k: 'scalar', v: 'id' + id }, m[0][2]], ...m.slice(1)] : m))), fc.array(field(['other', 'name']), { maxLength: 1 }))
  .map(([fields, extra]) => ({ k: 'object', members: [...fields, ...extra] }));
const calls = fc.array(callRecipe, { minLength: 1, maxLength: 3 }).map((items) => ['calls', { k: 'array', items, sparse: false }, 'data']);
const answer = fc.tuple(fc.constant('answer'), value('answer'), mostlyData);
const decisionRecipe = fc.constantFrom('tool', 'tool', 'final', 'other')
  .chain((kind) => fc.tuple(fc.constant(kind),
    fc.oneof({ weight: 4, arbitrary: kind === 'tool' ? calls : answer }, { weight: 1, arbitrary: fc.oneof(calls, answer, field(['answer', 'calls', 'extra'])) }),
    mostlyData))
  .map(([kind, member, m]) => ({ k: 'object', members: [['kind', { k: 'scalar', v: kind }, m], member] }));

const anyOptions = fc.oneof(fc.constant(undefined), fc.record({ strict: fc.boolean() }),
  fc.record({ maxDepth: fc.integer({ min: 0, max: 4 }) }), fc.record({ maxStringBytes: fc.integer({ min: 0, max: 8 }) }));

// Both paths on values built from one recipe: equal outcomes and equal numbers of reads.
function same(recipeOf, ours, theirs, options) {
  const a = { n: 0 }, b = { n: 0 };
  const mine = plain(safely(() => ours(make(recipeOf, a), options)));
  const old = plain(theirs(make(recipeOf, b), options));
  assertSame(mine, old);
  assert.equal(a.n, b.n, 'the verdict path read the value a different number of times');
  return mine;
}

test('parseAgentAction: the verdict path gives the full reply\'s outcome on any value', () => {
  let accepted = 0;
  fc.assert(fc.property(fc.oneof(actionRecipe, actionRecipe, recipe), anyOptions, (r, options) => {
    if (same(r, api.parseAgentAction, full.parseAgentAction, options).ok) accepted++;
  }), { numRuns: RUNS });
  assert.ok(accepted > RUNS / 20, `only ${accepted} accepted values`);
});

test('parseAgentActions: the same per item, the list read once', () => {
  fc.assert(fc.property(fc.array(fc.oneof(actionRecipe, recipe), { maxLength: 4 }), anyOptions, (items, options) => {
    const a = { n: 0 }, b = { n: 0 };
    const mine = safely(() => api.parseAgentActions(items.map((i) => make(i, a)), options));
    const old = safely(() => full.parseAgentActions(items.map((i) => make(i, b)), options));
    const flat = (o) => (o.ok ? { ok: true, value: o.value.map(plain) } : plain(o));
    assertSame(flat(mine), flat(old));
    assert.equal(a.n, b.n);
  }), { numRuns: RUNS / 3 });
});

test('parseDecision: the verdict path gives the full reply\'s outcome on any value', () => {
  let accepted = 0;
  fc.assert(fc.property(fc.oneof(decisionRecipe, decisionRecipe, recipe), anyOptions, (r, options) => {
    if (same(r, api.parseDecision, full.parseDecision, options).ok) accepted++;
  }), { numRuns: RUNS });
  assert.ok(accepted > RUNS / 50, `only ${accepted} accepted values`);
});

test('validateToolInput through a tool\'s handle: the mirror gives the full reply\'s outcome on any value', () => {
  // Accepts every value but an object whose `a` is not a string, and one with a `path` over
  // two characters: valid objects, arrays and scalars, and refusals at a member.
  const inputSchema = { properties: { a: { type: 'string' }, path: { maxLength: 2 } } };
  const tool = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema });
  const copy = JSON.parse(JSON.stringify(tool)); // read again by the core, which writes the whole reply
  let accepted = 0, containers = 0;
  fc.assert(fc.property(fc.oneof(objectRecipe, objectRecipe, recipe), anyOptions, (r, options) => {
    const out = same(r, (v, o) => api.validateToolInput(tool, v, o), (v, o) => safely(() => api.validateToolInput(copy, v, o)), options);
    if (out.ok) accepted++;
    if (out.ok && out.value !== null && typeof out.value === 'object') containers++;
  }), { numRuns: RUNS });
  assert.ok(containers > RUNS / 10, `only ${containers} accepted objects and arrays (${accepted} accepted)`);
  tool.free();
});

// Texts: JSON of action- and decision-like data (numbers of every form, -0, __proto__ keys,
// escapes), broken texts, bytes.
const jsonish = fc.jsonValue({ maxDepth: 3 });
const actionText = fc.tuple(
  fc.constantFrom('message', 'tool_call', 'finish', 'request_approval', 'x'),
  fc.dictionary(fc.constantFrom('callId', 'tool', 'content', 'summary', 'requestId', 'capability', 'resource', 'reason',
    'schemaVersion', 'extra', '__proto__'), fc.oneof(strings, jsonish), { maxKeys: 6 }),
  fc.option(fc.oneof(jsonish, fc.constantFrom('{"__proto__":1,"a":-0}', '[1e2,-0.0,1E-7,12345678901234567890]', '"\\u00e9\\ud83d\\ude00"'))),
).map(([type, rest, input]) => {
  const body = JSON.stringify({ type, ...rest });
  return input === null ? body : body.slice(0, -1) + (body.length > 2 ? ',' : '') + '"input":' + (typeof input === 'string' && input.startsWith('{') || typeof input === 'string' && input.startsWith('[') || typeof input === 'string' && input.startsWith('"') ? input : JSON.stringify(input)) + '}';
});
const decisionText = fc.oneof(
  fc.tuple(strings, fc.oneof(strings, jsonish)).map(([a, answer]) => JSON.stringify({ kind: 'final', answer, ...(a === 'x' ? { extra: 1 } : {}) })),
  fc.array(fc.tuple(strings, strings, fc.oneof(fc.dictionary(fc.string(), jsonish, { maxKeys: 3 }), jsonish)), { maxLength: 3 })
    .map((calls) => JSON.stringify({ kind: 'tool', calls: calls.map(([callId, name, args]) => ({ callId, name, arguments: args })) })),
);
const noise = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', ' ', '{', '{"type":"finish","summary":"s"} x',
  '{"type":"finish","summary":"s","summary":"t"}', '\ufeff{"type":"finish","summary":"s"}'));
const asBytes = (t) => fc.oneof(fc.constant(t), fc.constant(new TextEncoder().encode(t)));

test('parseAgentActionJson and parseDecisionJson: the verdict path gives the full reply\'s outcome on any text', () => {
  fc.assert(fc.property(fc.oneof(actionText, decisionText, noise).chain(asBytes), fc.oneof(anyOptions, fc.constant({ maxBytes: 16 })), (t, options) => {
    assertSame(plain(safely(() => api.parseAgentActionJson(t, options))), plain(full.parseAgentActionJson(t, options)));
    assertSame(plain(safely(() => api.parseDecisionJson(t, options))), plain(full.parseDecisionJson(t, options)));
  }), { numRuns: RUNS });
});

test('parseAgentActionsJsonl: the verdict path gives the full reply\'s outcomes on any lines', () => {
  const eol = fc.constantFrom('\n', '\r\n', '\n\n');
  const jsonl = fc.array(fc.tuple(fc.oneof(actionText, actionText, noise), eol), { maxLength: 6 })
    .map((lines) => lines.map(([l, e]) => l + e).join(''))
    .chain((t) => fc.oneof(fc.constant(t), fc.constant(t.trimEnd())))
    .chain(asBytes);
  fc.assert(fc.property(jsonl, anyOptions, (t, options) => {
    const flat = (o) => (o.ok ? { ok: true, value: o.value.map(plain) } : plain(o));
    assertSame(flat(safely(() => api.parseAgentActionsJsonl(t, options))),
      flat(safely(() => full.parseAgentActionsJsonl(t, options))));
  }), { numRuns: RUNS / 2 });
});

test('results keep the protocol\'s member order, whatever the order of the text or the object', () => {
  const orders = (items) => (items.length < 2 ? [items]
    : items.flatMap((x, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest])));
  const members = [['type', 'tool_call'], ['callId', 'c'], ['tool', 't'], ['input', { a: 1 }]];
  for (const extra of [[], [['extra', 1]], [['schemaVersion', 1]]]) {
    for (const order of orders([...members, ...extra])) {
      const value = Object.fromEntries(order);
      const text = JSON.stringify(value);
      for (const [mine, old] of [
        [api.parseAgentActionJson(text), full.parseAgentActionJson(text).value],
        [api.parseAgentAction(value), full.parseAgentAction(value).value],
      ]) {
        assertSame(mine, old);
        assert.deepStrictEqual(Object.keys(mine), ['type', 'callId', 'tool', 'input']);
      }
    }
  }
});

test('the verdict path never hands out the caller\'s objects, and never reads them after the verdict', () => {
  const input = { path: 'a', nested: { b: [1, { c: 2 }] } };
  let reads = 0;
  const action = { type: 'tool_call', callId: 'c', tool: 't' };
  Object.defineProperty(action, 'input', { enumerable: true, get: () => { reads++; return input; } });
  const out = api.parseAgentAction(action);
  assert.equal(reads, 1);
  assert.deepStrictEqual(out.input, input);
  assert.notEqual(out.input, input);
  assert.notEqual(out.input.nested.b, input.nested.b);
  const tool = api.defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object' } });
  const holder = {};
  Object.defineProperty(holder, 'nested', { enumerable: true, get: () => { reads++; return input.nested; } });
  const valid = api.validateToolInput(tool, holder);
  assert.equal(reads, 2);
  assert.deepStrictEqual(valid, { nested: input.nested });
  assert.notEqual(valid.nested, input.nested);
  assert.notEqual(valid.nested.b[1], input.nested.b[1]);
  tool.free();
  // Object.prototype with an accessor of a member's name: the result has own data properties.
  Object.defineProperty(Object.prototype, 'tool', { configurable: true, set() { throw new Error('setter ran'); }, get() { return 'proto'; } });
  try {
    const again = api.parseAgentAction({ type: 'tool_call', callId: 'c', tool: 't', input: { tool: 1 } });
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(again, 'tool'), { value: 't', writable: true, enumerable: true, configurable: true });
    assert.equal(Object.getOwnPropertyDescriptor(again.input, 'tool').value, 1);
  } finally {
    delete Object.prototype.tool;
  }
});

test('strings cross through each instance\'s own buffer: two instances and re-entrant calls read their own', async () => {
  const { readFileSync } = await import('node:fs');
  const { createCore } = await import('../../pkg/dist/agent_contract.js');
  const { createApi } = await import('../../pkg/api.mjs');
  const module = new WebAssembly.Module(readFileSync(new URL('../../pkg/dist/agent_contract_bg.wasm', import.meta.url)));
  const second = createApi(() => {
    const core = createCore();
    core.initSync({ module });
    return core;
  });
  const a = { type: 'tool_call', callId: 'first-instance', tool: 'utf8', input: { path: 'é/ascii', n: 1 } };
  const b = { type: 'message', content: 'second instance ✓' };
  for (let i = 0; i < 3; i++) {
    assert.deepStrictEqual(api.parseAgentAction(a), a);
    assert.deepStrictEqual(second.parseAgentAction(b), b);
    assert.deepStrictEqual(second.parseAgentActionJson(JSON.stringify(a)), a);
  }
  // A getter that calls the package (both instances) while the core reads its string field.
  const inner = { type: 'finish', summary: 'inner summary' };
  const outer = { type: 'tool_call', tool: 'outer-tool', input: null };
  Object.defineProperty(outer, 'callId', {
    enumerable: true,
    get() {
      assert.deepStrictEqual(api.parseAgentAction(inner), inner);
      assert.deepStrictEqual(second.parseAgentAction(inner), inner);
      return 'outer-call';
    },
  });
  assert.deepStrictEqual(api.parseAgentAction(outer), { type: 'tool_call', callId: 'outer-call', tool: 'outer-tool', input: null });
  // A getter that grows the memory meanwhile (a large call) detaches the buffer's view.
  const growing = { type: 'message' };
  Object.defineProperty(growing, 'content', {
    enumerable: true,
    get() {
      api.parseAgentAction({ type: 'message', content: 'x'.repeat(8 << 20) }, { maxStringBytes: 16 << 20, maxBytes: 16 << 20 });
      return 'after growth';
    },
  });
  assert.deepStrictEqual(api.parseAgentAction(growing), { type: 'message', content: 'after growth' });
  assert.deepStrictEqual(api.parseAgentAction({ type: 'finish', summary: 'next call' }), { type: 'finish', summary: 'next call' });
});
