// The one API object and its wasm instance, shared by every entry point (index.mjs and
// index.cjs in Node, browser.mjs, init.mjs; shared.mjs lists the public names): whichever entry
// a program or its bundler picks, and however many, there is one instance and one
// ContractError class. The instance comes from the full wasm file of the package,
// dist/agent_contract_bg.wasm (with the schema engine), by `init` (async: a URL, a Response,
// bytes or a compiled module) or `initSync` (bytes or a compiled module); Node's entry and the
// browser entry call them themselves. A call before that throws NotInitializedError. The loading
// itself is loader.mjs, shared with the protocol entry (protocol/wasm.mjs).
import { createCore } from './dist/agent_contract.js';
import { createLoader, NotInitializedError } from './loader.mjs';

export { NotInitializedError };

// The wasm file next to this module: a bundler that understands `new URL(..., import.meta.url)`
// (Vite, webpack 5, Parcel, Rollup with its plugin) emits it as an asset and rewrites the URL.
export const defaultWasmUrl = () => new URL('./dist/agent_contract_bg.wasm', import.meta.url);

export const { api, init, initSync, noteFailure, loadSync } = createLoader(createCore, defaultWasmUrl,
  { entries: "'agent-contract' and 'agent-contract/init'", file: 'agent_contract_bg.wasm' });
