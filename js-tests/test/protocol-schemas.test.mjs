// The protocol schemas (protocolSchemas()) against the parsers in Node: every
// fixture input of the parsers a schema can judge (no host values, no options, text that is
// JSON) is validated with its schema through defineToolJson / validateToolInputJson
// (suite-core.mjs), and the verdict must be the fixture's, except for the exact list in
// tests/protocol_schema_differences.json. The same check as tests/protocol_schemas.rs and
// py-host/tests/test_protocol_schemas.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { protocolSchemas, strictSchemaIssues } from 'agent-contract';
import { schemaSuiteCheck } from '../suite-core.mjs';

const root = new URL('../../', import.meta.url);
const SCHEMA_OF = {
  parseAgentAction: 'action',
  parseAgentActionJson: 'action',
  parseDecision: 'decision',
  parseDecisionJson: 'decision',
  parseAgentMessage: 'message',
  parseAgentMessageJson: 'message',
  parseSessionEntry: 'sessionEntry',
  parseAgentEvent: 'event',
};

test('the protocol schemas give the parsers\' verdicts on every fixture they can judge', () => {
  const schemas = protocolSchemas();
  const known = JSON.parse(readFileSync(new URL('tests/protocol_schema_differences.json', root), 'utf8')).differences;
  const groups = {};
  const dir = new URL('fixtures/', root);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    for (const c of JSON.parse(readFileSync(new URL(file, dir), 'utf8')).cases) {
      const name = SCHEMA_OF[c.op];
      if (!name || c.host !== undefined || c.options !== undefined) continue;
      let input = c.input;
      if (c.op.endsWith('Json')) {
        if (typeof c.text !== 'string' || c.expect.layer === 'parse') continue;
        try {
          input = JSON.parse(c.text);
        } catch {
          continue;
        }
      }
      (groups[name] ??= []).push({ id: c.id, input, ok: c.expect.ok });
    }
  }
  const unexpected = [];
  const differing = new Set();
  for (const [name, cases] of Object.entries(groups)) {
    assert.ok(cases.length >= 20, `${name}: only ${cases.length} cases`);
    const verdicts = schemaSuiteCheck(JSON.stringify({ schema: schemas[name], instances: cases.map((c) => c.input) }));
    cases.forEach((c, i) => {
      if (verdicts[i] !== c.ok) {
        differing.add(c.id);
        if (!(c.id in known)) unexpected.push(`${c.id} (${name}): parser ${c.ok}, schema ${verdicts[i]}`);
      } else if (c.id in known) {
        unexpected.push(`${c.id} is listed as a difference, but schema and parser agree`);
      }
    });
  }
  for (const id of Object.keys(known)) assert.ok(differing.has(id), `listed difference ${id} was not checked`);
  assert.deepEqual(unexpected, []);
});

test('the strict forms are strict-ready; a fresh copy on every call', () => {
  const a = protocolSchemas();
  assert.deepEqual(strictSchemaIssues(a.strict.action), []);
  assert.deepEqual(strictSchemaIssues(a.strict.decision), []);
  a.action.title = 'changed';
  assert.notEqual(protocolSchemas().action.title, 'changed');
});
