// The "typical tool" of the tool validation benches, shared by bench_tools.mjs (and written
// to out/tool_cases.json for bench_tools.py, so Python validates the very same schema and
// inputs): an object with 5 properties, an enum, a pattern, a nested array of objects.
//
// Only keywords whose meaning is the same in draft-07 and draft 2020-12 are used, so that
// fastjsonschema (which knows drafts 4/6/7 only) can run the same schema.

export const inputSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', pattern: '^[A-Za-z0-9_./-]+$', maxLength: 512 },
    mode: { enum: ['create', 'overwrite', 'append'] },
    encoding: { type: 'string' },
    retries: { type: 'integer', minimum: 0, maximum: 5 },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          line: { type: 'integer', minimum: 1 },
          text: { type: 'string' },
        },
        required: ['line', 'text'],
        additionalProperties: false,
      },
    },
  },
  required: ['path', 'mode', 'edits'],
  additionalProperties: false,
};

export const toolDef = {
  name: 'write_file',
  description: 'Writes edits to a file in the workspace.',
  permissions: ['write'],
  inputSchema,
};

// Small valid input (~140 bytes as JSON).
export const small = {
  path: 'src/index.ts',
  mode: 'overwrite',
  encoding: 'utf8',
  retries: 2,
  edits: [
    { line: 1, text: 'import { x } from "./x";' },
    { line: 2, text: 'export default x;' },
  ],
};

// ~1 MB valid input: the same object with EDITS edits of ~60 bytes each. 1 MB is under the
// default limits (maxBytes 4 MiB, maxArrayLength 65,536, maxStringBytes 1 MiB), so the tool
// needs no options for it; the benches pass none.
export const EDITS = 14_500;
export const big = {
  ...small,
  edits: Array.from({ length: EDITS }, (_, i) => ({ line: i + 1, text: `    const value_${i} = compute(${i}, "abc");` })),
};
