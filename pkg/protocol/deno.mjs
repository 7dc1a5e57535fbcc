// The `deno` condition of 'agent-contract/protocol' and 'agent-contract/protocol/init': the
// protocol core loaded as ../deno.mjs loads the full one (the wasm imported as a compiled module).
import source wasm from '../dist/agent_contract_protocol_bg.wasm';
import { initSync, noteFailure, allowRenewal } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

allowRenewal();
try {
  initSync(wasm);
} catch (error) {
  noteFailure(error);
}
