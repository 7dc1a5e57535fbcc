// Typed tool inputs: defineTool with a literal inputSchema infers the input type;
// validateToolInput and checkToolCall return it. `Equal` fails the compile on any difference, and
// each @ts-expect-error fails it when the misuse stops being an error.
import { checkToolCall, createRegistry, defineTool, safeValidateToolInput, validateToolInput } from 'agent-contract';
import type { InferSchema, ToolInput } from 'agent-contract';

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
      mode: { enum: ['text', 'bytes'] },
      tags: { type: 'array', items: { type: 'string' } },
      owner: { type: ['string', 'null'] },
      range: { type: 'object', properties: { from: { type: 'number' } }, required: ['from'] },
      kind: { const: 'file' },
      id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    required: ['path', 'kind'],
    additionalProperties: false,
  },
} as const);

const input = validateToolInput(readFile, { path: 'a.md', kind: 'file' });
expectType<
  Equal<
    typeof input,
    {
      path: string;
      kind: 'file';
      lines?: number;
      mode?: 'text' | 'bytes';
      tags?: string[];
      owner?: string | null;
      range?: { from: number };
      id?: string | number;
    }
  >
>();
const path: string = input.path;
// @ts-expect-error path is a string, not a number
const wrong: number = input.path;
// @ts-expect-error lines is optional: possibly undefined
const lines: number = input.lines;

const checked = safeValidateToolInput(readFile, {});
if (checked.ok) {
  const p: string = checked.value.path;
  void p;
}

// Without `as const` (inline literal) the same inference holds.
const writeFile = defineTool({
  name: 'write_file',
  description: 'Write a file.',
  permissions: ['write'],
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
});
expectType<Equal<ReturnType<typeof validateToolInput<{ path: string; content: string }>>, { path: string; content: string }>>();
const written = validateToolInput(writeFile, {});
expectType<Equal<typeof written, { path: string; content: string }>>();

// A registry of typed tools: the approved call is a union discriminated by the tool's name.
const registry = createRegistry([readFile, writeFile]);
const call = checkToolCall(registry, { type: 'tool_call', callId: 'c1', tool: 'write_file', input: {} }, { rules: [] });
if (call.tool === 'write_file') {
  const content: string = call.input.content;
  void content;
} else {
  expectType<Equal<typeof call.tool, 'read_file'>>();
  const p: string = call.input.path;
  void p;
}

// What is not inferred stays wide: $ref, allOf and schemas without the read keywords.
expectType<Equal<InferSchema<{ $ref: '#/$defs/x' }>, ToolInput>>();
expectType<Equal<InferSchema<{}>, ToolInput>>();
expectType<Equal<InferSchema<false>, never>>();
// A definition that is not a literal (parsed JSON, say) keeps the untyped API.
const loose = defineTool(JSON.parse('{}') as unknown);
const looseInput: ToolInput = validateToolInput(loose, {});

export { path, wrong, lines, looseInput };
