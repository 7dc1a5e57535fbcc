// Node 20's V8 inlines a JS->Wasm call into optimized JS when the wasm function has at most one
// result of a plain type, externref included, and aborts the whole process ("Fatal error ...
// unreachable code" in Deoptimizer::DoComputeBuiltinContinuation) when such an inlined call is
// deoptimized lazily: whenever the caller's own code, run by the reader during the call (a getter,
// a Proxy trap), invalidates the optimized caller. No export may answer one externref
// (src/bindings/js/verdict.rs, `NotInlined`; docs/decisions.md "No export answers one externref").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../pkg/dist/', import.meta.url));
const child = fileURLToPath(new URL('../deopt/child.mjs', import.meta.url));
const node = (flags, args) => execFileSync(process.execPath, [...flags, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('no export of any shipped core answers exactly one externref', () => {
  const wasmFiles = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.wasm'));
  assert.ok(wasmFiles.length >= 2, `found ${wasmFiles}`);
  const script = `
    const fs = require('node:fs');
    const out = [];
    for (const file of process.argv.slice(1)) {
      for (const e of WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(file)))) {
        if (e.kind !== 'function') continue;
        if (!e.type) throw new Error('no type reflection for ' + e.name);
        out.push([file, e.name, e.type.results]);
      }
    }
    console.log(JSON.stringify(out));`;
  const exports = JSON.parse(node(['--experimental-wasm-type-reflection', '-e', script], wasmFiles.map((f) => dist + f)));
  assert.ok(exports.length > 100, `only ${exports.length} exports read`);
  const single = exports.filter(([, , results]) => results.length === 1 && results[0] === 'externref');
  assert.deepEqual(single.map(([file, name]) => `${file.slice(dist.length)}: ${name}`), []);
});

// The five exports that answered one externref before the fix, through both entries.
const CASES = [
  ['parseAgentAction', 'value'], ['safeParseAgentAction', 'value'], ['parseAgentActions', 'value'],
  ['parseDecision', 'value'], ['safeParseDecision', 'value'],
  ['parseAgentActionJson', 'text'], ['safeParseAgentActionJson', 'text'], ['parseDecisionJson', 'text'],
];
for (const entry of ['agent-contract', 'agent-contract/protocol']) {
  test(`${entry}: an optimized call deoptimized by the caller's getter mid-call completes`, () => {
    for (const [name, where] of CASES) {
      const out = node(['--allow-natives-syntax'], [child, entry, name, where]);
      const { optimized, survived } = JSON.parse(out);
      assert.equal(survived, true, name);
      assert.equal(optimized, true, `${name} was not optimized: the case tests nothing`);
    }
  });
}
