// `npx agent-contract`: the command line compiled for WASI (pkg/dist/cli/) and started by
// pkg/bin/agent-contract.mjs. The same program as `cargo install --path cli` (cli/tests/cli.rs
// tests the native build); here the assertions are about what the WASI run must keep: paths as
// the shell means them (relative, `..`, absolute), standard input, output and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../pkg/bin/agent-contract.mjs', import.meta.url));

function run(args, { cwd, input } = {}) {
  const out = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'agent-contract-cli-'));
mkdirSync(join(dir, 'sub'));
const actions = '{"type":"finish","summary":"ok"}\n{"type":"finish","summary":"  "}\n\n{"type":"message","content":"a",}\r\n';
writeFileSync(join(dir, 'actions.jsonl'), actions);

test('check actions: one line per problem with line and column, exit 1', () => {
  const out = run(['check', 'actions', 'actions.jsonl'], { cwd: dir });
  assert.equal(out.code, 1, out.stderr);
  assert.equal(
    out.stdout,
    'actions.jsonl:2:28: FIELD_EMPTY at /summary: summary must not be empty or blank\n' +
      'actions.jsonl:3:1: JSON_INVALID: unexpected end of input, expected a value\n' +
      "actions.jsonl:4:33: JSON_INVALID: expected a string for an object member name, found '}'\n" +
      'actions.jsonl: 3 problems (4 actions checked)\n',
  );
  assert.equal(out.stderr, '', 'no runtime warning on stderr');
});

test('paths mean what they mean in the shell: `..` and absolute', () => {
  const up = run(['check', 'actions', '../actions.jsonl'], { cwd: join(dir, 'sub') });
  assert.equal(up.code, 1, up.stderr);
  assert.match(up.stdout, /^\.\.\/actions\.jsonl:2:28: FIELD_EMPTY at \/summary/);
  const abs = run(['--format', 'json', 'check', 'actions', join(dir, 'actions.jsonl')], { cwd: join(dir, 'sub') });
  assert.equal(abs.code, 1, abs.stderr);
  const report = JSON.parse(abs.stdout);
  assert.equal(report.ok, false);
  assert.deepEqual(report.problems[0], {
    file: join(dir, 'actions.jsonl'), line: 2, column: 28, code: 'FIELD_EMPTY', path: '/summary',
    message: 'summary must not be empty or blank',
  });
});

test('standard input with `-`, a clean input exits 0', () => {
  const out = run(['check', 'actions', '-'], { input: '{"type":"message","content":"hi"}\n' });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, '<stdin>: ok (1 actions checked)\n');
});

test('check tools and diff: schemas compile (the WASI build draws its own randomness)', () => {
  const tool = {
    name: 'read_file', description: 'Reads a file.', permissions: ['read'], version: '1.0.0',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  };
  writeFileSync(join(dir, 'tools.json'), JSON.stringify([tool]));
  writeFileSync(join(dir, 'tools-new.json'), JSON.stringify([{ ...tool, permissions: ['read', 'network'] }]));
  const tools = run(['check', 'tools', 'tools.json'], { cwd: dir });
  assert.deepEqual([tools.code, tools.stdout], [0, 'tools.json: ok (1 tools checked)\n'], tools.stderr);
  const diff = run(['--format', 'json', 'diff', 'tools.json', 'tools-new.json'], { cwd: dir });
  assert.equal(diff.code, 1, diff.stderr);
  const report = JSON.parse(diff.stdout);
  assert.deepEqual(report.problems.map((p) => [p.code, p.path]), [['VERSION_BUMP_MISSING', '/0/version']]);
});

test('usage and I/O errors exit 2', () => {
  const missing = run(['check', 'actions', 'nope.jsonl'], { cwd: dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.jsonl/);
  const usage = run(['bogus']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /unrecognized subcommand 'bogus'/);
  const version = run(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^agent-contract \d+\.\d+\.\d+/);
});

test('check sessions and check rows under WASI: a directory walked, gzip read, --jobs accepted (one file at a time)', () => {
  const corpus = join(dir, 'corpus');
  mkdirSync(join(corpus, 'deeper'), { recursive: true });
  const header = '{"type":"session","version":1,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}';
  const user = (id, parent) =>
    `{"type":"message","id":"${id}","parentId":${parent},"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}`;
  writeFileSync(join(corpus, 'a.jsonl'), `${header}\n${user('a', 'null')}\n`);
  writeFileSync(join(corpus, 'deeper', 'b.jsonl.gz'), gzipSync(`${header}\n${user('a', 'null')}\n${user('b', '"nope"')}\n`));
  writeFileSync(join(corpus, 'notes.txt'), 'not a session');
  const out = run(['--format', 'jsonl', 'check', 'sessions', '--jobs', '4', 'corpus'], { cwd: dir });
  assert.equal(out.code, 1, out.stderr);
  const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines[0], {
    file: 'corpus/deeper/b.jsonl.gz', line: 3, code: 'ENTRY_PARENT_MISSING', path: '/parentId',
    message: 'parentId "nope" names no earlier entry of the file',
  });
  assert.deepEqual(lines[1].summary, { files: 2, filesWithProblems: 1, unreadable: 0, checked: 4, problems: 1, bytes: lines[1].summary.bytes });
  const rows = join(dir, 'rows.jsonl');
  writeFileSync(rows, '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}\n\n');
  const r = run(['--format', 'jsonl', 'check', 'rows', 'rows.jsonl'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  const [blank, summary] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(blank.line, 2);
  assert.equal(blank.code, 'ROW_LINE_BLANK');
  assert.equal(summary.summary.checked, 2);
});

test('a report larger than a pipe buffer reaches a slow reader whole, with its exit code', () => {
  // Node makes a pipe on standard output non-blocking: past its 64 KiB buffer a write answered
  // EAGAIN, and the report was cut there (`| cat`, `| jq`) with a panic or exit 2.
  writeFileSync(join(dir, 'finishes.jsonl'), '{"type":"finish"}\n'.repeat(3000));
  const whole = run(['check', 'actions', 'finishes.jsonl'], { cwd: dir });
  assert.equal(whole.code, 1, whole.stderr);
  assert.ok(whole.stdout.length > 3 * 65536, `${whole.stdout.length} bytes`);
  assert.equal(whole.stdout.split('\n').length, 3002);
  // The reader sleeps before reading, so the writer fills the pipe first.
  const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" check actions finishes.jsonl | (sleep 1; cat)`], { cwd: dir, encoding: 'utf8' });
  assert.equal(piped.stdout, whole.stdout);
  assert.equal(piped.stderr, '');
  const status = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" check actions finishes.jsonl | (sleep 1; cat >/dev/null); exit "\${PIPESTATUS[0]}"`], { cwd: dir });
  assert.equal(status.status, 1);
});
