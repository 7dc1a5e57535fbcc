// A Worker whose code skipped the automatic loading (the entry without it, by its file path, as a
// bundler that ignores the `workerd` condition would pick): the first call throws
// NotInitializedError, and what its message says to do then loads the wasm.
import * as api from './node_modules/agent-contract/init.mjs';
import wasm from 'agent-contract/dist/agent_contract_bg.wasm';

export default {
  fetch() {
    let message;
    try {
      api.parseAgentAction({ type: 'finish', summary: 'done' });
    } catch (e) {
      message = `${e.name}: ${e.message}`;
    }
    api.initSync(wasm);
    return Response.json({ message, after: api.parseAgentAction({ type: 'finish', summary: 'done' }).type });
  },
};
