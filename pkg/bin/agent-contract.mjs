#!/usr/bin/env node
// `npx agent-contract …`: the command line of the native build (cli/), compiled for WASI and run
// by Node's `node:wasi`, so npm users get the same commands, output and exit codes without a
// Rust toolchain. This file only starts the program: arguments, environment, standard streams
// and the file system (`/`, with the working directory the program moves to) are passed through.
import { readFile } from 'node:fs/promises';
import process from 'node:process';

// node:wasi warns that it is experimental on every start; the warning is not the user's concern.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
  if (type === 'ExperimentalWarning' && String(warning).includes('WASI')) return;
  return emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');

const wasi = new WASI({
  version: 'preview1',
  args: ['agent-contract', ...process.argv.slice(2)],
  env: { ...process.env, AGENT_CONTRACT_CWD: process.cwd() },
  preopens: { '/': '/' },
  returnOnExit: true,
});
const bytes = await readFile(new URL('../dist/cli/agent-contract.wasm', import.meta.url));
const instance = await WebAssembly.instantiate(await WebAssembly.compile(bytes), wasi.getImportObject());
process.exitCode = wasi.start(instance);
