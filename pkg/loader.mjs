// Loading one wasm-bindgen module and the API over it, for the two cores of the package: the
// full one (wasm.mjs: dist/agent_contract_bg.wasm, every function) and the protocol one
// (protocol/wasm.mjs: dist/agent_contract_protocol_bg.wasm, built without the schema engine).
// Each calls createLoader once, so each has one instance shared by all of its entry points;
// NotInitializedError and ContractError (api.mjs) are one class for both.
import { createApi } from './api.mjs';

/** Thrown by every function of the API while no wasm instance is loaded (not a ContractError: no verdict was made). */
export class NotInitializedError extends Error {
  // `where`: the entries that export init / initSync and the wasm file they load (the full
  // package's by default).
  constructor(cause, where = { entries: "'agent-contract' and 'agent-contract/init'", file: 'agent_contract_bg.wasm' }) {
    super(`agent-contract: the WebAssembly module is not loaded. ${remedy(where)}`
      + (cause ? ` The automatic loading failed: ${cause.message || cause}` : ''),
      cause ? { cause } : undefined);
    this.name = 'NotInitializedError';
  }
}

// What to call, in the runtime at hand: workerd compiles no wasm from bytes or a URL, so there only
// an imported module works (its `workerd` entry condition does that); Deno needs no permission
// for a source phase import of the module.
function remedy({ entries, file }) {
  const fn = `(exported by ${entries}) before the first call`;
  if (globalThis.navigator?.userAgent === 'Cloudflare-Workers') {
    return `In Cloudflare Workers, import the wasm as a module and pass it to initSync ${fn}: `
      + `\`import wasm from 'agent-contract/dist/${file}'; initSync(wasm);\` (workerd compiles no wasm from bytes or a URL).`;
  }
  if (typeof Deno === 'object') {
    return `In Deno, import the wasm as a module and pass it to initSync ${fn}: `
      + `\`import source wasm from 'agent-contract/dist/${file}'; initSync(wasm);\` (no permission needed).`;
  }
  return `Call \`await init(input)\` or \`initSync(bytes | module)\` ${fn}; \`input\` is the URL, a Response, `
    + `the bytes or the compiled WebAssembly.Module of agent-contract/dist/${file}, served or copied by your application.`;
}

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

/**
 * createCore: the glue's factory (scripts/package-js.mjs); defaultWasmUrl: the wasm next to the
 * calling module (a `new URL(literal, import.meta.url)` there, so that bundlers see it);
 * where: for NotInitializedError's message; schema: whether the core has the schema engine's
 * rows. Returns {api, init, initSync, noteFailure, loadSync}.
 */
export function createLoader(createCore, defaultWasmUrl, where, schema = true) {
  const file = where.file;
  let loaded = false; // init or initSync made the instance
  let first; // that instance, until the API takes it (the API then drops it when it renews)
  let compiled; // its WebAssembly.Module: Node's renewals instantiate it again
  let pending; // an init() under way
  let failure; // why the entry's automatic loading failed (in NotInitializedError's message)
  let renewable = false;

  function instantiateSync(module) {
    const core = createCore();
    core.initSync({ module });
    return core;
  }

  /**
   * Loads the wasm synchronously: `input` is its bytes (ArrayBuffer, a typed array, a Node Buffer)
   * or a compiled WebAssembly.Module. Does nothing once an instance is loaded.
   */
  function initSync(input) {
    if (loaded) return;
    input = unwrapOptions(input, 'module');
    let module;
    if (input instanceof WebAssembly.Module) module = input;
    else if (isBytes(input)) module = new WebAssembly.Module(input);
    else throw new TypeError(`initSync takes the bytes of ${file} or a compiled WebAssembly.Module`);
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
    throw new TypeError(`init takes a URL or string, a Request, a Response (or a promise of one), the bytes of ${file} or a compiled WebAssembly.Module`);
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
   * one, the bytes, or a compiled WebAssembly.Module; without it, the wasm file next to the
   * entry is fetched. Resolves once the API can be called; does nothing once an instance is
   * loaded. Calls made meanwhile share one loading; a failed one can be retried.
   */
  function init(input) {
    if (loaded) return Promise.resolve();
    input = unwrapOptions(input, 'module_or_path');
    if (!pending) {
      pending = initOnce(input).finally(() => {
        pending = undefined;
      });
    }
    return pending;
  }

  // For the entries: the automatic loading's failure (kept for the error message)...
  const noteFailure = (error) => {
    failure = error;
  };
  // ...and the entries that load while they are imported (Node, workerd, Deno): `source()` gives
  // the bytes or the compiled module; renewal is allowed, and a failure is kept for the first
  // call's NotInitializedError instead of thrown at import.
  const loadSync = (source) => {
    renewable = true;
    try {
      initSync(source());
    } catch (error) {
      noteFailure(error);
    }
  };

  const api = createApi(() => {
    if (!loaded) throw new NotInitializedError(failure, where);
    const core = first;
    first = undefined;
    return core;
  }, () => (renewable ? instantiateSync(compiled) : undefined), schema);
  Object.assign(api, { init, initSync, NotInitializedError });
  return { api, init, initSync, noteFailure, loadSync };
}
