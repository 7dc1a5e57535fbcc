// The fixtures through 'agent-contract/protocol': every case whose function the
// protocol entry has runs through it too, with the same expectations as through the full entry,
// so the same function gives the same verdict from either core. The cases of the functions it
// leaves out are counted by function and each function must be listed in LEFT_OUT with the
// reason: a case for a tool function cannot vanish silently, and a function the protocol entry
// lacks without a reason fails. Environment-neutral (the Node test and the browser page).

/** Cases of fixtures/ run through the protocol entry. Pinned: a fixture added for a function of
 *  the protocol entry raises it, one for a function of LEFT_OUT raises LEFT_OUT_CASES instead. */
export const PROTOCOL_CASES = 2355;
/** Cases of fixtures/ whose function is in LEFT_OUT (the full entry runs them). */
export const LEFT_OUT_CASES = 858;

/** The functions of 'agent-contract' that 'agent-contract/protocol' does not have, and why. */
export const LEFT_OUT = {
  defineTool: 'compiles the inputSchema and outputSchema with the schema engine',
  safeDefineTool: 'defineTool',
  defineToolJson: 'defineTool',
  safeDefineToolJson: 'defineTool',
  validateToolInput: 'validates with the schema engine',
  safeValidateToolInput: 'validateToolInput',
  validateToolInputJson: 'validateToolInput',
  safeValidateToolInputJson: 'validateToolInput',
  createRegistry: 'reads tool definitions again (defineTool)',
  safeCreateRegistry: 'createRegistry',
  catalog: 'reads a registry again (defineTool)',
  definePolicy: 'a permission policy only serves checkToolCall; the tool pipeline is not in the protocol core',
  safeDefinePolicy: 'definePolicy',
  checkToolCall: 'validates the call input with the schema engine',
  safeCheckToolCall: 'checkToolCall',
  toOpenAITools: 'projections read a registry (defineTool) and bundle schema resources',
  toOpenAIResponsesTools: 'toOpenAITools',
  toAnthropicTools: 'toOpenAITools',
  toMcpTools: 'toOpenAITools',
  toGeminiTools: 'toOpenAITools',
  strictSchemaIssues: 'a tool schema question: in the tools module with the engine',
  geminiSchemaIssues: 'strictSchemaIssues',
  jsonSchemaForTarget: 'strictSchemaIssues',
  standardJsonSchema: 'strictSchemaIssues',
  toStandardSchema: 'defineTool and validateToolInput',
  normalizeToolResult: 'validates structured content against the outputSchema with the schema engine',
  compareContracts: 'reads tool definitions again (defineTool)',
  diffCatalogs: 'compareContracts',
  fromSeedTool: 'makes a tool contract (defineTool)',
  toSeedTool: 'reads a tool contract again (defineTool)',
  validateToolInputs: 'validateToolInput',
  checkChatRow: 'validates call arguments against the row\'s tool parameters with the schema engine',
  checkChatRows: 'checkChatRow',
  checkChatRowsJsonl: 'checkChatRow',
  mcpToolDefinitions: 'MCP tools as tool definitions, for createRegistry',
  checkMcpToolResult: 'validates structuredContent against the outputSchema with the schema engine',
};

// The API function a fixture op calls, where it is not the op itself (fixture-runner.mjs).
const OP_FUNCTION = {
  assembleStream: 'createAssembler',
  decodeNdjson: 'createNdjsonDecoder',
  rpcSession: 'createRpcSession',
  promptLifecycle: 'createPromptLifecycle',
  compiledTool: 'defineTool',
};

export const caseFunction = (c) => OP_FUNCTION[c.op] ?? c.op;

/** files: [{name, doc}] as runFixtures takes them; api: the protocol entry's API object.
 *  Returns {files: the same with only the cases of functions `api` has, selected, leftOut:
 *  {function: cases}}; throws on a case whose function is neither in `api` nor in LEFT_OUT. */
export function protocolSelection(files, api) {
  let selected = 0;
  const leftOut = {};
  const kept = files.map(({ name, doc }) => ({
    name,
    doc: {
      ...doc,
      cases: doc.cases.filter((c) => {
        const fn = caseFunction(c);
        if (typeof api[fn] === 'function') {
          selected++;
          return true;
        }
        if (!Object.hasOwn(LEFT_OUT, fn)) {
          throw new Error(`case ${c.id} (${name}) calls ${fn}, which the protocol entry lacks and LEFT_OUT does not list`);
        }
        leftOut[fn] = (leftOut[fn] ?? 0) + 1;
        return false;
      }),
    },
  }));
  return { files: kept, selected, leftOut };
}
