// Which fixture cases the page offers as examples, read at build time (build.mjs) and by the
// test, which compares each example's verdict on the page with the case's `expect`. A case is
// usable when the page can give the operation the very input the fixture gives: a text (or a
// JSON value the page shows as text), no host-only values, and no options beyond the ones the
// page has a control for (the provider, the session dialect).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The kind of the page each operation is shown under, and how a case becomes the page's input.
const FROM_OP = {
  parseAgentActionJson: (c) => textCase(c, 'action'),
  parseDecisionJson: (c) => textCase(c, 'decision'),
  defineToolJson: (c) => textCase(c, 'tool'),
  createRegistry: (c) => (c.options || c.args.length !== 1 ? null : { kind: 'registry', text: pretty(c.args[0]) }),
  validateToolInputJson: (c) => (typeof c.text === 'string' && !c.options
    ? { kind: 'tool-input', text: c.text, context: pretty(c.tool) } : null),
  assembleProviderStream: (c, shared) => {
    if (c.options || c.lines) return null;
    if (typeof c.text === 'string') return { kind: 'stream', text: c.text, provider: c.provider };
    // A recorded raw SSE stream (not the payload-per-line `.chunks.txt` form), when ../shared holds it.
    if (typeof c.recording !== 'string' || !/(\.bin|\.sse|_response\.txt)$/.test(c.recording)) return null;
    const text = readShared(shared, 'provider-streams', c.recording);
    return text === null ? null : { kind: 'stream', text, provider: c.provider };
  },
  checkSession: (c) => {
    if (typeof c.text !== 'string') return null;
    const { dialect = 'seed', ...rest } = c.options || {};
    return Object.keys(rest).length || !['seed', 'pi'].includes(dialect) ? null : { kind: 'session', text: c.text, dialect };
  },
  classifyJsonRpcJson: (c) => textCase(c, 'jsonrpc'),
  checkStdoutPurity: (c) => {
    if (c.options) return null;
    const text = typeof c.text === 'string' ? c.text : Array.isArray(c.chunks) ? c.chunks.join('') : null;
    return text === null ? null : { kind: 'ndjson', text };
  },
  // A row given as a value is shown as its JSON text, which checkChatRow reads the same way.
  checkChatRow: (c) => {
    if (c.options) return null;
    if (typeof c.text === 'string') return { kind: 'chat-row', text: c.text };
    const row = c.input;
    return row !== null && typeof row === 'object' && !Array.isArray(row) ? { kind: 'chat-row', text: pretty(row) } : null;
  },
  admitPrompt: (c) => (c.options || c.host || c.args.length !== 2 || c.args[1] === null || typeof c.args[1] !== 'object'
    ? null : { kind: 'acp', text: pretty(c.args[0]), context: pretty(c.args[1]) }),
};

function textCase(c, kind) {
  return typeof c.text === 'string' && !c.options ? { kind, text: c.text } : null;
}

// A small UTF-8 file of the external conformance data, or null when absent (a clone without
// ../shared builds a page without those examples) or too large to be an example.
function readShared(shared, folder, file) {
  const path = join(shared, folder, file);
  if (!shared || !existsSync(path)) return null;
  const bytes = readFileSync(path);
  if (bytes.length > 64 * 1024) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function pretty(value) {
  return JSON.stringify(value, null, 2);
}

// Per kind (and per provider / dialect), the first accepted case and the first two refused ones,
// in file order: every verdict shape of each kind has an example, and the list stays short.
export function pickExamples(fixturesDir, sharedConformance) {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort();
  const groups = new Map();
  for (const file of files) {
    for (const c of JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')).cases) {
      const make = FROM_OP[c.op];
      const example = make && !c.host ? make(c, sharedConformance) : null;
      if (!example) continue;
      const group = `${example.kind}/${example.provider ?? ''}/${example.dialect ?? ''}`;
      if (!groups.has(group)) groups.set(group, { ok: [], failed: [] });
      const outcome = verdictOf(c) ? 'ok' : 'failed';
      groups.get(group)[outcome].push({ id: c.id, file, op: c.op, ...example });
    }
  }
  const picked = [];
  for (const { ok, failed } of groups.values()) picked.push(...ok.slice(0, 1), ...failed.slice(0, 2));
  return picked;
}

// The page's verdict a fixture case implies: {ok, code, path}. Thrown errors are the case's
// error; a session or dataset row report, a JSON-RPC classification and a stdout purity report are values
// whose first problem is the page's verdict (the page lists the rest).
export function expectedVerdict(c) {
  const { expect } = c;
  if (!expect.ok) return { ok: false, code: expect.code, path: expect.path };
  const value = expect.value;
  switch (c.op) {
    case 'checkSession':
    case 'checkChatRow':
      return value.ok ? { ok: true } : { ok: false, code: value.problems[0].code, path: value.problems[0].path };
    case 'classifyJsonRpcJson': {
      if (value.code) return { ok: false, code: value.code, path: value.path };
      const index = (value.items || []).findIndex((item) => item.code);
      if (index < 0) return { ok: true };
      return { ok: false, code: value.items[index].code, path: `/${index}${value.items[index].path}` };
    }
    case 'checkStdoutPurity':
      return value.pure ? { ok: true } : { ok: false, code: value.problems[0].code, path: '' };
    default:
      return { ok: true };
  }
}

function verdictOf(c) {
  return expectedVerdict(c).ok;
}
