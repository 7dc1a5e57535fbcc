// 'agent-contract/init' outside Node: the same API with no automatic loading, for hosts that
// serve the wasm themselves. Call `await init(input)` or `initSync(bytes | module)` first; a
// call before throws NotInitializedError. (In Node this subpath is index.mjs / index.cjs.)
export * from './shared.mjs';
export { default } from './shared.mjs';
