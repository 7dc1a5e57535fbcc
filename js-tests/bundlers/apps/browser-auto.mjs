// The automatic path (Vite, webpack 5): the bundler emits the wasm and rewrites its URL.
import * as api from 'agent-contract';
import { verdicts, beforeInit, report } from './check.mjs';

report({ before: beforeInit(api) ?? null, verdicts: verdicts(api) });
