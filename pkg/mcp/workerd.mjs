// Cloudflare Workers (the `workerd` condition of 'agent-contract/mcp'): the package's Worker
// entry brings the wasm in as a module (see ../workerd.mjs), then the MCP helpers over it.
import '../workerd.mjs';

export * from '../mcp.mjs';
