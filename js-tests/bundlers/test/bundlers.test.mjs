// The packed package in real bundlers (pinned in this folder's package-lock.json): a small app
// (apps/) built with Vite (build and dev server), webpack 5 and esbuild (a browser bundle and a
// Node bundle), each bundle run (the browser ones in headless Chromium, the Node one in Node)
// and checked for one verdict of each kind. The page without a bundler is js-tests/test/browser.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, copyFileSync, mkdirSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import webpack from 'webpack';
import { build as viteBuild, createServer as viteServer } from 'vite';
import { pack, installProject, appSources, runInChromium, openInChromium, reportHandler, page } from '../helpers.mjs';

const EXPECTED = {
  accepted: ['tool_call', 'call_1', 'read_file', 'a.txt'],
  error: [true, 'ContractError', 'ACTION_INPUT_MISSING', '/input'],
  input: ['a.txt', false, 'SCHEMA_MISMATCH', ['/path']],
};
const NOT_INITIALIZED = ['NotInitializedError', true, false];

let work, project, wasm;
before(() => {
  const packed = pack();
  work = packed.work;
  project = join(work, 'app');
  installProject(project, packed.tarball);
  cpSync(appSources, project, { recursive: true });
  wasm = join(project, 'node_modules/agent-contract/dist/agent_contract_bg.wasm');
});
after(() => rmSync(work, { recursive: true, force: true }));

const wasmFiles = (dir) => readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));

test('Vite: the automatic path, the wasm emitted as an asset', { timeout: 90_000 }, async () => {
  writeFileSync(join(project, 'index.html'), page('/browser-auto.mjs'));
  const out = join(work, 'vite-out');
  await viteBuild({ root: project, configFile: false, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  assert.equal(wasmFiles(out).length, 1, 'Vite emitted the wasm once');
  const { result } = await runInChromium(out, 'index.html');
  assert.deepEqual(result, { before: null, verdicts: EXPECTED });
});

test('Vite dev server: the automatic path through its dependency optimizer', { timeout: 90_000 }, async () => {
  writeFileSync(join(project, 'index.html'), page('/browser-auto.mjs'));
  let deliver;
  const reported = new Promise((resolve) => { deliver = resolve; });
  const report = reportHandler(deliver);
  const wasmRequests = [];
  const server = await viteServer({
    root: project, configFile: false, logLevel: 'warn', cacheDir: join(work, 'vite-cache'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    plugins: [{
      name: 'report',
      configureServer(s) {
        s.middlewares.use((req, res, next) => {
          if (req.url.includes('.wasm')) wasmRequests.push(req.url);
          if (!report(req, res)) next();
        });
      },
    }],
  });
  try {
    await server.listen();
    const result = await openInChromium(server.resolvedUrls.local[0], reported, 60_000);
    assert.deepEqual(result, { before: null, verdicts: EXPECTED });
    assert.deepEqual(wasmRequests, ['/node_modules/agent-contract/dist/agent_contract_bg.wasm']);
  } finally {
    await server.close();
  }
});

test('webpack 5: the automatic path, the wasm emitted as an asset', { timeout: 90_000 }, async () => {
  const out = join(work, 'webpack-out');
  const stats = await new Promise((resolve, reject) => {
    webpack({
      mode: 'production', context: project, entry: './browser-auto.mjs', target: 'web', devtool: false,
      output: { path: out, filename: 'main.js', clean: true },
    }, (error, s) => (error ? reject(error) : resolve(s)));
  });
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  assert.equal(wasmFiles(out).length, 1, 'webpack emitted the wasm once');
  writeFileSync(join(out, 'index.html'), page('main.js', { module: false }));
  const { result } = await runInChromium(out, 'index.html');
  assert.deepEqual(result, { before: null, verdicts: EXPECTED });
});

test('esbuild, browser: explicit init from agent-contract/init; the automatic entry recovers with init', { timeout: 90_000 }, async () => {
  const out = join(work, 'esbuild-browser-out');
  await esbuild.build({
    entryPoints: { init: join(project, 'browser-init.mjs'), recover: join(project, 'browser-recover.mjs') },
    bundle: true, format: 'esm', platform: 'browser', outdir: out, logLevel: 'error',
  });
  // The application serves the wasm itself, next to its bundle.
  copyFileSync(wasm, join(out, 'agent_contract_bg.wasm'));
  writeFileSync(join(out, 'init.html'), page('init.js'));
  writeFileSync(join(out, 'recover.html'), page('recover.js'));
  const explicit = await runInChromium(out, 'init.html');
  assert.deepEqual(explicit.result, { before: NOT_INITIALIZED, verdicts: EXPECTED });
  // agent-contract/init made no request of its own: only the wasm the application named.
  assert.deepEqual(explicit.requests.filter(([, path]) => path.endsWith('.wasm')), [[200, '/agent_contract_bg.wasm']]);
  const recovered = await runInChromium(out, 'recover.html');
  const { message, ...rest } = recovered.result;
  assert.deepEqual(rest, { before: NOT_INITIALIZED, verdicts: EXPECTED });
  assert.match(message, /not loaded.*init\(.*automatic loading failed: fetching the wasm failed: 404/s);
});

test('esbuild, Node: ESM and CommonJS bundles (import and require) find the wasm next to them, or take initSync', { timeout: 90_000 }, async () => {
  const out = join(work, 'esbuild-node-out');
  for (const [source, outfile, format] of [['node-app.mjs', 'app.mjs', 'esm'], ['node-app.mjs', 'app.cjs', 'cjs'],
    ['node-app-require.cjs', 'require.cjs', 'cjs']]) {
    await esbuild.build({
      entryPoints: [join(project, source)], bundle: true, platform: 'node', format, outfile: join(out, outfile), logLevel: 'error',
    });
  }
  // Deployed with the wasm at dist/ next to the bundle: the automatic loading.
  mkdirSync(join(out, 'dist'));
  copyFileSync(wasm, join(out, 'dist/agent_contract_bg.wasm'));
  // Deployed alone: the first call says the wasm is missing; initSync takes the bytes.
  const alone = join(work, 'esbuild-node-alone');
  mkdirSync(alone);
  for (const file of ['app.mjs', 'app.cjs', 'require.cjs']) {
    copyFileSync(join(out, file), join(alone, file));
    const run = (dir) => JSON.parse(execFileSync(process.execPath, [join(dir, file)], {
      encoding: 'utf8', cwd: work, env: { ...process.env, AGENT_CONTRACT_WASM: wasm },
    }));
    assert.deepEqual(run(out), { before: null, verdicts: EXPECTED }, file);
    assert.deepEqual(run(alone), { before: NOT_INITIALIZED, verdicts: EXPECTED }, `${file} alone`);
  }
});

test('Vite: an app of agent-contract/protocol alone ships the protocol core, not the full one', { timeout: 90_000 }, async () => {
  writeFileSync(join(project, 'index.html'), page('/browser-protocol.mjs'));
  const out = join(work, 'vite-protocol-out');
  await viteBuild({ root: project, configFile: false, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  const emitted = wasmFiles(out);
  assert.equal(emitted.length, 1, `Vite emitted ${emitted.join(', ')}`);
  assert.match(String(emitted[0]), /agent_contract_protocol_bg/);
  const { result, requests } = await runInChromium(out, 'index.html');
  assert.deepEqual(result, { accepted: 'a.txt', decision: 'done', error: [true, 'ACTION_INPUT_MISSING', '/input'] });
  assert.deepEqual(requests.filter(([, path]) => path.endsWith('.wasm')).map(([status, path]) => [status, /agent_contract_protocol_bg/.test(path)]), [[200, true]]);
});
