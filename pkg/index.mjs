// Node, ES modules: the same instance as require('agent-contract'), so ContractError is one class.
import { createRequire } from 'node:module';

const api = createRequire(import.meta.url)('./index.cjs');

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
  createAssembler,
  memoryBytes,
} = api;
export default api;
