// One verdict of each kind, the same in every bundle: an accepted action, a ContractError with
// its code and path, a tool input validated against its schema (accepted and refused).
export function verdicts(api) {
  const accepted = api.parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'a.txt' } });
  let error;
  try {
    api.parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file' });
  } catch (e) {
    error = [e instanceof api.ContractError, e.name, e.code, e.path];
  }
  const tool = api.defineTool({
    name: 'read_file',
    description: 'Read a file.',
    permission: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  });
  const refused = api.safeValidateToolInput(tool, { path: 7 });
  return {
    accepted: [accepted.type, accepted.callId, accepted.tool, accepted.input.path],
    error,
    input: [api.validateToolInput(tool, { path: 'a.txt' }).path, refused.ok, refused.error.code, refused.error.issues.map((i) => i.path)],
  };
}

// What a call before the wasm is loaded throws (undefined when it is loaded).
export function beforeInit(api) {
  try {
    api.parseAgentAction({ type: 'message', content: 'x' });
    return undefined;
  } catch (e) {
    return [e.name, e instanceof api.NotInitializedError, e instanceof api.ContractError];
  }
}

export const report = (body) => fetch('/report', { method: 'POST', body: JSON.stringify(body) });
