// 'agent-contract/protocol' as an ES module caller types it: the protocol
// functions with the full entry's types, the same ContractError, every type name, and no tool
// function (the protocol core has none).
import { parseAgentAction, parseDecisionJson, classifyJsonRpc, init, initSync, ContractError } from 'agent-contract/protocol';
import type { AgentAction, Decision, ToolDefinition } from 'agent-contract/protocol';
import * as protocol from 'agent-contract/protocol';
import * as explicit from 'agent-contract/protocol/init';
import api from 'agent-contract/protocol';
import * as full from 'agent-contract';

async function use(): Promise<void> {
  await init('/agent_contract_protocol_bg.wasm');
  initSync(new Uint8Array(0));
  const action: AgentAction = parseAgentAction({ type: 'finish', summary: 'done' });
  if (action.type === 'finish') {
    const summary: string = action.summary;
    void summary;
  }
  const decision: Decision = parseDecisionJson('{"kind":"final","answer":"ok"}');
  const same: typeof full.ContractError = ContractError;
  const frame = classifyJsonRpc({ jsonrpc: '2.0', id: 1, method: 'm' });
  const fromDefault: AgentAction = api.parseAgentAction({ type: 'message', content: 'x' });
  await explicit.init();
  let tool: ToolDefinition | undefined;
  // @ts-expect-error the protocol entry has no defineTool
  protocol.defineTool({});
  // @ts-expect-error nor validateToolInput on its default export
  api.validateToolInput(tool, {});
  void [decision, same, frame, fromDefault, tool];
}
void use;
