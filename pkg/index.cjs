'use strict';
// Node, CommonJS. The wasm module is compiled synchronously at require time. `renew` loads the
// generated module again (a fresh instance with its own memory), which api.mjs does after a
// call left the instance large; objects of the previous module keep working on theirs.
const generated = require.resolve('./dist/node/agent_contract.js');
const load = () => {
  delete require.cache[generated];
  return require(generated);
};
const { createApi } = require('./api.mjs');

module.exports = createApi(load(), load);
