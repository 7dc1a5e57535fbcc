// The package's public API over a wasm-bindgen build of the core. It translates, nothing more:
// every core function returns one JSON string `{ok, value | error, undefined?}` (or a verdict,
// see `build`); this file turns it into objects (JSON.parse gives own data properties,
// `__proto__` included), puts `undefined` back where the core says it was, freezes tool
// definitions and raises ContractError. The functions come from the core's operation table
// (dist/operations.js, generated from `describe()`): one adapter per reply kind (a tool or a
// registry the package returned answered by its handle), and written out here only the rows
// that make what the host holds (tools, registries, sessions, stateful objects) or batches.
import { OPERATIONS, NDJSON_SLICE_UNITS as NDJSON_SLICE, OBJECT_FREED, OBJECT_IN_USE } from './dist/operations.js';

export class ContractError extends Error {
  constructor(error) {
    super(error.message);
    this.name = 'ContractError';
    this.layer = error.layer;
    this.code = error.code;
    this.path = error.path;
    this.retryable = error.retryable;
    for (const key of ['position', 'issues', 'availableTools', 'proposal']) if (error[key]) this[key] = error[key];
    if (error.truncated) this.truncated = true;
  }
}

const unescapePointer = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

// Puts `value` at a JSON Pointer the core wrote into `root`.
function putAt(root, pointer, value) {
  const segments = pointer.split('/').slice(1).map(unescapePointer);
  const last = segments.pop();
  let target = root;
  for (const segment of segments) target = target[segment];
  putMember(target, last, value);
}

// Also the test build's decoder (js-tests/testing-core.mjs), so both paths decode alike.
export function decode(text) {
  const outcome = JSON.parse(text);
  const pointers = outcome.undefined;
  if (pointers) {
    delete outcome.undefined;
    for (const pointer of pointers) putAt(outcome, pointer, undefined);
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

// An own data property, as JSON.parse makes it (see `put` in js_host.js): the key may be
// "__proto__", which assignment would take as the prototype.
const objectPrototype = Object.prototype;
function putMember(o, key, value) {
  if (typeof key === 'string' && !Object.hasOwn(objectPrototype, key)) o[key] = value;
  else Object.defineProperty(o, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

// Text arguments, read with the built-in getters of typed arrays, so a subclass's getter or a
// Proxy's traps never run here (a Proxy is not a Uint8Array: the core answers that it is not
// text). `textArgument` gives a string, or a fresh plain view of a genuine Uint8Array's bytes
// (copied when they are in shared memory: they could change between the core's verdict and the
// decoding); anything else is passed on for the core to refuse.
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const [tagOf, bufferOf, byteOffsetOf, lengthOf] = [Symbol.toStringTag, 'buffer', 'byteOffset', 'length']
  .map((name) => Object.getOwnPropertyDescriptor(typedArrayProto, name).get);
// A genuine typed array's buffer is an ArrayBuffer (which has ArrayBuffer's `byteLength`; a
// detached one answers 0) or a SharedArrayBuffer: asked this way round, an ordinary buffer
// throws nothing.
const plainByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const isShared = (buffer) => {
  try {
    plainByteLength.call(buffer);
    return false;
  } catch (_) {
    return true;
  }
};
const isBytes = (value) => typeof value !== 'string' && tagOf.call(value) === 'Uint8Array';

function textArgument(text) {
  if (!isBytes(text)) return text;
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

// The length of a text textArgument gave; 0 for anything else.
const textLength = (text) => (typeof text === 'string' ? text.length : isBytes(text) ? lengthOf.call(text) : 0);
// The text the core accepted: a string, or UTF-8 without a BOM (so the decoder, which would drop
// a BOM or replace invalid bytes, decodes it exactly).
const utf8 = new TextDecoder();
const textOf = (text) => (typeof text === 'string' ? text : utf8.decode(text));

// A long NDJSON chunk crosses in slices of the core's `ndjsonSliceUnits` (describe()'s memory
// policy): each crossing's reply holds the frames of its lines.
// Strings are sliced as strings (the core holds a lead surrogate cut at the end for the next
// slice), byte views through the built-in getters; anything else crosses whole.
function slices(chunk) {
  if (typeof chunk === 'string') {
    const out = [];
    for (let i = 0; i < chunk.length || i === 0; i += NDJSON_SLICE) out.push(chunk.slice(i, i + NDJSON_SLICE));
    return out;
  }
  try {
    const length = isBytes(chunk) ? lengthOf.call(chunk) : 0;
    if (length <= NDJSON_SLICE) return [chunk];
    const buffer = bufferOf.call(chunk), offset = byteOffsetOf.call(chunk), out = [];
    for (let i = 0; i < length; i += NDJSON_SLICE) out.push(new Uint8Array(buffer, offset + i, Math.min(NDJSON_SLICE, length - i)));
    return out;
  } catch (_) {
    return [chunk];
  }
}

// A message or a batch classified: a frame's message comes as `true` (the core accepted the
// line's text as exactly one I-JSON value, so JSON.parse of that text is the value it would have
// written), a batch's reply as `true` (the list of its items' replies that are not null, in
// order, the same objects: wire::batch_reply_linked).
function linked(c) {
  if (c.message === true) c.message = JSON.parse(c.text);
  if (c.reply === true && c.kind === 'batch') c.reply = c.items.map((item) => item.reply).filter((r) => r !== null);
  return c;
}

// NDJSON frames come as objects, rows and runs (wire::FrameWriter): a row is three items, k,
// offset and text, for the frame whose other members are those of the reply's k-th object and
// whose line is the previous frame's plus one; a run, [k, offset, text, count, stride], is
// `count` such rows with one text, `stride` bytes apart. Written whole, a megabyte of blank lines
// (a million frames) took 4-5 s to cross and parse; as one run, a few bytes. The shared members
// are copied, so no two frames share an object, as if each had been parsed. The frames are
// appended to `frames` (one array for a whole chunk: flatMap over slices cost a third of a
// flood's time), each linked as it is made.
function expandRows(items, frames) {
  const objects = [], makers = [];
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
    const make = makers[k] ??= maker(objects[k]);
    if (!run) {
      frames.push(linked(make(items[++i], items[++i], ++line)));
      continue;
    }
    const [, offset, text, count, stride] = item;
    for (let j = 0; j < count; j++) frames.push(linked(make(offset + j * stride, text, ++line)));
  }
  for (const object of objects) linked(object);
  return frames;
}

// The frames of object `base`'s rows: its copy with a row's text, line and offset, and for a
// message the core accepted, a copy of the line's value (parsed once per text).
function maker(base) {
  const copy = copier(base);
  if (base.message !== true) {
    return (offset, text, line) => {
      const frame = copy(base);
      frame.text = text;
      frame.line = line;
      frame.offset = offset;
      return frame;
    };
  }
  let lastText, message, copyMessage;
  return (offset, text, line) => {
    if (text !== lastText) {
      lastText = text;
      message = JSON.parse(text);
      copyMessage = message !== null && typeof message === 'object' ? copier(message) : undefined;
    }
    // The copy keeps the members' order (text, line, offset first, as parsed).
    const frame = copy(base);
    frame.text = text;
    frame.line = line;
    frame.offset = offset;
    frame.message = copyMessage === undefined ? message : copyMessage(message);
    return frame;
  };
}

// A function copying `value`, parsed from JSON, and the containers inside it (the leaves are
// immutable): made once per object a reply's rows name, it copies a frame without looking at
// its members again (a generic recursive copy was polymorphic in V8, half the time of batch
// lines). A blank line's frame (no container inside) is one allocation of a known shape.
function copier(value) {
  const isContainer = (v) => v !== null && typeof v === 'object';
  if (Array.isArray(value)) {
    const copies = value.map((v) => (isContainer(v) ? copier(v) : null));
    if (copies.every((c) => c === null)) return (v) => v.slice();
    return (v) => v.map((item, i) => (copies[i] === null ? item : copies[i](item)));
  }
  const keys = Object.keys(value);
  if (keys.length === PROBLEM_FRAME.length && keys.every((key, i) => key === PROBLEM_FRAME[i] && !isContainer(value[key]))) {
    return copyProblemFrame;
  }
  // Spreading defines members (an own `__proto__` included); assigning one would set the prototype.
  const inner = keys.filter((key) => isContainer(value[key])).map((key) => [key, copier(value[key])]);
  return (v) => {
    const out = { ...v };
    for (const [key, copy] of inner) putMember(out, key, copy(v[key]));
    return out;
  };
}
const PROBLEM_FRAME = ['text', 'line', 'offset', 'kind', 'reply', 'ignored', 'code', 'path', 'reason'];
const copyProblemFrame = (v) => ({
  text: v.text, line: v.line, offset: v.offset, kind: v.kind, reply: v.reply, ignored: v.ignored,
  code: v.code, path: v.path, reason: v.reason,
});

// An Error (a ContractError too) is not a plain object the core can read: its message (and a
// ContractError's code and path) cross as a plain object. A Proxy or getter that throws gives
// an empty one; the core then answers with its defaults.
function errorFields(error, contract) {
  try {
    if (contract && error instanceof ContractError) return { code: error.code, path: error.path };
    if (error instanceof Error) return typeof error.message === 'string' ? { message: error.message } : {};
  } catch (_) {
    return {};
  }
  return error;
}

// The `target` of a jsonSchema call's options, for the core to judge (options that cannot be
// read go as they are, and are refused as any target that is not a string).
function targetOf(options) {
  try {
    return options.target;
  } catch (_) {
    return options;
  }
}

// Standard Schema v1 with the Standard JSON Schema extension over one tool's input: validation
// is validateToolInput, the JSON Schema the one the projections give clients (Gemini's for a
// Gemini name, MCP's for every other), converted by the core for the target draft.
function standardSchema(api, tool) {
  const definition = api.defineTool(tool);
  const input = () => definition.names === 'gemini'
    ? api.toGeminiTools(api.createRegistry([definition]))[0].functionDeclarations[0].parametersJsonSchema
    : api.toMcpTools(api.createRegistry([definition]))[0].inputSchema;
  const output = () => {
    // A tool without one has no output type to give: the contract's FIELD_MISSING, as the
    // core answers for any required field (a consumer catches ContractError alone).
    if (!definition.outputSchema) {
      throw new ContractError({ layer: 'contract', code: 'FIELD_MISSING', path: '/outputSchema', retryable: false, message: `tool ${definition.name} has no outputSchema` });
    }
    return definition.outputSchema;
  };
  // A JSON Pointer's segments, unescaped (a pointer does not say whether "0" is an index or a key).
  const issue = (code, message, path) =>
    ({ message: `${code}: ${message}`, path: path === '' ? [] : path.split('/').slice(1).map(unescapePointer), code });
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
        input: (options) => api.standardJsonSchema(input(), targetOf(options)),
        output: (options) => api.standardJsonSchema(output(), targetOf(options)),
      }),
    }),
  });
}

// A WHATWG TransformStream from a provider's response body to one chunk, the normalized
// response; the first ContractError errors the stream, and the state is freed either way.
function providerTransform(assembler) {
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
    cancel: () => assembler.free(),
  });
}

// The chunks of a stream (an iterable, or for `wait` an async iterable too; one string or
// Uint8Array is one chunk). An iterator that throws (or a value that is not iterable) ends the
// stream with the core's verdict on what it threw, pushed as a chunk: a ContractError. A thrown
// string or byte view would be taken as text, so it is pushed as a String object, which is not.
const isChunk = (chunks) => typeof chunks === 'string' || ArrayBuffer.isView(chunks);
const thrownChunk = (error) => (isChunk(error) ? new String() : error);
function* chunksOf(decoder, chunks) {
  if (isChunk(chunks)) return yield chunks;
  let iterator, done, value;
  try {
    iterator = chunks[Symbol.iterator]();
  } catch (_) {
    decoder.push(chunks); // not iterable: throws the core's verdict
  }
  for (;;) {
    try {
      ({ done, value } = iterator.next());
    } catch (error) {
      decoder.push(thrownChunk(error));
    }
    if (done) return;
    yield value;
  }
}
// Each chunk comes boxed (`[chunk]`): an async generator awaits what it yields, and a caller's
// chunk may be a thenable (a revoked Proxy, a `then` getter that throws) that must reach the
// decoder, which judges it, not the generator's own await.
async function* chunksOfAsync(decoder, chunks) {
  if (isChunk(chunks)) return yield [chunks];
  let iterator, done, value;
  try {
    iterator = chunks[Symbol.asyncIterator] ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  } catch (_) {
    decoder.push(chunks);
  }
  for (;;) {
    try {
      ({ done, value } = await iterator.next());
    } catch (error) {
      decoder.push(thrownChunk(error));
    }
    if (done) return;
    yield [value];
  }
}

// The frames of a stream of chunks, an async iterator: the frames of a chunk are handed out
// one already-resolved promise each (an async generator awaits every value it yields: 0.6 µs a
// frame, a megabyte of blank lines 0.6 s, against 0.16 µs). A step that must wait for the next
// chunk runs after any step still waiting, so frames come in order whatever the caller does.
// The decoder is freed at the end, on the first error (which ends the iterator) or on return().
class FramesAsync {
  #decoder;
  #source;
  #frames = [];
  #at = 0;
  #sourceDone = false;
  #closed = false;
  #waiting = 0;
  #queue = Promise.resolve();

  constructor(decoder, chunks) {
    this.#decoder = decoder;
    this.#source = chunksOfAsync(decoder, chunks);
  }

  #close() {
    this.#frames = [];
    this.#at = 0;
    if (!this.#closed) {
      this.#closed = true;
      this.#decoder.free();
    }
  }

  async #step() {
    for (;;) {
      if (this.#at < this.#frames.length) return { value: this.#frames[this.#at++], done: false };
      if (this.#closed || this.#sourceDone) {
        this.#close();
        return { value: undefined, done: true };
      }
      try {
        const { done, value } = await this.#source.next();
        if (this.#closed) continue; // return() came while the chunk was awaited
        this.#frames = done ? this.#decoder.end() : this.#decoder.push(value[0]);
        this.#sourceDone = done;
      } catch (error) {
        this.#close();
        throw error;
      }
      this.#at = 0;
    }
  }

  next() {
    if (this.#waiting === 0 && this.#at < this.#frames.length) {
      return Promise.resolve({ value: this.#frames[this.#at++], done: false });
    }
    this.#waiting++;
    const next = this.#queue.then(() => this.#step()).finally(() => this.#waiting--);
    this.#queue = next.catch(() => {});
    return next;
  }

  async return(value) {
    this.#close();
    await this.#source.return();
    return { value, done: true };
  }

  async throw(error) {
    this.#close();
    throw error;
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

// A batch's item count, for the room check only (the core reads the list again and decides):
// an array's length, guarded (whatever a Proxy's trap throws or answers, the count is then
// unknown: Infinity); anything else is no list.
function itemCount(list) {
  try {
    if (!Array.isArray(list)) return 0;
    const n = list.length;
    return typeof n === 'number' ? n : Infinity;
  } catch (_) {
    return Infinity;
  }
}

// Verdict replies: on success a verdict, an index into the shapes table the core writes (read
// once, `verdictShapes`), naming the members of the result in order. The result is built from
// values this side already holds: for a text, JSON.parse of the text the core accepted; for a
// JS value, the mirror the reader filled while the core read it (js_host.js, `found`): exactly
// the values the core judged, so the caller's object is never read again. A member is a name or
// [name, item shape]. docs/decisions.md, "Verdict replies".
function build(source, shape) {
  // A source made for this call alone (JSON.parse's, or the reader's mirror) holding exactly a
  // flat shape's names, in its order, already is the result.
  if (holdsExactly(source, shape)) return source;
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

function holdsExactly(source, shape) {
  const keys = Object.keys(source);
  if (keys.length !== shape.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== shape[i]) return false;
  return true;
}

const identity = (value) => value;
const capital = (name) => name[0].toUpperCase() + name.slice(1);

// The core's exports for the package's own host modules (HOST_SUPPORT in src/api/table.rs), by
// API object: not members of the API, which holds only what users call.
const supportOf = new WeakMap();
export const support = (api) => supportOf.get(api);

// `load()` returns the loaded instance (a glue of dist/agent_contract.js) or throws while there
// is none (loader.mjs: NotInitializedError); it is asked on the first use of `core`. `renew()`
// gives a fresh instance where the entry can make one (Node, workerd, Deno). `schema`: whether
// the core has the rows that need the schema engine.
export function createApi(load, renew, schema = true) {
  let peakBytes = 0, lastCallBytes = 0, renewals = 0, shapes;
  // The schema engine's hash keys come from the host, once per instance (src/entropy.rs).
  const seeded = (instance) => {
    instance.seed(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    return instance;
  };
  // A stand-in until the first call: reading any member loads the instance and puts it here.
  let loaded = false;
  let core = new Proxy({}, {
    get(_, name) {
      core = seeded(load());
      loaded = true;
      return core[name];
    },
  });
  const replace = () => {
    const fresh = renew && renew();
    if (fresh) {
      core = seeded(fresh);
      renewals++;
    }
  };
  // The memory bound, the core's policy (api::describe::MemoryPolicy; docs/decisions.md, "The
  // memory bound"): a wasm memory never shrinks, so after every call the core says whether its
  // instance is to be replaced (its memory, negated), which the entry does when it can make a
  // fresh one; before a batch, whether the batch needs a fresh instance. Objects made before
  // keep the instance they live in (`owner`). The reply passes through as it came.
  const checkedIn = (owner, reply) => {
    const after = owner.memoryAfterCall();
    lastCallBytes = Math.abs(after);
    if (lastCallBytes > peakBytes) peakBytes = lastCallBytes;
    if (after < 0 && owner === core) replace();
    return reply;
  };
  const checked = (reply) => checkedIn(core, reply);
  // Anything but a ContractError out of a call may have unwound through wasm frames (a stack
  // overflow in the glue when the caller's stack was nearly full, a trap), which leaves the
  // instance unusable: it is replaced, so later calls work; the error passes as it came. Not
  // before an instance was loaded (the loader's NotInitializedError), and a replacement that
  // fails leaves the error as it came.
  const escaped = (owner, error) => {
    if (!(error instanceof ContractError) && loaded && owner === core) {
      try {
        replace();
      } catch (_) {
        // The error the caller sees is the call's.
      }
    }
    return error;
  };
  const guarded = (run) => (a, b, c, d) => {
    const owner = core;
    try {
      return run(a, b, c, d);
    } catch (error) {
      throw escaped(owner, error);
    }
  };
  const roomFor = (items) => {
    if (renew && core.needsRoom(items)) replace();
  };
  const done = (text) => decode(checked(text));
  const shapeOf = (code) => (shapes ??= JSON.parse(core.verdictShapes()))[code];
  const unwrap = (outcome, finish = identity) => {
    if (outcome.ok) return finish(outcome.value);
    throw new ContractError(outcome.error);
  };
  const safe = (outcome, finish = identity) =>
    outcome.ok ? { ok: true, value: finish(outcome.value) } : { ok: false, error: new ContractError(outcome.error) };
  // A batch's failed items are data, never thrown: their ContractErrors are built without a
  // stack trace (capturing one is most of an error's cost: 65,536 failed lines took ~0.7 s in
  // errors alone).
  const each = (outcome, sourceOf) => {
    const items = unwrap(outcome);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return items.map((item, i) => (typeof item === 'number' ? { ok: true, value: build(sourceOf(i), shapeOf(item)) } : safe(item)));
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  // A text argument guarded, room made for at most one item per character, the reply checked.
  const textBatch = (run, text, options) => {
    text = textArgument(text);
    roomFor(textLength(text));
    return [checked(run(text, options)), text];
  };
  const listBatch = (run, list, options) => {
    roomFor(itemCount(list));
    return checked(run(list, options));
  };

  // Stateful objects: the state lives in the instance that made it (`owner`), freed by free(),
  // `using` or garbage collection (wasm-bindgen's FinalizationRegistry). `opened(inner)` is the
  // reply that says whether the options were valid: an error is thrown here, the state freed.
  function resource(inner, opened, methods) {
    const owner = core;
    const reply = (text) => decode(checkedIn(owner, text));
    const answer = (text) => unwrap(reply(text));
    const check = opened && reply(opened(inner));
    if (check && !check.ok) {
      inner.free();
      unwrap(check);
    }
    // `busy` while a method runs: a caller's getter it reads may call this object again, whose
    // state is in use (OBJECT_IN_USE), or free it (freed when the method returns).
    let freed = false, busy = false, freeAfter = false;
    const object = {};
    for (const [name, method] of Object.entries(methods)) {
      object[name] = (...args) => {
        if (freed) throw new ContractError(OBJECT_FREED);
        if (busy) throw new ContractError(OBJECT_IN_USE);
        busy = true;
        try {
          return method(answer, inner, ...args);
        } catch (error) {
          throw escaped(owner, error);
        } finally {
          busy = false;
          if (freeAfter) {
            freeAfter = false;
            inner.free();
          }
        }
      };
    }
    object.free = () => {
      if (!freed) {
        freed = true;
        if (busy) freeAfter = true;
        else inner.free();
      }
    };
    if (Symbol.dispose) object[Symbol.dispose] = object.free;
    return object;
  }
  const assemblerMethods = {
    /** Applies one event; throws the ContractError that ends the stream (and every later call throws it again). */
    push: (r, inner, event) => void r(inner.push(event)),
    /** Arguments so far, for display: never executable. */
    preview: (r, inner) => r(inner.preview()),
    /** The normalized response; throws if the stream is not complete. */
    finish: (r, inner) => r(inner.finish()),
  };
  const objects = {
    createAssembler: (options) => resource(new core.StreamAssembler(options), (i) => i.preview(), assemblerMethods),
    createProviderAssembler: (provider, options) =>
      resource(new core.ProviderAssembler(provider, options), (i) => i.preview(), {
        ...assemblerMethods,
        /** Raw Server-Sent Events, a string or a Uint8Array, split anywhere (even inside a character). */
        pushSse: (r, inner, chunk) => void r(inner.pushSse(chunk)),
      }),
    createSessionChecker: (options) => resource(new core.SessionChecker(options), (i) => i.push(new Uint8Array(0)), {
      /** Feeds a chunk; returns the problems of the lines it completed. */
      push: (r, inner, chunk) => r(inner.push(chunk)),
      /** The report of the whole text, as checkSession gives it. */
      finish: (r, inner) => r(inner.finish()),
    }),
    createPromptLifecycle: () => {
      const methods = {};
      for (const name of ['admitted', 'written', 'enqueue', 'agentIdle', 'outputDelivered', 'abandon']) {
        methods[name] = (r, inner) => void r(inner.call(name));
      }
      methods.cancel = (r, inner) => r(inner.call('cancel'));
      methods.settle = (r, inner, reason) => r(inner.call('settle', reason));
      return resource(new core.PromptLifecycle(), undefined, methods);
    },
    createNdjsonDecoder: (options) => resource(new core.NdjsonDecoder(options), (i) => i.check(), {
      /** The frames of the lines this chunk (a string or Uint8Array) completed. */
      push: (r, inner, chunk) => slices(chunk).reduce((frames, slice) => expandRows(r(inner.push(slice)), frames), []),
      /** The final line's frame when the stream did not end with LF ([] otherwise). */
      end: (r, inner) => expandRows(r(inner.end()), []),
      /** Bytes of the current line held now (never over maxLineBytes). */
      bufferedBytes: (r, inner) => inner.buffered(),
    }),
    createRpcSession: (options) => resource(new core.RpcSession(options), (i) => i.check(), {
      incoming: (r, inner, message) => linked(r(inner.incoming(message))),
      outgoing: (r, inner, message) => linked(r(inner.outgoing(message))),
    }),
  };

  // Compiled tools and registries: defineTool's and createRegistry's value is the frozen
  // definition, plain data, and beside it (a WeakMap keyed by that very object) the core's
  // handle holding its compiled form in the instance that made it. Operations given that
  // object use the handle: nothing of it crosses or is read again. Any other value (a copy,
  // JSON, a look-alike, a Proxy: a WeakMap lookup runs no trap) and one whose instance was
  // renewed are read again by the core. A tool's free() releases its compiled schema (the core
  // then answers TOOL_HANDLE_FREED); garbage collection of the value frees the handle.
  const compiled = new WeakMap();
  const handleOf = (value) => {
    const entry = compiled.get(value);
    return entry !== undefined && entry.owner === core ? entry.inner : undefined;
  };
  const held = (inner, isTool) => {
    const outcome = done(inner.reply());
    if (!outcome.ok) {
      inner.free();
      return outcome;
    }
    if (isTool) {
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
    }
    compiled.set(deepFreeze(outcome.value), { inner, owner: core });
    return outcome;
  };
  // A row whose first argument is a tool or a registry: a value the package returned is
  // answered by its handle's method of the row's name when the handle has one; any other
  // value, or a row the handle lacks (compareContracts, diffCatalogs, ...), by the core's export.
  const call = (name, first) => (first === 'tool' || first === 'registry'
    ? (a, b, c, d) => {
      const handle = handleOf(a);
      return handle !== undefined && typeof handle[name] === 'function' ? handle[name](b, c, d) : core[name](a, b, c, d);
    }
    : (a, b, c, d) => core[name](a, b, c, d));
  // The verdict rows' exports are `<name>Verdict`.
  const valueVerdict = (name, run = `${name}Verdict`) => (value, options) => {
    const reply = checked(core[run](value, options));
    return typeof reply === 'string' ? decode(reply) : { ok: true, value: build(reply.m, shapeOf(reply.c)) };
  };
  const textVerdict = (name, run = `${name}Verdict`) => (text, options) => {
    text = textArgument(text);
    const reply = checked(core[run](text, options));
    return typeof reply === 'string' ? decode(reply) : { ok: true, value: build(JSON.parse(textOf(text)), shapeOf(reply)) };
  };
  // A text-verdict row (its text argument at `at`): on success the core says only that it
  // accepted the text as one I-JSON value, and the value is JSON.parse of the text this side
  // holds, the value the core would have written back, without building and decoding it.
  const textValue = (run, at) => (...args) => {
    const text = (args[at] = textArgument(args[at]));
    const outcome = done(run(...args));
    if (outcome.ok) outcome.value = JSON.parse(textOf(text));
    return outcome;
  };

  // What a row's call answers, for the rows a reply kind alone does not say: the outcome (then
  // given as it is, or through `finish`), or for `each` the batch's items.
  const outcomes = {
    parseAgentActions: { each: (list, options) => {
      const reply = listBatch(core.parseAgentActionsVerdict, list, options);
      return typeof reply === 'string' ? [decode(reply)] : [decode(reply.c), (i) => reply.m[i]];
    } },
    parseAgentActionsJsonl: { each: (text, options) => {
      const [reply, kept] = textBatch(core.parseAgentActionsJsonlVerdict, text, options);
      let lines;
      // Item i is the text's i-th LF-separated line, as the core cut them; only accepted lines are parsed.
      return [decode(reply), (i) => JSON.parse((lines ??= textOf(kept).split('\n'))[i])];
    } },
    // Through a tool's handle a valid input answers the reader's mirror, the core's copy of
    // what it read (js/handles.rs); any other tool value, the core's full reply.
    validateToolInput: { outcome: (tool, input, options) => {
      const handle = handleOf(tool);
      if (handle === undefined) return done(core.validateToolInput(tool, input, options));
      const reply = checked(handle.validateToolInput(input, options));
      return typeof reply === 'string' ? decode(reply) : { ok: true, value: reply.m };
    } },
    validateToolInputs: { each: (tool, inputs, options) => {
      roomFor(itemCount(inputs));
      return [done(call('validateToolInputs', 'tool')(tool, inputs, options))];
    } },
    checkChatRows: { outcome: (rows, options) => decode(listBatch(core.checkChatRows, rows, options)) },
    checkChatRowsJsonl: { outcome: (text, options) => decode(textBatch(core.checkChatRowsJsonl, text, options)[0]) },
    defineTool: { outcome: (def, options) => held(new core.ToolHandle(def, options), true) },
    defineToolJson: { outcome: (text, options) => held(core.ToolHandle.fromJson(text, options), true) },
    createRegistry: { outcome: (tools, options) => held(new core.RegistryHandle(tools, options), false) },
    catalog: { finish: deepFreeze },
    definePolicy: { finish: deepFreeze },
    fromSeedTool: { finish: deepFreeze },
    classifyJsonRpc: { finish: linked },
    classifyJsonRpcJson: { finish: linked },
    internalError: { outcome: (request, error) => done(core.internalError(request, errorFields(error, false))) },
    invalidParams: { outcome: (request, error) => done(core.invalidParams(request, errorFields(error, true))) },
    // ACP: each decoded payload, a Uint8Array the core hands out once, is the `bytes` of the plan
    // entry whose pointer the reply lists at its index (wire::admission_reply).
    admitPrompt: { outcome: (request, capabilities, options) => {
      const admission = core.admitPrompt(request, capabilities, options);
      try {
        const outcome = done(admission.reply());
        if (outcome.ok) outcome.payloads.forEach((at, i) => putAt(outcome.value, `${at}/bytes`, admission.payload(i)));
        delete outcome.payloads;
        return outcome;
      } finally {
        admission.free();
      }
    } },
    // A session holds its text (a string, or its own copy of the bytes: the caller may reuse its
    // buffer) and the core's reading of it; each tree query reads the text again in the core.
    readSession: { outcome: (text, options) => {
      const view = textArgument(text);
      const kept = view !== text && typeof view === 'object' ? view.slice() : view;
      const outcome = done(core.readSession(kept, options));
      if (outcome.ok) {
        const value = outcome.value;
        const query = (q) => unwrap(done(core.querySession(kept, q, options)));
        outcome.value = Object.freeze({
          header: value.header,
          entries: value.entries,
          roots: value.roots,
          leaves: () => value.leaves.slice(),
          branch: (id) => query({ branch: id }),
          children: (id) => query({ children: id }),
          context: (leafId) => query({ context: leafId }),
        });
      }
      return outcome;
    } },
  };

  const api = { ContractError };
  supportOf.set(api, {
    mcpValidatorWording: (options) => unwrap(done(core.mcpValidatorWording(options))),
    mcpFailureLine: (error) => unwrap(done(core.mcpFailureLine(error))),
  });
  // Host conveniences over other rows (Reply::Host); loading is the loader's (init, initSync).
  const host = {
    toStandardSchema: (tool) => standardSchema(api, tool),
    providerResponseStream: (provider, options) => providerTransform(api.createProviderAssembler(provider, options)),
    // Frames of a whole stream, the decoder freed at the end either way.
    ndjsonFrames: function* (chunks, options) {
      const decoder = api.createNdjsonDecoder(options);
      try {
        for (const chunk of chunksOf(decoder, chunks)) yield* decoder.push(chunk);
        yield* decoder.end();
      } finally {
        decoder.free();
      }
    },
    ndjsonFramesAsync: (chunks, options) => new FramesAsync(api.createNdjsonDecoder(options), chunks),
    /** The current instance's memory; the memory the last call left its instance at (before any
     * renewal); the most any call left it at; and how often the instance was replaced. */
    memoryReport: () => ({ bytes: core.memoryBytes(), lastCallBytes, peakBytes, renewals }),
  };
  for (const row of OPERATIONS) {
    const { name } = row;
    if (row.hosts === 'python' || (row.schema && !schema)) continue;
    if (row.reply.host) {
      if (host[name]) api[name] = guarded(host[name]);
      continue;
    }
    if (objects[name]) {
      api[name] = guarded(objects[name]);
      continue;
    }
    if (row.reply === 'bool') {
      api[name] = guarded((a) => checked(core[name](a)));
      continue;
    }
    const own = outcomes[name] ?? {};
    if (own.each) {
      api[name] = guarded((a, b, c) => each(...own.each(a, b, c)));
      continue;
    }
    const run = call(name, row.args[0]);
    const outcome = own.outcome ?? (row.reply === 'verdict' ? (row.args[0] === 'text' ? textVerdict : valueVerdict)(name)
      : row.reply === 'text-verdict' ? textValue(run, row.args.indexOf('text'))
        : (a, b, c, d) => done(run(a, b, c, d)));
    const finish = own.finish;
    api[name] = guarded((a, b, c, d) => unwrap(outcome(a, b, c, d), finish));
    if (row.safe) api[`safe${capital(name)}`] = guarded((a, b, c, d) => safe(outcome(a, b, c, d), finish));
  }
  return api;
}
