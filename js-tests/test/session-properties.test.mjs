// Property tests of session files in Node: random valid sessions (random trees,
// tool calls and results, compactions) pass; one random mutation gives its code at its line as
// the first problem; random bytes give a report, never a throw. The same properties as
// tests/session_properties.rs and py-host/tests/test_session_properties.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 300;
const HEADER = '{"type":"session","version":1,"id":"session","timestamp":"t","cwd":"/w"}';

function rng(seed) {
  let s = (seed >>> 0) || 1;
  return (n) => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s % n;
  };
}

function ancestors(entries, parent) {
  const out = [];
  for (let at = parent; at !== null; at = entries[at].parent) out.push(at);
  return out;
}

/** A valid session of `n` entries after the header. */
function session(seed, n) {
  const below = rng(seed);
  const entries = [];
  for (let i = 0; i < n; i++) {
    const parent = i === 0 || below(8) === 0 ? null : below(i);
    const up = ancestors(entries, parent);
    let kind = { type: 'user' };
    const r = below(4);
    if (r === 1) {
      const calls = Array.from({ length: below(3) }, (_, k) => [`call-${i}-${k}`, ['read', 'write', 'bash'][below(3)]]);
      kind = { type: 'assistant', calls };
    } else if (r === 2) {
      const answered = new Set(up.filter((a) => entries[a].kind.type === 'result').map((a) => entries[a].kind.call));
      const open = up.flatMap((a) => (entries[a].kind.type === 'assistant' ? entries[a].kind.calls : [])).filter(([c]) => !answered.has(c));
      if (open.length) {
        const [call, name] = open[below(open.length)];
        kind = { type: 'result', call, name };
      }
    } else if (r === 3 && up.length) {
      kind = { type: 'compaction', first: up[below(up.length)] };
    }
    entries.push({ id: `e${i}-${below(1000)}`, parent, kind });
  }
  return entries;
}

function line(entries, e) {
  const parentId = e.parent === null ? null : entries[e.parent].id;
  const message = (m) => JSON.stringify({ type: 'message', id: e.id, parentId, timestamp: 't', message: m });
  switch (e.kind.type) {
    case 'user':
      return message({ role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 });
    case 'assistant':
      return message({
        role: 'assistant',
        content: e.kind.calls.map(([id, name]) => ({ type: 'toolCall', id, name, arguments: {} })),
        stopReason: e.kind.calls.length ? 'toolUse' : 'stop',
        usage: { input: 1, output: 2, totalTokens: 3 },
        timestamp: 2,
      });
    case 'result':
      return message({ role: 'toolResult', toolCallId: e.kind.call, toolName: e.kind.name, content: [{ type: 'text', text: 'ok' }], isError: false, timestamp: 3 });
    default:
      return JSON.stringify({ type: 'compaction', id: e.id, parentId, timestamp: 't', summary: 's', firstKeptEntryId: entries[e.kind.first].id, tokensBefore: 10 });
  }
}

const text = (lines) => [HEADER, ...lines].join('\n') + '\n';
const OPTIONS = { maxIssues: 10000 };

test('random valid sessions pass, with the roots and leaves of their tree', () => {
  fc.assert(fc.property(fc.integer({ min: 1 }), fc.integer({ min: 1, max: 39 }), (seed, n) => {
    const entries = session(seed, n);
    const lines = entries.map((e) => line(entries, e));
    const report = api.checkSession(text(lines), OPTIONS);
    assert.deepEqual(report.problems, []);
    assert.equal(report.entries, n + 1);
    assert.deepEqual(report.roots, entries.filter((e) => e.parent === null).map((e) => e.id));
    const leaves = entries.filter((_, i) => !entries.some((e) => e.parent === i));
    assert.deepEqual(report.leaves, leaves.map((e) => e.id));
    const s = api.readSession(new TextEncoder().encode(text(lines)), OPTIONS);
    for (const leaf of leaves) {
      const chain = ancestors(entries, entries.indexOf(leaf)).reverse().map((i) => entries[i].id);
      assert.deepEqual(s.branch(leaf.id).map((b) => b.id), chain);
    }
  }), { numRuns: RUNS });
});

test('one mutation gives its code at its line', () => {
  fc.assert(fc.property(fc.integer({ min: 1 }), fc.integer({ min: 2, max: 29 }), fc.integer({ min: 1 }), fc.integer({ min: 0, max: 4 }), (seed, n, pick, which) => {
    const entries = session(seed, n);
    const lines = entries.map((e) => line(entries, e));
    const below = rng(pick);
    let expected = null;
    if (which === 0) {
      const j = below(n);
      lines.splice(j, 1);
      const k = entries.findIndex((e, i) => i > j && e.parent === j);
      expected = k < 0 ? null : [k + 1, 'ENTRY_PARENT_MISSING'];
    } else if (which === 1) {
      const j = 1 + below(n - 1);
      const m = below(j);
      const mutated = entries.map((e) => ({ ...e }));
      mutated[j].id = entries[m].id;
      lines[j] = line(mutated, mutated[j]);
      expected = [j + 2, 'ENTRY_ID_DUPLICATE'];
    } else if (which === 2) {
      const j = below(n - 1);
      const k = j + 1 + below(n - j - 1);
      const mutated = entries.map((e) => ({ ...e }));
      mutated[j].parent = k;
      lines[j] = line(mutated, mutated[j]);
      expected = [j + 2, 'ENTRY_PARENT_MISSING'];
    } else if (which === 3) {
      const results = entries.map((e, i) => (e.kind.type === 'result' ? i : -1)).filter((i) => i >= 0);
      if (results.length) {
        const j = results[below(results.length)];
        lines[j] = line(entries, { ...entries[j], kind: { ...entries[j].kind, call: 'no-such-call' } });
        expected = [j + 2, 'TOOL_RESULT_UNMATCHED'];
      }
    } else {
      const report = api.checkSession(lines.join('\n') + '\n', OPTIONS);
      assert.deepEqual([report.problems[0].line, report.problems[0].code], [1, 'SESSION_HEADER_MISSING']);
      return;
    }
    const report = api.checkSession(text(lines), OPTIONS);
    const first = report.problems[0];
    assert.deepEqual(first ? [first.line, first.code] : null, expected);
  }), { numRuns: RUNS });
});

test('random bytes and strings give a report, never a throw', () => {
  fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.string({ unit: 'binary', maxLength: 256 })), fc.boolean(), (input, pi) => {
    const options = { ...OPTIONS, dialect: pi ? 'pi' : 'seed' };
    const report = api.checkSession(input, options);
    assert.equal(report.ok, report.problems.length === 0);
    const out = api.safeReadSession(input, options);
    assert.equal(out.ok, report.ok);
    if (!out.ok) assert.ok(out.error instanceof api.ContractError);
  }), { numRuns: RUNS });
});

test('the incremental reader, fed any chunking of strings or bytes, reports what checkSession does', () => {
  fc.assert(fc.property(
    fc.integer({ min: 1 }), fc.integer({ min: 1, max: 19 }), fc.string({ maxLength: 40 }), fc.nat(),
    fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), fc.constantFrom(undefined, 60, 150),
    (seed, n, noise, at, cuts, bytes, maxBytes) => {
      const entries = session(seed, n);
      const whole = text(entries.map((e) => line(entries, e)) .map((l) => l.replace('"hi"', '"h\u{1F600}i"')));
      const i = at % (whole.length + 1);
      const input = whole.slice(0, i) + noise + whole.slice(i);
      const options = { ...OPTIONS, maxBytes };
      // The whole check of the very data pushed: `at` may fall inside the emoji's surrogate pair,
      // and TextEncoder writes each lone half as U+FFFD, so the bytes are not the string.
      const data = bytes ? new TextEncoder().encode(input) : input;
      const expected = api.checkSession(data, options);
      const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
      const checker = api.createSessionChecker(options);
      const pushed = [];
      let from = 0;
      for (const p of [...points, data.length]) {
        pushed.push(...checker.push(data.slice(from, p)));
        from = p;
      }
      const report = checker.finish();
      checker.free();
      assert.deepEqual(report, expected);
      // push returns the problems of completed lines: all of them but those of a last line
      // without a line end (and the empty text's), which finish() finds.
      assert.deepEqual(pushed, expected.problems.slice(0, pushed.length));
      assert.ok(expected.problems.length - pushed.length <= 1);
    }), { numRuns: RUNS });
});

test('createSessionChecker throws invalid options at once', () => {
  assert.throws(() => api.createSessionChecker({ dialect: 'v3' }), (e) => e instanceof api.ContractError && e.code === 'OPTION_INVALID');
  const checker = api.createSessionChecker();
  assert.throws(() => checker.push(5), (e) => e instanceof api.ContractError && e.code === 'JSON_INVALID');
  checker.free();
});
