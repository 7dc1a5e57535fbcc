// The test build of the core (Cargo feature `testing`, built by scripts/build-testing.sh into
// target/testing/js/): every export of the shipped build plus the full-reply twins of the verdict
// functions (the core writes the whole result), which the package never calls and so does not
// ship. The property tests compare the package's verdict path with `fullReply` here; the
// benchmarks time the raw exports (`core`). One instance of its own, seeded like the package's;
// replies decoded by the package's own decoder and errors made with its ContractError class, so
// outcomes compare with the package's as they are.
import { existsSync, readFileSync } from 'node:fs';
import { ContractError, decode } from '../pkg/api.mjs';

const dir = new URL('../target/testing/js/', import.meta.url);
const wasm = new URL('agent_contract_bg.wasm', dir);
if (!existsSync(wasm)) throw new Error(`the test build is missing (${wasm.pathname}): run scripts/build-testing.sh`);

export const core = await import(new URL('agent_contract.js', dir));
core.initSync({ module: new WebAssembly.Module(readFileSync(wasm)) });
core.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));

// The package's `safe` and `each` over a decoded reply.
const safe = (outcome) => (outcome.ok ? { ok: true, value: outcome.value } : { ok: false, error: new ContractError(outcome.error) });
const each = (outcome) => {
  if (!outcome.ok) throw new ContractError(outcome.error);
  return outcome.value.map(safe);
};

/** The full-reply path, function by function: what the package gave before verdict replies. */
export const fullReply = Object.freeze({
  parseAgentAction: (value, options) => safe(decode(core.parseAgentAction(value, options))),
  parseAgentActionJson: (text, options) => safe(decode(core.parseAgentActionJson(text, options))),
  parseAgentActions: (list, options) => each(decode(core.parseAgentActions(list, options))),
  parseAgentActionsJsonl: (text, options) => each(decode(core.parseAgentActionsJsonl(text, options))),
  parseDecision: (value, options) => safe(decode(core.parseDecision(value, options))),
  parseDecisionJson: (text, options) => safe(decode(core.parseDecisionJson(text, options))),
});
