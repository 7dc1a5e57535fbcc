// The playground page: controls, the verdict, issues, the highlighted source, the session tree.
// The protocol core (no schema engine) is embedded in this script and loaded at start; the full
// core comes from full.js when a tool kind first needs it. Verdicts come from the core only
// (kinds.mjs); this file draws them.
import * as protocol from 'agent-contract/protocol/init';
import protocolWasm from 'agent-contract/dist/agent_contract_protocol_bg.wasm';
import examples from 'virtual:examples';
import { KINDS, PROVIDERS, DIALECTS, runKind } from './kinds.mjs';
import { detectKind } from './detect.mjs';
import { encodeFragment, decodeFragment } from './fragment.mjs';
import { locatePointer, indexOfByteOffset, lineRange } from './locate.mjs';
import { layout, renderSvg, entryLabel, escapeHtml } from './tree.mjs';

const $ = (id) => document.getElementById(id);
const ui = {
  form: $('controls'), example: $('example'), kind: $('kind'), detected: $('detected'),
  provider: $('provider'), providerRow: $('provider-row'), dialect: $('dialect'), dialectRow: $('dialect-row'),
  input: $('input'), context: $('context'), contextRow: $('context-row'), contextLabel: $('context-label'),
  tool: $('tool'), toolRow: $('tool-row'),
  file: $('file'), share: $('share'), verdict: $('verdict'),
  issuesBox: $('issues-box'), issuesTitle: $('issues-title'), issues: $('issues'),
  sourceBox: $('source-box'), source: $('source'), valueBox: $('value-box'), value: $('value'),
  treeBox: $('tree-box'), tree: $('tree'), entry: $('entry'), entryJson: $('entry-json'), entryContext: $('entry-context'),
};

// Fragments longer than this are not written to the address bar (a link that large is no use).
const MAX_FRAGMENT = 256 * 1024;
// Larger texts are shown around the highlighted span only.
const MAX_SOURCE = 200 * 1024;

let fullCore;
function loadFull() {
  if (!fullCore) {
    fullCore = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = 'full.js';
      script.onload = () => resolve(globalThis.agentContractPlaygroundFull);
      script.onerror = () => reject(new Error('full.js could not be loaded'));
      document.head.append(script);
    });
  }
  return fullCore;
}

function fillSelects() {
  for (const [value, { label }] of Object.entries(KINDS)) ui.kind.add(new Option(label, value));
  for (const p of PROVIDERS) ui.provider.add(new Option(p, p));
  for (const d of DIALECTS) ui.dialect.add(new Option(d === 'pi' ? 'pi (pi-mono\'s older files)' : 'seed (seed 004)', d));
  const groups = new Map();
  examples.forEach((ex, i) => {
    if (!groups.has(ex.kind)) {
      const group = document.createElement('optgroup');
      group.label = KINDS[ex.kind].label;
      groups.set(ex.kind, group);
      ui.example.append(group);
    }
    const option = new Option(`${ex.id}${ex.provider ? ` (${ex.provider})` : ''}`, String(i));
    option.dataset.fixture = ex.id;
    groups.get(ex.kind).append(option);
  });
}

function currentState() {
  return {
    kind: ui.kind.value, text: ui.input.value, context: ui.context.value,
    provider: ui.provider.value, dialect: ui.dialect.value, tool: ui.tool.value || wantedTool,
  };
}

// The tool a link names, until the context's tools are known and the select can hold it.
let wantedTool = '';

function applyState(state) {
  ui.kind.value = KINDS[state.kind] ? state.kind : 'auto';
  ui.input.value = state.text ?? '';
  ui.context.value = state.context ?? '';
  if (PROVIDERS.includes(state.provider)) ui.provider.value = state.provider;
  if (DIALECTS.includes(state.dialect)) ui.dialect.value = state.dialect;
  wantedTool = state.tool ?? '';
  ui.tool.replaceChildren();
}

// The kind to run and its controls: the chosen one, or the guess for the text.
function resolveKind(state) {
  if (state.kind !== 'auto') {
    ui.detected.textContent = '';
    return state;
  }
  const guess = detectKind(state.text, { hasTool: state.context.trim() !== '' });
  ui.detected.textContent = `Detected: ${KINDS[guess.kind].label}`;
  if (guess.provider) ui.provider.value = guess.provider;
  if (guess.dialect) ui.dialect.value = guess.dialect;
  return { ...state, kind: guess.kind, provider: ui.provider.value, dialect: ui.dialect.value };
}

function showControls(kind) {
  const spec = KINDS[kind];
  ui.providerRow.hidden = !spec.provider;
  ui.dialectRow.hidden = !spec.dialect;
  ui.contextRow.hidden = !spec.context;
  if (spec.context) ui.contextLabel.textContent = spec.context;
  if (!spec.tool) ui.toolRow.hidden = true;
}

// The tool select lists the context's tools when it defines more than one.
function showTools(result) {
  const names = result.tools || [];
  ui.toolRow.hidden = names.length < 2;
  const same = names.length === ui.tool.options.length && names.every((n, i) => ui.tool.options[i].value === n);
  if (!same) ui.tool.replaceChildren(...names.map((n) => new Option(n, n)));
  if (result.tool) ui.tool.value = result.tool;
  wantedTool = '';
}

let runs = 0;
let latest = 0;
let current = null; // {result, state}

async function run() {
  clearTimeout(pending);
  const token = ++latest;
  const started = performance.now();
  const state = resolveKind(currentState());
  showControls(state.kind);
  let result;
  try {
    const api = KINDS[state.kind].core === 'full' ? await loadFull() : protocol;
    if (token !== latest) return;
    result = runKind(state.kind, state, api);
  } catch (error) {
    // Not a verdict: the page itself failed (shown, never mistaken for the core's answer).
    result = { pageError: String(error && error.message ? error.message : error) };
  }
  if (token !== latest) return;
  current = { result, state };
  if (KINDS[state.kind].tool) {
    showTools(result);
    state.tool = result.tool;
  }
  render(result, state);
  writeFragment(state);
  ui.verdict.dataset.elapsedMs = String(Math.round(performance.now() - started));
  ui.verdict.dataset.run = String(++runs);
}

let pending;
function runSoon() {
  clearTimeout(pending);
  pending = setTimeout(run, 300);
}

// The link names the kind that ran (a guess included) and only the controls that kind reads, so
// it reproduces the verdict whatever the guess would be.
function writeFragment(ran) {
  const spec = KINDS[ran.kind];
  const state = { kind: ran.kind, text: ran.text, context: spec.context ? ran.context : '',
    provider: spec.provider ? ran.provider : '', dialect: spec.dialect ? ran.dialect : '',
    // Only when there is a choice: a single definition needs no name.
    tool: spec.tool && ui.tool.options.length > 1 ? ran.tool : '' };
  // Base64 makes 4 characters of 3 bytes, and a character is at least one byte: a text this long
  // is never encoded.
  const tooLong = state.text.length + state.context.length > (MAX_FRAGMENT / 4) * 3;
  const fragment = tooLong ? null : encodeFragment(state);
  if (!fragment || fragment.length > MAX_FRAGMENT) {
    ui.share.removeAttribute('href');
    ui.share.textContent = 'Input too large for a link';
    return;
  }
  ui.share.href = fragment;
  ui.share.textContent = 'Link to this verdict';
  if (location.hash !== fragment) history.replaceState(null, '', fragment);
}

function render(result, state) {
  const v = ui.verdict;
  for (const key of ['ok', 'code', 'path', 'layer', 'line', 'kind']) delete v.dataset[key];
  ui.issues.replaceChildren();
  ui.issuesBox.hidden = true;
  ui.valueBox.hidden = true;
  ui.treeBox.hidden = true;
  ui.entry.hidden = true;
  ui.sourceBox.hidden = true;
  if (result.pageError) {
    v.innerHTML = `<span class="outcome">The page could not check this input</span><p>${escapeHtml(result.pageError)}</p>`;
    return;
  }
  v.dataset.kind = state.kind;
  v.dataset.ok = String(result.ok);
  if (result.ok) {
    v.innerHTML = `<span class="outcome">✓ Accepted</span> <span>(${escapeHtml(KINDS[state.kind].label)}, <code>${KINDS[state.kind].fn}</code>)</span>`;
  } else {
    v.dataset.code = result.code;
    v.dataset.path = result.path;
    v.dataset.layer = result.layer;
    if (result.line !== undefined) v.dataset.line = String(result.line);
    const rows = [['layer', result.layer], ['code', result.code], ['message', result.message],
      ['path', result.path === '' ? '"" (the whole value)' : result.path]];
    if (result.line !== undefined) rows.push(['line', result.line]);
    if (result.position) rows.push(['position', `line ${result.position.line}, column ${result.position.column} (byte ${result.position.offset})`]);
    if (result.stage) rows.push(['in', result.stage]);
    if (result.availableTools) rows.push(['closest tools', result.availableTools.join(', ')]);
    v.innerHTML = `<span class="outcome">✗ Refused</span> <span>(${escapeHtml(KINDS[state.kind].label)}, <code>${KINDS[state.kind].fn}</code>)</span>`
      + `<dl>${rows.map(([k, val]) => `<dt>${k}</dt><dd>${escapeHtml(val)}</dd>`).join('')}</dl>`;
  }
  const list = result.issues && result.issues.length ? result.issues : result.problems && result.problems.length ? result.problems : [];
  if (list.length) {
    ui.issuesBox.hidden = false;
    ui.issuesTitle.textContent = result.problems && list === result.problems ? `Problems (${list.length}${result.report && result.report.truncated ? ', truncated' : ''})` : `Issues (${list.length}${result.truncated ? ', truncated' : ''})`;
    list.forEach((item, i) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'issue';
      button.dataset.index = String(i);
      button.dataset.path = item.path;
      button.setAttribute('aria-pressed', 'false');
      const where = item.line !== undefined ? `line ${item.line} ` : '';
      button.innerHTML = `${escapeHtml(where)}<code>${escapeHtml(item.keyword || item.code)}</code> ${escapeHtml(item.path || '')} — ${escapeHtml(item.message || '')}`;
      button.addEventListener('click', () => {
        for (const b of ui.issues.querySelectorAll('button')) b.setAttribute('aria-pressed', 'false');
        button.setAttribute('aria-pressed', 'true');
        showSpan(item, state);
      });
      li.append(button);
      ui.issues.append(li);
    });
  }
  if (!result.ok) showSpan(result, state);
  if (result.value !== undefined && state.kind !== 'session') {
    ui.valueBox.hidden = false;
    $('value-title').textContent = result.ok ? 'Accepted value' : 'What the core answered';
    ui.value.textContent = JSON.stringify(result.value, null, 2);
  }
  if (state.kind === 'session') renderSession(result, state);
}

// The span an error, issue or problem points at, in the text it was found in.
function spanOf(item, text) {
  if (item.position) {
    const start = indexOfByteOffset(text, item.position.offset);
    const cp = text.codePointAt(start);
    return { start, end: start + (cp === undefined ? 0 : cp > 0xffff ? 2 : 1) };
  }
  if (item.line !== undefined) {
    const line = lineRange(text, item.line);
    if (!line || item.wholeLine) return line;
    const inner = locatePointer(text.slice(line.start, line.end), item.highlightPath ?? '');
    return inner ? { start: line.start + inner.start, end: line.start + inner.end } : line;
  }
  if (item.highlightPath === undefined) return null;
  return locatePointer(text, item.highlightPath);
}

function showSpan(item, state) {
  const text = item.target === 'context' ? state.context : state.text;
  // A stream's pointers name its events, not places in the SSE text: no span to show.
  const span = state.kind === 'stream' ? null : spanOf(item, text);
  ui.sourceBox.hidden = false;
  $('source-title').textContent = item.target === 'context' ? `Where, in the ${KINDS[state.kind].context}` : 'Where, in the input';
  if (!span) {
    ui.source.textContent = 'The core gives no place in the text for this error.';
    return;
  }
  let from = 0;
  let to = text.length;
  if (text.length > MAX_SOURCE) {
    from = Math.max(0, span.start - 2000);
    to = Math.min(text.length, span.end + 2000);
  }
  const mark = document.createElement('mark');
  mark.id = 'highlight';
  mark.textContent = text.slice(span.start, span.end);
  ui.source.replaceChildren(
    (from > 0 ? '…' : '') + text.slice(from, span.start), mark, text.slice(span.end, to) + (to < text.length ? '…' : ''));
  ui.source.scrollTop = Math.max(0, mark.offsetTop - ui.source.offsetTop - 40);
}

// ---- sessions

function sessionEntries(result, state) {
  const problemLines = new Set((result.problems || []).map((p) => p.line));
  if (result.session) {
    return result.session.entries.map((entry, i) => {
      const m = /^line-(\d+)$/.exec(entry.id);
      const line = state.dialect === 'pi' && m ? Number(m[1]) : i + 2;
      return { id: entry.id, parentId: entry.parentId, line, label: entryLabel(entry), entry, problem: problemLines.has(line) };
    });
  }
  // A file with problems: the entries of the lines the core's parser reads, placed by their own
  // id and parentId (drawing only; the verdict is the report above).
  const entries = [];
  state.text.split('\n').forEach((line, i) => {
    const parsed = protocol.safeParseJson(line);
    const value = parsed.ok ? parsed.value : null;
    if (!value || typeof value !== 'object' || Array.isArray(value) || typeof value.id !== 'string' || value.type === 'session') return;
    entries.push({ id: value.id, parentId: typeof value.parentId === 'string' ? value.parentId : null, line: i + 1, label: entryLabel(value), entry: value, problem: problemLines.has(i + 1) });
  });
  return entries;
}

let treeRows = [];
let treeNodes = [];

function renderSession(result, state) {
  if (!result.report) return;
  const entries = sessionEntries(result, state);
  ui.treeBox.hidden = false;
  const shape = layout(entries);
  treeRows = shape.rows;
  ui.tree.innerHTML = entries.length ? renderSvg(shape, null) : '<p class="hint">No entry could be placed.</p>';
  treeNodes = Array.from(ui.tree.querySelectorAll('g.node'));
  ui.tree.dataset.leaves = String(treeRows.filter((r) => r.leaf).length);
  ui.tree.dataset.entries = String(treeRows.length);
}

function selectNode(node) {
  const row = treeRows[Number(node.dataset.row)];
  for (const n of ui.tree.querySelectorAll('g.selected')) {
    n.classList.remove('selected');
    n.setAttribute('aria-selected', 'false');
  }
  node.classList.add('selected');
  node.setAttribute('aria-selected', 'true');
  focusNode(node);
  ui.entry.hidden = false;
  ui.entry.dataset.entryId = row.id;
  ui.entryJson.textContent = JSON.stringify(row.entry, null, 2);
  const session = current && current.result.session;
  if (session) {
    try {
      ui.entryContext.textContent = JSON.stringify(session.context(row.id), null, 2);
    } catch (error) {
      ui.entryContext.textContent = `${error.code}: ${error.message}`;
    }
  } else {
    const first = current.result.problems[0];
    ui.entryContext.textContent = `Not available: readSession refuses this file (line ${first.line}: ${first.code}), so no context is built.`;
  }
  showSpan({ line: row.line, wholeLine: true, target: 'input' }, current.state);
}

function focusNode(node) {
  for (const n of ui.tree.querySelectorAll('g[tabindex="0"]')) n.setAttribute('tabindex', '-1');
  node.setAttribute('tabindex', '0');
  node.focus();
}

function onTreeKey(event) {
  const node = event.target.closest && event.target.closest('g.node');
  if (!node) return;
  const row = Number(node.dataset.row);
  let next;
  switch (event.key) {
    case 'ArrowDown': next = treeNodes[row + 1]; break;
    case 'ArrowUp': next = treeNodes[row - 1]; break;
    case 'Home': next = treeNodes[0]; break;
    case 'End': next = treeNodes[treeNodes.length - 1]; break;
    case 'Enter':
    case ' ':
      event.preventDefault();
      selectNode(node);
      return;
    default: return;
  }
  event.preventDefault();
  if (next) focusNode(next);
}

// ---- input

async function readFileInto(file) {
  ui.input.value = await file.text();
  run();
}

function wire() {
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  ui.input.addEventListener('input', runSoon);
  ui.context.addEventListener('input', runSoon);
  for (const select of [ui.kind, ui.provider, ui.dialect, ui.tool]) select.addEventListener('change', run);
  ui.example.addEventListener('change', () => {
    const ex = examples[Number(ui.example.value)];
    if (!ex) return;
    applyState({ kind: ex.kind, text: ex.text, context: ex.context ?? '', provider: ex.provider, dialect: ex.dialect, tool: '' });
    run();
  });
  ui.file.addEventListener('change', () => {
    if (ui.file.files[0]) readFileInto(ui.file.files[0]);
  });
  ui.input.addEventListener('dragover', (event) => {
    event.preventDefault();
    ui.input.classList.add('dragging');
  });
  ui.input.addEventListener('dragleave', () => ui.input.classList.remove('dragging'));
  ui.input.addEventListener('drop', (event) => {
    const file = event.dataTransfer && event.dataTransfer.files[0];
    ui.input.classList.remove('dragging');
    if (!file) return;
    event.preventDefault();
    readFileInto(file);
  });
  ui.tree.addEventListener('click', (event) => {
    const node = event.target.closest && event.target.closest('g.node');
    if (node) selectNode(node);
  });
  ui.tree.addEventListener('keydown', onTreeKey);
  window.addEventListener('hashchange', () => {
    const state = decodeFragment(location.hash);
    if (state) {
      applyState(state);
      run();
    }
  });
}

async function main() {
  fillSelects();
  wire();
  await protocol.init(protocolWasm);
  document.body.dataset.ready = 'true';
  const state = decodeFragment(location.hash);
  if (state) {
    applyState(state);
    await run();
  }
}

main();
