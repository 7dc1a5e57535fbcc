//! Tools: the contract (`defineTool`), its JSON Schemas (the only place that names the schema
//! engine), input validation, results, registries, permission policies, provider projections,
//! contract versions, and the pipeline that turns a model's tool call into an approved call.

pub mod call;
pub mod contract;
pub mod gemini;
// Compiled tools
pub mod handle;
pub mod input;
pub mod mcp;
pub mod names;
pub mod pipeline;
pub mod policy;
pub mod projection;
pub mod registry;
pub mod resources;
pub mod result;
pub mod schema;
pub mod target;
pub mod versions;
