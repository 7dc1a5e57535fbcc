// JSONTestSuite (nst/JSONTestSuite, test_parsing/) through the wasm build: parseJson on each file's
// bytes, with the expectations of tests/json_test_suite.json (the same table the Rust and Python
// runners use). Skips with a message when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as api from 'agent-contract';

const dir = fileURLToPath(new URL('../../../shared/conformance/json-test-suite/test_parsing/', import.meta.url));
const table = JSON.parse(readFileSync(new URL('../../tests/json_test_suite.json', import.meta.url), 'utf8'));

test('JSONTestSuite through the wasm build in Node', (t) => {
  if (!existsSync(dir)) {
    console.log(`SKIPPED: JSONTestSuite not found at ${dir} (../shared is absent outside this workplace)`);
    t.skip('../shared is absent');
    return;
  }
  const counts = { y_: 0, n_: 0, i_: 0 };
  let passed = 0;
  const failures = [];
  for (const name of readdirSync(dir).sort()) {
    const prefix = name.slice(0, 2);
    if (!(prefix in counts)) continue;
    counts[prefix]++;
    const result = api.safeParseJson(new Uint8Array(readFileSync(dir + name)));
    if (!result.ok) assert.ok(result.error instanceof api.ContractError, `${name}: ${result.error}`);
    const got = result.ok ? 'accept' : result.error.code;
    const expected = prefix === 'y_' ? (table.rejectedY[name] ?? 'accept')
      : prefix === 'n_' ? (got === 'accept' ? 'a rejection' : got)
      : (table.i[name] ?? '(not in the table)');
    if (got === expected) passed++;
    else failures.push(`FAIL ${name}: expected ${expected}, got ${got}`);
  }
  for (const f of failures) console.log(f);
  console.log(`JSONTestSuite (node): ${counts.y_} y_, ${counts.n_} n_, ${counts.i_} i_ files; ${passed} passed, ${failures.length} failed`);
  assert.ok(passed > 300, `too few files ran: ${passed}`);
  assert.equal(failures.length, 0);
});
