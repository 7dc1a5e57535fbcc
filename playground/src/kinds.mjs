// The kinds of input the page checks and the one public function of the package each calls.
// Every verdict is the core's: this file only picks the function, passes the text and the
// control values, and reshapes what comes back into the page's model (an outcome, its error or
// first problem, the list to click through, the value to show).

export const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];
export const DIALECTS = ['seed', 'pi'];

export const KINDS = {
  action: { label: 'Agent action', core: 'protocol', fn: 'parseAgentActionJson' },
  decision: { label: 'Decision', core: 'protocol', fn: 'parseDecisionJson' },
  tool: { label: 'Tool definition', core: 'full', fn: 'defineToolJson' },
  registry: { label: 'Tool registry', core: 'full', fn: 'createRegistry' },
  'tool-input': { label: 'Tool input (against a tool)', core: 'full', fn: 'validateToolInputJson', context: 'Tool definition or registry (JSON)', tool: true },
  stream: { label: 'Provider SSE stream', core: 'protocol', fn: 'assembleProviderStream', provider: true },
  session: { label: 'Session (JSONL)', core: 'protocol', fn: 'checkSession', dialect: true },
  jsonrpc: { label: 'JSON-RPC message', core: 'protocol', fn: 'classifyJsonRpcJson' },
  ndjson: { label: 'NDJSON transcript (stdout)', core: 'protocol', fn: 'checkStdoutPurity' },
  acp: { label: 'ACP session/prompt', core: 'protocol', fn: 'admitPrompt', context: 'Client prompt capabilities (JSON)' },
  'chat-row': { label: 'Chat dataset row (OpenAI format)', core: 'full', fn: 'checkChatRow' },
};

// A thrown ContractError as the page's model; anything else thrown is not a verdict and is
// passed on (the page shows it as a failure of the page itself).
function failure(error, target = 'input', offsetPath = '') {
  if (!error || typeof error.code !== 'string' || typeof error.layer !== 'string') throw error;
  return {
    ok: false,
    layer: error.layer,
    code: error.code,
    message: error.message,
    path: error.path,
    position: error.position,
    target,
    // Where `path` points in the shown text, when the text wraps the value the core was given.
    highlightPath: offsetPath + error.path,
    issues: (error.issues || []).map((issue) => ({ ...issue, target, highlightPath: offsetPath + issue.path })),
    truncated: error.truncated,
    availableTools: error.availableTools,
  };
}

function attempt(run, target, offsetPath) {
  try {
    return run();
  } catch (error) {
    return failure(error, target, offsetPath);
  }
}

/**
 * Runs `kind` over `state` ({text, context, provider, dialect}) with `api` (the protocol or the
 * full core, as KINDS says). Returns the page's model: {ok, value?} or a failure
 * {ok: false, layer, code, message, path, position?, issues, target}; sessions and transcripts
 * add `problems` (clickable, each with `line`).
 */
export function runKind(kind, state, api) {
  const { text } = state;
  switch (kind) {
    case 'action':
      return attempt(() => ({ ok: true, value: api.parseAgentActionJson(text) }));
    case 'decision':
      return attempt(() => ({ ok: true, value: api.parseDecisionJson(text) }));
    case 'tool':
      return attempt(() => {
        const tool = api.defineToolJson(text);
        const value = plain(tool);
        // Its compiled schema is not needed past the verdict.
        tool.free();
        return { ok: true, value };
      });
    case 'registry':
      return attempt(() => ({ ok: true, value: plain(api.createRegistry(api.parseJson(text))) }));
    case 'tool-input': {
      let tools;
      try {
        tools = toolsOf(api, state.context ?? '');
      } catch (error) {
        return { ...failure(error, 'context'), stage: 'the tool definitions' };
      }
      if (tools.length === 0) return { pageError: 'The registry holds no tool to check the input against.' };
      const tool = tools.find((t) => t.name === state.tool) ?? tools[0];
      const names = tools.map((t) => t.name);
      const result = attempt(() => ({ ok: true, value: api.validateToolInputJson(tool, text) }));
      for (const t of tools) if (typeof t.free === 'function') t.free();
      return { ...result, tools: names, tool: tool.name };
    }
    case 'stream':
      return attempt(() => ({ ok: true, value: api.assembleProviderStream(state.provider, text) }));
    case 'session':
      return runSession(state, api);
    case 'jsonrpc':
      return attempt(() => classification(api.classifyJsonRpcJson(text)));
    case 'ndjson':
      return attempt(() => purity(api.checkStdoutPurity(text), text, api));
    case 'acp':
      return runAcp(state, api);
    case 'chat-row':
      return attempt(() => rowReport(api.checkChatRow(text)));
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

// The tools the context defines: one definition (`defineToolJson`), or a registry, as a list or
// as `{tools: [...]}` (`createRegistry`), whose tool is then chosen by name.
function toolsOf(api, context) {
  const value = api.parseJson(context);
  if (Array.isArray(value) || (value !== null && typeof value === 'object' && 'tools' in value)) {
    return api.createRegistry(value).tools;
  }
  return [api.defineToolJson(context)];
}

// Deep-frozen results with methods (compiled tools) as plain data for display.
function plain(value) {
  return JSON.parse(JSON.stringify(value));
}

function runSession(state, api) {
  const options = { dialect: state.dialect || 'seed' };
  let report;
  try {
    report = api.checkSession(state.text, options);
  } catch (error) {
    return failure(error);
  }
  const problems = report.problems.map((p) => ({ ...p, target: 'input', highlightPath: p.path }));
  // The tree and the context queries come from readSession when the whole file is valid; a file
  // with problems is drawn from the lines the core's JSON parser reads (see tree.mjs).
  let session = null;
  if (report.ok) {
    try {
      session = api.readSession(state.text, options);
    } catch {
      session = null;
    }
  }
  const base = { value: report, report, session, problems };
  if (report.ok) return { ok: true, ...base };
  const first = problems[0];
  return { ok: false, layer: 'session', code: first.code, path: first.path, line: first.line, message: first.message, target: 'input', highlightPath: first.path, issues: [], ...base };
}

// A dataset row's report: every problem clickable, the first one the verdict.
function rowReport(report) {
  const problems = report.problems.map((p) => ({ ...p, target: 'input', highlightPath: p.path }));
  if (report.ok) return { ok: true, value: report, report, problems };
  const first = problems[0];
  return { ok: false, layer: 'protocol', code: first.code, path: first.path, message: first.message, target: 'input', highlightPath: first.path, issues: [], problems, value: report, report };
}

function classification(result) {
  if (result.code) {
    return { ok: false, layer: 'rpc', code: result.code, path: result.path, message: result.reason, target: 'input', highlightPath: result.path, issues: [], value: result };
  }
  const items = result.items || [];
  const index = items.findIndex((item) => item.code);
  if (index < 0) return { ok: true, value: result };
  const item = items[index];
  const issues = items.flatMap((it, i) => (it.code
    ? [{ path: `/${i}${it.path}`, keyword: it.code, message: it.reason, target: 'input', highlightPath: `/${i}${it.path}` }] : []));
  return { ok: false, layer: 'rpc', code: item.code, path: `/${index}${item.path}`, message: item.reason, target: 'input', highlightPath: `/${index}${item.path}`, issues, value: result };
}

function purity(report, text, api) {
  const problems = report.problems.map((p) => ({ line: p.line, code: p.code, path: '', message: p.reason, target: 'input', wholeLine: true }));
  // Each line's classification, to show what the transcript holds.
  const frames = [...api.ndjsonFrames([text])].map(({ line, kind, method, id, code }) => ({ line, kind, method, id, code }));
  const value = { ...report, frames };
  if (report.pure) return { ok: true, value, problems };
  const first = problems[0];
  return { ok: false, layer: 'rpc', code: first.code, path: '', line: first.line, message: first.message, target: 'input', wholeLine: true, issues: [], problems, value };
}

// The text is the request's params, or the whole JSON-RPC `session/prompt` request (its params
// are then what the core admits, and pointers are shown under /params).
function runAcp(state, api) {
  let request;
  let capabilities;
  try {
    request = api.parseJson(state.text);
  } catch (error) {
    return failure(error);
  }
  try {
    capabilities = api.parseJson(state.context || 'null');
  } catch (error) {
    return { ...failure(error, 'context'), stage: 'the capabilities' };
  }
  const wrapped = request !== null && typeof request === 'object' && request.method === 'session/prompt' && 'params' in request;
  return attempt(() => ({ ok: true, value: plainPlan(api.admitPrompt(wrapped ? request.params : request, capabilities)) }),
    'input', wrapped ? '/params' : '');
}

// Decoded payloads (Uint8Array) shown by their size.
function plainPlan(plan) {
  return JSON.parse(JSON.stringify(plan, (key, v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v)));
}
