// The same Node program in CommonJS: require() takes the package's `require` condition (index.cjs).
const { readFileSync } = require('node:fs');
const api = require('agent-contract');

(async () => {
  const { verdicts, beforeInit } = await import('./check.mjs');
  const before = beforeInit(api);
  if (before) api.initSync(readFileSync(process.env.AGENT_CONTRACT_WASM));
  console.log(JSON.stringify({ before: before ?? null, verdicts: verdicts(api) }));
})();
