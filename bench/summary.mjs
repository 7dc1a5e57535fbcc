// The performance targets side by side, from the JSON the benches wrote: agent action parsing and
// wasm size, tool validation (compile, registry), strict JSON parse and stream assembly, the two cores.
// Usage: node summary.mjs <js.json> <python.json> <sizes.json> [<tools_js.json> <tools_py.json> <registry.json>
//          [<streams_js.json> <streams_py.json> [<entries.json>]]]
import { readFileSync } from 'node:fs';
import { fmtNs } from './harness.mjs';

const load = (p) => {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
};
const [js, py, sizes, tjs, tpy, reg, sjs, spy, ent] = process.argv.slice(2).map(load);

const rows = [];
const ratio = (label, ours, base, baseName, target) => {
  if (!ours || !base) return rows.push([label, 'not measured', '', '', 'NOT measured']);
  const x = ours.ns / base.ns;
  rows.push([label, fmtNs(ours.ns), `${fmtNs(base.ns)} ${baseName}`, `${x.toFixed(2)}× (≤ ${target}×)`, x <= target ? 'met' : 'NOT met']);
};
ratio('(a) parseAgentAction(object) vs Zod 4', js?.a_ours, js?.a_zod, 'Zod', 10);
ratio('(b) parseAgentActionJson vs JSON.parse+seed', js?.b_ours, js?.b_seed, 'JSON.parse+seed', 1.5);
ratio('(c) parse_agent_action_json vs echo floor', py?.c_ours, py?.c_echo, 'echo', 1.5);
if (sizes?.component) {
  const gz = sizes.component.gzip;
  rows.push([
    '(d) core.wasm (component) gzip -9',
    `${(gz / 1024).toFixed(1)} KB`,
    `web .wasm ${(sizes.web.gzip / 1024).toFixed(1)} KB`,
    '(≤ 150 KB)',
    gz <= 150 * 1024 && sizes.web.gzip <= 150 * 1024 ? 'met' : 'NOT met',
  ]);
} else rows.push(['(d) core.wasm gzip -9', 'not built', '', '', 'NOT measured']);
if (py?.batch_ours_jsonl) {
  rows.push([
    '    batch: parse_agent_actions_jsonl, per action',
    fmtNs(py.batch_ours_jsonl.ns),
    `${fmtNs(py.batch_pyd_loop.ns)} pydantic/line, ${fmtNs(py.batch_pyd_array.ns)} pydantic array`,
    `${(py.batch_ours_jsonl.ns / py.batch_pyd_loop.ns).toFixed(2)}× / ${(py.batch_ours_jsonl.ns / py.batch_pyd_array.ns).toFixed(2)}×`,
    '(no target)',
  ]);
}

print('Summary (medians; targets)', rows);

// Tool validation, compile, registry.
const rows3 = [];
const target3 = (label, ours, base, baseName, max, note = '') => {
  if (!ours || !base) return rows3.push([label, 'not measured', '', '', 'NOT measured']);
  const x = ours.ns / base.ns;
  rows3.push([label, fmtNs(ours.ns), `${fmtNs(base.ns)} ${baseName}`, `${x.toFixed(2)}× (≤ ${max}×)${note}`, x <= max ? 'met' : 'NOT met']);
};
const info = (label, ours, base, baseName) => {
  if (!ours) return rows3.push([label, 'not measured', '', '', '']);
  rows3.push([label, fmtNs(ours.ns), base ? `${fmtNs(base.ns)} ${baseName}` : '', base ? `${(ours.ns / base.ns).toFixed(2)}×` : '', '(no target)']);
};
target3('Node 1 MB: validateToolInputJson vs JSON.parse+Ajv', tjs?.l_ours_text, tjs?.l_ajv_text, 'JSON.parse+Ajv', 1.5);
target3('Py single: validate_tool_input vs jsonschema', tpy?.s_ours, tpy?.s_jsonschema, 'jsonschema', 0.5, ' i.e. ≥ 2× faster');
target3('Py batch per item: validate_tool_input loop', tpy?.b_ours_loop, tpy?.b_fastjsonschema_loop, 'fastjsonschema', 1);
info('    one call, wrapper array schema, value (workaround)', tpy?.b_ours_wrapper, tpy?.b_fastjsonschema_loop, 'fastjsonschema');
info('    one call, wrapper array schema, JSON text (workaround)', tpy?.b_ours_wrapper_text, tpy?.b_fastjsonschema_text_loop, 'loads+fastjsonschema');
info('Py 1 MB text: validate_tool_input_json vs loads+jsonschema', tpy?.l_ours_text, tpy?.l_jsonschema_text, 'loads+jsonschema');
info('Node small: validateToolInput vs Ajv', tjs?.s_ours_value, tjs?.s_ajv_value, 'Ajv');
info('Node small text: validateToolInputJson vs JSON.parse+Ajv', tjs?.s_ours_text, tjs?.s_ajv_text, 'JSON.parse+Ajv');
info('Node compile: defineTool (new schema) vs Ajv compile', tjs?.c_ours, tjs?.c_ajv, 'Ajv compile');
info('Registry 500: createRegistry (compiling / cached)', reg?.create_cold, reg?.create, 'cached');
info('Registry 500: checkToolCall', reg?.check);
if (sizes?.component) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  rows3.push(['wasm web/node raw, gzip -9', kb(sizes.web.raw), kb(sizes.web.gzip), '', 'reported']);
  rows3.push(['wasm component raw, gzip -9', kb(sizes.component.raw), kb(sizes.component.gzip), '', 'reported']);
}
if (tjs || tpy || reg) print('Summary (medians; tool validation targets)', rows3);

// Strict JSON parse, stream assembly.
const rows4 = [];
const scaling = (label, s) => {
  if (!s) return rows4.push([label, 'not measured', '', '', 'NOT measured']);
  const g = s.scaling_group;
  const [a, b] = g.s_10m ? [g.s_100k, g.s_10m] : [g.s_1, g.s_2];
  rows4.push([label, fmtNs(b.ns), `${fmtNs(a.ns)} at 100 KB`, `${s.scaling.toFixed(1)}× (≤ 120×)`, s.scaling <= 120 ? 'met' : 'NOT met']);
};
const vs = (label, ours, base, baseName, max) => {
  if (!ours || !base) return rows4.push([label, 'not measured', '', '', max ? 'NOT measured' : '']);
  const x = ours.ns / base.ns;
  rows4.push([label, fmtNs(ours.ns), `${fmtNs(base.ns)} ${baseName}`, max ? `${x.toFixed(2)}× (≤ ${max}×)` : x < 0.1 ? `${x.toFixed(4)}× (${(1 / x).toFixed(0)}× faster)` : `${x.toFixed(2)}×`, max ? (x <= max ? 'met' : 'NOT met') : '(no target)']);
};
vs('Node strict parse 1 MB: parseJson vs JSON.parse', sjs?.p_ours, sjs?.p_json_parse, 'JSON.parse', 2);
vs('Py strict parse 1 MB: parse_json vs json.loads', spy?.p_ours, spy?.p_json_loads, 'json.loads');
scaling('Node stream: ours 10 MB / 100 KB', sjs);
scaling('Py stream: ours 10 MB / 100 KB', spy);
vs('Node recorded OpenAI stream: ours vs AI SDK', sjs?.r_ours_sse ?? sjs?.r_ours_events, sjs?.r_aisdk, 'AI SDK');
vs('Py recorded OpenAI stream: ours vs partial-json', spy?.r_ours_sse ?? spy?.r_ours_events, spy?.r_partial, 'partial-json');
vs('Node 100 KB stream: ours vs AI SDK', sjs?.synthetic?.[1]?.ours, sjs?.synthetic?.[1]?.aisdk, 'AI SDK');
vs('Py 100 KB stream: ours vs partial-json', spy?.synthetic?.[1]?.ours, spy?.synthetic?.[1]?.partial, 'partial-json');
if (sjs || spy) print('Summary (medians; JSON parse and stream targets)', rows4);

// The two cores' sizes against their targets, and the hot paths through both entries.
const rows12 = [];
const gz = (key, limit) => {
  const x = sizes?.[key];
  if (!x) return rows12.push([`(f) ${key} core gzip -9`, 'not built', '', '', 'NOT measured']);
  rows12.push([`(f) ${key === 'web' ? 'full' : key} core gzip -9`, `${(x.gzip / 1024).toFixed(1)} KB`, `raw ${(x.raw / 1024).toFixed(1)} KB`,
    `(≤ ${limit} KB)`, x.gzip <= limit * 1024 ? 'met' : 'NOT met']);
};
gz('protocol', 150);
gz('web', 450);
if (ent) {
  rows12.push(['(g) protocol entry: parseJson 1 MB vs JSON.parse', fmtNs(ent.g.protocol), `${fmtNs(ent.g.jsonParse)} JSON.parse`,
    `${ent.g.protocolVsJsonParse.toFixed(2)}× (≤ 2×)`, ent.g.protocolVsJsonParse <= 2 ? 'met' : 'NOT met']);
  rows12.push(['    protocol/full core: parseAgentAction, ...Json, parseJson', `${ent.a.ratio.toFixed(2)}×, ${ent.b.ratio.toFixed(2)}×, ${(ent.g.protocol / ent.g.full).toFixed(2)}×`, '', '', '(no target)']);
}
if (sizes || ent) print('Summary (targets for the two cores)', rows12);

function print(title, rs) {
  console.log(`\n${title}`);
  const widths = rs[0].map((_, i) => Math.max(...rs.map((r) => r[i].length)));
  for (const r of rs) console.log('  ' + r.map((c, i) => c.padEnd(widths[i])).join('  │ '));
}
