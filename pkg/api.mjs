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

// Bytes in shared memory could change between the core's verdict and the decoding here: the
// core and the decoder must read the same bytes, so such input is copied first.
function stableText(text) {
  return typeof SharedArrayBuffer !== 'undefined' && text instanceof Uint8Array && text.buffer instanceof SharedArrayBuffer
    ? text.slice()
    : text;
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

export function createApi(core) {
  // The schema engine's hash keys come from the host, once per instance (src/entropy.rs).
  core.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const unwrap = (outcome, finish = identity) => {
    if (outcome.ok) return finish(outcome.value);
    throw new ContractError(outcome.error);
  };
  const safe = (outcome, finish = identity) =>
    outcome.ok ? { ok: true, value: finish(outcome.value) } : { ok: false, error: new ContractError(outcome.error) };
  const each = (outcome) => unwrap(outcome).map((item) => safe(item));
  const parseJsonOutcome = (text, options) => {
    text = stableText(text);
    return withTextValue(decode(core.parseJson(text, options)), text);
  };
  const validateToolInputJsonOutcome = (tool, text, options) => {
    text = stableText(text);
    return withTextValue(decode(core.validateToolInputJson(tool, text, options)), text);
  };
  const createProviderAssembler = (provider, options) =>
    wrapAssembler(new core.ProviderAssembler(provider, options), unwrap, true);

  const api = {
    ContractError,
    parseAgentAction: (value, options) => unwrap(decode(core.parseAgentAction(value, options))),
    safeParseAgentAction: (value, options) => safe(decode(core.parseAgentAction(value, options))),
    parseAgentActionJson: (text, options) => unwrap(decode(core.parseAgentActionJson(text, options))),
    safeParseAgentActionJson: (text, options) => safe(decode(core.parseAgentActionJson(text, options))),
    parseAgentActions: (list, options) => each(decode(core.parseAgentActions(list, options))),
    parseAgentActionsJsonl: (text, options) => each(decode(core.parseAgentActionsJsonl(text, options))),
    previewAction: (value, options) => unwrap(decode(core.previewAction(value, options))),
    defineTool: (def, options) => unwrap(decode(core.defineTool(def, options)), deepFreeze),
    safeDefineTool: (def, options) => safe(decode(core.defineTool(def, options)), deepFreeze),
    defineToolJson: (text, options) => unwrap(decode(core.defineToolJson(text, options)), deepFreeze),
    safeDefineToolJson: (text, options) => safe(decode(core.defineToolJson(text, options)), deepFreeze),
    parseJson: (text, options) => unwrap(parseJsonOutcome(text, options)),
    safeParseJson: (text, options) => safe(parseJsonOutcome(text, options)),
    parseDecision: (value, options) => unwrap(decode(core.parseDecision(value, options))),
    safeParseDecision: (value, options) => safe(decode(core.parseDecision(value, options))),
    parseDecisionJson: (text, options) => unwrap(decode(core.parseDecisionJson(text, options))),
    safeParseDecisionJson: (text, options) => safe(decode(core.parseDecisionJson(text, options))),
    validateToolInput: (tool, input, options) => unwrap(decode(core.validateToolInput(tool, input, options))),
    safeValidateToolInput: (tool, input, options) => safe(decode(core.validateToolInput(tool, input, options))),
    validateToolInputJson: (tool, text, options) => unwrap(validateToolInputJsonOutcome(tool, text, options)),
    safeValidateToolInputJson: (tool, text, options) => safe(validateToolInputJsonOutcome(tool, text, options)),
    // Registry and pipeline (issue 3 §2): a registry is the plain, deep-frozen value
    // createRegistry returns; every operation reads it again in the core.
    createRegistry: (tools, options) => unwrap(decode(core.createRegistry(tools, options)), deepFreeze),
    safeCreateRegistry: (tools, options) => safe(decode(core.createRegistry(tools, options)), deepFreeze),
    catalog: (registry) => unwrap(decode(core.catalog(registry)), deepFreeze),
    definePolicy: (policy) => unwrap(decode(core.definePolicy(policy)), deepFreeze),
    safeDefinePolicy: (policy) => safe(decode(core.definePolicy(policy)), deepFreeze),
    checkToolCall: (registry, action, policy, options) =>
      unwrap(decode(core.checkToolCall(registry, action, policy, options))),
    safeCheckToolCall: (registry, action, policy, options) =>
      safe(decode(core.checkToolCall(registry, action, policy, options))),
    toOpenAITools: (registry) => unwrap(decode(core.toOpenAITools(registry))),
    toOpenAIResponsesTools: (registry) => unwrap(decode(core.toOpenAIResponsesTools(registry))),
    toAnthropicTools: (registry) => unwrap(decode(core.toAnthropicTools(registry))),
    toMcpTools: (registry) => unwrap(decode(core.toMcpTools(registry))),
    normalizeToolResult: (tool, value, options) => unwrap(decode(core.normalizeToolResult(tool, value, options))),
    compareContracts: (oldTool, newTool) => unwrap(decode(core.compareContracts(oldTool, newTool))),
    diffCatalogs: (oldCatalog, newCatalog) => unwrap(decode(core.diffCatalogs(oldCatalog, newCatalog))),
    strictSchemaIssues: (schema) => unwrap(decode(core.strictSchemaIssues(schema))),
    jsonSchemaForTarget: (schema, target) => unwrap(decode(core.jsonSchemaForTarget(schema, target))),
    createAssembler: (options) => wrapAssembler(new core.StreamAssembler(options), unwrap, false),
    // Provider streams (issue 4 §4, §6): a provider's raw SSE or events to the normalized response.
    createProviderAssembler,
    assembleProviderStream: (provider, input, options) =>
      unwrap(decode(core.assembleProviderStream(provider, input, options))),
    safeAssembleProviderStream: (provider, input, options) =>
      safe(decode(core.assembleProviderStream(provider, input, options))),
    providerResponseStream: (provider, options) => providerTransform(createProviderAssembler, provider, options),
    toStandardSchema: (tool) => standardSchema(api, tool),
    /** Bytes of the wasm instance's memory (for leak tests). */
    memoryBytes: () => core.memoryBytes(),
    /** Conformance hook: one JSON Schema Test Suite group as JSON text; one boolean per instance. */
    schemaSuiteCheck: (text) => unwrap(decode(core.schemaSuiteCheck(text))),
  };
  return api;
}
