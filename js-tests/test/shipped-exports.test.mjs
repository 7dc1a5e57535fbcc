// What ships is what users call: the packed npm package (pkg/ through `npm pack`, extracted)
// holds no export only tests use. Three checks on the tarball:
// - deny: no wasm file in it exports a name of the test build's extras (TEST_ONLY: the full-reply
//   twins of the verdict functions) or the old conformance hook, and no module of it mentions a
//   test hook; each denied name is checked to be real, an export of the test build
//   (target/testing/js, scripts/build-testing.sh), so a renamed hook cannot slip past the list;
// - allow: every function the wasm-bindgen glue of each core exposes is called by the package's
//   own modules (`core.name`, `owner.name`, `instance.name`, or a row of dist/operations.js),
//   so a new test-only export fails here even under a name the deny list does not know;
// - allow: every JS export of every entry point (ESM names, the default and CommonJS API object's
//   keys) is declared as a value in the packed index.d.ts (the protocol entries: also in
//   dist/protocol/index.d.ts), every declared value is exported, and the API objects have no
//   symbol-keyed member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));
const testingWasm = new URL('../../target/testing/js/agent_contract_bg.wasm', import.meta.url);

// The wasm exports of the test build that the shipped cores must not have.
const TEST_ONLY = ['parseAgentAction', 'parseAgentActionJson', 'parseAgentActions', 'parseAgentActionsJsonl',
  'parseDecision', 'parseDecisionJson', 'defineTool'];
// Exports the cores once had and no build has now: the conformance hook (the suite runs through
// the public API) and the plain-data tool functions the handles replaced.
const REMOVED = ['schemaSuiteCheck', 'defineToolJson', 'createRegistry'];
// Classes of the glue the package receives from a call (admitPrompt's reply) and never calls.
const RETURNED = ['Admission'];
// What the build reads from the shipped glue: the operation table (scripts/package-js.mjs writes
// dist/operations.js from it).
const BUILD = ['describe'];
// Names of hooks the package once had: no shipped module may mention them.
const HOOK_NAMES = ['schemaSuiteCheck', 'FULL_REPLY', 'MEMORY_PEAK', 'agent-contract.fullReply',
  'agent-contract.memoryPeakSinceLastRead'];

const wasmExports = (bytes) => WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Packs pkg/ once and extracts the tarball; `run(root)` gets the extracted package's directory.
async function withPackedPackage(run) {
  const work = mkdtempSync(join(tmpdir(), 'agent-contract-exports-'));
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work, pkgDir], { encoding: 'utf8' }));
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
    return await run(join(work, 'package'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Value names declared in a .d.ts: `export function|class|declare const NAME`, and the names of
// an `export { ... } from` list.
function declaredValues(dts) {
  const names = new Set([...dts.matchAll(/^export (?:declare )?(?:function|class|const) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
  for (const list of dts.matchAll(/^export \{([^}]*)\} from /gm)) {
    for (const item of list[1].split(',').map((s) => s.trim()).filter(Boolean)) names.add(item);
  }
  return names;
}

test('the packed package exports nothing only tests call', async () => {
  const testing = new Set(wasmExports(readFileSync(testingWasm)));
  for (const name of TEST_ONLY) assert.ok(testing.has(name), `the test build has no ${name}: the deny list is stale`);

  await withPackedPackage(async (root) => {
    const files = filesUnder(root);
    const rel = (path) => relative(root, path);

    // Deny: the wasm files (the two cores and the command line).
    const wasms = files.filter((f) => f.endsWith('.wasm'));
    assert.equal(wasms.length, 3, wasms.map(rel).join(' '));
    const exported = {};
    for (const wasm of wasms) {
      exported[rel(wasm)] = wasmExports(readFileSync(wasm));
      const leaked = exported[rel(wasm)].filter((name) => TEST_ONLY.includes(name) || REMOVED.includes(name));
      assert.deepEqual(leaked, [], `${rel(wasm)} exports test-only ${leaked.join(', ')}`);
    }
    console.log(`shipped wasm exports: ${JSON.stringify(Object.fromEntries(Object.entries(exported).map(([f, names]) => [f, names.length])))}`);

    // Deny: no module mentions a hook.
    const modules = files.filter((f) => /\.(mjs|cjs|js|d\.ts|d\.cts)$/.test(f));
    for (const file of modules) {
      const source = readFileSync(file, 'utf8');
      for (const hook of HOOK_NAMES) assert.ok(!source.includes(hook), `${rel(file)} mentions ${hook}`);
    }

    // Allow: every function of each core's glue is called by the package's own modules, by name
    // or as a row of the operation table the API is made from (dist/operations.js: a verdict
    // row through its `<name>Verdict` export, any other JS row through its name).
    const own = files.filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const { OPERATIONS } = await import(pathToFileURL(join(root, 'dist/operations.js')));
    const rowCalls = new Set(OPERATIONS.filter((row) => row.hosts !== 'python' && !row.reply.host && !row.reply.object)
      .map((row) => (row.reply === 'verdict' ? `${row.name}Verdict` : row.name)));
    for (const glue of ['dist/agent_contract.js', 'dist/agent_contract_protocol.js']) {
      const { createCore } = await import(pathToFileURL(join(root, glue)));
      const names = Object.keys(createCore()).filter((n) => n !== 'init' && n !== 'initSync' && !RETURNED.includes(n) && !BUILD.includes(n));
      assert.ok(names.length > 20, `${glue}: ${names.length} functions`);
      const unused = names.filter((n) => !rowCalls.has(n) && !new RegExp(`\\b(?:core|owner|instance)\\.${n}\\b`).test(own));
      assert.deepEqual(unused, [], `${glue} exposes what the package never calls`);
    }

    // Allow: every JS export of every entry point is declared in the packed declarations.
    const full = declaredValues(readFileSync(join(root, 'index.d.ts'), 'utf8'));
    const protocol = declaredValues(readFileSync(join(root, 'dist/protocol/index.d.ts'), 'utf8'));
    assert.ok(full.size > 50 && protocol.size > 30 && [...protocol].every((n) => full.has(n)));
    const require = createRequire(join(root, 'package.json'));
    const entries = [
      ['index.mjs', full], ['browser.mjs', full], ['init.mjs', full],
      ['protocol/index.mjs', protocol], ['protocol/browser.mjs', protocol], ['protocol/init.mjs', protocol],
    ];
    const counts = {};
    for (const [entry, declared] of entries) {
      const namespace = await import(pathToFileURL(join(root, entry)));
      const names = Object.keys(namespace).filter((n) => n !== 'default');
      const apiObject = namespace.default;
      const members = Object.keys(apiObject);
      counts[entry] = names.length;
      assert.deepEqual(names.filter((n) => !declared.has(n)), [], `${entry}: exports not declared`);
      // And the other way: the entries' name lists are generated from the table, which
      // tests/operation_table.rs holds index.d.ts to, so a row the generator missed fails here.
      assert.deepEqual([...declared].filter((n) => !names.includes(n)), [], `${entry}: declared but not exported`);
      assert.deepEqual(members.filter((n) => !declared.has(n)), [], `${entry}: API object members not declared`);
      assert.deepEqual(Object.getOwnPropertySymbols(apiObject), [], `${entry}: the API object has symbol-keyed members`);
    }
    for (const [entry, declared] of [['index.cjs', full], ['protocol/index.cjs', protocol]]) {
      const apiObject = require(`./${entry}`);
      counts[entry] = Object.keys(apiObject).length;
      assert.deepEqual(Object.keys(apiObject).filter((n) => !declared.has(n)), [], `${entry}: exports not declared`);
      assert.deepEqual(Object.getOwnPropertySymbols(apiObject), [], `${entry}: the API object has symbol-keyed members`);
    }
    console.log(`shipped JS exports per entry point: ${JSON.stringify(counts)}`);
  });
});
