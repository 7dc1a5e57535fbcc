// Types for agent-contract. Actions are a discriminated union on `type`.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
/** Tool input as the caller gave it: JSON, where an own property may also hold `undefined`. */
export type ToolInput = null | boolean | number | string | ToolInput[] | { [key: string]: ToolInput | undefined };

export interface MessageAction {
  type: 'message';
  content: string;
}
export interface ToolCallAction {
  type: 'tool_call';
  callId: string;
  tool: string;
  /** Own property always present; `undefined` when the caller passed `input: undefined`. */
  input: ToolInput | undefined;
}
export interface FinishAction {
  type: 'finish';
  summary: string;
}
/** A proposal to ask a human for a capability; never an authorisation. */
export interface RequestApprovalAction {
  type: 'request_approval';
  requestId: string;
  capability: string;
  resource: string;
  reason: string;
}
export type AgentAction = MessageAction | ToolCallAction | FinishAction | RequestApprovalAction;

export type Permission = 'read' | 'write' | 'execute' | 'network';

/** Deep-frozen; shares no reference with the definition it came from. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly [key: string]: JsonValue };
  readonly permissions: readonly Permission[];
  readonly outputSchema?: { readonly [key: string]: JsonValue };
  readonly version?: string;
  /** Schema documents the schemas may `$ref` by URI (absolute, no fragment); never fetched. */
  readonly resources?: { readonly [uri: string]: { readonly [key: string]: JsonValue } | boolean };
  /** The name rule of the catalog the tool came from (absent: ours, `^[a-z][a-z0-9_]*$`). */
  readonly names?: NameRule;
  /** Present when `format` is asserted. */
  readonly formats?: 'assert';
}

export interface ToolDefinitionInput {
  name: string;
  description: string;
  inputSchema: { [key: string]: JsonValue };
  permissions?: Permission[];
  /** Shorthand for `permissions: [permission]`; giving both is an error. */
  permission?: Permission;
  outputSchema?: { [key: string]: JsonValue };
  version?: string;
  /** Schema documents the schemas may `$ref` by URI (absolute, no fragment), at most 64. */
  resources?: { [uri: string]: { [key: string]: JsonValue } | boolean };
  /** Whose name rule `name` follows, as the `names` option (which must agree when both are given). */
  names?: NameRule;
  /** `format` asserted or an annotation, as the `formats` option (which must agree when both are given). */
  formats?: FormatMode;
}

/**
 * Whose name rule a tool's `name` follows. Absent: ours, `^[a-z][a-z0-9_]*$`, at most 64
 * characters (valid everywhere). A catalog read from elsewhere keeps its names under its
 * protocol's rule: `"mcp"` 1-128 of `A-Z a-z 0-9 _ - .`; `"openai"` and `"anthropic"`
 * `^[a-zA-Z0-9_-]{1,64}$`; `"gemini"` a letter or `_`, then `A-Z a-z 0-9 _ . : -`, at most 128.
 * Each projection refuses (`TOOL_NAME_INVALID`) a name its own target does not accept.
 */
export type NameRule = 'mcp' | 'openai' | 'anthropic' | 'gemini';
/**
 * `"annotate"` (the default): `format` is an annotation, as JSON Schema 2020-12 says.
 * `"assert"`: the formats JSON Schema defines (`date-time`, `date`, `time`, `duration`, `email`,
 * `idn-email`, `hostname`, `idn-hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference`, `iri`,
 * `iri-reference`, `uuid`, `uri-template`, `json-pointer`, `relative-json-pointer`, `regex`) are
 * checked; a failure is a `SCHEMA_MISMATCH` issue with keyword `format`. Other names stay annotations.
 */
export type FormatMode = 'annotate' | 'assert';

// Typed tool inputs: the TypeScript type of the values a literal JSON Schema
// accepts, for `defineTool` with a literal `inputSchema` (`as const`, or written inline). Read:
// `type`/type lists, `properties` with `required`, `enum`, `const`, `items` (one schema),
// `anyOf`, boolean schemas. Not inferred (the type is wider than the schema, never narrower):
// `$ref`, `allOf`, `oneOf`, `not`, `if`/`then`/`else`, `patternProperties`,
// `additionalProperties` (extra properties are not typed), `prefixItems`, and every bound or
// format (`minimum`, `pattern`, ...). A schema with none of the read keywords gives `ToolInput`.

/** The TypeScript type of the values the literal JSON Schema `S` accepts (see above). */
export type InferSchema<S> = S extends boolean
  ? S extends false
    ? never
    : ToolInput
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: readonly (infer A)[] }
        ? InferSchema<A>
        : S extends { readonly type: infer T }
          ? InferType<T, S>
          : S extends { readonly properties: object }
            ? InferObject<S>
            : ToolInput;
type InferType<T, S> = T extends readonly (infer U)[]
  ? InferType<U, S>
  : T extends 'string'
    ? string
    : T extends 'number' | 'integer'
      ? number
      : T extends 'boolean'
        ? boolean
        : T extends 'null'
          ? null
          : T extends 'array'
            ? S extends { readonly items: infer I }
              ? I extends readonly unknown[]
                ? ToolInput[]
                : InferSchema<I>[]
              : ToolInput[]
            : T extends 'object'
              ? InferObject<S>
              : never;
type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
type InferObject<S> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: InferSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: InferSchema<P[K]>;
      }
    >
  : { [key: string]: ToolInput | undefined };
type Flatten<T> = { [K in keyof T]: T[K] };

/** Type-only brand carrying a defined tool's name and input type; never present at run time. */
declare const toolInput: unique symbol;
/** A definition `defineTool` returned for a literal definition: its name and input type. */
export interface TypedToolDefinition<Name extends string = string, Input = ToolInput> extends ToolDefinition {
  readonly name: Name;
  readonly [toolInput]: Input;
}
/** What `checkToolCall` approves for a registry of typed tools: a union discriminated by `tool`. */
export type ApprovedCallFor<T> = T extends TypedToolDefinition<infer N, infer I>
  ? { callId: string; tool: N; input: I; permissions: Permission[] }
  : ApprovedCall;
/** The literal definitions `defineTool` infers from. */
export interface LiteralToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
  readonly permissions?: readonly Permission[];
  readonly permission?: Permission;
  readonly outputSchema?: object;
  readonly version?: string;
  readonly resources?: { readonly [uri: string]: object | boolean };
  readonly names?: NameRule;
  readonly formats?: FormatMode;
}

/** Size limits every operation takes. */
export interface LimitOptions {
  /** Text: bytes of the text. Values: measured size of what is read. Default 4 MiB. */
  maxBytes?: number;
  /** Nesting depth; the root object is depth 1. Default 128, at most 512. */
  maxDepth?: number;
  /** UTF-8 bytes of one string or member name (after unescaping). Default 1 MiB. */
  maxStringBytes?: number;
  /** Elements of one array. Default 65536. */
  maxArrayLength?: number;
  /** Members of one object. Default 65536. */
  maxObjectMembers?: number;
}

export interface Options extends LimitOptions {
  /** Unknown fields are an error instead of being dropped. */
  strict?: boolean;
}

/** Options of `defineTool`, `defineToolJson` and `createRegistry`: the catalog options, kept in
 *  each definition (`names`, `formats`) so the tool read again follows them. */
export interface ToolOptions extends Options {
  /** Whose name rule the names follow (see `NameRule`). */
  names?: NameRule;
  /** Whether `format` is asserted (see `FormatMode`). */
  formats?: FormatMode;
}

/** Options of `validateToolInput*`: `names` reads a plain definition from a catalog (a definition
 *  naming its own rule must agree); `formats` is the tool's, not the call's. */
export interface ToolReadOptions extends Options {
  names?: NameRule;
}

/** Options of `parseDecision` / `parseDecisionJson` (decisions are always closed: no `strict`). */
export interface DecisionOptions extends LimitOptions {
  /** Most calls in a tool decision. Default 4, at most 256. */
  maxCalls?: number;
}

/** A model's decision: call tools, or give the final answer (never both). */
export interface ToolCall {
  callId: string;
  name: string;
  arguments: { [key: string]: JsonValue };
}
export interface ToolDecision {
  kind: 'tool';
  /** 1 to `maxCalls` calls with distinct `callId`s, in the order given. */
  calls: ToolCall[];
}
export interface FinalDecision {
  kind: 'final';
  answer: string;
}
export type Decision = ToolDecision | FinalDecision;

export type Layer =
  | 'parse'
  | 'protocol'
  | 'contract'
  | 'transport'
  | 'stream'
  | 'schema'
  | 'domain'
  // ACP prompt admission and lifecycle:
  | 'admission';
export type ErrorCode =
  | 'JSON_INVALID'
  | 'JSON_TRAILING_CONTENT'
  | 'JSON_DUPLICATE_KEY'
  | 'STRING_LONE_SURROGATE'
  | 'VALUE_NOT_JSON'
  | 'VALUE_CYCLE'
  | 'INPUT_TOO_LARGE'
  | 'INPUT_TOO_DEEP'
  | 'ACTION_NOT_OBJECT'
  | 'ACTION_TYPE_UNKNOWN'
  | 'ACTION_INPUT_MISSING'
  | 'ACTION_FIELD_UNKNOWN'
  | 'ACTION_VERSION_UNSUPPORTED'
  | 'FIELD_MISSING'
  | 'FIELD_UNDEFINED'
  | 'FIELD_TYPE'
  | 'FIELD_EMPTY'
  | 'TOOL_NOT_OBJECT'
  | 'TOOL_NAME_INVALID'
  | 'TOOL_DESCRIPTION_EMPTY'
  | 'TOOL_SCHEMA_NOT_OBJECT'
  | 'TOOL_PERMISSION_UNKNOWN'
  | 'TOOL_PERMISSION_DUPLICATE'
  | 'TOOL_PERMISSION_CONFLICT'
  | 'TOOL_VERSION_INVALID'
  | 'TOOL_FIELD_UNKNOWN'
  | 'OPTION_INVALID'
  | 'DECISION_NOT_OBJECT'
  | 'DECISION_KIND_UNKNOWN'
  | 'DECISION_FIELD_UNKNOWN'
  | 'DECISION_TOO_MANY_CALLS'
  | 'DUPLICATE_CALL_ID'
  | 'AMBIGUOUS_DECISION'
  | 'TOOL_SCHEMA_INVALID'
  | 'TOOL_SCHEMA_UNSUPPORTED'
  | 'TOOL_SCHEMA_ROOT_NOT_OBJECT'
  | 'SCHEMA_TARGET_UNSUPPORTED'
  | 'SCHEMA_MISMATCH'
  | 'TOOL_DUPLICATE'
  | 'REGISTRY_INVALID'
  | 'POLICY_INVALID'
  | 'ACTION_NOT_TOOL_CALL'
  | 'UNKNOWN_TOOL'
  | 'POLICY_DENIED'
  | 'APPROVAL_REQUIRED'
  | 'NON_MONOTONIC_SEQUENCE'
  | 'UNKNOWN_STREAM_ITEM'
  | 'DUPLICATE_STREAM_ITEM'
  | 'DELTA_AFTER_END'
  | 'TOOL_NAME_CHANGED'
  | 'ARGUMENTS_TOO_LARGE'
  | 'INCOMPLETE_TOOL_CALL'
  | 'INCOMPLETE_RESPONSE'
  | 'EVENT_AFTER_FINISH'
  | 'STREAM_EVENT_INVALID'
  | 'PROVIDER_UNKNOWN'
  | 'CALL_TYPE_UNSUPPORTED'
  // Messages and sessions (seed 004)
  | 'FIELD_UNKNOWN'
  | 'FIELD_VALUE_INVALID'
  | 'MESSAGE_ROLE_UNKNOWN'
  | 'CONTENT_TYPE_UNKNOWN'
  | 'ENTRY_TYPE_UNKNOWN'
  | 'SESSION_LINE_BLANK'
  | 'SESSION_HEADER_MISSING'
  | 'SESSION_HEADER_MISPLACED'
  | 'SESSION_VERSION_UNSUPPORTED'
  | 'ENTRY_ID_DUPLICATE'
  | 'ENTRY_PARENT_MISSING'
  | 'COMPACTION_TARGET_INVALID'
  | 'TOOL_RESULT_UNMATCHED'
  | 'TOOL_RESULT_DUPLICATE'
  | 'TOOL_RESULT_NAME_MISMATCH'
  | 'SESSION_ENTRY_UNKNOWN'
  // ACP prompt admission and lifecycle:
  | 'CAPABILITY_NOT_ADVERTISED'
  | 'MEDIA_TYPE_NOT_ALLOWED'
  | 'BASE64_NOT_CANONICAL'
  | 'MEDIA_TYPE_MISMATCH'
  | 'PROMPT_EMPTY'
  | 'PROMPT_IN_FLIGHT'
  | 'PROMPT_CANCELLED'
  | 'PROMPT_STATE_INVALID'
  | 'PROMPT_NOT_QUIESCENT'
  // JSON-RPC over NDJSON (classifyJsonRpc, the NDJSON decoder, RPC sessions)
  | 'RPC_PARSE_ERROR'
  | 'RPC_INVALID_REQUEST'
  | 'RPC_INVALID_RESPONSE'
  | 'RPC_MESSAGE_TOO_LARGE'
  | 'RPC_BLANK_LINE'
  | 'RPC_ID_IN_FLIGHT'
  | 'RPC_UNKNOWN_ID'
  | 'RPC_ALREADY_ANSWERED'
  | 'RPC_REPLY_TO_NOTIFICATION'
  | 'RPC_TOO_MANY_IN_FLIGHT'
  // Shared schema documents
  | 'TOOL_RESOURCE_INVALID'
  | 'TOOL_RESOURCE_UNBUNDLABLE'
  // Agent events and the session response:
  | 'EVENT_TYPE_UNKNOWN'
  | 'EVENT_SEQUENCE_INVALID'
  | 'EVENT_MESSAGE_UNKNOWN'
  // Compiled tools
  | 'TOOL_HANDLE_FREED'
  // A stateful object used after free(), or (Python) from another thread
  | 'OBJECT_FREED'
  | 'OBJECT_OTHER_THREAD'
  | 'OBJECT_IN_USE'
  | 'ROW_FIELD_INVALID'
  | 'ROW_FIELD_UNKNOWN'
  | 'ROW_ROLE_UNKNOWN'
  | 'ROW_CONTENT_INVALID'
  | 'ROW_WEIGHT_INVALID'
  | 'ROW_LEGACY_FUNCTIONS'
  | 'ROW_TOOL_NAME_INVALID'
  | 'ROW_TOOL_DUPLICATE'
  | 'ROW_TOOL_SCHEMA_INVALID'
  | 'ROW_TOOL_UNKNOWN'
  | 'ROW_ARGUMENTS_INVALID'
  | 'ROW_ARGUMENTS_MISMATCH'
  | 'ROW_CALL_ID_DUPLICATE'
  | 'ROW_TOOL_RESULT_UNMATCHED'
  | 'ROW_CALL_UNANSWERED'
  | 'ROW_PARALLEL_CALLS'
  | 'ROW_LINE_BLANK';

export interface Position {
  /** Byte offset in the UTF-8 text, from 0. */
  offset: number;
  line: number;
  /** In bytes, from 1. */
  column: number;
}

export class ContractError extends Error {
  readonly name: 'ContractError';
  readonly layer: Layer;
  readonly code: ErrorCode;
  /** JSON Pointer of the offending value; "" for the root. */
  readonly path: string;
  readonly retryable: boolean;
  readonly position?: Position;
  /** `SCHEMA_MISMATCH`: every failure of the input against the tool's `inputSchema`. */
  readonly issues?: SchemaIssue[];
  /** `UNKNOWN_TOOL`: the registered names closest to the unknown one (at most 20). */
  readonly availableTools?: string[];
  /** `APPROVAL_REQUIRED`: the `request_approval` action to put to a human. */
  readonly proposal?: RequestApprovalAction;
  /** `SCHEMA_MISMATCH`: `issues` holds the first `maxIssues` only (more were found). */
  readonly truncated?: boolean;
}

export interface SchemaIssue {
  /** JSON Pointer into the input; for `required`, the missing property's pointer. */
  path: string;
  /** The JSON Schema keyword that failed: `type`, `required`, `additionalProperties`, ... */
  keyword: string;
  message: string;
}

export type SafeResult<T> = { ok: true; value: T } | { ok: false; error: ContractError };

export type ActionPreview =
  | {
      ok: true;
      type: AgentAction['type'];
      callId?: string;
      tool?: string;
      requestId?: string;
      capability?: string;
      /** Own field names of the action. */
      fields: string[];
      /** Tool input with secrets replaced by "[REDACTED]" and long strings cut. */
      input?: ToolInput;
    }
  | { ok: false; code: ErrorCode; path: string };

/** JSON text: a string, or UTF-8 bytes. */
export type JsonText = string | Uint8Array;

export function parseAgentAction(value: unknown, options?: Options): AgentAction;
export function safeParseAgentAction(value: unknown, options?: Options): SafeResult<AgentAction>;
export function parseAgentActionJson(text: JsonText, options?: Options): AgentAction;
export function safeParseAgentActionJson(text: JsonText, options?: Options): SafeResult<AgentAction>;
/** One verdict per element, in one call. */
export function parseAgentActions(list: unknown, options?: Options): SafeResult<AgentAction>[];
/** JSON Lines: one verdict per line. */
export function parseAgentActionsJsonl(text: JsonText, options?: Options): SafeResult<AgentAction>[];
/** Never throws for bad input: returns `{ok: false, code, path}`. */
export function previewAction(value: unknown, options?: Options): ActionPreview;
/** What `defineTool` / `defineToolJson` return: the deep-frozen definition, plain
 *  data (its own enumerable keys are the definition's fields), whose compiled input schema lives
 *  in the wasm instance. `validateToolInput*` given this very object validate without sending the
 *  definition again. `free()` (also `[Symbol.dispose]`, for `using`) releases the compiled schema
 *  now; after it, validating with the object throws `TOOL_HANDLE_FREED`, while reading it as data
 *  (registries, projections) keeps working. Garbage collection frees it too. */
export interface CompiledTool {
  free(): void;
}
/** A literal definition gives a typed tool: `validateToolInput` and `checkToolCall` return its input type. */
export function defineTool<const D extends LiteralToolDefinition>(
  definition: D,
  options?: ToolOptions,
): TypedToolDefinition<D['name'], InferSchema<D['inputSchema']>> & CompiledTool;
export function defineTool(definition: unknown, options?: ToolOptions): ToolDefinition & CompiledTool;
export function safeDefineTool<const D extends LiteralToolDefinition>(
  definition: D,
  options?: ToolOptions,
): SafeResult<TypedToolDefinition<D['name'], InferSchema<D['inputSchema']>> & CompiledTool>;
export function safeDefineTool(definition: unknown, options?: ToolOptions): SafeResult<ToolDefinition & CompiledTool>;
export function defineToolJson(text: JsonText, options?: ToolOptions): ToolDefinition & CompiledTool;
export function safeDefineToolJson(text: JsonText, options?: ToolOptions): SafeResult<ToolDefinition & CompiledTool>;
/** Strict JSON text (RFC 8259 + I-JSON) to its value; the limits are the only options. */
export function parseJson(text: JsonText, options?: LimitOptions): JsonValue;
export function safeParseJson(text: JsonText, options?: LimitOptions): SafeResult<JsonValue>;
export function parseDecision(value: unknown, options?: DecisionOptions): Decision;
export function safeParseDecision(value: unknown, options?: DecisionOptions): SafeResult<Decision>;
export function parseDecisionJson(text: JsonText, options?: DecisionOptions): Decision;
export function safeParseDecisionJson(text: JsonText, options?: DecisionOptions): SafeResult<Decision>;
/** The input (a copy) when it satisfies `tool.inputSchema`; else throws `SCHEMA_MISMATCH` with `issues`.
 *  `tool` is a definition as `defineTool` returned it (it is checked again; its compiled schema is cached). */
export function validateToolInput<I>(tool: TypedToolDefinition<string, I>, input: unknown, options?: ToolReadOptions): I;
export function validateToolInput(tool: ToolDefinition | ToolDefinitionInput, input: unknown, options?: ToolReadOptions): ToolInput;
export function safeValidateToolInput<I>(tool: TypedToolDefinition<string, I>, input: unknown, options?: ToolReadOptions): SafeResult<I>;
export function safeValidateToolInput(tool: ToolDefinition | ToolDefinitionInput, input: unknown, options?: ToolReadOptions): SafeResult<ToolInput>;
export function validateToolInputJson(tool: ToolDefinition | ToolDefinitionInput, text: JsonText, options?: ToolReadOptions): JsonValue;
export function safeValidateToolInputJson(tool: ToolDefinition | ToolDefinitionInput, text: JsonText, options?: ToolReadOptions): SafeResult<JsonValue>;
/** A registry: the plain, deep-frozen value `createRegistry` returns; every operation reads it again. */
export interface Registry<T extends ToolDefinition = ToolDefinition> {
  readonly tools: readonly T[];
}
export type PolicyEffect = 'allow' | 'ask' | 'deny';
export type PolicyRule =
  | { readonly effect: PolicyEffect; readonly tool: string }
  | { readonly effect: PolicyEffect; readonly permission: Permission };
/** Rules by tool name (most specific) or by permission; anything unmatched is denied. */
export interface Policy {
  readonly rules: readonly PolicyRule[];
}
/** What `checkToolCall` returns: a call the policy allows, to hand to an executor. */
export interface ApprovedCall {
  callId: string;
  tool: string;
  input: ToolInput;
  permissions: Permission[];
}
export type ToolResult =
  | { ok: true; data: JsonValue }
  | { ok: false; code: string; message: string; retryable: boolean };
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectSchema; strict: boolean };
}
/** An OpenAI Responses API `FunctionTool`: the Chat Completions function, flattened. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ObjectSchema;
  strict: boolean;
}
/** Gemini `FunctionDeclaration`: the input schema as `parametersJsonSchema`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: ObjectSchema;
}
/** Gemini's `tools`: one `Tool` holding every declaration. */
export type GeminiTools = [{ functionDeclarations: GeminiFunctionDeclaration[] }];
/** A projected input (or MCP output) schema: always an object schema with `type: "object"` at its root. */
export type ObjectSchema = { type: 'object'; [key: string]: JsonValue };
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectSchema;
}
export interface McpTool {
  name: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema?: ObjectSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}
/** Defines every tool and refuses duplicate names (`TOOL_DUPLICATE`); sorted by name. */
/**
 * A list of tools, or `{tools, resources}`: schema documents the tools share (each tool takes
 * those its schemas reference, closed over references between documents; its own win).
 */
/** Typed tools give a typed registry: `checkToolCall` returns a call whose `input` has the tool's type. */
export function createRegistry<T extends TypedToolDefinition<string, unknown>>(tools: readonly T[], options?: ToolOptions): Registry<T>;
export function createRegistry(
  tools:
    | readonly (ToolDefinition | ToolDefinitionInput)[]
    | { readonly tools: readonly (ToolDefinition | ToolDefinitionInput)[]; readonly resources?: { readonly [uri: string]: { readonly [key: string]: JsonValue } | boolean } },
  options?: ToolOptions,
): Registry;
export function safeCreateRegistry(tools: Parameters<typeof createRegistry>[0], options?: ToolOptions): SafeResult<Registry>;
/** The registry's definitions sorted by name, deep-frozen: identical on every host. */
export function catalog(registry: Registry): readonly ToolDefinition[];
/** Checks a policy (`POLICY_INVALID`) and returns it normalised. */
export function definePolicy(policy: unknown): Policy;
export function safeDefinePolicy(policy: unknown): SafeResult<Policy>;
/** protocol → UNKNOWN_TOOL → SCHEMA_MISMATCH → POLICY_DENIED / APPROVAL_REQUIRED → the approved call. `call`: an action, a decision or assembled call, an OpenAI Chat / Responses, Anthropic, Gemini or MCP tools/call call object. Executes nothing. */
export function checkToolCall<T extends ToolDefinition>(registry: Registry<T>, call: unknown, policy: Policy | unknown, options?: Options): ApprovedCallFor<T>;
export function safeCheckToolCall<T extends ToolDefinition>(registry: Registry<T>, call: unknown, policy: Policy | unknown, options?: Options): SafeResult<ApprovedCallFor<T>>;
export function toOpenAITools(registry: Registry): OpenAITool[];
export function toOpenAIResponsesTools(registry: Registry): OpenAIResponsesTool[];
export function toAnthropicTools(registry: Registry): AnthropicTool[];
export function toMcpTools(registry: Registry): McpTool[];
/** Always a ToolResult (anything else becomes `{ok: false, code, ...}`); throws only for an invalid tool or options. */
export function normalizeToolResult(tool: ToolDefinition | ToolDefinitionInput, value: unknown, options?: LimitOptions): ToolResult;
/** Why OpenAI strict mode would reject `schema`; empty when it would accept it. Never mutates. */
export function strictSchemaIssues(schema: JsonObject): SchemaIssue[];
/** Gemini's `tools` for a registry: `[{functionDeclarations: [{name, description, parametersJsonSchema}]}]`. */
export function toGeminiTools(registry: Registry): GeminiTools;
/** Why a schema could not be Gemini's OpenAPI-subset `parameters` (empty: it could). */
export function geminiSchemaIssues(schema: JsonObject): SchemaIssue[];
/** A Standard Schema v1 issue, with our error code. */
export interface StandardToolIssue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
  readonly code: ErrorCode;
}
/**
 * Standard Schema v1 (with the Standard JSON Schema extension) over a tool's input: any
 * Standard Schema consumer (the Vercel AI SDK's `tool({inputSchema})`...) validates with
 * `validateToolInput` and reads the JSON Schema clients get. `jsonSchema.input({target})` is
 * `standardJsonSchema`: converted to `draft-07` where every keyword has a faithful form there,
 * else the schema in its own draft with its `$schema`; it throws `SCHEMA_TARGET_UNSUPPORTED`
 * only for a target it does not give (`openapi-3.0`, another name).
 */
export interface StandardToolSchema<Input = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'agent-contract';
    validate(value: unknown): { readonly value: Input } | { readonly issues: readonly StandardToolIssue[] };
    readonly jsonSchema: {
      input(options: { readonly target: string }): JsonObject;
      output(options: { readonly target: string }): JsonObject;
    };
    readonly types?: { readonly input: Input; readonly output: Input };
  };
}
/** A tool `defineTool` typed from a literal definition carries its input type. */
export function toStandardSchema<Input>(tool: TypedToolDefinition<string, Input>): StandardToolSchema<Input>;
export function toStandardSchema<Input = ToolInput>(tool: ToolDefinition | ToolDefinitionInput): StandardToolSchema<Input>;
/**
 * `schema` for a JSON Schema draft: its own (as it is) or `"draft-07"` (from 2020-12 or 2019-09:
 * `prefixItems` → array `items` + `additionalItems`, `$defs` → `definitions`,
 * `dependentRequired` / `dependentSchemas` → `dependencies`, a `$ref` beside assertions → inside
 * `allOf`, `$ref` pointers following). Throws `SCHEMA_TARGET_UNSUPPORTED` at the first keyword
 * with no faithful form there, or at `""` for a target it does not give.
 */
export function jsonSchemaForTarget(schema: JsonObject, target: string): JsonObject;
/** As `jsonSchemaForTarget`, but a schema with a keyword the target cannot hold comes in its own draft, with its `$schema`; throws only for a target it does not give. */
export function standardJsonSchema(schema: JsonObject, target: string): JsonObject;
export type ContractChange = 'identical' | 'compatible' | 'breaking';
export interface ContractReport {
  change: ContractChange;
  /** Each reason with a JSON Pointer into the definition. */
  reasons: { path: string; change: 'compatible' | 'breaking'; message: string }[];
  /** The semver bump the change needs and the one made (`unknown` when a version is missing). */
  bump: { required: 'none' | 'minor' | 'major'; actual: 'none' | 'prerelease' | 'patch' | 'minor' | 'major' | 'downgrade' | 'unknown'; ok: boolean };
}
export interface CatalogDiff {
  change: ContractChange;
  tools: ({ name: string; change: 'added' | 'removed' } | ({ name: string } & ContractReport))[];
  addedPermissions: { tool: string; permission: Permission }[];
}
/** How one tool's contract changed: identical, compatible or breaking, with reasons and the semver check. */
export function compareContracts(oldTool: ToolDefinition | ToolDefinitionInput, newTool: ToolDefinition | ToolDefinitionInput): ContractReport;
/** Registries (or catalogs) compared tool by tool; flags permissions newly requested. */
export function diffCatalogs(oldCatalog: Registry | readonly ToolDefinition[], newCatalog: Registry | readonly ToolDefinition[]): CatalogDiff;

/** A tools/list answer as tool definitions: `tools` for `createRegistry({tools})` (permissions
 * from each tool's annotations), `at` the pointer of the list in the answer. */
export function mcpToolDefinitions(listToolsResult: unknown): { tools: unknown; at: '' | '/tools' };
/** A tools/call result as the core copied it. */
export interface McpToolResult {
  content?: JsonValue[];
  structuredContent?: { [key: string]: JsonValue };
  isError?: boolean;
  [key: string]: JsonValue | undefined;
}
/** Checks a tools/call result's structuredContent (and its text mirror) against the tool. */
export function checkMcpToolResult(tool: ToolDefinition | { readonly outputSchema?: unknown }, result: unknown, options?: LimitOptions): McpToolResult;

/** Stream assembly: one normalized event (see docs/semantics.md). `sequence` strictly increases. */
export type StreamEvent =
  | { type: 'start'; sequence: number; itemId: string; callId: string; name: string }
  | { type: 'delta'; sequence: number; itemId: string; text: string; name?: string }
  | { type: 'end'; sequence: number; itemId: string }
  | { type: 'finish'; sequence: number; reason: FinishReason }
  | { type: 'cancel'; sequence?: number };

/** The closed set of finish reasons; only `stop` and `tool_calls` let calls execute. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'cancelled' | 'error' | 'unknown';

/** Options of `createAssembler`: byte limits plus the per-value limits for parsing arguments. */
export interface AssemblerOptions {
  /** UTF-8 bytes of one call's arguments text. Default 4 MiB. */
  maxArgumentsBytes?: number;
  /** UTF-8 bytes of all argument texts, ids and names of one response. Default 16 MiB. */
  maxResponseBytes?: number;
  maxDepth?: number;
  maxStringBytes?: number;
  maxArrayLength?: number;
  maxObjectMembers?: number;
}

/** The normalized response: every call ended and the response finished normally. */
export interface AssembledResponse {
  finishReason: 'stop' | 'tool_calls';
  calls: ToolCall[];
}

/** What has arrived so far; never executable. */
export interface AssemblerPreview {
  executable: false;
  finishReason: FinishReason | null;
  calls: { callId: string; name: string; argumentsText: string; complete: boolean }[];
}

export interface Assembler {
  /** Applies one event; throws the ContractError that ends the stream (later calls throw it again). */
  push(event: StreamEvent): void;
  preview(): AssemblerPreview;
  finish(): AssembledResponse;
  /** Frees the wasm memory now (garbage collection also frees it). */
  free(): void;
}

export function createAssembler(options?: AssemblerOptions): Assembler;

/** The providers whose raw streams the core reads (rules in docs/semantics.md). */
export type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** The normalized response of a provider stream, with the provider's response id. */
export interface ProviderResponse extends AssembledResponse {
  responseId: string | null;
}

/** One provider event: the parsed payload of one SSE event, or its JSON text (OpenAI's `"[DONE]"` too). */
export type ProviderEvent = string | Readonly<Record<string, unknown>>;

/** Raw Server-Sent Events as received: text or bytes, split anywhere. */
export type SseChunk = string | Uint8Array;

export interface ProviderAssembler {
  /** Applies one provider event; throws the ContractError that ends the stream (later calls throw it again). */
  push(event: ProviderEvent): void;
  /** Applies raw SSE; an event is applied when its blank line arrives. */
  pushSse(chunk: SseChunk): void;
  preview(): AssemblerPreview & { responseId: string | null };
  /** The normalized response; throws if the stream is not complete (an unterminated last SSE event is dropped). */
  finish(): ProviderResponse;
  /** Frees the wasm memory now (garbage collection also frees it). */
  free(): void;
}

/** An assembler for one response of `provider`; throws PROVIDER_UNKNOWN or OPTION_INVALID at once. */
export function createProviderAssembler(provider: Provider, options?: AssemblerOptions): ProviderAssembler;
/** A whole provider stream: raw SSE (string or bytes) or the list of its events. */
export function assembleProviderStream(provider: Provider, input: SseChunk | readonly ProviderEvent[], options?: AssemblerOptions): ProviderResponse;
export function safeAssembleProviderStream(provider: Provider, input: SseChunk | readonly ProviderEvent[], options?: AssemblerOptions): SafeResult<ProviderResponse>;
/**
 * For `fetch` bodies: `response.body.pipeThrough(providerResponseStream('openai-chat'))` gives a
 * stream of exactly one chunk, the normalized response, or errors with the first ContractError.
 */
export function providerResponseStream(provider: Provider, options?: AssemblerOptions): TransformStream<SseChunk, ProviderResponse>;
/**
 * The current instance's memory (`bytes`); the memory of the instance the last call ran in, read
 * before any renewal (`lastCallBytes`); the most any call left an instance at (`peakBytes`); and
 * how many times the instance was replaced (Node only): after a call that left it over 32 MiB,
 * or before a batch that lacked room for its reply (docs/decisions.md, "The memory bound").
 */
export function memoryReport(): { bytes: number; lastCallBytes: number; peakBytes: number; renewals: number };

// Loading the wasm (bundlers and explicit initialisation): see README "Bundlers and explicit init".
/** What `init` loads the wasm from: its URL (fetched), a Request, a Response or a promise of one, its bytes, or a compiled module. */
export type InitInput = string | URL | Request | Response | PromiseLike<Response> | ArrayBufferLike | ArrayBufferView | WebAssembly.Module;
/** Loads agent_contract_bg.wasm (without `input`: the file next to the package's modules); resolves once the API can be called. Does nothing once loaded. */
export function init(input?: InitInput | { module_or_path: InitInput }): Promise<void>;
/** Loads the wasm synchronously from its bytes or a compiled module. Does nothing once loaded. */
export function initSync(input: ArrayBufferLike | ArrayBufferView | WebAssembly.Module | { module: ArrayBufferLike | ArrayBufferView | WebAssembly.Module }): void;
/** Thrown by every API function while no wasm is loaded (not a ContractError: no verdict was made). */
export class NotInitializedError extends Error {
  readonly name: 'NotInitializedError';
}
// Messages and sessions (seed 004; docs/semantics.md "Messages and sessions")

/** Options of the message and session operations. */
export interface SessionOptions extends LimitOptions {
  /** Unknown fields are FIELD_UNKNOWN instead of being dropped. */
  strict?: boolean;
  /** `"seed"` (default) or `"pi"`: pi-mono's older session format (docs/semantics.md). */
  dialect?: 'seed' | 'pi';
  /** checkSession: most problems listed (`truncated: true` when more were found). Default 100. */
  maxIssues?: number;
}
export interface TextContent { type: 'text'; text: string }
export interface ToolCallContent { type: 'toolCall'; id: string; name: string; arguments: { [key: string]: JsonValue } }
/** `dialect: "pi"` only. */
export interface ThinkingContent { type: 'thinking'; thinking: string; thinkingSignature?: string }
export interface Usage { input: number; output: number; totalTokens: number }
export interface UserMessage { role: 'user'; content: TextContent[]; timestamp: number }
export interface AssistantMessage {
  role: 'assistant';
  content: (TextContent | ToolCallContent)[];
  stopReason: 'stop' | 'toolUse' | 'error' | 'aborted';
  usage: Usage;
  timestamp: number;
  errorMessage?: string;
}
export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: TextContent[];
  details?: JsonValue;
  isError: boolean;
  timestamp: number;
}
export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage;
/** `parseToolResult`: the seed's ToolResult (the tool's local output before it becomes a toolResult message). */
export interface SeedToolResult { content: TextContent[]; details?: JsonValue; terminate?: boolean }
/** The seed's tool definition: `parameters` is the contract's `inputSchema`. */
export interface SeedToolDefinition { name: string; description: string; parameters: { [key: string]: JsonValue } }
export interface SessionHeader { type: 'session'; version: 1; id: string; timestamp: string; cwd: string }
export interface MessageEntry { type: 'message'; id: string; parentId: string | null; timestamp: string; message: AgentMessage }
export interface CompactionEntry {
  type: 'compaction';
  id: string;
  parentId: string | null;
  timestamp: string;
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
}
export type SessionEntry = SessionHeader | MessageEntry | CompactionEntry;
export interface SessionProblem { line: number; code: ErrorCode; path: string; message: string }
export interface SessionReport {
  ok: boolean;
  /** Lines holding a valid entry, the header included. */
  entries: number;
  problems: SessionProblem[];
  /** Ids of the entries without a parent, in file order. */
  roots: string[];
  /** Ids of the entries without children, in file order. */
  leaves: string[];
  truncated?: true;
}
export interface SessionContext { compaction: CompactionEntry | null; messages: AgentMessage[] }
/** A session read whole; each query reads the text again in the core. */
export interface Session {
  readonly header: SessionHeader;
  readonly entries: (MessageEntry | CompactionEntry)[];
  readonly roots: string[];
  leaves(): string[];
  /** The entries from the root to `id`. */
  branch(id: string): (MessageEntry | CompactionEntry)[];
  /** The ids of the entries whose parent is `id`. */
  children(id: string): string[];
  /** What the next model request sees on the branch ending at `leafId`. */
  context(leafId: string): SessionContext;
}
export type SessionQuery = { branch: string } | { children: string } | { context: string };
export function parseAgentMessage(value: unknown, options?: SessionOptions): AgentMessage;
export function safeParseAgentMessage(value: unknown, options?: SessionOptions): SafeResult<AgentMessage>;
export function parseAgentMessageJson(text: JsonText, options?: SessionOptions): AgentMessage;
export function safeParseAgentMessageJson(text: JsonText, options?: SessionOptions): SafeResult<AgentMessage>;
export function parseToolResult(value: unknown, options?: SessionOptions): SeedToolResult;
export function safeParseToolResult(value: unknown, options?: SessionOptions): SafeResult<SeedToolResult>;
export function parseSessionEntry(value: unknown, options?: SessionOptions): SessionEntry;
export function safeParseSessionEntry(value: unknown, options?: SessionOptions): SafeResult<SessionEntry>;
/** Every problem of a JSON Lines session text; throws only for invalid options. */
export function checkSession(text: JsonText, options?: SessionOptions): SessionReport;
/** The session, or its first problem thrown as a ContractError. */
export function readSession(text: JsonText, options?: SessionOptions): Session;
export function safeReadSession(text: JsonText, options?: SessionOptions): SafeResult<Session>;
export function querySession(text: JsonText, query: SessionQuery, options?: SessionOptions): JsonValue;
/** A seed ToolDefinition as a tool contract; the seed has no permissions, so they are required here. */
export function fromSeedTool(definition: SeedToolDefinition, extra: { permissions: readonly Permission[] }, options?: Options): ToolDefinition;
export function toSeedTool(tool: ToolDefinition | ToolDefinitionInput): SeedToolDefinition;
// Dataset rows (docs/reference.md "Dataset rows")

/** Options of the dataset row operations. */
export interface ChatRowOptions extends LimitOptions {
  /** Fields the format does not have are ROW_FIELD_UNKNOWN instead of being ignored. */
  strict?: boolean;
  /** Most problems one row's report lists (`truncated: true` when more were found). Default 100. */
  maxIssues?: number;
}
export interface ChatRowProblem { code: ErrorCode; path: string; message: string }
export interface ChatRowReport {
  ok: boolean;
  problems: ChatRowProblem[];
  /** The row's messages and tool calls (0 when the row could not be read). */
  stats: { messages: number; toolCalls: number };
  truncated?: true;
}
/** A row of a JSON Lines dataset: its report and its 1-based line. */
export interface ChatRowLineReport extends ChatRowReport { line: number }
/** One row of the OpenAI chat fine-tuning format (`{messages, tools?, parallel_tool_calls?}`), as
 *  a value or as its JSON text (a string or bytes); throws only for invalid options. */
export function checkChatRow(row: unknown, options?: ChatRowOptions): ChatRowReport;
/** One report per row of a list (a string element is that row's JSON text); the rows' tool
 *  schemas are compiled once for the whole list. */
export function checkChatRows(rows: readonly unknown[], options?: ChatRowOptions): ChatRowReport[];
/** One report per line of a JSON Lines dataset; a line that is not a row is reported, never
 *  thrown. */
export function checkChatRowsJsonl(text: JsonText, options?: ChatRowOptions): ChatRowLineReport[];
/** The incremental session reader: chunks of a session text in, problems out, the report at the end. */
export interface SessionChecker {
  /** Feeds a chunk (cut anywhere); returns the problems of the lines it completed. */
  push(chunk: JsonText): SessionProblem[];
  /** The report of the whole text, equal to checkSession's. */
  finish(): SessionReport;
  /** Frees the wasm memory now (optional: garbage collection frees it too). */
  free(): void;
}
/** Throws OPTION_INVALID at once. */
export function createSessionChecker(options?: SessionOptions): SessionChecker;

// Agent events and the session response (seed 004 §AgentEvent): a union on `type`.
export interface AgentStartEvent { type: 'agent_start' }
export interface AgentEndEvent { type: 'agent_end'; messages: AgentMessage[] }
export interface TurnStartEvent { type: 'turn_start'; turn: number }
export interface TurnEndEvent { type: 'turn_end'; turn: number; message: AssistantMessage; toolResults: ToolResultMessage[] }
export interface MessageStartEvent { type: 'message_start'; message: AgentMessage }
export interface MessageUpdateEvent { type: 'message_update'; message: AssistantMessage; delta: string }
export interface MessageEndEvent { type: 'message_end'; message: AgentMessage }
export interface ToolExecutionStartEvent { type: 'tool_execution_start'; toolCallId: string; toolName: string; args: { [key: string]: JsonValue } }
export interface ToolExecutionEndEvent { type: 'tool_execution_end'; toolCallId: string; toolName: string; result: SeedToolResult; isError: boolean }
export interface CompactionEvent { type: 'compaction'; summary: string; tokensBefore: number; firstKeptEntryId: string }
export type AgentEvent =
  | AgentStartEvent
  | AgentEndEvent
  | TurnStartEvent
  | TurnEndEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | ToolExecutionStartEvent
  | ToolExecutionEndEvent
  | CompactionEvent;
/** The seed's SessionResponse. */
export interface SessionResponse {
  sessionId: string;
  messages: AgentMessage[];
  events: AgentEvent[];
  tools: SeedToolDefinition[];
  entries: SessionEntry[];
}
/** One event with its known fields. */
export function parseAgentEvent(value: unknown, options?: SessionOptions): AgentEvent;
export function safeParseAgentEvent(value: unknown, options?: SessionOptions): SafeResult<AgentEvent>;
/** One run's events in order (agent_start ... agent_end); throws the first offending event (EVENT_SEQUENCE_INVALID at `/<index>`). */
export function checkEventSequence(events: unknown, options?: SessionOptions): AgentEvent[];
export function safeCheckEventSequence(events: unknown, options?: SessionOptions): SafeResult<AgentEvent[]>;
/** The response, its events a projection of its messages; throws the first problem. */
export function checkSessionResponse(value: unknown, options?: SessionOptions): SessionResponse;
export function safeCheckSessionResponse(value: unknown, options?: SessionOptions): SafeResult<SessionResponse>;

// The protocol as JSON Schema.
/** JSON Schema (draft 2020-12) of the protocol as the parsers read it by default; `strict`: the
 *  action and the decision in the form OpenAI structured outputs accept (every field required,
 *  the unused ones null). What a schema cannot say is listed in docs/semantics.md. */
export interface ProtocolSchemas {
  action: { [key: string]: JsonValue };
  decision: { [key: string]: JsonValue };
  message: { [key: string]: JsonValue };
  sessionEntry: { [key: string]: JsonValue };
  event: { [key: string]: JsonValue };
  strict: { action: { [key: string]: JsonValue }; decision: { [key: string]: JsonValue } };
}
export function protocolSchemas(): ProtocolSchemas;

// Compiled tools
/** Many inputs for one tool in one call: one outcome per input, in order (as `parseAgentActions`).
 *  Throws only for the tool, the options, or a list that is not a list of at most `maxArrayLength`. */
export function validateToolInputs<I>(tool: TypedToolDefinition<string, I>, inputs: readonly unknown[], options?: ToolReadOptions): SafeResult<I>[];
export function validateToolInputs(tool: ToolDefinition | ToolDefinitionInput, inputs: readonly unknown[], options?: ToolReadOptions): SafeResult<ToolInput>[];

// ACP prompt admission and lifecycle:
/** The `promptCapabilities` an agent advertised at `initialize` (absent or null: false). */
export interface PromptCapabilities {
  image?: boolean | null;
  audio?: boolean | null;
  embeddedContext?: boolean | null;
  [key: string]: unknown;
}
export type AdmissibleImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
/** Limits of `admitPrompt` (decoded bytes; text in UTF-8 bytes); `mimeTypes` may only narrow the allowlist. */
export interface AdmissionOptions {
  /** Default 20 MiB. */
  maxImageBytes?: number;
  /** Default 20. */
  maxImages?: number;
  /** Default 32 MiB. */
  maxTotalImageBytes?: number;
  /** Audio blocks and blob resources together; default 32 MiB. */
  maxAttachmentBytes?: number;
  /** The prompt's text and any other string read; default 4 MiB. */
  maxTextBytes?: number;
  mimeTypes?: readonly AdmissibleImageType[];
}
/** A decoded payload of an admitted prompt, content-addressed by `sha256` (lowercase hex). */
export interface AdmittedMedia {
  /** The block's index in `prompt`. */
  index: number;
  mimeType: string;
  byteLength: number;
  sha256: string;
  bytes: Uint8Array;
}
export interface AdmittedImage extends AdmittedMedia {
  mimeType: AdmissibleImageType;
}
export type AdmittedResource =
  | { index: number; uri: string; mimeType: string | null; text: string }
  | { index: number; uri: string; mimeType: string | null; byteLength: number; sha256: string; bytes: Uint8Array };
/** The admission plan: nothing is written yet; the host writes the payloads after this returned. */
export interface AdmissionPlan {
  sessionId: string;
  /** Runs of consecutive text and resource-link blocks (a link as `[@name](uri)`), joined by a blank line. */
  text: string;
  images: AdmittedImage[];
  audio: AdmittedMedia[];
  resources: AdmittedResource[];
}
/** The pure first pass of an ACP `session/prompt` (its params `{sessionId, prompt}`). */
export function admitPrompt(request: unknown, capabilities: PromptCapabilities | null | undefined, options?: AdmissionOptions): AdmissionPlan;
export function safeAdmitPrompt(request: unknown, capabilities: PromptCapabilities | null | undefined, options?: AdmissionOptions): SafeResult<AdmissionPlan>;
/** Canonical RFC 4648 base64 (standard alphabet, padding, zero pad bits, nothing else); false for a non-string. */
export function isCanonicalBase64(text: unknown): boolean;
/** The media type whose WHATWG MIME Sniffing signature the bytes start with, or null. */
export function sniffMediaType(bytes: Uint8Array): string | null;
/** Facts behind `promptCapabilities`; anything missing or not known true counts as false. */
export interface PromptCapabilityFacts {
  attachmentStore?: boolean | null;
  providerResolved?: boolean | null;
  modelResolved?: boolean | null;
  inputModalities?: readonly string[] | null;
  storeMimeTypes?: readonly string[] | null;
  embeddedContext?: boolean | null;
}
export function advertisePromptCapabilities(facts: PromptCapabilityFacts | null | undefined): { image: boolean; audio: boolean; embeddedContext: boolean };
export type AgentStopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal';
export type StopReason = AgentStopReason | 'cancelled';
/** One session's prompt lifecycle: the cancel fence and settlement after quiescence. */
export interface PromptLifecycle {
  admitted(): void;
  written(): void;
  /** Throws PROMPT_CANCELLED after cancel(): no late user message is ever queued. */
  enqueue(): void;
  /** Whether the agent must be cancelled. */
  cancel(): boolean;
  agentIdle(): void;
  outputDelivered(): void;
  settle(reason?: AgentStopReason): StopReason;
  abandon(): void;
  free(): void;
}
export function createPromptLifecycle(): PromptLifecycle;

// JSON-RPC 2.0 over NDJSON (docs/semantics.md "JSON-RPC over NDJSON").

export type JsonRpcId = string | number | null;
export type JsonRpcKind =
  | 'request'
  | 'notification'
  | 'response'
  | 'error_response'
  | 'invalid_request'
  | 'invalid_response'
  | 'parse_error'
  | 'batch';
export type RpcCode =
  | 'RPC_PARSE_ERROR'
  | 'RPC_INVALID_REQUEST'
  | 'RPC_INVALID_RESPONSE'
  | 'RPC_MESSAGE_TOO_LARGE'
  | 'RPC_BLANK_LINE'
  | 'RPC_ID_IN_FLIGHT'
  | 'RPC_UNKNOWN_ID'
  | 'RPC_ALREADY_ANSWERED'
  | 'RPC_REPLY_TO_NOTIFICATION'
  | 'RPC_TOO_MANY_IN_FLIGHT';
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}
export interface JsonRpcClassification {
  kind: JsonRpcKind;
  /** The message's id when it has one of a valid type. */
  id?: JsonRpcId;
  method?: string;
  /** What the envelope demands be sent back: an error reply, a batch's error replies (the same objects as its items' `reply`), or null. */
  reply: JsonRpcErrorReply | JsonRpcErrorReply[] | null;
  /** Set for invalid_request, invalid_response, parse_error. */
  code?: RpcCode;
  path?: string;
  reason?: string;
  /** A batch: each element's classification. */
  items?: JsonRpcClassification[];
}
export interface JsonRpcOptions {
  /** Default true. */
  allowNullId?: boolean;
  /** "mcp": ids are strings or integers, never null; no batches. Default "jsonrpc". */
  profile?: 'jsonrpc' | 'mcp';
  /** Default 16 MiB. */
  maxBytes?: number;
  maxDepth?: number;
  /** Most elements of a batch; a longer one is one -32600 (`RPC_MESSAGE_TOO_LARGE`) for the whole batch. Default 1024. */
  maxBatchLength?: number;
}
export interface NdjsonOptions {
  allowNullId?: boolean;
  profile?: 'jsonrpc' | 'mcp';
  /** Most bytes of one line (its line end excluded); default 16 MiB. */
  maxLineBytes?: number;
  maxDepth?: number;
  /** "ignore" (default): a malformed line is `ignored` with its reason; "reply": it carries -32700 / -32600. */
  onMalformed?: 'ignore' | 'reply';
  /** Most elements of a batch; a longer one is one -32600 (`RPC_MESSAGE_TOO_LARGE`) for the whole batch. Default 1024. */
  maxBatchLength?: number;
}
export interface NdjsonFrame extends JsonRpcClassification {
  /** The line without its line end (invalid UTF-8 shown as U+FFFD; "" for an over-long line). */
  text: string;
  /** 1-based. */
  line: number;
  /** Byte offset of the line's first byte in the stream. */
  offset: number;
  ignored: boolean;
  /** The parsed message when the frame is not ignored. */
  message?: unknown;
}
export interface NdjsonDecoder {
  push(chunk: JsonText): NdjsonFrame[];
  end(): NdjsonFrame[];
  bufferedBytes(): number;
  free(): void;
}
export interface StdoutPurityProblem {
  line: number;
  offset: number;
  code: RpcCode;
  reason: string;
}
export interface StdoutPurity {
  pure: boolean;
  frames: number;
  problemCount: number;
  /** The first 1000 problems. */
  problems: StdoutPurityProblem[];
  truncated: boolean;
}
export interface RpcSessionProblem {
  code: RpcCode;
  path: string;
  id?: JsonRpcId;
  message: string;
}
export interface RpcObservation extends JsonRpcClassification {
  problems: RpcSessionProblem[];
}
export interface RpcSession {
  incoming(message: unknown): RpcObservation;
  outgoing(message: unknown): RpcObservation;
  free(): void;
}
export function classifyJsonRpc(value: unknown, options?: JsonRpcOptions): JsonRpcClassification;
export function classifyJsonRpcJson(text: JsonText, options?: JsonRpcOptions): JsonRpcClassification;
export function methodNotFound(request: unknown): JsonRpcErrorReply | null;
export function internalError(request: unknown, error: unknown): JsonRpcErrorReply | null;
export function invalidParams(request: unknown, contractError: ContractError | { code: string; path: string }): JsonRpcErrorReply | null;
export function createNdjsonDecoder(options?: NdjsonOptions): NdjsonDecoder;
export function ndjsonFrames(chunks: Iterable<JsonText>, options?: NdjsonOptions): Generator<NdjsonFrame, void, undefined>;
export function ndjsonFramesAsync(
  chunks: Iterable<JsonText> | AsyncIterable<JsonText>,
  options?: NdjsonOptions,
): AsyncGenerator<NdjsonFrame, void, undefined>;
export function checkStdoutPurity(input: JsonText | JsonText[], options?: NdjsonOptions): StdoutPurity;
/** Options: those of classifyJsonRpc (maxBytes and maxDepth bound each message, 16 MiB and 128 by default). */
export function createRpcSession(options?: JsonRpcOptions): RpcSession;

declare const api: {
  ContractError: typeof ContractError;
  parseAgentAction: typeof parseAgentAction;
  safeParseAgentAction: typeof safeParseAgentAction;
  parseAgentActionJson: typeof parseAgentActionJson;
  safeParseAgentActionJson: typeof safeParseAgentActionJson;
  parseAgentActions: typeof parseAgentActions;
  parseAgentActionsJsonl: typeof parseAgentActionsJsonl;
  previewAction: typeof previewAction;
  defineTool: typeof defineTool;
  safeDefineTool: typeof safeDefineTool;
  defineToolJson: typeof defineToolJson;
  safeDefineToolJson: typeof safeDefineToolJson;
  parseJson: typeof parseJson;
  safeParseJson: typeof safeParseJson;
  parseDecision: typeof parseDecision;
  safeParseDecision: typeof safeParseDecision;
  parseDecisionJson: typeof parseDecisionJson;
  safeParseDecisionJson: typeof safeParseDecisionJson;
  validateToolInput: typeof validateToolInput;
  safeValidateToolInput: typeof safeValidateToolInput;
  validateToolInputJson: typeof validateToolInputJson;
  safeValidateToolInputJson: typeof safeValidateToolInputJson;
  createRegistry: typeof createRegistry;
  safeCreateRegistry: typeof safeCreateRegistry;
  catalog: typeof catalog;
  definePolicy: typeof definePolicy;
  safeDefinePolicy: typeof safeDefinePolicy;
  checkToolCall: typeof checkToolCall;
  safeCheckToolCall: typeof safeCheckToolCall;
  toOpenAITools: typeof toOpenAITools;
  toOpenAIResponsesTools: typeof toOpenAIResponsesTools;
  toAnthropicTools: typeof toAnthropicTools;
  toMcpTools: typeof toMcpTools;
  normalizeToolResult: typeof normalizeToolResult;
  strictSchemaIssues: typeof strictSchemaIssues;
  jsonSchemaForTarget: typeof jsonSchemaForTarget;
  standardJsonSchema: typeof standardJsonSchema;
  toStandardSchema: typeof toStandardSchema;
  compareContracts: typeof compareContracts;
  diffCatalogs: typeof diffCatalogs;
  mcpToolDefinitions: typeof mcpToolDefinitions;
  checkMcpToolResult: typeof checkMcpToolResult;
  createAssembler: typeof createAssembler;
  createProviderAssembler: typeof createProviderAssembler;
  assembleProviderStream: typeof assembleProviderStream;
  safeAssembleProviderStream: typeof safeAssembleProviderStream;
  providerResponseStream: typeof providerResponseStream;
  // ACP prompt admission and lifecycle:
  admitPrompt: typeof admitPrompt;
  safeAdmitPrompt: typeof safeAdmitPrompt;
  isCanonicalBase64: typeof isCanonicalBase64;
  sniffMediaType: typeof sniffMediaType;
  advertisePromptCapabilities: typeof advertisePromptCapabilities;
  createPromptLifecycle: typeof createPromptLifecycle;
  memoryReport: typeof memoryReport;
  // Loading the wasm.
  init: typeof init;
  initSync: typeof initSync;
  NotInitializedError: typeof NotInitializedError;
  // Messages and sessions (seed 004)
  parseAgentMessage: typeof parseAgentMessage;
  safeParseAgentMessage: typeof safeParseAgentMessage;
  parseAgentMessageJson: typeof parseAgentMessageJson;
  safeParseAgentMessageJson: typeof safeParseAgentMessageJson;
  parseToolResult: typeof parseToolResult;
  safeParseToolResult: typeof safeParseToolResult;
  parseSessionEntry: typeof parseSessionEntry;
  safeParseSessionEntry: typeof safeParseSessionEntry;
  checkSession: typeof checkSession;
  readSession: typeof readSession;
  safeReadSession: typeof safeReadSession;
  querySession: typeof querySession;
  fromSeedTool: typeof fromSeedTool;
  toSeedTool: typeof toSeedTool;
  createSessionChecker: typeof createSessionChecker;
  // JSON-RPC over NDJSON
  classifyJsonRpc: typeof classifyJsonRpc;
  classifyJsonRpcJson: typeof classifyJsonRpcJson;
  methodNotFound: typeof methodNotFound;
  internalError: typeof internalError;
  invalidParams: typeof invalidParams;
  createNdjsonDecoder: typeof createNdjsonDecoder;
  ndjsonFrames: typeof ndjsonFrames;
  ndjsonFramesAsync: typeof ndjsonFramesAsync;
  checkStdoutPurity: typeof checkStdoutPurity;
  createRpcSession: typeof createRpcSession;
  // Gemini projection
  toGeminiTools: typeof toGeminiTools;
  geminiSchemaIssues: typeof geminiSchemaIssues;
  // Agent events and the session response
  parseAgentEvent: typeof parseAgentEvent;
  safeParseAgentEvent: typeof safeParseAgentEvent;
  checkEventSequence: typeof checkEventSequence;
  safeCheckEventSequence: typeof safeCheckEventSequence;
  checkSessionResponse: typeof checkSessionResponse;
  safeCheckSessionResponse: typeof safeCheckSessionResponse;
  // The protocol as JSON Schema
  protocolSchemas: typeof protocolSchemas;
  // Compiled tools
  validateToolInputs: typeof validateToolInputs;
  // Dataset rows
  checkChatRow: typeof checkChatRow;
  checkChatRows: typeof checkChatRows;
  checkChatRowsJsonl: typeof checkChatRowsJsonl;
};
export default api;
