// The verdicts every runtime app reports, from both entries: an accepted action and a refused one
// (code, path), a tool input accepted and refused against its schema, a session line (one
// JSON Lines entry) accepted and refused, the protocol entry's strict JSON parse, and the /init
// entries, which load in these runtimes too; and 'agent-contract/mcp' on a third-party tool name.
function verdict(result) {
  return result.ok ? { ok: true } : { ok: false, code: result.error.code, path: result.error.path };
}

export function checks(full, protocol, fullInit, protocolInit, mcp) {
  const action = full.parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'a.txt' } });
  let thrown;
  try {
    full.parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file' });
  } catch (e) {
    thrown = { contractError: e instanceof full.ContractError, code: e.code, path: e.path };
  }
  const tool = full.defineTool({
    name: 'read_file',
    description: 'Read a file.',
    permission: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  });
  const refused = full.safeValidateToolInput(tool, { path: 7 });
  const header = '{"type":"session","version":1,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}';
  const orphan = '{"type":"message","id":"a","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}';
  const weather = mcp.fromMcpTools({
    tools: [{ name: 'get-weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
  });
  let refusedMcpCall;
  try {
    mcp.checkMcpToolCall(weather, { name: 'get-weather', arguments: {} });
  } catch (e) {
    refusedMcpCall = { contractError: e instanceof full.ContractError, code: e.code, path: e.path };
  }
  return {
    mcpCall: mcp.checkMcpToolCall(weather, { name: 'get-weather', arguments: { city: 'Oslo' } }).arguments,
    refusedMcpCall,
    action: [action.type, action.callId, action.tool, action.input.path],
    refusedAction: thrown,
    toolInput: full.validateToolInput(tool, { path: 'a.txt' }),
    refusedToolInput: { ...verdict(refused), issues: refused.error.issues.map((i) => [i.path, i.keyword]) },
    sessionLine: verdict(full.safeParseSessionEntry(JSON.parse(header))),
    refusedSessionLine: verdict(protocol.safeParseSessionEntry(JSON.parse(orphan))),
    protocolAction: verdict(protocol.safeParseAgentActionJson('{"type":"finish","summary":"done"}')),
    refusedProtocolAction: verdict(protocol.safeParseAgentActionJson('{"type":"finish"}')),
    oneErrorClass: full.ContractError === protocol.ContractError,
    initSharesTheApi: fullInit.default === full.default && protocolInit.default === protocol.default,
    initEntries: [verdict(fullInit.safeParseAgentAction({ type: 'finish' })), verdict(protocolInit.safeParseAgentAction({ type: 'finish' }))],
  };
}
