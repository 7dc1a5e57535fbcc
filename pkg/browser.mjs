// Browsers and browser bundles (the `browser` and `default` conditions of 'agent-contract'): the
// wasm next to this file is fetched once, before the module resolves (top-level await), so a
// page without a bundler, Vite and webpack 5 need no step. If that fails (a bundler that left
// the URL pointing nowhere, as esbuild does), the module still loads: the first call throws
// NotInitializedError with the reason, and `await init(url | response | bytes | module)` loads
// the wasm from where the application serves it. 'agent-contract/init' skips the attempt.
import { init, noteFailure } from './wasm.mjs';

export * from './shared.mjs';
export { default } from './shared.mjs';

try {
  await init();
} catch (error) {
  noteFailure(error);
}
