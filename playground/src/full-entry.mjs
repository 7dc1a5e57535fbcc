// The full core (with the schema engine), loaded by the page only when a tool kind needs it: a
// classic script (full.js) so that it loads from file:// too, where module scripts and fetch are
// refused. Its wasm is embedded (esbuild's binary loader), so loading it makes no other request.
import * as api from 'agent-contract/init';
import wasm from 'agent-contract/dist/agent_contract_bg.wasm';

globalThis.agentContractPlaygroundFull = api.init(wasm).then(() => api);
