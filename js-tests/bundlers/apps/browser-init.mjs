// Explicit init (esbuild leaves `new URL(..., import.meta.url)` alone): the application serves
// the wasm itself, here next to the bundle, and hands its URL to init.
import * as api from 'agent-contract/init';
import { verdicts, beforeInit, report } from './check.mjs';

const before = beforeInit(api);
await api.init(new URL('./agent_contract_bg.wasm', import.meta.url).href);
report({ before, verdicts: verdicts(api) });
