// The browser host: headless Chromium loads pkg/browser.mjs as a plain ES module (no bundler),
// runs every fixture and posts the result back to this test's local server; then the same cases
// of protocol functions through pkg/protocol/browser.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_CASES, LEFT_OUT_CASES } from '../protocol-cases.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Recorded provider streams (external data, absent in a clone elsewhere), served under /recordings/.
const recordings = fileURLToPath(new URL('../../../shared/conformance/provider-streams/', import.meta.url));
// Recorded pi-mono sessions, served under /sessions/ the same way.
const sessions = fileURLToPath(new URL('../../../shared/conformance/pi-mono-sessions/', import.meta.url));
// The other conformance data (`reference` cases), served under /conformance/.
const conformance = fileURLToPath(new URL('../../../shared/conformance/', import.meta.url));
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };
const chromium = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

test('every fixture case gives the expected outcome in headless Chromium', { timeout: 120_000 }, async () => {
  assert.ok(chromium, 'Chromium not found: install Debian chromium or set CHROMIUM');
  let deliver;
  const reported = new Promise((resolve) => { deliver = resolve; });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/report') {
      let body = '';
      for await (const chunk of req) body += chunk;
      res.end('ok');
      deliver(JSON.parse(body));
      return;
    }
    if (url.pathname === '/fixture-list') {
      const names = (await readdir(join(root, 'fixtures'))).filter((f) => f.endsWith('.json')).sort();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(names));
      return;
    }
    const inRecordings = url.pathname.startsWith('/recordings/');
    const inSessions = url.pathname.startsWith('/sessions/');
    const inConformance = url.pathname.startsWith('/conformance/');
    const base = inRecordings ? recordings : inSessions ? sessions : inConformance ? conformance : root;
    const prefix = inRecordings ? '/recordings/' : inSessions ? '/sessions/' : inConformance ? '/conformance/' : '';
    const path = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
    if (!path.startsWith(base)) { res.statusCode = 403; res.end(); return; }
    try {
      const body = await readFile(path);
      res.setHeader('content-type', TYPES[extname(path)] || 'application/octet-stream');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = await mkdtemp(join(tmpdir(), 'agent-contract-chromium-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
    `--user-data-dir=${profile}`, `http://127.0.0.1:${server.address().port}/js-tests/browser/index.html`],
  // Its own process group, so that the renderer and helper processes are killed with it.
  { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => browser.once('exit', resolve));
  let timer;
  try {
    const result = await Promise.race([reported,
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('no report from the browser in 90 s')), 90_000); })]);
    assert.equal(result.crashed, undefined, `the page crashed: ${result.crashed}`);
    for (const f of result.failures) console.log(`FAIL ${f.id} (${f.file}): ${f.message}`);
    if (result.skipped) console.log(`fixtures (browser): SKIPPED ${result.skipped} cases of recorded streams, sessions or conformance data: ${recordings}, ${sessions} or ${conformance} is absent`);
    console.log(`fixtures (browser): ${result.passed} passed, ${result.failed} failed`);
    assert.ok(result.passed > 0, 'no fixture ran');
    assert.equal(result.failed, 0);
    // The same cases of protocol functions through 'agent-contract/protocol'.
    const { protocol } = result;
    for (const f of protocol.failures) console.log(`FAIL ${f.id} (${f.file}, protocol entry): ${f.message}`);
    const excluded = Object.values(protocol.leftOut).reduce((a, b) => a + b, 0);
    console.log(`fixtures (browser, protocol entry): ${protocol.passed} passed, ${protocol.failed} failed, ${protocol.skipped} skipped; `
      + `${excluded} cases of functions it leaves out`);
    assert.equal(protocol.selected, PROTOCOL_CASES, 'cases of protocol functions (PROTOCOL_CASES in js-tests/protocol-cases.mjs)');
    assert.equal(excluded, LEFT_OUT_CASES, 'cases of left-out functions (LEFT_OUT_CASES in js-tests/protocol-cases.mjs)');
    assert.equal(protocol.passed + protocol.skipped, PROTOCOL_CASES);
    assert.equal(protocol.failed, 0);
  } finally {
    clearTimeout(timer);
    try {
      process.kill(-browser.pid, 'SIGKILL');
    } catch {
      browser.kill('SIGKILL');
    }
    await exited;
    server.close();
    // Best effort: a helper process may still be flushing into the profile for a moment.
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
});
