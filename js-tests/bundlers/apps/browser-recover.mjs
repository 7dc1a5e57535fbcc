// The automatic entry where the automatic loading cannot work (esbuild): the module loads, the
// first call says why, and init with a promise of the Response loads the wasm.
import * as api from 'agent-contract';
import { verdicts, beforeInit, report } from './check.mjs';

const before = beforeInit(api);
let message;
try {
  api.memoryReport();
} catch (e) {
  message = e.message;
}
await api.init(fetch('./agent_contract_bg.wasm'));
report({ before, message, verdicts: verdicts(api) });
