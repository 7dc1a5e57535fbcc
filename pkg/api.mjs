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

// Also the test build's decoder (js-tests/testing-core.mjs), so both paths decode alike.
export function decode(text) {
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

// The length of a text textArgument gave (a string, or a Uint8Array view: read by the
// intrinsic getter, which runs no trap); 0 for anything else.
function textLength(text) {
  if (typeof text === 'string') return text.length;
  try {
    return tagOf.call(text) === 'Uint8Array' ? lengthOf.call(text) : 0;
  } catch (_) {
    return 0;
  }
}

// A session text kept for later queries: a string, or a copy of a genuine Uint8Array's bytes
// (the caller may reuse its buffer). Anything else is passed on for the core to refuse.
function heldText(text) {
  const view = textArgument(text);
  // A view textArgument made (never the caller's object, whose traps must not run) is copied.
  return view !== text && typeof view === 'object' ? view.slice() : view;
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
function wrapAssembler(inner, reply, unwrap, withSse) {
  const check = reply(inner.preview());
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
      unwrap(reply(live().push(event)));
    },
    /** Arguments so far, for display: {executable: false, finishReason, calls: [{callId, name, argumentsText, complete}]}. */
    preview: () => unwrap(reply(live().preview())),
    /** The normalized response {finishReason, calls: [{callId, name, arguments}]}; throws if the stream is not complete. */
    finish: () => unwrap(reply(live().finish())),
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
        unwrap(reply(live().pushSse(half)));
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
      unwrap(reply(live().pushSse(chunk)));
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

// The incremental session reader: chunks in (strings or bytes, cut anywhere), the problems of
// the lines they completed out, the report at finish(). As for pushSse, a string chunk ending
// in the lead half of a surrogate pair keeps that half for the next chunk, so the pair reaches
// the core whole. Invalid options are thrown at creation.
function sessionChecker(inner, reply, unwrap) {
  const opened = reply(inner.push(new Uint8Array(0)));
  if (!opened.ok) {
    inner.free();
    unwrap(opened);
  }
  let freed = false;
  let held = '';
  const live = () => {
    if (freed) throw new Error('this session checker was freed');
    return inner;
  };
  const checker = {
    /** Feeds a chunk; returns the problems of the lines it completed. */
    push: (chunk) => {
      const found = [];
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
      } else if (held) {
        found.push(...unwrap(reply(live().push(held))));
        held = '';
      }
      found.push(...unwrap(reply(live().push(chunk))));
      return found;
    },
    /** The report of the whole text, as checkSession gives it. */
    finish: () => {
      if (held) {
        unwrap(reply(live().push(held)));
        held = '';
      }
      return unwrap(reply(live().finish()));
    },
    free: () => {
      if (!freed) {
        freed = true;
        inner.free();
      }
    },
  };
  if (Symbol.dispose) checker[Symbol.dispose] = checker.free;
  return checker;
}

// ACP prompt admission: the plan's entries with a `sha256` (images, audio, blob
// resources, in that order) get their decoded payload as `bytes`, a Uint8Array the core hands
// out once. The core's admission object is freed before this returns.
function admissionOutcome(admission, done) {
  try {
    const outcome = done(admission.reply());
    if (outcome.ok) {
      let i = 0;
      for (const key of ['images', 'audio', 'resources']) {
        for (const entry of outcome.value[key]) if (entry.sha256 !== undefined) entry.bytes = admission.payload(i++);
      }
    }
    return outcome;
  } finally {
    admission.free();
  }
}

// One session's prompt lifecycle over the core's state machine: each method is
// one call into the core, which decides whether the order is right.
function wrapLifecycle(inner, reply, unwrap) {
  let freed = false;
  const call = (name, arg) => {
    if (freed) throw new Error('this lifecycle was freed');
    return unwrap(reply(inner.call(name, arg)));
  };
  const none = (name) => () => {
    call(name);
  };
  const lifecycle = {
    /** A prompt passed admitPrompt: it is in flight (PROMPT_IN_FLIGHT while another is). */
    admitted: none('admitted'),
    /** Its attachments are written (optional, before enqueue()). */
    written: none('written'),
    /** The final cancel check and the hand-over to the agent: throws PROMPT_CANCELLED after cancel(). */
    enqueue: none('enqueue'),
    /** session/cancel: whether the agent must be cancelled (only when the message was enqueued). */
    cancel: () => call('cancel'),
    agentIdle: none('agentIdle'),
    outputDelivered: none('outputDelivered'),
    /** The stop reason, once admission, the agent and the output are quiet: "cancelled" after cancel(). */
    settle: (reason) => call('settle', reason),
    /** Ends a prompt whose admission failed after admitted() (before enqueue()). */
    abandon: none('abandon'),
    free: () => {
      if (!freed) {
        freed = true;
        inner.free();
      }
    },
  };
  if (Symbol.dispose) lifecycle[Symbol.dispose] = lifecycle.free;
  return lifecycle;
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

// The `target` of a jsonSchema call's options, for the core to judge. Options that cannot be
// read (undefined, a revoked Proxy, a getter that throws) go to the core as they are, which
// refuses them as it refuses any target that is not a string.
function targetOf(options) {
  try {
    return options.target;
  } catch (_) {
    return options;
  }
}

// Standard Schema v1 with the Standard JSON Schema extension over one tool's input, so that
// libraries that accept a Standard Schema take a tool as it is: validation is validateToolInput,
// the JSON Schema the one the projections give clients, for a target draft as the core converts it
// (standardJsonSchema: a schema draft-07 cannot hold comes in its own draft, with its $schema, so
// that a consumer asking for draft-07 inside its own call does not fail). Nothing here decides a
// verdict.
function standardSchema(api, tool) {
  const definition = api.defineTool(tool);
  const schemas = {
    // The projection whose target accepts the tool's name (Gemini's takes `:`, MCP's every other
    // rule's names): both write the same client schema.
    input: () => definition.names === 'gemini'
      ? api.toGeminiTools(api.createRegistry([definition]))[0].functionDeclarations[0].parametersJsonSchema
      : api.toMcpTools(api.createRegistry([definition]))[0].inputSchema,
    output: () => {
      // A tool without one has no output type to give: the contract's FIELD_MISSING, as the
      // core answers for any required field (a consumer catches ContractError alone).
      if (!definition.outputSchema) {
        throw new ContractError({ layer: 'contract', code: 'FIELD_MISSING', path: '/outputSchema', retryable: false, message: `tool ${definition.name} has no outputSchema` });
      }
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
        input: (options) => api.standardJsonSchema(schemas.input(), targetOf(options)),
        output: (options) => api.standardJsonSchema(schemas.output(), targetOf(options)),
      }),
    }),
  });
}

// JSON-RPC over NDJSON. The decoder and the session keep their state in the
// wasm instance like the assemblers (freed by free(), `using` or garbage collection); invalid
// options are thrown at creation. Strings and Uint8Arrays are pushed as they come: the binding
// joins a surrogate pair or a UTF-8 character cut between chunks.
function wrapRpc(inner, reply, unwrap, methods) {
  const check = reply(inner.check());
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
  for (const f of frames) {
    if (f.message === true) f.message = JSON.parse(f.text);
    linkBatchReply(f);
  }
  return frames;
}

// A batch's reply comes as `true`: it is the list of its items' replies that are not null, in
// order, and holds those same objects (wire::batch_reply_linked).
function linkBatchReply(c) {
  if (c.reply === true && c.kind === 'batch') {
    const reply = [];
    for (const item of c.items) if (item.reply !== null) reply.push(item.reply);
    c.reply = reply;
  }
  return c;
}

// Frames come as objects, rows and runs (wire::FrameWriter). A row is three items, k, offset
// and text, for the frame whose other members are those of the reply's k-th object and whose
// line is the previous frame's plus one; a run, [k, offset, text, count, stride], is `count`
// such rows with one text, `stride` bytes apart (a megabyte of blank lines is a million frames
// that differ only in line and offset: one run). The shared members are copied, so no two
// frames share an object, as if each had been parsed; a run's message is parsed once and
// copied.
function expandRows(items) {
  const frames = [];
  const objects = [];
  const copiers = new Map(); // per object a row names: a function copying it (copier)
  let line = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const run = Array.isArray(item);
    if (!run && typeof item === 'object') {
      objects.push(item);
      frames.push(item);
      line = item.line;
      continue;
    }
    const k = run ? item[0] : item;
    const from = objects[k];
    let copy = copiers.get(k);
    if (copy === undefined) copiers.set(k, (copy = copier(from)));
    if (!run) {
      // The copy keeps the members' order (text, line, offset first, as parsed).
      const frame = copy(from);
      frame.text = items[i + 2];
      frame.line = ++line;
      frame.offset = items[i + 1];
      frames.push(frame);
      i += 2;
      continue;
    }
    const [, offset, text, count, stride] = item;
    const message = from.message === true ? JSON.parse(text) : undefined;
    const copyMessage = message !== null && typeof message === 'object' ? copier(message) : undefined;
    for (let j = 0; j < count; j++) {
      const frame = copy(from);
      frame.text = text;
      frame.line = ++line;
      frame.offset = offset + j * stride;
      if (copyMessage !== undefined) frame.message = copyMessage(message);
      frames.push(frame);
    }
  }
  return frames;
}

// A function copying `value`, parsed from JSON, and the containers inside it (the leaves are
// immutable). Made once per object a reply's rows name, then called for each row: a batch
// line's frame is a few hundred containers, copied without looking at their members again.
function copier(value) {
  const isContainer = (v) => v !== null && typeof v === 'object';
  if (Array.isArray(value)) {
    const copies = value.map((v) => (isContainer(v) ? copier(v) : null));
    if (copies.every((c) => c === null)) return (v) => v.slice();
    return (v) => {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = copies[i] === null ? v[i] : copies[i](v[i]);
      return out;
    };
  }
  if (sameKeys(value, PROBLEM_FRAME)) return copyProblemFrame;
  // Spreading defines members (an own `__proto__` included); assigning one would set the prototype.
  const inner = Object.keys(value).filter((key) => isContainer(value[key])).map((key) => [key, copier(value[key])]);
  return (v) => {
    const out = { ...v };
    for (let i = 0; i < inner.length; i++) {
      const [key, copy] = inner[i];
      if (key === '__proto__') putMember(out, key, copy(v[key]));
      else out[key] = copy(v[key]);
    }
    return out;
  };
}

// The members of a frame of a line that is not a message, with no reply (a blank line, or a
// parse error ignored): a million of them is a megabyte of blank lines. Built as a literal,
// such a frame is one allocation of a known shape, half the time of a spread and its garbage
// (any other frame, or a shape the core changed, is copied by the general copier).
const PROBLEM_FRAME = ['text', 'line', 'offset', 'kind', 'reply', 'ignored', 'code', 'path', 'reason'];
const copyProblemFrame = (v) => ({
  text: v.text, line: v.line, offset: v.offset, kind: v.kind, reply: v.reply, ignored: v.ignored,
  code: v.code, path: v.path, reason: v.reason,
});
function sameKeys(value, keys) {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, i) => key === keys[i] && (value[key] === null || typeof value[key] !== 'object'));
}

// A long chunk crosses in slices: each crossing's reply holds the frames of its lines (a
// megabyte of blank lines is a million frames, ~130 MB of reply at once; in slices of 64 Ki
// units, ~8 MB). Strings are sliced as strings (the core holds a lead surrogate cut at the end
// for the next slice), byte views through the intrinsic getters, so no getter or species of the
// caller's runs; anything else crosses whole, for the core's verdict.
const NDJSON_SLICE = 1 << 16;
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(typedArray, name).get;
const [viewLength, viewBuffer, viewOffset] = ['length', 'buffer', 'byteOffset'].map(intrinsic);

function slices(chunk) {
  if (typeof chunk === 'string') {
    if (chunk.length <= NDJSON_SLICE) return [chunk];
    const out = [];
    for (let i = 0; i < chunk.length; i += NDJSON_SLICE) out.push(chunk.slice(i, i + NDJSON_SLICE));
    return out;
  }
  // isView is false for a Proxy (no trap runs); instanceof walks an ordinary prototype chain.
  if (!ArrayBuffer.isView(chunk) || !(chunk instanceof Uint8Array)) return [chunk];
  try {
    const length = viewLength.call(chunk);
    if (length <= NDJSON_SLICE) return [chunk];
    const buffer = viewBuffer.call(chunk), offset = viewOffset.call(chunk), out = [];
    for (let i = 0; i < length; i += NDJSON_SLICE) out.push(new Uint8Array(buffer, offset + i, Math.min(NDJSON_SLICE, length - i)));
    return out;
  } catch (_) {
    return [chunk];
  }
}

function createDecoder(inner, reply, unwrap) {
  return wrapRpc(inner, reply, unwrap, {
    /** The frames of the lines this chunk (a string or Uint8Array) completed. */
    push: (inner, chunk) => {
      const frames = [];
      for (const slice of slices(chunk)) {
        for (const frame of withMessages(expandRows(unwrap(reply(inner.push(slice)))))) frames.push(frame);
      }
      return frames;
    },
    /** The final line's frame when the stream did not end with LF ([] otherwise). */
    end: (inner) => withMessages(expandRows(unwrap(reply(inner.end())))),
    /** Bytes of the current line held now (never over maxLineBytes). */
    bufferedBytes: (inner) => inner.buffered(),
  });
}

function rpcSession(inner, reply, unwrap) {
  return wrapRpc(inner, reply, unwrap, {
    /** A message received: its classification with `problems` (empty when the conversation is right). */
    incoming: (inner, message) => linkBatchReply(unwrap(reply(inner.incoming(message)))),
    /** A message sent: the same. */
    outgoing: (inner, message) => linkBatchReply(unwrap(reply(inner.outgoing(message)))),
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

// A wasm memory never shrinks. After every call (functions and the methods of stateful
// objects alike) an instance past the core's `renewAfterBytes` is replaced by a fresh one when
// the entry point can make one (`renew` returns one: Node), so every call starts in an instance
// of at most that much, and a call within the default limits on an input of at most 1 MB ends
// under the memory `bound`. A batch, whose reply the core writes item by item, gets a fresh
// instance first when its memory and `batchItemBytes` per item would pass the bound. Objects
// made before keep the instance they live in, which is freed once they all are. The policy and
// its numbers are the core's (`describe()`, src/api/describe.rs; docs/decisions.md, "The memory
// bound").

// A batch's item count, read for the room check only (the core reads the list again and
// decides): an array's length, guarded (a Proxy's trap runs here; whatever it throws or
// answers, the count is then the most a batch can hold); anything else is no list.
function itemCount(list, most) {
  try {
    if (!Array.isArray(list)) return 0;
    const n = list.length;
    return typeof n === 'number' && n < most ? n : most;
  } catch (_) {
    return most;
  }
}

// Verdict replies. parseAgentAction(s)(Json|Jsonl) and parseDecision(Json) get,
// on success, only the core's verdict: an index into the shapes table the core writes (read once,
// `verdictShapes`), naming the members of the result in order. The result is built here from
// values this side already holds: for a text, JSON.parse of the text the core accepted (as
// parseJson); for a JS value, the mirror the reader filled while the core read it (js_host.js,
// `found`): exactly the values the core judged, so the caller's object is never read again. An
// error is the core's full reply. The full-reply twins are in the test build only (Cargo feature
// `testing`), where the property tests compare both paths. See docs/decisions.md, "Verdict replies".
const hasOwnProperty = Object.prototype.hasOwnProperty;
const objectPrototype = Object.prototype;

// An own data property, as JSON.parse makes it (see `put` in js_host.js).
function putMember(o, key, value) {
  if (typeof key === 'string' && !hasOwnProperty.call(objectPrototype, key)) o[key] = value;
  else Object.defineProperty(o, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

// The result a shape names, from `source` (a mirror, or JSON.parse of an accepted text): a
// member is a name (taken as it is) or [name, item shape] (a list built item by item).
function build(source, shape) {
  const out = {};
  for (let i = 0; i < shape.length; i++) {
    const member = shape[i];
    if (typeof member === 'string') {
      putMember(out, member, source[member]);
    } else {
      const items = source[member[0]];
      const list = [];
      for (let j = 0; j < items.length; j++) putMember(list, j, build(items[j], member[1]));
      putMember(out, member[0], list);
    }
  }
  return out;
}

const textOf = (text) => (typeof text === 'string' ? text : utf8.decode(text));

// `load()` returns the loaded instance (a glue of dist/agent_contract.js) or throws while there
// is none (wasm.mjs: NotInitializedError); it is asked on the first use of `core`.
export function createApi(load, renew) {
  let peakBytes = 0;
  let lastCallBytes = 0;
  let renewals = 0;
  // The schema engine's hash keys come from the host, once per instance (src/entropy.rs).
  const seeded = (instance) => {
    instance.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    policy ??= JSON.parse(instance.describe()).value.memory;
    return instance;
  };
  // A stand-in until the first call: reading any member loads the instance and puts it here.
  let core = new Proxy({}, {
    get(_, name) {
      core = seeded(load());
      return core[name];
    },
  });
  // A fresh instance for the calls to come, when the entry point can make one (Node).
  const replace = () => {
    const fresh = renew && renew();
    if (fresh) {
      core = seeded(fresh);
      renewals++;
    }
  };
  // The core's memory policy, read once, by the first instance (`seeded`).
  let policy;
  const memory = () => {
    if (policy === undefined) void core.seed; // loads the first instance, which reads it
    return policy;
  };
  // After every call: the memory check of the instance it ran in (`owner`; renewed past
  // `renewAfterBytes` when it is the current one); the reply as it came (a text, or a verdict
  // reply: a number, a marked node).
  const checkedIn = (owner, reply) => {
    const bytes = owner.memoryBytes();
    lastCallBytes = bytes;
    if (bytes > peakBytes) peakBytes = bytes;
    if (owner === core && bytes > memory().renewAfterBytes) replace();
    return reply;
  };
  const checked = (reply) => checkedIn(core, reply);
  // Before a batch of `items`: room for its reply (the instance renewed when it lacks it).
  const roomFor = (items) => {
    if (renew && items > 0 && core.memoryBytes() + items * memory().batchItemBytes > memory().bound) replace();
  };
  // Every text reply goes through here: the memory check, then the reply decoded.
  const done = (text) => decode(checked(text));
  // The same for the methods of a stateful object made in `owner`.
  const replyOn = (owner) => (text) => decode(checkedIn(owner, text));
  let shapes;
  const shapeOf = (code) => (shapes ??= JSON.parse(core.verdictShapes()))[code];
  // A JS value's verdict: the root node (its mirror `m`, the verdict `c`) or the error reply.
  const fromValue = (reply) =>
    typeof reply === 'string' ? decode(reply) : { ok: true, value: build(reply.m, shapeOf(reply.c)) };
  // A text's verdict: a number, or the error reply.
  const fromText = (reply, text) =>
    typeof reply === 'string' ? decode(reply) : { ok: true, value: build(JSON.parse(textOf(text)), shapeOf(reply)) };
  // A batch's items: a verdict number (built from `sourceOf(i)`) or the item's error outcome.
  const fromItems = (outcome, sourceOf) => {
    if (outcome.ok) {
      const items = outcome.value;
      for (let i = 0; i < items.length; i++) {
        if (typeof items[i] === 'number') items[i] = { ok: true, value: build(sourceOf(i), shapeOf(items[i])) };
      }
    }
    return outcome;
  };
  const valueVerdict = (run, value, options) => fromValue(checked(run(value, options)));
  const textVerdict = (run, text, options) => {
    text = textArgument(text);
    return fromText(checked(run(text, options)), text);
  };
  const listVerdict = (list, options) => {
    roomFor(itemCount(list, memory().batchItemsMax));
    const reply = checked(core.parseAgentActionsVerdict(list, options));
    if (typeof reply === 'string') return decode(reply);
    return fromItems(decode(reply.c), (i) => reply.m[i]);
  };
  const jsonlVerdict = (text, options) => {
    text = textArgument(text);
    // At most one line per character (and past `batchItemsMax` lines the core answers at once).
    roomFor(Math.min(textLength(text), memory().batchItemsMax));
    const outcome = decode(checked(core.parseAgentActionsJsonlVerdict(text, options)));
    let lines;
    // Item i is the text's i-th LF-separated line, as the core cut them; only accepted lines are parsed.
    return fromItems(outcome, (i) => JSON.parse((lines ??= textOf(text).split('\n'))[i]));
  };
  const action = (value, options) => valueVerdict(core.parseAgentActionVerdict, value, options);
  const actionJson = (text, options) => textVerdict(core.parseAgentActionJsonVerdict, text, options);
  const decision = (value, options) => valueVerdict(core.parseDecisionVerdict, value, options);
  const decisionJson = (text, options) => textVerdict(core.parseDecisionJsonVerdict, text, options);
  const unwrap = (outcome, finish = identity) => {
    if (outcome.ok) return finish(outcome.value);
    throw new ContractError(outcome.error);
  };
  const safe = (outcome, finish = identity) =>
    outcome.ok ? { ok: true, value: finish(outcome.value) } : { ok: false, error: new ContractError(outcome.error) };
  // A batch's failed items are data, never thrown: their ContractErrors are built without a
  // stack trace (capturing one is most of an error's cost: 65,536 failed lines took ~0.7 s
  // in errors alone), and `stack` is only the name and message.
  const each = (outcome) => {
    const items = unwrap(outcome);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return items.map((item) => safe(item));
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  const parseJsonOutcome = (text, options) => {
    text = textArgument(text);
    return withTextValue(done(core.parseJson(text, options)), text);
  };
  // Compiled tools: defineTool's value is the frozen definition, plain data, and
  // beside it (this WeakMap, keyed by that very object) the core's ToolHandle holding its
  // compiled schema in the instance that made it. validateToolInput* given that object validate
  // through the handle: nothing of the definition crosses or is read again. Any other value (a
  // copy, JSON, a look-alike, a Proxy: a WeakMap lookup runs no trap) and a tool whose instance
  // was renewed take the plain path, which reads the tool again in the core. free() releases
  // the compiled schema (the core then answers TOOL_HANDLE_FREED); garbage collection of the
  // definition frees the handle (wasm-bindgen's FinalizationRegistry).
  const compiledTools = new WeakMap();
  const defineOutcome = (make) => {
    const inner = make();
    const owner = core;
    const outcome = done(inner.reply());
    if (!outcome.ok) {
      inner.free();
      return outcome;
    }
    let freed = false;
    const free = () => {
      if (!freed) {
        freed = true;
        inner.release();
      }
    };
    // Not enumerable: the definition's own keys, JSON and structuredClone stay its fields.
    Object.defineProperty(outcome.value, 'free', { value: free });
    if (Symbol.dispose) Object.defineProperty(outcome.value, Symbol.dispose, { value: free });
    compiledTools.set(deepFreeze(outcome.value), { inner, owner });
    return outcome;
  };
  // The handle of a tool defineTool returned in the current instance, else undefined.
  const handleOf = (tool) => {
    const entry = compiledTools.get(tool);
    return entry !== undefined && entry.owner === core ? entry.inner : undefined;
  };
  const validateOutcome = (tool, input, options) => {
    const handle = handleOf(tool);
    return done(handle ? handle.validate(input, options) : core.validateToolInput(tool, input, options));
  };
  const validateToolInputJsonOutcome = (tool, text, options) => {
    text = textArgument(text);
    const handle = handleOf(tool);
    return withTextValue(
      done(handle ? handle.validateJson(text, options) : core.validateToolInputJson(tool, text, options)),
      text,
    );
  };
  // A registry createRegistry returned is the same: its frozen value keys the core's
  // RegistryHandle (names, definitions, compiled schemas), so checkToolCall, the projections and
  // catalog given that very value read none of it again; any other value is read again.
  const compiledRegistries = new WeakMap();
  const registryOutcome = (tools, options) => {
    const inner = new core.RegistryHandle(tools, options);
    const owner = core;
    const outcome = done(inner.reply());
    if (!outcome.ok) {
      inner.free();
      return outcome;
    }
    compiledRegistries.set(deepFreeze(outcome.value), { inner, owner });
    return outcome;
  };
  const registryOf = (registry) => {
    const entry = compiledRegistries.get(registry);
    return entry !== undefined && entry.owner === core ? entry.inner : undefined;
  };
  const checkOutcome = (registry, action, policy, options) => {
    const handle = registryOf(registry);
    return done(handle ? handle.checkToolCall(action, policy, options) : core.checkToolCall(registry, action, policy, options));
  };
  // `plain` is read on `core` when called (the instance may have been renewed).
  const projected = (registry, kind, plain) => {
    const handle = registryOf(registry);
    return done(handle ? handle.project(kind) : plain.call(core, registry));
  };
  const validateInputsOutcome = (tool, inputs, options) => {
    roomFor(itemCount(inputs, memory().batchItemsMax));
    const handle = handleOf(tool);
    return done(handle ? handle.validateMany(inputs, options) : core.validateToolInputs(tool, inputs, options));
  };
  const createNdjsonDecoder = (options) => createDecoder(new core.NdjsonDecoder(options), replyOn(core), unwrap);
  const createProviderAssembler = (provider, options) =>
    wrapAssembler(new core.ProviderAssembler(provider, options), replyOn(core), unwrap, true);

  const api = {
    ContractError,
    parseAgentAction: (value, options) => unwrap(action(value, options)),
    safeParseAgentAction: (value, options) => safe(action(value, options)),
    parseAgentActionJson: (text, options) => unwrap(actionJson(text, options)),
    safeParseAgentActionJson: (text, options) => safe(actionJson(text, options)),
    parseAgentActions: (list, options) => each(listVerdict(list, options)),
    parseAgentActionsJsonl: (text, options) => each(jsonlVerdict(text, options)),
    previewAction: (value, options) => unwrap(done(core.previewAction(value, options))),
    defineTool: (def, options) => unwrap(defineOutcome(() => new core.ToolHandle(def, options))),
    safeDefineTool: (def, options) => safe(defineOutcome(() => new core.ToolHandle(def, options))),
    defineToolJson: (text, options) => unwrap(defineOutcome(() => core.ToolHandle.fromJson(text, options))),
    safeDefineToolJson: (text, options) => safe(defineOutcome(() => core.ToolHandle.fromJson(text, options))),
    parseJson: (text, options) => unwrap(parseJsonOutcome(text, options)),
    safeParseJson: (text, options) => safe(parseJsonOutcome(text, options)),
    parseDecision: (value, options) => unwrap(decision(value, options)),
    safeParseDecision: (value, options) => safe(decision(value, options)),
    parseDecisionJson: (text, options) => unwrap(decisionJson(text, options)),
    safeParseDecisionJson: (text, options) => safe(decisionJson(text, options)),
    validateToolInput: (tool, input, options) => unwrap(validateOutcome(tool, input, options)),
    safeValidateToolInput: (tool, input, options) => safe(validateOutcome(tool, input, options)),
    validateToolInputJson: (tool, text, options) => unwrap(validateToolInputJsonOutcome(tool, text, options)),
    safeValidateToolInputJson: (tool, text, options) => safe(validateToolInputJsonOutcome(tool, text, options)),
    // Registry and pipeline: a registry is the plain, deep-frozen value
    // createRegistry returns; the operations given that very value use its compiled form
    // (registryOf), any other value is read again in the core.
    createRegistry: (tools, options) => unwrap(registryOutcome(tools, options)),
    safeCreateRegistry: (tools, options) => safe(registryOutcome(tools, options)),
    catalog: (registry) => unwrap(projected(registry, 0, core.catalog), deepFreeze),
    definePolicy: (policy) => unwrap(done(core.definePolicy(policy)), deepFreeze),
    safeDefinePolicy: (policy) => safe(done(core.definePolicy(policy)), deepFreeze),
    checkToolCall: (registry, action, policy, options) => unwrap(checkOutcome(registry, action, policy, options)),
    safeCheckToolCall: (registry, action, policy, options) => safe(checkOutcome(registry, action, policy, options)),
    toOpenAITools: (registry) => unwrap(projected(registry, 1, core.toOpenAITools)),
    toOpenAIResponsesTools: (registry) => unwrap(projected(registry, 2, core.toOpenAIResponsesTools)),
    toAnthropicTools: (registry) => unwrap(projected(registry, 3, core.toAnthropicTools)),
    toMcpTools: (registry) => unwrap(projected(registry, 4, core.toMcpTools)),
    normalizeToolResult: (tool, value, options) => unwrap(done(core.normalizeToolResult(tool, value, options))),
    compareContracts: (oldTool, newTool) => unwrap(done(core.compareContracts(oldTool, newTool))),
    diffCatalogs: (oldCatalog, newCatalog) => unwrap(done(core.diffCatalogs(oldCatalog, newCatalog))),
    strictSchemaIssues: (schema) => unwrap(done(core.strictSchemaIssues(schema))),
    jsonSchemaForTarget: (schema, target) => unwrap(done(core.jsonSchemaForTarget(schema, target))),
    standardJsonSchema: (schema, target) => unwrap(done(core.standardJsonSchema(schema, target))),
    createAssembler: (options) => wrapAssembler(new core.StreamAssembler(options), replyOn(core), unwrap, false),
    // Provider streams: a provider's raw SSE or events to the normalized response.
    createProviderAssembler,
    assembleProviderStream: (provider, input, options) =>
      unwrap(done(core.assembleProviderStream(provider, input, options))),
    safeAssembleProviderStream: (provider, input, options) =>
      safe(done(core.assembleProviderStream(provider, input, options))),
    providerResponseStream: (provider, options) => providerTransform(createProviderAssembler, provider, options),
    toStandardSchema: (tool) => standardSchema(api, tool),
    // ACP prompt admission and lifecycle:
    admitPrompt: (request, capabilities, options) =>
      unwrap(admissionOutcome(core.admitPrompt(request, capabilities, options), done)),
    safeAdmitPrompt: (request, capabilities, options) =>
      safe(admissionOutcome(core.admitPrompt(request, capabilities, options), done)),
    isCanonicalBase64: (text) => core.isCanonicalBase64(text),
    sniffMediaType: (bytes) => unwrap(done(core.sniffMediaType(bytes))),
    advertisePromptCapabilities: (facts) => unwrap(done(core.advertisePromptCapabilities(facts))),
    createPromptLifecycle: () => wrapLifecycle(new core.PromptLifecycle(), replyOn(core), unwrap),
    // JSON-RPC over NDJSON.
    classifyJsonRpc: (value, options) => linkBatchReply(unwrap(done(core.classifyJsonRpc(value, options)))),
    classifyJsonRpcJson: (text, options) => linkBatchReply(unwrap(done(core.classifyJsonRpcJson(text, options)))),
    methodNotFound: (request) => unwrap(done(core.methodNotFound(request))),
    internalError: (request, error) => unwrap(done(core.internalError(request, errorFields(error, false)))),
    invalidParams: (request, contractError) =>
      unwrap(done(core.invalidParams(request, errorFields(contractError, true)))),
    createNdjsonDecoder,
    ndjsonFrames: (chunks, options) => framesOf(createNdjsonDecoder, chunks, options),
    ndjsonFramesAsync: (chunks, options) => framesOfAsync(createNdjsonDecoder, chunks, options),
    checkStdoutPurity: (input, options) => unwrap(done(core.checkStdoutPurity(input, options))),
    createRpcSession: (options) =>
      rpcSession(new core.RpcSession(options), replyOn(core), unwrap),
    // Gemini projection
    toGeminiTools: (registry) => unwrap(projected(registry, 5, core.toGeminiTools)),
    geminiSchemaIssues: (schema) => unwrap(done(core.geminiSchemaIssues(schema))),
    /** The current instance's memory; the memory the last call left its instance at (before any
     * renewal); the most any call left it at; and how often the instance was replaced. */
    memoryReport: () => ({ bytes: core.memoryBytes(), lastCallBytes, peakBytes, renewals }),
    // Messages and sessions (seed 004): every verdict and tree query is the core's.
    parseAgentMessage: (value, options) => unwrap(done(core.parseAgentMessage(value, options))),
    safeParseAgentMessage: (value, options) => safe(done(core.parseAgentMessage(value, options))),
    parseAgentMessageJson: (text, options) => unwrap(done(core.parseAgentMessageJson(text, options))),
    safeParseAgentMessageJson: (text, options) => safe(done(core.parseAgentMessageJson(text, options))),
    parseToolResult: (value, options) => unwrap(done(core.parseToolResult(value, options))),
    safeParseToolResult: (value, options) => safe(done(core.parseToolResult(value, options))),
    parseSessionEntry: (value, options) => unwrap(done(core.parseSessionEntry(value, options))),
    safeParseSessionEntry: (value, options) => safe(done(core.parseSessionEntry(value, options))),
    checkSession: (text, options) => unwrap(done(core.checkSession(text, options))),
    readSession: (text, options) => readSession(text, options, unwrap),
    safeReadSession: (text, options) => readSession(text, options, safe),
    querySession: (text, query, options) => unwrap(done(core.querySession(text, query, options))),
    fromSeedTool: (def, extra, options) => unwrap(done(core.fromSeedTool(def, extra, options)), deepFreeze),
    toSeedTool: (tool) => unwrap(done(core.toSeedTool(tool))),
    createSessionChecker: (options) => sessionChecker(new core.SessionChecker(options), replyOn(core), unwrap),
    // Agent events and the session response: every verdict is the core's.
    parseAgentEvent: (value, options) => unwrap(done(core.parseAgentEvent(value, options))),
    safeParseAgentEvent: (value, options) => safe(done(core.parseAgentEvent(value, options))),
    checkEventSequence: (events, options) => unwrap(done(core.checkEventSequence(events, options))),
    safeCheckEventSequence: (events, options) => safe(done(core.checkEventSequence(events, options))),
    checkSessionResponse: (value, options) => unwrap(done(core.checkSessionResponse(value, options))),
    safeCheckSessionResponse: (value, options) => safe(done(core.checkSessionResponse(value, options))),
    // The protocol as JSON Schema: a fresh copy on every call.
    protocolSchemas: () => unwrap(done(core.protocolSchemas())),
    // Compiled tools: many inputs for one tool in one crossing, one outcome each.
    validateToolInputs: (tool, inputs, options) => each(validateInputsOutcome(tool, inputs, options)),
    // Dataset rows: every report is the core's; a batch gets room for its reports first.
    checkChatRow: (row, options) => unwrap(done(core.checkChatRow(row, options))),
    checkChatRows: (rows, options) => {
      roomFor(itemCount(rows, memory().batchItemsMax));
      return unwrap(done(core.checkChatRows(rows, options)));
    },
    checkChatRowsJsonl: (text, options) => {
      text = textArgument(text);
      // At most one line per character (and past `batchItemsMax` lines the core answers at once).
      roomFor(Math.min(textLength(text), memory().batchItemsMax));
      return unwrap(done(core.checkChatRowsJsonl(text, options)));
    },
  };
  // A session holds its text (a string, or its own copy of the bytes) and the core's reading
  // of it; each tree query reads the text again in the core (`querySession`), so no tree rule
  // lives here.
  function readSession(text, options, finish) {
    const held = heldText(text);
    return finish(done(core.readSession(held, options)), (value) => {
      const query = (q) => unwrap(done(core.querySession(held, q, options)));
      return Object.freeze({
        header: value.header,
        entries: value.entries,
        roots: value.roots,
        leaves: () => value.leaves.slice(),
        branch: (id) => query({ branch: id }),
        children: (id) => query({ children: id }),
        context: (leafId) => query({ context: leafId }),
      });
    });
  }
  return api;
}
