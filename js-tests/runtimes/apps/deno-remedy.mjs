// Deno, with the entry that does not load the wasm (by its file path): the first call throws
// NotInitializedError, and what its message says to do then loads the wasm, with no permission.
import * as api from './node_modules/agent-contract/init.mjs';
import source wasm from 'agent-contract/dist/agent_contract_bg.wasm';

let message;
try {
  api.parseAgentAction({ type: 'finish', summary: 'done' });
} catch (e) {
  message = `${e.name}: ${e.message}`;
}
api.initSync(wasm);
console.log(JSON.stringify({ message, after: api.parseAgentAction({ type: 'finish', summary: 'done' }).type }));
