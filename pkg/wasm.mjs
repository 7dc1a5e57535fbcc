// The one API object and its wasm instance, shared by every entry point (index.mjs and
// index.cjs in Node, browser.mjs, init.mjs; shared.mjs lists the public names): whichever entry
// a program or its bundler picks, and however many, there is one instance and one
// ContractError class. The instance comes from
// the one wasm file of the package, dist/agent_contract_bg.wasm, by `init` (async: a URL, a
// Response, bytes or a compiled module) or `initSync` (bytes or a compiled module); Node's entry
// and the browser entry call them themselves. A call before that throws NotInitializedError.
import { createCore } from './dist/agent_contract.js';
import { createApi } from './api.mjs';

/** Thrown by every function of the API while no wasm instance is loaded (not a ContractError: no verdict was made). */
export class NotInitializedError extends Error {
  constructor(cause) {
    super('agent-contract: the WebAssembly module is not loaded. Call `await init(input)` or '
      + '`initSync(bytes | module)` (exported by \'agent-contract\' and \'agent-contract/init\') before '
      + 'the first call; `input` is the URL, a Response, the bytes or the compiled WebAssembly.Module of '
      + 'agent-contract/dist/agent_contract_bg.wasm, served or copied by your application.'
      + (cause ? ` The automatic loading failed: ${cause.message || cause}` : ''),
      cause ? { cause } : undefined);
    this.name = 'NotInitializedError';
  }
}

// The wasm file next to this module: a bundler that understands `new URL(..., import.meta.url)`
// (Vite, webpack 5, Parcel, Rollup with its plugin) emits it as an asset and rewrites the URL.
export const defaultWasmUrl = () => new URL('./dist/agent_contract_bg.wasm', import.meta.url);

let loaded = false; // init or initSync made the instance
let first; // that instance, until the API takes it (the API then drops it when it renews)
let compiled; // its WebAssembly.Module: Node's renewals instantiate it again
let pending; // an init() under way
let failure; // why the entry's automatic loading failed (in NotInitializedError's message)
let renewable = false;

// The options object form of wasm-bindgen's functions is taken too: {module_or_path} / {module}.
function unwrapOptions(input, key) {
  if (input !== null && typeof input === 'object' && Object.getPrototypeOf(input) === Object.prototype && key in input) {
    return input[key];
  }
  return input;
}

function isBytes(input) {
  return input instanceof ArrayBuffer || ArrayBuffer.isView(input)
    || (typeof SharedArrayBuffer === 'function' && input instanceof SharedArrayBuffer);
}

function instantiateSync(module) {
  const core = createCore();
  core.initSync({ module });
  return core;
}

/**
 * Loads the wasm synchronously: `input` is its bytes (ArrayBuffer, a typed array, a Node Buffer)
 * or a compiled WebAssembly.Module. Does nothing once an instance is loaded.
 */
export function initSync(input) {
  if (loaded) return;
  input = unwrapOptions(input, 'module');
  let module;
  if (input instanceof WebAssembly.Module) module = input;
  else if (isBytes(input)) module = new WebAssembly.Module(input);
  else throw new TypeError('initSync takes the bytes of agent_contract_bg.wasm or a compiled WebAssembly.Module');
  const core = instantiateSync(module);
  if (!loaded) {
    loaded = true;
    first = core;
    compiled = module;
  }
}

async function compile(input) {
  input = await input;
  if (input instanceof WebAssembly.Module) return input;
  if (isBytes(input)) return WebAssembly.compile(input);
  if (typeof input === 'string' || input instanceof URL || (typeof Request === 'function' && input instanceof Request)) {
    if (String(input.url ?? input).startsWith('file:')) {
      throw new TypeError(`init cannot fetch ${input.url ?? input}: read the file and pass its bytes (initSync(readFileSync(path)))`);
    }
    input = await fetch(input);
  }
  if (typeof Response === 'function' && input instanceof Response) {
    if (!input.ok) throw new Error(`fetching the wasm failed: ${input.status} ${input.statusText} ${input.url}`);
    const type = input.headers.get('content-type');
    if (typeof WebAssembly.compileStreaming === 'function' && type && type.split(';')[0].trim() === 'application/wasm') {
      return WebAssembly.compileStreaming(input);
    }
    return WebAssembly.compile(await input.arrayBuffer());
  }
  throw new TypeError('init takes a URL or string, a Request, a Response (or a promise of one), the bytes of agent_contract_bg.wasm or a compiled WebAssembly.Module');
}

async function initOnce(input) {
  const module = await compile(input === undefined ? defaultWasmUrl() : input);
  if (loaded) return;
  const core = createCore();
  // The glue's own async init: WebAssembly.instantiate, not the synchronous constructor that a
  // browser's main thread limits by size.
  await core.init({ module_or_path: module });
  if (!loaded) {
    loaded = true;
    first = core;
    compiled = module;
  }
}

/**
 * Loads the wasm: `input` is a URL or string (fetched), a Request, a Response or a promise of
 * one, the bytes, or a compiled WebAssembly.Module; without it, dist/agent_contract_bg.wasm next
 * to this module is fetched. Resolves once the API can be called; does nothing once an instance
 * is loaded. Calls made meanwhile share one loading; a failed one can be retried.
 */
export function init(input) {
  if (loaded) return Promise.resolve();
  input = unwrapOptions(input, 'module_or_path');
  if (!pending) {
    pending = initOnce(input).finally(() => {
      pending = undefined;
    });
  }
  return pending;
}

// For the entries: the automatic loading's failure (kept for the error message), and renewal.
export function noteFailure(error) {
  failure = error;
}
export function allowRenewal() {
  renewable = true;
}

const api = createApi(() => {
  if (!loaded) throw new NotInitializedError(failure);
  const core = first;
  first = undefined;
  return core;
}, () => (renewable ? instantiateSync(compiled) : undefined));
Object.assign(api, { init, initSync, NotInitializedError });
export { api };

