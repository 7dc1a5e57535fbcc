// The core's answers to hostile input, seen from Node (the host must not undo them): each answers
// with the exact value or code and path, its time grows linearly with the input, and (in the
// benchmark command) it answers in under 1 s (a 65,536-member object, issues cut at maxIssues,
// blank JSON Lines, uniqueItems on 65,536 objects).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from 'agent-contract';
import { assertFlat, assertLinear, rejects, returns } from '../timing.mjs';

const { parseAgentAction, validateToolInput, validateToolInputJson, definePolicy, strictSchemaIssues,
  parseAgentActionsJsonl, defineTool, memoryReport, parseAgentActions, validateToolInputs,
  createNdjsonDecoder } = api;

// Every call here is within the default limits: it leaves the instance it ran in under the
// documented 64 MiB (`lastCallBytes`, read before any renewal). Its outcome is asserted (the
// value, or the ContractError with its code); its time as growth (../timing.mjs).
const MEMORY_BOUND = 64 * 2 ** 20;
function bounded(call) {
  const result = call();
  const { lastCallBytes } = memoryReport();
  assert.ok(lastCallBytes <= MEMORY_BOUND, `the call left its instance at ${lastCallBytes} bytes`);
  return result;
}
const ok = (call, ms) => bounded(() => returns(call, ms));
const fails = (code, call) => bounded(() => rejects(code, call));

const members = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const tool = (inputSchema) => defineTool({ name: 't', description: 'd', permission: 'read', inputSchema });

test('P3: an object of 65,536 members is read in one pass', () => {
  const big = members(65536);
  const action = ok(() => parseAgentAction({ type: 'tool_call', callId: 'c', tool: 't', input: big }));
  assert.equal(Object.keys(action.input).length, 65536);
  const input = ok(() => validateToolInput(tool({ type: 'object' }), big));
  assert.deepEqual(input, big);
  const props = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`p${i}`, { type: 'string' }]));
  const issues = ok(() => strictSchemaIssues({ type: 'object', properties: props }));
  assert.equal(issues.length, 4001);
  const rules = Array.from({ length: 65536 }, (_, i) => ({ effect: 'allow', tool: `t${i}` }));
  const policy = ok(() => definePolicy({ rules }));
  assert.equal(policy.rules.length, 65536);
});

test('P3: reading an object, its schema and a policy grows linearly with their members', () => {
  const object = tool({ type: 'object' });
  assertLinear((n) => { const input = members(n); return () => parseAgentAction({ type: 'tool_call', callId: 'c', tool: 't', input }); }, 8192);
  assertLinear((n) => { const input = members(n); return () => validateToolInput(object, input); }, 8192);
  assertLinear((n) => {
    const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));
    return () => strictSchemaIssues({ type: 'object', properties });
  }, 1000);
  assertLinear((n) => { const rules = Array.from({ length: n }, (_, i) => ({ effect: 'allow', tool: `t${i}` })); return () => definePolicy({ rules }); }, 8192);
});

test('strings under a large enum: each found by a search, not by comparing it with every value', () => {
  // 50,000 strings against 20,000 values compared one by one took 4.4 s (0.55 MB). With the
  // enum 16x larger and the same input, the time barely grows: valid input (the schema
  // program), and input whose last string is not a value (the engine).
  const listOf = (m) => tool({ type: 'object', properties: { a: { type: 'array', items: { enum: values(m) } } } });
  const values = (m) => Array.from({ length: m }, (_, i) => `v${String(i).padStart(7, '0')}`);
  const input = (m, last) => ({ a: Array.from({ length: 2000 }, (_, i) => (i === 1999 && last !== undefined ? last : `v${String(m - 1 - (i % 100)).padStart(7, '0')}`)) });
  for (const last of [undefined, 'not a value']) {
    assertFlat((m) => {
      const t = listOf(m);
      const value = input(m, last);
      return () => validateToolInput(t, value);
    }, 1250);
  }
  const t = listOf(20000);
  assert.deepEqual(ok(() => validateToolInput(t, input(20000))), input(20000));
  const error = fails('SCHEMA_MISMATCH', () => validateToolInput(t, input(20000, 'x')));
  assert.equal(error.issues[0].path, '/a/1999');
});

test('values other than strings under a large enum: each found by its hash', () => {
  // 65,000 numbers against 20,000 numbers compared one by one took 6.5 s (0.39 MB). With the
  // enum 16x larger and the same input, the time barely grows, valid or with a last item that
  // is no value; equal as JSON Schema compares (2.0 is 2, -0 is 0, members in any order).
  const listOf = (m) => tool({ type: 'object', properties: { a: { type: 'array', items: { enum: [...values(m), { k: [1, 2] }] } } } });
  const values = (m) => Array.from({ length: m }, (_, i) => i * 2);
  const input = (m, last) => JSON.stringify({ a: Array.from({ length: 2000 }, (_, i) => (i === 1999 && last !== undefined ? last : 2 * (m - 1 - (i % 100)))) });
  for (const last of [undefined, -1]) {
    assertFlat((m) => {
      const t = listOf(m);
      const text = input(m, last);
      return () => validateToolInputJson(t, text);
    }, 1250);
  }
  const t = listOf(20000);
  assert.deepEqual(ok(() => validateToolInputJson(t, '{"a":[2.0,-0,39998,{"k":[1,2.0]}]}')), { a: [2, -0, 39998, { k: [1, 2] }] });
  const error = fails('SCHEMA_MISMATCH', () => validateToolInputJson(t, input(20000, 1)));
  assert.equal(error.issues[0].path, '/a/1999');
});

test('a failed enum: its words made once, at most 256 bytes, whatever its size', () => {
  // 100 strings failing under an enum of 20,000 values took 1.45 s and left the instance at
  // 154 MiB for a 1 KB input: each issue quoted every value (220 KB). The time barely grows
  // with the enum, and the message is cut with an ellipsis.
  const listOf = (m) => tool({ type: 'object', properties: { a: { type: 'array', items: { enum: Array.from({ length: m }, (_, i) => `value-number-${i}`) } } } });
  const text = JSON.stringify({ a: Array.from({ length: 100 }, (_, i) => `nope${i}`) });
  assertFlat((m) => { const t = listOf(m); return () => validateToolInputJson(t, text); }, 1250);
  const error = fails('SCHEMA_MISMATCH', () => validateToolInputJson(listOf(20000), text));
  assert.equal(error.issues.length, 100);
  for (const issue of error.issues) {
    assert.equal(issue.keyword, 'enum');
    assert.ok(issue.message.startsWith("value must be one of 'value-number-0', 'value-number-1', ") && issue.message.endsWith('…'), issue.message);
    assert.ok(new TextEncoder().encode(issue.message).length <= 256 + 3);
  }
  assert.equal(fails('SCHEMA_MISMATCH', () => validateToolInputJson(listOf(2), '{"a":["z"]}')).issues[0].message, "value must be one of 'value-number-0', 'value-number-1'");
});

test('a schema that multiplies the work on every value: the engine stops at its budget of evaluations', () => {
  // An anyOf of 300 branches over 65,000 items took 2.8 s (0.38 MB), 300 uniqueItems on them
  // 1.2 s, 300 allOf branches tracking unevaluatedProperties of 60,000 members 8.4 s. The
  // engine counts its evaluations (and the work proportional to a value each does) against a
  // budget, 2,500,000 below 500,000 values: 300 evaluations per item pass 8,333 items, not 8,334.
  const anyOf = [...Array.from({ length: 298 }, () => ({ type: 'string' })), { type: 'number' }];
  const t = tool({ type: 'object', properties: { a: { type: 'array', items: { anyOf } } } });
  const numbers = (n) => ({ a: Array.from({ length: n }, (_, i) => i) });
  assert.deepEqual(ok(() => validateToolInput(t, numbers(8333))), numbers(8333));
  assert.deepEqual(ok(() => validateToolInputJson(t, JSON.stringify(numbers(8333)))), numbers(8333));
  for (const call of [() => validateToolInput(t, numbers(8334)), () => validateToolInputJson(t, JSON.stringify(numbers(8334)))]) {
    const refused = fails('INPUT_TOO_LARGE', call);
    assert.deepEqual([refused.path, refused.message], ['', 'validating this input against its schema takes more than 2500000 evaluations']);
  }
  const at = (n, inputSchema) => ({ t: tool(inputSchema), text: JSON.stringify(numbers(n)) });
  const heavy = [
    at(65000, { type: 'object', properties: { a: { type: 'array', items: { anyOf } } } }),
    at(65000, { type: 'object', properties: { a: { allOf: Array.from({ length: 300 }, () => ({ uniqueItems: true })) } } }),
    { t: tool({ type: 'object', properties: { a: { allOf: Array.from({ length: 300 }, () => ({ minProperties: 1 })), unevaluatedProperties: true } } }),
      text: JSON.stringify({ a: members(60000) }) },
    { t: tool({ type: 'object', patternProperties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`^p${i}_[a-z]+$`, { type: 'string' }])) }),
      text: JSON.stringify(members(50000)) },
  ];
  for (const { t: heavyTool, text } of heavy) {
    const refused = fails('INPUT_TOO_LARGE', () => validateToolInputJson(heavyTool, text));
    assert.equal(refused.path, '');
  }
  // Below the budget the time grows with the input; past it, it stops growing.
  assertLinear((n) => { const text = JSON.stringify(numbers(n)); return () => validateToolInputJson(t, text); }, 500);
  // The inputs of one call share one budget: 65,000 small items, each within a budget of its
  // own, took 3.75 s (0.77 MB). The first ~8,300 pass, every later one is refused.
  const each = tool({ type: 'object', properties: { a: { anyOf } } });
  const outcomes = ok(() => validateToolInputs(each, Array.from({ length: 65000 }, (_, i) => ({ a: i }))));
  const first = outcomes.findIndex((o) => !o.ok);
  assert.ok(first >= 8000 && first <= 8333, `first refused: ${first}`);
  assert.ok(outcomes.slice(0, first).every((o) => o.ok));
  for (const o of outcomes.slice(first)) {
    assert.deepEqual([o.error.code, o.error.path, o.error.message], ['INPUT_TOO_LARGE', '', 'validating the inputs of this call against their schemas takes more than 2500000 evaluations']);
  }
});

test('format "regex": each value parsed once, whatever its class escapes, up to the 64 KB of a pattern', () => {
  // 1.35 MB of \\d\\w\\s took 3.3 s (each \\s rewritten into a class of ten characters and parsed
  // again), and a 1 MB value left the instance at 85 MB (its syntax tree). Sixteen values of
  // 64 KB are valid; one byte more is no pattern the core takes.
  const t = defineTool({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { a: { type: 'array', items: { type: 'string', format: 'regex' } } } } }, { formats: 'assert' });
  const pattern = '\\d\\w\\s[^\\s\\W]'.repeat(5041) + '\\da';
  assert.equal(pattern.length, 65536);
  const input = { a: Array.from({ length: 16 }, () => pattern) };
  assert.deepEqual(ok(() => validateToolInput(t, input)), input);
  input.a[15] += 'x';
  const error = fails('SCHEMA_MISMATCH', () => validateToolInput(t, input));
  assert.deepEqual(error.issues.map((i) => [i.path, i.keyword]), [['/a/15', 'format']]);
  assert.match(error.issues[0].message, /longer than 65536 bytes, the most a pattern may have/);
});

test('N4: SCHEMA_MISMATCH lists maxIssues issues and says it was cut', () => {
  const t = tool({ type: 'object', properties: { a: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'array', minItems: 2, items: { $ref: '#/$defs/n' } } } });
  // 2,000 nested arrays (34 KB): 16,000 failures, cut to 100.
  const text = JSON.stringify({ a: Array.from({ length: 2000 }, () => [[[[[[[[]]]]]]]]) });
  const error = fails('SCHEMA_MISMATCH', () => validateToolInputJson(t, text));
  assert.deepEqual([error.code, error.path, error.truncated], ['SCHEMA_MISMATCH', '', true]);
  assert.ok(error.issues.length >= 1 && error.issues.length <= 100);
  // A 1 MB input of this shape (60,000 of them, ~510,000 arrays failing everywhere) was ~15 s and
  // left the instance far over 64 MiB: as text and as a value, under 1 s and the bound.
  const wide = { a: Array.from({ length: 60000 }, () => [[[[[[[[]]]]]]]]) };
  for (const call of [() => validateToolInputJson(t, JSON.stringify(wide)), () => validateToolInput(t, wide)]) {
    const big = fails('SCHEMA_MISMATCH', call);
    assert.deepEqual([big.code, big.path, big.truncated], ['SCHEMA_MISMATCH', '', true]);
  }
  const small = tool({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } });
  const cut = fails('SCHEMA_MISMATCH', () => validateToolInput(small, { a: 1, b: 2 }, { maxIssues: 1 }));
  assert.deepEqual([cut.issues.map((i) => i.path), cut.truncated], [['/a'], true]);
  const whole = fails('SCHEMA_MISMATCH', () => validateToolInput(small, { a: 1, b: 2 }));
  assert.deepEqual([whole.issues.length, whole.truncated], [2, undefined]);
  // Failing everywhere, as text: the time grows with the text, not with the failures found.
  assertLinear((n) => { const text = JSON.stringify({ a: Array.from({ length: n }, () => [[[[[[[[]]]]]]]]) }); return () => validateToolInputJson(t, text); }, 3000);
});

test('N5: blank JSON Lines past maxArrayLength are one INPUT_TOO_LARGE, at once', () => {
  const error = fails('INPUT_TOO_LARGE', () => parseAgentActionsJsonl('\n'.repeat(1e6)));
  assert.deepEqual([error.code, error.path], ['INPUT_TOO_LARGE', '']);
  // Within the cap every blank line is its own error: linear in the core; the host builds one
  // ContractError per line (measured ~1.2 s in Node on a loaded machine), so it has no
  // absolute bound even in the benchmark.
  const result = ok(() => parseAgentActionsJsonl('\n'.repeat(65536)), Infinity);
  assert.equal(result.length, 65536);
  assert.deepEqual([result[65535].ok, result[65535].error.code], [false, 'JSON_INVALID']);
  assertLinear((n) => { const text = '\n'.repeat(n); return () => parseAgentActionsJsonl(text); }, 4096);
});

test('uniqueItems on 65,536 objects', () => {
  const t = tool({ type: 'object', properties: { a: { type: 'array', uniqueItems: true } } });
  const a = Array.from({ length: 65536 }, (_, i) => ({ x: i }));
  const input = ok(() => validateToolInput(t, { a }));
  assert.equal(input.a.length, 65536);
  assertLinear((n) => { const items = Array.from({ length: n }, (_, i) => ({ x: i })); return () => validateToolInput(t, { a: items }); }, 8192);
});

test('a megabyte-long unknown key: the path names it whole, the message quotes 64 characters', () => {
  // Found by the fuzzer: projections read a registry under the ceilings, and the key was
  // copied into the path, the message and their reply: ~62 MB of wasm memory for a 6 MB key.
  const key = '€'.repeat(2 ** 21);
  const tool = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, permissions: ['read'] };
  const error = fails('REGISTRY_INVALID', () => api.toOpenAITools({ tools: [tool], [key]: 1 }));
  assert.deepEqual([error.code, error.path === `/${key}`], ['REGISTRY_INVALID', true]);
  assert.ok(error.message.length < 200, error.message.slice(0, 200));
  assertLinear((n) => { const long = '€'.repeat(n); return () => api.toOpenAITools({ tools: [tool], [long]: 1 }); }, 2 ** 19);
});

test("a schema's patterns: rewritten in one pass, measured together before any is compiled", () => {
  // cargo fuzz's input (tests/fuzz_inputs/): operation byte 1 (defineTool), then the definition.
  // 135 \d in a 12 KB pattern were 135 parses of it (2.5 s natively in the fuzz build).
  const found = readFileSync(new URL('../../tests/fuzz_inputs/host_text-slow-25ba6fee', import.meta.url));
  const result = ok(() => defineTool(JSON.parse(found.subarray(1).toString('utf8'))));
  assert.equal(result.name, 't');
  // 2,000 copies of \p{L}{3} (100 KB) took 1.9 s and 330 MB natively to compile: the first
  // pattern past the definition's budget is named (the walk takes the last property first).
  const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { type: 'string', pattern: '\\p{L}{3}' }]));
  const error = fails('TOOL_SCHEMA_UNSUPPORTED', () => tool({ type: 'object', properties: many }));
  assert.deepEqual([error.code, error.path], ['TOOL_SCHEMA_UNSUPPORTED', '/inputSchema/properties/p1943/pattern']);
  // One pattern of 100,000 \p{L} (600 KB): 1.1 s and 590 MB natively, its syntax tree alone.
  const long = { type: 'object', properties: { x: { type: 'string', pattern: '\\p{L}'.repeat(100000) } } };
  const tooLong = fails('TOOL_SCHEMA_UNSUPPORTED', () => tool(long));
  assert.deepEqual([tooLong.code, tooLong.path], ['TOOL_SCHEMA_UNSUPPORTED', '/inputSchema/properties/x/pattern']);
  // Patterns that fill most of the budget compile, and validate, within the bound.
  const alternatives = Array.from({ length: 9000 }, (_, j) => `w${j}x`).join('|');
  const big = ok(() => tool({ type: 'object', properties: { a: { type: 'string', pattern: `^(?:${alternatives})$` } } }));
  assert.deepEqual(ok(() => validateToolInput(big, { a: 'w8999x' })), { a: 'w8999x' });
  const mismatch = fails('SCHEMA_MISMATCH', () => validateToolInput(big, { a: 'w9000x' }));
  assert.deepEqual([mismatch.code, mismatch.issues[0].keyword], ['SCHEMA_MISMATCH', 'pattern']);
});

test("the patterns of a registry's definitions share one budget", () => {
  // 100 tools of 200 bytes, each with a distinct pattern of 150 letters of any script (~3.5 MiB
  // of automata, within a definition's 4 MiB): with a budget each, 21 s and 700 MB. They share
  // 12 MiB (16 bytes per byte of their schemas when that is more): the fourth is refused.
  const { createRegistry, catalog } = api;
  const costly = (n) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: 'd', permission: 'read',
    inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: `^\\p{L}{150}${'b'.repeat(i)}$` } } } }));
  const refused = fails('TOOL_SCHEMA_UNSUPPORTED', () => createRegistry(costly(100)));
  assert.equal(refused.path, '/3/inputSchema/properties/s/pattern');
  assert.match(refused.message, /^the regular expressions of the definitions in this call need more than 12\.0 MiB/);
  // Whatever the cache holds: each tool defined alone first (each within its own budget).
  for (const t of costly(4)) ok(() => defineTool(t));
  assert.equal(fails('TOOL_SCHEMA_UNSUPPORTED', () => createRegistry(costly(4))).path, refused.path);
  assert.equal(fails('TOOL_SCHEMA_UNSUPPORTED', () => catalog({ tools: costly(4) })).path, '/tools/3/inputSchema/properties/s/pattern');
  // Ordinary patterns: 1,000 tools, each a distinct short one, compile.
  const short = Array.from({ length: 1000 }, (_, i) => ({ name: `t${i}`, description: 'd', permission: 'read',
    inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: `^[a-z0-9_-]{1,64}${i}$` } } } }));
  assert.equal(ok(() => createRegistry(short)).tools.length, 1000);
  // One ordinary pattern in 6,000 distinct schemas (0.95 MB): compiled and paid for once, where
  // each schema paying for its own copy was refused past ~1,100 tools.
  const sharing = Array.from({ length: 6000 }, (_, i) => ({ name: `t${i}`, description: 'd', permission: 'read',
    inputSchema: { type: 'object', properties: { [`s${i}`]: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } } } }));
  assert.equal(ok(() => createRegistry(sharing)).tools.length, 6000);
});

test('a registry of a megabyte of distinct definitions answers within a second', () => {
  // 10,000 tools of ~100 bytes, each schema distinct, so the compile cache serves none: each is
  // compiled once and held, and the registry's value is written from the definitions held (a
  // registry that compiled each twice took 1.4-1.5 s per MB and its instance to 78 MB).
  const { createRegistry, toOpenAITools } = api;
  const tools = Array.from({ length: 10000 }, (_, i) => ({ name: `t${i}`, description: 'd', permission: 'read',
    inputSchema: { type: 'object', required: [`${i}`] } }));
  const mb = JSON.stringify(tools).length / 1e6;
  const registry = ok(() => createRegistry(tools), 1000 * mb);
  assert.equal(registry.tools.length, 10000);
  assert.equal(ok(() => toOpenAITools(registry), 1000 * mb).length, 10000);
});

test('the schema cache is bounded by what it holds, not by its text', () => {
  // 300 distinct schemas of 200 empty properties: ~1.4 KB of text, ~300 KB compiled in wasm.
  // Bounded by its keys' text, the cache kept enough of them to pass 64 MiB (the fuzzer found
  // it: an instance renewed after a call at the default limits).
  for (let k = 0; k < 300; k++) {
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, {}]));
    properties[`k${k}`] = {};
    const input = ok(() => validateToolInput({ name: 't', description: 'd', permission: 'read', inputSchema: { type: 'object', properties } }, { p1: 1 }), Infinity);
    assert.deepEqual(input, { p1: 1 });
  }
});

test('batches at the default limits stay under the memory bound', () => {
  // 65,535 failed items each: built as one tree, their replies took the instance to 77-152 MB
  // (the fuzzer's 10^6 run); written item by item, within the bound.
  const t = tool({ type: 'object' });
  for (const call of [
    () => parseAgentActionsJsonl('\n'.repeat(65535)),
    () => parseAgentActions(Array.from({ length: 65535 }, () => ({}))),
    () => validateToolInputs(t, Array.from({ length: 65535 }, () => 1)),
  ]) {
    const result = ok(call);
    assert.equal(result.length, 65535);
    assert.equal(result[65534].ok, false);
  }
  // A megabyte of blank lines is a million NDJSON frames (~170 MB of reply as objects): it
  // crosses in slices, and a line repeated is one run of the reply (wire::FrameWriter): 1.3-1.8 s
  // as objects, 0.4-0.57 s as rows (~14 MB of reply), 0.17-0.3 s as runs.
  const decoder = createNdjsonDecoder();
  const frames = ok(() => decoder.push('\n'.repeat(1 << 20)));
  assert.equal(frames.length, 1 << 20);
  assert.deepEqual([frames[0].code, frames.at(-1).line], ['RPC_BLANK_LINE', 1 << 20]);
  decoder.free();
  // checkStdoutPurity gathered a chunk's frames in a list first: a megabyte of blank lines took
  // the instance to 284 MB (the fuzzer's line floods). Now each frame is counted as it comes.
  const purity = ok(() => api.checkStdoutPurity(new TextEncoder().encode('\n'.repeat(1 << 20))));
  assert.deepEqual([purity.pure, purity.frames, purity.problemCount, purity.problems.length, purity.truncated], [false, 0, 1 << 20, 1000, true]);
  // Growth measured on pushes whose frames fit in V8's young generation: at 4 x 65,536 frames a
  // push took most of its time in the kernel's page faults for fresh heap during a full test run
  // (4x the input, 12x the CPU time; 4.2x alone), which is the machine's memory state, not the code.
  const lines = createNdjsonDecoder();
  assertLinear((n) => { const text = '\n'.repeat(n); return () => lines.push(text); }, 1 << 14);
  lines.free();
  assertLinear((n) => { const bytes = new TextEncoder().encode('\n'.repeat(n)); return () => api.checkStdoutPurity(bytes); }, 1 << 14);
});


test('a JSON-RPC batch past maxBatchLength is one -32600, at once and within the memory bound', () => {
  // 65,536 elements (within maxArrayLength) made an item and a reply each: 160-198 MB of wasm
  // memory and up to 0.9 s for 131 KB. Now one invalid request for the whole batch.
  const ones = Array(65536).fill(1);
  for (const call of [() => api.classifyJsonRpc(ones), () => api.classifyJsonRpcJson(JSON.stringify(ones))]) {
    const result = ok(call);
    assert.deepEqual([result.kind, result.code, result.path, result.reason], ['invalid_request', 'RPC_MESSAGE_TOO_LARGE', '', 'a batch of 65536 messages is over maxBatchLength (1024)']);
  }
  const decoder = api.createNdjsonDecoder();
  const frames = ok(() => decoder.push(`${JSON.stringify(ones)}\n`.repeat(8)));
  assert.deepEqual(frames.map((f) => f.code), Array(8).fill('RPC_MESSAGE_TOO_LARGE'));
  decoder.free();
});

test('past 1 MB at the default limits, memory grows at most 48 MiB per MB past the first', () => {
  // docs/decisions.md, "The memory bound": the core holds a value as a tree, so past 1 MB the
  // bound grows with the input. The heaviest per MB known in Node: a JSON-RPC message (default
  // maxBytes 16 MiB) of 8 MB of zeros, ~15 MiB per MB past the first (173 MiB).
  const zeros = '[' + Array(65536).fill('0').join(',') + ']';
  const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"v":[${Array(62).fill(zeros).join(',')}]}}`;
  const MB = 2 ** 20;
  const result = api.classifyJsonRpcJson(text);
  assert.equal(result.kind, 'request');
  const { lastCallBytes } = memoryReport();
  const bound = MEMORY_BOUND + (text.length - MB) * 48;
  assert.ok(lastCallBytes > MEMORY_BOUND, `${lastCallBytes} bytes: the case no longer shows the growth`);
  assert.ok(lastCallBytes <= bound, `the call left its instance at ${lastCallBytes} bytes, over ${bound}`);
});

test('a report per line or row, as many as maxArrayLength allows, stays within the memory bound', () => {
  // Written out one by one, never all held as values (~1 KB each: ~80 MB).
  const lines = ok(() => api.checkChatRowsJsonl('\n'.repeat(65536)));
  assert.equal(lines.length, 65536);
  assert.deepEqual(lines[65535].problems.map((p) => p.code), ['ROW_LINE_BLANK']);
  const rows = ok(() => api.checkChatRows(Array.from({ length: 65536 }, () => [])));
  assert.equal(rows.length, 65536);
  assert.equal(rows[0].ok, false);
});

test("a schema's objects and arrays are counted, subschemas or not, before the engine holds them", () => {
  // Nested one-member objects in `examples`: the engine's tree of the document took ~600 bytes
  // each (1.1 MB of text: 125 MB of wasm memory). Past the count the definition is refused at
  // once; at the count it is compiled within the bound.
  const chain = (n) => { let v = {}; for (let i = 1; i < n; i++) v = { a: v }; return v; };
  const examples = (total) => [...Array.from({ length: Math.floor((total - 2) / 100) }, () => chain(100)),
    ...((total - 2) % 100 ? [chain((total - 2) % 100)] : [])];
  const refused = fails('TOOL_SCHEMA_UNSUPPORTED', () => tool({ type: 'object', examples: Array(1850).fill(chain(100)) }));
  assert.equal(refused.path, '/inputSchema');
  fails('TOOL_SCHEMA_UNSUPPORTED', () => tool({ type: 'object', examples: examples(16385) }));
  const defined = ok(() => tool({ type: 'object', examples: examples(16384) }));
  assert.deepEqual(ok(() => validateToolInput(defined, { a: 1 })), { a: 1 });
});

test('an input the schema engine checks holds at most 80,000 objects', () => {
  // A megabyte of nested one-member objects: the engine's own tree of it took 98 MB. Refused
  // before it is built; at the count the engine checks it within the bound.
  const chain = (n) => { let v = { b: 1 }; for (let i = 1; i < n; i++) v = { a: v }; return v; };
  const engine = tool({ type: 'object', additionalProperties: { not: { type: 'string' } }, properties: { x: { uniqueItems: true } } });
  const refused = fails('INPUT_TOO_LARGE', () => validateToolInput(engine, { x: Array.from({ length: 2800 }, () => chain(60)) }));
  assert.equal(refused.path, '');
  const atCount = { x: [...Array.from({ length: 1092 }, () => chain(60)), chain(15)] };
  assert.equal(fails('SCHEMA_MISMATCH', () => validateToolInput(engine, atCount)).truncated, true);
  assert.deepEqual(ok(() => validateToolInput(tool({ type: 'object' }), atCount)), atCount);
});

test("a schema's subschemas under long names nested deep: their pointers are bounded before any is held", () => {
  // Every subschema's JSON Pointer is held while a schema compiles: 62 levels of 1,000-byte
  // names over 4,000 subschemas (a 114 KB definition) took 16 s and 1 GiB. Refused at once past
  // 4 MiB of pointers, with `{}` leaves too (each pending one held its whole path); the same
  // nesting with short names compiles.
  const nest = (key, leaves, leaf) => {
    let s = { properties: Object.fromEntries(Array.from({ length: leaves }, (_, i) => [`p${i}`, leaf])) };
    for (let d = 0; d < 62; d++) s = { properties: { [key]: s } };
    return s;
  };
  for (const leaf of [true, {}, { type: 'string' }]) {
    const refused = fails('TOOL_SCHEMA_UNSUPPORTED', () => tool(nest('k'.repeat(1000), 4000, leaf)));
    assert.equal(refused.path, '/inputSchema');
    assert.match(refused.message, /JSON Pointers of the schema's subschemas/);
  }
  assert.equal(ok(() => tool(nest('k', 4000, true))).name, 't');
});

test('geminiSchemaIssues lists at most 4 MiB of issues, however long their paths', () => {
  // 60,000 unknown keywords under 120 nested properties of 100-byte names: each issue's path
  // repeats every level (150 MB of issues, 460 MiB of memory). The list ends with `truncated`.
  let s = Object.fromEntries(Array.from({ length: 60000 }, (_, i) => [`x${i}`, 1]));
  for (let d = 0; d < 120; d++) s = { type: 'object', properties: { ['n'.repeat(100)]: s } };
  const issues = ok(() => api.geminiSchemaIssues(s));
  const bytes = issues.reduce((n, i) => n + i.path.length + i.keyword.length + i.message.length, 0);
  assert.ok(bytes <= 4 * 2 ** 20, `${bytes} bytes of issues`);
  assert.deepEqual(issues.at(-1), { path: '', keyword: 'truncated', message: `more issues than fit in ${4 * 2 ** 20} bytes; the first are listed` });
  assert.equal(issues[0].keyword, 'x0');
  assert.equal(issues[0].path, `${'/properties/'.concat('n'.repeat(100)).repeat(120)}/x0`);
});

test("a registry's tools take at most 8 MiB of its shared resources, each holding a copy", () => {
  // 3,000 tools referencing one 550 KB document (0.97 MB of call) ran the instance out of memory
  // after 9.6 s; 1,000 referencing 100 KB took 0.9 s and 319 MiB. Refused at once now; under
  // the bound the registry, its projections and its catalog stay within the memory bound.
  const u = 'https://example.com/s.json';
  const sharing = (n, size) => ({
    tools: Array.from({ length: n }, (_, k) => ({ name: `t${k}`, description: 'd', permission: 'read', inputSchema: { type: 'object', properties: { a: { $ref: u } } } })),
    resources: { [u]: { type: 'string', description: 'x'.repeat(size) } },
  });
  const refused = fails('INPUT_TOO_LARGE', () => api.createRegistry(sharing(3000, 550000)));
  assert.equal(refused.path, '/tools/15');
  assert.equal(fails('INPUT_TOO_LARGE', () => api.createRegistry(sharing(1000, 100000))).path, '/tools/83');
  const registry = ok(() => api.createRegistry(sharing(80, 100000)));
  assert.equal(registry.tools.length, 80);
  assert.equal(ok(() => api.toOpenAITools(registry)).length, 80);
  assert.equal(ok(() => api.catalog(JSON.parse(JSON.stringify(registry)))).length, 80);
});

test('jsonSchemaForTarget over long names nested deep holds positions, not a pointer per level', () => {
  // 250 levels of 1,900-byte names (0.96 MB): each level held its whole pointer while it was
  // converted, 128 MiB of instance. Same answer, within the memory bound.
  let s = { type: 'string' };
  for (let d = 0; d < 250; d++) s = { type: 'object', properties: { ['n'.repeat(1900)]: s } };
  for (const convert of [api.jsonSchemaForTarget, api.standardJsonSchema]) {
    const out = ok(() => convert(s, 'draft-07'));
    assert.deepEqual(out, s);
  }
  // An error deep down still names its whole pointer.
  let bad = { $anchor: 'a' };
  for (let d = 0; d < 250; d++) bad = { properties: { ['n'.repeat(1900)]: bad } };
  const refused = fails('SCHEMA_TARGET_UNSUPPORTED', () => api.jsonSchemaForTarget(bad, 'draft-07'));
  assert.equal(refused.path, `${`/properties/${'n'.repeat(1900)}`.repeat(250)}/$anchor`);
});

test('a flood of dependentRequired failures keeps the issues it lists, not every issue', () => {
  // 625 present members each requiring the same 500 absent names (a 2.1 MB call): 312,500
  // issues, each formatted and held before the list was cut at maxIssues (98 MB natively).
  const names = Array.from({ length: 500 }, (_, i) => `x${i}`);
  const dependentRequired = Object.fromEntries(Array.from({ length: 625 }, (_, i) => [`a${i}`, names]));
  const input = Object.fromEntries(Array.from({ length: 625 }, (_, i) => [`a${i}`, 0]));
  const error = fails('SCHEMA_MISMATCH', () => validateToolInput(tool({ type: 'object', dependentRequired }), input));
  assert.equal(error.issues.length, 100);
  assert.equal(error.truncated, true);
  assert.equal(error.message, 'the input does not match the tool\'s inputSchema (312500 issues, the first 100 listed)');
  assert.deepEqual(error.issues[0], { path: '/x0', keyword: 'dependentRequired', message: 'property "x0" is required when "a0" is present' });
});
