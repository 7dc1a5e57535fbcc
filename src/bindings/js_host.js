// Reads a JS value for the Rust core, one question per call. This file classifies host values
// (what counts as a plain object, a well-formed string, genuine bytes...); it holds no protocol
// rule. Every function that can run user code (getters, Proxy traps) catches what it throws
// here: the readers answer THREW and keep the exception for takeThrown() (the Rust side reports
// it at the path being read); nothing a caller's value throws ever unwinds through wasm. Caught
// here rather than by wasm-bindgen's `catch` imports, whose wrapper (an `arguments` object and
// `apply` per call) cost ~10% of `parseAgentAction` on a small action (docs/decisions.md).
//
// Containers cross as *nodes* `{v, up}`: the object or array and the node of the container it
// was read from. A container read again on its own path (a cycle) is found by walking `up`,
// at most maxDepth steps, and reported as CYCLE without being entered.

// Kind codes, mirrored by `Kind` in js.rs; CYCLE, MISSING and THREW are answers of the readers
// only.
const UNDEFINED = 0, NULL = 1, BOOL = 2, NUMBER = 3, STRING = 4, ILL_FORMED_STRING = 5,
  ARRAY = 6, OBJECT = 7, NOT_JSON = 8, MISSING = 9, CYCLE = 10, THREW = 11;

// What the caller's code threw during the last reader that answered THREW.
let thrown;

export function takeThrown() {
  const e = thrown;
  thrown = undefined;
  return e;
}

const hasOwn = Object.prototype.hasOwnProperty;

const wellFormed = typeof String.prototype.isWellFormed === 'function'
  ? (s) => s.isWellFormed()
  : (s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

export function kindOf(v) {
  switch (typeof v) {
    case 'undefined': return UNDEFINED;
    case 'boolean': return BOOL;
    case 'number': return NUMBER;
    case 'string': return wellFormed(v) ? STRING : ILL_FORMED_STRING;
    case 'object': {
      if (v === null) return NULL;
      try {
        if (Array.isArray(v)) return ARRAY;
        // Plain: created by {} / JSON.parse / Object.create(null), in this realm or another.
        const proto = Object.getPrototypeOf(v);
        if (proto === null || Object.getPrototypeOf(proto) === null) return OBJECT;
      } catch (_) {
        // A revoked Proxy, or a Proxy whose trap throws: not something with a JSON meaning.
      }
      return NOT_JSON;
    }
    default: return NOT_JSON; // function, symbol, bigint
  }
}

// A well-formed string longer than `cap` UTF-16 units has more than `cap` UTF-8 bytes, which
// is over every limit a rule checks it against (js.rs sets cap to the largest of them): only
// its first `cap + 1` units cross into wasm. They fail the same check at the same place, and a
// message quoting the string shows its beginning. A surrogate pair is not cut in two.
function capped(s, cap) {
  if (s.length <= cap) return s;
  let end = cap + 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end++;
  return s.slice(0, end);
}

let last;

// What a reader found: its kind, with the value (a node for a container, a capped string)
// kept for takeLast(). User code (traps) runs in kindOf, before `last` is set, so a call the
// caller's code makes into the package meanwhile cannot disturb it.
//
// A node also holds `m`, its *mirror*: a fresh plain object or array holding, under each key or
// index the core read, what the read gave the core (a primitive as it crossed, a container's
// own mirror). When the core accepts a value it answers with a verdict only, and api.mjs builds
// the result from the root's mirror: the values the core judged, without reading the caller's
// value again (a getter or Proxy trap never runs twice, nor after the verdict). See
// docs/decisions.md, "Verdict replies".
//
// Only verdict calls ask for mirrors (readRoot's `mirror`): a node has one when its parent has.
function found(v, up, cap) {
  const kind = kindOf(v);
  if (kind === ARRAY || kind === OBJECT) {
    for (let n = up; n !== null; n = n.up) if (n.v === v) return CYCLE;
    last = { v, up, m: up !== null && up.m !== undefined ? (kind === ARRAY ? [] : {}) : undefined };
  } else {
    last = kind === STRING ? capped(v, cap) : v;
  }
  return kind;
}

// What the mirror keeps of what found() just read. JSON has no -0: the core's copy writes 0.
function mirrored(kind) {
  if (kind === ARRAY || kind === OBJECT) return last.m;
  return kind === NUMBER && last === 0 ? 0 : last;
}

const ObjectProto = Object.prototype;
const defineProperty = Object.defineProperty;

// An own data property, as JSON.parse makes it: assignment unless Object.prototype has that
// name (`__proto__`, or a polluted prototype's accessor or read-only property); array items
// always defined (Array.prototype's chain is the program's to change).
export function put(m, key, value) {
  if (typeof key === 'string' && !hasOwn.call(ObjectProto, key)) m[key] = value;
  else defineProperty(m, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

function record(node, key, kind) {
  if (kind !== CYCLE && node.m !== undefined) put(node.m, key, mirrored(kind));
  return kind;
}

// The root value of a call: its kind, the value for takeLast(); with `mirror`, a container's
// node gets a mirror (and so do the nodes read from it).
export function readRoot(v, cap, mirror) {
  const kind = found(v, null, cap);
  if (mirror && (kind === ARRAY || kind === OBJECT)) last.m = kind === ARRAY ? [] : {};
  return kind;
}

// Own property `key` of the node's object: its kind (MISSING when not an own property); the
// value is kept for takeLast() so that a getter runs once.
export function readOwn(node, key, cap) {
  try {
    const o = node.v;
    if (!hasOwn.call(o, key)) return MISSING;
    return record(node, key, found(o[key], node, cap));
  } catch (e) {
    thrown = e;
    return THREW;
  }
}

let lastKind = MISSING;

export function takeLastKind() {
  return lastKind;
}

export function readIndex(node, i, cap) {
  try {
    return record(node, i, found(node.v[i], node, cap));
  } catch (e) {
    thrown = e;
    return THREW;
  }
}

export function takeLast() {
  const v = last;
  last = undefined;
  return v;
}

// The length, or -1 when reading it threw.
export function lengthOf(node) {
  try {
    return node.v.length >>> 0;
  } catch (e) {
    thrown = e;
    return -1;
  }
}

// Own enumerable string keys in ECMAScript order (each capped like a string); null when one is
// not valid Unicode, undefined when listing them threw.
export function ownKeys(node, cap) {
  let keys;
  try {
    keys = Object.keys(node.v);
  } catch (e) {
    thrown = e;
    return undefined;
  }
  for (let i = 0; i < keys.length; i++) {
    if (!wellFormed(keys[i])) return null;
    if (keys[i].length > cap) keys[i] = capped(keys[i], cap);
  }
  return keys;
}

export function notJsonName(v) {
  const t = typeof v;
  if (t !== 'object') return t;
  try {
    const c = Object.getPrototypeOf(v).constructor;
    const name = typeof c === 'function' ? c.name : undefined;
    if (typeof name === 'string' && name) return name.length > 64 ? name.slice(0, 64) : name;
  } catch (_) {
    return 'revoked Proxy';
  }
  return 'object';
}

// Options are the program's own configuration, read twice: once by js.rs to size what may be
// copied, once by the core. A plain options object is copied first (its getters run once), so
// both reads see the same values. Anything else, or one that throws, is passed as it is: the
// core then meets what it is (and what it throws) itself.
export function snapshotOptions(o) {
  if (kindOf(o) !== OBJECT) return o;
  try {
    const copy = Object.create(null);
    for (const key of Object.keys(o)) {
      Object.defineProperty(copy, key, { value: o[key], writable: true, enumerable: true, configurable: true });
    }
    return copy;
  } catch (_) {
    return o;
  }
}

// Text arguments. Only genuine bytes count: the brand of a typed array is read with the
// built-in getters (a subclass's overridden `buffer` or `length` never runs; a Proxy is not a
// Uint8Array), and what crosses is a fresh plain view of the same bytes.
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (name) => Object.getOwnPropertyDescriptor(typedArrayProto, name).get;
const tagOf = getter(Symbol.toStringTag), bufferOf = getter('buffer'), offsetOf = getter('byteOffset'),
  lengthOfBytes = getter('length');
// The buffer of a genuine typed array is an ArrayBuffer or a SharedArrayBuffer, and only the
// first has ArrayBuffer's `byteLength` (a detached one answers 0). Asked the other way round,
// every ordinary chunk threw and caught an exception: 72% of the time of 16-byte chunks.
const byteLengthOfPlain = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const isShared = (b) => {
  try {
    byteLengthOfPlain.call(b);
    return false;
  } catch (_) {
    return true;
  }
};

// TEXT: a string, BYTES: genuine Uint8Array bytes (in `lastText`), OTHER: anything else.
const TEXT_STRING = 0, TEXT_ILL_FORMED = 1, TEXT_BYTES = 2, TEXT_OTHER = 3;
let lastText;

export function textKind(t) {
  lastText = undefined;
  if (typeof t === 'string') {
    lastText = t;
    return wellFormed(t) ? TEXT_STRING : TEXT_ILL_FORMED;
  }
  if (tagOf.call(t) !== 'Uint8Array') return TEXT_OTHER;
  const buffer = bufferOf.call(t), length = lengthOfBytes.call(t);
  // A detached buffer has length 0. Shared memory can change under the core's verdict and the
  // host's decoding: it is copied once, here, and both read the copy.
  if (length === 0) lastText = new Uint8Array(0);
  else {
    const view = new Uint8Array(buffer, offsetOf.call(t), length);
    lastText = isShared(buffer) ? view.slice() : view;
  }
  return TEXT_BYTES;
}

export function takeText() {
  const t = lastText;
  lastText = undefined;
  return t;
}

// Length of a text in UTF-16 units or bytes; UTF-8 bytes of a string (lone surrogates count 3,
// as in WTF-8), computed without building the encoding.
export function textLength(t) {
  return t.length;
}

const encoder = new TextEncoder();
const PIECE = 1 << 20;
const scratch = new Uint8Array(3 * PIECE + 3);

export function utf8Length(s) {
  if (typeof Buffer === 'function' && typeof Buffer.byteLength === 'function') return Buffer.byteLength(s, 'utf8');
  let n = 0;
  for (let from = 0; from < s.length;) {
    const to = pieceEnd(s, Math.min(s.length, from + PIECE));
    n += encoder.encodeInto(s.slice(from, to), scratch).written;
    from = to;
  }
  return n;
}

// A well-formed string's UTF-8 into `out` (a view of wasm memory sized to its UTF-8 length):
// the bytes written.
export function encodeInto(s, out) {
  return encoder.encodeInto(s, out).written;
}

// Units [from, to) of a string, moved so that no surrogate pair is cut: `to` moves back one
// unit when it would split a pair (callers then start the next piece there).
export function pieceEnd(s, to) {
  if (to >= s.length) return s.length;
  const c = s.charCodeAt(to - 1);
  return c >= 0xd800 && c <= 0xdbff ? to - 1 : to;
}

export function slice(t, from, to) {
  return typeof t === 'string' ? t.slice(from, to) : t.subarray(from, to);
}

// A string with lone surrogates as WTF-8 bytes, so the core sees exactly where they are
// (TextEncoder would silently replace them with U+FFFD). Well-formed runs are encoded natively.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wtf8(s) {
  const out = new Uint8Array(3 * s.length);
  let at = 0, from = 0;
  loneSurrogate.lastIndex = 0;
  for (let m; (m = loneSurrogate.exec(s)) !== null;) {
    at += encoder.encodeInto(s.slice(from, m.index), out.subarray(at)).written;
    const c = s.charCodeAt(m.index);
    out[at++] = 0xe0 | (c >> 12);
    out[at++] = 0x80 | ((c >> 6) & 63);
    out[at++] = 0x80 | (c & 63);
    from = m.index + 1;
  }
  at += encoder.encodeInto(s.slice(from), out.subarray(at)).written;
  return out.subarray(0, at);
}

// The message of a thrown value, without running more user code that could throw.
export function describeThrown(e) {
  try {
    if (e instanceof Error) {
      const m = e.message;
      return typeof m === 'string' ? m.slice(0, 200) : 'an exception';
    }
    return typeof e;
  } catch (_) {
    return 'an exception';
  }
}

// A verdict for the value read from `node`: the node, marked with the verdict (`c`); api.mjs
// builds the result from its mirror `m`.
export function verdictOf(node, code) {
  node.c = code;
  return node;
}

// Strings into the core through its reused buffer (js/scratch.rs): `ptr`, `len` locate it in
// the memory of the calling instance, seen through `memory` (a view made by memoryView and held
// by that instance: two instances, such as Node's renewal, share this module). Memory that grows
// detaches the view; the core then makes another. Short ASCII is written unit by unit, other
// text by TextEncoder.encodeInto (a fixed ~60 ns, then far less per unit than a JS loop: 107
// units took 330 ns by the loop, 60 ns by encodeInto). -1: it does not fit; -3: the view is
// detached.
export function memoryView(view) {
  return new Uint8Array(view.buffer);
}

const UNIT_BY_UNIT = 24;
// The last buffer's view, made once: the buffer of an instance stays where it is.
let target, targetMemory, targetPtr = -1, targetLen = -1;

function intoBuffer(s, memory, ptr, len) {
  if (memory.byteLength === 0) return -3;
  const n = s.length;
  if (n > len) return -1;
  if (n <= UNIT_BY_UNIT) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      memory[ptr + i] = c;
    }
    if (i === n) return n;
  }
  if (memory !== targetMemory || ptr !== targetPtr || len !== targetLen) {
    target = memory.subarray(ptr, ptr + len);
    targetMemory = memory;
    targetPtr = ptr;
    targetLen = len;
  }
  const { read, written } = encoder.encodeInto(s, target);
  return read === n ? written : -1;
}

// Own property `key` when it holds a well-formed string, in one crossing, answered into the
// core's buffer: the UTF-8 length of the (capped) string; -1 when it is not a well-formed string
// (MISSING or its kind for takeLastKind(), the value for takeLast()); -2 when it is one that did
// not go into the buffer (in takeLast()); -4 when reading it threw (takeThrown()).
export function readOwnStringInto(node, key, cap, memory, ptr, len) {
  try {
    const o = node.v;
    if (!hasOwn.call(o, key)) {
      lastKind = MISSING;
      return -1;
    }
    const v = o[key];
    if (typeof v === 'string' && wellFormed(v)) {
      const s = capped(v, cap);
      if (node.m !== undefined) put(node.m, key, s);
      const n = intoBuffer(s, memory, ptr, len);
      if (n >= 0) return n;
      last = s;
      return n === -3 ? -3 : -2;
    }
    lastKind = record(node, key, found(v, node, cap));
    return -1;
  } catch (e) {
    thrown = e;
    return -4;
  }
}

// A well-formed string (already read) into the buffer: its UTF-8 length, -1 or -3. Any other
// value is the empty string, as the core's own values answer (a rule asks for a string only
// after its kind; the text encoder would throw a TypeError past every guard).
export function encodeShort(s, memory, ptr, len) {
  return typeof s === 'string' ? intoBuffer(s, memory, ptr, len) : 0;
}
