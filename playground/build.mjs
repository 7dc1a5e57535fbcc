// Builds the playground into dist/: index.html, style.css, app.js (the page and the protocol
// core, its wasm embedded) and full.js (the full core, its wasm embedded, loaded on demand).
// Classic scripts, not modules, and no fetched wasm: Chromium refuses module scripts and fetch
// from file://, and the page must work opened from the disk. Examples are fixture cases, chosen
// at build time (src/examples.mjs). `node build.mjs --sizes` also prints the gzip sizes.
import * as esbuild from 'esbuild';
import { mkdir, copyFile, readFile, writeFile, rm } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { pickExamples } from './src/examples.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('./dist/');

const examples = pickExamples(here('../fixtures/'), here('../../shared/conformance/'));

const examplesPlugin = {
  name: 'examples',
  setup(build) {
    build.onResolve({ filter: /^virtual:examples$/ }, () => ({ path: 'examples', namespace: 'examples' }));
    build.onLoad({ filter: /.*/, namespace: 'examples' }, () => ({ contents: JSON.stringify(examples), loader: 'json' }));
  },
};

// For the size report only: the same bundles with the wasm left out.
const noWasmPlugin = {
  name: 'no-wasm',
  setup(build) {
    build.onLoad({ filter: /\.wasm$/ }, () => ({ contents: 'export default new Uint8Array(0)', loader: 'js' }));
  },
};

function options(entry, outfile, extraPlugins = []) {
  return {
    entryPoints: [here(entry)],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    loader: { '.wasm': 'binary' },
    // The package's `new URL(..., import.meta.url)` default is never called: both cores get
    // their bytes from init(bytes). The wasm-bindgen glue lists its one snippet file once per
    // import of it, which esbuild reports as duplicate keys of the same value.
    logOverride: { 'empty-import-meta': 'silent', 'duplicate-object-key': 'silent' },
    plugins: [...extraPlugins, examplesPlugin],
    logLevel: 'warning',
  };
}

async function buildInto(dir, plugins = []) {
  await mkdir(dir, { recursive: true });
  await esbuild.build(options('./src/app.mjs', `${dir}/app.js`, plugins));
  await esbuild.build(options('./src/full-entry.mjs', `${dir}/full.js`, plugins));
  await copyFile(here('./src/index.html'), `${dir}/index.html`);
  await copyFile(here('./src/style.css'), `${dir}/style.css`);
}

async function gz(dir, files) {
  let total = 0;
  for (const f of files) total += gzipSync(await readFile(`${dir}/${f}`), { level: 9 }).length;
  return total;
}

await rm(dist, { recursive: true, force: true });
await buildInto(dist);
console.log(`playground: built ${dist} (${examples.length} examples)`);

if (process.argv.includes('--sizes')) {
  const bare = here('./dist-sizes/');
  await buildInto(bare, [noWasmPlugin]);
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const page = ['index.html', 'style.css', 'app.js'];
  const pkgDist = here('../pkg/dist/');
  const raw = async (f) => gzipSync(await readFile(`${pkgDist}/${f}`), { level: 9 }).length;
  console.log(`page without the wasm (HTML+CSS+JS, gzip -9): ${kb(await gz(bare, page))}; full.js without it: ${kb(await gz(bare, ['full.js']))}`);
  console.log(`page as served (protocol wasm embedded, gzip -9): ${kb(await gz(dist, page))}; full.js: ${kb(await gz(dist, ['full.js']))}`);
  console.log(`the wasm files themselves (gzip -9): protocol ${kb(await raw('agent_contract_protocol_bg.wasm'))}, full ${kb(await raw('agent_contract_bg.wasm'))}`);
  const size = async (f) => (await readFile(f)).length;
  console.log(`uncompressed: app.js ${kb(await size(`${dist}/app.js`))} (protocol wasm ${kb(await size(`${pkgDist}/agent_contract_protocol_bg.wasm`))}), full.js ${kb(await size(`${dist}/full.js`))} (full wasm ${kb(await size(`${pkgDist}/agent_contract_bg.wasm`))})`);
  await rm(bare, { recursive: true, force: true });
}
await writeFile(`${dist}/.built`, '');
