// Tool input validation performance, Node: ours vs Ajv 8 (draft 2020-12, compiled once) and
// @cfworker/json-schema (the validator edge runtimes use: no code generation), small input as a value and as text, a ~1 MB input as JSON text, and schema compile time.
// Usage: node bench_tools.mjs [--json out.json] (also writes out/tool_cases.json for Python)
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineTool, validateToolInput, validateToolInputJson, parseJson } from 'agent-contract';
import { measureGroup, table, consume, fmtNs } from './harness.mjs';
import { toolDef, inputSchema, small, big, EDITS } from './tool_schema.mjs';
import { core as rawCore } from './raw_core.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const { Validator: CfworkerValidator } = require('@cfworker/json-schema');
// The raw wasm-bindgen export (returns the core's JSON reply), to split our time.
const core = rawCore;

const tool = defineTool(toolDef);
const ajv = new Ajv2020({ allErrors: false });
const ajvValidate = ajv.compile(inputSchema);
// Draft 2020-12, stopping at the first error (ours and Ajv's `allErrors: false` do too).
const cfworker = new CfworkerValidator(inputSchema, '2020-12', true);
const cfworkerValid = (value) => cfworker.validate(value).valid;

const smallText = JSON.stringify(small);
const bigText = JSON.stringify(big);
mkdirSync('out', { recursive: true });
writeFileSync('out/tool_cases.json', JSON.stringify({ tool: toolDef, small, big }));

// Sanity: every contender accepts both cases and ours returns the same value.
for (const [name, value, text] of [['small', small, smallText], ['big', big, bigText]]) {
  if (JSON.stringify(validateToolInput(tool, value)) !== text) throw new Error(`ours (value) changed ${name}`);
  if (JSON.stringify(validateToolInputJson(tool, text)) !== text) throw new Error(`ours (text) changed ${name}`);
  if (!ajvValidate(JSON.parse(text))) throw new Error(`ajv rejected ${name}`);
  if (!cfworkerValid(JSON.parse(text))) throw new Error(`@cfworker/json-schema rejected ${name}`);
}
// ... and all reject the same bad inputs.
for (const bad of [{ ...small, mode: 'delete' }, { ...small, path: 'a b' }, { ...small, edits: [{ line: 0, text: '' }] }]) {
  let threw = false;
  try {
    validateToolInput(tool, bad);
  } catch {
    threw = true;
  }
  if (!threw || ajvValidate(bad) || cfworkerValid(bad)) throw new Error(`not rejected by both: ${JSON.stringify(bad)}`);
}

const results = {
  node: process.version,
  ajv: require('ajv/package.json').version,
  cfworker: require('@cfworker/json-schema/package.json').version,
  big_bytes: Buffer.byteLength(bigText), big_edits: EDITS };

// Schema compile per tool (first: the later groups leave megabytes of garbage behind). The core caches compiled schemas by canonical schema text, so each
// defineTool call gets a schema that differs by `$comment: "v<i>"` (a new cache key: a real
// compile). Ajv: one instance, a fresh schema object per call (Ajv caches by object identity;
// the same `$comment` is set), removed again after compiling so its cache does not grow; and,
// for reference, a new Ajv2020 instance per call. defineTool also checks the rest of the
// definition and deep-freezes the copy; "cached" is defineTool of an already-compiled schema.
let k = 0;
const variant = () => ({ ...inputSchema, $comment: `v${k++}` });
// Two groups: Ajv's compile generates code (new Function) and garbage that V8 collects later,
// which, interleaved, landed in defineTool's batches (measured: defineTool 0.6–2 ms interleaved
// with Ajv vs ~0.2 ms on its own).
const ajvShared = new Ajv2020({ allErrors: false });
Object.assign(
  results,
  measureGroup({
    c_ours: () => defineTool({ ...toolDef, inputSchema: variant() }),
    c_ours_cached: () => defineTool(toolDef),
  }),
  measureGroup({
    c_ajv: () => {
      const s = variant();
      const v = ajvShared.compile(s);
      ajvShared.removeSchema(s);
      return v;
    },
    c_ajv_new: () => new Ajv2020({ allErrors: false }).compile(variant()),
  }),
);

// Small input.
Object.assign(
  results,
  measureGroup({
    s_ours_value: () => validateToolInput(tool, small),
    s_ajv_value: () => ajvValidate(small),
    s_cfworker_value: () => cfworkerValid(small),
    s_ours_text: () => validateToolInputJson(tool, smallText),
    s_ajv_text: () => ajvValidate(JSON.parse(smallText)),
    s_core_text: () => core.validateToolInputJson(tool, smallText, undefined),
    s_tool_reread: () => defineTool(tool),
  }),
);

// The smallest tool the Python boundary bench uses too (bench_boundary.py: `read_file`), ours
// beside @cfworker/json-schema and Ajv on the same value.
const readFileSchema = {
  type: 'object',
  properties: { path: { type: 'string', minLength: 1 }, encoding: { enum: ['utf8', 'base64'] } },
  required: ['path'],
  additionalProperties: false,
};
const readFile = defineTool({ name: 'read_file', description: 'Read a file.', permission: 'read', inputSchema: readFileSchema });
const readFileInput = { path: 'src/index.ts', encoding: 'utf8' };
const readFileCfworker = new CfworkerValidator(readFileSchema, '2020-12', true);
const readFileAjv = new Ajv2020({ allErrors: false }).compile(readFileSchema);
if (!readFileCfworker.validate(readFileInput).valid || !readFileAjv(readFileInput)) throw new Error('read_file input refused');
Object.assign(
  results,
  measureGroup({
    r_ours_value: () => validateToolInput(readFile, readFileInput),
    r_cfworker_value: () => readFileCfworker.validate(readFileInput).valid,
    r_ajv_value: () => readFileAjv(readFileInput),
  }),
);

// ~1 MB input, JSON text (and as a value, for reference).
// Breakdown of ours without touching src/: the raw core export on texts that stop at a known
// stage and return a tiny error reply — '!' + text fails at byte 0 (the crossing: the string
// check and its UTF-8 copy into wasm), text + ' x' fails after the whole text is checked
// (parseJson's verdict-only strict check, no tree), and a text whose LAST edit has line 0 fails
// after the whole input is validated (strict parse building the tree + tool re-read + schema
// validation). The valid call replies the verdict alone ({"ok":true}) and api.mjs then
// JSON.parses the caller's text (the "JSON.parse alone" row).
const bigReply = core.validateToolInputJson(tool, bigText, undefined);
if (bigReply !== '{"ok":true}') throw new Error(`unexpected reply ${bigReply.slice(0, 80)}`);
const badLast = JSON.stringify({ ...big, edits: [...big.edits.slice(0, -1), { line: 0, text: 'x' }] });
const stage = (reply, code) => {
  if (!reply.includes(code)) throw new Error(`breakdown stage: expected ${code}, got ${reply.slice(0, 200)}`);
};
// Built (and flattened by a first use) here, so that no timed call pays for a concatenation.
const failFirst = '!' + bigText;
const failLast = bigText + ' x';
stage(core.parseJson(failFirst, undefined), '"ok":false');
stage(core.parseJson(failLast, undefined), '"ok":false');
stage(core.validateToolInputJson(tool, badLast, undefined), 'SCHEMA_MISMATCH');
Object.assign(
  results,
  measureGroup({
    l_ours_text: () => validateToolInputJson(tool, bigText),
    l_ajv_text: () => ajvValidate(JSON.parse(bigText)),
    l_jsonparse: () => JSON.parse(bigText),
    l_core_text: () => core.validateToolInputJson(tool, bigText, undefined),
    l_stage_cross: () => core.parseJson(failFirst, undefined),
    l_stage_parse: () => core.parseJson(failLast, undefined),
    l_stage_validate: () => core.validateToolInputJson(tool, badLast, undefined),
    l_parsejson: () => parseJson(bigText),
    l_ours_value: () => validateToolInput(tool, big),
    l_ajv_value: () => ajvValidate(big),
  }),
);

const r = results;
table('Tool input (Node) small valid input (167 bytes), typical tool schema — no target', [
  { label: 'validateToolInput(tool, value)', result: r.s_ours_value, base: r.s_ajv_value, baseName: 'Ajv' },
  { label: 'Ajv 8 (2020) compiled validate(value)', result: r.s_ajv_value, base: r.s_ajv_value, baseName: 'Ajv' },
  { label: 'validateToolInput(tool, value) — target: faster than @cfworker', result: r.s_ours_value, base: r.s_cfworker_value, baseName: '@cfworker' },
  { label: '@cfworker/json-schema validate(value)', result: r.s_cfworker_value, base: r.s_ajv_value, baseName: 'Ajv' },
  { label: 'validateToolInputJson(tool, text)', result: r.s_ours_text, base: r.s_ajv_text, baseName: 'JSON.parse+Ajv' },
  { label: 'JSON.parse + Ajv validate', result: r.s_ajv_text, base: r.s_ajv_text, baseName: 'JSON.parse+Ajv' },
  { label: '  of which core export (text → reply)', result: r.s_core_text, base: r.s_ours_text, baseName: 'of ours' },
  { label: '  defineTool(tool) again (the tool re-read)', result: r.s_tool_reread, base: r.s_ours_text, baseName: 'of ours' },
]);
table('Tool input (Node) small read_file tool (the Python boundary bench\'s) — target: faster than @cfworker', [
  { label: 'validateToolInput(tool, value)', result: r.r_ours_value, base: r.r_cfworker_value, baseName: '@cfworker' },
  { label: '@cfworker/json-schema validate(value)', result: r.r_cfworker_value, base: r.r_cfworker_value, baseName: '@cfworker' },
  { label: 'Ajv 8 (2020) compiled validate(value)', result: r.r_ajv_value, base: r.r_cfworker_value, baseName: '@cfworker' },
]);
table(`Tool input (Node) ~1 MB input as JSON text (${r.big_bytes} bytes, ${EDITS} edits) — target: ours ≤ 1.5× JSON.parse + Ajv`, [
  { label: 'validateToolInputJson(tool, text)', result: r.l_ours_text, base: r.l_ajv_text, baseName: 'JSON.parse+Ajv' },
  { label: 'JSON.parse + Ajv validate', result: r.l_ajv_text, base: r.l_ajv_text, baseName: 'JSON.parse+Ajv' },
  { label: 'JSON.parse alone', result: r.l_jsonparse, base: r.l_ajv_text, baseName: 'JSON.parse+Ajv' },
  { label: '  ours: core export (text → verdict)', result: r.l_core_text, base: r.l_ours_text, baseName: 'of ours' },
  { label: '  ours: then JSON.parse(text) in api.mjs', result: r.l_jsonparse, base: r.l_ours_text, baseName: 'of ours' },
  { label: '  stage: crossing only (fails at byte 0)', result: r.l_stage_cross, base: r.l_ours_text, baseName: 'of ours' },
  { label: '  stage: + strict check, no tree (fails at the end)', result: r.l_stage_parse, base: r.l_ours_text, baseName: 'of ours' },
  { label: '  stage: + tool re-read + validation (last item bad)', result: r.l_stage_validate, base: r.l_ours_text, baseName: 'of ours' },
  { label: '  parseJson(text) (strict check + JSON.parse, no schema)', result: r.l_parsejson, base: r.l_ours_text, baseName: 'of ours' },
  { label: 'validateToolInput(tool, value) [1 MB value]', result: r.l_ours_value, base: r.l_ajv_value, baseName: 'Ajv value' },
  { label: 'Ajv validate(value) [1 MB value]', result: r.l_ajv_value, base: r.l_ajv_value, baseName: 'Ajv value' },
]);
table('Tool input (Node) schema compile per tool (schema varied by $comment each call) — no target', [
  { label: 'defineTool (definition check + compile)', result: r.c_ours, base: r.c_ajv, baseName: 'Ajv compile' },
  { label: 'defineTool, schema already cached', result: r.c_ours_cached, base: r.c_ajv, baseName: 'Ajv compile' },
  { label: 'Ajv 8 (2020) compile, shared instance', result: r.c_ajv, base: r.c_ajv, baseName: 'Ajv compile' },
  { label: 'new Ajv2020() + compile', result: r.c_ajv_new, base: r.c_ajv, baseName: 'Ajv compile' },
]);
console.log(`    (compile: ${fmtNs(r.c_ours.ns - r.c_ours_cached.ns)} attributable to the compile itself = uncached − cached)`);

const out = process.argv.indexOf('--json');
if (out > 0) writeFileSync(process.argv[out + 1], JSON.stringify(results, null, 2));
consume(null);
