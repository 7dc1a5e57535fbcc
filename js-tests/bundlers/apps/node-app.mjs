// A bundled Node program: the automatic loading reads dist/agent_contract_bg.wasm next to the
// bundle; where it is absent, the first call says so and initSync takes the bytes.
import { readFileSync } from 'node:fs';
import * as api from 'agent-contract';
import { verdicts, beforeInit } from './check.mjs';

const before = beforeInit(api);
if (before) api.initSync(readFileSync(process.env.AGENT_CONTRACT_WASM));
console.log(JSON.stringify({ before: before ?? null, verdicts: verdicts(api) }));
