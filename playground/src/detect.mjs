// Which kind of input a pasted text most likely is: a guess for the kind selector only (the
// user can override it). It decides which core function to call, never a verdict: a wrong guess
// gives the verdict of another kind, shown with that kind's name.

const SSE_LINE = /^(data|event|id|retry):/m;

function tryJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** {kind, provider?, dialect?} for `text`; `hasTool`: a tool definition is filled in. */
export function detectKind(text, { hasTool = false } = {}) {
  const trimmed = text.trim();
  if (SSE_LINE.test(trimmed) && !trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    return { kind: 'stream', provider: detectProvider(trimmed) };
  }
  const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1) {
    const first = tryJson(lines[0]);
    if (isObject(first) && first.type === 'session') {
      return { kind: 'session', dialect: first.version === 1 ? 'seed' : 'pi' };
    }
    if (isObject(first) && first.jsonrpc !== undefined) return { kind: 'ndjson' };
  }
  const value = tryJson(trimmed);
  if (Array.isArray(value)) {
    if (value.some((v) => isObject(v) && 'jsonrpc' in v)) return { kind: 'jsonrpc' };
    if (value.some((v) => isObject(v) && 'inputSchema' in v)) return { kind: 'registry' };
    return { kind: 'jsonrpc' };
  }
  if (!isObject(value)) {
    if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{'))) return { kind: 'ndjson' };
    return { kind: hasTool ? 'tool-input' : 'action' };
  }
  if ('jsonrpc' in value) return { kind: value.method === 'session/prompt' ? 'acp' : 'jsonrpc' };
  if ('prompt' in value && 'sessionId' in value) return { kind: 'acp' };
  if (Array.isArray(value.messages)) return { kind: 'chat-row' };
  if (Array.isArray(value.tools)) return { kind: 'registry' };
  if ('inputSchema' in value) return { kind: 'tool' };
  if ('kind' in value && ('calls' in value || 'answer' in value)) return { kind: 'decision' };
  if ('type' in value) return { kind: 'action' };
  return { kind: hasTool ? 'tool-input' : 'action' };
}

function detectProvider(text) {
  if (/"type"\s*:\s*"response\./.test(text) || /^event:\s*response\./m.test(text)) return 'openai-responses';
  if (/message_start|content_block_/.test(text)) return 'anthropic';
  if (/"candidates"/.test(text)) return 'gemini';
  return 'openai-chat';
}
