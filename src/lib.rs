//! agent-contract: decides whether what an LLM produced may act.
//!
//! The core (every module outside `bindings`) is plain Rust with no host dependency: rules are
//! written once against `input::HostValue` and report through `error::ContractError`. The
//! bindings translate host values in and results out; see `docs/architecture.md`.

// Folders are the architecture (docs/architecture.md has the code map):
pub mod acp; // the ACP edge without I/O: prompt admission, base64, sniffing, lifecycle
pub mod api; // the operations every host exposes
#[cfg(feature = "schema")]
pub mod dataset; // training data: rows of tool-calling datasets (OpenAI chat fine-tuning format)
pub mod entropy; // the wasm32 getrandom backend fed by the hosts
pub mod error; // the one error type: closed layers, stable codes
pub mod input; // the host-value layer: `HostValue`, limits, options, field states
pub mod json; // the strict JSON parser (and host text)
mod order; // stable sorting, compiled once for every element type
pub mod protocol; // what a model produces: actions, decisions, previews
pub mod rpc; // JSON-RPC 2.0 over NDJSON: messages, replies, framing, stdout purity, sessions
pub mod session; // the shared message and session protocol (seed 004)
pub mod stream; // provider streams to normalized responses
#[cfg(feature = "schema")]
pub mod tools; // tool contracts, their schemas, registries, policies, the call pipeline
pub mod value; // JSON values plus the host-only states
pub mod wire; // results as one JSON string for the hosts

pub mod bindings;

pub use error::{Code, ContractError, Issue, Layer, Position};
pub use input::limits::Limits;
pub use input::options::Options;
pub use protocol::action::AgentAction;
pub use protocol::decision::{Decision, ToolCall};
#[cfg(feature = "schema")]
pub use tools::contract::ToolDefinition;
pub use value::Value;
