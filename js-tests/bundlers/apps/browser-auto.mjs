// The automatic path (Vite, webpack 5): the bundler emits the wasm and rewrites its URL. Named
// imports, as applications write them: a bundler that believed the package free of side
// effects could take them from shared.mjs and skip the entry that loads the wasm.
import {
  parseAgentAction, defineTool, validateToolInput, safeValidateToolInput, ContractError, NotInitializedError,
} from 'agent-contract';
import { verdicts, beforeInit, report } from './check.mjs';

const api = { parseAgentAction, defineTool, validateToolInput, safeValidateToolInput, ContractError, NotInitializedError };
report({ before: beforeInit(api) ?? null, verdicts: verdicts(api) });
