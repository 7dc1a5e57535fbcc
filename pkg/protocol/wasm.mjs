// The protocol core: the API object and the wasm instance of
// 'agent-contract/protocol' and 'agent-contract/protocol/init', loaded from
// dist/agent_contract_protocol_bg.wasm, the core built without the schema engine (Cargo feature
// `schema` off). It has every function that needs no tool contract: actions, decisions, JSON
// text, streams, messages and sessions, agent events, ACP prompts, JSON-RPC frames and the
// protocol schemas. The tool functions (the table's rows marked `schema`) are in the full entry
// ('agent-contract') only. Loading is ../loader.mjs, as for the full
// core: one instance per core, one ContractError and NotInitializedError class for both.
import { createCore } from '../dist/agent_contract_protocol.js';
import { createLoader, NotInitializedError } from '../loader.mjs';
// dist/ at the package root, from a module at the root (why: ../protocol-url.mjs).
import { defaultWasmUrl } from '../protocol-url.mjs';

export { NotInitializedError, defaultWasmUrl };

const loader = createLoader(createCore, defaultWasmUrl,
  { entries: "'agent-contract/protocol' and 'agent-contract/protocol/init'", file: 'agent_contract_protocol_bg.wasm' }, false);
export const { init, initSync, noteFailure, loadSync } = loader;

/** The protocol entry's API object (module.exports of its CommonJS entry): the rows of the
 * operation table that need no schema engine. */
export const api = loader.api;
