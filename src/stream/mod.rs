//! Stream assembly: normalized provider events in, one normalized response out.
//!
//! The event model is provider-neutral; provider adapters (`openai_chat`,
//! `openai_responses`, `anthropic`, `gemini`, over the `sse` parser) turn raw provider streams
//! into these events. Each event is a plain object:
//!
//! | `type` | fields |
//! |---|---|
//! | `start` | `sequence`, `itemId`, `callId`, `name` |
//! | `delta` | `sequence`, `itemId`, `text`, optional `name` (providers that repeat it; a different name is `TOOL_NAME_CHANGED`) |
//! | `end` | `sequence`, `itemId` |
//! | `finish` | `sequence`, `reason` (one of `FINISH_REASONS`) |
//! | `cancel` | optional `sequence` |
//!
//! `sequence` is an integer from 0 to 2^53 − 1, strictly increasing over the whole response.
//! Events are read with the shared field helpers (`fields::Reader`), in the `stream` layer;
//! an unknown field or `type` is `STREAM_EVENT_INVALID`. See `assembler` for the rules.

pub mod anthropic;
pub mod assembler;
pub mod gemini;
pub mod openai_chat;
pub mod openai_responses;
pub mod provider;
pub mod provider_stream;
pub mod sse;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{kind_name, Field, Reader, Source};
use crate::input::limits::Limits;
use crate::input::{HostValue, Kind};
use crate::value::pointer_child;

pub use assembler::Assembler;

/// The closed set of finish reasons. Only `stop` and `tool_calls` are normal ends.
pub const FINISH_REASONS: [&str; 7] =
    ["stop", "tool_calls", "length", "content_filter", "cancelled", "error", "unknown"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Start { sequence: u64, item_id: String, call_id: String, name: String },
    Delta { sequence: u64, item_id: String, text: String, name: Option<String> },
    End { sequence: u64, item_id: String },
    Finish { sequence: u64, reason: &'static str },
    Cancel { sequence: Option<u64> },
}

impl Event {
    pub fn sequence(&self) -> Option<u64> {
        match self {
            Event::Start { sequence, .. }
            | Event::Delta { sequence, .. }
            | Event::End { sequence, .. }
            | Event::Finish { sequence, .. } => Some(*sequence),
            Event::Cancel { sequence } => *sequence,
        }
    }
}

const MAX_SEQUENCE: f64 = 9_007_199_254_740_991.0;

fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::StreamEventInvalid, path, message)
}

/// Reads one event from a host value. Strings are not size-limited here (the assembler's
/// byte limits judge them as `ARGUMENTS_TOO_LARGE`).
pub fn read_event<V: HostValue>(value: &V) -> Result<Event> {
    let limits = Limits::ceilings();
    let mut r = Reader::new(Layer::Stream, &limits, Source::Host);
    if value.kind() != Kind::Object {
        return Err(invalid("", format!("an event must be a plain object, got {}", kind_name(value, value.kind()))));
    }
    let kind = r.required_text(value, "type", Code::FieldEmpty)?;
    let allowed: &[&str] = match kind.as_str() {
        "start" => &["type", "sequence", "itemId", "callId", "name"],
        "delta" => &["type", "sequence", "itemId", "text", "name"],
        "end" => &["type", "sequence", "itemId"],
        "finish" => &["type", "sequence", "reason"],
        "cancel" => &["type", "sequence"],
        other => {
            return Err(invalid(
                "/type",
                format!("unknown event type {other:?}: expected start, delta, end, finish or cancel"),
            ))
        }
    };
    for key in r.keys(value, "")? {
        if !allowed.contains(&key.as_str()) {
            return Err(invalid(&pointer_child("", &key), format!("a {kind} event has no field {key:?}")));
        }
    }
    let event = match kind.as_str() {
        "start" => Event::Start {
            sequence: sequence(&mut r, value)?,
            item_id: r.required_text(value, "itemId", Code::FieldEmpty)?,
            call_id: r.required_text(value, "callId", Code::FieldEmpty)?,
            name: r.required_text(value, "name", Code::FieldEmpty)?,
        },
        "delta" => {
            let sequence = sequence(&mut r, value)?;
            let item_id = r.required_text(value, "itemId", Code::FieldEmpty)?;
            let Some(text) = r.optional_string(value, "text")? else {
                return Err(r.error(Code::FieldMissing, "/text", "missing required field text"));
            };
            let name = match r.field(value, "name")? {
                Field::Missing => None,
                _ => Some(r.required_text(value, "name", Code::FieldEmpty)?),
            };
            Event::Delta { sequence, item_id, text, name }
        }
        "end" => Event::End {
            sequence: sequence(&mut r, value)?,
            item_id: r.required_text(value, "itemId", Code::FieldEmpty)?,
        },
        "finish" => {
            let sequence = sequence(&mut r, value)?;
            let reason = r.required_text(value, "reason", Code::FieldEmpty)?;
            let Some(reason) = FINISH_REASONS.iter().find(|r| **r == reason) else {
                return Err(invalid(
                    "/reason",
                    format!("unknown finish reason {reason:?}: expected one of {FINISH_REASONS:?}"),
                ));
            };
            Event::Finish { sequence, reason }
        }
        _ => match r.field(value, "sequence")? {
            Field::Missing => Event::Cancel { sequence: None },
            _ => Event::Cancel { sequence: Some(sequence(&mut r, value)?) },
        },
    };
    Ok(event)
}

fn sequence<V: HostValue>(r: &mut Reader<'_>, value: &V) -> Result<u64> {
    match r.field(value, "sequence")? {
        Field::Missing => Err(r.error(Code::FieldMissing, "/sequence", "missing required field sequence")),
        Field::Undefined => Err(r.undefined("/sequence", "sequence")),
        Field::Present(v) => {
            if v.kind() == Kind::Number {
                let n = v.number();
                if n.fract() == 0.0 && (0.0..=MAX_SEQUENCE).contains(&n) {
                    return Ok(n as u64);
                }
                return Err(r.error(Code::FieldType, "/sequence", "sequence must be an integer from 0 to 2^53 - 1"));
            }
            Err(r.error(
                Code::FieldType,
                "/sequence",
                format!("sequence must be an integer, got {}", kind_name(&v, v.kind())),
            ))
        }
    }
}
