//! What a model produces, read against `input::HostValue`: agent actions (the closed
//! `message` / `tool_call` / `finish` / `request_approval` union), decisions (`tool` / `final`)
//! and log-safe previews of actions.

pub mod action;
pub mod decision;
pub mod preview;
pub mod schemas; // protocolSchemas: the protocol as JSON Schema
pub mod verdict; // verdict replies: which shape a parse kept, for hosts that hold the values
