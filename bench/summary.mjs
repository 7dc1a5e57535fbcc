// The targets of issue 2, side by side, from the JSON the three benches wrote.
// Usage: node summary.mjs <js.json> <python.json> <sizes.json>
import { readFileSync } from 'node:fs';
import { fmtNs } from './harness.mjs';

const load = (p) => {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
};
const [js, py, sizes] = process.argv.slice(2).map(load);

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

console.log('\nSummary (medians; targets from issue 2)');
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log('  ' + r.map((c, i) => c.padEnd(widths[i])).join('  │ '));
