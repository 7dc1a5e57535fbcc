// The protocol core: the API object and the wasm instance of
// 'agent-contract/protocol' and 'agent-contract/protocol/init', loaded from
// dist/agent_contract_protocol_bg.wasm, the core built without the schema engine (Cargo feature
// `schema` off). It has every function that needs no tool contract: actions, decisions, JSON
// text, streams, messages and sessions, agent events, ACP prompts, JSON-RPC frames and the
// protocol schemas. The tool functions are in the full entry ('agent-contract') only; a
// function added to the package is absent here until it is added to PROTOCOL_NAMES (a test
// lists what the protocol entry leaves out, and why). Loading is ../loader.mjs, as for the full
// core: one instance per core, one ContractError and NotInitializedError class for both.
import { createCore } from '../dist/agent_contract_protocol.js';
import { createLoader, NotInitializedError } from '../loader.mjs';
// dist/ at the package root, from a module at the root (why: ../protocol-url.mjs).
import { defaultWasmUrl } from '../protocol-url.mjs';

export { NotInitializedError, defaultWasmUrl };

const loader = createLoader(createCore, defaultWasmUrl,
  { entries: "'agent-contract/protocol' and 'agent-contract/protocol/init'", file: 'agent_contract_protocol_bg.wasm' });
export const { init, initSync, noteFailure, loadSync } = loader;

const PROTOCOL_NAMES = [
  'ContractError',
  'parseAgentAction', 'safeParseAgentAction', 'parseAgentActionJson', 'safeParseAgentActionJson',
  'parseAgentActions', 'parseAgentActionsJsonl', 'previewAction',
  'parseJson', 'safeParseJson',
  'parseDecision', 'safeParseDecision', 'parseDecisionJson', 'safeParseDecisionJson',
  'createAssembler', 'createProviderAssembler', 'assembleProviderStream', 'safeAssembleProviderStream',
  'providerResponseStream',
  'memoryReport',
  'init', 'initSync', 'NotInitializedError',
  'parseAgentMessage', 'safeParseAgentMessage', 'parseAgentMessageJson', 'safeParseAgentMessageJson',
  'parseToolResult', 'safeParseToolResult', 'parseSessionEntry', 'safeParseSessionEntry',
  'checkSession', 'readSession', 'safeReadSession', 'querySession', 'createSessionChecker',
  'admitPrompt', 'safeAdmitPrompt', 'isCanonicalBase64', 'sniffMediaType', 'advertisePromptCapabilities',
  'createPromptLifecycle',
  'classifyJsonRpc', 'classifyJsonRpcJson', 'methodNotFound', 'internalError', 'invalidParams',
  'createNdjsonDecoder', 'ndjsonFrames', 'ndjsonFramesAsync', 'checkStdoutPurity', 'createRpcSession',
  'parseAgentEvent', 'safeParseAgentEvent', 'checkEventSequence', 'safeCheckEventSequence',
  'checkSessionResponse', 'safeCheckSessionResponse',
  'protocolSchemas',
];

/** The protocol entry's API object (module.exports of its CommonJS entry). */
export const api = {};
for (const name of PROTOCOL_NAMES) {
  if (typeof loader.api[name] !== 'function') throw new Error(`agent-contract/protocol: the API has no ${name}`);
  api[name] = loader.api[name];
}
