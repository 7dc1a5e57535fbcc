// Reads a JS value for the Rust core, one question per call. This file classifies host values
// (what counts as a plain object, a well-formed string...); it holds no protocol rule. Every
// function that can run user code (getters, Proxy traps) lets the exception propagate: the Rust
// side catches it and reports VALUE_NOT_JSON at the path being read.

// Kind codes, mirrored by `Kind` in js.rs.
const UNDEFINED = 0, NULL = 1, BOOL = 2, NUMBER = 3, STRING = 4, ILL_FORMED_STRING = 5,
  ARRAY = 6, OBJECT = 7, NOT_JSON = 8, MISSING = 9;

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
        // A revoked Proxy: not something with a JSON meaning.
      }
      return NOT_JSON;
    }
    default: return NOT_JSON; // function, symbol, bigint
  }
}

let last;

// Own property `key` of `o`: its kind (MISSING when not an own property); the value is kept for
// takeLast() so that a getter runs once.
export function readOwn(o, key) {
  if (!hasOwn.call(o, key)) return MISSING;
  last = o[key];
  return kindOf(last);
}

let lastKind = MISSING;

// Own property `key` when it holds a well-formed string: the string itself, in one crossing.
// Otherwise undefined, with the kind for takeLastKind() and the value for takeLast().
export function readOwnString(o, key) {
  if (!hasOwn.call(o, key)) {
    lastKind = MISSING;
    return undefined;
  }
  const v = o[key];
  if (typeof v === 'string' && wellFormed(v)) return v;
  last = v;
  lastKind = kindOf(v);
  return undefined;
}

export function takeLastKind() {
  return lastKind;
}

export function readIndex(a, i) {
  last = a[i];
  return kindOf(last);
}

export function takeLast() {
  const v = last;
  last = undefined;
  return v;
}

export function lengthOf(a) {
  return a.length >>> 0;
}

// Own enumerable string keys in ECMAScript order; null when one is not valid Unicode.
export function ownKeys(o) {
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) if (!wellFormed(keys[i])) return null;
  return keys;
}

export function notJsonName(v) {
  const t = typeof v;
  if (t !== 'object') return t;
  try {
    const c = Object.getPrototypeOf(v).constructor;
    if (typeof c === 'function' && typeof c.name === 'string' && c.name) return c.name;
  } catch (_) {
    return 'revoked Proxy';
  }
  return 'object';
}

export function isWellFormedText(s) {
  return wellFormed(s);
}

// A string with lone surrogates as WTF-8 bytes, so the core sees exactly where they are
// (TextEncoder would silently replace them with U+FFFD).
export function wtf8(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

// The message of a thrown value, without running more user code that could throw.
export function describeThrown(e) {
  try {
    if (e instanceof Error) return String(e.message);
    return typeof e;
  } catch (_) {
    return 'an exception';
  }
}
