// The conformance entry point of the wasm build, for the JSON Schema Test Suite and the protocol
// schema test only: `schemaSuiteCheck({schema, instances, resources})` compiles any schema (the
// suite's non-object roots included) the way tool schemas are compiled and answers one boolean
// per instance. It is not part of the package's API; the tests reach it through the package's
// own wasm file and glue, in an instance of their own, seeded like the API's.
import { readFileSync } from 'node:fs';
import { createCore } from '../pkg/dist/agent_contract.js';

const core = createCore();
core.initSync({ module: new WebAssembly.Module(readFileSync(new URL('../pkg/dist/agent_contract_bg.wasm', import.meta.url))) });
core.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));

export function schemaSuiteCheck(text) {
  const reply = JSON.parse(core.schemaSuiteCheck(text));
  if (reply.ok) return reply.value;
  throw Object.assign(new Error(reply.error.message), reply.error);
}
