// The TypeScript declarations shipped in pkg/: a strict compile of a usage file that narrows the
// action union exhaustively and expects errors where misuse must not type-check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// A strict compile of one file of js-tests/types/ against the package's declarations; `flags`
// are further compiler options.
function strictCompile(file, flags = []) {
  const dir = fileURLToPath(new URL('..', import.meta.url));
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const args = [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', ...flags, file];
  try {
    execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
}

test('pkg/index.d.ts types a strict TypeScript caller', () => strictCompile('types/usage.ts'));

test("the projections' types are the real clients' tool types (openai, @anthropic-ai/sdk, MCP SDK)", () =>
  strictCompile('types/clients.ts'));

test('defineTool with a literal inputSchema types validateToolInput and checkToolCall', () =>
  strictCompile('types/inference.ts'));

// The AI SDK's declarations name Node's types and the untyped `json-schema` package (no
// `@types/json-schema` among its dependencies), so declaration files' own bodies are not checked
// here (pkg/index.d.ts's are, by the compiles above); every use in the file still is.
test("toStandardSchema carries defineTool's input type into the AI SDK's tool({inputSchema, execute})", () =>
  strictCompile('types/standard-schema.ts', ['--types', 'node', '--skipLibCheck']));

test('ErrorCode in pkg/index.d.ts lists exactly the codes of the core', async () => {
  const { readFileSync } = await import('node:fs');
  const root = new URL('../../', import.meta.url);
  const rust = readFileSync(new URL('src/error.rs', root), 'utf8');
  const core = [...rust.matchAll(/^\s+\w+ => "([A-Z_]+)", \w+, (?:true|false);$/gm)].map((m) => m[1]);
  const dts = readFileSync(new URL('pkg/index.d.ts', root), 'utf8');
  const union = dts.slice(dts.indexOf('export type ErrorCode ='), dts.indexOf(';', dts.indexOf('export type ErrorCode =')));
  const declared = [...union.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]);
  assert.ok(core.length > 40, 'codes not found in src/error.rs');
  assert.deepEqual([...declared].sort(), [...core].sort());
});

test('loading the wasm is typed for ES module callers (agent-contract and agent-contract/init)', () =>
  strictCompile('types/init.ts'));

test('require() is typed as CommonJS (dist/index.d.cts): named members, no default', () =>
  strictCompile('types/require.cts'));

test("'agent-contract/protocol' is typed: the protocol functions, every type, no tool function", () => {
  strictCompile('types/protocol.ts');
  strictCompile('types/protocol-require.cts');
});

test("'agent-contract/mcp' is typed: the SDK's Client and Server take its validator; require() too", () => {
  strictCompile('types/mcp.ts');
  strictCompile('types/mcp-require.cts');
});
