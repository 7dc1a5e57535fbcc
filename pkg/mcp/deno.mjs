// Deno (the `deno` condition of 'agent-contract/mcp'): the package's Deno entry imports the wasm
// as a module, no permission needed (see ../deno.mjs), then the MCP helpers over it.
import '../deno.mjs';

export * from '../mcp.mjs';
