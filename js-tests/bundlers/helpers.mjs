// Shared by the bundler tests: the packed package installed in a fresh project, and headless
// Chromium opening a page of a static directory and waiting for the page's POST /report.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));
export const appSources = fileURLToPath(new URL('./apps/', import.meta.url));

/** `npm pack` of pkg/ into a new temporary directory: {work, tarball, packed}. */
export function pack() {
  const work = mkdtempSync(join(tmpdir(), 'agent-contract-bundlers-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, pkgDir], { encoding: 'utf8' }))[0];
  return { work, tarball: join(work, packed.filename), packed };
}

/** A project in `dir` with the tarball installed (offline: it has no dependencies). */
export function installProject(dir, tarball) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: dir, stdio: 'pipe' });
}

const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const chromium = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

/** Opens `url` in headless Chromium until `reported` settles (or `timeoutMs`); resolves with its value. */
export async function openInChromium(url, reported, timeoutMs = 30_000, describe = () => '') {
  if (!chromium) throw new Error('Chromium not found: install Debian chromium or set CHROMIUM');
  const profile = await mkdtemp(join(tmpdir(), 'agent-contract-chromium-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
    `--user-data-dir=${profile}`, url],
  // Its own process group, so that the renderer and helper processes are killed with it.
  { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => browser.once('exit', resolve));
  let timer;
  try {
    return await Promise.race([reported, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no report from ${url} in ${timeoutMs} ms ${describe()}`)), timeoutMs);
    })]);
  } finally {
    clearTimeout(timer);
    try {
      process.kill(-browser.pid, 'SIGKILL');
    } catch {
      browser.kill('SIGKILL');
    }
    await exited;
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

/** A connect-style handler for the page's POST /report: calls `deliver` with the JSON body; false for other requests. */
export function reportHandler(deliver) {
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/report') return false;
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      res.end('ok');
      deliver(JSON.parse(body));
    });
    return true;
  };
}

/** Serves `root` statically, opens `page` in headless Chromium and resolves with the JSON it POSTs to /report, and the requests served. */
export async function runInChromium(root, page, timeoutMs = 30_000) {
  let deliver;
  const reported = new Promise((resolve) => { deliver = resolve; });
  const report = reportHandler(deliver);
  const requests = [];
  const server = createServer(async (req, res) => {
    if (report(req, res)) return;
    const url = new URL(req.url, 'http://localhost');
    const path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(root)) { res.statusCode = 403; res.end(); return; }
    try {
      const body = await readFile(path);
      res.setHeader('content-type', TYPES[extname(path)] || 'application/octet-stream');
      res.end(body);
      requests.push([200, url.pathname]);
    } catch {
      res.statusCode = 404;
      res.end();
      requests.push([404, url.pathname]);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const result = await openInChromium(`http://127.0.0.1:${server.address().port}/${page}`, reported, timeoutMs,
      () => `requests: ${JSON.stringify(requests)}`);
    return { result, requests };
  } finally {
    server.close();
  }
}

/** A page that loads `script` (a module or a classic script) and reports errors it did not catch. */
export function page(script, { module = true } = {}) {
  return `<!doctype html><meta charset="utf-8"><title>agent-contract bundle</title>
<script>
  addEventListener('error', (e) => fetch('/report', { method: 'POST', body: JSON.stringify({ crashed: String(e.message) }) }));
  addEventListener('unhandledrejection', (e) => fetch('/report', { method: 'POST', body: JSON.stringify({ crashed: String(e.reason && e.reason.stack || e.reason) }) }));
</script>
<script ${module ? 'type="module" ' : ''}src="${script}"></script>
`;
}
