// A port to plain JavaScript of the seed's hand-written reference parser
// (../shared/seeds/000_*.txt, "参考实现先建立对象和文本 helper"): the same checks in the same
// order, only the TypeScript types removed. It knows the seed's three actions (message,
// tool_call, finish); it has no request_approval, no schemaVersion and no strict mode, and like
// the original it reads `action.type` etc. with ordinary property access (inherited properties
// count) and only checks `input` with hasOwnProperty. It is the baseline, not our semantics.

function text(value, field) {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`${field} 必须是非空字符串`);
  }
  return value;
}

export function parseAgentAction(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('action 必须是对象');
  }
  const action = value;
  const type = text(action.type, 'type');
  if (type === 'message') return { type, content: text(action.content, 'content') };
  if (type === 'finish') return { type, summary: text(action.summary, 'summary') };
  if (type === 'tool_call') {
    const callId = text(action.callId, 'callId');
    const tool = text(action.tool, 'tool');
    if (!Object.prototype.hasOwnProperty.call(action, 'input')) {
      throw new Error('input 字段缺失');
    }
    return { type, callId, tool, input: action.input };
  }
  throw new Error(`不支持的 action type：${type}`);
}
