// Packaging is part of the product: pack pkg/ with npm, install the tarball into a fresh project
// outside the source tree and use it from CommonJS and from ES modules. The tarball holds one
// wasm file (no file twice), README and licenses, within a size bound. Bundlers, publint and
// @arethetypeswrong/cli on the same tarball: js-tests/bundlers/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));

test('the packed tarball installs and works from CJS and ESM', () => {
  const work = mkdtempSync(join(tmpdir(), 'agent-contract-pack-'));
  try {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, pkgDir], { encoding: 'utf8' }));
    const files = packed[0].files.map((f) => f.path);
    for (const required of ['index.cjs', 'index.mjs', 'browser.mjs', 'init.mjs', 'shared.mjs', 'wasm.mjs', 'api.mjs',
      'index.d.ts', 'dist/index.d.cts', 'dist/agent_contract.js', 'dist/agent_contract_bg.wasm', 'dist/operations.js',
      'README.md', 'LICENSE-MIT', 'LICENSE-APACHE', 'package.json', 'bin/agent-contract.mjs', 'dist/cli/agent-contract.wasm',
      // The protocol entry: its modules, declarations, glue and wasm.
      'loader.mjs', 'protocol/index.mjs', 'protocol/index.cjs', 'protocol/browser.mjs', 'protocol/init.mjs',
      'protocol/shared.mjs', 'protocol/wasm.mjs', 'dist/protocol/index.d.ts', 'dist/protocol/index.d.cts',
      'dist/agent_contract_protocol.js', 'dist/agent_contract_protocol_bg.wasm',
      // The MCP entry: its modules and declarations.
      'mcp.mjs', 'mcp/index.mjs', 'mcp/index.cjs', 'mcp/browser.mjs', 'mcp.d.ts', 'dist/mcp.d.cts']) {
      assert.ok(files.includes(required), `tarball lacks ${required}`);
    }
    // The library's wasm once, its protocol core (the crate without the schema engine) and the
    // command line's (a different program: cli/ built for WASI).
    assert.deepEqual(files.filter((f) => f.endsWith('.wasm')).sort(),
      ['dist/agent_contract_bg.wasm', 'dist/agent_contract_protocol_bg.wasm', 'dist/cli/agent-contract.wasm']);
    // The wasm-bindgen snippet the glue imports travels with it (a bundler resolves it in dist/).
    assert.ok(files.some((f) => /^dist\/snippets\/.+\/js_host\.js$/.test(f)), 'tarball lacks the js_host.js snippet');
    assert.ok(files.every((f) => !f.startsWith('dist/') || /\.(js|wasm|d\.cts)$/.test(f) || f === 'dist/protocol/index.d.ts'), files.join(' '));
    // No content twice (a second wasm was 1.97 MB of the old tarball).
    const extracted = join(work, 'extracted');
    execFileSync('mkdir', [extracted]);
    execFileSync('tar', ['-xzf', join(work, packed[0].filename), '-C', extracted]);
    const byHash = new Map();
    for (const f of files) {
      const hash = createHash('sha256').update(readFileSync(join(extracted, 'package', f))).digest('hex');
      assert.ok(!byHash.has(hash), `${f} has the content of ${byHash.get(hash)}`);
      byHash.set(hash, f);
    }
    // Size bounds: the library's wasm is ~2.5 MB raw, ~0.9 MB gzipped, its protocol core ~0.8 MB
    // raw, the command line's ~2.1 MB raw; the bounds leave room for growth, not for a second copy
    // of any. (The gzip bounds of the two cores: size.test.mjs.)
    const wasmBytes = readFileSync(join(extracted, 'package/dist/agent_contract_bg.wasm')).length;
    const cliBytes = readFileSync(join(extracted, 'package/dist/cli/agent-contract.wasm')).length;
    const protocolBytes = readFileSync(join(extracted, 'package/dist/agent_contract_protocol_bg.wasm')).length;
    assert.ok(packed[0].unpackedSize < wasmBytes + cliBytes + protocolBytes + 450_000,
      `unpacked ${packed[0].unpackedSize} bytes for wasm files of ${wasmBytes}, ${protocolBytes} and ${cliBytes} bytes`);
    assert.ok(packed[0].size < 2_200_000, `tarball ${packed[0].size} bytes`);
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
    // 'agent-contract/init' in Node is the same module: loaded already, init() resolves at once.
    writeFileSync(join(project, 'init.mjs'), `
      import { init, initSync, parseAgentAction, NotInitializedError } from 'agent-contract/init';
      import * as main from 'agent-contract';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      await init();
      initSync(new Uint8Array(0));
      const wasm = require.resolve('agent-contract/dist/agent_contract_bg.wasm');
      console.log(JSON.stringify([parseAgentAction({ type: 'message', content: 'x' }).type, main.init === init,
        require('agent-contract/init') === require('agent-contract'), typeof NotInitializedError, wasm.endsWith('dist/agent_contract_bg.wasm')]));`);
    const init = execFileSync('node', ['init.mjs'], { cwd: project, encoding: 'utf8' }).trim();
    assert.equal(init, JSON.stringify(['message', true, true, 'function', true]));
    // 'agent-contract/protocol': its own core, the protocol functions only, the same
    // ContractError class as the full entry; ESM and CommonJS share one instance.
    writeFileSync(join(project, 'protocol.mjs'), `
      import * as protocol from 'agent-contract/protocol';
      import protocolDefault from 'agent-contract/protocol';
      import { ContractError } from 'agent-contract';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      let code; try { protocol.parseAgentAction(null); } catch (e) { code = e instanceof ContractError && e.code; }
      const wasm = require.resolve('agent-contract/dist/agent_contract_protocol_bg.wasm');
      console.log(JSON.stringify([protocol.parseDecision({ kind: 'final', answer: 'ok' }).kind, code, typeof protocol.defineTool,
        require('agent-contract/protocol') === protocolDefault, require('agent-contract/protocol/init') === protocolDefault,
        protocol.ContractError === ContractError, wasm.endsWith('dist/agent_contract_protocol_bg.wasm')]));`);
    const protocol = execFileSync('node', ['protocol.mjs'], { cwd: project, encoding: 'utf8' }).trim();
    assert.equal(protocol, JSON.stringify(['final', 'ACTION_NOT_OBJECT', 'undefined', true, true, true, true]));
    // 'agent-contract/mcp': the helpers over the full entry's instance, from ESM and CommonJS.
    writeFileSync(join(project, 'mcp.mjs'), `
      import { jsonSchemaValidator, fromMcpTools } from 'agent-contract/mcp';
      import { ContractError } from 'agent-contract';
      import { createRequire } from 'node:module';
      const cjs = createRequire(import.meta.url)('agent-contract/mcp');
      const validate = jsonSchemaValidator.getValidator({ type: 'object', required: ['a'] });
      let code; try { fromMcpTools({ tools: [{ name: 'x' }] }); } catch (e) { code = e instanceof ContractError && e.code; }
      console.log(JSON.stringify([validate({ a: 1 }).valid, validate({}).valid, code, cjs.fromMcpTools === fromMcpTools]));`);
    const mcp = execFileSync('node', ['mcp.mjs'], { cwd: project, encoding: 'utf8' }).trim();
    assert.equal(mcp, JSON.stringify([true, false, 'FIELD_MISSING', true]));
    // npx runs the installed command line (offline: the package's own bin).
    writeFileSync(join(project, 'actions.jsonl'), '{"type":"finish","summary":"done"}\n');
    const npx = execFileSync('npx', ['--offline', 'agent-contract', 'check', 'actions', 'actions.jsonl'], { cwd: project, encoding: 'utf8' });
    assert.equal(npx, 'actions.jsonl: ok (1 actions checked)\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
