// The official JSON Schema Test Suite (draft 2020-12) through the wasm build in Node, with
// remotes/ served as http://localhost:1234/... from the files (no network): each group's schema
// is a tool's, defined and used through the public API (suite-core.mjs: defineToolJson with the
// remotes as `resources`, validateToolInputJson). Required tests must all pass, and so must
// optional/format with `formats: 'assert'`; the rest of optional/ is reported. Skips with a
// message when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineTool, safeValidateToolInput, createRegistry, toAnthropicTools } from 'agent-contract';
import { schemaSuiteCheck } from '../suite-core.mjs';

const root = fileURLToPath(new URL('../../../shared/conformance/json-schema-test-suite/', import.meta.url));
// The required draft 2020-12 tests when ../shared is present: a lower bound, the count when it
// was pinned (the same in every host: tests/json_schema_suite.rs).
const REQUIRED_AT_LEAST = 1299;
const REF_REMOTE_AT_LEAST = 31;
// optional/format with `formats: 'assert'`: every test passes, the same count in every host.
const FORMAT_ASSERTED = 764;

function files(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

// A tool carries at most 64 documents: the remotes of the other drafts' directories (draft4 ...
// draft2019-09, v1) go only with a schema that names that directory.
const OTHER_DRAFT = /^http:\/\/localhost:1234\/(draft(?!2020-12\/)[^/]*|v1)\//;
function remotesFor(schemaText, remotes) {
  if (!schemaText.includes('localhost:1234')) return {};
  return Object.fromEntries(Object.entries(remotes).filter(([url]) => {
    const other = OTHER_DRAFT.exec(url);
    return !other || schemaText.includes(`localhost:1234/${other[1]}/`);
  }));
}

function run(paths, remotes, toolOptions) {
  let passed = 0;
  const failures = [];
  for (const path of paths) {
    for (const group of JSON.parse(readFileSync(path, 'utf8'))) {
      const schemaText = JSON.stringify(group.schema);
      const request = JSON.stringify({
        schema: group.schema,
        instances: group.tests.map((t) => t.data),
        resources: remotesFor(schemaText, remotes),
      });
      let verdicts;
      try {
        verdicts = schemaSuiteCheck(request, toolOptions);
      } catch (e) {
        verdicts = group.tests.map(() => `${e.code} ${e.path}: ${e.message}`);
      }
      group.tests.forEach((t, i) => {
        if (verdicts[i] === t.valid) passed++;
        else failures.push(`${relative(root, path)} | ${group.description} | ${t.description}: want ${t.valid}, got ${verdicts[i]}`);
      });
    }
  }
  return { passed, failed: failures.length, failures };
}

test('JSON Schema Test Suite draft2020-12 through the wasm build', (t) => {
  if (!existsSync(root)) {
    t.skip(`SKIPPED: JSON Schema Test Suite not found at ${root} (../shared is absent outside this workplace)`);
    return;
  }
  const remotes = {};
  for (const path of files(join(root, 'remotes'))) {
    remotes[`http://localhost:1234/${relative(join(root, 'remotes'), path)}`] = JSON.parse(readFileSync(path, 'utf8'));
  }
  const dir = join(root, 'tests/draft2020-12');
  const required = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  const optional = files(join(dir, 'optional'));
  const format = optional.filter((p) => p.includes('/format/'));
  const other = optional.filter((p) => !p.includes('/format/'));
  const r = run(required, remotes);
  const o = run(other, remotes);
  const f = run(format, remotes, { formats: 'assert' });
  for (const failure of [...r.failures, ...f.failures]) console.log(`FAIL ${failure}`);
  console.log(`json-schema-test-suite draft2020-12 (node): required ${r.passed} passed, ${r.failed} failed`);
  console.log(`json-schema-test-suite draft2020-12 (node): optional ${o.passed} passed, ${o.failed} failed (not asserted)`);
  console.log(`json-schema-suite optional/format (node): ${f.passed} passed, ${f.failed} failed`);
  // A lower bound (tests/json_schema_suite.rs, REQUIRED_AT_LEAST): nothing run also fails.
  assert.ok(r.passed >= REQUIRED_AT_LEAST, `only ${r.passed} required tests ran, expected at least ${REQUIRED_AT_LEAST}`);
  assert.equal(r.failed, 0);
  // format asserted (defineToolJson with formats: 'assert'): pinned, the same in every host.
  assert.equal(f.passed, FORMAT_ASSERTED);
  assert.equal(f.failed, 0);
});

// refRemote through the public API: each schema becomes a tool whose `resources`
// hold the remotes of its draft, each instance goes through validateToolInput; the Anthropic
// projection (documents bundled) is defined again without resources and gives the same
// verdicts for objects (its root is an object schema), or is refused with
// TOOL_RESOURCE_UNBUNDLABLE.
test('JSON Schema Test Suite refRemote through defineTool resources and validateToolInput', (t) => {
  if (!existsSync(root)) {
    t.skip(`SKIPPED: JSON Schema Test Suite not found at ${root} (../shared is absent outside this workplace)`);
    return;
  }
  const resources = {};
  for (const path of files(join(root, 'remotes'))) {
    const rel = relative(join(root, 'remotes'), path);
    if ((rel.startsWith('draft') || rel.startsWith('v1/')) && !rel.startsWith('draft2020-12/')) continue;
    resources[`http://localhost:1234/${rel}`] = JSON.parse(readFileSync(path, 'utf8'));
  }
  const tool = (inputSchema, res) => ({
    name: 'suite_case', description: 'A conformance case.', permission: 'read', inputSchema, ...(res ? { resources: res } : {}),
  });
  const verdict = (def, data) => {
    const r = safeValidateToolInput(defineTool(def), data);
    if (r.ok) return true;
    if (r.error.code === 'SCHEMA_MISMATCH') return false;
    return `${r.error.code} ${r.error.path}`;
  };
  let passed = 0, bundled = 0, refused = 0;
  const failures = [];
  for (const group of JSON.parse(readFileSync(join(root, 'tests/draft2020-12/refRemote.json'), 'utf8'))) {
    const def = tool(group.schema, resources);
    for (const c of group.tests) {
      const got = verdict(def, c.data);
      if (got === c.valid) passed++;
      else failures.push(`${group.description} | ${c.description}: want ${c.valid}, got ${got}`);
    }
    let projected;
    try {
      projected = toAnthropicTools(createRegistry([def]));
    } catch (e) {
      if (e.code === 'TOOL_RESOURCE_UNBUNDLABLE') { refused++; continue; }
      throw e;
    }
    bundled++;
    for (const c of group.tests) {
      const isObject = c.data !== null && typeof c.data === 'object' && !Array.isArray(c.data);
      const got = verdict(tool(projected[0].input_schema), c.data);
      if (got !== (c.valid && isObject)) failures.push(`bundled ${group.description} | ${c.description}: got ${got}`);
    }
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`refRemote through the public API (node): ${passed} passed, ${failures.length} failed; ${bundled} bundled, ${refused} refused`);
  assert.ok(passed >= REF_REMOTE_AT_LEAST && bundled > 0, `only ${passed} refRemote checks ran, expected at least ${REF_REMOTE_AT_LEAST}`);
  assert.deepEqual(failures, []);
});
