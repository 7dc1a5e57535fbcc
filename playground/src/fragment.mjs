// The page's state in the URL fragment, `#kind=<kind>&text=<base64url of UTF-8>` (and
// `context`, `provider`, `dialect`, `tool` when the kind has them). A fragment is never sent to a
// server, so a link carries the input to whoever opens it and nowhere else.

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

const TEXTS = ['text', 'context'];
const WORDS = ['kind', 'provider', 'dialect', 'tool'];

/** The fragment (with its `#`) for a state {kind, text, context?, provider?, dialect?, tool?}. */
export function encodeFragment(state) {
  const parts = [];
  for (const key of ['kind', 'text', 'context', 'provider', 'dialect', 'tool']) {
    const value = state[key];
    if (value === undefined || value === null || value === '') continue;
    parts.push(`${key}=${TEXTS.includes(key) ? toBase64Url(value) : encodeURIComponent(value)}`);
  }
  return `#${parts.join('&')}`;
}

/** The state a fragment holds, or null when it holds no input (malformed parts are dropped). */
export function decodeFragment(hash) {
  const state = {};
  for (const part of hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    const raw = part.slice(eq + 1);
    try {
      if (TEXTS.includes(key)) state[key] = fromBase64Url(raw);
      else if (WORDS.includes(key)) state[key] = decodeURIComponent(raw);
    } catch {
      // A part that does not decode is left out; the others still restore.
    }
  }
  return typeof state.text === 'string' ? state : null;
}
