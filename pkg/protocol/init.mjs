// 'agent-contract/protocol/init' outside Node: the protocol API with no automatic loading, for
// hosts that serve dist/agent_contract_protocol_bg.wasm themselves. Call `await init(input)` or
// `initSync(bytes | module)` first; a call before throws NotInitializedError. (In Node this
// subpath is index.mjs / index.cjs.)
export * from './shared.mjs';
export { default } from './shared.mjs';
