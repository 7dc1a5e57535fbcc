// The official JSON Schema Test Suite (draft 2020-12) through the wasm build in Node, with
// remotes/ served as http://localhost:1234/... from the files (no network): the same compile and
// validate path as tool schemas (schemaSuiteCheck). Required tests must all pass; optional/
// (format included) is reported. Skips with a message when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaSuiteCheck } from 'agent-contract';

const root = fileURLToPath(new URL('../../../shared/conformance/json-schema-test-suite/', import.meta.url));

function files(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

function run(paths, remotes) {
  let passed = 0;
  const failures = [];
  for (const path of paths) {
    for (const group of JSON.parse(readFileSync(path, 'utf8'))) {
      const schemaText = JSON.stringify(group.schema);
      const request = JSON.stringify({
        schema: group.schema,
        instances: group.tests.map((t) => t.data),
        resources: schemaText.includes('localhost:1234') ? remotes : {},
      });
      let verdicts;
      try {
        verdicts = schemaSuiteCheck(request);
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
  const f = run(format, remotes);
  for (const failure of r.failures) console.log(`FAIL ${failure}`);
  console.log(`json-schema-test-suite draft2020-12 (node): required ${r.passed} passed, ${r.failed} failed`);
  console.log(`json-schema-test-suite draft2020-12 (node): optional ${o.passed} passed, ${o.failed} failed; format ${f.passed} passed, ${f.failed} failed (not asserted)`);
  assert.ok(r.passed > 0);
  assert.equal(r.failed, 0);
});
