// Explicit initialisation (pkg/wasm.mjs): every kind of input `init` and `initSync` take, the
// error before it, and the first load winning. Each case runs in a fresh Node process importing
// pkg/init.mjs (the entry without automatic loading), so no instance exists before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const entry = new URL('../../pkg/init.mjs', import.meta.url).href;
const wasm = new URL('../../pkg/dist/agent_contract_bg.wasm', import.meta.url).href;

// Runs `body` (an async function body with `api`, `bytes` in scope) in a fresh process; returns what it printed.
function fresh(body) {
  const program = `
    import * as api from ${JSON.stringify(entry)};
    import { readFileSync } from 'node:fs';
    const bytes = readFileSync(new URL(${JSON.stringify(wasm)}));
    const verdict = () => api.safeParseAgentAction({ type: 'tool_call', callId: 'c', tool: 't' }).error.code;
    const out = await (async () => { ${body} })();
    console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' }));
}

test('a call before init throws NotInitializedError, not a ContractError; safe functions too', () => {
  const out = fresh(`
    const seen = [];
    for (const call of [() => api.parseAgentAction({ type: 'message', content: 'x' }), verdict, () => api.memoryReport().bytes,
      () => api.toStandardSchema({ name: 't', description: 'd', inputSchema: {}, permission: 'read' })]) {
      try { call(); seen.push('no error'); } catch (e) {
        seen.push([e.name, e instanceof api.NotInitializedError, e instanceof api.ContractError, /init\\(/.test(e.message)]);
      }
    }
    api.initSync(bytes);
    seen.push(verdict());
    return seen;`);
  const error = ['NotInitializedError', true, false, true];
  assert.deepEqual(out, [error, error, error, error, 'ACTION_INPUT_MISSING']);
});

test('init and initSync take every documented kind of input', () => {
  const kinds = {
    'initSync(Buffer)': 'api.initSync(bytes)',
    'initSync(ArrayBuffer)': 'api.initSync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))',
    'initSync(Module)': 'api.initSync(new WebAssembly.Module(bytes))',
    'initSync({module})': 'api.initSync({ module: new Uint8Array(bytes) })',
    'init(Uint8Array)': 'await api.init(new Uint8Array(bytes))',
    'init(Module)': 'await api.init(await WebAssembly.compile(bytes))',
    'init(Response, application/wasm)': "await api.init(new Response(bytes, { headers: { 'content-type': 'application/wasm' } }))",
    'init(Response, other type)': "await api.init(new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }))",
    'init(Promise<Response>)': 'await api.init(Promise.resolve(new Response(bytes)))',
    'init({module_or_path})': 'await api.init({ module_or_path: new Response(bytes) })',
  };
  for (const [name, load] of Object.entries(kinds)) {
    assert.deepEqual(fresh(`${load}; return [verdict(), api.parseAgentAction({ type: 'message', content: 'hi' }).content];`),
      ['ACTION_INPUT_MISSING', 'hi'], name);
  }
});

test('a failed init is reported and can be retried; the first load wins; concurrent inits share one', () => {
  const out = fresh(`
    const errors = [];
    for (const bad of [() => api.init(new Response('nope', { status: 404, statusText: 'Not Found' })),
      () => api.init(42), () => api.init(new Uint8Array([0, 1, 2])), () => api.init(${JSON.stringify(wasm)})]) {
      try { await bad(); errors.push('loaded'); } catch (e) { errors.push(e.constructor.name); }
    }
    try { api.initSync('not bytes'); } catch (e) { errors.push(e.constructor.name); }
    let notYet; try { verdict(); } catch (e) { notYet = e.name; }
    const a = api.init(new Uint8Array(bytes)), b = api.init(new Uint8Array(bytes));
    await Promise.all([a, b]);
    const first = api.memoryReport().bytes;
    api.initSync(new Uint8Array(10)); // ignored: not even compiled
    await api.init(42);
    return [errors, notYet, verdict(), first === api.memoryReport().bytes];`);
  assert.deepEqual(out, [['Error', 'TypeError', 'CompileError', 'TypeError', 'TypeError'], 'NotInitializedError', 'ACTION_INPUT_MISSING', true]);
});

test('Node renewals instantiate the compiled module again and leave the old instances to the collector', () => {
  const index = new URL('../../pkg/index.cjs', import.meta.url);
  const program = `
    const api = require(${JSON.stringify(index.pathname)});
    const MiB = 1024 * 1024, s = 'x'.repeat(60 * MiB), options = { maxStringBytes: 64 * MiB, maxBytes: 64 * MiB };
    for (let i = 0; i < 5; i++) { api.parseAgentAction({ type: 'message', content: s }, options); global.gc(); }
    setTimeout(() => {
      global.gc();
      const r = api.memoryReport();
      console.log(JSON.stringify([r.renewals, r.bytes < 64 * MiB, process.memoryUsage().rss / MiB]));
    }, 100);`;
  const [renewals, small, rssMiB] = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', program], { encoding: 'utf8' }));
  assert.equal(renewals, 5);
  assert.ok(small);
  // Each instance grew past 100 MiB (a 60 MiB string: since verdict replies the action is no
  // longer written back, and 40 MiB no longer passes 64 MiB): one of them kept alive would be
  // over 150 MiB on top of the string.
  assert.ok(rssMiB < 150, `rss ${rssMiB} MiB after 5 renewals`);
});
