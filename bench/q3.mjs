import '../pkg/index.mjs';
import { api as whole } from '../pkg/wasm.mjs';
const action = { type: 'tool_call', callId: 'call_1', tool: 'read_file', input: { path: 'src/index.ts', encoding: 'utf8' } };
const text = JSON.stringify(action);
const f = process.argv[2] === 'text' ? () => whole.parseAgentActionJson(text) : () => whole.parseAgentAction(action);
for (let i = 0; i < 300000; i++) f();
