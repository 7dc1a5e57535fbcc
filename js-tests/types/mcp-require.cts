// 'agent-contract/mcp' from require(): typed by dist/mcp.d.cts (the CommonJS declarations).
import mcp = require('agent-contract/mcp');
import full = require('agent-contract');

const registry: full.Registry = mcp.fromMcpTools({ tools: [] });
const validate = mcp.jsonSchemaValidator.getValidator({ type: 'object' });
const valid: boolean = validate({}).valid;
// @ts-expect-error the MCP entry has no defineTool
void mcp.defineTool;
void [registry, valid];
