//! The shared message and session protocol (seed 004): messages and their content blocks,
//! tool results, seed tool definitions, session entries and session files (JSON Lines with a
//! `parentId` tree), with `dialect: "pi"` for the older pi-mono format the recorded sessions use.

pub mod check; // session files: the line check, the tree, readSession and its queries
pub mod entry; // one session entry
pub mod event; // parseAgentEvent: the ten agent event kinds
pub mod field; // reading nested fields: the three states, strings, counts, the dialect
pub mod message; // agent messages and content blocks
pub mod pi; // the pi dialect's extra entry types, roles, blocks and fields
pub mod response; // checkSessionResponse: the seed's response and its projection rule
#[cfg(feature = "schema")]
pub mod seed_tool; // the seed's ToolDefinition <-> defineTool
pub mod sequence; // checkEventSequence: the order of one run's events
pub mod tool_result; // parseToolResult
