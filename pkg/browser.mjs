// Browsers, ES modules without a bundler: fetches the wasm next to this file, once.
import init, * as core from './dist/web/agent_contract.js';
import { createApi } from './api.mjs';

await init({ module_or_path: new URL('./dist/web/agent_contract_bg.wasm', import.meta.url) });
const api = createApi(core);

export const {
  ContractError,
  parseAgentAction,
  safeParseAgentAction,
  parseAgentActionJson,
  safeParseAgentActionJson,
  parseAgentActions,
  parseAgentActionsJsonl,
  previewAction,
  defineTool,
  safeDefineTool,
  defineToolJson,
  safeDefineToolJson,
  parseJson,
  safeParseJson,
  parseDecision,
  safeParseDecision,
  parseDecisionJson,
  safeParseDecisionJson,
  validateToolInput,
  safeValidateToolInput,
  validateToolInputJson,
  safeValidateToolInputJson,
  schemaSuiteCheck,
  createRegistry,
  safeCreateRegistry,
  catalog,
  definePolicy,
  safeDefinePolicy,
  checkToolCall,
  safeCheckToolCall,
  toOpenAITools,
  toAnthropicTools,
  toMcpTools,
  normalizeToolResult,
  strictSchemaIssues,
  compareContracts,
  diffCatalogs,
  createAssembler,
  createProviderAssembler,
  assembleProviderStream,
  safeAssembleProviderStream,
  providerResponseStream,
  memoryBytes,
  memoryReport,
} = api;
export default api;
