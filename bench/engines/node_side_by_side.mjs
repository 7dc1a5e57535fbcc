// Node, the ~1 MB input of bench_tools.mjs as text: validateToolInputJson of this checkout's
// package beside another build of the package (OLD_PKG=/path/to/pkg, e.g. main's) and the peer
// (JSON.parse + Ajv), in the same interleaved groups. Also the small input, and parseJson on the
// 1 MB strict-parse text of bench_streams.mjs against JSON.parse.
// Usage (from bench/): OLD_PKG=/path/to/old/pkg node engines/node_side_by_side.mjs
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { measureGroup, table } from '../harness.mjs';
import { toolDef, inputSchema, small, big } from '../tool_schema.mjs';
import { strictText } from '../stream_cases.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const ajvValidate = new Ajv2020({ allErrors: false }).compile(inputSchema);
const ours = await import('agent-contract');
const old = process.env.OLD_PKG ? await import(pathToFileURL(`${process.env.OLD_PKG}/index.mjs`).href) : null;

const bigText = JSON.stringify(big);
const smallText = JSON.stringify(small);
const tool = ours.defineTool(toolDef);
const oldTool = old ? old.defineTool(toolDef) : null;
for (const text of [bigText, smallText]) {
  if (JSON.stringify(ours.validateToolInputJson(tool, text)) !== text) throw new Error('ours changed the input');
  if (old && JSON.stringify(old.validateToolInputJson(oldTool, text)) !== text) throw new Error('old changed the input');
}
const group = (fns) => measureGroup(Object.fromEntries(Object.entries(fns).filter(([, f]) => f)));
const strict = strictText();
const r = {
  ...group({
    new_parse: () => ours.parseJson(strict),
    old_parse: old && (() => old.parseJson(strict)),
    json_parse: () => JSON.parse(strict),
  }),
  ...group({
    new_big: () => ours.validateToolInputJson(tool, bigText),
    old_big: old && (() => old.validateToolInputJson(oldTool, bigText)),
    peer_big: () => ajvValidate(JSON.parse(bigText)),
    parse_big: () => JSON.parse(bigText),
  }),
  ...group({
    new_small: () => ours.validateToolInputJson(tool, smallText),
    old_small: old && (() => old.validateToolInputJson(oldTool, smallText)),
    peer_small: () => ajvValidate(JSON.parse(smallText)),
    new_small_value: () => ours.validateToolInput(tool, small),
    old_small_value: old && (() => old.validateToolInput(oldTool, small)),
    peer_small_value: () => ajvValidate(small),
  }),
};
const rows = (names, base, baseName) =>
  names.filter((n) => r[n]).map((n) => ({ label: n, result: r[n], base: r[base], baseName }));
table(`~1 MB text (${bigText.length} bytes): validateToolInputJson, new / old vs JSON.parse + Ajv`, rows(['new_big', 'old_big', 'peer_big', 'parse_big'], 'peer_big', 'JSON.parse+Ajv'));
table(`strict parse, 1 MB (${strict.length} bytes): parseJson vs JSON.parse`, rows(['new_parse', 'old_parse', 'json_parse'], 'json_parse', 'JSON.parse'));
table('small text and value', [
  ...rows(['new_small', 'old_small', 'peer_small'], 'peer_small', 'JSON.parse+Ajv'),
  ...rows(['new_small_value', 'old_small_value', 'peer_small_value'], 'peer_small_value', 'Ajv'),
]);
