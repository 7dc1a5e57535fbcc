// The package's public API over a wasm-bindgen build of the core. It translates, nothing more:
// every core function returns one JSON string `{ok, value | error, undefined?}` (parseJson and
// validateToolInputJson: `{ok: true}` alone on success, see withTextValue); this file turns
// it into objects (JSON.parse gives own data properties, `__proto__` included), puts `undefined`
// back where the core says it was, freezes tool definitions and raises ContractError.

export class ContractError extends Error {
  constructor(error) {
    super(error.message);
    this.name = 'ContractError';
    this.layer = error.layer;
    this.code = error.code;
    this.path = error.path;
    this.retryable = error.retryable;
    if (error.position) this.position = error.position;
    if (error.issues) this.issues = error.issues;
    if (error.availableTools) this.availableTools = error.availableTools;
    if (error.proposal) this.proposal = error.proposal;
    if (error.truncated) this.truncated = true;
  }
}

function unescapePointer(segment) {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function decode(text) {
  const outcome = JSON.parse(text);
  const pointers = outcome.undefined;
  if (pointers) {
    delete outcome.undefined;
    for (const pointer of pointers) {
      const segments = pointer.split('/').slice(1).map(unescapePointer);
      const last = segments.pop();
      let target = outcome;
      for (const segment of segments) target = target[segment];
      // defineProperty, not assignment: the key may be "__proto__".
      Object.defineProperty(target, last, { value: undefined, writable: true, enumerable: true, configurable: true });
    }
  }
  return outcome;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

const identity = (value) => value;

// parseJson and validateToolInputJson get a verdict-only reply from the core: `{"ok":true}` when
// it accepted the text as exactly one I-JSON value (valid UTF-8, no BOM, no duplicate names, no
// lone surrogates, finite numbers, nothing after it). The value is then JSON.parse of the text
// this side already holds: it is the value the core would have written back (numbers from the
// same digits, `__proto__` an own data property), without the core building it, writing it
// and this side decoding a reply as large as the text. See docs/decisions.md.
const utf8 = new TextDecoder();

// The text argument of parseJson / validateToolInputJson as the core and the decoder below both
// read it: a string, or a fresh plain view of a genuine Uint8Array's bytes. The brand is read
// with the built-in getters, so a subclass's `buffer` getter or a Proxy's traps never run here
// (a Proxy is not a Uint8Array: the core answers that it is not text). Bytes in shared memory
// could change between the core's verdict and the decoding: they are copied first.
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const builtinGetter = (name) => Object.getOwnPropertyDescriptor(typedArrayProto, name).get;
const tagOf = builtinGetter(Symbol.toStringTag), bufferOf = builtinGetter('buffer'),
  byteOffsetOf = builtinGetter('byteOffset'), lengthOf = builtinGetter('length');
const sharedByteLength = typeof SharedArrayBuffer === 'function'
  ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get
  : undefined;

function isShared(buffer) {
  if (!sharedByteLength) return false;
  try {
    sharedByteLength.call(buffer);
    return true;
  } catch (_) {
    return false;
  }
}

function textArgument(text) {
  if (typeof text === 'string' || tagOf.call(text) !== 'Uint8Array') return text;
  try {
    const length = lengthOf.call(text);
    if (length === 0) return new Uint8Array(0); // a detached buffer has no bytes
    const buffer = bufferOf.call(text);
    const view = new Uint8Array(buffer, byteOffsetOf.call(text), length);
    return isShared(buffer) ? view.slice() : view;
  } catch (_) {
    return new Uint8Array(0);
  }
}

// `text` is what the core accepted: a string, or a Uint8Array of UTF-8 without a BOM (so the
// decoder, which would drop a BOM or replace invalid bytes, decodes it exactly).
function withTextValue(outcome, text) {
  if (outcome.ok) outcome.value = JSON.parse(typeof text === 'string' ? text : utf8.decode(text));
  return outcome;
}

// An assembler's state lives in the wasm instance. wasm-bindgen frees it when the JS object
// is garbage-collected (a FinalizationRegistry) or at once on free() / `using`. `inner` is a
// core StreamAssembler or ProviderAssembler; invalid options or an unknown provider are thrown
// here, at creation.
function wrapAssembler(inner, unwrap, withSse) {
  const check = decode(inner.preview());
  if (!check.ok) {
    inner.free();
    unwrap(check);
  }
  let freed = false;
  const live = () => {
    if (freed) throw new Error('this assembler was freed');
    return inner;
  };
  const assembler = {
    /** Applies one event; throws the ContractError that ends the stream (and every later call throws it again). */
    push: (event) => {
      unwrap(decode(live().push(event)));
    },
    /** Arguments so far, for display: {executable: false, finishReason, calls: [{callId, name, argumentsText, complete}]}. */
    preview: () => unwrap(decode(live().preview())),
    /** The normalized response {finishReason, calls: [{callId, name, arguments}]}; throws if the stream is not complete. */
    finish: () => unwrap(decode(live().finish())),
    /** Frees the wasm memory now (optional: garbage collection frees it too). */
    free: () => {
      if (!freed) {
        freed = true;
        inner.free();
      }
    },
  };
  if (withSse) {
    // A string chunk may end between the two halves of a surrogate pair: the lead half is held
    // back and sent with the next chunk, so the pair reaches the core whole (as the core joins a
    // character cut at a bytes-chunk end). A lead half with no trail is sent alone (U+FFFD).
    let held = '';
    const flush = () => {
      if (held) {
        const half = held;
        held = '';
        unwrap(decode(live().pushSse(half)));
      }
    };
    /** Raw Server-Sent Events, a string or a Uint8Array, split anywhere (even inside a character). */
    assembler.pushSse = (chunk) => {
      if (typeof chunk === 'string') {
        if (held) {
          chunk = held + chunk;
          held = '';
        }
        const last = chunk.charCodeAt(chunk.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          held = chunk.slice(-1);
          chunk = chunk.slice(0, -1);
        }
      } else {
        flush();
      }
      unwrap(decode(live().pushSse(chunk)));
    };
    const finish = assembler.finish;
    assembler.finish = () => {
      flush();
      return finish();
    };
  }
  if (Symbol.dispose) assembler[Symbol.dispose] = assembler.free;
  return assembler;
}

// A WHATWG TransformStream from a provider's response body (bytes or text chunks) to one chunk:
// the normalized response. The first ContractError errors the stream; the wasm state is freed
// when the stream ends either way.
function providerTransform(createProviderAssembler, provider, options) {
  const assembler = createProviderAssembler(provider, options);
  return new TransformStream({
    transform(chunk) {
      try {
        assembler.pushSse(chunk);
      } catch (error) {
        assembler.free();
        throw error;
      }
    },
    flush(controller) {
      try {
        controller.enqueue(assembler.finish());
      } finally {
        assembler.free();
      }
    },
    cancel() {
      assembler.free();
    },
  });
}

// A JSON Pointer as a Standard Schema path: its segments, unescaped (keys stay strings: a
// pointer does not say whether "0" is an index or a key).
function pointerPath(pointer) {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(unescapePointer);
}

// Standard Schema v1 with the Standard JSON Schema extension over one tool's input (issue 11
// §3): validation is validateToolInput, the JSON Schema the one the projections give clients,
// for a target draft only when the core says it means the same there (jsonSchemaForTarget).
// Nothing here decides a verdict.
function standardSchema(api, tool) {
  const definition = api.defineTool(tool);
  const schemas = {
    input: () => api.toMcpTools(api.createRegistry([definition]))[0].inputSchema,
    output: () => {
      if (!definition.outputSchema) throw new TypeError(`tool ${definition.name} has no outputSchema`);
      return definition.outputSchema;
    },
  };
  const issue = (code, message, path) => ({ message: `${code}: ${message}`, path: pointerPath(path), code });
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1,
      vendor: 'agent-contract',
      validate(value) {
        const out = api.safeValidateToolInput(definition, value);
        if (out.ok) return { value: out.value };
        const { code, message, path, issues } = out.error;
        return { issues: issues ? issues.map((i) => issue(code, `${i.keyword}: ${i.message}`, i.path)) : [issue(code, message, path)] };
      },
      jsonSchema: Object.freeze({
        input: ({ target }) => api.jsonSchemaForTarget(schemas.input(), target),
        output: ({ target }) => api.jsonSchemaForTarget(schemas.output(), target),
      }),
    }),
  });
}

// JSON-RPC over NDJSON (issue 10 §1-§2). The decoder and the session keep their state in the
// wasm instance like the assemblers (freed by free(), `using` or garbage collection); invalid
// options are thrown at creation. Strings and Uint8Arrays are pushed as they come: the binding
// joins a surrogate pair or a UTF-8 character cut between chunks.
function wrapRpc(inner, unwrap, methods) {
  const check = decode(inner.check());
  if (!check.ok) {
    inner.free();
    unwrap(check);
  }
  let freed = false;
  const live = () => {
    if (freed) throw new Error('this object was freed');
    return inner;
  };
  const object = {};
  for (const [name, method] of Object.entries(methods)) object[name] = (...args) => method(live(), ...args);
  object.free = () => {
    if (!freed) {
      freed = true;
      inner.free();
    }
  };
  if (Symbol.dispose) object[Symbol.dispose] = object.free;
  return object;
}

// An Error (a ContractError too) is not a plain object the core can read: its message (and a
// ContractError's code and path) cross as a plain object. A Proxy or getter that throws gives
// an empty one; the core then answers with its defaults.
function errorFields(error, contract) {
  try {
    if (contract && error instanceof ContractError) return { code: error.code, path: error.path };
    if (error instanceof Error) {
      const message = error.message;
      return typeof message === 'string' ? { message } : {};
    }
  } catch (_) {
    return {};
  }
  return error;
}

// A frame's message comes as `true`: the core accepted the line's text as exactly one I-JSON
// value, so JSON.parse of that text is the value it would have written (see parseJson).
function withMessages(frames) {
  for (const f of frames) if (f.message === true) f.message = JSON.parse(f.text);
  return frames;
}

function createDecoder(core, unwrap, options) {
  return wrapRpc(new core.NdjsonDecoder(options), unwrap, {
    /** The frames of the lines this chunk (a string or Uint8Array) completed. */
    push: (inner, chunk) => withMessages(unwrap(decode(inner.push(chunk)))),
    /** The final line's frame when the stream did not end with LF ([] otherwise). */
    end: (inner) => withMessages(unwrap(decode(inner.end()))),
    /** Bytes of the current line held now (never over maxLineBytes). */
    bufferedBytes: (inner) => inner.buffered(),
  });
}

// Frames of a whole stream of chunks (an iterable; the async form also takes an async
// iterable such as a Node Readable; one string or Uint8Array is one chunk), the decoder freed
// at the end either way. An iterator that throws (or a value that is not iterable) ends the
// stream with the core's verdict on what it threw as a chunk: a ContractError.
const isText = (chunks) => typeof chunks === 'string' || ArrayBuffer.isView(chunks);

function* framesOf(createNdjsonDecoder, chunks, options) {
  const decoder = createNdjsonDecoder(options);
  try {
    if (isText(chunks)) {
      yield* decoder.push(chunks);
    } else {
      let iterator;
      try {
        iterator = chunks[Symbol.iterator]();
      } catch (error) {
        decoder.push(chunks); // not iterable: throws the core's verdict
      }
      for (;;) {
        let done, value;
        try {
          ({ done, value } = iterator.next());
        } catch (error) {
          decoder.push(error);
        }
        if (done) break;
        yield* decoder.push(value);
      }
    }
    yield* decoder.end();
  } finally {
    decoder.free();
  }
}

async function* framesOfAsync(createNdjsonDecoder, chunks, options) {
  const decoder = createNdjsonDecoder(options);
  try {
    if (isText(chunks)) {
      yield* decoder.push(chunks);
    } else {
      let iterator;
      try {
        iterator = chunks[Symbol.asyncIterator] ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
      } catch (error) {
        decoder.push(chunks);
      }
      for (;;) {
        let done, value;
        try {
          ({ done, value } = await iterator.next());
        } catch (error) {
          decoder.push(error);
        }
        if (done) break;
        yield* decoder.push(value);
      }
    }
    yield* decoder.end();
  } finally {
    decoder.free();
  }
}

// A wasm memory never shrinks: after a call that grew the instance past this (only a call with
// raised limits can; within the default limits a call stays far below), the instance is
// replaced by a fresh one when the entry point can make one (`renew`: Node). Assemblers made
// before keep the instance they live in, which is freed once they all are.
const RENEW_BYTES = 64 * 1024 * 1024;

export function createApi(first, renew) {
  let core = first;
  let peakBytes = 0;
  let renewals = 0;
  // The schema engine's hash keys come from the host, once per instance (src/entropy.rs).
  const seeded = (instance) => {
    instance.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    return instance;
  };
  seeded(core);
  // Every reply of a call goes through here: the memory check, then the reply decoded.
  const done = (text) => {
    const bytes = core.memoryBytes();
    if (bytes > peakBytes) peakBytes = bytes;
    if (renew && bytes > RENEW_BYTES) {
      core = seeded(renew());
      renewals++;
    }
    return decode(text);
  };
  const unwrap = (outcome, finish = identity) => {
    if (outcome.ok) return finish(outcome.value);
    throw new ContractError(outcome.error);
  };
  const safe = (outcome, finish = identity) =>
    outcome.ok ? { ok: true, value: finish(outcome.value) } : { ok: false, error: new ContractError(outcome.error) };
  const each = (outcome) => unwrap(outcome).map((item) => safe(item));
  const parseJsonOutcome = (text, options) => {
    text = textArgument(text);
    return withTextValue(done(core.parseJson(text, options)), text);
  };
  const validateToolInputJsonOutcome = (tool, text, options) => {
    text = textArgument(text);
    return withTextValue(done(core.validateToolInputJson(tool, text, options)), text);
  };
  const createNdjsonDecoder = (options) => createDecoder(core, unwrap, options);
  const createProviderAssembler = (provider, options) =>
    wrapAssembler(new core.ProviderAssembler(provider, options), unwrap, true);

  const api = {
    ContractError,
    parseAgentAction: (value, options) => unwrap(done(core.parseAgentAction(value, options))),
    safeParseAgentAction: (value, options) => safe(done(core.parseAgentAction(value, options))),
    parseAgentActionJson: (text, options) => unwrap(done(core.parseAgentActionJson(text, options))),
    safeParseAgentActionJson: (text, options) => safe(done(core.parseAgentActionJson(text, options))),
    parseAgentActions: (list, options) => each(done(core.parseAgentActions(list, options))),
    parseAgentActionsJsonl: (text, options) => each(done(core.parseAgentActionsJsonl(text, options))),
    previewAction: (value, options) => unwrap(done(core.previewAction(value, options))),
    defineTool: (def, options) => unwrap(done(core.defineTool(def, options)), deepFreeze),
    safeDefineTool: (def, options) => safe(done(core.defineTool(def, options)), deepFreeze),
    defineToolJson: (text, options) => unwrap(done(core.defineToolJson(text, options)), deepFreeze),
    safeDefineToolJson: (text, options) => safe(done(core.defineToolJson(text, options)), deepFreeze),
    parseJson: (text, options) => unwrap(parseJsonOutcome(text, options)),
    safeParseJson: (text, options) => safe(parseJsonOutcome(text, options)),
    parseDecision: (value, options) => unwrap(done(core.parseDecision(value, options))),
    safeParseDecision: (value, options) => safe(done(core.parseDecision(value, options))),
    parseDecisionJson: (text, options) => unwrap(done(core.parseDecisionJson(text, options))),
    safeParseDecisionJson: (text, options) => safe(done(core.parseDecisionJson(text, options))),
    validateToolInput: (tool, input, options) => unwrap(done(core.validateToolInput(tool, input, options))),
    safeValidateToolInput: (tool, input, options) => safe(done(core.validateToolInput(tool, input, options))),
    validateToolInputJson: (tool, text, options) => unwrap(validateToolInputJsonOutcome(tool, text, options)),
    safeValidateToolInputJson: (tool, text, options) => safe(validateToolInputJsonOutcome(tool, text, options)),
    // Registry and pipeline (issue 3 §2): a registry is the plain, deep-frozen value
    // createRegistry returns; every operation reads it again in the core.
    createRegistry: (tools, options) => unwrap(done(core.createRegistry(tools, options)), deepFreeze),
    safeCreateRegistry: (tools, options) => safe(done(core.createRegistry(tools, options)), deepFreeze),
    catalog: (registry) => unwrap(done(core.catalog(registry)), deepFreeze),
    definePolicy: (policy) => unwrap(done(core.definePolicy(policy)), deepFreeze),
    safeDefinePolicy: (policy) => safe(done(core.definePolicy(policy)), deepFreeze),
    checkToolCall: (registry, action, policy, options) =>
      unwrap(done(core.checkToolCall(registry, action, policy, options))),
    safeCheckToolCall: (registry, action, policy, options) =>
      safe(done(core.checkToolCall(registry, action, policy, options))),
    toOpenAITools: (registry) => unwrap(done(core.toOpenAITools(registry))),
    toOpenAIResponsesTools: (registry) => unwrap(done(core.toOpenAIResponsesTools(registry))),
    toAnthropicTools: (registry) => unwrap(done(core.toAnthropicTools(registry))),
    toMcpTools: (registry) => unwrap(done(core.toMcpTools(registry))),
    normalizeToolResult: (tool, value, options) => unwrap(done(core.normalizeToolResult(tool, value, options))),
    compareContracts: (oldTool, newTool) => unwrap(done(core.compareContracts(oldTool, newTool))),
    diffCatalogs: (oldCatalog, newCatalog) => unwrap(done(core.diffCatalogs(oldCatalog, newCatalog))),
    strictSchemaIssues: (schema) => unwrap(done(core.strictSchemaIssues(schema))),
    jsonSchemaForTarget: (schema, target) => unwrap(done(core.jsonSchemaForTarget(schema, target))),
    createAssembler: (options) => wrapAssembler(new core.StreamAssembler(options), unwrap, false),
    // Provider streams (issue 4 §4, §6): a provider's raw SSE or events to the normalized response.
    createProviderAssembler,
    assembleProviderStream: (provider, input, options) =>
      unwrap(done(core.assembleProviderStream(provider, input, options))),
    safeAssembleProviderStream: (provider, input, options) =>
      safe(done(core.assembleProviderStream(provider, input, options))),
    providerResponseStream: (provider, options) => providerTransform(createProviderAssembler, provider, options),
    toStandardSchema: (tool) => standardSchema(api, tool),
    // JSON-RPC over NDJSON (issue 10 §1-§2).
    classifyJsonRpc: (value, options) => unwrap(done(core.classifyJsonRpc(value, options))),
    classifyJsonRpcJson: (text, options) => unwrap(done(core.classifyJsonRpcJson(text, options))),
    methodNotFound: (request) => unwrap(done(core.methodNotFound(request))),
    internalError: (request, error) => unwrap(done(core.internalError(request, errorFields(error, false)))),
    invalidParams: (request, contractError) =>
      unwrap(done(core.invalidParams(request, errorFields(contractError, true)))),
    createNdjsonDecoder,
    ndjsonFrames: (chunks, options) => framesOf(createNdjsonDecoder, chunks, options),
    ndjsonFramesAsync: (chunks, options) => framesOfAsync(createNdjsonDecoder, chunks, options),
    checkStdoutPurity: (input, options) => unwrap(done(core.checkStdoutPurity(input, options))),
    createRpcSession: (options) =>
      wrapRpc(new core.RpcSession(options), unwrap, {
        /** A message received: its classification with `problems` (empty when the conversation is right). */
        incoming: (inner, message) => unwrap(decode(inner.incoming(message))),
        /** A message sent: the same. */
        outgoing: (inner, message) => unwrap(decode(inner.outgoing(message))),
      }),
    /** Bytes of the wasm instance's memory (for leak tests). */
    memoryBytes: () => core.memoryBytes(),
    /** The current instance's memory, the most any call left it at, and how often it was replaced. */
    memoryReport: () => ({ bytes: core.memoryBytes(), peakBytes, renewals }),
    /** Conformance hook: one JSON Schema Test Suite group as JSON text; one boolean per instance. */
    schemaSuiteCheck: (text) => unwrap(done(core.schemaSuiteCheck(text))),
  };
  return api;
}
