'use strict';
// Node, CommonJS. The wasm module is compiled synchronously at require time.
const core = require('./dist/node/agent_contract.js');
const { createApi } = require('./api.mjs');

module.exports = createApi(core);
