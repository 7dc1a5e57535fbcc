// Deno (the `deno` condition of 'agent-contract' and 'agent-contract/init'): a source phase
// import gives the compiled WebAssembly.Module with the code, so neither --allow-read (Node's
// entry reads the file) nor --allow-net is needed. Renewal works as in Node.
import source wasm from './dist/agent_contract_bg.wasm';
import { loadSync } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

loadSync(() => wasm);
