// toStandardSchema carries defineTool's inferred input type into the Vercel AI SDK (`ai`, pinned
// in package-lock.json): `tool({inputSchema: toStandardSchema(def), execute})` types `execute`'s
// input from the definition. `Equal` fails the compile on any difference, and each expected
// error directive fails it when the misuse stops being an error.
import { tool } from 'ai';
import type { InferToolInput } from 'ai';
import { defineTool, toStandardSchema } from 'agent-contract';
import type { StandardToolSchema, ToolDefinition, ToolInput } from 'agent-contract';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  permission: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1 },
      lines: { type: 'integer' },
    },
    required: ['path'],
    additionalProperties: false,
  },
} as const);

type ReadFileInput = { path: string; lines?: number };

const schema = toStandardSchema(readFile);
expectType<Equal<typeof schema, StandardToolSchema<ReadFileInput>>>();

export const readFileTool = tool({
  description: readFile.description,
  inputSchema: toStandardSchema(readFile),
  execute: async (input) => {
    expectType<Equal<typeof input, ReadFileInput>>();
    const path: string = input.path;
    const lines: number | undefined = input.lines;
    // @ts-expect-error: the definition has no `file` property.
    input.file;
    // @ts-expect-error: `path` is a string, not a number.
    const wrong: number = input.path;
    return `${path}:${lines ?? 0}:${wrong}`;
  },
});
expectType<Equal<InferToolInput<typeof readFileTool>, ReadFileInput>>();

// A definition without a literal type gives the untyped tool input; a type argument still names one.
declare const plain: ToolDefinition;
const untyped = toStandardSchema(plain);
expectType<Equal<typeof untyped, StandardToolSchema<ToolInput>>>();
const named = toStandardSchema<{ path: string }>(plain);
expectType<Equal<typeof named, StandardToolSchema<{ path: string }>>>();
