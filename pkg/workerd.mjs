// Cloudflare Workers (the `workerd` condition of 'agent-contract' and 'agent-contract/init'):
// wrangler and workerd import a .wasm file as a compiled WebAssembly.Module, and workerd compiles
// no wasm from bytes or a URL at run time, so the module comes in with the code and is
// instantiated synchronously while the Worker loads: no init call. Renewal works as in Node.
import wasm from './dist/agent_contract_bg.wasm';
import { loadSync } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

loadSync(() => wasm);
