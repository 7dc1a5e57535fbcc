// Wasm sizes, raw and `gzip -9`, for the browser/Node modules (the full core and
// the protocol core of 'agent-contract/protocol') and the Python component.
// Usage: node sizes.mjs [--json out.json]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = {
  // One file for Node and browsers; `web` is its key in the results (summary.mjs).
  web: 'pkg/dist/agent_contract_bg.wasm',
  // The crate without the schema engine (Cargo feature `schema` off).
  protocol: 'pkg/dist/agent_contract_protocol_bg.wasm',
  component: 'py-host/src/agent_contract/core.wasm',
};
// Targets: the protocol entry's core ≤ 150 KB gzip, the full one ≤ 450 KB; the component
// (Python, full) has no target of its own: the full one's is shown.
const LIMITS = { web: 450 * 1024, protocol: 150 * 1024, component: 450 * 1024 };

function gzip9(path) {
  try {
    return execFileSync('gzip', ['-9', '-c', path], { maxBuffer: 1 << 28 }).length;
  } catch {
    return gzipSync(readFileSync(path), { level: 9 }).length; // no gzip binary: zlib, same level
  }
}

const results = {};
console.log('\nWasm sizes — targets: protocol core ≤ 150 KB, full core ≤ 450 KB gzip -9');
for (const [key, rel] of Object.entries(files)) {
  let raw;
  try {
    raw = readFileSync(root + rel).length;
  } catch {
    console.log(`  ${rel.padEnd(40)}  (not built)`);
    continue;
  }
  const gz = gzip9(root + rel);
  const LIMIT = LIMITS[key];
  results[key] = { file: rel, raw, gzip: gz, limit: LIMIT };
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `  ${rel.padEnd(40)}  raw ${kb(raw).padStart(9)}  gzip -9 ${kb(gz).padStart(9)}  ${gz <= LIMIT ? 'met' : 'NOT met'} (${((gz / LIMIT) * 100).toFixed(0)}% of limit)`,
  );
}

const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(results, null, 2));
