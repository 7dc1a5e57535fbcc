// The built page (dist/, `node build.mjs`) in headless Chromium through puppeteer-core: every
// example gives the verdict its fixture expects, a fragment link reproduces a verdict and its
// highlight, the pi-mono recordings draw as trees with the right leaves, a 1 MB session renders
// under a second, the keyboard reaches every control, there is no console error and no request
// after load (but the one lazy full core), it works from file://, and the 390 px and 1280 px
// screenshots match the references (UPDATE_SCREENSHOTS=1 rewrites them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { serve } from '../serve.mjs';
import { pickExamples, expectedVerdict } from '../src/examples.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('../dist/');
const fixturesDir = here('../../fixtures/');
const sharedConformance = here('../../../shared/conformance/');
const piSessions = join(sharedConformance, 'pi-mono-sessions');
const screenshots = here('./screenshots/');
const chromium = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

let server;
let base;
let browser;
let profile;

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), 'playground/dist is not built: run `node build.mjs` in playground/');
  assert.ok(chromium, 'Chromium not found: install Debian chromium or set CHROMIUM');
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  profile = await mkdtemp(join(tmpdir(), 'playground-chromium-'));
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: false,
    userDataDir: profile,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--hide-scrollbars', '--font-render-hinting=none',
      '--force-color-profile=srgb', '--allow-file-access-from-files'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (profile) await rm(profile, { recursive: true, force: true });
});

// A page at `url` with what it logs and requests recorded; `requests` after `loaded` are the
// ones made after the page finished loading.
async function open(url, width = 1280) {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
  const log = { errors: [], requests: [], loaded: false };
  page.on('console', (msg) => {
    if (msg.type() === 'error') log.errors.push(msg.text());
  });
  page.on('pageerror', (error) => log.errors.push(String(error)));
  page.on('request', (req) => log.requests.push({ url: req.url(), afterLoad: log.loaded }));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]');
  log.loaded = true;
  return { page, log };
}

async function runs(page) {
  return Number(await page.$eval('#verdict', (v) => v.dataset.run));
}

// Waits for the page to finish its next check after `action`.
async function checked(page, action) {
  const before = await runs(page);
  await action();
  await page.waitForFunction((n) => Number(document.getElementById('verdict').dataset.run) > n, { timeout: 30_000 }, before);
}

async function verdict(page) {
  return page.$eval('#verdict', (v) => ({ ok: v.dataset.ok, code: v.dataset.code, path: v.dataset.path, kind: v.dataset.kind }));
}

async function pickExample(page, id) {
  const value = await page.$eval('#example', (select, fixture) => {
    const option = [...select.options].find((o) => o.dataset.fixture === fixture);
    return option ? option.value : null;
  }, id);
  assert.ok(value !== null, `no example ${id} on the page`);
  await checked(page, () => page.select('#example', value));
}

function fixtureCase(file, id) {
  return JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')).cases.find((c) => c.id === id);
}

function assertVerdict(actual, c, label) {
  const want = expectedVerdict(c);
  assert.equal(actual.ok, String(want.ok), `${label}: ok`);
  if (!want.ok) {
    assert.equal(actual.code, want.code, `${label}: code`);
    assert.equal(actual.path, want.path, `${label}: path`);
  } else {
    assert.equal(actual.code, undefined, `${label}: no code on success`);
  }
}

const KIND_OF_OP = {
  parseAgentActionJson: 'action', parseDecisionJson: 'decision', defineToolJson: 'tool', createRegistry: 'registry',
  validateToolInputJson: 'tool-input', assembleProviderStream: 'stream', checkSession: 'session',
  classifyJsonRpcJson: 'jsonrpc', checkStdoutPurity: 'ndjson', admitPrompt: 'acp', checkChatRow: 'chat-row',
};

const VALUE_SHOWN = new Set(['parseAgentActionJson', 'parseDecisionJson', 'defineToolJson', 'createRegistry',
  'validateToolInputJson', 'assembleProviderStream', 'admitPrompt', 'checkChatRow']);

test('every example gives the verdict its fixture expects', { timeout: 180_000 }, async () => {
  const examples = pickExamples(fixturesDir, sharedConformance);
  const kinds = new Set(examples.map((e) => e.kind));
  assert.deepEqual([...kinds].sort(), Object.values(KIND_OF_OP).sort(), 'every kind has an example');
  const { page, log } = await open(base);
  let failing = 0;
  let shownValues = 0;
  for (const ex of examples) {
    const c = fixtureCase(ex.file, ex.id);
    await pickExample(page, ex.id);
    const actual = await verdict(page);
    assert.equal(actual.kind, KIND_OF_OP[c.op], `${ex.id}: kind`);
    assertVerdict(actual, c, ex.id);
    // The accepted value, formatted, is the fixture's (the kinds whose value is the function's
    // result as it is; a plan's decoded bytes are shown by their size).
    if (actual.ok === 'true' && c.expect.ok && VALUE_SHOWN.has(c.op) && !JSON.stringify(c.expect.value).includes('bytesHex')) {
      assert.deepEqual(JSON.parse(await page.$eval('#value', (p) => p.textContent)), c.expect.value, `${ex.id}: value`);
      shownValues++;
    }
    // A refused JSON text is shown with its span marked (a stream's errors name events, not text).
    if (actual.ok === 'false') {
      failing++;
      if (ex.kind !== 'stream') assert.ok(await page.$('#source mark#highlight'), `${ex.id}: a highlighted span`);
    }
  }
  assert.ok(failing > 0 && failing < examples.length);
  assert.ok(shownValues >= 7, `${shownValues} accepted values compared`);
  console.log(`playground examples: ${examples.length} verdicts as their fixtures expect (${failing} refused)`);
  assert.deepEqual(log.errors, []);
  // Only the full core, once, for the tool kinds; nothing else after load.
  const later = log.requests.filter((r) => r.afterLoad).map((r) => new URL(r.url).pathname);
  assert.deepEqual(later, ['/full.js']);
  for (const r of log.requests) assert.equal(new URL(r.url).origin, new URL(base).origin, `request to ${r.url}`);
  await page.close();
});

function valueAt(value, pointer) {
  let v = value;
  for (const token of pointer.slice(1).split('/').filter((_, i, a) => pointer !== '' || a.length === 0)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !(key in v)) return undefined;
    v = v[key];
  }
  return v;
}

test('a fragment link reproduces a refused verdict, its highlight and its clickable issues', { timeout: 60_000 }, async () => {
  const first = await open(base);
  await pickExample(first.page, 'input-json/issues');
  const shown = await verdict(first.page);
  const link = await first.page.$eval('#share', (a) => a.href);
  const highlight = await first.page.$eval('#highlight', (m) => m.textContent);
  assert.match(link, /#kind=tool-input&text=[A-Za-z0-9_-]+&context=/);
  await first.page.close();

  // A fresh page from the link alone.
  const { page, log } = await open(link);
  await page.waitForFunction(() => Number(document.getElementById('verdict').dataset.run) > 0);
  assert.deepEqual(await verdict(page), shown);
  assertVerdict(await verdict(page), fixtureCase('tool_input.json', 'input-json/issues'), 'from the link');
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), highlight);

  // Each issue, clicked (Enter from the keyboard), marks its own value in the input.
  const input = JSON.parse(await page.$eval('#input', (t) => t.value));
  const issues = await page.$$eval('#issues button', (bs) => bs.map((b) => b.dataset.path));
  assert.ok(issues.length >= 2, 'several issues listed');
  for (let i = 0; i < issues.length; i++) {
    await page.focus(`#issues button[data-index="${i}"]`);
    await page.keyboard.press('Enter');
    assert.equal(await page.$eval(`#issues button[data-index="${i}"]`, (b) => b.getAttribute('aria-pressed')), 'true');
    const marked = await page.$eval('#highlight', (m) => m.textContent);
    const at = valueAt(input, issues[i]);
    // A missing member (`required`) marks the object it is missing from.
    const parent = issues[i].slice(0, issues[i].lastIndexOf('/'));
    assert.deepEqual(JSON.parse(marked), at !== undefined ? at : valueAt(input, parent), `issue ${issues[i]}`);
  }
  assert.deepEqual(log.errors, []);
  // The page, its style, its script and the full core (this kind needs it), each once.
  assert.deepEqual(log.requests.map((r) => new URL(r.url).pathname).sort(), ['/', '/app.js', '/full.js', '/style.css']);
  await page.close();
});

// The leaves of a JSONL session from its parent links, as pi-mono reads its files: an entry's
// parent is its `parentId`, or, in files without ids (version 1), the entry on the line before.
function leafCount(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const parents = new Set();
  const ids = [];
  let previous = null;
  lines.forEach((entry, i) => {
    if (entry.type === 'session') return;
    const id = typeof entry.id === 'string' ? entry.id : `line-${i + 1}`;
    const parent = 'parentId' in entry ? entry.parentId : previous;
    if (parent !== null && parent !== undefined) parents.add(parent);
    ids.push(id);
    previous = id;
  });
  return { entries: ids.length, leaves: ids.filter((id) => !parents.has(id)).length };
}

test('the pi-mono recordings draw as trees with the leaves their parent links give', { timeout: 120_000 }, async (t) => {
  if (!existsSync(piSessions)) {
    t.skip(`SKIPPED: ${piSessions} is absent (external conformance data)`);
    return;
  }
  const files = readdirSync(piSessions).filter((f) => f.endsWith('.jsonl')).sort();
  assert.ok(files.length > 0);
  const { page, log } = await open(base);
  for (const file of files) {
    const path = join(piSessions, file);
    const expected = leafCount(readFileSync(path, 'utf8'));
    const chooser = await page.$('#file');
    await checked(page, () => chooser.uploadFile(path));
    const v = await verdict(page);
    assert.equal(v.kind, 'session', `${file}: detected as a session`);
    assert.equal(await page.$eval('#dialect', (s) => s.value), 'pi', `${file}: the pi dialect detected`);
    assert.equal(v.ok, 'true', `${file}: accepted`);
    assert.equal(await page.$$eval('#tree [data-entry-id]', (n) => n.length), expected.entries, `${file}: one node per entry`);
    assert.equal(await page.$$eval('#tree g.node.leaf', (n) => n.length), expected.leaves, `${file}: leaves`);
    // The keyboard: the first entry, End, Enter shows the last entry and its context.
    await page.$eval('#tree g.node[tabindex="0"]', (g) => g.focus());
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const last = await page.$eval('#entry', (e) => ({ hidden: e.hidden, id: e.dataset.entryId }));
    assert.equal(last.hidden, false);
    assert.equal(last.id, await page.$eval('#tree g.node:last-of-type', (g) => g.dataset.entryId));
    const context = JSON.parse(await page.$eval('#entry-context', (p) => p.textContent));
    assert.ok(Array.isArray(context.messages) && context.messages.length > 0, `${file}: the context of the last entry`);
    console.log(`playground: ${file}: ${expected.entries} entries, ${expected.leaves} leaf`);
  }
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.requests.filter((r) => r.afterLoad), []);
  await page.close();
});

// A seed 004 session of about `bytes` bytes: a main line with a fork every 50 entries.
function bigSession(bytes) {
  const lines = ['{"type":"session","version":1,"id":"big","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}'];
  const filler = 'x'.repeat(300);
  let size = lines[0].length;
  let previous = null;
  for (let n = 0; size < bytes; n++) {
    const id = `e${n}`;
    const parent = n % 50 === 49 ? `e${n - 10}` : previous;
    const line = JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2025-01-01T00:00:01Z',
      message: { role: 'user', content: [{ type: 'text', text: `${n} ${filler}` }], timestamp: n } });
    lines.push(line);
    size += line.length + 1;
    previous = id;
  }
  return lines.join('\n') + '\n';
}

test('a 1 MB session is checked and drawn in under a second', { timeout: 60_000 }, async () => {
  const text = bigSession(1024 * 1024);
  const expected = leafCount(text);
  assert.ok(expected.leaves > 10);
  const { page, log } = await open(base);
  await page.select('#kind', 'session');
  await page.waitForFunction(() => Number(document.getElementById('verdict').dataset.run) > 0);
  await page.$eval('#input', (t, value) => { t.value = value; }, text);
  // The fastest of five checks: the machine running the suites is shared (timing.mjs keeps the
  // fastest run too), and the bound is the page's, not the scheduler's.
  const walls = [];
  for (let i = 0; i < 5; i++) {
    walls.push(await page.evaluate(async () => {
      const verdictEl = document.getElementById('verdict');
      const n = Number(verdictEl.dataset.run);
      const start = performance.now();
      document.getElementById('check').click();
      while (Number(verdictEl.dataset.run) === n) await new Promise((r) => setTimeout(r, 1));
      // Until the frame with the tree is painted.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - start;
    }));
  }
  const wall = Math.min(...walls);
  assert.equal((await verdict(page)).ok, 'true');
  assert.equal(await page.$$eval('#tree [data-entry-id]', (n) => n.length), expected.entries);
  assert.equal(await page.$$eval('#tree g.node.leaf', (n) => n.length), expected.leaves);
  console.log(`playground: ${text.length} bytes, ${expected.entries} entries: checked and drawn in ${walls.map((w) => w.toFixed(0)).join(', ')} ms`);
  assert.ok(wall < 1000, `took ${wall} ms`);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a session with problems marks them in the tree, and its context says why it is absent', { timeout: 60_000 }, async () => {
  const header = '{"type":"session","version":1,"id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}';
  const entry = (id, parentId) => JSON.stringify({ type: 'message', id, parentId, timestamp: '2025-01-01T00:00:01Z',
    message: { role: 'user', content: [{ type: 'text', text: id }], timestamp: 1 } });
  const text = [header, entry('a', null), entry('b', 'a'), entry('c', 'nowhere'), entry('d', 'a')].join('\n');
  const fragment = `#kind=session&text=${Buffer.from(text).toString('base64url')}&dialect=seed`;
  const { page, log } = await open(base + fragment);
  await page.waitForFunction(() => Number(document.getElementById('verdict').dataset.run) > 0);
  const v = await page.$eval('#verdict', (e) => ({ ok: e.dataset.ok, code: e.dataset.code, path: e.dataset.path, line: e.dataset.line }));
  assert.deepEqual(v, { ok: 'false', code: 'ENTRY_PARENT_MISSING', path: '/parentId', line: '4' });
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), '"nowhere"');
  assert.deepEqual(await page.$$eval('#tree g.node.problem', (g) => g.map((n) => n.dataset.entryId)), ['c']);
  // Roots a and c; a forks into b and d: leaves b, d and c.
  assert.deepEqual((await page.$$eval('#tree g.node.leaf', (g) => g.map((n) => n.dataset.entryId))).sort(), ['b', 'c', 'd']);
  await page.$eval('#tree g.node[data-entry-id="d"]', (g) => g.dispatchEvent(new MouseEvent('click', { bubbles: true })));
  assert.match(await page.$eval('#entry-context', (p) => p.textContent), /^Not available: readSession refuses this file \(line 4: ENTRY_PARENT_MISSING\)/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a text error marks its position; a dropped file is checked; a wrapped ACP request points under /params', { timeout: 60_000 }, async () => {
  const { page, log } = await open(base);
  // action/json/trailing: the core's position (byte 35) is the `x` after the value.
  await pickExample(page, 'action/json/trailing');
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), 'x');
  // A byte offset after a multi-byte character still lands on the right character.
  await page.select('#kind', 'action');
  await checked(page, () => page.$eval('#input', (t) => {
    t.value = '{"type": "message", "content": "é😀"} y';
    document.getElementById('check').click();
  }));
  assert.equal((await verdict(page)).code, 'JSON_TRAILING_CONTENT');
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), 'y');

  // A file dropped on the input (kind detected: a decision).
  await page.select('#kind', 'auto');
  await checked(page, () => page.$eval('#input', (t) => {
    const data = new DataTransfer();
    data.items.add(new File(['{"kind": "final", "answer": ""}'], 'decision.json', { type: 'application/json' }));
    t.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }));
  const dropped = await verdict(page);
  assert.equal(dropped.kind, 'decision');
  assert.equal(await page.$eval('#input', (t) => t.value), '{"kind": "final", "answer": ""}');
  assert.deepEqual([dropped.ok, dropped.code, dropped.path], ['false', 'FIELD_EMPTY', '/answer']);
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), '""');
  // The link names the guessed kind, so it does not depend on the guess.
  assert.match(await page.$eval('#share', (a) => a.getAttribute('href')), /^#kind=decision&text=[A-Za-z0-9_-]+$/);

  // The whole JSON-RPC request: the core admits its params, the mark is under /params.
  const request = { jsonrpc: '2.0', id: 1, method: 'session/prompt',
    params: { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] } };
  await checked(page, () => page.$eval('#input', (t, text) => {
    t.value = text;
    document.getElementById('check').click();
  }, JSON.stringify(request, null, 2)));
  const acp = await verdict(page);
  assert.deepEqual([acp.kind, acp.ok, acp.code, acp.path], ['acp', 'false', 'CAPABILITY_NOT_ADVERTISED', '/prompt/1/type']);
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), '"image"');
  // With the capability given, the plan is shown.
  await checked(page, () => page.$eval('#context', (t) => {
    t.value = '{"image": true}';
    document.getElementById('check').click();
  }));
  assert.equal((await verdict(page)).ok, 'true');
  const plan = JSON.parse(await page.$eval('#value', (p) => p.textContent));
  assert.equal(plan.sessionId, 's');
  assert.equal(plan.images.length, 1);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.requests.filter((r) => r.afterLoad), []);
  await page.close();
});

test('a tool input is checked against the tool chosen from a registry, and the link keeps the choice', { timeout: 60_000 }, async () => {
  const registry = { tools: [
    { name: 'read_file', description: 'Read a file.', permission: 'read',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    { name: 'write_file', description: 'Write a file.', permission: 'write',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  ] };
  const fragment = `#kind=tool-input&text=${Buffer.from('{"path": "a.md"}').toString('base64url')}`
    + `&context=${Buffer.from(JSON.stringify(registry, null, 2)).toString('base64url')}`;
  const first = await open(base + fragment);
  await first.page.waitForFunction(() => Number(document.getElementById('verdict').dataset.run) > 0);
  // The first tool by default.
  assert.deepEqual(await first.page.$$eval('#tool option', (o) => o.map((x) => x.value)), ['read_file', 'write_file']);
  assert.equal((await verdict(first.page)).ok, 'true');
  await checked(first.page, () => first.page.select('#tool', 'write_file'));
  const refused = await verdict(first.page);
  assert.deepEqual([refused.ok, refused.code, refused.path], ['false', 'SCHEMA_MISMATCH', '']);
  assert.deepEqual(await first.page.$$eval('#issues button', (b) => b.map((x) => x.dataset.path)), ['/content']);
  const link = await first.page.$eval('#share', (a) => a.href);
  assert.match(link, /&tool=write_file$/);
  await first.page.close();

  const { page, log } = await open(link);
  await page.waitForFunction(() => Number(document.getElementById('verdict').dataset.run) > 0);
  assert.equal(await page.$eval('#tool', (s) => s.value), 'write_file');
  assert.deepEqual(await verdict(page), refused);
  // A registry the core refuses: its error, marked in the registry text.
  await checked(page, () => page.$eval('#context', (t) => {
    t.value = '[{"name": "x", "description": "", "inputSchema": {}}]';
    document.getElementById('check').click();
  }));
  const bad = await verdict(page);
  assert.deepEqual([bad.ok, bad.code, bad.path], ['false', 'TOOL_DESCRIPTION_EMPTY', '/0/description']);
  assert.equal(await page.$eval('#highlight', (m) => m.textContent), '""');
  assert.match(await page.$eval('#source-title', (h) => h.textContent), /registry/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the keyboard reaches every control, with a visible focus', { timeout: 60_000 }, async () => {
  const { page, log } = await open(base);
  await pickExample(page, 'session/blank-line');
  const expected = await page.$$eval('button, select, textarea, input, a[href], [tabindex="0"]', (els) => els
    .filter((e) => e.offsetParent !== null || e.closest('svg'))
    .filter((e) => !e.closest('[hidden]'))
    .map((e) => e.id || e.dataset.entryId || e.dataset.index || e.tagName));
  const reached = new Set();
  const outlines = new Set();
  await page.focus('body');
  for (let i = 0; i < expected.length + 10; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const style = getComputedStyle(e);
      return { name: e.id || e.dataset.entryId || e.dataset.index || e.tagName, outline: style.outlineStyle };
    });
    if (focused) {
      reached.add(focused.name);
      outlines.add(focused.outline);
    }
  }
  for (const name of expected) assert.ok(reached.has(name), `${name} is not reached by Tab (reached: ${[...reached].join(', ')})`);
  assert.ok(outlines.has('solid'), 'focus is visible');
  // Space on an issue (a session problem) and on a tree node.
  await page.focus('#issues button[data-index="0"]');
  await page.keyboard.press('Space');
  assert.equal(await page.$eval('#issues button[data-index="0"]', (b) => b.getAttribute('aria-pressed')), 'true');
  await page.$eval('#tree g.node[tabindex="0"]', (g) => g.focus());
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  assert.equal(await page.$eval('#entry', (e) => e.hidden), false);
  assert.equal(await page.$eval('#tree g.node.selected', (g) => g.dataset.row), '1');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the page works opened from file://, the full core included', { timeout: 60_000 }, async () => {
  const { page, log } = await open(pathToFileURL(join(dist, 'index.html')).href);
  for (const [file, id] of [['action_basics.json', 'action/json/trailing'], ['tool_json.json', 'tool_json/not-object'], ['tool_input.json', 'input-json/valid']]) {
    await pickExample(page, id);
    assertVerdict(await verdict(page), fixtureCase(file, id), `${id} from file://`);
  }
  assert.deepEqual(log.errors, []);
  for (const r of log.requests) assert.equal(new URL(r.url).protocol, 'file:', `request to ${r.url}`);
  await page.close();
});

for (const width of [390, 1280]) {
  test(`at ${width} px the page fits and looks as its reference screenshot`, { timeout: 60_000 }, async () => {
    const { page, log } = await open(base, width);
    await pickExample(page, 'input-json/issues');
    await page.focus('#issues button[data-index="1"]');
    await page.keyboard.press('Enter');
    await page.evaluate(() => document.activeElement.blur());
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scrolling');
    await page.evaluate(() => document.fonts.ready);
    const shot = PNG.sync.read(Buffer.from(await page.screenshot({ fullPage: true })));
    const file = join(screenshots, `playground-${width}.png`);
    if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(file)) {
      assert.ok(process.env.UPDATE_SCREENSHOTS === '1', `no reference ${file}: run UPDATE_SCREENSHOTS=1 node --test test/`);
      mkdirSync(screenshots, { recursive: true });
      writeFileSync(file, PNG.sync.write(shot));
    }
    const reference = PNG.sync.read(readFileSync(file));
    // The references are drawn by one machine's Chromium and FreeType; another build draws the
    // same page with native controls and glyph edges a pixel or two off: measured between two
    // machines with Debian's Chromium 150 and 156, 0.9-1.0% of the pixels and the full page 1 px
    // taller. A layout that breaks (a panel missing, a wrap, an overflow) differs by far more.
    // So the page is compared over the height both have, within 4 px, at 1.5%.
    assert.equal(shot.width, reference.width, 'width as the reference');
    assert.ok(Math.abs(shot.height - reference.height) <= 4, `height ${shot.height}, the reference's ${reference.height}`);
    const height = Math.min(shot.height, reference.height);
    const top = (png) => {
      const out = new PNG({ width: png.width, height });
      PNG.bitblt(png, out, 0, 0, png.width, height, 0, 0);
      return out;
    };
    const diff = new PNG({ width: shot.width, height });
    const differing = pixelmatch(top(shot).data, top(reference).data, diff.data, shot.width, height, { threshold: 0.1 });
    const ratio = differing / (shot.width * height);
    if (ratio > 0.015) writeFileSync(join(tmpdir(), `playground-${width}-diff.png`), PNG.sync.write(diff));
    assert.ok(ratio <= 0.015, `${differing} pixels differ (${(ratio * 100).toFixed(2)} %); diff in ${tmpdir()}`);
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}
