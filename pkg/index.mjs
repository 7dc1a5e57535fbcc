// Node (the `node` condition of 'agent-contract' and 'agent-contract/init', and index.cjs):
// the wasm is read next to this file and compiled when the module loads, synchronously, so
// `import` and `require()` need no step. A bundle that moved this code away from
// dist/agent_contract_bg.wasm (and did not rewrite the URL, as webpack does) loads anyway; its
// first call throws NotInitializedError saying where the file was looked for, unless the
// program first calls initSync(bytes) or `await init(...)`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadSync, defaultWasmUrl } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

function wasmPath() {
  let url;
  try {
    url = defaultWasmUrl();
  } catch (error) {
    // A bundle in CommonJS format (esbuild) has no import.meta.url: next to the bundle, then.
    if (typeof __dirname === 'string') return join(__dirname, 'dist', 'agent_contract_bg.wasm');
    throw error;
  }
  return fileURLToPath(url);
}

loadSync(() => readFileSync(wasmPath()));
