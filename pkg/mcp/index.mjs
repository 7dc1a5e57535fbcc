// Node (the `node` condition of 'agent-contract/mcp', and index.cjs): the package's Node entry
// loads the wasm, then the MCP helpers over it.
import '../index.mjs';

export * from '../mcp.mjs';
