// A session's entries as a picture: one row per entry in depth-first order, one lane (column)
// per branch, a line from each entry to its parent. The first child of an entry continues its
// parent's lane; each further child opens a lane of its own, so a fork shows as a step to the
// right and a leaf as the end of a lane. Built as one SVG string (one `<g>` per entry), which
// keeps a thousand-entry session well under a frame budget.

export const ROW = 22;
export const LANE = 14;
const PAD = 10;

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * Lays out `entries` ([{id, parentId, line, label, problem}], file order): returns
 * {rows: [entry with row, lane, leaf], lanes}. Entries whose parent is absent are roots.
 */
export function layout(entries) {
  const byId = new Map();
  for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, e);
  const children = new Map();
  const roots = [];
  for (const e of entries) {
    const parent = e.parentId != null && e.parentId !== e.id ? byId.get(e.parentId) : undefined;
    if (parent && byId.get(e.id) === e) {
      if (!children.has(parent.id)) children.set(parent.id, []);
      children.get(parent.id).push(e);
    } else roots.push(e);
  }
  const rows = [];
  let lanes = 0;
  // Depth-first, iteratively (a linear session is as deep as it is long).
  const stack = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push({ entry: roots[r], lane: -1, parentRow: -1 });
  const seen = new Set();
  while (stack.length) {
    const { entry, lane: given, parentRow } = stack.pop();
    if (seen.has(entry)) continue;
    seen.add(entry);
    const lane = given >= 0 ? given : lanes++;
    const kids = children.get(entry.id) || [];
    const row = { ...entry, row: rows.length, lane, parentRow, leaf: kids.length === 0 };
    rows.push(row);
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ entry: kids[k], lane: k === 0 ? lane : -1, parentRow: row.row });
  }
  // Reassign new lanes in row order so lanes grow left to right as the eye reads down.
  const order = new Map();
  for (const r of rows) if (!order.has(r.lane)) order.set(r.lane, order.size);
  for (const r of rows) r.lane = order.get(r.lane);
  return { rows, lanes: Math.max(lanes, 1) };
}

/** The SVG markup of a layout; `selected`: the id of the entry shown in the side panel. */
export function renderSvg({ rows, lanes }, selected) {
  const labelX = PAD + lanes * LANE + 6;
  const width = labelX + 420;
  const height = PAD * 2 + rows.length * ROW;
  const x = (lane) => PAD + lane * LANE + LANE / 2;
  const y = (row) => PAD + row * ROW + ROW / 2;
  let edges = '';
  for (const r of rows) {
    if (r.parentRow < 0) continue;
    const p = rows[r.parentRow];
    edges += p.lane === r.lane
      ? `M${x(p.lane)} ${y(p.row)}V${y(r.row)}`
      // A fork steps right at the parent's row, then runs down its own lane, which no other
      // branch uses: the line never passes through an unrelated entry.
      : `M${x(p.lane)} ${y(p.row)}H${x(r.lane)}V${y(r.row)}`;
  }
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<path class="edges" d="${edges}"/>`];
  for (const r of rows) {
    const cls = ['node', r.leaf ? 'leaf' : '', r.problem ? 'problem' : '', r.id === selected ? 'selected' : ''].filter(Boolean).join(' ');
    const name = `line ${r.line}: ${r.label}${r.leaf ? ', leaf' : ''}${r.problem ? ', has a problem' : ''}`;
    parts.push(`<g class="${cls}" role="treeitem" tabindex="${r.row === 0 ? 0 : -1}" data-entry-id="${escapeHtml(r.id)}" data-row="${r.row}" aria-label="${escapeHtml(name)}" aria-selected="${r.id === selected}" transform="translate(0 ${y(r.row)})">`
      + `<circle cx="${x(r.lane)}" cy="0" r="5"/>`
      + `<text x="${labelX}" y="4">${escapeHtml(`${r.line}  ${r.label}`)}</text></g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** A short label for an entry: its type, the message role, and its id. */
export function entryLabel(entry) {
  if (!entry || typeof entry !== 'object') return '?';
  const role = entry.message && typeof entry.message === 'object' ? entry.message.role : undefined;
  const text = [entry.type, role].filter((s) => typeof s === 'string').join(' · ');
  const id = typeof entry.id === 'string' ? entry.id : '';
  return `${text || '?'}  ${id.length > 24 ? `${id.slice(0, 23)}…` : id}`;
}
