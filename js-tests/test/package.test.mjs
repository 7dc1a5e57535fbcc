// Packaging is part of the product: pack pkg/ with npm, install the tarball into a fresh project
// outside the source tree and use it from CommonJS and from ES modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));

test('the packed tarball installs and works from CJS and ESM', () => {
  const work = mkdtempSync(join(tmpdir(), 'agent-contract-pack-'));
  try {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, pkgDir], { encoding: 'utf8' }));
    const files = packed[0].files.map((f) => f.path);
    for (const required of ['index.cjs', 'index.mjs', 'browser.mjs', 'api.mjs', 'index.d.ts',
      'dist/node/agent_contract_bg.wasm', 'dist/web/agent_contract_bg.wasm']) {
      assert.ok(files.includes(required), `tarball lacks ${required}`);
    }
    const project = join(work, 'app');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, packed[0].filename)], { cwd: project, stdio: 'pipe' });
    writeFileSync(join(project, 'use.cjs'), `
      const { parseAgentAction, ContractError } = require('agent-contract');
      const a = parseAgentAction({ type: 'tool_call', callId: 'c', tool: 't', input: undefined });
      let code; try { parseAgentAction(null); } catch (e) { code = e instanceof ContractError && e.code; }
      console.log(JSON.stringify([a.type, Object.hasOwn(a, 'input'), code]));`);
    writeFileSync(join(project, 'use.mjs'), `
      import api, { defineTool, ContractError } from 'agent-contract';
      import { createRequire } from 'node:module';
      const t = defineTool({ name: 'read_file', description: 'Read.', inputSchema: {}, permission: 'read' });
      const same = createRequire(import.meta.url)('agent-contract').ContractError === ContractError;
      console.log(JSON.stringify([t.permissions, Object.isFrozen(t), same, typeof api.parseAgentActionJson]));`);
    const cjs = execFileSync('node', ['use.cjs'], { cwd: project, encoding: 'utf8' }).trim();
    assert.equal(cjs, JSON.stringify(['tool_call', true, 'ACTION_NOT_OBJECT']));
    const esm = execFileSync('node', ['use.mjs'], { cwd: project, encoding: 'utf8' }).trim();
    assert.equal(esm, JSON.stringify([['read'], true, true, 'function']));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
