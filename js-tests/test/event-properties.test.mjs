// Property tests of agent events in Node: random valid runs pass checkEventSequence
// and the response holding them checkSessionResponse; one random mutation gives its code and
// path; random values give a verdict (a ContractError or a value), never another throw. The same
// properties as tests/event_properties.rs and py-host/tests/test_event_properties.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as api from 'agent-contract';

const RUNS = 200;

function rng(seed) {
  let s = (seed >>> 0) || 1;
  return (n) => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s % n;
  };
}

const text = (t) => ({ type: 'text', text: t });
const usage = () => ({ input: 1, output: 2, totalTokens: 3 });

/** One valid run: its events and the messages it ended, in order. */
function run(seed) {
  const below = rng(seed);
  let clock = 0;
  const events = [{ type: 'agent_start' }];
  const ended = [];
  const turns = 1 + below(4);
  for (let turn = 1; turn <= turns; turn++) {
    if (turn > 1 && below(3) === 0) events.push({ type: 'compaction', summary: 's', tokensBefore: 10, firstKeptEntryId: 'e1' });
    events.push({ type: 'turn_start', turn });
    if (turn === 1) {
      const user = { role: 'user', content: [text('task')], timestamp: ++clock };
      events.push({ type: 'message_start', message: user }, { type: 'message_end', message: user });
      ended.push(user);
    }
    const calls = Array.from({ length: below(4) }, (_, j) => [`c${turn}_${j}`, ['ls', 'cat', 'grep'][below(3)]]);
    const ts = ++clock;
    const stopReason = calls.length === 0 ? 'stop' : 'toolUse';
    const partial = (content) => ({ role: 'assistant', content, stopReason, usage: usage(), timestamp: ts });
    events.push({ type: 'message_start', message: partial([]) });
    let soFar = '';
    for (let k = below(4); k > 0; k--) {
      soFar += 'x';
      events.push({ type: 'message_update', message: partial([text(soFar)]), delta: 'x' });
    }
    const assistant = partial([text(soFar), ...calls.map(([id, name]) => ({ type: 'toolCall', id, name, arguments: { n: 1 } }))]);
    events.push({ type: 'message_end', message: assistant });
    ended.push(assistant);
    for (const [id, name] of calls) events.push({ type: 'tool_execution_start', toolCallId: id, toolName: name, args: { n: 1 } });
    const order = calls.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = below(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const k of order) {
      const [id, name] = calls[k];
      events.push({ type: 'tool_execution_end', toolCallId: id, toolName: name, result: { content: [text('out')] }, isError: false });
    }
    const results = calls.map(([id, name]) => ({ role: 'toolResult', toolCallId: id, toolName: name, content: [text('out')], isError: false, timestamp: ++clock }));
    for (const m of results) {
      events.push({ type: 'message_start', message: m }, { type: 'message_end', message: m });
      ended.push(m);
    }
    events.push({ type: 'turn_end', turn, message: assistant, toolResults: results });
  }
  events.push({ type: 'agent_end', messages: ended });
  return { events, messages: structuredClone(ended) };
}

const response = (events, messages) => ({ sessionId: 's1', messages, events, tools: [], entries: [] });
const indices = (list, pred) => list.flatMap((e, i) => (pred(e) ? [i] : []));

test('valid runs pass', () => {
  fc.assert(fc.property(fc.integer({ min: 1 }), (seed) => {
    const { events, messages } = run(seed);
    assert.deepEqual(api.checkEventSequence(events), events);
    assert.deepEqual(api.checkSessionResponse(response(events, messages)), response(events, messages));
  }), { numRuns: RUNS });
});

test('one mutation gives its code and path', () => {
  fc.assert(fc.property(fc.integer({ min: 1 }), fc.integer({ min: 1 }), fc.integer({ min: 0, max: 5 }), (seed, pick, which) => {
    const { events, messages } = run(seed);
    const below = rng(pick);
    let got;
    let expected;
    if (which === 0) {
      events.pop();
      got = api.safeCheckEventSequence(events);
      expected = ['EVENT_SEQUENCE_INVALID', ''];
    } else if (which === 1) {
      const starts = indices(events, (e) => e.type === 'turn_start');
      const i = starts[below(starts.length)];
      events[i].turn += 1;
      got = api.safeCheckEventSequence(events);
      expected = ['EVENT_SEQUENCE_INVALID', `/${i}`];
    } else if (which === 2) {
      const starts = indices(events, (e) => e.type === 'message_start');
      const i = starts[below(starts.length)];
      events.splice(i, 1);
      got = api.safeCheckEventSequence(events);
      expected = ['EVENT_SEQUENCE_INVALID', `/${i}`];
    } else if (which === 3) {
      const execs = indices(events, (e) => e.type === 'tool_execution_start' || e.type === 'tool_execution_end');
      if (execs.length === 0) return;
      const i = execs[below(execs.length)];
      events[i] = { ...events[i], toolName: 'rm' };
      got = api.safeCheckEventSequence(events);
      expected = ['EVENT_SEQUENCE_INVALID', `/${i}`];
    } else if (which === 4) {
      messages.splice(0, 1);
      const at = indices(events, (e) => e.type === 'message_end')[0];
      got = api.safeCheckSessionResponse(response(events, messages));
      expected = ['EVENT_MESSAGE_UNKNOWN', `/events/${at}/message`];
    } else {
      const results = indices(messages, (m) => m.role === 'toolResult');
      if (results.length === 0) return;
      const i = results[below(results.length)];
      messages[i] = { ...messages[i], toolCallId: 'nowhere' };
      got = api.safeCheckSessionResponse(response(events, messages));
      expected = ['TOOL_RESULT_UNMATCHED', `/messages/${i}/toolCallId`];
    }
    assert.equal(got.ok, false);
    assert.deepEqual([got.error.code, got.error.path], expected);
  }), { numRuns: RUNS });
});

test('random values give a verdict, never another throw', () => {
  fc.assert(fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withDate: true }), (value) => {
    for (const f of [api.safeParseAgentEvent, api.safeCheckEventSequence, api.safeCheckSessionResponse]) {
      const r = f(value);
      assert.ok(r.ok === true || r.error instanceof api.ContractError);
    }
  }), { numRuns: RUNS });
});
