'use strict';
// Node, CommonJS: the ES module entry of 'agent-contract/mcp', loaded by require() (Node >=
// 20.19 / 22.12), so both module systems share one instance and one ContractError class.
module.exports = require('./index.mjs');
