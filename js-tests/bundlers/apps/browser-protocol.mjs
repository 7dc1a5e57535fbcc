// An application that only checks what a model produced imports
// 'agent-contract/protocol'; its bundle must carry the protocol core alone (no schema engine).
import { parseAgentAction, parseDecisionJson, ContractError } from 'agent-contract/protocol';
import { report } from './check.mjs';

let error;
try {
  parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file' });
} catch (e) {
  error = [e instanceof ContractError, e.code, e.path];
}
report({
  accepted: parseAgentAction({ type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'a.txt' } }).input.path,
  decision: parseDecisionJson('{"kind":"final","answer":"done"}').answer,
  error,
});
