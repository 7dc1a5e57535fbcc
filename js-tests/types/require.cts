// The CommonJS caller: require() is typed by dist/index.d.cts (module.exports is the API
// object: named members, no `default`).
import api = require('agent-contract');
import explicit = require('agent-contract/init');

const action = api.parseAgentAction({ type: 'message', content: 'x' });
if (action.type === 'message') {
  const content: string = action.content;
  void content;
}
api.initSync(new Uint8Array(0));
const loading: Promise<void> = explicit.init('/agent_contract_bg.wasm');
const error: typeof api.ContractError = explicit.ContractError;
// @ts-expect-error require() gives no default export
void api.default;
void [loading, error];
