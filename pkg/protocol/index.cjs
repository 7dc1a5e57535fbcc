'use strict';
// Node, CommonJS: the ES module entry of 'agent-contract/protocol', loaded by require() (Node >=
// 20.19 / 22.12), so both module systems share one instance. module.exports is the API object.
module.exports = require('./index.mjs').default;
