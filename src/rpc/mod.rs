//! JSON-RPC 2.0 over newline-delimited JSON: the decisions of an agent's
//! protocol edge that need no I/O.
//!
//! - `message`: what one message is (`classify`), and the reply the specification demands for a
//!   broken one;
//! - `reply`: the reply builders a server uses for a well-formed request (`methodNotFound`,
//!   `internalError`, `invalidParams`), which refuse to answer a notification;
//! - `ndjson`: the incremental line decoder (frame sync over a dirty byte stream, bounded
//!   memory), one classified frame per line;
//! - `purity`: every line of an agent's stdout that is not a protocol frame;
//! - `session`: one connection followed in both directions (ids in flight, answered twice,
//!   replies to notifications).

pub mod message;
pub mod ndjson;
pub mod options;
pub mod purity;
pub mod reply;
pub mod session;
pub mod shallow;

pub use message::{classify, classify_json, Classification, Kind, Reply};
pub use ndjson::{Decoder, Frame};
pub use options::{Profile, RpcOptions};
pub use session::Session;
