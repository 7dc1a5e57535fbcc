// Runs the wasm32-wasip1 build of the engines bench under node:wasi.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
const wasi = new WASI({ version: 'preview1', args: ['engines-bench', ...process.argv.slice(2)], env: {} });
const mod = await WebAssembly.compile(await readFile(new URL('./target/wasm32-wasip1/release/engines-bench.wasm', import.meta.url)));
const instance = await WebAssembly.instantiate(mod, wasi.getImportObject());
wasi.start(instance);
