// Loading the wasm, as an ES module caller types it: every init input, the error class, and the
// same functions from 'agent-contract/init'.
import { init, initSync, NotInitializedError, ContractError, parseAgentAction } from 'agent-contract';
import * as explicit from 'agent-contract/init';
import api from 'agent-contract';

declare const bytes: Uint8Array;
declare const module: WebAssembly.Module;

async function load(): Promise<void> {
  await init();
  await init('/assets/agent_contract_bg.wasm');
  await init(new URL('https://example.com/agent_contract_bg.wasm'));
  await init(fetch('/agent_contract_bg.wasm'));
  await init(await fetch('/agent_contract_bg.wasm'));
  await init(bytes);
  await init(bytes.buffer);
  await init(module);
  await init({ module_or_path: '/agent_contract_bg.wasm' });
  initSync(bytes);
  initSync(module);
  initSync({ module: bytes });
  // WebAssembly.Module is an empty interface in TypeScript's lib, so any object type-checks as
  // one (wasm-bindgen's own types share this); only nothing is refused.
  // @ts-expect-error initSync needs its input
  initSync();
  // @ts-expect-error null is no wasm source
  await init(null);
  const done: void = await explicit.init(bytes);
  explicit.initSync(module);
  api.initSync(bytes);
  return done;
}

try {
  parseAgentAction({ type: 'message', content: 'x' });
} catch (e) {
  if (e instanceof NotInitializedError) {
    const name: 'NotInitializedError' = e.name;
    const message: string = e.message;
    void [name, message];
  } else if (e instanceof ContractError) {
    const code: string = e.code;
    void code;
  }
}
void load;
