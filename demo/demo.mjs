// Validates the sample trace through the wasm core in Node and prints one verdict per line.
import { readFileSync } from 'node:fs';
import { safeParseAgentActionJson, safeDefineTool, safeAssembleProviderStream } from '../pkg/index.mjs';

const trace = JSON.parse(readFileSync(new URL('./trace.json', import.meta.url), 'utf8'));
const line = (what, r, ok) =>
  console.log(r.ok ? `${what} ok    ${ok(r.value)}` : `${what} error ${r.error.layer} ${r.error.code} ${JSON.stringify(r.error.path)}`);

trace.tools.forEach((t, i) => line(`tool   ${i + 1}`, safeDefineTool(t), (d) => `${d.name} [${d.permissions.join(',')}]`));
trace.outputs.forEach((text, i) => line(`output ${i + 1}`, safeParseAgentActionJson(text), (a) => `${a.type} ${a.tool ?? ''}`.trim()));
trace.streams.forEach((s, i) => line(`stream ${i + 1}`, safeAssembleProviderStream(s.provider, s.sse),
  (r) => `${r.finishReason} ${r.calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(' ')}`.trim()));
