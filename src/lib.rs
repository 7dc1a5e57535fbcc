//! agent-contract: decides whether what an LLM produced may act.
//!
//! The core (every module outside `bindings`) is plain Rust with no host dependency: rules are
//! written once against `input::HostValue` and report through `error::ContractError`. The
//! bindings translate host values in and results out; see `docs/architecture.md`.

pub mod action;
pub mod api;
pub mod contract_version;
pub mod decision;
pub mod entropy;
pub mod error;
pub mod fields;
pub mod input;
pub mod json;
pub mod limits;
pub mod options;
pub mod pipeline;
pub mod policy;
pub mod preview;
pub mod projection;
pub mod registry;
pub mod stream;
pub mod tool_contract;
pub mod tool_input;
pub mod tool_result;
pub mod tool_schema;
pub mod value;
pub mod wire;

pub mod bindings;

pub use action::AgentAction;
pub use decision::{Decision, ToolCall};
pub use error::{Code, ContractError, Issue, Layer, Position};
pub use limits::Limits;
pub use options::Options;
pub use tool_contract::ToolDefinition;
pub use value::Value;
