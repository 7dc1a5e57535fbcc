// Where a JSON Pointer points in a JSON text: the source range of the pointed value, for the
// highlight. The core's API answers pointers, not positions, for a text it accepted, so the page
// keeps this minimal scanner: it decides nothing (the core has already judged the text), it only
// walks members and elements to the pointed value and skips the rest. On a text that is not
// valid JSON it stops where it cannot go on and answers what it found so far.

/** The pointer's reference tokens (RFC 6901: `~1` is `/`, `~0` is `~`). */
export function pointerTokens(pointer) {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(text, i) {
  while (i < text.length && WS.has(text[i])) i++;
  return i;
}

// The end of the string starting at the quote at i (the index after its closing quote), or -1.
function stringEnd(text, i) {
  for (let j = i + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '"') return j + 1;
  }
  return -1;
}

// The end of the value starting at i, or -1 when the text ends first. Iterative: nesting is
// counted, not recursed, so a deep text cannot exhaust the stack.
function valueEnd(text, i) {
  const ch = text[i];
  if (ch === '"') return stringEnd(text, i);
  if (ch === '{' || ch === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        j = stringEnd(text, j);
        if (j < 0) return -1;
        j--;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !WS.has(text[j]) && !',]}:'.includes(text[j])) j++;
  return j > i ? j : -1;
}

function decodeKey(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * The range `{start, end}` (string indices, end exclusive) of the value `pointer` names in
 * `text`, and `exact`: false when only an ancestor was found (a missing member, as in a
 * `required` issue, or a text the scanner could not follow), whose range is then given. Null when
 * the text holds no value at all.
 */
export function locatePointer(text, pointer) {
  const tokens = pointerTokens(pointer);
  let start = skipWs(text, 0);
  let end = start < text.length ? valueEnd(text, start) : -1;
  if (end < 0) return null;
  for (let depth = 0; depth < tokens.length; depth++) {
    const child = childRange(text, start, end, tokens[depth]);
    if (!child) return { start, end, exact: false };
    ({ start, end } = child);
  }
  return { start, end, exact: true };
}

// The range of the member or element `token` of the container at [start, end), or null.
function childRange(text, start, end, token) {
  const open = text[start];
  if (open === '{') {
    let i = skipWs(text, start + 1);
    while (i < end && text[i] === '"') {
      const keyEnd = stringEnd(text, i);
      if (keyEnd < 0) return null;
      const key = decodeKey(text.slice(i, keyEnd));
      i = skipWs(text, keyEnd);
      if (text[i] !== ':') return null;
      i = skipWs(text, i + 1);
      const vEnd = valueEnd(text, i);
      if (vEnd < 0) return null;
      // Duplicate names never reach here (the core refuses them); the first is as good as any.
      if (key === token) return { start: i, end: vEnd };
      i = skipWs(text, vEnd);
      if (text[i] !== ',') return null;
      i = skipWs(text, i + 1);
    }
    return null;
  }
  if (open === '[') {
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return null;
    const index = Number(token);
    let i = skipWs(text, start + 1);
    for (let n = 0; i < end && text[i] !== ']'; n++) {
      const vEnd = valueEnd(text, i);
      if (vEnd < 0) return null;
      if (n === index) return { start: i, end: vEnd };
      i = skipWs(text, vEnd);
      if (text[i] !== ',') return null;
      i = skipWs(text, i + 1);
    }
  }
  return null;
}

/** The string index of a UTF-8 byte offset into `text` (the core's positions count bytes). */
export function indexOfByteOffset(text, offset) {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < offset) {
    const cp = text.codePointAt(i);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** The string index where 1-based line `line` starts (lines end at LF), and where it ends. */
export function lineRange(text, line) {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const lf = text.indexOf('\n', start);
    if (lf < 0) return null;
    start = lf + 1;
  }
  const lf = text.indexOf('\n', start);
  return { start, end: lf < 0 ? text.length : lf };
}
