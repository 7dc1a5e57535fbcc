// Browsers and browser bundles (the `default` condition of 'agent-contract/mcp'): the package's
// browser entry fetches the wasm (see ../browser.mjs), then the MCP helpers over it.
import '../browser.mjs';

export * from '../mcp.mjs';
