// Compiled with `tsc --noEmit --strict` by test/types.test.mjs: the declarations must let a
// caller narrow actions on `type` and must reject misuse (each @ts-expect-error must be needed).
import {
  parseAgentAction,
  safeParseAgentActionJson,
  defineTool,
  previewAction,
  ContractError,
  createAssembler,
  type AssembledResponse,
  type StreamEvent,
  type AgentAction,
  type ErrorCode,
} from 'agent-contract';
import * as api from 'agent-contract';

function describe(action: AgentAction): string {
  switch (action.type) {
    case 'message':
      return action.content;
    case 'tool_call':
      return `${action.callId} ${action.tool} ${JSON.stringify(action.input ?? null)}`;
    case 'finish':
      return action.summary;
    case 'request_approval':
      return `${action.requestId} ${action.capability} ${action.resource} ${action.reason}`;
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

const action = parseAgentAction({ type: 'finish', summary: 'done' }, { strict: true, maxDepth: 16 });
describe(action);
// @ts-expect-error a message has no callId
if (action.type === 'message') action.callId;

const result = safeParseAgentActionJson('{"type":"finish","summary":"x"}');
if (result.ok) describe(result.value);
else {
  const code: ErrorCode = result.error.code;
  const pointer: string = result.error.path;
  void [code, pointer, result.error.retryable, result.error.layer];
}

const tool = defineTool({ name: 'read_file', description: 'Read.', inputSchema: {}, permission: 'read' });
// @ts-expect-error definitions are read-only
tool.name = 'other';
const first: 'read' | 'write' | 'execute' | 'network' = tool.permissions[0];
void first;

const preview = previewAction(action);
if (preview.ok) void preview.fields.length;
else void preview.code;

try {
  parseAgentAction(null);
} catch (e) {
  if (e instanceof ContractError) void e.position?.offset;
}

// @ts-expect-error unknown option names are rejected by the types too
parseAgentAction({}, { stict: true });

// Registry and pipeline.
import { createRegistry, checkToolCall, safeCheckToolCall, toMcpTools, normalizeToolResult, catalog } from 'agent-contract';
const registry = createRegistry([tool]);
const approved = checkToolCall(registry, action, { rules: [{ effect: 'allow', permission: 'read' }] });
const perms: ('read' | 'write' | 'execute' | 'network')[] = approved.permissions;
void perms;
void catalog(registry)[0]?.name;
const verdict = safeCheckToolCall(registry, action, { rules: [] });
if (!verdict.ok && verdict.error.code === 'APPROVAL_REQUIRED') void verdict.error.proposal?.requestId;
if (!verdict.ok && verdict.error.code === 'UNKNOWN_TOOL') void verdict.error.availableTools?.length;
void toMcpTools(registry)[0]?.annotations.readOnlyHint;
const toolResult = normalizeToolResult(tool, { ok: true, data: 1 });
if (!toolResult.ok) void toolResult.retryable;
// Stream assembly.
const assembler = createAssembler({ maxArgumentsBytes: 1 << 20 });
const events: StreamEvent[] = [
  { type: 'start', sequence: 1, itemId: 'i', callId: 'c', name: 'read_file' },
  { type: 'delta', sequence: 2, itemId: 'i', text: '{}' },
  { type: 'end', sequence: 3, itemId: 'i' },
  { type: 'finish', sequence: 4, reason: 'tool_calls' },
];
for (const event of events) assembler.push(event);
const shown: false = assembler.preview().executable;
const response: AssembledResponse = assembler.finish();
void [shown, response.calls[0]?.arguments, response.finishReason];
assembler.free();
// @ts-expect-error finish reasons are a closed set
assembler.push({ type: 'finish', sequence: 5, reason: 'max_tokens' });
// @ts-expect-error the assembler takes maxArgumentsBytes, not maxBytes
createAssembler({ maxBytes: 10 });

// Provider streams.
{
  const p = api.createProviderAssembler('anthropic', { maxArgumentsBytes: 1024 });
  p.push({ type: 'ping' });
  p.push('[DONE]');
  p.pushSse(new Uint8Array([100, 97]));
  const r: api.ProviderResponse = p.finish();
  const id: string | null = r.responseId;
  void id;
  p.free();
  // @ts-expect-error: not a provider
  api.createProviderAssembler('openai');
  const whole = api.safeAssembleProviderStream('openai-chat', 'data: [DONE]\n\n');
  if (whole.ok) {
    const reason: 'stop' | 'tool_calls' = whole.value.finishReason;
    void reason;
  }
  const t: TransformStream<api.SseChunk, api.ProviderResponse> = api.providerResponseStream('gemini');
  void t;
}

// Messages and sessions: unions narrowed on `role` and `type`.
function messageText(m: api.AgentMessage): string {
  switch (m.role) {
    case 'user':
      return m.content.map((b) => b.text).join('');
    case 'assistant': {
      const calls: string[] = m.content.flatMap((b) => (b.type === 'toolCall' ? [b.name] : []));
      return `${m.stopReason} ${calls.join(',')} ${m.usage.totalTokens}`;
    }
    case 'toolResult':
      return `${m.toolName}: ${m.isError}`;
  }
}

function sessions(text: string) {
  const message = api.parseAgentMessage({ role: 'user', content: [], timestamp: 0 }, { strict: true, dialect: 'seed' });
  void messageText(message);
  // @ts-expect-error: no such dialect
  api.parseAgentMessage({}, { dialect: 'v3' });
  const report: api.SessionReport = api.checkSession(text, { maxIssues: 10 });
  for (const p of report.problems) {
    const code: api.ErrorCode = p.code;
    void [code, p.line];
  }
  const session = api.readSession(new TextEncoder().encode(text), { dialect: 'pi' });
  for (const e of session.entries) {
    if (e.type === 'compaction') void e.firstKeptEntryId;
    else void messageText(e.message);
  }
  const context: api.SessionContext = session.context(session.leaves()[0]);
  void context.compaction?.summary;
  const entry = api.parseSessionEntry({});
  if (entry.type === 'session') {
    const v: 1 = entry.version;
    void v;
  }
  const tool = api.fromSeedTool({ name: 'read', description: 'r', parameters: { type: 'object' } }, { permissions: ['read'] });
  const seed: api.SeedToolDefinition = api.toSeedTool(tool);
  void seed;
  // @ts-expect-error: permissions are required
  api.fromSeedTool({ name: 'read', description: 'r', parameters: {} }, {});
}
void sessions;

// ACP prompt admission and lifecycle.
{
  const caps = api.advertisePromptCapabilities({ attachmentStore: true, providerResolved: true, modelResolved: true,
    inputModalities: ['text', 'image'], storeMimeTypes: ['image/png'] });
  const image: boolean = caps.image;
  const plan: api.AdmissionPlan = api.admitPrompt({ sessionId: 's', prompt: [] }, caps, { maxImages: 4, mimeTypes: ['image/png'] });
  for (const img of plan.images) {
    const bytes: Uint8Array = img.bytes;
    const type: api.AdmissibleImageType = img.mimeType;
    void [bytes, type, img.sha256.length, img.index];
  }
  for (const r of plan.resources) {
    if ('text' in r) void r.text.length;
    else void r.bytes.byteLength;
  }
  const safe = api.safeAdmitPrompt({}, null);
  if (!safe.ok) {
    const code: api.ErrorCode = safe.error.code;
    const layer: api.Layer = safe.error.layer;
    void [code, layer];
  }
  // @ts-expect-error options narrow the allowlist to the four image types
  api.admitPrompt({}, null, { mimeTypes: ['image/bmp'] });
  const canonical: boolean = api.isCanonicalBase64('AQ==');
  const sniffed: string | null = api.sniffMediaType(new Uint8Array([0x89]));
  const lifecycle = api.createPromptLifecycle();
  lifecycle.admitted();
  lifecycle.enqueue();
  const cancelAgent: boolean = lifecycle.cancel();
  lifecycle.agentIdle();
  lifecycle.outputDelivered();
  const stop: api.StopReason = lifecycle.settle('end_turn');
  // @ts-expect-error cancelled comes from cancel(), not from the agent
  lifecycle.settle('cancelled');
  lifecycle.free();
  void [image, canonical, sniffed, cancelAgent, stop];
}

// Agent events and the session response, the protocol schemas.
{
  const event = api.parseAgentEvent({ type: 'turn_start', turn: 1 });
  if (event.type === 'turn_end') {
    const stop: 'stop' | 'toolUse' | 'error' | 'aborted' = event.message.stopReason;
    const results: api.ToolResultMessage[] = event.toolResults;
    void [stop, results];
  } else if (event.type === 'tool_execution_end') {
    const terminate: boolean | undefined = event.result.terminate;
    void terminate;
  }
  // @ts-expect-error an agent_start event has no turn
  if (event.type === 'agent_start') void event.turn;
  const events: api.AgentEvent[] = api.checkEventSequence([event]);
  const checked = api.safeCheckSessionResponse({});
  if (checked.ok) {
    const id: string = checked.value.sessionId;
    const tools: api.SeedToolDefinition[] = checked.value.tools;
    void [id, tools];
  }
  const schemas: api.ProtocolSchemas = api.protocolSchemas();
  const strictDecision = schemas.strict.decision;
  void [events, strictDecision];
}

// Compiled tools: the defined tool is its definition plus free(); the batch form.
import { validateToolInputs, type ToolDefinition, type CompiledTool } from 'agent-contract';
const compiledTool = defineTool({ name: 'get_weather', description: 'Weather.', inputSchema: {}, permissions: ['read'] });
const asData: ToolDefinition = compiledTool;
const asHandle: CompiledTool = compiledTool;
for (const outcome of validateToolInputs(compiledTool, [{ city: 'Paris' }, {}])) {
  if (!outcome.ok) console.log(outcome.error.code === 'TOOL_HANDLE_FREED', asData.name);
}
asHandle.free();

// Imported catalogs keep their names (`names`); format asserted per tool or registry (`formats`).
import { createRegistry as createCatalog, validateToolInput as validateImported, type NameRule, type ToolOptions } from 'agent-contract';
const catalogOptions: ToolOptions = { names: 'mcp', formats: 'assert' };
const imported = defineTool({ name: 'get-weather', description: 'Weather.', inputSchema: {}, permissions: ['read'] }, catalogOptions);
const importedRule: NameRule | undefined = imported.names;
const importedFormats: 'assert' | undefined = imported.formats;
validateImported({ name: 'resolve-library-id', description: 'd.', inputSchema: {}, permission: 'read' }, {}, { names: 'mcp' });
createCatalog([imported], { names: 'gemini' });
// @ts-expect-error formats belongs to the tool, not to one validation
validateImported(imported, {}, { formats: 'assert' });
// @ts-expect-error not a name rule
defineTool({ name: 'x', description: 'd.', inputSchema: {}, permission: 'read' }, { names: 'claude' });
void [importedRule, importedFormats];
