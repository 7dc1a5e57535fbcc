'use strict';
// Node, CommonJS: the ES module entry, loaded by require() (Node >= 20.19 / 22.12), so both
// module systems share one instance and one ContractError class. module.exports is the API object.
module.exports = require('./index.mjs').default;
