// The raw wasm-bindgen exports (each returns the core's JSON reply, as pkg/api.mjs receives it),
// to split our time: an instance of the package's one wasm file of its own, seeded like the API's.
import { readFileSync } from 'node:fs';
import { createCore } from '../pkg/dist/agent_contract.js';

export const core = createCore();
core.initSync({ module: new WebAssembly.Module(readFileSync(new URL('../pkg/dist/agent_contract_bg.wasm', import.meta.url))) });
core.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));
