// Runs conformance fixtures (fixtures/*.json) against the package API. Environment-neutral: the
// Node test and the browser page both call runFixtures() with the API and the parsed files.

const hasOwn = Object.prototype.hasOwnProperty;

function define(target, key, value) {
  // defineProperty, not assignment: the key may be "__proto__".
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function unescapePointer(segment) {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

class Point {}
class ToolCrashError extends Error {}

function hostValue(spec) {
  switch (spec) {
    case 'undefined': return undefined;
    case 'NaN': return NaN;
    case 'Infinity': return Infinity;
    case '-Infinity': return -Infinity;
    case 'function': return () => {};
    case 'Map': return new Map();
    case 'Set': return new Set();
    case 'Date': return new Date(0);
    case 'classInstance': return new Point();
    case 'loneSurrogate': return '\ud800';
    case 'exception': return new ToolCrashError('failed at /home/user/secret.txt');
    default: throw new Error(`unknown host value ${JSON.stringify(spec)}`);
  }
}

/** Builds the JS argument: a fresh copy of `json` with host values placed at their pointers.
 *  Returns the value and the prototype pollution to apply around the call. */
function build(json, host) {
  // structuredClone keeps -0, which a JSON round trip drops.
  let root = json === undefined ? undefined : structuredClone(json);
  const inherited = [];
  for (const [pointer, spec] of Object.entries(host || {})) {
    const segments = pointer.split('/').slice(1).map(unescapePointer);
    if (spec !== null && typeof spec === 'object' && hasOwn.call(spec, 'inherited')) {
      inherited.push([segments[segments.length - 1], spec.inherited]);
      continue;
    }
    const value = hostValue(spec);
    if (segments.length === 0) {
      root = value;
      continue;
    }
    const last = segments.pop();
    let target = root;
    for (const segment of segments) target = target[segment];
    define(target, last, value);
  }
  return { value: root, inherited };
}

function withInherited(inherited, call) {
  for (const [key, value] of inherited) {
    Object.defineProperty(Object.prototype, key, { value, writable: true, enumerable: false, configurable: true });
  }
  try {
    return call();
  } finally {
    for (const [key] of inherited) delete Object.prototype[key];
  }
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** WTF-8 bytes to a JS string, keeping encoded lone surrogates as lone UTF-16 code units. */
function wtf8ToString(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    let cp, n;
    if (b < 0x80) { cp = b; n = 1; }
    else if (b >= 0xf0) { cp = b & 7; n = 4; }
    else if (b >= 0xe0) { cp = b & 15; n = 3; }
    else { cp = b & 31; n = 2; }
    for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k] & 63);
    out += cp > 0xffff ? String.fromCodePoint(cp) : String.fromCharCode(cp);
    i += n;
  }
  return out;
}

function textArgument(c) {
  if (hasOwn.call(c, 'text')) return c.text;
  if (hasOwn.call(c, 'textHex')) return wtf8ToString(hexBytes(c.textHex));
  if (hasOwn.call(c, 'bytesHex')) return hexBytes(c.bytesHex);
  throw new Error(`case ${c.id} has no text`);
}

export function deepEqual(a, b) {
  // Numbers by Object.is: -0 is not 0 (and NaN is NaN).
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => hasOwn.call(b, k) && deepEqual(a[k], b[k]));
}

const show = (v) => JSON.stringify(v, (k, x) => (x === undefined ? '<undefined>' : x));

function checkError(error, expect, api) {
  if (!(error instanceof api.ContractError)) throw new Error(`expected a ContractError, got ${error}`);
  for (const key of ['layer', 'code', 'path']) {
    if (error[key] !== expect[key]) {
      throw new Error(`expected ${key} ${show(expect[key])}, got ${show(error[key])} (${error.code} ${error.path}: ${error.message})`);
    }
  }
  // The message, exactly, where the case gives one.
  if (hasOwn.call(expect, 'message') && error.message !== expect.message) {
    throw new Error(`expected message ${show(expect.message)}, got ${show(error.message)}`);
  }
  if (expect.issues) {
    const got = (error.issues || []).map((i) => `${i.path} ${i.keyword}`);
    const want = expect.issues.map((i) => `${i.path} ${i.keyword}`);
    if (!deepEqual(got, want)) throw new Error(`expected issues ${show(want)}, got ${show(got)}`);
    expect.issues.forEach((w, i) => {
      if (w.messageIncludes && !error.issues[i].message.includes(w.messageIncludes)) {
        throw new Error(`issue ${i}: message ${show(error.issues[i].message)} does not include ${show(w.messageIncludes)}`);
      }
    });
  }
  // `truncated` is absent unless true: `false` expects it absent.
  if (hasOwn.call(expect, 'truncated') && (error.truncated === true) !== expect.truncated) {
    throw new Error(`expected truncated ${expect.truncated}, got ${show(error.truncated)}`);
  }
  for (const key of ['availableTools', 'proposal']) {
    if (hasOwn.call(expect, key) && !deepEqual(error[key], expect[key])) {
      throw new Error(`expected ${key} ${show(expect[key])}, got ${show(error[key])}`);
    }
  }
  if (expect.position && !deepEqual(error.position, expect.position)) {
    throw new Error(`expected position ${show(expect.position)}, got ${show(error.position)}`);
  }
}

function checkOutcome(got, expect, api) {
  if (got.ok !== expect.ok) {
    throw new Error(`expected ok=${expect.ok}, got ${got.ok ? show(got.value) : `${got.error.code} ${got.error.path}: ${got.error.message}`}`);
  }
  if (!expect.ok) return checkError(got.error, expect.error ?? expect, api);
  const want = build(expect.value, expect.host).value;
  // A batch's outcomes ({ok, value} / {ok, error}), not a list of reports ({ok, problems}).
  const isOutcome = (w) => w && typeof w === 'object' && hasOwn.call(w, 'ok') && !hasOwn.call(w, 'problems');
  if (Array.isArray(want) && want.length > 0 && want.every(isOutcome)
      && Array.isArray(got.value) && got.value.every((g) => g && typeof g === 'object' && hasOwn.call(g, 'ok'))) {
    if (got.value.length !== want.length) throw new Error(`expected ${want.length} items, got ${got.value.length}`);
    got.value.forEach((item, i) => {
      try {
        checkOutcome(item, expect.value[i], api);
      } catch (e) {
        throw new Error(`item ${i}: ${e.message}`);
      }
    });
    return;
  }
  if (!deepEqual(got.value, want)) throw new Error(`expected ${show(want)}, got ${show(got.value)}`);
}

function capture(call) {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

const SAFE_TWIN = {
  parseAgentAction: 'safeParseAgentAction',
  parseAgentActionJson: 'safeParseAgentActionJson',
  defineTool: 'safeDefineTool',
  defineToolJson: 'safeDefineToolJson',
  parseJson: 'safeParseJson',
  parseDecision: 'safeParseDecision',
  parseDecisionJson: 'safeParseDecisionJson',
  validateToolInput: 'safeValidateToolInput',
  validateToolInputJson: 'safeValidateToolInputJson',
  createRegistry: 'safeCreateRegistry',
  definePolicy: 'safeDefinePolicy',
  checkToolCall: 'safeCheckToolCall',
  parseAgentMessage: 'safeParseAgentMessage',
  parseAgentMessageJson: 'safeParseAgentMessageJson',
  parseToolResult: 'safeParseToolResult',
  parseSessionEntry: 'safeParseSessionEntry',
  // Agent events and the session response
  parseAgentEvent: 'safeParseAgentEvent',
  checkEventSequence: 'safeCheckEventSequence',
  checkSessionResponse: 'safeCheckSessionResponse',
};

/** checkSession, readSession, querySession: a session text (`sessionFile`: a recorded pi-mono
 *  session's bytes); checkSession's problems compared by line, code and path. */
function runSession(api, c, sessionFile) {
  const text = hasOwn.call(c, 'sessionFile') ? sessionFile(c.sessionFile) : textArgument(c);
  const options = c.options === undefined ? undefined : JSON.parse(JSON.stringify(c.options));
  const plain = (session) => ({ header: session.header, entries: session.entries, roots: session.roots, leaves: session.leaves() });
  let got;
  if (c.op === 'checkSession') {
    got = capture(() => {
      const report = api.checkSession(text, options);
      for (const p of report.problems) {
        if (typeof p.message !== 'string' || p.message === '') throw new Error(`problem without a message: ${show(p)}`);
        delete p.message;
      }
      return report;
    });
  } else if (c.op === 'readSession') {
    got = capture(() => plain(api.readSession(text, options)));
    const twin = api.safeReadSession(text, options);
    checkOutcome(twin.ok ? { ok: true, value: plain(twin.value) } : twin, c.expect, api);
  } else {
    got = capture(() => api.querySession(text, JSON.parse(JSON.stringify(c.query)), options));
  }
  if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
  checkOutcome(got, c.expect, api);
}

/** assembleStream: one assembler, every event pushed, then finish(); an error carries `at`. */
function assembleStream(api, c) {
  const { value: events, inherited } = build(c.input, c.host);
  const options = c.options === undefined ? undefined : JSON.parse(JSON.stringify(c.options));
  return withInherited(inherited, () => {
    let assembler;
    try {
      assembler = api.createAssembler(options);
    } catch (error) {
      return { ok: false, error, at: 0 };
    }
    try {
      for (let i = 0; i < events.length; i++) {
        try {
          assembler.push(events[i]);
        } catch (error) {
          return { ok: false, error, at: i };
        }
      }
      const first = capture(() => assembler.finish());
      // Replay: finish() again gives the same outcome.
      const again = capture(() => assembler.finish());
      if (first.ok !== again.ok || (first.ok ? !deepEqual(first.value, again.value) : first.error.code !== again.error.code)) {
        throw new Error('finish() twice gave different outcomes');
      }
      return { ...first, at: events.length };
    } finally {
      assembler.free();
    }
  });
}

/** assembleProviderStream's input: a recording (raw SSE bytes, or a `.chunks.txt` file's
 *  non-blank lines parsed as JSON, or kept as text when they are not JSON; `lines: [from, to)`
 *  of them when given), SSE text, or `input`. */
function providerInput(c, recording) {
  if (hasOwn.call(c, 'recording')) {
    const bytes = recording(c.recording);
    if (!c.recording.endsWith('.chunks.txt')) return bytes;
    const lines = new TextDecoder().decode(bytes).split('\n').filter((l) => l.trim() !== '');
    const [from, to] = c.lines ?? [0, lines.length];
    // A line that is not JSON (a hand-made recording's typo) stays a string: one payload text,
    // which the adapter parses and reports in the transport layer.
    return lines.slice(from, to).map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return l;
      }
    });
  }
  if (['text', 'textHex', 'bytesHex'].some((k) => hasOwn.call(c, k))) return textArgument(c);
  return build(c.input, c.host).value;
}

/** A case's `reference` into the conformance data: `{file, id}` (a case of a JSON file: its
 *  `send` text) or `{file, line}` (a JSON Lines file's 1-based line: its `value`). */
function referenced(c, text) {
  if (hasOwn.call(c.reference, 'id')) return JSON.parse(text).cases.find((k) => k.id === c.reference.id).send;
  return JSON.parse(text.split('\n')[c.reference.line - 1]).value;
}

/** The chunks of an NDJSON case: `chunks` (strings), `chunksHex` (bytes) or `text` (one). */
function chunksOf(c) {
  if (hasOwn.call(c, 'chunks')) return c.chunks.slice();
  if (hasOwn.call(c, 'chunksHex')) return c.chunksHex.map(hexBytes);
  return [textArgument(c)];
}

/** The JSON-RPC operations; false for the others. */
function runRpc(api, c, reference) {
  const options = c.options === undefined ? undefined : JSON.parse(JSON.stringify(c.options));
  let got;
  if (c.op === 'classifyJsonRpc' || c.op === 'classifyJsonRpcJson') {
    let arg;
    if (hasOwn.call(c, 'reference')) arg = referenced(c, reference(c.reference.file));
    else if (hasOwn.call(c, 'input')) arg = build(c.input, c.host).value;
    else arg = textArgument(c);
    got = capture(() => api[c.op](arg, options));
  } else if (c.op === 'decodeNdjson') {
    got = capture(() => {
      const decoder = api.createNdjsonDecoder(options);
      try {
        const frames = [];
        for (const chunk of chunksOf(c)) frames.push(...decoder.push(chunk));
        frames.push(...decoder.end());
        return frames;
      } finally {
        decoder.free();
      }
    });
  } else if (c.op === 'checkStdoutPurity') {
    const input = hasOwn.call(c, 'chunks') || hasOwn.call(c, 'chunksHex') ? chunksOf(c) : textArgument(c);
    got = capture(() => api.checkStdoutPurity(input, options));
  } else if (c.op === 'rpcSession') {
    got = capture(() => {
      const session = api.createRpcSession(options);
      try {
        return c.steps.map((step) => (step.dir === 'in' ? session.incoming(step.message) : session.outgoing(step.message)));
      } finally {
        session.free();
      }
    });
  } else {
    return false;
  }
  if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
  checkOutcome(got, c.expect, api);
  return true;
}

// ACP prompt admission and lifecycle:

/** An admission plan as the fixtures write it: each payload's `bytes` (a Uint8Array) as `bytesHex`. */
function plansAsHex(outcome) {
  if (!outcome.ok) return outcome;
  const value = outcome.value;
  for (const key of ['images', 'audio', 'resources']) {
    for (const entry of value[key]) {
      if (!hasOwn.call(entry, 'sha256')) continue;
      if (!(entry.bytes instanceof Uint8Array)) throw new Error(`${key}[${entry.index}]: bytes is not a Uint8Array`);
      entry.bytesHex = Array.from(entry.bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      delete entry.bytes;
    }
  }
  return outcome;
}

function runAcpCase(api, c) {
  let got;
  if (c.op === 'isCanonicalBase64') {
    const arg = hasOwn.call(c, 'text') ? c.text : build(c.input, c.host).value;
    got = capture(() => api.isCanonicalBase64(arg));
  } else if (c.op === 'sniffMediaType') {
    got = capture(() => api.sniffMediaType(hexBytes(c.bytesHex)));
  } else if (c.op === 'promptLifecycle') {
    const lifecycle = api.createPromptLifecycle();
    try {
      const outcomes = c.input.map((call) => {
        const name = typeof call === 'string' ? call : call.call;
        const args = typeof call === 'string' ? [] : [call.reason];
        const out = capture(() => lifecycle[name](...args));
        if (!out.ok && !(out.error instanceof api.ContractError)) throw out.error;
        return out.ok ? { ok: true, value: out.value === undefined ? null : out.value } : out;
      });
      got = { ok: true, value: outcomes };
    } finally {
      lifecycle.free();
    }
  } else {
    const args = () => {
      const a = build(c.args, c.host).value;
      if (c.options !== undefined) a.push(JSON.parse(JSON.stringify(c.options)));
      return a;
    };
    if (c.op === 'admitPrompt') {
      got = plansAsHex(capture(() => api.admitPrompt(...args())));
      if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
      checkOutcome(got, c.expect, api);
      got = plansAsHex(api.safeAdmitPrompt(...args()));
    } else {
      got = capture(() => api.advertisePromptCapabilities(...args()));
    }
  }
  if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
  checkOutcome(got, c.expect, api);
}

const ACP_OPS = new Set(['isCanonicalBase64', 'sniffMediaType', 'promptLifecycle', 'admitPrompt', 'advertisePromptCapabilities']);

// Compiled tools: the tool defined, then each step on the very object returned.
function compiledTool(api, c) {
  const plain = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  const got = capture(() => {
    const tool = api.defineTool(plain(c.tool), plain(c.options));
    const copy = plain(tool);
    return c.steps.map((step) => {
      const o = plain(step.options);
      const out = hasOwn.call(step, 'validate') ? capture(() => api.validateToolInput(tool, plain(step.validate), o))
        : hasOwn.call(step, 'validateJson') ? capture(() => api.validateToolInputJson(tool, step.validateJson, o))
          : hasOwn.call(step, 'validateMany') ? capture(() => api.validateToolInputs(tool, plain(step.validateMany), o))
            : hasOwn.call(step, 'free') ? capture(() => (tool.free(), null))
              : capture(() => api.validateToolInput(copy, plain(step.validateCopy), o));
      if (!out.ok && !(out.error instanceof api.ContractError)) throw out.error;
      if (hasOwn.call(step, 'validate')) {
        const twin = api.safeValidateToolInput(tool, plain(step.validate), o);
        if (twin.ok !== out.ok || (!twin.ok && twin.error.code !== out.error.code)) throw new Error('the safe twin disagrees');
      }
      return out;
    });
  });
  if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
  checkOutcome(got, c.expect, api);
}

export function runCase(api, c, recording, sessionFile = () => null, reference = () => null) {
  if (c.op === 'compiledTool') return compiledTool(api, c);
  if (runRpc(api, c, reference)) return;
  if (['checkSession', 'readSession', 'querySession'].includes(c.op)) return runSession(api, c, sessionFile);
  if (ACP_OPS.has(c.op)) return runAcpCase(api, c);
  if (c.op === 'assembleProviderStream') {
    const input = providerInput(c, recording);
    const options = c.options === undefined ? undefined : JSON.parse(JSON.stringify(c.options));
    const got = capture(() => api.assembleProviderStream(c.provider, input, options));
    if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
    checkOutcome(got, c.expect, api);
    checkOutcome(api.safeAssembleProviderStream(c.provider, input, options), c.expect, api);
    return;
  }
  if (c.op === 'assembleStream') {
    const got = assembleStream(api, c);
    if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
    checkOutcome(got, c.expect, api);
    if (!got.ok && got.at !== c.expect.at) throw new Error(`expected the error at event ${c.expect.at}, got ${got.at}`);
    return;
  }
  const fn = api[c.op];
  if (typeof fn !== 'function') throw new Error(`unknown op ${c.op}`);
  // checkChatRow takes a row as a value (`input`) or as its JSON text (`text`, `bytesHex`).
  const isText = c.op.endsWith('Json') || c.op.endsWith('Jsonl') || (c.op === 'checkChatRow' && !hasOwn.call(c, 'input'));
  // Tool input operations take the tool first (a definition as JSON), then the input or text.
  const withTool = hasOwn.call(c, 'tool');
  const call = (f) => {
    if (hasOwn.call(c, 'args')) {
      // Registry and pipeline operations: positional arguments (host values at `/i/...`), then
      // the options when the case gives them.
      const args = build(c.args, c.host).value;
      if (c.options !== undefined) args.push(JSON.parse(JSON.stringify(c.options)));
      return f(...args);
    }
    const { value, inherited } = isText ? { value: textArgument(c), inherited: [] } : build(c.input, c.host);
    const options = c.options === undefined ? undefined : JSON.parse(JSON.stringify(c.options));
    const tool = withTool ? JSON.parse(JSON.stringify(c.tool)) : undefined;
    return withInherited(inherited, () => (withTool ? f(tool, value, options) : f(value, options)));
  };
  const got = capture(() => call(fn));
  if (!got.ok && !(got.error instanceof api.ContractError)) throw got.error;
  checkOutcome(got, c.expect, api);
  if (SAFE_TWIN[c.op]) {
    const twin = call(api[SAFE_TWIN[c.op]]);
    try {
      checkOutcome(twin, c.expect, api);
    } catch (e) {
      throw new Error(`${SAFE_TWIN[c.op]}: ${e.message}`);
    }
  }
}

/** files: [{name, doc}]; recording(name): the bytes of a recorded provider stream, or null when
 *  the recordings are absent (those cases are then skipped and counted); sessionFile(name): the
 *  same for the recorded pi-mono sessions; reference(file): the
 *  text of a conformance data file (`reference` cases), or null when it is absent (skipped too).
 *  Returns {passed, failed, skipped, failures: [{id, file, message}]}. */
export function runFixtures(api, files, recording = () => null, sessionFile = () => null, reference = () => null) {
  let passed = 0;
  let skipped = 0;
  const failures = [];
  const ids = new Set();
  for (const { name, doc } of files) {
    for (const c of doc.cases) {
      if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
      ids.add(c.id);
      if ((hasOwn.call(c, 'recording') && recording(c.recording) === null)
          || (hasOwn.call(c, 'reference') && reference(c.reference.file) === null)) {
        skipped++;
        continue;
      }
      if (hasOwn.call(c, 'sessionFile') && sessionFile(c.sessionFile) === null) {
        skipped++;
        continue;
      }
      try {
        runCase(api, c, recording, sessionFile, reference);
        passed++;
      } catch (e) {
        failures.push({ id: c.id, file: name, message: e && e.stack ? e.stack : String(e) });
      }
    }
  }
  return { passed, failed: failures.length, skipped, failures };
}
