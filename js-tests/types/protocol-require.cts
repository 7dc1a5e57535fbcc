// 'agent-contract/protocol' from require(): typed by dist/protocol/index.d.cts (module.exports
// is the protocol API object: named members, no `default`, no tool function).
import protocol = require('agent-contract/protocol');
import full = require('agent-contract');

const action = protocol.parseAgentAction({ type: 'message', content: 'x' });
if (action.type === 'message') {
  const content: string = action.content;
  void content;
}
const error: typeof full.ContractError = protocol.ContractError;
// @ts-expect-error the protocol entry has no defineTool
void protocol.defineTool;
// @ts-expect-error require() gives no default export
void protocol.default;
void error;
