// The packed tarball as package linters read it: publint (package.json fields, exports,
// formats of the files they point to) and @arethetypeswrong/cli (types resolved in every
// module resolution mode: CommonJS typed as CommonJS, ES modules as ES modules) report nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { pack } from '../helpers.mjs';

const attw = fileURLToPath(new URL('../node_modules/.bin/attw', import.meta.url));
let work, tarball;
before(() => ({ work, tarball } = pack()));
after(() => rmSync(work, { recursive: true, force: true }));

test('publint reports no error, warning or suggestion', async () => {
  const bytes = readFileSync(tarball);
  const { messages } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }, strict: true, level: 'suggestion' });
  assert.deepEqual(messages, []);
});

test('@arethetypeswrong/cli reports no problem in any resolution mode', () => {
  let output;
  try {
    output = execFileSync(attw, [tarball, '--format', 'json', '--exclude-entrypoints', './dist/agent_contract_bg.wasm', './dist/agent_contract_protocol_bg.wasm'], { encoding: 'utf8' });
  } catch (error) {
    output = error.stdout; // exits 1 when it finds a problem; the JSON says which
  }
  const report = JSON.parse(output);
  // Problems grouped by kind; none. (The wasm's export is a file, not a module: not analysed.)
  assert.deepEqual(report.problems, {}, JSON.stringify(report.problems, null, 1).slice(0, 4000));
  // It did resolve the entry points in every mode: CommonJS to the .d.cts, ESM to index.d.ts.
  const { entrypoints } = report.analysis;
  for (const entry of ['.', './init']) {
    const files = Object.fromEntries(Object.entries(entrypoints[entry].resolutions).map(([mode, r]) => [mode, r.resolution?.fileName]));
    assert.deepEqual(files, {
      node10: '/node_modules/agent-contract/dist/index.d.cts',
      'node16-cjs': '/node_modules/agent-contract/dist/index.d.cts',
      'node16-esm': '/node_modules/agent-contract/index.d.ts',
      bundler: '/node_modules/agent-contract/index.d.ts',
    }, entry);
  }
  // The protocol entry: its generated declarations, CommonJS and ESM.
  for (const entry of ['./protocol', './protocol/init']) {
    const files = Object.fromEntries(Object.entries(entrypoints[entry].resolutions).map(([mode, r]) => [mode, r.resolution?.fileName]));
    assert.deepEqual(files, {
      node10: '/node_modules/agent-contract/dist/protocol/index.d.cts',
      'node16-cjs': '/node_modules/agent-contract/dist/protocol/index.d.cts',
      'node16-esm': '/node_modules/agent-contract/dist/protocol/index.d.ts',
      bundler: '/node_modules/agent-contract/dist/protocol/index.d.ts',
    }, entry);
  }
  // The MCP entry: its declarations, CommonJS generated from the ESM ones.
  const mcp = Object.fromEntries(Object.entries(entrypoints['./mcp'].resolutions).map(([mode, r]) => [mode, r.resolution?.fileName]));
  assert.deepEqual(mcp, {
    node10: '/node_modules/agent-contract/dist/mcp.d.cts',
    'node16-cjs': '/node_modules/agent-contract/dist/mcp.d.cts',
    'node16-esm': '/node_modules/agent-contract/mcp.d.ts',
    bundler: '/node_modules/agent-contract/mcp.d.ts',
  });
});
