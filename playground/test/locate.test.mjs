// The page's pointer locator, the fragment codec and the kind guess, in Node. The locator is a
// property test: random JSON values written with random whitespace, and for every pointer into
// the value, the located text parses back to the value at that pointer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locatePointer, indexOfByteOffset, lineRange, pointerTokens } from '../src/locate.mjs';
import { encodeFragment, decodeFragment } from '../src/fragment.mjs';
import { detectKind } from '../src/detect.mjs';

// A small seeded generator (mulberry32): failures reproduce from the printed seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEY_CHARS = ['a', 'b', '/', '~', '"', '\\', 'é', '😀', ' ', '\n', '0', '~1'];
function randomKey(r) {
  let key = '';
  const n = Math.floor(r() * 4);
  for (let i = 0; i < n; i++) key += KEY_CHARS[Math.floor(r() * KEY_CHARS.length)];
  return key;
}

function randomValue(r, depth) {
  // The root is always a container; deeper levels mix scalars in.
  const pick = depth === 0 ? 5 + Math.floor(r() * 2) : Math.floor(r() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.round((r() - 0.5) * 1e6) / (r() < 0.5 ? 1 : 1000);
    case 3: return randomKey(r) + '\u2028"]}';
    case 4: return '';
    case 5: {
      const list = [];
      for (let i = Math.floor(r() * 5); i > 0; i--) list.push(randomValue(r, depth + 1));
      return list;
    }
    default: {
      const obj = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) obj[randomKey(r)] = randomValue(r, depth + 1);
      return obj;
    }
  }
}

const WS = [' ', '\n', '\t', '\r\n', ''];
function write(value, r) {
  const ws = () => WS[Math.floor(r() * WS.length)];
  if (Array.isArray(value)) return `[${ws()}${value.map((v) => `${ws()}${write(v, r)}${ws()}`).join(',')}${ws()}]`;
  if (value !== null && typeof value === 'object') {
    return `{${ws()}${Object.entries(value).map(([k, v]) => `${ws()}${JSON.stringify(k)}${ws()}:${ws()}${write(v, r)}${ws()}`).join(',')}${ws()}}`;
  }
  return JSON.stringify(value);
}

function escapeToken(token) {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function* pointers(value, prefix = '') {
  yield [prefix, value];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* pointers(value[i], `${prefix}/${i}`);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* pointers(v, `${prefix}/${escapeToken(k)}`);
  }
}

test('locatePointer: every pointer of a random JSON text locates the text of its value', () => {
  let checked = 0;
  for (let seed = 1; seed <= 2000; seed++) {
    const r = rng(seed);
    const value = randomValue(r, 0);
    const text = WS[seed % WS.length] + write(value, r) + WS[(seed + 1) % WS.length];
    for (const [pointer, expected] of pointers(value)) {
      const found = locatePointer(text, pointer);
      assert.ok(found && found.exact, `seed ${seed}: ${pointer} not found in ${text}`);
      assert.deepEqual(JSON.parse(text.slice(found.start, found.end)), expected, `seed ${seed}: ${pointer}`);
      checked++;
    }
  }
  assert.ok(checked > 5000, `only ${checked} pointers checked`);
});

test('locatePointer: a missing member or element gives its nearest ancestor, not exact', () => {
  const text = '{"a": {"b": [1, 2]}, "c": 3}';
  assert.deepEqual(locatePointer(text, '/a/x'), { start: 6, end: 19, exact: false });
  assert.deepEqual(locatePointer(text, '/a/b/5'), { start: 12, end: 18, exact: false });
  assert.deepEqual(locatePointer(text, '/a/b/01'), { start: 12, end: 18, exact: false });
  assert.deepEqual(locatePointer(text, '/c/d'), { start: 26, end: 27, exact: false });
  assert.deepEqual(locatePointer(text, ''), { start: 0, end: text.length, exact: true });
});

test('locatePointer: a text that is not JSON gives what could be followed, or null', () => {
  assert.equal(locatePointer('', ''), null);
  assert.equal(locatePointer('   ', '/a'), null);
  assert.equal(locatePointer('{"a": "unterminated', '/a'), null);
  assert.equal(locatePointer('{"a": [1, 2}', '/a/0'), null);
  assert.deepEqual(locatePointer('{"a": 1, "b" 2}', '/b'), { start: 0, end: 15, exact: false });
  // Deep nesting is counted, not recursed.
  const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`;
  assert.deepEqual(locatePointer(deep, '/0/0'), { start: 2, end: deep.length - 2, exact: true });
});

test('pointerTokens, indexOfByteOffset and lineRange', () => {
  assert.deepEqual(pointerTokens('/a~1b/~01/'), ['a/b', '~1', '']);
  assert.deepEqual(pointerTokens(''), []);
  const text = 'aé😀b';
  assert.equal(indexOfByteOffset(text, 0), 0);
  assert.equal(indexOfByteOffset(text, 1), 1);
  assert.equal(indexOfByteOffset(text, 3), 2);
  assert.equal(indexOfByteOffset(text, 7), 4);
  assert.equal(indexOfByteOffset(text, 8), 5);
  assert.deepEqual(lineRange('ab\ncd\n', 2), { start: 3, end: 5 });
  assert.deepEqual(lineRange('ab\ncd\n', 3), { start: 6, end: 6 });
  assert.equal(lineRange('ab', 3), null);
});

test('fragments round-trip any text, and a fragment without text is no state', () => {
  const state = { kind: 'tool-input', text: '{"é": "😀\u0000\ud7ff"}\n', context: 'x&y=z', provider: 'openai-chat', dialect: 'pi' };
  const fragment = encodeFragment(state);
  assert.match(fragment, /^#kind=tool-input&text=[A-Za-z0-9_-]+&context=[A-Za-z0-9_-]+&provider=openai-chat&dialect=pi$/);
  assert.deepEqual(decodeFragment(fragment), state);
  assert.equal(decodeFragment('#kind=action'), null);
  assert.deepEqual(decodeFragment('#kind=action&text=e30&context=%%%'), { kind: 'action', text: '{}' });
});

test('detectKind guesses each kind from its usual shape', () => {
  assert.deepEqual(detectKind('{"type":"message","content":"hi"}'), { kind: 'action' });
  assert.deepEqual(detectKind('{"kind":"final","answer":"x"}'), { kind: 'decision' });
  assert.deepEqual(detectKind('{"name":"t","description":"d","inputSchema":{}}'), { kind: 'tool' });
  assert.deepEqual(detectKind('[{"name":"t","description":"d","inputSchema":{}}]'), { kind: 'registry' });
  assert.deepEqual(detectKind('{"path":"a"}', { hasTool: true }), { kind: 'tool-input' });
  assert.deepEqual(detectKind('data: {"choices":[]}\n\ndata: [DONE]\n'), { kind: 'stream', provider: 'openai-chat' });
  assert.deepEqual(detectKind('event: message_start\ndata: {}\n'), { kind: 'stream', provider: 'anthropic' });
  assert.deepEqual(detectKind('data: {"type":"response.created"}\n'), { kind: 'stream', provider: 'openai-responses' });
  assert.deepEqual(detectKind('data: {"candidates":[]}\n'), { kind: 'stream', provider: 'gemini' });
  assert.deepEqual(detectKind('{"type":"session","version":1}\n{"type":"message"}\n'), { kind: 'session', dialect: 'seed' });
  assert.deepEqual(detectKind('{"type":"session","id":"x"}\n{"type":"message"}\n'), { kind: 'session', dialect: 'pi' });
  assert.deepEqual(detectKind('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","id":1,"result":1}\n'), { kind: 'ndjson' });
  assert.deepEqual(detectKind('{"jsonrpc":"2.0","method":"a","id":1}'), { kind: 'jsonrpc' });
  assert.deepEqual(detectKind('{"jsonrpc":"2.0","method":"session/prompt","id":1,"params":{}}'), { kind: 'acp' });
  assert.deepEqual(detectKind('{"sessionId":"s","prompt":[]}'), { kind: 'acp' });
  assert.deepEqual(detectKind('{"messages":[{"role":"user","content":"hi"}],"tools":[]}'), { kind: 'chat-row' });
  assert.deepEqual(detectKind('not json'), { kind: 'action' });
});
