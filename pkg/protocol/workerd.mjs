// The `workerd` condition of 'agent-contract/protocol' and 'agent-contract/protocol/init': the
// protocol core loaded as ../workerd.mjs loads the full one (the wasm imported as a compiled module).
import wasm from '../dist/agent_contract_protocol_bg.wasm';
import { loadSync } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

loadSync(() => wasm);
