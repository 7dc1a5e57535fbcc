// The protocol wasm's URL, written at the package root as wasm.mjs writes the full one's: a bundle
// that keeps import.meta.url (esbuild) then looks for both wasm files in dist/ next to itself,
// and bundlers that rewrite the literal (Vite, webpack 5) resolve it from this file.
export const defaultWasmUrl = () => new URL('./dist/agent_contract_protocol_bg.wasm', import.meta.url);
