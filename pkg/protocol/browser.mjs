// Browsers and browser bundles (the `browser` and `default` conditions of
// 'agent-contract/protocol'): dist/agent_contract_protocol_bg.wasm is fetched once, before the
// module resolves (top-level await), as ../browser.mjs does for the full wasm; the schema engine
// is not downloaded. If that fails, the module still loads: the first call throws
// NotInitializedError with the reason, and `await init(url | response | bytes | module)` loads
// the wasm from where the application serves it. 'agent-contract/protocol/init' skips the attempt.
import { init, noteFailure } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

try {
  await init();
} catch (error) {
  noteFailure(error);
}
